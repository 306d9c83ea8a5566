"""``frontline``: the strongest built-in tron bot, after the 2010 winner's final design.

While the cycles can still meet, iterative-deepening alpha-beta
(:func:`atlas.games.tron.bots.voronoi.iterative_deepening`) scores positions by
``K1*(N1-N2) + K2*(E1-E2)``, ``N`` the nodes and ``E`` the edges (open neighbours) a
player can use along its best path through the tree of chambers of its Voronoi
territory, with ``K1 = 0.055`` and ``K2 = 0.194``.  Two refinements of the chamber
count (:func:`atlas.games.tron.bots.tree.chamber_value`):

* the checkerboard bound: a chamber entered from a cell of one colour cannot yield
  more cells than a colour-alternating walk can visit;
* the battlefront rule: a chamber is worth its cells plus its best child, unless the
  path goes to a child chamber touching the opponent's territory; then the player only
  counts the steps to get there (plus that chamber), as filling first would lose the
  fight.

Once the cycles are separated, the endgame searches my own move sequences, finishes
each with the greedy filler (:func:`atlas.games.tron.bots.fill.space_fill_length`: the
post-mortem's rule with true cut vertices and the checkerboard bound of the space each
move keeps, the better of two tie-break orders) and plays the first move of the longest,
deepening until time runs out or a line reaches the checkerboard bound of the room (no
line can be longer).

References
----------
.. [1] A. Sloane (a1k0n), "Google AI Challenge post-mortem", 2010.
.. [2] "Tree of chambers", the tree-of-chambers submission notes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ....bots.search import clock, clock_now
from ....jit import numba
from .common import INF, TronBot, Workspace, head_distance, parity_bound
from .fill import space_fill_length
from .voronoi import MODE_FRONTLINE, iterative_deepening

__all__ = ["endgame_search", "endgame_move", "FrontlineBot"]


@numba.njit(cache=True)
def endgame_search(
    grid, head, off, ibuf, depth, bound, counter, stop
):  # pragma: no cover - numba
    """Longest line of ``depth`` own moves from ``head`` finished by the greedy filler.

    Returns ``(first direction 0..3 or -1, length)``.  Stops early once a line reaches
    ``bound`` (the checkerboard bound: nothing longer exists).  ``counter[0]`` counts
    lines; ``counter[1]`` is set when the clock passes ``stop`` (result incomplete).
    The board is restored.  Cost O(3^depth x room).
    """
    pos = np.empty(depth + 1, np.int64)
    nxt = np.empty(depth + 1, np.int64)
    moved = np.empty(depth + 1, np.int64)
    best_first = -1
    best_len = -1
    first = -1
    level = 0
    pos[0] = head
    nxt[0] = 0
    moved[0] = 0
    n = grid.shape[0]
    while level >= 0:
        if nxt[level] >= 4 or best_len >= bound:
            if moved[level] == 0 and level > best_len:
                best_len = level  # a dead end after ``level`` moves
                best_first = first
            if level > 0:
                grid[pos[level]] = 1
            level -= 1
            continue
        k = nxt[level]
        nxt[level] += 1
        t = pos[level] + off[k]
        if grid[t] == 0:
            continue
        moved[level] = 1
        if level == 0:
            first = k
        counter[0] += 1
        if clock() > stop:
            counter[1] = 1
            while level > 0:
                grid[pos[level]] = 1
                level -= 1
            return best_first, best_len
        grid[t] = 0
        if level + 1 >= depth:
            fill = max(
                space_fill_length(grid, t, off, ibuf, n, 8, stop),
                space_fill_length(grid, t, off, ibuf, n, 0, stop),
            )
            total = level + 1 + fill
            grid[t] = 1
            if total > best_len:
                best_len = total
                best_first = first
        else:
            level += 1
            pos[level] = t
            nxt[level] = 0
            moved[level] = 0
    return best_first, best_len


def endgame_move(grid: np.ndarray, me: int, ws: Workspace, stop: float) -> tuple[int, dict]:
    """Iterative deepening of :func:`endgame_search` until ``stop`` or the parity bound."""
    bound = int(parity_bound(grid, me, ws.off, ws.ibuf))
    counter = np.zeros(2, dtype=np.int64)
    best, best_len, depth_done = -1, -1, 0
    for depth in range(1, max(bound, 1) + 1):
        if clock_now() >= stop:
            break
        counter[1] = 0
        k, length = endgame_search(grid, me, ws.off, ws.ibuf, depth, bound, counter, stop)
        if counter[1]:
            if length > best_len and k >= 0:  # a longer line found before time ran out
                best, best_len = int(k), int(length)
            break
        if k >= 0:
            best, best_len, depth_done = int(k), int(length), depth
        if best_len >= bound:
            break
    return best, {
        "depth": depth_done,
        "nodes": int(counter[0]),
        "fill": best_len,
        "bound": bound,
        "endgame": True,
    }


class FrontlineBot(TronBot):
    """Chamber/battlefront/parity evaluation in alpha-beta; exact-ish endgame filling."""

    name = "frontline"
    #: Seconds of one core to compile its kernels from an empty cache (measured alone, the
    #: game's rules included: ``warm_bots`` of this bot only).
    compile_seconds = 8.1

    def choose(self, grid: np.ndarray, me: int, opp: int, ws: Workspace, stop: float) -> int:
        if head_distance(grid, me, opp, ws.off, ws.ibuf) >= INF:
            k, info = endgame_move(grid, me, ws, stop)
        else:
            k, info = self.search(grid, me, opp, ws, stop)
        self.last_info = info
        return k + 1 if k >= 0 else 1

    def search(
        self, grid: np.ndarray, me: int, opp: int, ws: Workspace, stop: float
    ) -> tuple[int, dict[str, Any]]:
        """The alpha-beta search while the players touch: direction (0..3) and figures."""
        return iterative_deepening(
            grid, me, opp, ws, MODE_FRONTLINE, stop, partial=True, fixed_depth=self.fixed_depth
        )
