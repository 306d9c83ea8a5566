"""Built-in bots, one package per game, found by name through :mod:`.registry`.

A bot is anything with ``move(state, player, deadline) -> move``, where ``deadline`` is a
``time.perf_counter()`` value by which the move must be returned, ``state`` is a copy the
bot may keep or change, and ``player`` its seat.  Bots may also define
``start(game_map, params, player)`` (called once before the first move) and ``close()``.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from .registry import bot_names, make_bot

__all__ = ["Bot", "bot_names", "make_bot"]


@runtime_checkable
class Bot(Protocol):
    name: str

    def move(self, state: Any, player: int, deadline: float) -> Any: ...
