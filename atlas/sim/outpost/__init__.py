"""Outpost: the rules (:mod:`.rules`), their kernels and move decoding, and the
official simulator's recorded traces (:mod:`.traces`)."""

from __future__ import annotations

from . import rules
from .rules import *  # noqa: F403  (the game's public names)

__all__ = list(rules.__all__)
