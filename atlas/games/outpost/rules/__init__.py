"""Outpost: the rules and what surrounds them.

- :mod:`.game`: the rules;
- :mod:`.kernels` and :mod:`.moves`: their kernels and move decoding;
- :mod:`.traces`: the official simulator's recorded traces, and ``TRACES``, their
  importer for ``atlas import-trace`` (offered by this package, loaded on first use);
- :mod:`.faults`: what failing players did.
"""

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
