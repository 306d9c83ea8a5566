"""The checks every API function makes of its arguments, one per kind of argument,
each raising an :class:`~atlas.errors.ArgumentError` (or the atlas error the command
line gives for the same mistake) that names the argument and the value.

An argument means one thing everywhere, and is checked here once:

* a map (``game_map``): a :class:`~atlas.maps.GameMap`, a map file (a ``str`` or a
  path-like), or a map's text (a ``str`` with a line break in it): :func:`game_map_of`;
* ``params``: game parameters over the game's defaults, a mapping with ``str`` keys:
  :func:`params_of`;
* ``compat``: ``"spec"`` or ``"official"``, or ``None``: :func:`compat_of`, applied to
  a game's parameters by :func:`with_compat`;
* ``cache``: the folder of played games shared with ``atlas build``, or ``None`` for
  none: :func:`cache_of`;
* ``seed``, ``time``, ``jobs``, counts, paths and game names: :func:`seed_of`,
  :func:`seconds`, :func:`jobs_of`, :func:`whole`, :func:`path_of`, :func:`game_name`.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import ArgumentError, UnknownNameError
from ..fsutil import checked_path
from ..limits import MAX_COUNT, MAX_JOBS, MAX_SECONDS, MAX_SEED

if TYPE_CHECKING:
    from ..maps import GameMap
    from ..types import Compat, JSONValue

__all__ = [
    "short",
    "source_of",
    "map_source",
    "game_map_of",
    "read_source",
    "seconds",
    "seed_of",
    "game_name",
    "path_of",
    "cache_of",
    "whole",
    "jobs_of",
    "mapping",
    "params_of",
    "compat_of",
    "with_compat",
    "COMPAT_WORDS",
]

#: The words ``compat`` takes (the command line's ``--compat``).
COMPAT_WORDS: tuple[Compat, ...] = ("spec", "official")


def short(value: object, limit: int = 60) -> str:
    """``type value`` for a message, the value's repr cut to ``limit`` characters."""
    text = repr(value)
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return f"{type(value).__name__} {text}"


def source_of(value: object, what: str) -> tuple[Path | None, str | None]:
    """``(path, None)`` for a file, ``(None, text)`` for a map's or a report's text.

    A path-like value is a file; a ``str`` holding a line break is text; any other
    ``str`` is a file name.
    """
    if isinstance(value, os.PathLike):
        return checked_path(value, what), None
    if isinstance(value, str):
        if "\n" in value or "\r" in value:
            return None, value
        if not value.strip():
            raise ArgumentError(f"{what}: expected a file or a map's text, got an empty string")
        return checked_path(value, what), None
    raise ArgumentError(
        f"{what}: expected a file (str or path) or the text, got {short(value)}"
    )


def map_source(value: object, what: str, *, folders: bool = False) -> GameMap | Path | str:
    """A map argument as it was given: the :class:`GameMap` itself, the file (a
    :class:`Path`), or the map's text (a ``str``), told apart as :func:`source_of` does.
    ``folders`` says that a folder of maps is accepted too (for the message)."""
    from ..maps import GameMap

    if isinstance(value, GameMap):
        return value
    if not isinstance(value, (str, os.PathLike)):
        files = "a map file, a folder" if folders else "a map file"
        raise ArgumentError(
            f"{what}: expected a GameMap (atlas.read_map), {files} or a map's text, "
            f"got {short(value)}"
        )
    path, text = source_of(value, what)
    if text is not None:
        return text
    assert path is not None
    return path


def read_source(
    path: Path | None, text: str | None, *, game: str | None = None, name: str | None = None
) -> GameMap:
    """The map in the file ``path`` or in ``text`` (:func:`atlas.read_map`): its name
    ``name``, or the file's stem, or ``"map"`` for text."""
    from dataclasses import replace

    from ..maps import parse_map
    from ..maps import read_map as read_file

    if text is not None:
        return parse_map(text, game=game, name=name or "map")
    assert path is not None
    game_map = read_file(path, game=game)
    if name is not None and name != game_map.name:
        game_map = replace(game_map, name=name)
    return game_map


def game_map_of(value: object, what: str = "game_map") -> GameMap:
    """A map: a :class:`GameMap` as it is; a map file or a map's text read as
    :func:`atlas.read_map` reads it (a :class:`~atlas.errors.MapFormatError` naming the
    file and the line when it is not a map)."""
    found = map_source(value, what)
    if isinstance(found, Path):
        return read_source(found, None)
    if isinstance(found, str):
        return read_source(None, found)
    return found


