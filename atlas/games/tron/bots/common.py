"""Board helpers shared by the built-in tron bots: the padded flat board and its kernels.

Every tron bot works on the same layout: the board is copied into a flat ``uint8`` array
with a one-cell wall border, cell ``[row, col]`` living at index ``(row+1)*(W+2)+(col+1)``,
``FREE`` (1) for a cell that can be entered and ``BLOCKED`` (0) for walls, trails and both
heads: the layout of :mod:`atlas.analysis.grid`, whose kernels (Voronoi, BFS, parity,
components) the bots call directly from their compiled search.  The four moves are the
index offsets ``-(W+2), +1, +(W+2), -1`` (north, east, south, west = moves 1..4), so no
kernel ever checks bounds.  Scratch space comes from :class:`Workspace`: one ``int32`` and
one ``float64`` matrix of rows of length ``n`` allocated once per board size, so that the
search kernels never allocate.

Kernels here:

* :func:`voronoi_counts` / :func:`voronoi_touching` -- two-source territory (cells each
  player reaches first), its open-neighbour "edges", and whether the players still touch;
* :func:`potential_articulation` -- the 3x3 local test for a possible cut vertex;
* :func:`parity_bound` -- the checkerboard bound on the longest path in a room;

The greedy space fillers live in :mod:`atlas.games.tron.bots.fill` and the tree-of-chambers
evaluation in :mod:`atlas.games.tron.bots.tree`.

References
----------
.. [1] A. Sloane (a1k0n), "Google AI Challenge post-mortem", 2010 (winner's write-up).
.. [2] "Tree of chambers", 2010 contest submission notes.
"""

from __future__ import annotations

import abc
import gc
from typing import Any

import numpy as np

from ....analysis.components import component_size_kernel
from ....analysis.distances import bfs_blocked_kernel
from ....analysis.grid import BLOCKED, FREE
from ....analysis.parity import parity_kernel
from ....analysis.voronoi import voronoi_kernel
from ....bots.base import BotBase
from ....bots.search import clock_now, effort_active, gc_paused, on_clock, stop_time
from ....bots.warming import warm_phases
from ....jit import numba
from ..rules import follows

__all__ = [
    "WARM_PARTS",
    "FREE",
    "BLOCKED",
    "INF",
    "MOVES",
    "Workspace",
    "board_from_state",
    "offsets",
    "voronoi_counts",
    "voronoi_touching",
    "potential_articulation",
    "parity_bound",
    "component_size",
    "head_distance",
    "legal_moves",
    "SEAT_FAIR",
    "SEAT_FIRST",
    "SEAT_SECOND",
    "turn_seat",
    "safety_deadline",
    "TronBot",
]

#: Steps between separated heads (:func:`head_distance`).
INF = 1 << 28
#: Move codes in offset order (north, east, south, west).
MOVES = (1, 2, 3, 4)

# Rows of the int32 workspace.
(
    R_DA,
    R_DB,
    R_QUEUE,
    R_MARK,
    R_DISC,
    R_LOW,
    R_FLAGS,
    R_STACK,
    R_CNT0,
    R_CNT1,
    R_TRAIL,
    R_COLOUR,
) = range(12)
# Rows of the float64 workspace.
F_E, F_BESTA, F_BESTB = range(3)
_INT_ROWS = 12
_FLOAT_ROWS = 3


