"""The seed's isolation bot, ``phased``: alpha-beta with three phase heuristics.

After Alden Quimby's CS 4701 bot (``isolation-alphabeta.txt``):

* **Beginning** (many empty squares): *number of moves*, my legal moves minus the
  opponent's -- crude and fast, so the search goes deep while the board is open.
* **Middle**: *open area*, the squares my piece could ever reach ("water poured on my
  piece") minus the opponent's; once the pieces are walled off, the larger area wins.
* **End**: *longest path*, the longest walk I can make minus the opponent's.  Once the
  pieces are separated no search is needed: the bot walks its longest path.

The phase is chosen at the root from the share of empty squares (and separation).  The
search is negamax alpha-beta with the seed's move ordering (every child is evaluated and
searched best first), iterative deepening within the deadline, and its quiescence
extension: a child whose evaluation swings from large positive to large negative (or
back) is searched one ply deeper, at most ``2 * depth`` times per iteration.

The kernels here (move generation on a flat board, flood fill, separation, longest path)
are shared by :mod:`atlas.games.isolation.bots.strong`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ....bots.search import (
    S_EXT,
    S_EXTCAP,
    DeepeningBot,
    NodeKernels,
    clock,
    gc_paused,
    negamax,
    new_pv,
    new_status,
    sort_moves,
    stop_time,
)
from ....bots.warming import warm_phases
from ....jit import numba
from ..rules import KNIGHT_JUMPS, QUEEN_DIRECTIONS

__all__ = [
    "PhasedIsolationBot",
    "IsolationBot",
    "separated_walk",
    "Board",
    "BoardArrays",
    "flat_board",
    "tiny_state",
    "longest_path",
    "phase_of",
    "BEGIN",
    "MIDDLE",
    "END",
    "WIN",
    "BEGIN_SHARE",
    "END_SHARE",
]

#: Phases of the game.
BEGIN, MIDDLE, END = 0, 1, 2
#: Above this share of empty squares the game is in its beginning.
BEGIN_SHARE = 0.55
#: At or below this share of empty squares (or once separated) the game is in its end.
END_SHARE = 0.2
#: Score of a win at the root; a win at ply p scores ``WIN - p``.
WIN = 100_000
#: Value of a separated position won or lost on walks (below ``WIN``: not proven); the
#: searches of :mod:`.strong`, :mod:`.knight` and :mod:`.queen` score such leaves so.
SEPARATED_WIN = WIN // 4
#: Longest-path nodes per leaf evaluation, and for the walk once separated.
LEAF_PATH_NODES = 400
ROOT_PATH_NODES = 2_000_000
#: Evaluation magnitude counted as "large" by the quiescence test, per phase.
SWING = np.array([2, 3, 2], dtype=np.int64)


class Board:
    """A position on flat arrays: ``free`` uint8 per cell, ``pos`` int64 per seat (-1 unplaced).

    ``nbr[cell, d]`` is the cell one step in direction ``d`` (a king step for the queen,
    a jump for the knight) or -1; ``slide`` says whether moves repeat the step (queen).
    """

    def __init__(
        self, free: np.ndarray, pos: np.ndarray, rows: int, cols: int, slide: bool
    ) -> None:
        self.free, self.pos, self.rows, self.cols, self.slide = free, pos, rows, cols, slide
        self.nbr = neighbour_table(rows, cols, slide)
        n = rows * cols
        self.mark = np.zeros(n, dtype=np.int64)
        self.queue = np.zeros(n, dtype=np.int64)
        self.stamp = np.zeros(1, dtype=np.int64)
        width = 2 * (rows + cols) if slide else 8
        self.lp = (
            np.zeros((n + 2, width), dtype=np.int64),
            np.zeros(n + 2, dtype=np.int64),
            np.zeros(n + 2, dtype=np.int64),
            np.zeros(n + 2, dtype=np.int64),
            np.zeros(width, dtype=np.int64),
        )

    def cell(self, c: int) -> tuple[int, int]:
        """``(row, col)`` of a flat cell index."""
        return (int(c) // self.cols, int(c) % self.cols)

    def arrays(self) -> BoardArrays:
        """The board's part of a search context."""
        fields = (self.free, self.nbr, self.slide, self.pos, self.mark, self.queue, self.stamp)
        return BoardArrays(*fields, self.lp)


