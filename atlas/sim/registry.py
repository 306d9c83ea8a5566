"""The games atlas knows, and their rules by name.

The registry itself (names and the dotted paths of each game's modules, one
``register_game`` line per game) is :mod:`atlas.games`, at the bottom of the layers so
that :mod:`atlas.maps` can find a game's map format; it is re-exported here.  This
module adds what belongs to the sim layer: a game's ``GAME`` object
(:func:`get_game`), its :class:`~atlas.sim.base.GameInfo` and its map summary, each
imported on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# atlas.games's names, re-exported (the "as" form is mypy's explicit re-export)
from ..games import GameModules as GameModules
from ..games import game_modules as game_modules
from ..games import game_names as game_names
from ..games import register_game as register_game
from ..games import unregister_game as unregister_game

if TYPE_CHECKING:  # the registry stays cheap to import: no game module is loaded here
    from ..maps import GameMap
    from .base import Game, GameInfo

__all__ = ["get_game", "get_info", "summarize_map"]  # and atlas.games's, above


def get_game(name: str) -> Game[Any]:
    """The ``GAME`` object of the game called ``name`` (its state type is the game's
    own: ``Any`` here, where the name is only known at run time)."""
    game: Game[Any] = importlib.import_module(game_modules(name).rules).GAME
    return game


def get_info(name: str) -> GameInfo:
    """The :class:`~atlas.sim.base.GameInfo` of the game called ``name``."""
    return get_game(name).info


def summarize_map(game_map: GameMap) -> dict[str, Any]:
    """The key figures of ``game_map``, as its game reports them (``atlas analyze``)."""
    return get_game(game_map.game).summarize_map(game_map)
