"""Tic-tac-toe, written the way a fifth game joins atlas: one package whose modules are
named by their roles (its own map ``format``, its ``rules``, its ``bots``, its
``painter``) and one :func:`atlas.games.register_game` call (:func:`register`;
``tests/sim/test_fifth_game.py`` and the generic game test use it;
``docs/development.md`` walks through it)."""

from __future__ import annotations

from atlas.games import register_game, unregister_game

NAME = "tictactoe"


def register() -> None:
    """The game's registry line (atlas's own games have theirs in ``atlas/games/__init__.py``)."""
    register_game(NAME, "toygame")


def unregister() -> None:
    unregister_game(NAME)
