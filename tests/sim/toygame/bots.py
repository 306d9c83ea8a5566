"""Tic-tac-toe's bots: the random baseline and a bot that takes the first free cell."""

from __future__ import annotations

from typing import Any

BOTS = {"random": "atlas.bots.random:RandomBot", "first": "toygame.bots:FirstFree"}


class FirstFree:
    name = "first"

    def __init__(self, game: str, seed: int = 0) -> None:
        from atlas.sim.registry import get_game

        self.game = get_game(game)

    def move(self, state: Any, player: int, deadline: float) -> Any:
        return self.game.legal_moves(state, player)[0]
