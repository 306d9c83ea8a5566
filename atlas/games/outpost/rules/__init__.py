"""Outpost: the rules (:mod:`.game`), their kernels and move decoding, the official
simulator's recorded traces (:mod:`.traces`, whose ``TRACES`` this package offers, loaded
on first use, for ``atlas import-trace``) and what failing players did (:mod:`.faults`)."""

from __future__ import annotations

from typing import Any

from . import game
from .game import *  # noqa: F403  (the game's public names)

__all__ = list(game.__all__)


def __getattr__(name: str) -> Any:
    if name == "TRACES":
        from .traces import TRACES

        return TRACES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
