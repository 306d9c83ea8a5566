"""The bitboard search of the ``strong`` connect5 bot (boards of at most 64 bits).

See :mod:`atlas.games.connect5.bots.strong` for the search as a whole.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ....bots.search import (
    PVS_VALUE,
    S_BEST,
    S_DONE,
    NodeKernels,
    bound_flag,
    negamax,
    new_pv,
    sort_moves,
    tt_cuts,
    value_from_tt,
    value_to_tt,
)
from ....jit import numba
from .search import WIN

__all__ = ["bit_geometry", "bitboards", "BitSearch", "bit_search", "bit_search_context"]


# --------------------------------------------------------------------------- bitboards
# A board with cols * (rows + 1) <= 64 bits is searched on bitboards: cell (h, c), h
# counted from 0 at the bottom, is bit c * (rows + 1) + h; the bit above each column is
# a sentinel that no disc ever takes, so lines do not wrap from one column to the next.
#: Indices into the geometry vector of the bitboard kernels.
_G_ROWS, _G_COLS, _G_K, _G_H1, _G_BOARD, _G_BOTTOM, _G_ODD, _G_CELLS = range(8)
_G_BONUS, _G_SHIFT, _G_START, _G_WEIGHT, _G_ORDER, _G_PARITY = 8, 12, 16, 20, 40, 80
_G_SIZE = 100
#: Offset of the value field of a packed transposition-table entry.
_TT_OFFSET = 1 << 30
#: Depth stored for an exact (solved to the end of the game) entry.
_TT_SOLVED = 255
_U64 = (1 << 64) - 1


@numba.intrinsic
def _popcount(typingctx, x):
    """Number of set bits of an int64 (the CPU's popcount instruction)."""
    sig = numba.types.int64(numba.types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


def bit_geometry(
    rows: int,
    cols: int,
    inarow: int,
    bonus: np.ndarray,
    weights: np.ndarray,
    parity: np.ndarray | None = None,
) -> np.ndarray | None:
    """The int64 geometry vector of the bitboard kernels, or ``None`` if the board is too big.

    Holds the sizes, the masks of all cells, bottom cells and odd rows (heights 1, 3, ...,
    good for seat 0), the four line shifts with the masks of the cells where a window of
    ``inarow`` cells can start, the window weights, the centre-first column order and
    the parity-window values by empty cells (``parity[e]``; none if ``None``).
    """
    h1 = rows + 1
    if cols * h1 > 64 or inarow > 16 or cols > _G_PARITY - _G_ORDER:
        return None
    geo = np.zeros(_G_SIZE, dtype=np.int64)

    def bit(h: int, c: int) -> int:
        return 1 << (c * h1 + h)

    full = sum(bit(h, c) for c in range(cols) for h in range(rows))
    odd = sum(bit(h, c) for c in range(cols) for h in range(0, rows, 2))
    bottom = sum(bit(0, c) for c in range(cols))
    for i, v in enumerate((rows, cols, inarow, h1, full, bottom, odd, rows * cols)):
        geo[i] = _signed(v)
    geo[_G_BONUS : _G_BONUS + 3] = bonus[:3]
    # (dh, dc): vertical, horizontal, the two diagonals
    for d, (dh, dc) in enumerate(((1, 0), (0, 1), (1, 1), (-1, 1))):
        geo[_G_SHIFT + d] = dc * h1 + dh
        starts = 0
        for c in range(cols):
            for h in range(rows):
                eh, ec = h + dh * (inarow - 1), c + dc * (inarow - 1)
                if 0 <= eh < rows and 0 <= ec < cols:
                    starts |= bit(h, c)
        geo[_G_START + d] = _signed(starts)
    geo[_G_WEIGHT : _G_WEIGHT + inarow] = weights[:inarow]
    order = sorted(range(cols), key=lambda c: (abs(2 * c - (cols - 1)), c))
    geo[_G_ORDER : _G_ORDER + cols] = order
    if parity is not None:
        geo[_G_PARITY : _G_PARITY + inarow] = parity[:inarow]
    return geo


def _signed(v: int) -> int:
    """A 64-bit pattern as a Python int in the int64 range."""
    return v - (1 << 64) if v >= 1 << 63 else v


def bitboards(board: np.ndarray, rows: int, cols: int, seat: int) -> tuple[int, int]:
    """``(discs of seat, all discs)`` of a flat board as int64 bit patterns."""
    h1 = rows + 1
    grid = board.reshape(rows, cols)
    own = allb = 0
    for r, c in zip(*np.nonzero(grid)):
        b = 1 << (int(c) * h1 + rows - 1 - int(r))
        allb |= b
        if grid[r, c] == seat + 1:
            own |= b
    return _signed(own), _signed(allb)


@numba.njit(cache=True)
def _bb_wins(x, geo):
    """Cells (any, occupied or not) that would complete a line of ``inarow`` for discs ``x``.

    For each direction, ``l_j`` holds the cells with ``j`` discs just before them on the
    line and ``r_j`` those with ``j`` just after; a cell wins when ``l_j & r_(k-1-j)``
    holds for some ``j``.  Unrolled for ``inarow`` 3 to 5 (``docs/bots.md`` gives its
    measured cost); other lengths take the general loop, O(inarow^2) shifts per
    direction.
    """
    k = geo[_G_K]
    if k < 3 or k > 5:
        return _bb_wins_any(x, geo)
    res = 0
    for d in range(4):
        s = geo[_G_SHIFT + d]
        r1 = x >> s
        l1 = x << s
        r2 = r1 & (x >> (2 * s))
        l2 = l1 & (x << (2 * s))
        if k == 3:
            res |= r2 | l2 | (l1 & r1)
            continue
        r3 = r2 & (x >> (3 * s))
        l3 = l2 & (x << (3 * s))
        if k == 4:
            res |= r3 | l3 | (l1 & r2) | (l2 & r1)
            continue
        r4 = r3 & (x >> (4 * s))
        l4 = l3 & (x << (4 * s))
        res |= r4 | l4 | (l1 & r3) | (l2 & r2) | (l3 & r1)
    return res & geo[_G_BOARD]


@numba.njit(cache=True)
def _bb_wins_any(x, geo):
    """:func:`_bb_wins` for any ``inarow`` (loops instead of unrolled shifts)."""
    k = geo[_G_K]
    res = 0
    for d in range(4):
        s = geo[_G_SHIFT + d]
        left = -1
        for j in range(k):
            if j > 0:
                left &= x << (j * s)
            right = left
            for t in range(1, k - j):
                right &= x >> (t * s)
            res |= right
    return res & geo[_G_BOARD]


@numba.njit(cache=True)
def _add(c0, c1, c2, a):
    """Add the bits of ``a`` to the 3-bit bit-sliced counters ``c0, c1, c2`` (saturating
    past 7 into ``c2``, which no window of at most 5 cells reaches)."""
    c = c0 & a
    return c0 ^ a, c1 ^ c, c2 | (c1 & c)


@numba.njit(cache=True)
def _bb_windows(x0, x1, geo):
    """Window score from seat 0's side: ``weights[j]`` per window holding ``j`` discs of
    one seat only, plus the parity windows of :func:`_bb_parity`, counted with bit-sliced
    counters over the window start cells.

    Unrolled for ``inarow <= 5`` (``docs/bots.md`` gives its measured cost); longer
    lines take :func:`_bb_windows_any` and :func:`_bb_parity`.
    """
    k = geo[_G_K]
    if k > 5:
        return _bb_windows_any(x0, x1, geo) + _bb_parity(x0, x1, geo)
    fill0, fill1 = _fills(x0, x1, geo)
    p2 = geo[_G_PARITY + 2]
    p3 = geo[_G_PARITY + 3]
    total = 0
    for d in range(4):
        s = geo[_G_SHIFT + d]
        w = geo[_G_START + d]
        a0 = x0 & w
        b0 = x1 & w
        f0 = fill0 & w
        f1 = fill1 & w
        a1 = a2 = b1 = b2 = 0
        any0 = a0
        any1 = b0
        for i in range(1, 5):
            if i < k:
                a = (x0 >> (i * s)) & w
                b = (x1 >> (i * s)) & w
                any0 |= a
                any1 |= b
                f0 &= fill0 >> (i * s)
                f1 &= fill1 >> (i * s)
                a0, a1, a2 = _add(a0, a1, a2, a)
                b0, b1, b2 = _add(b0, b1, b2, b)
        open0 = w & ~any1
        open1 = w & ~any0
        n0, n1, n2 = ~a0, ~a1, ~a2
        m0, m1, m2 = ~b0, ~b1, ~b2
        # windows by disc count j: c_j for seat 0, d_j for seat 1
        c1 = a0 & n1 & n2
        d1 = b0 & m1 & m2
        total += (_popcount(open0 & c1) - _popcount(open1 & d1)) * geo[_G_WEIGHT + 1]
        c2 = d2 = c3 = d3 = 0
        if k > 2:
            c2 = n0 & a1 & n2
            d2 = m0 & b1 & m2
            total += (_popcount(open0 & c2) - _popcount(open1 & d2)) * geo[_G_WEIGHT + 2]
        if k > 3:
            c3 = a0 & a1 & n2
            d3 = b0 & b1 & m2
            total += (_popcount(open0 & c3) - _popcount(open1 & d3)) * geo[_G_WEIGHT + 3]
        if k > 4:
            total += (_popcount(open0 & n0 & n1 & a2) - _popcount(open1 & m0 & m1 & b2)) * geo[
                _G_WEIGHT + 4
            ]
        if f0 | f1:
            # parity windows two (k - 2 discs) and three (k - 3 discs) cells short
            if k == 5:
                e2, g2, e3, g3 = c3, d3, c2, d2
            elif k == 4:
                e2, g2, e3, g3 = c2, d2, c1, d1
            else:
                e2, g2, e3, g3 = c1, d1, 0, 0
            total += (_popcount(f0 & e2) - _popcount(f1 & g2)) * p2
            total += (_popcount(f0 & e3) - _popcount(f1 & g3)) * p3
    return total


@numba.njit(cache=True, inline="always")
def _add4(c0, c1, c2, c3, a):
    """Add the bits of ``a`` to the 4-bit bit-sliced counters ``c0..c3`` (saturating past
    15 into ``c3``, which no window of at most 15 cells passes)."""
    c = c0 & a
    carry = c1 & c
    return c0 ^ a, c1 ^ c, c2 ^ carry, c3 | (c2 & carry)


@numba.njit(cache=True, inline="always")
def _counted(c0, c1, c2, c3, j):
    """The cells whose 4-bit count (``c0..c3``) is ``j``."""
    return (
        (c0 if j & 1 else ~c0)
        & (c1 if j & 2 else ~c1)
        & (c2 if j & 4 else ~c2)
        & (c3 if j & 8 else ~c3)
    )


@numba.njit(cache=True, inline="always")
def _line_counts(x0, x1, s, w, k):
    """Discs of each seat in the windows of ``k`` cells starting at the cells ``w`` and
    stepping by the shift ``s``, as two sets of 4-bit bit-sliced counters."""
    a0 = a1 = a2 = a3 = b0 = b1 = b2 = b3 = 0
    for i in range(k):
        a0, a1, a2, a3 = _add4(a0, a1, a2, a3, (x0 >> (i * s)) & w)
        b0, b1, b2, b3 = _add4(b0, b1, b2, b3, (x1 >> (i * s)) & w)
    return a0, a1, a2, a3, b0, b1, b2, b3


@numba.njit(cache=True, inline="always")
def _fills(x0, x1, geo):
    """Each seat's discs with the empty cells of its own rows (odd heights for seat 0)."""
    odd = geo[_G_ODD]
    empty = geo[_G_BOARD] & ~(x0 | x1)
    return x0 | (empty & odd), x1 | (empty & ~odd)


@numba.njit(cache=True)
def _bb_windows_any(x0, x1, geo):
    """:func:`_bb_windows` for any ``inarow`` up to 15 (4-bit counters, plain loops)."""
    k = geo[_G_K]
    total = 0
    for d in range(4):
        w = geo[_G_START + d]
        a0, a1, a2, a3, b0, b1, b2, b3 = _line_counts(x0, x1, geo[_G_SHIFT + d], w, k)
        open0 = w & ~(b0 | b1 | b2 | b3)
        open1 = w & ~(a0 | a1 | a2 | a3)
        for j in range(1, k):
            m0 = open0 & _counted(a0, a1, a2, a3, j)
            m1 = open1 & _counted(b0, b1, b2, b3, j)
            total += (_popcount(m0) - _popcount(m1)) * geo[_G_WEIGHT + j]
    return total


@numba.njit(cache=True)
def _bb_parity(x0, x1, geo):
    """Parity windows from seat 0's side: ``geo[_G_PARITY + e]`` per window free of the
    other seat whose ``e >= 2`` empty cells all lie on the seat's own rows (odd heights
    for seat 0, even for seat 1).

    Such a window is a line the seat completes if the columns are filled up in pairs,
    the second player answering in the same column (Allis's *claimeven*): the empty
    odd squares go to seat 0, the even ones to seat 1.  A window with one empty cell is
    a threat square, valued by :func:`_bb_eval`.  Disc counts use the bit-sliced
    counters of :func:`_bb_windows`; O(4 inarow) word operations.
    """
    k = geo[_G_K]
    fill0, fill1 = _fills(x0, x1, geo)
    total = 0
    for d in range(4):
        s = geo[_G_SHIFT + d]
        w = geo[_G_START + d]
        # the windows whose cells are all the seat's discs or its empty cells
        f0 = f1 = w
        for i in range(k):
            f0 &= fill0 >> (i * s)
            f1 &= fill1 >> (i * s)
        if f0 | f1 == 0:
            continue
        a0, a1, a2, a3, b0, b1, b2, b3 = _line_counts(x0, x1, s, w, k)
        for e in range(2, k):
            v = geo[_G_PARITY + e]
            m0 = f0 & _counted(a0, a1, a2, a3, k - e)
            m1 = f1 & _counted(b0, b1, b2, b3, k - e)
            total += (_popcount(m0) - _popcount(m1)) * v
    return total


@numba.njit(cache=True)
def _bb_eval(x0, x1, mask, w0, w1, geo):
    """Static value from seat 0's side: windows and parity windows (:func:`_bb_windows`),
    threat squares by parity, and the lowest threat of each column by Allis's zugzwang
    rule (as :func:`_zugzwang`).

    ``w0``, ``w1`` are the empty winning cells of each seat.
    """
    board = geo[_G_BOARD]
    odd = geo[_G_ODD]
    even = board & ~odd
    right = geo[_G_BONUS]
    wrong = geo[_G_BONUS + 1]
    z = geo[_G_BONUS + 2]
    v = _bb_windows(x0, x1, geo)
    v += (_popcount(w0 & odd) - _popcount(w1 & even)) * right
    v += (_popcount(w0 & even) - _popcount(w1 & odd)) * wrong
    # lowest threat of each column: with the sentinels set every column has a bit, so
    # subtracting the bottom row borrows up to each column's lowest bit and no further
    bottom = geo[_G_BOTTOM]
    y = w0 | w1 | (bottom << geo[_G_ROWS])
    low = y & ~(y - bottom) & board
    a = low & w0 & odd
    b = low & w1 & even
    rest = low & ~a & ~b
    v += (_popcount(a) - _popcount(b)) * z
    v += (_popcount(rest & w0) - _popcount(rest & ~w0)) * (z // 8)
    return v


@numba.njit(cache=True)
def _bb_column(bits, geo):
    """Column of the lowest set bit of ``bits``."""
    h1 = geo[_G_H1]
    for c in range(geo[_G_COLS]):
        if (bits >> (c * h1)) & ((1 << h1) - 1):
            return c
    return -1


#: The node kernels of the bitboard search.
_NODE = NodeKernels()


class BitSearch(NamedTuple):
    """The context of the bitboard search (``g`` of :func:`atlas.bots.search.negamax`):
    the geometry vector (:func:`bit_geometry`), the table (rows of position key and
    packed value, depth, bound flag and move), the history, and each ply's moves, their
    sort keys and (by column) the winning cells each move makes."""

    status: np.ndarray
    deadline: float
    pv: np.ndarray

    geo: np.ndarray
    tt: np.ndarray
    history: np.ndarray
    moves: np.ndarray
    keys: np.ndarray
    wins: np.ndarray


def bit_search_context(
    geo: np.ndarray, tt: np.ndarray, plies: int, status: np.ndarray, deadline: float
) -> BitSearch:
    """A :class:`BitSearch` with a fresh history and move rows for ``plies`` plies."""
    cols = int(geo[_G_COLS])
    rows = np.zeros((3, plies, cols), dtype=np.int64)
    history = np.zeros((2, cols), dtype=np.int64)
    pv = new_pv(plies)
    return BitSearch(status, deadline, pv, geo, tt, history, rows[0], rows[1], rows[2])


@_NODE
def _expand(g, s, depth, ply, alpha, beta):  # pragma: no cover - compiled
    """Tactics (a win now; the block of the opponent's win, two of them a loss; no move
    under an opponent's winning cell), the leaves' value, the window narrowed to the
    reachable win/loss scores, the table, then the moves ordered."""
    cur, mask, wcur, wopp = s
    status = g.status
    geo = g.geo
    board = geo[_G_BOARD]
    empties = geo[_G_CELLS] - _popcount(mask)
    opp = cur ^ mask
    key = cur + mask
    slot = (key ^ (key >> 24) ^ (key >> 43)) & (g.tt.shape[0] - 1)
    seat = (geo[_G_CELLS] - empties) & 1
    node = (opp, 0, False, seat, key, slot, False, 0, empties)
    if empties == 0:
        return -1, 0, alpha, beta, node
    playable = (mask + geo[_G_BOTTOM]) & board
    mine = wcur & ~mask
    if mine & playable:
        if ply == 0:
            status[S_BEST] = _bb_column(mine & playable, geo)
            status[S_DONE] = 1
        return -1, WIN - ply - 1, alpha, beta, node
    theirs = wopp & ~mask
    forced = theirs & playable
    if forced != 0:
        cand = forced
        if forced & (forced - 1):
            if ply == 0:
                status[S_BEST] = _bb_column(forced, geo)
                status[S_DONE] = 1
            return -1, -(WIN - ply - 2), alpha, beta, node
    else:
        cand = playable & ~(theirs >> 1)
        if cand == 0:
            if ply == 0:
                status[S_BEST] = _bb_column(playable, geo)
                status[S_DONE] = 1
            return -1, -(WIN - ply - 2), alpha, beta, node
    if depth <= 0 and forced == 0:
        if seat == 0:
            return -1, _bb_eval(cur, opp, mask, mine, theirs, geo), alpha, beta, node
        return -1, -_bb_eval(opp, cur, mask, theirs, mine, geo), alpha, beta, node
    if ply > 0:
        top = WIN - ply - 3
        if beta > top:
            beta = top
            if alpha >= beta:
                return -1, beta, alpha, beta, node
    tt = g.tt
    tt_best = -1
    use_tt = depth > 1
    if use_tt and tt[slot, 0] == key:
        data = tt[slot, 1]
        tt_best = data & 63
        if (data >> 8) & 255 >= depth and ply > 0:
            v = value_from_tt((data >> 16) - _TT_OFFSET, ply, WIN)
            if tt_cuts((data >> 6) & 3, v, alpha, beta):
                return -1, v, alpha, beta, node
    cols = geo[_G_COLS]
    h1 = geo[_G_H1]
    colbits = (1 << geo[_G_ROWS]) - 1
    eager = depth > 2 and cand & (cand - 1) != 0
    n = 0
    for i in range(cols):
        c = geo[_G_ORDER + i]
        mv = cand & (colbits << (c * h1))
        if mv == 0:
            continue
        k = g.history[seat, c] - i
        if c == tt_best:
            k += 1 << 50
        if eager:
            w = _bb_wins(cur | mv, geo)
            g.wins[ply, c] = w
            k += _popcount(w & ~(mask | mv)) << 30
        g.moves[ply, n] = c
        g.keys[ply, n] = k
        n += 1
    sort_moves(g.moves, g.keys, ply, n)
    return n, 0, alpha, beta, (opp, cand, eager, seat, key, slot, use_tt, forced, empties)


@_NODE
def _play(g, s, node, c, ply):  # pragma: no cover - compiled
    """The child: the other side to move; the winning cells of the mover's discs come
    from the ordering (``wins``) or are computed here."""
    cur, mask, wcur, wopp = s
    geo = g.geo
    mv = node[1] & (((1 << geo[_G_ROWS]) - 1) << (c * geo[_G_H1]))
    w = g.wins[ply, c] if node[2] else _bb_wins(cur | mv, geo)
    return (node[0], mask | mv, wopp, w)


@_NODE
def _child_depth(g, s, node, ply, i, depth):  # pragma: no cover - compiled
    """An extension when forced keeps the horizon honest."""
    next_depth = depth - 1 if node[7] == 0 else depth
    return next_depth if next_depth > 0 else 0


@_NODE
def _cutoff(g, s, node, c, depth, ply):  # pragma: no cover - compiled
    g.history[node[3], c] += depth * depth


@_NODE
def _store(g, s, node, depth, ply, best, move, alpha0, beta):  # pragma: no cover - compiled
    if not node[6]:
        return
    flag = bound_flag(best, alpha0, beta)
    stored = value_to_tt(best, ply, WIN)
    empties = node[8]
    d = _TT_SOLVED if depth >= empties else min(depth, _TT_SOLVED - 1)
    slot = node[5]
    g.tt[slot, 0] = node[4]
    g.tt[slot, 1] = ((stored + _TT_OFFSET) << 16) | (d << 8) | (flag << 6) | move


#: Negamax value for the side to move on bitboards (:func:`atlas.bots.search.negamax`):
#: ``bit_search(g, s, depth, ply, alpha, beta)``, ``g`` a :class:`BitSearch`, ``s`` the
#: position ``(cur, mask, wcur, wopp)``: the discs of the side to move and all discs,
#: and :func:`_bb_wins` of the side to move and of the other side (the parent computes
#: them while ordering its moves, so each node pays one :func:`_bb_wins` per child
#: instead of two per node).
#:
#: Same scores and tactics as the array search, on bitboards: winning cells of both
#: sides by shifts, moves under an opponent's winning cell skipped, the window narrowed
#: to the reachable win/loss scores, moves ordered by the table move, the number of
#: winning cells they make, history and centre; principal variation search.
bit_search = negamax(f"{__name__}.bit_search", _NODE, win=WIN, pvs=PVS_VALUE, clock_mask=4095)