class BoardArrays(NamedTuple):
    """A :class:`Board`'s arrays, for the compiled searches: the free cells, the
    neighbour table, whether moves slide, the pieces, the flood fill's marks, queue and
    stamp, and the longest path's stacks (``lp``)."""

    free: np.ndarray
    nbr: np.ndarray
    slide: bool
    pos: np.ndarray
    mark: np.ndarray
    queue: np.ndarray
    stamp: np.ndarray
    lp: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def neighbour_table(rows: int, cols: int, slide: bool) -> np.ndarray:
    """``nbr[cell, d]``: the cell reached by step ``d`` (king steps or knight jumps), or -1."""
    steps = QUEEN_DIRECTIONS if slide else KNIGHT_JUMPS
    nbr = np.full((rows * cols, 8), -1, dtype=np.int64)
    for r in range(rows):
        for c in range(cols):
            for d, (dr, dc) in enumerate(steps):
                rr, cc = r + dr, c + dc
                if 0 <= rr < rows and 0 <= cc < cols:
                    nbr[r * cols + c, d] = rr * cols + cc
    return nbr


def tiny_state(rows: list[str], variant: str) -> Any:
    """A small position from text (``#`` blocked, ``0``/``1`` pieces), for warming up."""
    from types import SimpleNamespace

    grid = np.array([list(r) for r in rows])
    pos = np.full((2, 2), -1, np.int32)
    for p in (0, 1):
        pos[p] = np.argwhere(grid == str(p))[0]
    return SimpleNamespace(blocked=grid != ".", pos=pos, variant=variant, to_play=0, turn=0)


def warm_state(corner: list[str], variant: str, rows: int, cols: int) -> Any:
    """:func:`tiny_state` ``corner`` in the top-left of a ``rows`` x ``cols`` board whose
    other squares are blocked: a position searched by the same kernels as the board's
    own (their kind depends on its size) and solved at once."""
    grid = [["#"] * max(cols, 3) for _ in range(max(rows, 3))]
    for r, line in enumerate(corner):
        grid[r][: len(line)] = list(line)
    return tiny_state(["".join(g) for g in grid], variant)


def flat_board(state: Any) -> Board:
    """A :class:`Board` copied from an ``IsolationState``."""
    blocked = np.asarray(state.blocked, dtype=np.bool_)
    rows, cols = blocked.shape
    free = (~blocked).ravel().astype(np.uint8)
    pos = np.full(2, -1, dtype=np.int64)
    for p in (0, 1):
        r, c = int(state.pos[p][0]), int(state.pos[p][1])
        if r >= 0:
            pos[p] = r * cols + c
    return Board(free, pos, int(rows), int(cols), state.variant != "knight")


@numba.njit(cache=True, inline="always")
def _moves(free, nbr, slide, src, out, store):
    """The destinations from ``src`` (every free cell if unplaced), written to ``out``
    when ``store``; how many."""
    n = 0
    if src < 0:
        for c in range(free.shape[0]):
            if free[c]:
                if store:
                    out[n] = c
                n += 1
        return n
    for d in range(8):
        c = nbr[src, d]
        while c >= 0 and free[c]:
            if store:
                out[n] = c
            n += 1
            if not slide:
                break
            c = nbr[c, d]
    return n


@numba.njit(cache=True, _nrt=False)
def gen_moves(free, nbr, slide, src, out):
    """Write the destinations from ``src`` into ``out``; return how many."""
    return _moves(free, nbr, slide, src, out, True)


@numba.njit(cache=True, _nrt=False)
def count_moves(free, nbr, slide, src):
    """Number of legal destinations from ``src`` (all free cells if unplaced)."""
    return _moves(free, nbr, slide, src, nbr[0], False)


@numba.njit(cache=True)
def flood(free, nbr, src, mark, queue, stamp):
    """Free cells reachable from ``src`` (not counting it); marks them with a new stamp.

    Queen moves reach exactly the king-connected free cells (a slide is a chain of king
    steps), so one breadth-first pass over ``nbr`` serves both variants.  O(cells).
    """
    stamp[0] += 1
    s = stamp[0]
    if src < 0:
        n = 0
        for c in range(free.shape[0]):
            if free[c]:
                mark[c] = s
                n += 1
        return n
    head = 0
    tail = 0
    u = src  # then each cell of the queue in turn
    while True:
        for d in range(8):
            c = nbr[u, d]
            if c >= 0 and free[c] and mark[c] != s:
                mark[c] = s
                queue[tail] = c
                tail += 1
        if head == tail:
            return tail
        u = queue[head]
        head += 1


