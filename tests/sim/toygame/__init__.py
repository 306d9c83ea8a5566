"""Tic-tac-toe, written the way a fifth game joins atlas: its own map format, a rules
module, a bots package, a render module and one :func:`atlas.sim.registry.register_game`
call (:func:`register`; ``tests/sim/test_fifth_game.py`` and the generic game test use
it; ``docs/development.md`` walks through it)."""

from __future__ import annotations

from atlas.sim.registry import register_game, unregister_game

NAME = "tictactoe"


def register() -> None:
    """The game's registry line (atlas's own games have theirs in ``atlas/games.py``)."""
    register_game(
        NAME,
        maps="toygame.maps",
        rules="toygame.rules",
        bots="toygame.bots",
        render="toygame.render",
    )


def unregister() -> None:
    unregister_game(NAME)
