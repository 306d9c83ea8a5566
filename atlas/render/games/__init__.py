"""How each game is drawn: one render module per game, found through the registry.

:func:`render_of` returns a game's ``RENDER`` object (:class:`.base.GameRender`), read
from the render module :mod:`atlas.sim.registry` names for the game.
"""

from __future__ import annotations

import importlib

from ...sim.registry import game_modules
from .base import GameRender

__all__ = ["render_of", "GameRender"]


def render_of(game: str) -> GameRender:
    """The ``RENDER`` object of ``game``'s render module."""
    return importlib.import_module(game_modules(game).render).RENDER