@numba.njit(cache=True)
def separated(free, nbr, pos, mark, queue, stamp):
    """Whether neither piece can ever reach a square the other can reach."""
    if pos[0] < 0 or pos[1] < 0:
        return False
    flood(free, nbr, pos[0], mark, queue, stamp)
    s = stamp[0]
    for d in range(8):
        c = nbr[pos[1], d]
        if c >= 0 and free[c] and mark[c] == s:
            return False
    return True


@numba.njit(cache=True)
def longest_path(free, nbr, slide, src, cap, upper, buf, cnt, idx, cur, keys, deadline):
    """Longest walk from ``src`` (moves), its first move, and whether the search finished.

    Notes
    -----
    Depth-first search with an explicit stack over the real board (a slide may not
    cross squares the walk has blocked); children are tried fewest-onward-moves first
    (Warnsdorff's rule) so that good walks come early.  Stops after ``cap`` nodes or on
    reaching ``upper`` (the reachable area, an upper bound), or past ``deadline``.
    Exponential in the worst case, hence the cap.  ``free`` is restored.  ``buf``
    (cells + 2, max moves), ``cnt``, ``idx``, ``cur`` and ``keys`` are scratch space (see
    :class:`Board`).
    """
    if src < 0:
        return 0, -1, True
    max_depth = buf.shape[0]
    best = 0
    first = -1
    nodes = 0
    finished = True
    d = 0
    cur[0] = src
    cnt[0] = _ordered_moves(free, nbr, slide, src, buf[0], keys)
    idx[0] = 0
    while True:
        if idx[d] < cnt[d] and d + 1 < max_depth:
            m = buf[d, idx[d]]
            idx[d] += 1
            free[m] = 0
            d += 1
            cur[d] = m
            cnt[d] = _ordered_moves(free, nbr, slide, m, buf[d], keys)
            idx[d] = 0
            nodes += 1
            if d > best:
                best = d
                first = cur[1]
                if best >= upper:
                    break
            if nodes >= cap or ((nodes & 4095) == 0 and clock() > deadline):
                finished = False
                break
        else:
            if d == 0:
                break
            free[cur[d]] = 1
            d -= 1
    while d > 0:
        free[cur[d]] = 1
        d -= 1
    return best, first, finished or best >= upper


@numba.njit(cache=True)
def _ordered_moves(free, nbr, slide, src, out, keys):
    n = gen_moves(free, nbr, slide, src, out)
    for i in range(n):
        free[out[i]] = 0
        keys[i] = count_moves(free, nbr, slide, out[i])
        free[out[i]] = 1
    for i in range(1, n):
        m = out[i]
        k = keys[i]
        j = i - 1
        while j >= 0 and keys[j] > k:
            out[j + 1] = out[j]
            keys[j + 1] = keys[j]
            j -= 1
        out[j + 1] = m
        keys[j + 1] = k
    return n


@numba.njit(cache=True)
def walk_length(free, nbr, slide, src, cap, mark, queue, stamp, lp):
    """The longest walk from ``src`` found in ``cap`` nodes (:func:`longest_path`, bounded
    by the area reachable from ``src``)."""
    area = flood(free, nbr, src, mark, queue, stamp)
    length, _, _ = longest_path(
        free, nbr, slide, src, cap, area, lp[0], lp[1], lp[2], lp[3], lp[4], np.inf
    )
    return length


@numba.njit(cache=True, _nrt=False)
def evaluate(phase, b, p):
    """The seed's heuristic of the phase, for seat ``p`` on the :class:`BoardArrays` ``b``."""
    free, nbr, slide, pos, mark, queue, stamp, lp = b
    q = 1 - p
    if phase == BEGIN:
        return count_moves(free, nbr, slide, pos[p]) - count_moves(free, nbr, slide, pos[q])
    if phase == MIDDLE:
        mine = flood(free, nbr, pos[p], mark, queue, stamp)
        theirs = flood(free, nbr, pos[q], mark, queue, stamp)
        if pos[p] >= 0 and pos[q] >= 0:
            touching = False
            for d in range(8):
                c = nbr[pos[p], d]
                if c >= 0 and free[c] and mark[c] == stamp[0]:
                    touching = True
            if not touching and mine != theirs:
                # walled off: the larger area wins (seed: "returns a win")
                return (
                    WIN // 2 + (mine - theirs) if mine > theirs else -WIN // 2 + (mine - theirs)
                )
        return mine - theirs
    a = walk_length(free, nbr, slide, pos[p], LEAF_PATH_NODES, mark, queue, stamp, lp)
    return a - walk_length(free, nbr, slide, pos[q], LEAF_PATH_NODES, mark, queue, stamp, lp)


