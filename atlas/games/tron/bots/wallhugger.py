"""``wallhugger``: the greedy space filler of the 2010 winner's post-mortem, as a bot.

It never searches.  Each turn it takes the move that removes the fewest edges from the
graph of free cells (so it hugs walls and its own trail), avoids cells that may be cut
vertices, and when it must enter one, goes where the most space is left.  This is also
the policy the ``frontline`` bot uses to finish its endgame lines.

References
----------
.. [1] A. Sloane (a1k0n), "Google AI Challenge post-mortem", 2010.
"""

from __future__ import annotations

import numpy as np

from .common import TronBot, Workspace
from .voronoi import fill_move

__all__ = ["WallHugger"]


class WallHugger(TronBot):
    """Greedy wall-hugging space filler (no search; a few microseconds per move)."""

    name = "wallhugger"
    #: Seconds of one core to compile its kernels from an empty cache (measured alone, the
    #: game's rules included: ``warm_bots`` of this bot only).
    compile_seconds = 1.9

    def choose(self, grid: np.ndarray, me: int, opp: int, ws: Workspace, stop: float) -> int:
        self.last_info = {"depth": 0, "nodes": 0}
        return fill_move(grid, me, ws) + 1
