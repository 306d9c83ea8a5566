"""``voronoi``: alpha-beta on the Voronoi territory; the search the stronger bots share.

The search treats a simultaneous turn the usual contest way: a max node chooses my move,
a min node then chooses the opponent's reply knowing it, and the position is evaluated
only after both moves (so neither player profits from seeing the other).  Collisions
follow atlas's fair rules: both heads are blocked cells, so entering the square the
opponent is leaving crashes, swapping crashes both (a draw), and choosing the same
square is a draw.

Evaluations (``mode``):

``MODE_VORONOI``
    Cells each player reaches first plus their open neighbours (the post-mortem's
    territory bonus for edges, which makes the bot hug walls when all else is equal);
    once the players are separated, ``1000 * (own room - opponent's room)``.
``MODE_CHAMBERS``
    The tree-of-chambers estimate of each player's fillable territory (``chambers``),
    its cells plus half their open neighbours along the best chamber path.
``MODE_FRONTLINE``
    ``K1*(N1-N2) + K2*(E1-E2)`` along each player's best chamber path, with the
    checkerboard bound and the battlefront rule; endgame value from the parity-bounded
    chamber estimate (``frontline``).

Iterative deepening runs one complete search per depth; an unfinished depth (node budget
exhausted, the budget being derived from the deadline and the measured speed) is thrown
away and the last complete one is played.

References
----------
.. [1] A. Sloane (a1k0n), "Google AI Challenge post-mortem", 2010.
"""

from __future__ import annotations

import time

import numba
import numpy as np

from ..search import clock
from .common import (
    INF,
    R_MARK,
    TronBot,
    Workspace,
    head_distance,
    voronoi_counts,
    voronoi_touching,
)
from .fill import filler_move
from .tree import chamber_value

__all__ = [
    "MODE_VORONOI",
    "MODE_CHAMBERS",
    "MODE_FRONTLINE",
    "WIN",
    "K1",
    "K2",
    "DRAW_CELLS",
    "draw_value",
    "evaluate",
    "search_root",
    "iterative_deepening",
    "fill_move",
    "VoronoiBot",
]

MODE_VORONOI = 0
MODE_CHAMBERS = 1
MODE_FRONTLINE = 2
#: Value of a won position (minus the plies it takes, so quicker wins are preferred).
WIN = 1.0e7
#: Weights of nodes and edges in the frontline evaluation (the post-mortem's tuned values).
K1 = 0.055
K2 = 0.194
#: Weight of the open neighbours of the chamber cells in the ``chambers`` evaluation: a
#: tie-break that makes it fill along walls, like the Voronoi bot's edge bonus.
CHAMBERS_K2 = 0.5
#: Weight of a certain endgame advantage of one cell.
ENDGAME = 1000.0


#: A draw is scored as being this many cells behind (in each evaluation's units): a bot
#: that is behind takes a collision the opponent cannot avoid, one that is ahead (or
#: even) avoids it.
DRAW_CELLS = 0.5


@numba.njit(cache=True)
def draw_value(mode):  # pragma: no cover - numba
    """Value of a draw (collision or both crashing) under evaluation ``mode``."""
    if mode == MODE_VORONOI:
        return -DRAW_CELLS * 4.0  # a cell and its edges
    if mode == MODE_CHAMBERS:
        return -DRAW_CELLS * (1.0 + 3.0 * CHAMBERS_K2)
    return -DRAW_CELLS * (K1 + 3.0 * K2)


