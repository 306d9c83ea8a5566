"""Built-in bots, one package per game, found by name through :mod:`.registry`.

A bot is anything with ``move(state, player, deadline) -> move``, where ``deadline`` is a
``time.perf_counter()`` value by which the move must be returned, ``state`` is a copy the
bot may keep or change, and ``player`` its seat.  atlas's bots subclass
:class:`~atlas.bots.base.BotBase`, whose optional hooks (``start``, ``close``,
``stderr_text``, ``first_move_time``, what the last move's search found) are documented
no-ops; any other object with ``move`` is wrapped by :func:`~atlas.bots.base.as_bot`.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from .base import BotBase, as_bot
from .registry import bot_names, make_bot

__all__ = ["Bot", "BotBase", "as_bot", "bot_names", "make_bot"]


@runtime_checkable
class Bot(Protocol):
    """The least a bot is: a name and a move (:class:`BotBase` adds the hooks)."""

    name: str

    def move(self, state: Any, player: int, deadline: float) -> Any: ...
