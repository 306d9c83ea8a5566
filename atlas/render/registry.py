"""How each game is drawn: one render module per game, found through the registry.

:func:`render_of` returns a game's ``RENDER`` object (:class:`.base.GameRender`), read
from the render module :mod:`atlas.games` names for the game; :func:`validator_of` the
same for a game whose submitted maps the site validates (:class:`.base.ValidatingRender`).
"""

from __future__ import annotations

import importlib

from ..errors import UnknownNameError
from ..sim.registry import game_modules, game_names
from .painter import GameRender, ValidatingRender

__all__ = ["render_of", "validator_of", "GameRender", "ValidatingRender"]


def render_of(game: str) -> GameRender:
    """The ``RENDER`` object of ``game``'s render module."""
    render: GameRender = importlib.import_module(game_modules(game).painter).RENDER
    return render


def validator_of(game: str) -> ValidatingRender:
    """The ``RENDER`` object of ``game`` when it validates submitted maps;
    :class:`~atlas.errors.UnknownNameError` (naming the games that do) otherwise."""
    render = render_of(game)
    if isinstance(render, ValidatingRender):
        return render
    validating = [g for g in game_names() if render_of(g).validates]
    raise UnknownNameError("game that validates maps", game, validating)
