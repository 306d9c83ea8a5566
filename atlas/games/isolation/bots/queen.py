"""Bitboard search of the ``strong`` isolation bot for queen boards of at most 64 squares.

The free squares are one ``uint64``; a queen's moves from a whole set of squares are
eight rays, each grown one masked shift at a time through the free squares until it
stops (:func:`queen_spread`).  The Voronoi split by move distance then costs a few
hundred word operations (one spread per distance layer and side) instead of two
breadth-first passes over arrays, and a child position is a new word (no make/undo):
the search runs many times as many nodes a second as the array search of
:mod:`atlas.games.isolation.bots.strong`, and so reaches depths the array search does not
(``docs/bots.md`` gives the measured rates and depths).  That is what a queen board needs:
AB_Improved, searching 5 to 6 moves deep on mobility alone, beat the array search in a
quarter of the games.

Evaluation, for the side to move ``p``, as the array search's: territory by move
distance (a square both reach in as many moves belongs to neither) times
:data:`TERRITORY`, plus own moves minus the opponent's times :data:`MOBILITY`.  Once
the pieces are separated, the longest walks (:func:`queen_walk`, fewest onward moves
first, :data:`WALK_NODES` nodes at most, which count towards the next clock reading):
the side to move wins iff its walk is strictly longer.

The search is the knight's (:func:`atlas.games.isolation.bots.bitboard.bitboard_search`:
Zobrist transposition table, killers, history; moves ordered by the mover's onward
moves minus twice the opponent's replies), on queen moves.

References
----------
Kogge, P. M. & Stone, H. S. (1973). A parallel algorithm for the efficient solution of a
general class of recurrence equations. *IEEE Trans. Computers* 22(8) (ray fills by
shifts); the search's in :mod:`atlas.games.isolation.bots.bitboard`.
"""

from __future__ import annotations

import numpy as np

from ....bots.search import S_CLOCK
from ....jit import numba
from .bitboard import bit_voronoi, bitboard_search, popcount
from .phased import SEPARATED_WIN

__all__ = [
    "QueenTables",
    "queen_tables",
    "queen_spread",
    "queen_voronoi",
    "queen_walk",
    "queen_search",
    "MAX_CELLS",
    "TERRITORY",
    "MOBILITY",
]

#: Largest board the bitboard search takes (one bit per square).
MAX_CELLS = 64
#: The eight rays (d_row, d_col).
_RAYS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
_ZERO = np.uint64(0)
_ONE = np.uint64(1)
#: Weights of territory and mobility (the array search's).
TERRITORY, MOBILITY = 8, 3
#: Walk-search nodes per side at a separated leaf.  Against a 20,000-node walk on random
#: 8 x 8 regions of 25 to 38 squares, 100 nodes fall 1.6 to 2.3 squares short on
#: average and 500 nodes 1.0 to 1.2, at several times the cost (``docs/bots.md``); with
#: 500 the 20 ms game against AB_Improved dropped from 92.5 % to 70 %.
WALK_NODES = 100
#: Walk nodes counted as one search node by the clock.  A separated leaf's two walks can
#: cost as much as a hundred search nodes.  Without this, a search full of separated
#: leaves read the clock far too rarely (``docs/bots.md`` gives the figures).
WALK_NODES_PER_NODE = 8
#: Slots of :attr:`QueenTables.tab`: the eight shift amounts, whether each shifts up
#: (1) or down (0), the squares a step of each ray may leave from, the board mask.
Q_SHIFT, Q_UP, Q_FROM, Q_BOARD = 0, 8, 16, 24


class QueenTables:
    """The shifts and masks of the eight rays on one board size (``tab``, ``uint64``)."""

    def __init__(self, rows: int, cols: int) -> None:
        if rows * cols > MAX_CELLS:
            raise ValueError(
                f"a queen bitboard takes at most {MAX_CELLS} squares, got {rows} x {cols}"
            )
        self.rows, self.cols = rows, cols
        tab = [0] * (Q_BOARD + 1)
        for d, (dr, dc) in enumerate(_RAYS):
            shift = dr * cols + dc
            tab[Q_SHIFT + d] = abs(shift)
            tab[Q_UP + d] = 1 if shift > 0 else 0
            for c in range(rows * cols):
                r, k = divmod(c, cols)
                if 0 <= r + dr < rows and 0 <= k + dc < cols:
                    tab[Q_FROM + d] |= 1 << c
        tab[Q_BOARD] = (1 << (rows * cols)) - 1
        self.tab = np.array(tab, dtype=np.uint64)


def queen_tables(rows: int, cols: int) -> QueenTables:
    """The :class:`QueenTables` of a ``rows`` x ``cols`` board (at most 64 squares)."""
    return QueenTables(rows, cols)


@numba.njit(cache=True)
def queen_spread(x, free, tab):
    """The squares of ``free`` one queen move from any square of ``x`` (rays stop at the
    first square not in ``free``); O(longest ray) shifts per ray."""
    out = _ZERO
    for d in range(8):
        s = tab[Q_SHIFT + d]
        src = tab[Q_FROM + d]
        g = x
        if tab[Q_UP + d] != _ZERO:
            while g != _ZERO:
                g = ((g & src) << s) & free
                out |= g
        else:
            while g != _ZERO:
                g = ((g & src) >> s) & free
                out |= g
    return out


@numba.njit(cache=True)
def _low_bit(x):
    """Index of the lowest set bit of a non-zero ``uint64``."""
    return popcount((x & (~x + _ONE)) - _ONE)


@numba.njit(cache=True, inline="always")
def _step(x, free, tab):
    return queen_spread(x, free, tab)