@numba.njit(cache=True)
def evaluate(grid, me, opp, off, w2, ibuf, fbuf, mode):  # pragma: no cover - numba
    """Value of the position for the player at ``me`` (both moves of the turn applied)."""
    if mode == MODE_VORONOI:
        na, nb, ea, eb, touching = voronoi_counts(grid, me, opp, off, ibuf)
        if touching == 0:
            return ENDGAME * (na - nb)
        return float((na + ea) - (nb + eb))
    na, nb, touching = voronoi_touching(grid, me, opp, off, ibuf)
    if touching == 0:
        parity = mode == MODE_FRONTLINE
        va = chamber_value(grid, me, opp, off, w2, ibuf, fbuf, 1.0, 0.0, parity, False, 0)
        vb = chamber_value(grid, opp, me, off, w2, ibuf, fbuf, 1.0, 0.0, parity, False, 1)
        return ENDGAME * (va - vb)
    if mode == MODE_CHAMBERS:
        va = chamber_value(
            grid, me, opp, off, w2, ibuf, fbuf, 1.0, CHAMBERS_K2, False, False, 0
        )
        vb = chamber_value(
            grid, opp, me, off, w2, ibuf, fbuf, 1.0, CHAMBERS_K2, False, False, 1
        )
        return va - vb
    va = chamber_value(grid, me, opp, off, w2, ibuf, fbuf, K1, K2, True, True, 0)
    vb = chamber_value(grid, opp, me, off, w2, ibuf, fbuf, K1, K2, True, True, 1)
    return va - vb


#: Deepest search (turns); each turn is a max and a min frame on the explicit stack.
MAX_DEPTH = 96


