"""What the searching bots share: the alpha-beta kernel, the clock, transposition-table
bookkeeping, a move without GC.

:func:`negamax` builds the one alpha-beta search of the isolation and connect5 bots: a
recursive numba kernel whose node loop (best score and move, the root's status, the
cutoff, principal-variation windows, the clock) is written here once, and which calls
a game's kernels for what differs: its move generation, ordering and evaluation
(``expand``), making and taking back a move, the transposition table.

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
Knuth, D. E. & Moore, R. W. (1975). An analysis of alpha-beta pruning. *Artificial
Intelligence* 6(4) (negamax).
"""

from __future__ import annotations

import functools
import gc
import time
from collections.abc import Callable
from typing import Any, TypeVar

import numba
import numpy as np

from ..jit import LazyKernel, built
from ..jit import numba as lazy

__all__ = [
    "negamax",
    "no_leaf",
    "PVS_NONE",
    "PVS_ALPHA",
    "PVS_VALUE",
    "one_less",
    "undo_nothing",
    "no_cutoff",
    "store_nothing",
    "killer_key",
    "tt_probe",
    "tt_store",
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


@numba.njit(cache=True, inline="always")
def killer_key(k, m, tt_best, killers, ply, shift):  # pragma: no cover - compiled
    """Sort key ``k`` of move ``m`` raised for the table's move (``1 << shift``) and the
    two killer moves of ``ply`` (``1 << (shift - 2)``, ``1 << (shift - 3)``)."""
    if m == tt_best:
        return k + (1 << shift)
    if m == killers[ply, 0]:
        return k + (1 << (shift - 2))
    if m == killers[ply, 1]:
        return k + (1 << (shift - 3))
    return k


@numba.njit(cache=True, inline="always")
def tt_probe(
    tt_key, tt, slot, key, depth, ply, alpha, beta, win
):  # pragma: no cover - compiled
    """Read entry ``slot`` of a table with rows (best move, depth, bound flag, value) and
    keys ``tt_key``: ``(best move or -1, whether it settles the window, its value)``."""
    if tt_key[slot] != key:
        return -1, False, 0
    if tt[slot, 1] >= depth and ply > 0:
        v = value_from_tt(tt[slot, 3], ply, win)
        if tt_cuts(tt[slot, 2], v, alpha, beta):
            return tt[slot, 0], True, v
    return tt[slot, 0], False, 0


@numba.njit(cache=True, inline="always")
def tt_store(
    tt_key, tt, slot, key, move, depth, ply, best, alpha0, beta, win
):  # pragma: no cover - compiled
    """Write the result ``best`` (move ``move``) of a search of ``depth`` in the window
    ``(alpha0, beta)`` to entry ``slot`` (the layout of :func:`tt_probe`)."""
    tt_key[slot] = key
    tt[slot, 0] = move
    tt[slot, 1] = depth
    tt[slot, 2] = bound_flag(best, alpha0, beta)
    tt[slot, 3] = value_to_tt(best, ply, win)


# ------------------------------------------------------------------- the alpha-beta kernel


@lazy.njit(cache=True, inline="always")
def no_leaf(g, s, node, m, depth, ply):  # pragma: no cover - compiled
    """A ``leaf`` kernel for searches that evaluate every child in its own node."""
    return False, 0


@lazy.njit(cache=True, inline="always")
def one_less(g, s, node, ply, i, depth):  # pragma: no cover - compiled
    """A ``child_depth`` kernel: every child one ply shallower."""
    return depth - 1


@lazy.njit(cache=True, inline="always")
def undo_nothing(g, s, node, m, c):  # pragma: no cover - compiled
    """An ``undo`` kernel for searches whose children are new values (bitboards)."""
    return None


@lazy.njit(cache=True, inline="always")
def no_cutoff(g, s, node, m, depth, ply):  # pragma: no cover - compiled
    """A ``cutoff`` kernel for searches that learn nothing from a cutoff."""
    return None


@lazy.njit(cache=True, inline="always")
def store_nothing(
    g, s, node, depth, ply, best, best_move, alpha0, beta
):  # pragma: no cover - compiled
    """A ``store`` kernel for searches without a transposition table."""
    return None


#: The principal-variation policies of :func:`negamax`.
PVS_NONE, PVS_ALPHA, PVS_VALUE = 0, 1, 2


def negamax(
    name: str,
    *,
    expand: LazyKernel,
    move: LazyKernel,
    play: LazyKernel,
    win: int,
    undo: LazyKernel = undo_nothing,
    leaf: LazyKernel = no_leaf,
    child_depth: LazyKernel = one_less,
    cutoff: LazyKernel = no_cutoff,
    store: LazyKernel = store_nothing,
    pvs: int = PVS_NONE,
    clock_mask: int = 0,
    clock_nodes: int = 0,
) -> LazyKernel:
    """A negamax alpha-beta kernel over a game's kernels, named ``name``.

    The kernel is ``search(g, s, depth, ply, alpha, beta) -> value``: the value of the
    position ``s`` for the side to move, searched ``depth`` plies deep, ``ply`` plies
    from the root, in the window ``(alpha, beta)``; 0 once aborted.  ``g`` is the
    game's context, a ``NamedTuple`` of arrays and constants the game's kernels read,
    with at least ``status`` (the vector of :func:`new_status`) and ``deadline`` (a
    :func:`clock` time); ``s`` the position (a tuple of scalars for a bitboard, which
    ``play`` answers with a new one, or the side to move for a search that makes and
    takes back moves in ``g``'s arrays).  The game's kernels (``inline="always"`` ones,
    made with :mod:`atlas.jit`'s ``njit``):

    ``expand(g, s, depth, ply, alpha, beta) -> (n, value, alpha, beta, node)``
        ``n`` moves ordered for the search (the game keeps them, in ``g``), or ``n =
        -1`` when the node is settled at ``value`` (no move, a leaf, a table cutoff,
        a tactic); the window, which a game may narrow; ``node``, anything the other
        kernels need (a tuple).
    ``move(g, s, node, ply, i) -> m``
        The ``i``-th move.
    ``leaf(g, s, node, m, depth, ply) -> (settled, value)``
        The value of move ``m`` for the side to move without a node of its own, when
        ``settled`` (a search that values its leaves' children in place); default none.
    ``play(g, s, node, m, ply) -> c``, ``undo(g, s, node, m, c)``
        The child position after ``m``, and taking ``m`` back (default: nothing).
    ``child_depth(g, s, node, ply, i, depth)``
        The depth to search the ``i``-th child to (default ``depth - 1``).
    ``cutoff(g, s, node, m, depth, ply)``
        ``m`` refuted the position (killer moves, history); default nothing.
    ``store(g, s, node, depth, ply, best, best_move, alpha0, beta)``
        The node's result for the table; default nothing.

    ``pvs``: :data:`PVS_NONE` (every child in the full window), :data:`PVS_ALPHA`
    (principal-variation search: the children after the first in a null window, a
    child that fails high searched again in ``(alpha, beta)``) or :data:`PVS_VALUE`
    (the same, searched again in ``(value, beta)``).  The clock is read every
    ``clock_mask + 1`` nodes (a power of two), or, with ``clock_nodes``, when the node
    count reaches ``status[S_CLOCK]``, which then moves ``clock_nodes`` on (a game may
    move it nearer for costly nodes).  Win and loss scores are ``win - ply``.

    Notes
    -----
    The kernel records the root's best move so far and its finished moves in
    ``status`` (:data:`S_BEST`, :data:`S_DONE`), so that a search stopped by the clock
    still answers.  It is compiled without numba's reference counting (``_nrt=False``:
    it allocates nothing; counting the arrays an inlined kernel takes would cost every
    node).  One instance per game and search: the number of compiled signatures is the
    number of searches.
    """
    if (clock_mask == 0) == (clock_nodes == 0):
        raise ValueError("negamax reads the clock by a mask or by a node count, one of them")

    def search(g, s, depth, ply, alpha, beta):  # pragma: no cover - compiled
        status = g.status
        status[S_NODES] += 1
        if clock_nodes > 0:
            if status[S_NODES] >= status[S_CLOCK]:
                status[S_CLOCK] = status[S_NODES] + clock_nodes
                if clock() > g.deadline:
                    status[S_ABORT] = 1
        elif (status[S_NODES] & clock_mask) == 0 and clock() > g.deadline:
            status[S_ABORT] = 1
        if status[S_ABORT] != 0:
            return 0
        n, value, alpha, beta, node = expand(g, s, depth, ply, alpha, beta)
        if n < 0:
            return value
        alpha0 = alpha
        best = -(win + 1)
        best_move = -1
        for i in range(n):
            m = move(g, s, node, ply, i)
            settled, v = leaf(g, s, node, m, depth, ply)
            if not settled:
                c = play(g, s, node, m, ply)
                d = child_depth(g, s, node, ply, i, depth)
                if pvs != PVS_NONE and i > 0 and beta - alpha > 1:
                    # principal variation search: prove the move no better, else search again
                    v = -search(g, c, d, ply + 1, -alpha - 1, -alpha)
                    if alpha < v < beta and status[S_ABORT] == 0:
                        v = -search(
                            g, c, d, ply + 1, -beta, -(v if pvs == PVS_VALUE else alpha)
                        )
                else:
                    v = -search(g, c, d, ply + 1, -beta, -alpha)
                undo(g, s, node, m, c)
                if status[S_ABORT] != 0:
                    return 0
            if v > best:
                best = v
                best_move = m
                if ply == 0:
                    status[S_BEST] = m
            if ply == 0:
                status[S_DONE] += 1
            if v > alpha:
                alpha = v
            if alpha >= beta:
                cutoff(g, s, node, m, depth, ply)
                break
        store(g, s, node, depth, ply, best, best_move, alpha0, beta)
        return best

    search = built(search, name, cache=True, _nrt=False)
    return search
