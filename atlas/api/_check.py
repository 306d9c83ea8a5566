"""The checks every API function makes of its arguments, each raising an
:class:`~atlas.errors.ArgumentError` (or the atlas error the command line gives for the
same mistake) that names the argument and the value."""

from __future__ import annotations

import dataclasses
import math
import os
from pathlib import Path
from typing import Any, TypeVar

from ..errors import ArgumentError, UnknownNameError
from ..fsutil import checked_path
from ..limits import MAX_COUNT, MAX_JOBS, MAX_SECONDS

__all__ = [
    "upcast",
    "short",
    "source_of",
    "seconds",
    "game_name",
    "path_of",
    "whole",
    "mapping",
]


def short(value: Any, limit: int = 60) -> str:
    """``type value`` for a message, the value's repr cut to ``limit`` characters."""
    text = repr(value)
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return f"{type(value).__name__} {text}"


def source_of(value: Any, what: str) -> tuple[Path | None, str | None]:
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


def path_of(value: Any, what: str) -> Path:
    """``value`` as a path (a str or a path-like)."""
    if isinstance(value, (str, os.PathLike)) and str(value).strip():
        return checked_path(value, what)
    raise ArgumentError(f"{what}: expected a path (str or path-like), got {short(value)}")


def seconds(value: Any, what: str = "time") -> float:
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


def whole(value: Any, what: str, minimum: int, maximum: int | None = None) -> int:
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


def mapping(value: Any, what: str) -> dict[str, Any]:
    """A mapping with string keys, as a dict (``None`` is empty)."""
    from collections.abc import Mapping

    if value is None:
        return {}
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise ArgumentError(f"{what}: expected a dict with str keys, got {short(value)}")
    return dict(value)


def game_name(value: Any, what: str = "game") -> str:
    """A registered game's name."""
    from ..games import game_names

    if not isinstance(value, str):
        raise ArgumentError(f"{what}: expected a game's name (str), got {short(value)}")
    if value not in game_names():
        raise UnknownNameError("game", value, game_names())
    return value


_T = TypeVar("_T")


def upcast(cls: type[_T], value: Any) -> _T:
    """``value``, an instance of the lower layer's dataclass that ``cls`` extends, as a
    ``cls`` with the same fields (``value`` itself when it is one already)."""
    if isinstance(value, cls):
        return value
    return cls(**{f.name: getattr(value, f.name) for f in dataclasses.fields(value)})