@numba.njit(cache=True)
def search_root(
    grid, me, opp, depth, off, w2, ibuf, fbuf, mode, order, scores, counter, limit, stop, killer
):  # pragma: no cover - numba
    """One alpha-beta search of ``depth`` turns; returns the best direction (0..3).

    My moves are tried in ``order`` (best of the previous depth first); ``scores`` gets
    each move's value (a bound for moves refuted by alpha-beta, ``-inf`` if illegal).
    ``counter[0]`` counts max nodes; when it passes ``limit`` or the clock passes ``stop``
    (a ``perf_counter`` time, checked every 16 nodes), ``counter[1]`` is set and the
    result must be thrown away.  Returns -1 when no move is legal.  ``killer[i]`` is the
    direction tried first in frames at stack depth ``i`` (the last one that caused a
    cutoff there; updated, so keep it across the depths of one deepening).

    Notes
    -----
    Max frames choose my target; min frames, knowing it (not yet on the board), choose
    the opponent's reply, then both cells are blocked and the next max frame searched.
    The recursion is an explicit stack of frames (numba's cache does not reliably keep
    recursive kernels that call other kernels).  Cost O(b^(2*depth)) evaluations in the
    worst case, about the square root of that with good move ordering.
    """
    best = -1
    best_v = -3.0 * WIN
    draw = draw_value(mode)
    for i in range(4):
        scores[i] = -np.inf
    nf = 2 * depth + 2
    f_me = np.empty(nf, np.int64)
    f_opp = np.empty(nf, np.int64)
    f_t = np.empty(nf, np.int64)
    f_s = np.empty(nf, np.int64)
    f_depth = np.empty(nf, np.int64)
    f_next = np.empty(nf, np.int64)
    f_any = np.empty(nf, np.int64)
    f_alpha = np.empty(nf, np.float64)
    f_beta = np.empty(nf, np.float64)
    f_val = np.empty(nf, np.float64)
    for i in range(4):
        k = order[i]
        t = me + off[k]
        if grid[t] == 0:
            continue
        # Frame 0: the min frame of my root move k (frames alternate min, max, min, ...).
        sp = 0
        f_me[0] = me
        f_opp[0] = opp
        f_t[0] = t
        f_s[0] = -1
        f_depth[0] = depth
        f_alpha[0] = best_v
        f_beta[0] = 3.0 * WIN
        f_val[0] = 2.0 * WIN
        f_next[0] = 0
        f_any[0] = 0
        have_ret = False
        ret = 0.0
        result = 0.0
        while True:
            if counter[1]:
                # Aborted: take every move back off the board.
                while sp >= 0:
                    if (sp & 1) == 0 and f_next[sp] > 0 and f_s[sp] >= 0:
                        grid[f_t[sp]] = 1
                        grid[f_s[sp]] = 1
                        f_s[sp] = -1
                    sp -= 1
                return best
            done = False
            value = 0.0
            if (sp & 1) == 0:
                # Min frame: the opponent answers my move to f_t[sp].
                tt = f_t[sp]
                oo = f_opp[sp]
                if have_ret:
                    have_ret = False
                    grid[tt] = 1
                    grid[f_s[sp]] = 1
                    f_s[sp] = -1
                    if ret < f_val[sp]:
                        f_val[sp] = ret
                        if ret <= f_alpha[sp]:
                            done = True
                            value = ret
                            killer[sp] = (killer[sp] + f_next[sp] - 1) & 3
                pushed = False
                while not done and f_next[sp] < 4:
                    ss = oo + off[(killer[sp] + f_next[sp]) & 3]
                    f_next[sp] += 1
                    if grid[ss] == 0:
                        continue
                    f_any[sp] = 1
                    if ss == tt:
                        if draw < f_val[sp]:  # same square: draw
                            f_val[sp] = draw
                            if draw <= f_alpha[sp]:
                                done = True
                                value = draw
                                killer[sp] = (killer[sp] + f_next[sp] - 1) & 3
                        continue
                    grid[tt] = 0
                    grid[ss] = 0
                    f_s[sp] = ss
                    c = sp + 1
                    f_me[c] = tt
                    f_opp[c] = ss
                    f_depth[c] = f_depth[sp] - 1
                    f_alpha[c] = f_alpha[sp]
                    f_beta[c] = min(f_beta[sp], f_val[sp])
                    f_val[c] = -2.0 * WIN
                    f_next[c] = -1  # not entered yet
                    f_any[c] = 0
                    sp = c
                    pushed = True
                    break
                if pushed:
                    continue
                if not done:
                    ply = sp // 2
                    value = f_val[sp] if f_any[sp] else WIN - ply
                    done = True
            else:
                # Max frame: I choose my next target.
                if f_next[sp] < 0:
                    f_next[sp] = 0
                    counter[0] += 1
                    if counter[0] > limit or ((counter[0] & 15) == 0 and clock() > stop):
                        counter[1] = 1
                        continue
                    if f_depth[sp] == 0:
                        value = evaluate(grid, f_me[sp], f_opp[sp], off, w2, ibuf, fbuf, mode)
                        done = True
                if not done and have_ret:
                    have_ret = False
                    if ret > f_val[sp]:
                        f_val[sp] = ret
                        if ret >= f_beta[sp]:
                            done = True
                            value = ret
                            killer[sp] = (killer[sp] + f_next[sp] - 1) & 3
                pushed = False
                while not done and f_next[sp] < 4:
                    tk = f_me[sp] + off[(killer[sp] + f_next[sp]) & 3]
                    f_next[sp] += 1
                    if grid[tk] == 0:
                        continue
                    f_any[sp] = 1
                    c = sp + 1
                    f_me[c] = f_me[sp]
                    f_opp[c] = f_opp[sp]
                    f_t[c] = tk
                    f_s[c] = -1
                    f_depth[c] = f_depth[sp]
                    f_alpha[c] = max(f_alpha[sp], f_val[sp])
                    f_beta[c] = f_beta[sp]
                    f_val[c] = 2.0 * WIN
                    f_next[c] = 0
                    f_any[c] = 0
                    sp = c
                    pushed = True
                    break
                if pushed:
                    continue
                if not done:
                    done = True
                    if f_any[sp]:
                        value = f_val[sp]
                    else:
                        value = draw  # both stuck: draw
                        o = f_opp[sp]
                        for j in range(4):
                            if grid[o + off[j]] != 0:
                                value = -WIN + sp // 2  # I crash, the opponent lives
                                break
            # Return ``value`` to the parent frame.
            sp -= 1
            if sp < 0:
                result = value
                break
            ret = value
            have_ret = True
        scores[k] = result
        if result > best_v:
            best_v = result
            best = k
    return best


