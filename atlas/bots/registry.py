"""Built-in bots by game and name.

Each game's bots package (named in :mod:`atlas.sim.registry`) holds a ``BOTS`` table,
bot name -> ``"module:attribute"`` of a factory ``(game=..., seed=...) -> bot``, in the
order from the simplest bot to the strongest.  Only the table is read to list bots, so
listing imports nothing heavy; :func:`make_bot` imports the one module it needs.
"""

from __future__ import annotations

import importlib

from ..errors import UnknownNameError
from ..sim.registry import game_modules
from .base import BotBase, as_bot

__all__ = ["bot_table", "bot_names", "served_note", "make_bot"]


def bot_table(game: str) -> dict[str, str]:
    """Name -> ``"module:attribute"`` of every built-in bot of ``game``."""
    return dict(importlib.import_module(game_modules(game).bots).BOTS)


def bot_names(game: str) -> list[str]:
    """Names of the built-in bots of ``game``, from the simplest."""
    return list(bot_table(game))


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
    module, _, attr = target.partition(":")
    factory = getattr(importlib.import_module(module), attr)
    return as_bot(factory(game=game, seed=seed))
