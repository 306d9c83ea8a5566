"""How each game is drawn: its painter module, found through the registry.

:func:`render_of` returns a game's ``RENDER`` object (:class:`.painter.GameRender`).  It
is read from the game's ``painter`` module (:mod:`atlas.games`).  Whether a game
validates its maps is the registry's to say (:func:`atlas.maps.validation.validator_of`).
Its painter draws the reports (:meth:`.painter.GameRender.validation_picture`).
"""

from __future__ import annotations

import importlib

from ..sim.registry import game_modules
from .painter import GameRender

__all__ = ["render_of", "GameRender"]


def render_of(game: str) -> GameRender:
    """The ``RENDER`` object of ``game``'s painter module."""
    render: GameRender = importlib.import_module(game_modules(game).painter).RENDER
    return render
