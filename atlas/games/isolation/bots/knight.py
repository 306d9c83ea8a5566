"""Bitboard search of the ``strong`` isolation bot for knight boards of at most 64 squares.

The free squares are one ``uint64``; a knight's jumps from a whole set of squares are
eight masked shifts (:func:`knight_spread`), so the Voronoi split by jump distance costs
a few dozen word operations per distance layer instead of a breadth-first pass over
arrays, and a child position is a new word (no make/undo).  The search is the same
principal-variation alpha-beta as :mod:`atlas.games.isolation.bots.strong` (Zobrist
transposition table, killers, history), on these words.

Evaluation, for the side to move ``p``:

* **Territory by jump distance, ties to the side to move.**  A knight changes square
  colour on every jump, so whether the two pieces stand on squares of the same colour
  when ``p`` is to move never changes during a game.  If they do, ``p`` can land on the
  squares the opponent wants next and every square at equal jump distance is ``p``'s
  (``p`` moves first); if not, no square is at equal distance.  The tie rule is what
  lets the search see this at placement (the second player chooses the colour).
* Mobility, own jumps minus twice the opponent's.
* Once the pieces are separated: the longest walks, capped, bounded by the colour
  alternation (a walk from a square of one colour uses at most one more square of the
  other colour than of its own); the side to move wins iff its walk is strictly longer.

References
----------
``isolation-alphabeta.txt`` (the seed bot); the search's in
:mod:`atlas.games.isolation.bots.bitboard`.
"""

from __future__ import annotations

import numpy as np

from ....jit import numba
from ..rules import KNIGHT_JUMPS
from .bitboard import CLOCK_NODES, bit_voronoi, bitboard_search, popcount
from .phased import SEPARATED_WIN

__all__ = [
    "KnightTables",
    "knight_tables",
    "knight_spread",
    "popcount",
    "knight_voronoi",
    "knight_walk",
    "knight_search",
    "MAX_CELLS",
    "CLOCK_NODES",
]

#: Largest board the bitboard search takes (one bit per square).
MAX_CELLS = 64
_ZERO = np.uint64(0)
_ONE = np.uint64(1)
#: Weights: territory (squares), own mobility, opposing mobility.
TERRITORY, OWN_MOBILITY, THEIR_MOBILITY = 2, 1, 2
#: Walk-search nodes per side at a separated leaf.
WALK_NODES = 300


#: Slots of the packed table (:attr:`KnightTables.tab`): four shift amounts, their
#: source masks for shifting up the board and down, the board, the squares with
#: ``row + col`` even, then each square's jump targets.
T_SHIFT, T_UP, T_DOWN, T_BOARD, T_COLOUR, T_ATTACK = 0, 4, 8, 12, 13, 14


