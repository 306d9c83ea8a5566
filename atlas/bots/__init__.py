"""Built-in bots and the registry that finds them by name.

A bot is anything with ``move(state, player, deadline) -> move``, where ``deadline`` is a
``time.perf_counter()`` value by which the move must be returned, ``state`` is a copy the
bot may keep or change, and ``player`` its seat.  Bots may also define
``start(game_map, params, player)`` (called once before the first move) and ``close()``.

Built-in bots are registered here by game and name with the module that defines them, so
that listing bots imports nothing heavy.  A module defines a factory
``make_bot(name, seed) -> Bot`` or one class per name registered with :data:`BOTS`.
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol, runtime_checkable

from ..errors import BotError

__all__ = ["Bot", "BOTS", "bot_names", "make_bot"]


@runtime_checkable
class Bot(Protocol):
    name: str

    def move(self, state: Any, player: int, deadline: float) -> Any: ...


#: (game, bot name) -> "module:attribute" of a callable ``(seed: int) -> Bot``.
BOTS: dict[tuple[str, str], str] = {
    ("tron", "random"): "atlas.bots.random_bot:RandomBot",
    ("tron", "wallhugger"): "atlas.bots.tron_wallhugger:WallHugger",
    ("tron", "voronoi"): "atlas.bots.tron_voronoi:VoronoiBot",
    ("tron", "chambers"): "atlas.bots.tron_chambers:ChambersBot",
    ("tron", "frontline"): "atlas.bots.tron_frontline:FrontlineBot",
    ("isolation", "random"): "atlas.bots.random_bot:RandomBot",
    ("isolation", "phased"): "atlas.bots.isolation_phased:PhasedIsolationBot",
    ("isolation", "strong"): "atlas.bots.isolation_strong:StrongIsolationBot",
    ("connect5", "random"): "atlas.bots.random_bot:RandomBot",
    ("connect5", "window4"): "atlas.bots.connect5_window:Window4Bot",
    ("connect5", "strong"): "atlas.bots.connect5_strong:StrongConnect5Bot",
    ("outpost", "random"): "atlas.bots.random_bot:RandomBot",
    ("outpost", "greedy"): "atlas.bots.outpost_bots:GreedyOutpostBot",
    ("outpost", "balanced"): "atlas.bots.outpost_bots:BalancedOutpostBot",
    ("outpost", "defender"): "atlas.bots.outpost_bots:DefenderOutpostBot",
    ("outpost", "planner"): "atlas.bots.outpost_planner:PlannerOutpostBot",
}


def bot_names(game: str) -> list[str]:
    """Names of the built-in bots of ``game``, in registration order."""
    return [name for (g, name) in BOTS if g == game]


def make_bot(game: str, name: str, seed: int = 0) -> Bot:
    """Create the built-in bot ``name`` for ``game`` with its own seeded generator."""
    try:
        target = BOTS[(game, name)]
    except KeyError:
        known = ", ".join(bot_names(game)) or "none"
        raise BotError(f"unknown {game} bot {name!r}; built-in bots: {known}") from None
    module, _, attr = target.partition(":")
    factory = getattr(importlib.import_module(module), attr)
    bot = factory(game=game, seed=seed)
    return bot
