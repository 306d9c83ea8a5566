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

import contextlib
import functools
import gc
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import numpy as np

from ..jit import LazyKernel, built, numba
from ..limits import MAX_PV_MOVES
from . import stop as _stop
from .base import BotBase

__all__ = [
    "NO_DEADLINE",
    "no_deadline",
    "negamax",
    "NodeKernels",
    "NODE_DEFAULTS",
    "no_leaf",
    "PVS_NONE",
    "PVS_ALPHA",
    "PVS_VALUE",
    "one_less",
    "undo_nothing",
    "no_cutoff",
    "killer_cutoff",
    "store_nothing",
    "killer_key",
    "tt_probe",
    "tt_store",
    "clock",
    "clock_now",
    "on_clock",
    "processor_clock",
    "stop_time",
    "effort_clock",
    "effort_active",
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
    "pv_push",
    "gc_paused",
    "DeepeningBot",
    "new_status",
    "STATUS_SLOTS",
    "PV_PLIES",
    "new_pv",
    "pv_moves",
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


#: Longest principal variation a search keeps (plies: its move, the reply, ...).
PV_PLIES = MAX_PV_MOVES


def new_pv(plies: int) -> np.ndarray:
    """A search's principal-variation table for ``plies`` plies from the root: row ``ply``
    holds, in column 0, the length of the variation found below that ply (at most
    :data:`PV_PLIES`), then its moves (the "triangular array" of the chess programs)."""
    return np.zeros((plies + 2, PV_PLIES + 1), dtype=np.int64)


def pv_moves(pv: np.ndarray, row: int = 0) -> list[int]:
    """The moves of row ``row`` of a :func:`new_pv` table."""
    n = min(max(int(pv[row, 0]), 0), PV_PLIES)
    return [int(m) for m in pv[row, 1 : 1 + n]]


class _EffortState(threading.local):
    """The effort mode of one thread (:func:`effort_clock`; a Dask worker may run games
    in threads): the move's budget in polls (0: off), and the polls read so far."""

    effort = 0
    polls = 0


#: Each thread's effort mode.  Apart from :data:`_CLOCK`, which the compiled
#: :func:`clock` names and numba's cache must be able to pickle (a thread-local object
#: cannot be: every kernel would compile again in every process).
_EFFORT = _EffortState()


class _Clock:
    """The clock the searches read (:func:`clock_now`, :func:`clock`): the wall clock, or the
    processor time of the thread for a benchmark (:func:`processor_clock`).  Each read
    looks ``time.perf_counter`` up anew, so a clock a test puts in its place is read."""

    def __init__(self) -> None:
        self.processor = False

    def now(self) -> float:
        # once SIGINT or SIGTERM asked atlas to stop (atlas.bots.stop), every deadline
        # is past: a search in progress ends at its next poll of this clock
        mode = _EFFORT
        if mode.effort > 0:  # effort mode: each read is one tick, no machine time at all
            mode.polls += 1
            t = float(mode.polls)
        else:
            t = time.thread_time() if self.processor else time.perf_counter()
        return t + _stop.CLOCK_JUMP if _stop.STATE[0] else t


_CLOCK = _Clock()
_stop.quiet_in(_Clock.now)  # read from compiled code: a signal there is noted, not raised


def clock_now() -> float:
    """The searches' clock, read from Python: ``time.perf_counter()`` unless a benchmark
    switched to the processor's (:func:`processor_clock`).

    Raises the stop's ``KeyboardInterrupt`` (or :class:`~atlas.bots.stop.Terminated`)
    once a signal asked atlas to stop (:mod:`atlas.bots.stop`): a bot's Python code
    reads this clock after its kernel returns, and ends there.
    """
    _stop.check()
    return _CLOCK.now()


_stop._PYTHON_CALLERS.add(clock_now.__code__)


def on_clock(deadline: float) -> float:
    """A ``time.perf_counter`` deadline in the terms of :func:`clock_now` (the same seconds
    from now).  The identity while the wall clock is read; in effort mode
    (:func:`effort_clock`) the end of the move's budget of polls, whatever ``deadline``."""
    _stop.check()
    mode = _EFFORT
    if mode.effort > 0:  # effort mode: the move's budget of polls (effort_clock)
        return float(mode.polls + mode.effort)
    if not _CLOCK.processor:
        return deadline
    return time.thread_time() + (deadline - time.perf_counter())


#: Seconds past now that a search with no deadline (a fixed depth) stops at: beyond any
#: real search, and below the jump a stop request makes (:data:`~atlas.bots.stop.
#: CLOCK_JUMP`), so SIGINT and SIGTERM still end it at its next poll.
NO_DEADLINE = 1e8


def no_deadline() -> float:
    """The deadline of a search that has none (:data:`NO_DEADLINE` from now, on the
    searches' clock, without counting as a read in effort mode)."""
    mode = _EFFORT
    if mode.effort > 0:
        t = float(mode.polls)
    else:
        t = time.thread_time() if _CLOCK.processor else time.perf_counter()
    return t + NO_DEADLINE


@contextlib.contextmanager
def processor_clock() -> Iterator[None]:
    """While in this block the searches that read :func:`clock_now` and :func:`clock` count
    the processor time of the calling thread (``time.thread_time``) instead of the
    wall clock: a move's budget is then processor seconds, whatever else runs on the
    machine.  For benchmarks that compare bots at equal processor time on a loaded
    machine; a bot's deadline must be converted with :func:`on_clock`.
    """
    before = _CLOCK.processor
    _CLOCK.processor = True
    try:
        yield
    finally:
        _CLOCK.processor = before


def effort_active() -> bool:
    """Whether a move is being searched at fixed effort (:func:`effort_clock`)."""
    return _EFFORT.effort > 0


@contextlib.contextmanager
def effort_clock(effort: int) -> Iterator[None]:
    """Within this block the searches' clock (:func:`clock_now`, :func:`clock`) is the
    count of its own reads, not the machine's time, and every stop a bot asks for
    (:func:`stop_time`, hence the tron bots' :func:`~atlas.games.tron.bots.common.
    safety_deadline`) is ``effort`` reads after the one that asks, whatever deadline
    and margin it names.

    This is a bot's *effort* (:attr:`atlas.bots.base.BotBase.effort`): every search
    polls its clock at fixed points of its work (every ``clock_mask + 1`` nodes of a
    :func:`negamax` kernel, every so many rollout steps or fill steps, once per depth of
    an iterative deepening), so a budget of polls is a budget of nodes, and a move
    depends on the position, the bot's seed and ``effort`` only: the same on any
    machine under any load.  ``effort <= 0`` leaves the clock as it is.
    """
    if effort <= 0:
        yield
        return
    mode = _EFFORT
    before = (mode.effort, mode.polls)
    mode.effort, mode.polls = int(effort), 0
    try:
        yield
    finally:
        mode.effort, mode.polls = before


@numba.njit(cache=True)
def clock():
    """:func:`clock_now` read from compiled code (about a microsecond).

    Every search kernel reads its deadline with this one function, so they all compare
    against the same clock as the Python code that set the deadline.
    """
    with numba.objmode(t="float64"):
        t = _CLOCK.now()
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

    In effort mode (:func:`effort_clock`) neither ``deadline`` nor ``margin`` counts: the
    stop is the bot's effort in polls from now, which no safety margin cuts.
    """
    mode = _EFFORT
    if mode.effort > 0:  # effort mode: the budget is polls, no margin cuts it
        return float(mode.polls + mode.effort)
    if now is None:
        now = time.perf_counter()
    budget = max(deadline - now, 0.0)
    return now + max(budget - margin, MIN_THINK_SHARE * budget)


class DeepeningBot(BotBase):
    """What the alpha-beta bots of isolation and connect5 share: a seeded generator, the
    time they keep in hand, a depth limit, the figures of their last move (read by the
    game runner and the benchmarks), and iterative deepening over their search kernel.

    Parameters
    ----------
    game : str
        The game (the bots of one game ignore it).
    seed : int
        Seeds the bot's generator (its fallback and tie-breaking choices).
    margin : float, optional
        Seconds kept in hand before the deadline; the class's :attr:`margin` if not given.
    max_depth : int or None
        Stop deepening at this depth.
    """

    #: Seconds kept in hand before the deadline (each bot sets its own).
    margin = 0.02

    def __init__(
        self,
        game: str = "",
        seed: int = 0,
        margin: float | None = None,
        max_depth: int | None = None,
    ) -> None:
        self.rng = np.random.default_rng(seed)
        if margin is not None:
            self.margin = margin
        self.max_depth = max_depth
        self.last_depth = 0
        self.last_nodes = 0
        self.last_score = 0
        #: The search's codes of its last principal variation (:meth:`deepen`).
        self.line: list[int] = []

    def forget(self) -> None:
        """Say nothing of the coming move until its search says something: a move that
        no search decides (an opening rule, a walk once separated) must not report the
        figures of the one before, or of the warm-up."""
        self.last_depth = self.last_nodes = self.last_score = None
        self.line = []

    def deepen(
        self,
        run: Callable[[int], int],
        status: np.ndarray,
        limit: int,
        best: int,
        done: Callable[[int], bool],
        pv: np.ndarray | None = None,
    ) -> int:
        """Search depths 1, 2, ... ``limit`` with ``run(depth) -> score`` (one call of the
        search kernel, which reports in ``status``) until ``done(score)``.

        Returns the root move of the deepest finished depth (``best`` if none), or of a
        depth the clock stopped once it has finished a root move: the kernel searches
        the last depth's best move first, so any move it finished and prefers is better.
        Sets :attr:`last_depth`, :attr:`last_score` (of the deepest finished depth) and
        :attr:`last_nodes` (all depths), and :attr:`line`, the search's codes of the
        principal variation that ``pv`` (the kernel's :func:`new_pv` table, if given)
        held for the move returned, always starting with that move.
        """
        line: list[int] = []
        for depth in range(1, limit + 1):
            status[S_ABORT] = 0
            status[S_DONE] = 0
            status[S_BEST] = -1
            score = run(depth)
            if status[S_ABORT] != 0:
                if status[S_DONE] > 0 and status[S_BEST] >= 0:
                    best = int(status[S_BEST])
                    line = [] if pv is None else pv_moves(pv)
                break
            if status[S_BEST] >= 0:
                best = int(status[S_BEST])
            line = [] if pv is None else pv_moves(pv)
            self.last_depth, self.last_score = depth, int(score)
            if done(score):
                break
        self.last_nodes = int(status[S_NODES])
        # the table's line belongs to the move played only when it starts with it
        self.line = line if line[:1] == [best] else [best]
        return best


def gc_paused(move: _F) -> _F:
    """Run a bot's ``move`` with Python's cyclic garbage collector paused.

    A full collection in a process holding numba's compiled code takes longer than a bot
    keeps in hand before its deadline (10-35 ms), and several times longer on a loaded
    machine.  ``docs/bots.md`` gives the measured figure.  The collector is switched back
    on after the move, so garbage is still collected between moves.
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
def bound_flag(best, alpha0, beta):
    """The flag of a search result ``best`` found in the window ``(alpha0, beta)``."""
    if best <= alpha0:
        return UPPER
    if best >= beta:
        return LOWER
    return EXACT


@numba.njit(cache=True)
def value_to_tt(value, ply, win):
    """A score as the table keeps it: win/loss distances counted from this node."""
    if value > win - MATE_BAND:
        return value + ply
    if value < -(win - MATE_BAND):
        return value - ply
    return value


@numba.njit(cache=True)
def value_from_tt(value, ply, win):
    """Inverse of :func:`value_to_tt` for a node ``ply`` plies from the root."""
    if value > win - MATE_BAND:
        return value - ply
    if value < -(win - MATE_BAND):
        return value + ply
    return value


@numba.njit(cache=True)
def tt_cuts(flag, value, alpha, beta):
    """Whether a table entry with ``flag`` and ``value`` settles the window."""
    return (
        flag == EXACT or (flag == LOWER and value >= beta) or (flag == UPPER and value <= alpha)
    )


@numba.njit(cache=True)
def sort_moves(buf, keys, ply, n):
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
def note_cutoff(killers, history, ply, side, move, bonus):
    """Remember ``move`` of ``side`` that caused a beta cutoff at ``ply``.

    It becomes the first of the two killer moves of that ply (the old first moves to
    second) and its history score grows by ``bonus`` (``depth * depth`` as a rule).
    """
    if killers[ply, 0] != move:
        killers[ply, 1] = killers[ply, 0]
        killers[ply, 0] = move
    history[side, move] += bonus


@numba.njit(cache=True, inline="always")
def killer_key(k, m, tt_best, killers, ply, shift):
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


@numba.njit(cache=True, inline="always")
def pv_push(pv, row, move, child):
    """Row ``row`` of a :func:`new_pv` table becomes ``move`` then row ``child``'s moves
    (``child < 0``: ``move`` alone), cut at :data:`PV_PLIES`."""
    if row >= pv.shape[0]:
        return
    cap = pv.shape[1] - 1
    pv[row, 1] = move
    n = 1
    if 0 <= child < pv.shape[0]:
        k = min(pv[child, 0], cap - 1)
        for j in range(k):
            pv[row, 2 + j] = pv[child, 1 + j]
        n += k
    pv[row, 0] = n


# ------------------------------------------------------------------- the alpha-beta kernel


@numba.njit(cache=True, inline="always")
def no_leaf(g, s, node, m, depth, ply):
    """A ``leaf`` kernel for searches that evaluate every child in its own node."""
    return False, 0


@numba.njit(cache=True, inline="always")
def one_less(g, s, node, ply, i, depth):
    """A ``child_depth`` kernel: every child one ply shallower."""
    return depth - 1


@numba.njit(cache=True, inline="always")
def undo_nothing(g, s, node, m, c):
    """An ``undo`` kernel for searches whose children are new values (bitboards)."""
    return None


@numba.njit(cache=True, inline="always")
def no_cutoff(g, s, node, m, depth, ply):
    """A ``cutoff`` kernel for searches that learn nothing from a cutoff."""
    return None


@numba.njit(cache=True, inline="always")
def store_nothing(
    g, s, node, depth, ply, best, move, alpha0, beta
):  # pragma: no cover - compiled
    """A ``store`` kernel for searches without a transposition table."""
    return None


@numba.njit(cache=True, inline="always")
def killer_cutoff(g, p, node, m, depth, ply):
    """A ``cutoff`` kernel of a search whose position is the side to move ``p``: ``m``
    becomes ``ply``'s first killer and gains ``depth ** 2`` of history (``g.killers``,
    ``g.history``; :func:`note_cutoff`)."""
    note_cutoff(g.killers, g.history, ply, p, m, depth * depth)


#: The principal-variation policies of :func:`negamax`.
PVS_NONE, PVS_ALPHA, PVS_VALUE = 0, 1, 2

#: The kernels of a node that :func:`negamax` calls, and what it calls when a game has none.
NODE_DEFAULTS: dict[str, LazyKernel | None] = {
    "expand": None,
    "play": None,
    "leaf": no_leaf,
    "undo": undo_nothing,
    "child_depth": one_less,
    "cutoff": no_cutoff,
    "store": store_nothing,
}


class NodeKernels(dict[str, LazyKernel]):
    """The node kernels of one search, by role: a decorator that compiles a kernel
    (lazily, ``inline="always"``) and files it under its name without leading
    underscores (``_expand`` is the ``expand`` of :func:`negamax`)."""

    def __call__(self, func: Callable[..., Any]) -> LazyKernel:
        role = func.__name__.lstrip("_")
        if role not in NODE_DEFAULTS:
            raise ValueError(f"{func.__name__}: not a node kernel ({', '.join(NODE_DEFAULTS)})")
        kernel: LazyKernel = numba.njit(cache=True, inline="always")(func)
        self[role] = kernel
        return kernel


def negamax(
    name: str,
    kernels: dict[str, LazyKernel],
    *,
    win: int,
    pvs: int = PVS_NONE,
    clock_mask: int = 0,
    clock_nodes: int = 0,
) -> LazyKernel:
    """A negamax alpha-beta kernel over a game's node ``kernels``, named ``name``.

    The kernel is ``search(g, s, depth, ply, alpha, beta) -> value``: the value of the
    position ``s`` for the side to move, searched ``depth`` plies deep, ``ply`` plies
    from the root, in the window ``(alpha, beta)``; 0 once aborted.  ``g`` is the
    game's context, a ``NamedTuple`` of arrays and constants the game's kernels read,
    with at least ``moves`` (each ply's moves in search order, a row a ply), ``status``
    (the vector of :func:`new_status`), ``deadline`` (a :func:`clock` time) and ``pv``
    (a :func:`new_pv` table with a row for every ply the search reaches: row 0 is the
    root's principal variation, its best move first); ``s``
    the position (a tuple of scalars for a bitboard, which ``play`` answers with a new
    one, or the side to move for a search that makes and takes back moves in ``g``'s
    arrays).  The game's kernels, by role (:class:`NodeKernels`; ``inline="always"``
    ones, made with :mod:`atlas.jit`'s ``njit``):

    ``expand(g, s, depth, ply, alpha, beta) -> (n, value, alpha, beta, node)``
        ``n`` moves ordered for the search into row ``ply`` of ``g.moves``, or ``n =
        -1`` when the node is settled at ``value`` (no move, a leaf, a table cutoff,
        a tactic); the window, which a game may narrow; ``node``, anything the other
        kernels need (a tuple).
    ``leaf(g, s, node, m, depth, ply) -> (settled, value)``
        The value of move ``m`` for the side to move without a node of its own, when
        ``settled`` (a search that values its leaves' children in place); default none.
    ``play(g, s, node, m, ply) -> c``, ``undo(g, s, node, m, c)``
        The child position after ``m``, and taking ``m`` back (default: nothing).
    ``child_depth(g, s, node, ply, i, depth)``
        The depth to search the ``i``-th child to (default ``depth - 1``).
    ``cutoff(g, s, node, m, depth, ply)``
        ``m`` refuted the position (killer moves, history); default nothing.
    ``store(g, s, node, depth, ply, best, move, alpha0, beta)``
        The node's result (``best``, its ``move``) for the table; default nothing.

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
    still answers.  Each node whose alpha rises writes its move and its child's
    variation to its row of ``g.pv`` (:func:`pv_push`: at most :data:`PV_PLIES` moves
    copied), so the root's row is the line the search expects; a node settled by the
    table or a leaf ends the line early.  It is compiled without numba's reference
    counting (``_nrt=False``: it allocates nothing; counting the arrays an inlined
    kernel takes would cost every node).  One instance per game and search: the number
    of compiled signatures is the number of searches.
    """
    unknown = set(kernels) - set(NODE_DEFAULTS)
    missing = [r for r, k in NODE_DEFAULTS.items() if k is None and r not in kernels]
    if unknown or missing:
        raise ValueError(f"negamax {name}: unknown kernels {unknown}, missing {missing}")
    found: dict[str, Any] = {r: kernels.get(r, k) for r, k in NODE_DEFAULTS.items()}
    expand, leaf, play, undo = found["expand"], found["leaf"], found["play"], found["undo"]
    child_depth, cutoff, store = found["child_depth"], found["cutoff"], found["store"]
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
        if ply < g.pv.shape[0]:
            g.pv[ply, 0] = 0  # no variation below this node yet
        n, value, alpha, beta, node = expand(g, s, depth, ply, alpha, beta)
        if n < 0:
            return value
        alpha0 = alpha
        best = -(win + 1)
        best_move = -1
        for i in range(n):
            m = g.moves[ply, i]
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
                pv_push(g.pv, ply, m, -1 if settled else ply + 1)
            if alpha >= beta:
                cutoff(g, s, node, m, depth, ply)
                break
        store(g, s, node, depth, ply, best, best_move, alpha0, beta)
        return best

    search = built(search, name, cache=True, _nrt=False)
    return search
