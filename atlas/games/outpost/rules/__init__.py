"""Outpost: the rules and what surrounds them.

- :mod:`.game`: the rules;
- :mod:`.kernels` and :mod:`.moves`: their kernels and move decoding;
- :mod:`.traces`: the official simulator's recorded traces;
- :mod:`.faults`: what failing players did.
"""

from __future__ import annotations

from . import game
from .game import *  # noqa: F403  (the game's public names)

__all__ = list(game.__all__)
