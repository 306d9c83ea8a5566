"""Outpost: the rules (:mod:`.game`), their kernels and move decoding, the official
simulator's recorded traces (:mod:`.traces`) and what failing players did
(:mod:`.faults`)."""

from __future__ import annotations

from . import game
from .game import *  # noqa: F403  (the game's public names)

__all__ = list(game.__all__)