def path_of(value: object, what: str) -> Path:
    """``value`` as a path (a str or a path-like)."""
    if isinstance(value, (str, os.PathLike)) and str(value).strip():
        return checked_path(value, what)
    raise ArgumentError(f"{what}: expected a path (str or path-like), got {short(value)}")


def cache_of(value: object, what: str = "cache") -> Path | None:
    """The folder of played games shared with ``atlas build`` (``None``: no cache).
    A path that is there and is not a folder is refused, not silently never used."""
    from ..render.site.cache import check_cache_root

    if value is None:
        return None
    folder = path_of(value, what)
    check_cache_root(folder)
    return folder


def seconds(value: object, what: str = "time") -> float:
    """A number of seconds, more than 0 (the CLI's ``--time``)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ArgumentError(f"{what}: expected a number of seconds, got {short(value)}")
    if not (value > 0 and math.isfinite(value)):
        raise ArgumentError(f"{what}: expected a positive number, got {value!r}")
    if value > MAX_SECONDS:
        raise ArgumentError(
            f"{what}: expected at most {MAX_SECONDS:,.0f} seconds, got {value:g}"
        )
    return float(value)


def whole(value: object, what: str, minimum: int, maximum: int | None = None) -> int:
    """A whole number from ``minimum`` to ``maximum`` (the CLI's counts; by default at
    most :data:`~atlas.limits.MAX_JOBS` for ``jobs``, else :data:`~atlas.limits.MAX_COUNT`)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentError(f"{what}: expected a whole number, got {short(value)}")
    if value < minimum:
        raise ArgumentError(f"{what}: expected at least {minimum}, got {short(value)}")
    top = maximum if maximum is not None else MAX_JOBS if what == "jobs" else MAX_COUNT
    if value > top:
        raise ArgumentError(f"{what}: expected at most {top:,}, got {short(value, 30)}")
    return int(value)


def seed_of(value: object, what: str = "seed") -> int:
    """A game's seed: a whole number from 0 to :data:`~atlas.limits.MAX_SEED`."""
    return whole(value, what, 0, MAX_SEED)


def jobs_of(value: object, what: str = "jobs") -> int | None:
    """Worker processes: a whole number of at least 1 (``None``: one per core)."""
    return None if value is None else whole(value, what, 1)


def scheduler_of(value: object, what: str = "scheduler") -> str | None:
    """A Dask scheduler's address (``None``: local processes)."""
    if value is None:
        return None
    if isinstance(value, str) and value.strip():
        return value.strip()
    raise ArgumentError(
        f"{what}: expected a dask scheduler's address (tcp://host:port), got {short(value)}"
    )


def mapping(value: object, what: str) -> dict[str, object]:
    """A mapping with string keys, as a dict (``None`` is empty)."""
    if value is None:
        return {}
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise ArgumentError(f"{what}: expected a dict with str keys, got {short(value)}")
    return dict(value)


def params_of(value: object, what: str = "params") -> dict[str, JSONValue]:
    """Game parameters over the game's defaults, as a dict (``None`` is empty); the
    game checks the names and values (a :class:`~atlas.errors.ParamError`)."""
    return mapping(value, what)  # type: ignore[return-value]  # the game checks values


def compat_of(value: object, what: str = "compat") -> Compat | None:
    """``"spec"`` or ``"official"``, or ``None`` (each game's default rules)."""
    if value is None:
        return None
    for word in COMPAT_WORDS:
        if value == word and isinstance(value, str):
            return word
    raise ArgumentError(f"{what}: expected 'spec' or 'official', got {short(value)}")


def with_compat(
    game: str, compat: Compat | None, params: Mapping[str, JSONValue]
) -> dict[str, JSONValue]:
    """``params`` with the ``compat`` word applied as ``game``'s ``compat`` parameter
    (a :class:`~atlas.errors.ParamError` for ``"official"`` when the game has one set
    of rules)."""
    from ..errors import ParamError
    from ..sim.registry import get_info

    if compat is None:
        return dict(params)
    param = get_info(game).param("compat")
    if param is None:
        if compat == "official":
            raise ParamError(
                f"compat {compat}: {game} has one set of rules, no 'official' variant"
            )
        return dict(params)
    return {**params, "compat": param.default if compat == "spec" else compat}


def game_name(value: object, what: str = "game") -> str:
    """A registered game's name."""
    from ..games import game_names

    if not isinstance(value, str):
        raise ArgumentError(f"{what}: expected a game's name (str), got {short(value)}")
    if value not in game_names():
        raise UnknownNameError("game", value, game_names())
    return value
