"""What the searching bots share: the clock, transposition-table bookkeeping, a move without GC.

Small compiled helpers that the searches call from their own numba kernels (numba
inlines the table helpers into the caller's machine code; :func:`clock` is the one
deadline check of every game's kernels, tron's included).  Scores within
:data:`MATE_BAND` of ``win`` are wins or losses ``win - ply`` plies away; the table
stores them relative to the node (distance from the node, not from the root), so that a
position reached at another depth reads back the right distance.

References
----------
Marsland, T. A. (1986). A review of game-tree pruning. *ICCA Journal* 9(1) (bound
flags of a transposition-table entry).
"""

from __future__ import annotations

import functools
import gc
import time
from collections.abc import Callable
from typing import Any, TypeVar

import numba
import numpy as np

__all__ = [
    "clock",
    "stop_time",
    "MIN_THINK_SHARE",
    "EXACT",
    "LOWER",
    "UPPER",
    "MATE_BAND",
    "bound_flag",
    "value_to_tt",
    "value_from_tt",
    "tt_cuts",
    "sort_moves",
    "note_cutoff",
    "gc_paused",
    "new_status",
    "STATUS_SLOTS",
    "S_NODES",
    "S_ABORT",
    "S_BEST",
    "S_DONE",
    "S_CLOCK",
    "S_EXT",
    "S_EXTCAP",
    "S_SCORE",
    "S_EMPTY",
]

_F = TypeVar("_F", bound=Callable[..., Any])

#: The slots of a search kernel's ``int64`` status vector, the same in every search:
#: nodes visited, the abort flag, the best root move of the depth under way, root moves
#: done at that depth, the node count at which the clock is read next, quiescence
#: extensions used and allowed, the root's score, and the empty cells of a board.
(S_NODES, S_ABORT, S_BEST, S_DONE, S_CLOCK, S_EXT, S_EXTCAP, S_SCORE, S_EMPTY) = range(9)
STATUS_SLOTS = 9


def new_status() -> np.ndarray:
    """A fresh status vector (every slot 0)."""
    return np.zeros(STATUS_SLOTS, dtype=np.int64)


@numba.njit(cache=True)
def clock():  # pragma: no cover - numba
    """``time.perf_counter()`` read from compiled code (about a microsecond).

    Every search kernel reads its deadline with this one function, so they all compare
    against the same clock as the Python code that set the deadline.
    """
    with numba.objmode(t="float64"):
        t = time.perf_counter()
    return t


#: Share of a move's budget every bot thinks, whatever margin it keeps: with less time
#: than its margin a bot would otherwise not search at all and play its fallback move.
MIN_THINK_SHARE = 0.2


def stop_time(deadline: float, margin: float, now: float | None = None) -> float:
    """When a bot stops thinking: ``margin`` seconds before ``deadline``, but never before
    :data:`MIN_THINK_SHARE` of the budget from ``now`` (default: the clock) to the deadline.

    The margins (10-35 ms) are set for moves of 0.1 s and more; the site's tournament
    gives 10-20 ms a move, where ``deadline - margin`` is already past and a search would
    stop before its first depth.  A fifth of 20 ms is still hundreds of nodes (thousands in
    connect5), and the game runner forgives a built-in bot an answer up to a quarter of
    the limit plus 50 ms late, which the clock checks' overshoot stays well within.
    """
    if now is None:
        now = time.perf_counter()
    budget = max(deadline - now, 0.0)
    return now + max(budget - margin, MIN_THINK_SHARE * budget)


def gc_paused(move: _F) -> _F:
    """Run a bot's ``move`` with Python's cyclic garbage collector paused.

    A full collection in a process holding numba's compiled code takes about 50 ms on
    an idle machine and several times that on a loaded one: more than a bot keeps in
    hand before its deadline (10-35 ms).  The collector is switched back on after the
    move, so garbage is still collected between moves.
    """

    @functools.wraps(move)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        enabled = gc.isenabled()
        gc.disable()
        try:
            return move(*args, **kwargs)
        finally:
            if enabled:
                gc.enable()

    return wrapper  # type: ignore[return-value]


#: Bound flags of a table entry: the value is exact, a lower bound or an upper bound.
EXACT, LOWER, UPPER = 0, 1, 2
#: Scores this close to ``win`` are forced wins or losses.
MATE_BAND = 1000


@numba.njit(cache=True)
def bound_flag(best, alpha0, beta):  # pragma: no cover - compiled
    """The flag of a search result ``best`` found in the window ``(alpha0, beta)``."""
    if best <= alpha0:
        return UPPER
    if best >= beta:
        return LOWER
    return EXACT


@numba.njit(cache=True)
def value_to_tt(value, ply, win):  # pragma: no cover - compiled
    """A score as the table keeps it: win/loss distances counted from this node."""
    if value > win - MATE_BAND:
        return value + ply
    if value < -(win - MATE_BAND):
        return value - ply
    return value


@numba.njit(cache=True)
def value_from_tt(value, ply, win):  # pragma: no cover - compiled
    """Inverse of :func:`value_to_tt` for a node ``ply`` plies from the root."""
    if value > win - MATE_BAND:
        return value - ply
    if value < -(win - MATE_BAND):
        return value + ply
    return value


@numba.njit(cache=True)
def tt_cuts(flag, value, alpha, beta):  # pragma: no cover - compiled
    """Whether a table entry with ``flag`` and ``value`` settles the window."""
    return (
        flag == EXACT or (flag == LOWER and value >= beta) or (flag == UPPER and value <= alpha)
    )


@numba.njit(cache=True)
def sort_moves(buf, keys, ply, n):  # pragma: no cover - compiled
    """Sort the first ``n`` moves of row ``ply`` of ``buf`` by ``keys``, largest first.

    Insertion sort, in place on both arrays (a node has at most a few dozen moves).
    """
    for i in range(1, n):
        m = buf[ply, i]
        k = keys[ply, i]
        j = i - 1
        while j >= 0 and keys[ply, j] < k:
            buf[ply, j + 1] = buf[ply, j]
            keys[ply, j + 1] = keys[ply, j]
            j -= 1
        buf[ply, j + 1] = m
        keys[ply, j + 1] = k


@numba.njit(cache=True)
def note_cutoff(killers, history, ply, side, move, bonus):  # pragma: no cover - compiled
    """Remember ``move`` of ``side`` that caused a beta cutoff at ``ply``.

    It becomes the first of the two killer moves of that ply (the old first moves to
    second) and its history score grows by ``bonus`` (``depth * depth`` as a rule).
    """
    if killers[ply, 0] != move:
        killers[ply, 1] = killers[ply, 0]
        killers[ply, 0] = move
    history[side, move] += bonus
