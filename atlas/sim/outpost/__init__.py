"""Outpost: the rules (:mod:`.rules`), their kernels and move decoding, the official
simulator's recorded traces (:mod:`.traces`) and what failing players did
(:mod:`.faults`)."""

from __future__ import annotations

from . import rules
from .rules import *  # noqa: F403  (the game's public names)

__all__ = list(rules.__all__)
