"""The rules of the games and their replay records.

* :mod:`~atlas.sim.base` -- the :class:`Game` interface, :class:`GameInfo`, outcomes;
* :mod:`~atlas.sim.registry` -- the games atlas knows, by name;
* :mod:`~atlas.sim.records` -- replay records;
* one module per game: :mod:`~atlas.sim.tron`, :mod:`~atlas.sim.isolation`,
  :mod:`~atlas.sim.connect5`, :mod:`~atlas.sim.outpost`.
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
