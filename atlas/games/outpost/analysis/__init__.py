"""Outpost's home in the analyze layer: influence, supply lines, validation, summary.

* :mod:`.influence` -- who controls each cell, how many outposts an empire can afford,
  which outposts have a supply line home (its docstring states the rules and the kernel
  conventions); its public names are re-exported here.
* :mod:`.kernels` and :mod:`.supply` -- the numba kernels behind them (ownership, supply
  lines), called directly by the game engine and the bots.
* :mod:`.validate` -- the validator of submitted maps (``atlas validate``).
* :mod:`.summary` -- a map's key figures (:func:`map_summary`).
"""

from __future__ import annotations

from . import influence as _influence
from .influence import *  # noqa: F403  (the names in its __all__)
from .summary import map_summary

__all__ = ["map_summary"]
__all__ += _influence.__all__
