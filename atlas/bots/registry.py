"""Built-in bots by game and name.

Each game's bots package (named in :mod:`atlas.sim.registry`) holds a ``BOTS`` table,
bot name -> ``"module:attribute"`` of a factory ``(game=..., seed=...) -> bot``, in the
order from the simplest bot to the strongest.  Only the table is read to list bots, so
listing imports nothing heavy; :func:`make_bot` imports the one module it needs.

Beside it an ``ABOUT`` table, bot name -> (what the bot does, the files of the bots
package that hold its code), gives the rows of the bots' tables in ``README.md``
and ``docs/bots.md``, which ``python tools/make_doc_tables.py`` writes
(``tests/test_doc_tables.py`` fails when they differ); :func:`bot_about` reads it.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

from ..errors import UnknownNameError
from ..sim.registry import game_modules
from .base import BotBase, as_bot

__all__ = [
    "bot_table",
    "bot_efforts",
    "bot_effort",
    "bot_names",
    "bot_about",
    "served_note",
    "make_bot",
    "bot_factory",
    "compile_seconds",
]


#: The random bot's row in every game's table of bots (its file is in this package).
RANDOM_ABOUT = (
    "a uniformly random legal move, seeded: the floor every bot must beat",
    ("random.py",),
)


def bot_table(game: str) -> dict[str, str]:
    """Name -> ``"module:attribute"`` of every built-in bot of ``game``."""
    return dict(importlib.import_module(game_modules(game).bots).BOTS)


#: The effort of a built-in bot its game's ``EFFORT`` table does not name: one poll
#: (such bots read no clock, and effort changes nothing for them; a record still says
#: the game was played at fixed effort).
UNSEARCHED_EFFORT = 1


def bot_efforts(game: str, scale: int = 1) -> dict[str, int]:
    """Name -> default effort per move of every built-in bot of ``game`` (its bots
    package's ``EFFORT`` table, :data:`UNSEARCHED_EFFORT` for the bots it does not name),
    each times ``scale`` (``atlas build --effort``)."""
    table = dict(getattr(importlib.import_module(game_modules(game).bots), "EFFORT", {}))
    return {
        name: int(table.get(name, UNSEARCHED_EFFORT)) * max(1, int(scale))
        for name in bot_table(game)
    }


def bot_effort(game: str, name: str, scale: int = 1) -> int:
    """The default effort of built-in bot ``name`` of ``game`` times ``scale`` (0 when
    ``game`` has no built-in bot ``name``: a program, which plays by the clock)."""
    return bot_efforts(game, scale).get(name, 0)


def bot_names(game: str) -> list[str]:
    """Names of the built-in bots of ``game``, from the simplest."""
    return list(bot_table(game))


def _shown(package: ModuleType, files: Iterable[str]) -> tuple[str, ...]:
    """``files`` of the folder of ``package``, named from the folder above its top-level
    package (``atlas/games/tron/bots/apex.py``)."""
    folder = Path(str(package.__file__)).parent
    top = sys.modules[package.__name__.partition(".")[0]]
    root = Path(str(top.__file__)).parent.parent
    out = []
    for f in files:
        path = folder / f
        try:
            out.append(path.relative_to(root).as_posix())
        except ValueError:
            out.append(path.as_posix())
    return tuple(out)


def bot_about(game: str) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Name -> (what the bot does, the files holding its code) for every built-in bot
    of ``game``.

    The rows are its bots package's ``ABOUT``, whose files are named within that
    package, and the random bot's row shared by every game (:data:`RANDOM_ABOUT`).
    The files come back named from the folder above the top-level package
    (``atlas/games/tron/bots/apex.py``).  A bot the table does not describe gets an
    empty text and no files.
    """
    package = importlib.import_module(game_modules(game).bots)
    about = {
        "random": (RANDOM_ABOUT[0], _shown(sys.modules[__package__], RANDOM_ABOUT[1])),
        **{
            name: (text, _shown(package, files))
            for name, (text, files) in getattr(package, "ABOUT", {}).items()
        },
    }
    out: dict[str, tuple[str, tuple[str, ...]]] = {}
    for name in bot_table(game):
        text, files = about.get(name, ("", ()))
        out[name] = (str(text), tuple(files))
    return out


def served_note(game: str) -> str:
    """What ``game``'s bots package says of its bots served to another engine (its
    ``SERVED`` text: the rules they plan by, the first move's time), or ``""``."""
    return str(getattr(importlib.import_module(game_modules(game).bots), "SERVED", ""))


def make_bot(game: str, name: str, seed: int = 0) -> BotBase:
    """A fresh built-in bot ``name`` for ``game`` with its own seeded generator (a
    factory that makes a plain object is wrapped, :func:`~atlas.bots.base.as_bot`).

    Raises
    ------
    UnknownNameError
        ``game`` is not a registered game, or it has no built-in bot ``name``.
    """
    table = bot_table(game)
    try:
        target = table[name]
    except (KeyError, TypeError):
        raise UnknownNameError("bot", str(name), table, where=game) from None
    return as_bot(_factory(target)(game=game, seed=seed))


def _factory(target: str) -> Any:
    """The factory a ``BOTS`` entry ``"module:attribute"`` names (its module imported)."""
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


def bot_factory(game: str, name: str) -> Any | None:
    """The factory of built-in bot ``name`` of ``game`` (its class, whose attributes
    say what the bot is without making one), or None: no such bot, or its module does
    not import (:func:`make_bot` reports why).

    >>> bot_factory("tron", "apex").__name__, bot_factory("tron", "nosuchbot")
    ('ApexBot', None)
    """
    target = bot_table(game).get(name)
    if target is None:
        return None
    try:
        return _factory(target)
    except (ImportError, AttributeError):
        return None


def compile_seconds(game: str, names: Iterable[str]) -> float:
    """About how many seconds of one core numba takes to compile the kernels of the
    built-in bots ``names`` of ``game`` from an empty cache: the sum of their factories'
    ``compile_seconds`` (:attr:`atlas.bots.base.BotBase.compile_seconds`, each measured
    alone, the game's rules included), each module's once (Outpost's three heuristics
    are one bot's kernels; kernels two modules share are counted twice, so the sum is
    high).  Names that are not built-in bots count 0."""
    table = bot_table(game)
    found: dict[str, float] = {}
    for name in sorted(set(names)):
        factory = bot_factory(game, name)
        if factory is None:  # not a built-in bot, or one make_bot reports
            continue
        module = table[name].partition(":")[0]
        seconds = float(getattr(factory, "compile_seconds", 0.0))
        found[module] = max(found.get(module, 0.0), seconds)
    return sum(found.values())