#: The queen's Voronoi layers (:func:`atlas.games.isolation.bots.bitboard.bit_voronoi`).
_layers = bit_voronoi(f"{__name__}.queen_layers", _step)


@numba.njit(cache=True)
def queen_voronoi(free, a, b, tab):
    """Squares of ``free`` each piece reaches in fewer queen moves, and the reaches.

    Returns ``(squares of seat 0, squares of seat 1, reach of seat 0, reach of seat
    1)``; a square both reach after as many moves is neither's; the reaches (bit sets)
    are disjoint exactly when the pieces are separated.
    """
    return _layers(free, a, b, -1, tab)


@numba.njit(cache=True)
def _walk_moves(stack, d, src, free, tab):
    """Fill row ``d`` of the walk stack with the moves from ``src`` over ``free``, fewest
    onward moves first (Warnsdorff's rule), their count and the next index (0)."""
    w = (stack.shape[1] - 2) // 2
    k = 0
    t = queen_spread(_ONE << np.uint64(src), free, tab)
    while t != _ZERO:
        c = _low_bit(t)
        bit = _ONE << np.uint64(c)
        t &= ~bit
        key = popcount(queen_spread(bit, free & ~bit, tab))
        j = k
        while j > 0 and stack[d, w + j - 1] > key:
            stack[d, j] = stack[d, j - 1]
            stack[d, w + j] = stack[d, w + j - 1]
            j -= 1
        stack[d, j] = c
        stack[d, w + j] = key
        k += 1
    stack[d, 2 * w] = k
    stack[d, 2 * w + 1] = 0


@numba.njit(cache=True)
def queen_walk(free, src, tab, cap, stack, rem):
    """Longest walk of queen moves from ``src`` over ``free`` (depth-first with an explicit
    stack, fewest onward moves first; at most ``cap`` nodes, then the longest found, a
    lower bound), and the nodes it visited.

    ``stack`` has a row per depth (squares + 2 rows) of ``2 w + 2`` int64: the moves,
    their sort keys, their count and the next to try (``w`` at least the most moves a
    square has, the number of squares will do); ``rem[d]`` holds the free squares at
    depth ``d``.
    """
    w = (stack.shape[1] - 2) // 2
    total = popcount(free)
    best = 0
    nodes = 0
    d = 0
    rem[0] = free
    _walk_moves(stack, 0, src, free, tab)
    while d >= 0:
        i = stack[d, 2 * w + 1]
        if i >= stack[d, 2 * w]:
            d -= 1
            continue
        stack[d, 2 * w + 1] = i + 1
        c = stack[d, i]
        left = rem[d] & ~(_ONE << np.uint64(c))
        d += 1
        rem[d] = left
        _walk_moves(stack, d, c, left, tab)
        nodes += 1
        if d > best:
            best = d
            if best >= total:
                return best, nodes
        if nodes >= cap:
            return best, nodes
    return best, nodes


@numba.njit(cache=True)
def _evaluate(free, pos0, pos1, p, tab, stack, rem, status):
    a = pos0 if p == 0 else pos1
    b = pos1 if p == 0 else pos0
    if a < 0 or b < 0:
        mine = (
            popcount(free) if a < 0 else popcount(queen_spread(_ONE << np.uint64(a), free, tab))
        )
        theirs = (
            popcount(free) if b < 0 else popcount(queen_spread(_ONE << np.uint64(b), free, tab))
        )
        return MOBILITY * (mine - theirs)
    own, other, reach_a, reach_b = _layers(free, a, b, -1, tab)
    if (reach_a & reach_b) == _ZERO:
        x, nx = queen_walk(free & reach_a, a, tab, WALK_NODES, stack, rem)
        y, ny = queen_walk(free & reach_b, b, tab, WALK_NODES, stack, rem)
        # a walk node costs about an eighth of a search node: the clock is read sooner
        status[S_CLOCK] -= (nx + ny) // WALK_NODES_PER_NODE
        if x > y:
            return SEPARATED_WIN + 100 * (x - y)
        return -SEPARATED_WIN + 100 * (x - y)
    mine = popcount(queen_spread(_ONE << np.uint64(a), free, tab))
    theirs = popcount(queen_spread(_ONE << np.uint64(b), free, tab))
    return TERRITORY * (own - other) + MOBILITY * (mine - theirs)


@numba.njit(cache=True, inline="always")
def _gen(g, src, free, moves, ply):
    """The queen moves from ``src`` over ``free`` (every free square for a placement),
    lowest square first, into row ``ply`` of ``moves``; how many."""
    t = free if src < 0 else queen_spread(_ONE << np.uint64(src), free, g.tab)
    n = 0
    while t != _ZERO:
        moves[ply, n] = _low_bit(t)
        t &= t - _ONE
        n += 1
    return n


@numba.njit(cache=True, inline="always")
def _reach(g, c, x):
    """The queen moves from ``c`` over ``x`` (all of ``x`` for an unplaced piece)."""
    return popcount(x) if c < 0 else popcount(queen_spread(_ONE << np.uint64(c), x, g.tab))


@numba.njit(cache=True, inline="always")
def _value(g, free, pos0, pos1, p):
    return _evaluate(free, pos0, pos1, p, g.tab, g.walk, g.rem, g.status)


#: Principal-variation alpha-beta on a queen bitboard
#: (:func:`atlas.games.isolation.bots.bitboard.bitboard_search`): as
#: :data:`atlas.games.isolation.bots.knight.knight_search`, with ``tab`` from
#: :class:`QueenTables` and ``walk``, ``rem`` the stacks of :func:`queen_walk`.
queen_search = bitboard_search(f"{__name__}.queen_search", _gen, _reach, _value, 64)