class Workspace:
    """Scratch arrays for the kernels of one board size (allocated once, reused).

    Attributes
    ----------
    ibuf : ndarray of int32, shape (12, n)
        Distances and owners, BFS queue, flood marks, DFS state, a chamber's front
        flags, colour counts, a trail of cells a rollout has blocked, and (constant)
        each cell's checkerboard colour, ``(row + column) % 2``, so that hot loops need
        no division.
    fbuf : ndarray of float64, shape (3, n)
        Chamber accumulators (edges, best quiet and front child values; the nodes are
        the two colour counts of ``ibuf``).
    off : ndarray of int64, shape (4,)
        Index offsets of moves 1..4.
    """

    def __init__(self, height: int, width: int) -> None:
        self.height = height
        self.width = width
        self.w2 = width + 2
        self.n = (height + 2) * (width + 2)
        self.ibuf = np.zeros((_INT_ROWS, self.n), dtype=np.int32)
        cells = np.arange(self.n)
        self.ibuf[R_COLOUR] = (cells // self.w2 + cells % self.w2) & 1
        self.fbuf = np.zeros((_FLOAT_ROWS, self.n), dtype=np.float64)
        self.off = offsets(width)


def offsets(width: int) -> np.ndarray:
    """Index offsets of the moves north, east, south, west on a board ``width`` wide."""
    w2 = width + 2
    return np.array([-w2, 1, w2, -1], dtype=np.int64)


def board_from_state(state: Any, player: int) -> tuple[np.ndarray, int, int]:
    """The padded flat board of a tron state and the head indices of ``player`` and rival.

    ``state.blocked`` is a boolean ``[H, W]`` grid (walls, trails and both heads) and
    ``state.heads`` the ``[row, col]`` of each seat.
    """
    blocked = np.asarray(state.blocked, dtype=bool)
    h, w = blocked.shape
    grid = np.zeros((h + 2, w + 2), dtype=np.uint8)
    grid[1:-1, 1:-1] = ~blocked
    heads = np.asarray(state.heads)
    w2 = w + 2
    me = int(heads[player][0] + 1) * w2 + int(heads[player][1] + 1)
    opp = int(heads[1 - player][0] + 1) * w2 + int(heads[1 - player][1] + 1)
    # A head is blocked whatever the state says about it.
    flat = grid.ravel()
    flat[me] = BLOCKED
    flat[opp] = BLOCKED
    return flat, me, opp


#: How a turn search resolves a turn (:attr:`TurnSearch.seat`): atlas's fair simultaneous
#: turn; the official 2010 engine's sequential turn with me moving first (I may step onto
#: the square the opponent is leaving, and adjacent heads swapping is my win); the same
#: with me moving second (the opponent may step onto the square I am leaving).  On the
#: game's first turn both start squares are walls, so the first ply is fair
#: (:attr:`TurnSearch.first`).
SEAT_FAIR = 0
SEAT_FIRST = 1
SEAT_SECOND = 2


def legal_moves(grid: np.ndarray, head: int, off: np.ndarray, follow: int = -1) -> list[int]:
    """Moves (1..4) from ``head`` into free cells, in move order; with ``follow`` (the
    opponent's head, when the turn lets me step onto the square it is leaving) that
    square too."""
    return [k + 1 for k in range(4) if grid[head + off[k]] != 0 or head + off[k] == follow]


def turn_seat(state: Any, player: int) -> tuple[int, bool]:
    """How a turn of ``state`` resolves for ``player``: ``(seat, first)``.

    :data:`SEAT_FAIR` under atlas's rules; under ``compat="official"``
    :data:`SEAT_FIRST` for seat 0 (the 2010 engine moves it first) and
    :data:`SEAT_SECOND` for seat 1; ``first`` on the game's first turn, when both start
    squares are walls.  A seat not known (``player`` -1: a bot served to the engine,
    which shows every bot the board as seat 0's) is played by the fair turn: planning
    as the second seat, whose moves are safe in either, lost more than it saved
    (``docs/bots.md``).

    >>> from atlas.games.tron.rules import GAME
    >>> from atlas.maps import parse_map
    >>> m = parse_map("3 2\\n1 2\\n   \\n", game="tron")
    >>> turn_seat(GAME.initial_state(m, {"compat": "official"}), 1)
    (2, True)
    """
    if getattr(state, "compat", "spec") != "official" or player < 0:
        return SEAT_FAIR, False
    seat = SEAT_FIRST if player == 0 else SEAT_SECOND
    return seat, not follows(state)


#: Share of a move's budget kept back for a busy machine, its minimum and its maximum
#: (seconds).
SAFETY_SHARE = 0.3
SAFETY_MIN = 0.035
SAFETY_MAX = 0.12


#: Seconds a move for what a fixed-depth bot does by the clock (endgame, fill).
FIXED_DEPTH_CLOCK = 0.1


def safety_deadline(
    deadline: float,
    now: float,
    share: float = SAFETY_SHARE,
    least: float = SAFETY_MIN,
    most: float = SAFETY_MAX,
) -> float:
    """The time by which a bot stops thinking: 30 % of the budget early, within limits.

    The margin absorbs the scheduling delays of a busy machine (a process descheduled
    for tens of milliseconds between two clock reads) and the overshoot of the last
    clock check (``docs/bots.md`` gives its measured size).  It is at least 35 ms and at
    most 0.12 s,
    and never more than four fifths of the budget: at 0.1 s per move a bot thinks for
    65 ms, at the contest's 1 s for 0.88 s (0.78 s of the 0.9 s ``atlas bot`` allows
    itself), at 3 s for 2.88 s.  ``share``, ``least`` and ``most`` are a bot's own
    (``apex`` keeps less).
    """
    budget = max(deadline - now, 0.0)
    margin = max(least, min(share * budget, most))
    return stop_time(deadline, margin, now)


@numba.njit(cache=True)
def _open_neighbours(grid, c, off):
    k = 0
    for j in range(4):
        if grid[c + off[j]] != 0:
            k += 1
    return k


@numba.njit(cache=True)
def voronoi_counts(grid, a, b, off, ibuf):
    """Territory of heads ``a`` and ``b``: ``(n_a, n_b, e_a, e_b, touching)``.

    A free cell belongs to the player that reaches it in strictly fewer steps
    (:func:`atlas.analysis.voronoi.voronoi_kernel`); ``e_*`` add up the open neighbours
    of each territory cell ("edges", each counted from both ends); ``touching`` is 1
    while some cell is reachable by both players (they are not separated): a tie cell,
    or cells of the two territories side by side.  Leaves the distance to the nearer
    head in ``ibuf[R_DA]`` and the owner code (1 ``a``, 2 ``b``, 3 tie, 0 unreached) in
    ``ibuf[R_DB]``.  One two-source BFS and one pass over the reached cells: O(n).
    """
    owner = ibuf[R_DB]
    queue = ibuf[R_QUEUE]
    n1, n2, tie = voronoi_kernel(grid, off[2], a, b, ibuf[R_DA], owner, queue)
    start = 2 if a != b else 1
    ea = 0
    eb = 0
    touching = 1 if tie > 0 else 0
    for i in range(start, start + n1 + n2 + tie):
        c = queue[i]
        o = owner[c]
        if o == 3:
            continue
        e = 0
        for j in range(4):
            w = c + off[j]
            if grid[w] != 0:
                e += 1
                if owner[w] != o:
                    touching = 1
        if o == 1:
            ea += e
        else:
            eb += e
    return n1, n2, ea, eb, touching


@numba.njit(cache=True)
def voronoi_touching(grid, a, b, off, ibuf):
    """Territories of heads ``a`` and ``b`` (as :func:`voronoi_counts`) without the edges.

    Returns ``(n_a, n_b, touching)``; the scan for touching territories stops at the
    first contact, which a BFS-ordered scan meets early when the heads are close.
    """
    owner = ibuf[R_DB]
    queue = ibuf[R_QUEUE]
    n1, n2, tie = voronoi_kernel(grid, off[2], a, b, ibuf[R_DA], owner, queue)
    if tie > 0:
        return n1, n2, 1
    start = 2 if a != b else 1
    for i in range(start, start + n1 + n2):
        c = queue[i]
        o = owner[c]
        for j in range(4):
            w = c + off[j]
            if grid[w] != 0 and owner[w] != o:
                return n1, n2, 1
    return n1, n2, 0


@numba.njit(cache=True)
def component_size(grid, src, off, ibuf):
    """Number of free cells reachable from ``src`` (``src`` itself not counted)."""
    return component_size_kernel(grid, off[2], src, ibuf[R_CNT0], ibuf[R_QUEUE])


@numba.njit(cache=True)
def head_distance(grid, a, b, off, ibuf):
    """Steps from head ``a`` to a cell next to head ``b`` plus one (INF if separated)."""
    da = ibuf[R_DA]
    bfs_blocked_kernel(grid, off[2], a, -1, da, ibuf[R_QUEUE])
    best = INF
    for k in range(4):
        c = b + off[k]
        if c == a:
            return 1
        if grid[c] != 0 and da[c] >= 0 and da[c] + 1 < best:
            best = da[c] + 1
    return best


@numba.njit(cache=True)
def potential_articulation(grid, c, off):
    """1 if the free neighbours of ``c`` fall into two or more groups in its 3x3 ring.

    Two orthogonal neighbours of ``c`` are locally joined when the corner cell between
    them is free; more than one group means ``c`` may be a cut vertex (the post-mortem's
    3x3 test [1]_).  O(1).
    """
    groups = 0
    first_free = -1
    prev_free = False
    # Walk the orthogonals N, E, S, W with corners NE, SE, SW, NW between them.
    for k in range(4):
        o = c + off[k]
        if grid[o] != 0:
            if not prev_free:
                groups += 1
            if first_free < 0:
                first_free = k
            corner = o + off[(k + 1) % 4]
            prev_free = grid[corner] != 0
        else:
            prev_free = False
    # The ring closes: W joined to N through the NW corner merges the first and last group.
    if (
        groups > 1
        and grid[c + off[3]] != 0
        and grid[c + off[0]] != 0
        and grid[c + off[3] + off[0]] != 0
    ):
        groups -= 1
    return 1 if groups > 1 else 0


@numba.njit(cache=True)
def parity_bound(grid, head, off, ibuf):
    """Upper bound on the steps a lone player at ``head`` can still make.

    The checkerboard bound of :func:`atlas.analysis.parity.parity_kernel` over the room
    reachable from ``head`` (the "chessboard problem" of [2]_).  O(room).
    """
    return parity_kernel(grid, off[2], head, ibuf[R_DA], ibuf[R_QUEUE])


_WARM: dict[str, bool] = {}


class _Board:
    """The two fields of a tron state the bots read."""

    def __init__(self, blocked: np.ndarray, heads: np.ndarray) -> None:
        self.blocked = blocked
        self.heads = heads


#: The parts of a tron bot's warm-up (:meth:`TronBot.warm_up`), in its order: the first
#: compiles the endgame's kernels, apart from the rest.
WARM_PARTS = ("endgame", "far", "search")


class TronBot(BotBase):
    """Common Python side of the tron bots: board conversion, workspace, warm-up.

    Subclasses implement :meth:`choose` on the padded flat board and return a move 1..4.
    ``move`` never returns a move into a blocked cell when a free one exists.
    """

    name = "tron"
    #: The endgame's kernels, the first part of the warm-up, are the bot's own: a first
    #: game's worker process may compile them (:mod:`atlas.bots.warming`).
    warm_apart = True
    #: When positive, the alpha-beta searches go to exactly this many turns, whatever
    #: the clock says (``benchmarks/ladder.py --depth``: the evaluations compared apart
    #: from their speed); the rest of the bot's play keeps at most
    #: :data:`FIXED_DEPTH_CLOCK` seconds a move, and ``chambers`` searches at every
    #: distance (its far-apart rollouts go by the clock).
    fixed_depth = 0
    #: Whether the search plays the turn as the game resolves it (:func:`turn_seat`: the
    #: 2010 engine's order under ``compat="official"``); otherwise always atlas's fair
    #: simultaneous turn.
    models_order = False
    #: The seat this bot has in the turn's order when that is not the seat it is asked
    #: to move (``None``: the same): a bot served to the official engine is always
    #: shown the board as seat 0's and may not know which seat moves first (-1: the
    #: fair turn, :func:`turn_seat`).
    order_seat: int | None = None

    def __init__(self, game: str = "tron", seed: int = 0) -> None:
        self.game = game
        #: How the turn being chosen resolves (:func:`turn_seat`), set by :meth:`move`.
        self.seat, self.first = SEAT_FAIR, False
        self.rng = np.random.default_rng(seed)
        self._ws: Workspace | None = None
        self.last_info: dict[str, Any] = {}
        self.warm_up()

    def warm_up(self) -> None:
        """Load (or compile, the first time) this bot's kernels on tiny boards.

        Done once per process and class, when the bot is made, so that no move pays it.
        Three parts (:data:`WARM_PARTS`), each on its own board: ``endgame`` (the heads
        walled apart), ``far`` (heads 11 steps apart) and ``search`` (a small open
        room); which of them, in which order, is
        :func:`atlas.bots.warming.warm_phases`'s (a first game's two processes go
        through them in opposite orders, and the endgame's kernels, the bot's own, may
        be left to the other process: the bot then counts itself warmed only when a
        later warm-up has gone through them all).
        """
        cls = type(self)
        if _WARM.get(cls.__name__):
            return
        separated = np.zeros((5, 6), dtype=bool)
        separated[2, :] = True  # the endgame kernels
        far = np.zeros((3, 12), dtype=bool)  # heads 11 steps apart: far-apart play
        boards = {
            "endgame": (separated, [[1, 1], [3, 4]]),
            "far": (far, [[1, 0], [1, 11]]),
            "search": (np.zeros((4, 4), dtype=bool), [[0, 0], [3, 3]]),
        }
        parts = warm_phases(WARM_PARTS, apart=True)
        for phase in parts:
            blocked, heads = boards[phase]
            grid, me, opp = board_from_state(_Board(blocked, np.array(heads, np.int32)), 0)
            # A generous deadline: loading the kernels may take a while on a busy
            # machine, and the tiny boards end the searches long before it.
            self.choose(grid, me, opp, Workspace(*blocked.shape), clock_now() + 60.0)
        if len(parts) < len(WARM_PARTS):
            return  # a part left to another process: warmed again once it is done
        _WARM[cls.__name__] = True
        # The compiled code and everything loaded so far lives as long as the process:
        # keep it out of later full collections.
        gc.collect()
        gc.freeze()

    def workspace(self, height: int, width: int) -> Workspace:
        """The scratch arrays of this board size (kept between moves)."""
        ws = self._ws
        if ws is None or ws.height != height or ws.width != width:
            ws = self._ws = Workspace(height, width)
        return ws

    @gc_paused
    def move(self, state: Any, player: int, deadline: float) -> int:
        """Move 1..4 (north, east, south, west) for seat ``player`` before ``deadline``.

        Python's cyclic garbage collector is paused while the bot thinks
        (:func:`atlas.bots.search.gc_paused`).  ``deadline`` is a ``time.perf_counter``
        time; the search reads :func:`~atlas.bots.search.clock_now` (the processor's
        clock inside :func:`~atlas.bots.search.processor_clock`).
        """
        # a move that does not search says nothing: no figures of the last move, nor of
        # the warm-up's tiny boards, which only the first bot of a process plays
        self.last_info = {}
        deadline = on_clock(deadline)
        now = clock_now()
        stop = self.stop_time(deadline, now)
        if self.fixed_depth > 0 and not effort_active():
            stop = min(stop, now + FIXED_DEPTH_CLOCK)
        grid, me, opp = board_from_state(state, player)
        h, w = np.asarray(state.blocked).shape
        ws = self.workspace(h, w)
        order = player if self.order_seat is None else self.order_seat
        self.seat, self.first = (
            turn_seat(state, order) if self.models_order else (SEAT_FAIR, False)
        )
        follow = opp if self.seat == SEAT_FIRST and not self.first else -1
        legal = legal_moves(grid, me, ws.off, follow)
        if not legal:
            return 1
        if len(legal) == 1:
            return legal[0]
        mv = int(self.choose(grid, me, opp, ws, stop))
        if mv not in legal:
            mv = legal[0]
        pv = self.last_info.get("pv")
        if pv and pv[0] != mv:  # a line that is not the move's says nothing of it
            self.last_info = {**self.last_info, "pv": [mv]}
        return mv

    def stop_time(self, deadline: float, now: float) -> float:
        """When this bot stops thinking about a move due at ``deadline``
        (:func:`safety_deadline`)."""
        return safety_deadline(deadline, now)

    @abc.abstractmethod
    def choose(self, grid: np.ndarray, me: int, opp: int, ws: Workspace, stop: float) -> int:
        """The move 1..4 of ``me`` on the padded flat board ``grid`` (``opp`` the
        other head), decided by ``stop`` (a :func:`~atlas.bots.search.clock_now` value)."""
