"""The games atlas knows: one line each, naming where each layer keeps the game.

A game is its rules module (``GAME``, with its :class:`~atlas.sim.base.GameInfo`), its
bots package (a ``BOTS`` table, read by :mod:`atlas.bots.registry`) and its render
module (how it is drawn, read by :mod:`atlas.render.games`).  The modules are named
here as dotted paths and imported on first use, so listing games imports nothing heavy
and no layer imports a higher one: each layer imports only the part that is its own.

A fifth game registers with one call (``docs/development.md`` walks through it)::

    register_game("tictactoe", rules="mypkg.tictactoe", bots="mypkg.tictactoe_bots",
                  render="mypkg.tictactoe_render")
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import UnknownNameError

if TYPE_CHECKING:  # the registry stays cheap to import: no game module is loaded here
    from ..maps import GameMap
    from .base import Game, GameInfo

__all__ = [
    "GameModules",
    "register_game",
    "unregister_game",
    "game_names",
    "game_modules",
    "get_game",
    "get_info",
    "summarize_map",
]


@dataclass(frozen=True)
class GameModules:
    """Where a game lives in each layer (dotted module paths)."""

    rules: str
    bots: str
    render: str


_GAMES: dict[str, GameModules] = {}


def register_game(name: str, *, rules: str, bots: str, render: str) -> None:
    """Make the game ``name`` known: its rules, bots package and render module.

    Registering a name again replaces its entry (a test may register a toy game).
    """
    _GAMES[name] = GameModules(rules, bots, render)


def unregister_game(name: str) -> None:
    """Forget the game ``name`` (a test that registered a toy game cleans up)."""
    _GAMES.pop(name, None)


register_game(
    "tron", rules="atlas.sim.tron", bots="atlas.bots.tron", render="atlas.render.games.tron"
)
register_game(
    "isolation",
    rules="atlas.sim.isolation",
    bots="atlas.bots.isolation",
    render="atlas.render.games.isolation",
)
register_game(
    "connect5",
    rules="atlas.sim.connect5",
    bots="atlas.bots.connect5",
    render="atlas.render.games.connect5",
)
register_game(
    "outpost",
    rules="atlas.sim.outpost",
    bots="atlas.bots.outpost",
    render="atlas.render.games.outpost",
)


def game_names() -> tuple[str, ...]:
    """The registered games, in registration order."""
    return tuple(_GAMES)


def game_modules(name: str) -> GameModules:
    """Where the game ``name`` lives; :class:`~atlas.errors.UnknownNameError` if nowhere."""
    try:
        return _GAMES[name]
    except (KeyError, TypeError):
        raise UnknownNameError("game", str(name), _GAMES) from None


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