class KnightTables:
    """Everything the bitboard kernels need to know about one board size.

    ``tab`` (``uint64``) packs, at the slots ``T_*``: the shifts ``2w+1, 2w-1, w+2,
    w-2`` of the eight jumps (each one up the board and one down), the squares whose
    column allows each jump, the board mask, the colour mask and each square's jump
    targets; ``jumps[c, d]`` is the square jump ``d`` lands on from ``c`` or -1.
    """

    def __init__(self, rows: int, cols: int) -> None:
        if rows * cols > MAX_CELLS or cols < 3:
            raise ValueError(
                f"a knight bitboard takes at most {MAX_CELLS} squares and 3 "
                f"columns, got {rows} x {cols}"
            )
        self.rows, self.cols = rows, cols
        n = rows * cols
        self.jumps = np.full((n, 8), -1, dtype=np.int64)
        tab = [0] * (T_ATTACK + n)
        # (shift, column step when the shift goes up the board); down is the mirror jump
        for k, (shift, dc) in enumerate(
            ((2 * cols + 1, 1), (2 * cols - 1, -1), (cols + 2, 2), (cols - 2, -2))
        ):
            tab[T_SHIFT + k] = shift
            for c in range(n):
                if 0 <= c % cols + dc < cols:
                    tab[T_UP + k] |= 1 << c
                if 0 <= c % cols - dc < cols:
                    tab[T_DOWN + k] |= 1 << c
        for c in range(n):
            tab[T_BOARD] |= 1 << c
            if (c // cols + c % cols) % 2 == 0:
                tab[T_COLOUR] |= 1 << c
            for d, (dr, dc) in enumerate(KNIGHT_JUMPS):
                rr, cc = c // cols + dr, c % cols + dc
                if 0 <= rr < rows and 0 <= cc < cols:
                    self.jumps[c, d] = rr * cols + cc
                    tab[T_ATTACK + c] |= 1 << (rr * cols + cc)
        self.tab = np.array(tab, dtype=np.uint64)


def knight_tables(rows: int, cols: int) -> KnightTables:
    """The :class:`KnightTables` of a ``rows`` x ``cols`` board (at most 64 squares)."""
    return KnightTables(rows, cols)


@numba.njit(cache=True)
def knight_spread(x, tab):
    """The squares one knight jump from any square of the set ``x`` (eight shifts)."""
    y = (
        ((x & tab[4]) << tab[0])
        | ((x & tab[5]) << tab[1])
        | ((x & tab[6]) << tab[2])
        | ((x & tab[7]) << tab[3])
        | ((x & tab[8]) >> tab[0])
        | ((x & tab[9]) >> tab[1])
        | ((x & tab[10]) >> tab[2])
        | ((x & tab[11]) >> tab[3])
    )
    return y & tab[T_BOARD]


@numba.njit(cache=True, inline="always")
def _step(x, free, tab):
    return knight_spread(x, tab) & free


#: ``knight_voronoi(free, a, b, tie, tab)``: the squares of ``free`` each piece reaches
#: first by jumps, ties to seat ``tie`` (:func:`atlas.games.isolation.bots.bitboard.bit_voronoi`).
knight_voronoi = bit_voronoi(f"{__name__}.knight_voronoi", _step)


@numba.njit(cache=True)
def knight_walk(free, src, reach, tab, jumps, cap, cur, idx, rem):
    """Longest walk from ``src`` within ``reach`` (capped depth-first search, explicit stack).

    Stops at the colour-alternation bound or after ``cap`` nodes (then the longest walk
    found, a lower bound).
    """
    region = free & reach
    colour = tab[T_COLOUR]
    mine = _ONE << np.uint64(src)
    same = popcount(region & colour) if (mine & colour) != _ZERO else popcount(region & ~colour)
    other = popcount(region) - same
    bound = 2 * min(other, same) + (1 if other > same else 0)
    best = 0
    nodes = 0
    d = 0
    cur[0] = src
    idx[0] = 0
    rem[0] = region
    while d >= 0:
        moved = False
        while idx[d] < 8:
            c = jumps[cur[d], idx[d]]
            idx[d] += 1
            if c >= 0 and (rem[d] >> np.uint64(c)) & _ONE:
                rem[d + 1] = rem[d] & ~(_ONE << np.uint64(c))
                d += 1
                cur[d] = c
                idx[d] = 0
                moved = True
                break
        if moved:
            nodes += 1
            if d > best:
                best = d
                if best >= bound:
                    return best
            if nodes >= cap:
                return best
        else:
            d -= 1
    return best


@numba.njit(cache=True)
def _evaluate(free, pos0, pos1, p, tab, jumps, cur, idx, rem):
    a = pos0 if p == 0 else pos1
    b = pos1 if p == 0 else pos0
    mine = popcount(free) if a < 0 else popcount(tab[T_ATTACK + a] & free)
    theirs = popcount(free) if b < 0 else popcount(tab[T_ATTACK + b] & free)
    if a < 0 or b < 0:
        return OWN_MOBILITY * mine - THEIR_MOBILITY * theirs
    own, other, reach_a, reach_b = knight_voronoi(free, a, b, 0, tab)
    if (reach_a & reach_b) == _ZERO:
        x = knight_walk(free, a, reach_a, tab, jumps, WALK_NODES, cur, idx, rem)
        y = knight_walk(free, b, reach_b, tab, jumps, WALK_NODES, cur, idx, rem)
        if x > y:
            return SEPARATED_WIN + 100 * (x - y)
        return -SEPARATED_WIN + 100 * (x - y)
    return TERRITORY * (own - other) + OWN_MOBILITY * mine - THEIR_MOBILITY * theirs


@numba.njit(cache=True, inline="always")
def _gen(g, src, free, moves, ply):
    """The jumps from ``src`` to squares of ``free`` in jump order (all free squares in
    order for a placement), into row ``ply`` of ``moves``; how many."""
    n = 0
    if src < 0:
        for c in range(g.jumps.shape[0]):
            if (free >> np.uint64(c)) & _ONE:
                moves[ply, n] = c
                n += 1
    else:
        for d in range(8):
            c = g.jumps[src, d]
            if c >= 0 and (free >> np.uint64(c)) & _ONE:
                moves[ply, n] = c
                n += 1
    return n


@numba.njit(cache=True, inline="always")
def _reach(g, c, x):
    """The jumps from ``c`` to squares of ``x`` (all of them for an unplaced piece)."""
    return popcount(x) if c < 0 else popcount(g.tab[T_ATTACK + c] & x)


@numba.njit(cache=True, inline="always")
def _value(g, free, pos0, pos1, p):
    return _evaluate(free, pos0, pos1, p, g.tab, g.jumps, g.walk[0], g.walk[1], g.rem)


#: Principal-variation alpha-beta on a knight bitboard
#: (:func:`atlas.games.isolation.bots.bitboard.bitboard_search`): ``knight_search(g, s, depth,
#: ply, alpha, beta)``, ``g`` a :class:`~atlas.games.isolation.bots.bitboard.BitboardSearch`
#: with ``tab`` and ``jumps`` from :class:`KnightTables` and ``walk`` the two stacks of
#: :func:`knight_walk` (rows), ``s`` the position ``(free, pos0, pos1, p, key)``.
knight_search = bitboard_search(f"{__name__}.knight_search", _gen, _reach, _value, 32)
