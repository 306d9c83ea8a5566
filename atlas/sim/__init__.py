"""The rules of the games and their replay records.

* :mod:`~atlas.sim.base` -- the :class:`Game` interface, :class:`GameInfo`, outcomes;
* :mod:`~atlas.sim.registry` -- the games atlas knows, by name;
* :mod:`~atlas.sim.records` -- replay records;
* one module per game: :mod:`~atlas.games.tron.rules`, :mod:`~atlas.games.isolation.rules`,
  :mod:`~atlas.games.connect5.rules`, :mod:`~atlas.games.outpost.rules`.
"""

from __future__ import annotations

from .base import Game, GameInfo, Outcome, Reason, Status
from .registry import game_names, get_game, get_info, register_game

__all__ = [
    "Game",
    "GameInfo",
    "Outcome",
    "Reason",
    "Status",
    "get_game",
    "get_info",
    "game_names",
    "register_game",
]
