"""The random baseline bot: a uniformly random legal move, for every game.

It is the floor every other bot must beat, and the bot the generic game tests and the
speed benchmark play with.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..sim import get_game
from ..types import PlayerId
from .base import BotBase

__all__ = ["RandomBot"]


class RandomBot(BotBase):
    """Play ``get_game(game).random_move`` with its own seeded generator.

    Parameters
    ----------
    game : str
        The game's name (``"tron"``, ``"isolation"``, ``"connect5"``, ``"outpost"``).
    seed : int
        Seed of the bot's ``numpy.random.Generator``: the same seed, the same moves.

    Notes
    -----
    What "random" means per game is the game's own ``random_move``: a uniformly random
    legal move (for tron a random direction among those that do not crash at once).
    """

    def __init__(self, game: str, seed: int = 0) -> None:
        self.game_name = game
        self.game = get_game(game)
        self.seed = int(seed)
        self.rng = np.random.default_rng(self.seed)
        self.name = "random"

    def move(self, state: Any, player: PlayerId, deadline: float) -> Any:
        """A random legal move of ``player`` in ``state``; ``deadline`` is not needed."""
        return self.game.random_move(state, player, self.rng)

    def __repr__(self) -> str:
        return f"RandomBot(game={self.game_name!r}, seed={self.seed})"
