"""The rules of the four games, replay records, external bots and tournaments."""

from __future__ import annotations

import importlib

from .base import Game, GameInfo, Outcome

__all__ = ["Game", "GameInfo", "Outcome", "get_game", "GAME_MODULES"]

#: game name -> module holding its ``GAME`` object (imported on first use).
GAME_MODULES = {
    "tron": "atlas.sim.tron",
    "isolation": "atlas.sim.isolation",
    "connect5": "atlas.sim.connect5",
    "outpost": "atlas.sim.outpost.rules",
}


def get_game(name: str) -> Game:
    """The ``GAME`` object of the game called ``name``."""
    try:
        module = GAME_MODULES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; expected one of "
                         f"{', '.join(GAME_MODULES)}") from None
    return importlib.import_module(module).GAME