#: The node kernels of the seed's search.
_NODE = NodeKernels()


class PhasedSearch(NamedTuple):
    """The context of the seed's search (``g`` of :func:`atlas.bots.search.negamax`):
    the phase, the board's arrays, each ply's moves and sort keys."""

    status: np.ndarray
    deadline: float
    pv: np.ndarray

    phase: int
    b: BoardArrays
    moves: np.ndarray
    keys: np.ndarray


@_NODE
def _expand(g, p, depth, ply, alpha, beta):  # pragma: no cover - compiled
    """The seed's node: its evaluation, and every child evaluated and searched best first."""
    src = g.b.pos[p]
    n = gen_moves(g.b.free, g.b.nbr, g.b.slide, src, g.moves[ply])
    if n == 0:
        return -1, -(WIN - ply), alpha, beta, (src, 0, 0)
    parent = evaluate(g.phase, g.b, p)
    if depth <= 0:
        return -1, parent, alpha, beta, (src, parent, 0)
    for i in range(n):
        m = g.moves[ply, i]
        g.b.free[m] = 0
        g.b.pos[p] = m
        g.keys[ply, i] = -evaluate(g.phase, g.b, 1 - p)
        g.b.pos[p] = src
        g.b.free[m] = 1
    sort_moves(g.moves, g.keys, ply, n)
    return n, 0, alpha, beta, (src, parent, SWING[g.phase])


@_NODE
def _play(g, p, node, m, ply):  # pragma: no cover - compiled
    g.b.free[m] = 0
    g.b.pos[p] = m
    return 1 - p


@_NODE
def _undo(g, p, node, m, q):  # pragma: no cover - compiled
    g.b.pos[p] = node[0]
    g.b.free[m] = 1


@_NODE
def _child_depth(g, p, node, ply, i, depth):  # pragma: no cover - compiled
    """The seed's quiescence: a child whose evaluation swings from large positive to large
    negative (or back) is searched one ply deeper, at most ``S_EXTCAP`` times."""
    _, parent, swing = node
    child = g.keys[ply, i]
    status = g.status
    if (
        (parent >= swing and child <= -swing) or (parent <= -swing and child >= swing)
    ) and status[S_EXT] < status[S_EXTCAP]:
        status[S_EXT] += 1
        return depth
    return depth - 1


#: Negamax alpha-beta with the seed's ordering and quiescence extension
#: (:func:`atlas.bots.search.negamax`): ``phased_search(g, p, depth, ply, alpha, beta)``,
#: ``g`` a :class:`PhasedSearch`, ``p`` the seat to move.
phased_search = negamax(f"{__name__}.phased_search", _NODE, win=WIN, clock_mask=255)


def phase_of(board: Board) -> int:
    """The seed's phase of a position: by the share of empty squares, END once separated."""
    empties = int(board.free.sum())
    share = empties / board.free.size
    if separated(board.free, board.nbr, board.pos, board.mark, board.queue, board.stamp):
        return END
    if share > BEGIN_SHARE:
        return BEGIN
    if share <= END_SHARE:
        return END
    return MIDDLE


def separated_walk(board: Board, player: int, stop: float) -> int | None:
    """Once the pieces are separated no search is needed: the first move of the longest
    walk ``player`` finds by ``stop`` (-1 if it has none), else ``None``."""
    if not separated(board.free, board.nbr, board.pos, board.mark, board.queue, board.stamp):
        return None
    src = board.pos[player]
    area = flood(board.free, board.nbr, src, board.mark, board.queue, board.stamp)
    lp = board.lp
    _, first, _ = longest_path(
        board.free, board.nbr, board.slide, src, ROOT_PATH_NODES, area, *lp, stop
    )
    return int(first)


