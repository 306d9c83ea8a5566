"""The ``strong`` isolation bot: the seed's search made faster, deeper and sharper.

Differences from :mod:`atlas.games.isolation.bots.phased`:

* **Transposition table** keyed by Zobrist hashes (blocked squares, piece squares, side
  to move), holding bound, depth and best move; the best move is searched first.
* **Cheap ordering** instead of evaluating every child: table move, two killer moves per
  ply, then the history heuristic; principal-variation search (null windows after the
  first move).
* **Sharper evaluation**: a Voronoi split by move distance (each free square goes to
  the piece that reaches it in fewer moves; queen slides or knight jumps), plus a
  mobility term.  Once the pieces are separated the evaluation is the difference of
  longest walks (exact for small regions), and a larger walk wins by the alternation
  rule: the side to move wins iff its walk is strictly longer.
* As in the seed, once separated at the root the bot walks its longest path.
* Knight boards of at most 64 squares are searched on bitboards
  (:mod:`atlas.games.isolation.bots.knight`, several times the node rate), where a Voronoi
  split whose ties go to the side to move captures the knight's colour parity: the
  second player's placement decides which side can land on the squares the other
  needs next, and that side won every one of 20 self-play games from random placements.
  On other knight boards the array search uses the same split.
* Queen boards of at most 64 squares are searched on bitboards too
  (:mod:`atlas.games.isolation.bots.queen`: the Voronoi layers are ray fills by shifts), with
  this module's evaluation; larger ones (``cross9``) by the array search.

References
----------
Those of :mod:`atlas.games.isolation.bots.bitboard` (the table and the history heuristic), and
``isolation-alphabeta.txt`` (the seed bot).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ....bots.search import (
    PVS_ALPHA,
    NodeKernels,
    clock,
    gc_paused,
    killer_cutoff,
    killer_key,
    negamax,
    new_pv,
    new_status,
    sort_moves,
    stop_time,
    tt_probe,
    tt_store,
)
from ....jit import numba
from .bitboard import BitboardSearch
from .knight import MAX_CELLS, KnightTables, knight_search, knight_tables
from .phased import (
    SEPARATED_WIN,
    WIN,
    Board,
    BoardArrays,
    IsolationBot,
    count_moves,
    flat_board,
    gen_moves,
    separated_walk,
    walk_length,
)
from .queen import QueenTables, queen_search, queen_tables

__all__ = ["StrongIsolationBot", "ArraySearch", "array_search", "voronoi_split", "TT_BITS"]

#: log2 of the transposition-table size.
TT_BITS = 20
#: Longest-path nodes per side when a leaf is separated.
SEPARATED_PATH_NODES = 500
#: Weights of territory and mobility in the evaluation.
TERRITORY_WEIGHT, MOBILITY_WEIGHT = 8, 3
#: Knight variant: weights of own and opposing mobility (the jump graph rarely splits).
KNIGHT_WEIGHTS = (1, 2)
KNIGHT_TERRITORY = 2
#: The jump table of a queen board (a queen search reads none).
_NO_JUMPS = np.zeros((1, 8), dtype=np.int64)
#: Share of a move's time kept in hand when that is less than the margin: at the
#: site's 20 ms a move the bot thinks 15 ms (the clock is read every 8 to 1024 nodes,
#: well under a millisecond) instead of the fifth :func:`stop_time` guarantees.
SHORT_MARGIN_SHARE = 0.25


@numba.njit(cache=True)
def _distances(free, nbr, slide, src, dist, queue):
    """Move distance from ``src`` to every free cell (-1 unreachable); O(cells * moves)."""
    dist[:] = -1
    if src < 0:
        return
    head = 0
    tail = 0
    queue[tail] = src
    tail += 1
    dist[src] = 0
    while head < tail:
        u = queue[head]
        head += 1
        du = dist[u] + 1
        for d in range(8):
            c = nbr[u, d]
            while c >= 0 and free[c]:
                dc = dist[c]
                if dc < 0:
                    dist[c] = du
                    queue[tail] = c
                    tail += 1
                elif dc < du:
                    break  # that square slides on along this ray at least as early
                if not slide:
                    break
                c = nbr[c, d]


@numba.njit(cache=True)
def voronoi_split(free, nbr, slide, pos, dist0, dist1, queue, tie):
    """Free cells each piece reaches first, and those both reach at all.

    A cell both pieces reach in the same number of moves goes to seat ``tie`` (the side
    to move, which gets there first), or to no one if ``tie`` is -1.  Returns ``(cells
    of seat 0, cells of seat 1, cells reachable by both)``; the last is 0 exactly when
    the pieces are separated.
    """
    _distances(free, nbr, slide, pos[0], dist0, queue)
    _distances(free, nbr, slide, pos[1], dist1, queue)
    a = 0
    b = 0
    both = 0
    for c in range(free.shape[0]):
        if not free[c]:
            continue
        x = dist0[c]
        y = dist1[c]
        if x >= 0 and (y < 0 or x < y or (x == y and tie == 0)):
            a += 1
        elif y >= 0 and (x < 0 or y < x or (x == y and tie == 1)):
            b += 1
        if x >= 0 and y >= 0:
            both += 1
    return a, b, both


@numba.njit(cache=True, _nrt=False)
def _evaluate(b, p, dist0, dist1):
    """The static value for seat ``p`` of the :class:`~.phased.BoardArrays` ``b``."""
    free, nbr, slide, pos, mark, queue, stamp, lp = b
    q = 1 - p
    if not slide and (pos[0] < 0 or pos[1] < 0):
        # a piece still to be placed: mobility only
        return KNIGHT_WEIGHTS[0] * count_moves(free, nbr, slide, pos[p]) - KNIGHT_WEIGHTS[
            1
        ] * count_moves(free, nbr, slide, pos[q])
    v0, v1, both = voronoi_split(free, nbr, slide, pos, dist0, dist1, queue, -1 if slide else p)
    if pos[0] >= 0 and pos[1] >= 0 and both == 0:
        a = walk_length(free, nbr, slide, pos[p], SEPARATED_PATH_NODES, mark, queue, stamp, lp)
        b = walk_length(free, nbr, slide, pos[q], SEPARATED_PATH_NODES, mark, queue, stamp, lp)
        if a > b:
            return SEPARATED_WIN + 100 * (a - b)
        return -SEPARATED_WIN + 100 * (a - b)
    terr = v0 - v1 if p == 0 else v1 - v0
    if not slide:
        return (
            KNIGHT_TERRITORY * terr
            + KNIGHT_WEIGHTS[0] * count_moves(free, nbr, slide, pos[p])
            - KNIGHT_WEIGHTS[1] * count_moves(free, nbr, slide, pos[q])
        )
    mob = count_moves(free, nbr, slide, pos[p]) - count_moves(free, nbr, slide, pos[q])
    return TERRITORY_WEIGHT * terr + MOBILITY_WEIGHT * mob


#: The node kernels of the array search.
_NODE = NodeKernels(cutoff=killer_cutoff)


class ArraySearch(NamedTuple):
    """The context of the array search (``g`` of :func:`atlas.bots.search.negamax`): the
    :class:`~atlas.games.isolation.bots.phased.Board`'s arrays, each ply's moves and sort keys,
    two distance rows, the Zobrist keys of blocked squares (``zb``), pieces (``zp``) and
    the side to move (``zside``), the position's key (``key[0]``, kept up to date by the
    moves), the transposition table (rows of best move, depth, bound flag, value, keyed
    by ``tt_key``), killers and history."""

    status: np.ndarray
    deadline: float
    pv: np.ndarray

    b: BoardArrays
    moves: np.ndarray
    keys: np.ndarray
    dist0: np.ndarray
    dist1: np.ndarray
    zb: np.ndarray
    zp: np.ndarray
    zside: np.uint64
    key: np.ndarray
    tt_key: np.ndarray
    tt: np.ndarray
    killers: np.ndarray
    history: np.ndarray


@_NODE
def _expand(g, p, depth, ply, alpha, beta):  # pragma: no cover - compiled
    free, nbr, slide, pos = g.b.free, g.b.nbr, g.b.slide, g.b.pos
    src = pos[p]
    h = g.key[0]
    slot = h & (g.tt_key.shape[0] - 1)
    n = gen_moves(free, nbr, slide, src, g.moves[ply])
    if n == 0:
        return -1, -(WIN - ply), alpha, beta, (src, slot, h)
    if depth <= 0:
        return -1, _evaluate(g.b, p, g.dist0, g.dist1), alpha, beta, (src, slot, h)
    tt_best, settled, v = tt_probe(g.tt_key, g.tt, slot, h, depth, ply, alpha, beta, WIN)
    if settled:
        return -1, v, alpha, beta, (src, slot, h)
    for i in range(n):
        m = g.moves[ply, i]
        k = g.history[p, m]
        if not slide and depth >= 2:
            # knight: few replies for the opponent and many onward jumps first
            free[m] = 0
            k += (
                32
                + count_moves(free, nbr, slide, m)
                - 2 * count_moves(free, nbr, slide, pos[1 - p])
            ) << 40
            free[m] = 1
        g.keys[ply, i] = killer_key(k, m, tt_best, g.killers, ply, 60)
    sort_moves(g.moves, g.keys, ply, n)
    return n, 0, alpha, beta, (src, slot, h)


@numba.njit(cache=True, inline="always")
def _delta(g, p, src, m):
    """The change of the Zobrist key when seat ``p`` moves from ``src`` to ``m``."""
    delta = g.zb[m] ^ g.zp[p, m] ^ g.zside
    if src >= 0:
        delta ^= g.zp[p, src]
    return delta


@_NODE
def _play(g, p, node, m, ply):  # pragma: no cover - compiled
    g.b.free[m] = 0
    g.b.pos[p] = m
    g.key[0] ^= _delta(g, p, node[0], m)
    return 1 - p


@_NODE
def _undo(g, p, node, m, q):  # pragma: no cover - compiled
    g.key[0] ^= _delta(g, p, node[0], m)
    g.b.pos[p] = node[0]
    g.b.free[m] = 1


@_NODE
def _store(g, p, node, depth, ply, best, move, alpha0, beta):  # pragma: no cover - compiled
    tt_store(g.tt_key, g.tt, node[1], node[2], move, depth, ply, best, alpha0, beta, WIN)


#: Principal-variation alpha-beta on the arrays of a :class:`ArraySearch` with a
#: transposition table, killers and history (:func:`atlas.bots.search.negamax`):
#: ``array_search(g, p, depth, ply, alpha, beta)``, ``p`` the seat to move.  The clock
#: is read every 8 nodes, since a queen-board node is slow (``docs/bots.md``).
array_search = negamax(f"{__name__}.array_search", _NODE, win=WIN, pvs=PVS_ALPHA, clock_mask=7)


class StrongIsolationBot(IsolationBot):
    """Iterative-deepening PVS with a Zobrist transposition table and a Voronoi evaluation.

    Parameters as :class:`~atlas.bots.search.DeepeningBot`'s (the generator chooses a
    legal fallback; the Zobrist keys are fixed).  :attr:`margin`: 20 ms.  In the ladders
    at 0.1 s a move, with 15 ms kept, the slowest move stayed within the limit, on a
    quiet machine and on a loaded one.  ``docs/bots.md`` gives the measured figures.

    Notes
    -----
    The kernel reads the clock every 8 nodes and aborts past the deadline.  A queen-board
    node is slow enough that every 64 nodes let a move run milliseconds past its stop
    (``docs/bots.md`` gives the measured figures).  A
    leaf costs two breadth-first passes over the move graph, O(cells * moves per cell).
    The table (``2 ** TT_BITS`` entries) lives as long as the bot.
    """

    name = "strong"
    #: Seconds of one core to compile its kernels from an empty cache (measured alone, the
    #: game's rules included: ``warm_bots`` of this bot only).
    compile_seconds = 5.2

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: search queen boards of at most 64 squares on arrays rather than bitboards
        #: (the previous bot, kept for comparison)
        self.arrays = False
        size = 1 << TT_BITS
        self.tt_key = np.zeros(size, dtype=np.uint64)
        # per slot: best move, depth, bound flag, value (one cache line per entry)
        self.tt = np.zeros((size, 4), dtype=np.int64)
        self._cells = -1
        self._tables: KnightTables | None = None
        self._queen: QueenTables | None = None
        self.last_seconds = 0.0

    def _zobrist(self, n: int) -> None:
        if self._cells == n:
            return
        self._cells = n
        z = np.random.default_rng(0x150).integers(1, 2**63, size=3 * n + 1, dtype=np.int64)
        z = z.astype(np.uint64)
        self.zb, self.zp, self.zside = z[:n], z[n : 3 * n].reshape(2, n), z[3 * n]
        self.tt_key[:] = 0

    def _knight_tables(self, rows: int, cols: int) -> KnightTables:
        if self._tables is None or (self._tables.rows, self._tables.cols) != (rows, cols):
            self._tables = knight_tables(rows, cols)
        return self._tables

    def _queen_tables(self, rows: int, cols: int) -> QueenTables:
        if self._queen is None or (self._queen.rows, self._queen.cols) != (rows, cols):
            self._queen = queen_tables(rows, cols)
        return self._queen

    def _key(self, board: Board, player: int) -> np.ndarray:
        key = np.uint64(0)
        for c in np.flatnonzero(board.free == 0):
            key ^= self.zb[c]
        for p in (0, 1):
            if board.pos[p] >= 0:
                key ^= self.zp[p, board.pos[p]]
        if player == 1:
            key ^= self.zside
        return np.array([key], dtype=np.uint64)

    def start(self, game_map: Any = None, params: Any = None, player: int = 0) -> None:
        """Load the game's kernels now (numba's cache; :meth:`IsolationBot.start`), and
        write the table's memory once, so that no move pays for either later.

        A fresh table is memory the system has not handed over yet: the first move's
        search used to take it page by page: 40 MB, more processor time than a 20 ms move
        has on a loaded machine (``docs/bots.md``, "Time safety", gives the figure).
        """
        known = len(self._warmed)
        super().start(game_map, params, player)
        if len(self._warmed) != known:  # the warm-up's entries go, keys and all
            self.tt.fill(0)
            self.tt_key.fill(0)
        shape = getattr(game_map, "shape", None)
        if shape is not None:  # the keys of the game's board now rather than in a move
            self._zobrist(int(shape[0]) * int(shape[1]))

    @gc_paused
    def move(self, state: Any, player: int, deadline: float) -> tuple[int, int]:
        """The destination ``(row, col)`` chosen by the deadline."""
        if not self._warmed:
            self.start()
        start = clock()
        board = flat_board(state)
        # short moves keep a quarter of their time rather than the whole margin
        stop = stop_time(deadline, min(self.margin, SHORT_MARGIN_SHARE * (deadline - start)))
        self.forget()  # this move's figures, not the last move's
        self.last_pv = []
        fallback = self.fallback(board, player)
        if fallback < 0:
            return (0, 0)
        walk = separated_walk(board, player, stop)
        if walk is not None:
            return board.cell(walk if walk >= 0 else fallback)
        best = self._search(board, player, stop, fallback)
        self.last_pv = [board.cell(c) for c in self.line]
        self.last_seconds = float(clock() - start)
        return board.cell(best)

    def warm_search(self, state: Any) -> None:
        """The search alone on the warm-up position ``state``: its kernels compiled
        before those of the separated-board walk, which the isolation bots share."""
        # the answer is thrown away: no fallback drawn (it would take from the rng)
        self._search(flat_board(state), 0, clock() + 0.02, 0)

    def _search(self, board: Board, player: int, stop: float, fallback: int) -> int:
        """The square the search chooses for ``player`` by ``stop`` (``fallback`` if no
        depth finishes)."""
        self._zobrist(board.free.size)
        key = self._key(board, player)
        empties = int(board.free.sum())
        cells = board.free.size
        order = np.zeros((2, empties + 2, cells), dtype=np.int64)
        killers = np.full((empties + 2, 2), -1, dtype=np.int64)
        history = np.zeros((2, cells), dtype=np.int64)
        status = new_status()
        pv = new_pv(empties + 2)
        table = (self.tt_key, self.tt, killers, history)
        g: BitboardSearch | ArraySearch
        if cells <= MAX_CELLS and (not self.arrays if board.slide else board.cols >= 3):
            # a bitboard: one uint64 of free squares
            bits = np.uint64(sum(1 << int(c) for c in np.flatnonzero(board.free)))
            rem = np.zeros(cells + 2, dtype=np.uint64)
            if board.slide:
                tab, jumps = self._queen_tables(board.rows, board.cols).tab, _NO_JUMPS
                stack = np.zeros((cells + 2, 2 * cells + 2), dtype=np.int64)
                search = queen_search
            else:
                tables = self._knight_tables(board.rows, board.cols)
                tab, jumps = tables.tab, tables.jumps
                stack = np.zeros((2, cells + 2), dtype=np.int64)
                search = knight_search
            zobrist = np.stack([self.zb, self.zp[0], self.zp[1]])
            bitboard = (tab, jumps, *order, stack, rem, zobrist, self.zside, *table)
            g = BitboardSearch._make((status, stop, pv, *bitboard))
            position = (bits, int(board.pos[0]), int(board.pos[1]), player, key[0])

            def run(depth: int) -> int:
                return int(search(g, position, depth, 0, -(WIN + 1), WIN + 1))
        else:
            dist = np.zeros((2, cells), dtype=np.int64)
            context = (*dist, self.zb, self.zp, self.zside, key, *table)
            g = ArraySearch._make((status, stop, pv, board.arrays(), *order, *context))

            def run(depth: int) -> int:
                return int(array_search(g, player, depth, 0, -(WIN + 1), WIN + 1))

        limit = empties if self.max_depth is None else min(empties, self.max_depth)
        return self.deepen(
            run, status, limit, fallback, lambda score: abs(score) >= WIN - 1000, pv
        )