def iterative_deepening(
    grid: np.ndarray,
    me: int,
    opp: int,
    ws: Workspace,
    mode: int,
    stop: float,
    max_depth: int = 64,
    node_limit: int = 0,
    partial: bool = False,
    fixed_depth: int = 0,
) -> tuple[int, dict]:
    """Deepen :func:`search_root` until ``stop`` (a ``perf_counter`` time).

    With ``fixed_depth > 0`` the search goes to exactly that depth (or the end of the
    game) and ignores ``stop``, ``node_limit`` and ``partial``.

    A depth that is still running at ``stop`` (or passes ``node_limit`` nodes, if given)
    is discarded, unless ``partial``: then its best root move is kept when at least one
    root move was searched to the full depth (the previous best is searched first, so
    a move that beats it at the new depth is a real improvement).  Returns the
    direction (0..3) of the last complete depth and a dict of statistics (depth,
    nodes, seconds, value, partial, and the root moves' scores of the last complete
    depth: exact for the best, upper bounds for the others).
    """
    if fixed_depth > 0:
        # No deadline: nothing below stops early (time left is always infinite).
        stop, max_depth, node_limit, partial = np.inf, fixed_depth, 0, False
    order = np.array([0, 1, 2, 3], dtype=np.int64)
    killer = np.zeros(2 * max_depth + 2, dtype=np.int64)
    scores = np.zeros(4, dtype=np.float64)
    counter = np.zeros(2, dtype=np.int64)
    best = -1
    depth_done = 0
    total_nodes = 0
    t_start = time.perf_counter()
    value = 0.0
    used_partial = 0
    last_scores = [-np.inf] * 4
    # No game lasts longer than there are free cells: deeper searches add nothing.
    max_depth = min(max_depth, int(np.count_nonzero(grid)) + 1)
    for depth in range(1, max_depth + 1):
        now = time.perf_counter()
        left = stop - now
        if left <= 0:
            break
        counter[0] = 0
        counter[1] = 0
        limit = node_limit if node_limit > 0 else 1 << 60
        k = search_root(
            grid,
            me,
            opp,
            depth,
            ws.off,
            ws.w2,
            ws.ibuf,
            ws.fbuf,
            mode,
            order,
            scores,
            counter,
            limit,
            stop,
            killer,
        )
        spent = time.perf_counter() - now
        total_nodes += int(counter[0])
        if counter[1]:
            if partial and k >= 0 and scores[k] > -WIN * 2.0:
                best = int(k)
                value = float(scores[best])
                used_partial = depth
            break
        if k < 0:
            break
        best = int(k)
        depth_done = depth
        value = float(scores[best])
        last_scores = [float(x) for x in scores]
        order = np.argsort(-scores, kind="stable").astype(np.int64)
        if abs(value) >= WIN - 1000:
            break  # the outcome is decided
        # A depth costs about three times the previous one: stop if it cannot finish
        # (with ``partial``, if it cannot even search its first root move, the previous
        # best, which takes about as long as the whole previous depth).
        if spent * (1.0 if partial else 3.0) > stop - time.perf_counter():
            break
    elapsed = time.perf_counter() - t_start
    return best, {
        "depth": depth_done,
        "nodes": total_nodes,
        "seconds": elapsed,
        "value": value,
        "partial": used_partial,
        "scores": last_scores,
    }


def fill_move(grid: np.ndarray, me: int, ws: Workspace) -> int:
    """The greedy filler's direction (0..3) from ``me``; 0 when stuck."""
    stamp = int(ws.ibuf[R_MARK].max()) + 1
    if stamp > (1 << 30):
        ws.ibuf[R_MARK][:] = 0
        stamp = 1
    k, _ = filler_move(grid, me, ws.off, ws.ibuf, stamp)
    return max(int(k), 0)


class VoronoiBot(TronBot):
    """Alpha-beta on the Voronoi territory with edge bonus and a separated endgame."""

    name = "voronoi"
    mode = MODE_VORONOI

    def choose(self, grid: np.ndarray, me: int, opp: int, ws: Workspace, stop: float) -> int:
        if head_distance(grid, me, opp, ws.off, ws.ibuf) >= INF:
            # Separated: no opponent to outguess, fill the room greedily (post-mortem).
            self.last_info = {"depth": 0, "nodes": 0, "endgame": True}
            return fill_move(grid, me, ws) + 1
        k, info = iterative_deepening(
            grid, me, opp, ws, self.mode, stop, fixed_depth=self.fixed_depth
        )
        self.last_info = info
        return k + 1 if k >= 0 else 1