class IsolationBot(DeepeningBot):
    """The isolation searches' side of a move: the warm-up and a random legal fallback."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: The (variant, rows, cols) boards whose kernels :meth:`start` has loaded.
        self._warmed: set[tuple[str, int, int]] = set()

    #: A forced win scores ``WIN - plies`` (its reports say ``mate``).
    win_score = float(WIN)

    def start(self, game_map: Any = None, params: Any = None, player: int = 0) -> None:
        """Load the kernels the game will use now (numba's cache: compiled on first use),
        so that no move pays for them later: those of ``game_map``'s variant and size
        (a board of over 64 squares is searched on arrays), every one without a map."""
        if game_map is not None:
            variant = str(
                (params or {}).get("variant") or game_map.meta.get("variant") or "queen"
            )
            kinds = [(variant, int(game_map.height), int(game_map.width))]
        else:
            kinds = [(v, 3, 3) for v in ("queen", "knight")]
        for kind in kinds:
            if kind in self._warmed:
                continue
            self._warmed.add(kind)  # first: the warm-up's own moves do not start again
            variant, rows, cols = kind
            states = [
                warm_state(corner, variant, rows, cols)
                for corner in (["0.#", "###", "#.1"], ["0..", "...", "..1"])
            ]
            # two parts: whole moves, whose separated-board walk compiles the kernels
            # every isolation bot shares, and the bot's own search alone.  The moves
            # load the search too, so the search goes apart only when it comes first
            # (atlas.bots.warming reversed: a first game's own process compiles it
            # while the other process compiles what the bots share)
            if warm_phases(("moves", "search"))[0] == "search":
                for state in states:
                    self.warm_search(state)
            for state in states:
                self.move(state, 0, clock() + 0.02)

    def warm_search(self, state: Any) -> None:
        """Load this bot's search alone on ``state`` (a warm-up position), without the
        kernels of the moves around it (:meth:`start`).  Default: nothing apart."""

    def move(self, state: Any, player: int, deadline: float) -> tuple[int, int]:
        raise NotImplementedError

    def fallback(self, board: Board, player: int) -> int:
        """A random legal move of ``player`` (played if no search finishes), -1 if none."""
        out = np.empty(board.free.size, dtype=np.int64)
        n = gen_moves(board.free, board.nbr, board.slide, board.pos[player], out)
        return int(self.rng.choice(out[:n])) if n else -1


class PhasedIsolationBot(IsolationBot):
    """The seed bot: phase heuristics, ordered alpha-beta, quiescence, longest-path walk.

    Parameters as :class:`~atlas.bots.search.DeepeningBot`'s (the generator chooses a
    random legal move when every move loses; :attr:`margin` 30 ms).

    Notes
    -----
    Iterative deepening calls the numba search once per depth; the kernel reads the clock
    every 256 nodes and aborts past the deadline, and the last finished depth's move is
    played.  Cost per node: one evaluation per child (the seed's ordering), each O(cells)
    in the middle game.

    References
    ----------
    ``isolation-alphabeta.txt`` (A. Quimby, CS 4701 Assignment 3).
    """

    name = "phased"
    #: Seconds of one core to compile its kernels from an empty cache (measured alone, the
    #: game's rules included: ``warm_bots`` of this bot only).
    compile_seconds = 3.4
    margin = 0.03

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.last_phase = BEGIN

    @gc_paused
    def move(self, state: Any, player: int, deadline: float) -> tuple[int, int]:
        """The destination ``(row, col)`` chosen by the deadline."""
        if not self._warmed:
            self.start()
        board = flat_board(state)
        stop = stop_time(deadline, self.margin)
        self.forget()  # this move's figures, not the last move's
        self.last_pv = []
        fallback = self.fallback(board, player)
        if fallback < 0:
            return (0, 0)
        phase = self.last_phase = phase_of(board)
        walk = separated_walk(board, player, stop)
        if walk is not None:
            return board.cell(walk if walk >= 0 else fallback)
        return board.cell(self._search(board, player, phase, stop, fallback))

    def _search(self, board: Board, player: int, phase: int, stop: float, fallback: int) -> int:
        empties = int(board.free.sum())
        max_ply = empties + 2
        order = np.zeros((2, max_ply + 1, board.free.size), dtype=np.int64)
        status = new_status()
        pv = new_pv(max_ply + 1)
        g = PhasedSearch(status, stop, pv, phase, board.arrays(), order[0], order[1])

        def run(depth: int) -> int:
            status[S_EXT] = 0
            status[S_EXTCAP] = 2 * depth
            if status[S_EXTCAP] + depth >= max_ply:
                status[S_EXTCAP] = max(0, max_ply - depth - 1)
            return int(phased_search(g, player, depth, 0, -(WIN + 1), WIN + 1))

        limit = empties if self.max_depth is None else min(empties, self.max_depth)
        best = self.deepen(
            run, status, limit, fallback, lambda score: abs(score) >= WIN - 1000, pv
        )
        self.last_pv = [board.cell(c) for c in self.line]
        return best
