"""The games atlas knows: one line each, naming where each layer keeps the game.

A game is its map format (optional: without one its maps use the atlas grid format of
:mod:`atlas.maps`), its rules module (``GAME``, with its
:class:`~atlas.sim.base.GameInfo`), its bots package (a ``BOTS`` table, read by
:mod:`atlas.bots.registry`) and its render module (how it is drawn, read by
:mod:`atlas.render.games`).  The modules are named here as dotted paths and imported on
first use by the layer they belong to: :mod:`atlas.maps` imports a game's format module,
:mod:`atlas.sim.registry` its rules, and so on up.  So listing games imports nothing,
and no layer imports a higher one.

This module sits at the bottom of the layers (it imports only :mod:`atlas.errors`) so
that the lowest layer that needs a game, :mod:`atlas.maps`, can look it up.
:mod:`atlas.sim.registry` re-exports everything here beside the functions that load a
game's rules.

A fifth game registers with one call (``docs/development.md`` walks through it)::

    register_game("tictactoe", maps="mypkg.tictactoe_maps", rules="mypkg.tictactoe",
                  bots="mypkg.tictactoe_bots", render="mypkg.tictactoe_render")
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import UnknownNameError

__all__ = [
    "GameModules",
    "register_game",
    "unregister_game",
    "game_names",
    "game_modules",
]


@dataclass(frozen=True)
class GameModules:
    """Where a game lives in each layer (dotted module paths).

    Attributes
    ----------
    rules : str
        The rules module (``GAME``), in the sim layer.
    bots : str
        The bots package (``BOTS``), in the bots layer.
    render : str
        The render module (``RENDER``), in the render layer.
    maps : str or None
        The map format module (``FORMAT``, an :class:`atlas.maps.MapFormat`), in the
        maps layer; ``None``: the game's maps use the atlas grid format.
    """

    rules: str
    bots: str
    render: str
    maps: str | None = None


_GAMES: dict[str, GameModules] = {}


def register_game(
    name: str, *, rules: str, bots: str, render: str, maps: str | None = None
) -> None:
    """Make the game ``name`` known: its map format, rules, bots package and render module.

    Registering a name again replaces its entry (a test may register a toy game).
    """
    _GAMES[name] = GameModules(rules, bots, render, maps)


def unregister_game(name: str) -> None:
    """Forget the game ``name`` (a test that registered a toy game cleans up)."""
    _GAMES.pop(name, None)


def game_names() -> tuple[str, ...]:
    """The registered games, in registration order."""
    return tuple(_GAMES)


def game_modules(name: str) -> GameModules:
    """Where the game ``name`` lives; :class:`~atlas.errors.UnknownNameError` if nowhere."""
    try:
        return _GAMES[name]
    except (KeyError, TypeError):
        raise UnknownNameError("game", str(name), _GAMES) from None


# The registry lines: one per game, the only place outside a game's own modules that
# names it (tests/test_game_names.py counts the others).
register_game(
    "tron",
    maps="atlas.maps.tron",
    rules="atlas.sim.tron",
    bots="atlas.bots.tron",
    render="atlas.render.games.tron",
)
register_game(
    "isolation",
    maps="atlas.maps.isolation",
    rules="atlas.sim.isolation",
    bots="atlas.bots.isolation",
    render="atlas.render.games.isolation",
)
register_game(
    "connect5",
    maps="atlas.maps.connect5",
    rules="atlas.sim.connect5",
    bots="atlas.bots.connect5",
    render="atlas.render.games.connect5",
)
register_game(
    "outpost",
    maps="atlas.maps.outpost",
    rules="atlas.sim.outpost",
    bots="atlas.bots.outpost",
    render="atlas.render.games.outpost",
)
