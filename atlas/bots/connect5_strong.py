"""The ``strong`` connect5 bot: alpha-beta with iterative deepening and a transposition table.

Works for any board and ``inarow`` (Connect Four is ``inarow=4`` on 7 x 6).  Boards of
at most 64 bits (``cols * (rows + 1) <= 64``, the bundled 9 x 6 and 7 x 6 included) are
searched on bitboards by :func:`_bb_negamax`; larger ones by :func:`_negamax`, a negamax
alpha-beta in one numba kernel over a flat board with make/undo.  Both share:

* **Tactics first.**  At every node a move that wins at once is taken; if the opponent
  threatens to win at a playable cell, only the block is searched (two such threats are
  a loss).  Moves that put a disc just under an opponent's winning cell are tried last.
* **Ordering.**  Transposition-table move, two killer moves per ply, then the history
  score with a centre-first bias.
* **Evaluation.**  Incremental window counts: every window still open for one side only
  is worth ``8 ** (k - 1)`` for its ``k`` discs, summed, from the side to move.  A
  table of *threat squares* (empty squares that would complete a line) is kept up to
  date with the counts: it answers "can I win now?" in O(1), adds a bonus per threat
  square of the right parity (odd heights for seat 0, even for seat 1, counted from 1
  at the bottom), and at the leaves the lowest threat of every column is valued by
  that parity, after Allis's zugzwang rules.
* **Exact ends.**  Wins and losses are scored ``WIN - ply``; once the depth reaches the
  number of empty cells the search is exact and stops.

The bitboard search keeps one int64 of discs for the side to move and one of all discs
(cell ``(h, c)``, ``h`` from the bottom, is bit ``c * (rows + 1) + h``; the bit above
each column stays empty, so shifted lines never wrap).  The cells that would complete a
line are found with shifts in the four directions, and each child receives them from its
parent, which needs them anyway to order its moves by the number of winning cells they
make (threat-first, after the table move; then history and centre).  Moves just under an
opponent's winning cell are never searched (they lose at once), principal variation
search narrows the windows, and the table key is ``discs + all discs`` (unique per
position), kept across moves.  The window counts of the evaluation use bit-sliced
counters and popcounts, so the evaluation equals the array one exactly.  With at most
:data:`SOLVE_EMPTIES` empty cells a move first tries, for :data:`SOLVE_SHARE` of its
time, to solve the game with a null window around a draw; a proven win or draw is
played at once, otherwise the heuristic iterative deepening runs as usual.  About 3 to 4
million nodes per second on one core (the array kernel: about 0.4 million).

References
----------
Pons, P. (2019). *Solving Connect 4: how to build a perfect AI* (bitboard layout,
winning-position masks, threat-first ordering).
Allis, L. V. (1988). *A knowledge-based approach of connect-four*, Vrije Universiteit.
Schaeffer, J. (1989). The history heuristic and alpha-beta search enhancements in
practice. *IEEE PAMI* 11(11).  ``connect5-minimax.txt`` (the seed bot this one beats).
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
from numba import types
from numba.extending import intrinsic

from .connect5_window import EMPTY, clock, flat_board, tiny_state, window_table

__all__ = ["StrongConnect5Bot", "WIN", "TT_BITS", "SOLVE_EMPTIES", "SOLVE_SHARE",
           "bit_geometry", "bitboards"]

#: Score of a win at the root; a win at ply p scores ``WIN - p``.
WIN = 1_000_000
#: log2 of the transposition-table size.
TT_BITS = 20
#: Value of the lowest threat of a column with the right parity, in four-disc windows.
ZUGZWANG = 4
#: Empty cells from which a move first tries to solve the game exactly (bitboards).
SOLVE_EMPTIES = 28
#: Share of the move's time the exact attempt may take before the heuristic search.
SOLVE_SHARE = 0.5
_EXACT, _LOWER, _UPPER = 0, 1, 2
_MAX_PLY = 512
#: Indices into the kernel's int64 status vector.
_S_SCORE, _S_NODES, _S_ABORT, _S_EMPTY, _S_BEST, _S_DONE = 0, 1, 2, 3, 4, 5


def _weights(inarow: int) -> np.ndarray:
    w = np.zeros(inarow + 1, dtype=np.int64)
    for k in range(1, inarow):
        w[k] = 8 ** (k - 1)
    return w


@numba.njit(cache=True)
def _value(wcount: np.ndarray, w: int, weights: np.ndarray) -> int:
    a = wcount[w, 0]
    b = wcount[w, 1]
    if b == 0:
        return weights[a]
    if a == 0:
        return -weights[b]
    return 0


@numba.njit(cache=True)
def _threat_cell(board: np.ndarray, windows: np.ndarray, wcount: np.ndarray, w: int,
                 inarow: int) -> tuple[int, int]:
    """``(seat, empty cell)`` if window ``w`` lacks one disc of one seat, else ``(-1, -1)``."""
    for s in range(2):
        if wcount[w, s] == inarow - 1 and wcount[w, 1 - s] == 0:
            for k in range(inarow):
                if board[windows[w, k]] == EMPTY:
                    return s, windows[w, k]
    return -1, -1


@numba.njit(cache=True)
def _threat_delta(seat: int, cell: int, step: int, threats: np.ndarray, rows: int,
                  cols: int, bonus: np.ndarray) -> int:
    """Change of the threat score when ``cell`` gains (``step=1``) or loses a threat."""
    before = threats[cell, seat] > 0
    threats[cell, seat] += step
    after = threats[cell, seat] > 0
    if before == after:
        return 0
    height = rows - cell // cols          # 1 = bottom row
    good = (height % 2 == 1) == (seat == 0)
    v = bonus[0] if good else bonus[1]
    if seat == 1:
        v = -v
    return v if after else -v


@numba.njit(cache=True)
def _update(cell: int, p: int, step: int, board: np.ndarray, windows: np.ndarray,
            wcount: np.ndarray, cell_ptr: np.ndarray, cell_windows: np.ndarray,
            weights: np.ndarray, threats: np.ndarray, bonus: np.ndarray, rows: int,
            cols: int, status: np.ndarray) -> None:
    """Put (``step=1``) or take back (``step=-1``) a disc of seat ``p`` on ``cell``."""
    inarow = windows.shape[1]
    old_code = board[cell]
    new_code = p + 1 if step > 0 else EMPTY
    delta = 0
    top = inarow - 1
    for i in range(cell_ptr[cell], cell_ptr[cell + 1]):
        w = cell_windows[i]
        old = _value(wcount, w, weights)
        a0 = wcount[w, 0]
        a1 = wcount[w, 1]
        if (a0 == top and a1 == 0) or (a1 == top and a0 == 0):
            board[cell] = old_code
            s0, c0 = _threat_cell(board, windows, wcount, w, inarow)
            if s0 >= 0:
                delta += _threat_delta(s0, c0, -1, threats, rows, cols, bonus)
        wcount[w, p] += step
        board[cell] = new_code
        a0 = wcount[w, 0]
        a1 = wcount[w, 1]
        if (a0 == top and a1 == 0) or (a1 == top and a0 == 0):
            s1, c1 = _threat_cell(board, windows, wcount, w, inarow)
            if s1 >= 0:
                delta += _threat_delta(s1, c1, 1, threats, rows, cols, bonus)
        delta += _value(wcount, w, weights) - old
    board[cell] = new_code
    status[_S_SCORE] += delta
    status[_S_EMPTY] -= step


@numba.njit(cache=True)
def _zugzwang(threats, heights, rows, cols, z):
    """Lowest threat of each column, by parity (Allis): odd squares favour seat 0, even
    squares seat 1 (heights counted from 1 at the bottom); value from seat 0's side."""
    v = 0
    for c in range(cols):
        for h in range(heights[c], rows):
            cell = (rows - 1 - h) * cols + c
            t0 = threats[cell, 0] > 0
            t1 = threats[cell, 1] > 0
            if t0 or t1:
                odd = h % 2 == 0
                if t0 and odd:
                    v += z
                elif t1 and not odd:
                    v -= z
                elif t0:
                    v += z // 8
                else:
                    v -= z // 8
                break
    return v


@numba.njit(cache=True)
def _negamax(board, heights, rows, cols, inarow, windows, wcount, cell_ptr, cell_windows,
             weights, threats, bonus, zob, key, tt, history, killers, mbuf, status, deadline,
             p, depth, ply, alpha, beta):
    """Negamax value for seat ``p`` to move (see module notes); 0 once aborted."""
    status[_S_NODES] += 1
    if (status[_S_NODES] & 1023) == 0 and clock() > deadline:
        status[_S_ABORT] = 1
    if status[_S_ABORT] != 0:
        return 0
    if status[_S_EMPTY] == 0:
        return 0
    q = 1 - p
    # immediate win, and the opponent's immediate wins
    forced = -1
    n_threats = 0
    for c in range(cols):
        if heights[c] >= rows:
            continue
        cell = (rows - 1 - heights[c]) * cols + c
        if threats[cell, p] > 0:
            if ply == 0:
                status[_S_BEST] = c
                status[_S_DONE] = 1
            return WIN - ply - 1
        if threats[cell, q] > 0:
            n_threats += 1
            forced = c
    if n_threats >= 2:
        if ply == 0:
            status[_S_BEST] = forced
            status[_S_DONE] = 1
        return -(WIN - ply - 2)
    if depth <= 0 and n_threats == 0:
        v = status[_S_SCORE] + _zugzwang(threats, heights, rows, cols, bonus[2])
        return v if p == 0 else -v
    h = key[0]
    slot = h & (tt.shape[0] - 1)
    tt_best = -1
    if tt[slot, 0] == h:
        tt_best = tt[slot, 1]
        if tt[slot, 2] >> 2 >= depth and ply > 0:
            v = tt[slot, 3]
            if v > WIN - 1000:
                v -= ply
            elif v < -(WIN - 1000):
                v += ply
            f = tt[slot, 2] & 3
            if f == _EXACT:
                return v
            if f == _LOWER and v >= beta:
                return v
            if f == _UPPER and v <= alpha:
                return v
    # order the moves
    moves = mbuf[ply, :cols]
    keys = mbuf[ply, cols:]
    n = 0
    centre2 = cols - 1
    for c in range(cols):
        if heights[c] >= rows:
            continue
        if forced >= 0 and c != forced:
            continue
        k = history[p, c] - abs(2 * c - centre2)
        if c == tt_best:
            k += 1 << 50
        elif c == killers[ply, 0]:
            k += 1 << 48
        elif c == killers[ply, 1]:
            k += 1 << 47
        if heights[c] + 1 < rows:
            above = (rows - 2 - heights[c]) * cols + c
            if threats[above, q] > 0:
                k -= 1 << 52
        moves[n] = c
        keys[n] = k
        n += 1
    for i in range(1, n):
        mv = moves[i]
        kv = keys[i]
        j = i - 1
        while j >= 0 and keys[j] < kv:
            moves[j + 1] = moves[j]
            keys[j + 1] = keys[j]
            j -= 1
        moves[j + 1] = mv
        keys[j + 1] = kv
    # an extension when forced keeps the horizon honest
    next_depth = depth - 1 if forced < 0 else depth
    if next_depth < 0:
        next_depth = 0
    alpha0 = alpha
    best = -(WIN + 1)
    best_move = moves[0]
    for i in range(n):
        c = moves[i]
        cell = (rows - 1 - heights[c]) * cols + c
        _update(cell, p, 1, board, windows, wcount, cell_ptr, cell_windows, weights,
                threats, bonus, rows, cols, status)
        heights[c] += 1
        key[0] ^= zob[cell, p]
        v = -_negamax(board, heights, rows, cols, inarow, windows, wcount, cell_ptr,
                      cell_windows, weights, threats, bonus, zob, key, tt,
                      history, killers, mbuf, status, deadline, q, next_depth, ply + 1,
                      -beta, -alpha)
        key[0] ^= zob[cell, p]
        heights[c] -= 1
        _update(cell, p, -1, board, windows, wcount, cell_ptr, cell_windows, weights,
                threats, bonus, rows, cols, status)
        if status[_S_ABORT] != 0:
            return 0
        if v > best:
            best = v
            best_move = c
            if ply == 0:
                status[_S_BEST] = c
        if ply == 0:
            status[_S_DONE] += 1
        if v > alpha:
            alpha = v
        if alpha >= beta:
            if killers[ply, 0] != c:
                killers[ply, 1] = killers[ply, 0]
                killers[ply, 0] = c
            history[p, c] += depth * depth
            break
    flag = _EXACT
    if best <= alpha0:
        flag = _UPPER
    elif best >= beta:
        flag = _LOWER
    stored = best
    if stored > WIN - 1000:
        stored += ply
    elif stored < -(WIN - 1000):
        stored -= ply
    tt[slot, 0] = h
    tt[slot, 1] = best_move
    tt[slot, 2] = depth * 4 + flag
    tt[slot, 3] = stored
    return best


@numba.njit(cache=True)
def _load(start, board, windows, wcount, cell_ptr, cell_windows, weights, threats, bonus,
          rows, cols, status, zob, key):
    """Fill the search arrays (counts, threats, score, key) from the position ``start``."""
    for cell in range(start.shape[0]):
        if start[cell] != EMPTY:
            p = start[cell] - 1
            _update(cell, p, 1, board, windows, wcount, cell_ptr, cell_windows, weights,
                    threats, bonus, rows, cols, status)
            key[0] ^= zob[cell, p]


# --------------------------------------------------------------------------- bitboards
# A board with cols * (rows + 1) <= 64 bits is searched on bitboards: cell (h, c), h
# counted from 0 at the bottom, is bit c * (rows + 1) + h; the bit above each column is
# a sentinel that no disc ever takes, so lines do not wrap from one column to the next.
#: Indices into the geometry vector of the bitboard kernels.
_G_ROWS, _G_COLS, _G_K, _G_H1, _G_BOARD, _G_BOTTOM, _G_ODD, _G_CELLS = range(8)
_G_BONUS, _G_SHIFT, _G_START, _G_WEIGHT, _G_ORDER = 8, 12, 16, 20, 40
_G_SIZE = 80
#: Offset of the value field of a packed transposition-table entry.
_TT_OFFSET = 1 << 30
#: Depth stored for an exact (solved to the end of the game) entry.
_TT_SOLVED = 255
_U64 = (1 << 64) - 1


@intrinsic
def _popcount(typingctx, x):
    """Number of set bits of an int64 (the CPU's popcount instruction)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return sig, codegen


def bit_geometry(rows: int, cols: int, inarow: int, bonus: np.ndarray,
                 weights: np.ndarray) -> np.ndarray | None:
    """The int64 geometry vector of the bitboard kernels, or ``None`` if the board is too big.

    Holds the sizes, the masks of all cells, bottom cells and odd rows (heights 1, 3, ...,
    good for seat 0), the four line shifts with the masks of the cells where a window of
    ``inarow`` cells can start, the window weights and the centre-first column order.
    """
    h1 = rows + 1
    if cols * h1 > 64 or inarow > 16 or cols > _G_SIZE - _G_ORDER:
        return None
    geo = np.zeros(_G_SIZE, dtype=np.int64)

    def bit(h: int, c: int) -> int:
        return 1 << (c * h1 + h)

    full = sum(bit(h, c) for c in range(cols) for h in range(rows))
    odd = sum(bit(h, c) for c in range(cols) for h in range(0, rows, 2))
    bottom = sum(bit(0, c) for c in range(cols))
    for i, v in enumerate((rows, cols, inarow, h1, full, bottom, odd, rows * cols)):
        geo[i] = _signed(v)
    geo[_G_BONUS:_G_BONUS + 3] = bonus
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
    geo[_G_WEIGHT:_G_WEIGHT + inarow] = weights[:inarow]
    order = sorted(range(cols), key=lambda c: (abs(2 * c - (cols - 1)), c))
    geo[_G_ORDER:_G_ORDER + cols] = order
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
    holds for some ``j``.  Unrolled for ``inarow`` 3 to 5 (about 30 ns); other lengths
    take the general loop, O(inarow^2) shifts per direction.
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
    one seat only, counted with bit-sliced counters over the window start cells.

    Unrolled for ``inarow <= 5`` (about 80 ns on 9 x 6); longer lines take
    :func:`_bb_windows_any`.
    """
    k = geo[_G_K]
    if k > 5:
        return _bb_windows_any(x0, x1, geo)
    total = 0
    for d in range(4):
        s = geo[_G_SHIFT + d]
        w = geo[_G_START + d]
        a0 = x0 & w
        b0 = x1 & w
        a1 = a2 = b1 = b2 = 0
        any0 = a0
        any1 = b0
        for i in range(1, 5):
            if i < k:
                a = (x0 >> (i * s)) & w
                b = (x1 >> (i * s)) & w
                any0 |= a
                any1 |= b
                a0, a1, a2 = _add(a0, a1, a2, a)
                b0, b1, b2 = _add(b0, b1, b2, b)
        open0 = w & ~any1
        open1 = w & ~any0
        n0, n1, n2 = ~a0, ~a1, ~a2
        m0, m1, m2 = ~b0, ~b1, ~b2
        total += (_popcount(open0 & a0 & n1 & n2) - _popcount(open1 & b0 & m1 & m2)
                  ) * geo[_G_WEIGHT + 1]
        if k > 2:
            total += (_popcount(open0 & n0 & a1 & n2) - _popcount(open1 & m0 & b1 & m2)
                      ) * geo[_G_WEIGHT + 2]
        if k > 3:
            total += (_popcount(open0 & a0 & a1 & n2) - _popcount(open1 & b0 & b1 & m2)
                      ) * geo[_G_WEIGHT + 3]
        if k > 4:
            total += (_popcount(open0 & n0 & n1 & a2) - _popcount(open1 & m0 & m1 & b2)
                      ) * geo[_G_WEIGHT + 4]
    return total


@numba.njit(cache=True)
def _bb_windows_any(x0, x1, geo):
    """:func:`_bb_windows` for any ``inarow`` up to 15 (4-bit counters, plain loops)."""
    k = geo[_G_K]
    total = 0
    for d in range(4):
        s = geo[_G_SHIFT + d]
        w = geo[_G_START + d]
        a0 = a1 = a2 = a3 = 0
        b0 = b1 = b2 = b3 = 0
        any0 = 0
        any1 = 0
        for i in range(k):
            a = (x0 >> (i * s)) & w
            b = (x1 >> (i * s)) & w
            any0 |= a
            any1 |= b
            c = a0 & a
            a0 ^= a
            c2 = a1 & c
            a1 ^= c
            c3 = a2 & c2
            a2 ^= c2
            a3 |= c3
            c = b0 & b
            b0 ^= b
            c2 = b1 & c
            b1 ^= c
            c3 = b2 & c2
            b2 ^= c2
            b3 |= c3
        open0 = w & ~any1
        open1 = w & ~any0
        for j in range(1, k):
            m0 = open0 & (a0 if j & 1 else ~a0) & (a1 if j & 2 else ~a1) & \
                (a2 if j & 4 else ~a2) & (a3 if j & 8 else ~a3)
            m1 = open1 & (b0 if j & 1 else ~b0) & (b1 if j & 2 else ~b1) & \
                (b2 if j & 4 else ~b2) & (b3 if j & 8 else ~b3)
            total += (_popcount(m0) - _popcount(m1)) * geo[_G_WEIGHT + j]
    return total


@numba.njit(cache=True)
def _bb_eval(x0, x1, mask, w0, w1, geo):
    """Static value from seat 0's side: windows, threat squares by parity, and the lowest
    threat of each column by Allis's zugzwang rule (as :func:`_zugzwang`).

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


@numba.njit(cache=True)
def _bb_negamax(cur, mask, wcur, wopp, depth, ply, alpha, beta, geo, tt, history, mbuf,
                status, deadline):
    """Negamax value for the side to move with discs ``cur`` (``mask``: all discs).

    ``wcur`` and ``wopp`` are :func:`_bb_wins` of the side to move and of the other side
    (the parent computes them while ordering its moves, so each node pays one
    :func:`_bb_wins` per child instead of two per node).

    Same scores and tactics as :func:`_negamax`, on bitboards: winning cells of both
    sides by shifts, moves under an opponent's winning cell skipped, the window
    ``[alpha, beta]`` narrowed to the reachable win/loss scores, moves ordered by the
    table move, the number of winning cells they make, history and centre.
    """
    status[_S_NODES] += 1
    if (status[_S_NODES] & 4095) == 0 and clock() > deadline:
        status[_S_ABORT] = 1
    if status[_S_ABORT] != 0:
        return 0
    board = geo[_G_BOARD]
    empties = geo[_G_CELLS] - _popcount(mask)
    if empties == 0:
        return 0
    opp = cur ^ mask
    playable = (mask + geo[_G_BOTTOM]) & board
    mine = wcur & ~mask
    if mine & playable:
        if ply == 0:
            status[_S_BEST] = _bb_column(mine & playable, geo)
            status[_S_DONE] = 1
        return WIN - ply - 1
    theirs = wopp & ~mask
    forced = theirs & playable
    if forced != 0:
        cand = forced
        if forced & (forced - 1):
            if ply == 0:
                status[_S_BEST] = _bb_column(forced, geo)
                status[_S_DONE] = 1
            return -(WIN - ply - 2)
    else:
        cand = playable & ~(theirs >> 1)
        if cand == 0:
            if ply == 0:
                status[_S_BEST] = _bb_column(playable, geo)
                status[_S_DONE] = 1
            return -(WIN - ply - 2)
    seat = (geo[_G_CELLS] - empties) & 1
    if depth <= 0 and forced == 0:
        if seat == 0:
            return _bb_eval(cur, opp, mask, mine, theirs, geo)
        return -_bb_eval(opp, cur, mask, theirs, mine, geo)
    if ply > 0:
        top = WIN - ply - 3
        if beta > top:
            beta = top
            if alpha >= beta:
                return beta
    key = cur + mask
    slot = (key ^ (key >> 24) ^ (key >> 43)) & (tt.shape[0] - 1)
    tt_best = -1
    use_tt = depth > 1
    if use_tt and tt[slot, 0] == key:
        data = tt[slot, 1]
        tt_best = data & 63
        if (data >> 8) & 255 >= depth and ply > 0:
            v = (data >> 16) - _TT_OFFSET
            if v > WIN - 1000:
                v -= ply
            elif v < -(WIN - 1000):
                v += ply
            f = (data >> 6) & 3
            if f == _EXACT:
                return v
            if f == _LOWER and v >= beta:
                return v
            if f == _UPPER and v <= alpha:
                return v
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
        k = history[seat, c] - i
        if c == tt_best:
            k += 1 << 50
        if eager:
            w = _bb_wins(cur | mv, geo)
            mbuf[ply, 2 * cols + c] = w
            k += _popcount(w & ~(mask | mv)) << 30
        mbuf[ply, n] = c
        mbuf[ply, cols + n] = k
        n += 1
    for i in range(1, n):
        mvc = mbuf[ply, i]
        kv = mbuf[ply, cols + i]
        j = i - 1
        while j >= 0 and mbuf[ply, cols + j] < kv:
            mbuf[ply, j + 1] = mbuf[ply, j]
            mbuf[ply, cols + j + 1] = mbuf[ply, cols + j]
            j -= 1
        mbuf[ply, j + 1] = mvc
        mbuf[ply, cols + j + 1] = kv
    next_depth = depth - 1 if forced == 0 else depth
    if next_depth < 0:
        next_depth = 0
    alpha0 = alpha
    best = -(WIN + 1)
    best_move = mbuf[ply, 0]
    for i in range(n):
        c = mbuf[ply, i]
        mv = cand & (colbits << (c * h1))
        w = mbuf[ply, 2 * cols + c] if eager else _bb_wins(cur | mv, geo)
        if i == 0 or beta - alpha <= 1:
            v = -_bb_negamax(opp, mask | mv, wopp, w, next_depth, ply + 1, -beta, -alpha,
                             geo, tt, history, mbuf, status, deadline)
        else:
            # principal variation search: prove the move no better, search again if not
            v = -_bb_negamax(opp, mask | mv, wopp, w, next_depth, ply + 1, -alpha - 1,
                             -alpha, geo, tt, history, mbuf, status, deadline)
            if alpha < v < beta and status[_S_ABORT] == 0:
                v = -_bb_negamax(opp, mask | mv, wopp, w, next_depth, ply + 1, -beta, -v,
                                 geo, tt, history, mbuf, status, deadline)
        if status[_S_ABORT] != 0:
            return 0
        if v > best:
            best = v
            best_move = c
            if ply == 0:
                status[_S_BEST] = c
        if ply == 0:
            status[_S_DONE] += 1
        if v > alpha:
            alpha = v
        if alpha >= beta:
            history[seat, c] += depth * depth
            break
    flag = _EXACT
    if best <= alpha0:
        flag = _UPPER
    elif best >= beta:
        flag = _LOWER
    stored = best
    if stored > WIN - 1000:
        stored += ply
    elif stored < -(WIN - 1000):
        stored -= ply
    if not use_tt:
        return best
    d = _TT_SOLVED if depth >= empties else min(depth, _TT_SOLVED - 1)
    tt[slot, 0] = key
    tt[slot, 1] = ((stored + _TT_OFFSET) << 16) | (d << 8) | (flag << 6) | best_move
    return best


class StrongConnect5Bot:
    """Iterative-deepening alpha-beta with tactics, history and a transposition table.

    Parameters
    ----------
    game : str
        ``"connect5"``.
    seed : int
        Seeds the choice between equally good first moves on an empty board.
    margin : float
        Seconds kept in hand before the deadline.
    max_depth : int or None
        Stop deepening at this depth (``None``: until the deadline or an exact result).

    Notes
    -----
    Boards of at most 64 bits (``cols * (rows + 1) <= 64``: up to 9 x 6, 8 x 7, 7 x 8)
    are searched by :func:`_bb_negamax` on bitboards (3 to 4 million nodes per second,
    4 to 8 times the array kernel's; at 0.1 s a move the 9 x 6 game is usually solved
    exactly from about 22 empty cells); larger ones by the array kernel :func:`_negamax`.  Each iteration is one kernel call, which reads
    the clock every few thousand nodes and aborts past the deadline; the move of the
    last finished iteration (or a better root move fully searched by the aborted one) is
    played.  The tables keep ``2 ** TT_BITS`` entries and live as long as the bot.
    """

    name = "strong"

    def __init__(self, game: str = "connect5", seed: int = 0, margin: float = 0.012,
                 max_depth: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)
        self.margin = margin
        self.max_depth = max_depth
        self.solve_empties = SOLVE_EMPTIES
        self.solve_share = SOLVE_SHARE
        # array search, one row per entry: key, best move, depth * 4 + bound flag, value
        self.tt: np.ndarray | None = None
        # bitboard search, one row per entry: position key, packed value/depth/flag/move
        self.tt_bits: np.ndarray | None = None
        self.geo: np.ndarray | None = None
        self._geometry: tuple[int, int, int] | None = None
        self._warm = False
        self.last_depth = 0
        self.last_score = 0
        self.last_nodes = 0

    def _setup(self, rows: int, cols: int, inarow: int) -> None:
        if self._geometry == (rows, cols, inarow):
            return
        self._geometry = (rows, cols, inarow)
        self.windows, self.cell_ptr, self.cell_windows = window_table(rows, cols, inarow)
        self.weights = _weights(inarow)
        top = int(self.weights[inarow - 1])
        # threat squares: right parity, wrong parity, lowest threat of a column
        self.bonus = np.array([top // 2, top // 8, ZUGZWANG * top], dtype=np.int64)
        zrng = np.random.default_rng(0x5EED)
        self.zob = zrng.integers(1, 2 ** 63, size=(rows * cols, 2), dtype=np.int64)
        self.geo = bit_geometry(rows, cols, inarow, self.bonus, self.weights)
        if self.tt is not None:
            self.tt[:, 0] = 0
        if self.tt_bits is not None:
            self.tt_bits[:, 0] = -1

    def start(self, game_map: Any = None, params: Any = None, player: int = 0) -> None:
        """Load every kernel now (numba's cache), so that no move pays for it later."""
        if not self._warm:
            self._warm = True
            for bits in (False, True):
                self._choose(tiny_state(), 0, clock() + 0.05, bits)
            self._geometry = None
        shape = getattr(game_map, "shape", None)
        if shape is not None:   # the game's table now rather than during a move
            rows, cols = int(shape[0]), int(shape[1])
            self._tables(rows, cols, cols * (rows + 1) <= 64)

    def _tables(self, rows: int, cols: int, bits: bool) -> None:
        """Allocate the transposition table of one search, small for small boards."""
        if bits:
            size = 1 << min(TT_BITS + 1, max(10, rows * cols))
            if self.tt_bits is None or self.tt_bits.shape[0] < size:
                self.tt_bits = np.full((size, 2), -1, dtype=np.int64)
        else:
            size = 1 << min(TT_BITS, max(10, rows * cols))
            if self.tt is None or self.tt.shape[0] < size:
                self.tt = np.zeros((size, 4), dtype=np.int64)

    def move(self, state: Any, player: int, deadline: float) -> int:
        """Best column found by the deadline."""
        if not self._warm:
            self.start()
        return self._choose(state, player, deadline, True)

    def _choose(self, state: Any, player: int, deadline: float, bits: bool) -> int:
        board, heights, rows, cols, inarow = flat_board(state)
        self._setup(rows, cols, inarow)
        playable = [c for c in range(cols) if heights[c] < rows]
        if not playable:
            return 0
        if not board.any():
            centre = [c for c in playable if abs(2 * c - (cols - 1)) <= 1]
            return int(self.rng.choice(centre))
        if bits and self.geo is not None:
            return self._search_bits(board, rows, cols, player, deadline - self.margin,
                                     playable[0])
        return self._search_arrays(board, heights, rows, cols, inarow, player,
                                   deadline - self.margin, playable[0])

    def _search_bits(self, board: np.ndarray, rows: int, cols: int, player: int,
                     stop: float, best: int) -> int:
        """Iterative deepening with :func:`_bb_negamax`."""
        self._tables(rows, cols, True)
        cur, mask = bitboards(board, rows, cols, player)
        status = np.zeros(6, dtype=np.int64)
        history = np.zeros((2, cols), dtype=np.int64)
        mbuf = np.zeros((rows * cols + 2, 3 * cols), dtype=np.int64)
        wcur = int(_bb_wins(cur, self.geo))
        wopp = int(_bb_wins(cur ^ mask, self.geo))
        empties = int((board == EMPTY).sum())
        limit = empties if self.max_depth is None else min(empties, self.max_depth)
        drawn = -1
        heuristic_stop = stop
        if limit == empties and empties <= self.solve_empties:
            # exact win/draw/loss with a null window around a draw
            now = float(clock())
            status[_S_BEST] = -1
            score = _bb_negamax(cur, mask, wcur, wopp, empties, 0, -1, 1, self.geo,
                                self.tt_bits, history, mbuf, status,
                                now + self.solve_share * (stop - now))
            self.last_nodes = int(status[_S_NODES])
            if status[_S_ABORT] == 0 and status[_S_BEST] >= 0 and score >= 0:
                self.last_depth = empties
                self.last_score = int(score)
                if score > 0:
                    return int(status[_S_BEST])
                # a proven draw: look for a move that keeps the draw and sets more traps
                drawn = best = int(status[_S_BEST])
                now = float(clock())
                heuristic_stop = now + 0.5 * (stop - now)
        for depth in range(1, limit + 1):
            status[_S_ABORT] = 0
            status[_S_DONE] = 0
            status[_S_BEST] = -1
            score = _bb_negamax(cur, mask, wcur, wopp, depth, 0, -(WIN + 1), WIN + 1,
                                self.geo, self.tt_bits, history, mbuf, status,
                                heuristic_stop)
            if status[_S_ABORT] != 0:
                if status[_S_DONE] > 0 and status[_S_BEST] >= 0:
                    best = int(status[_S_BEST])
                break
            best = int(status[_S_BEST]) if status[_S_BEST] >= 0 else best
            if drawn < 0:
                self.last_depth = depth
                self.last_score = int(score)
            if abs(score) > WIN - 1000 or time_left(heuristic_stop) < 0:
                break
        self.last_nodes = int(status[_S_NODES])
        if drawn >= 0 and best != drawn and not self._holds_draw(cur, mask, best, rows,
                                                                 empties, stop):
            best = drawn
        return best

    def _holds_draw(self, cur: int, mask: int, col: int, rows: int, empties: int,
                    stop: float) -> bool:
        """Whether dropping into ``col`` is proven, by ``stop``, not to lose."""
        h1 = rows + 1
        column = ((1 << rows) - 1) << (col * h1)
        mv = ((mask & _U64) + (1 << (col * h1))) & column
        opp = cur ^ mask
        status = np.zeros(6, dtype=np.int64)
        mbuf = np.zeros((empties + 2, 3 * self._geometry[1]), dtype=np.int64)
        history = np.zeros((2, self._geometry[1]), dtype=np.int64)
        # the opponent's value with a null window above a draw: <= 0 keeps the draw
        v = _bb_negamax(opp, _signed((mask & _U64) | mv), _bb_wins(opp, self.geo),
                        _bb_wins(_signed((cur & _U64) | mv), self.geo), empties - 1, 1,
                        0, 1, self.geo, self.tt_bits, history, mbuf, status, stop)
        return status[_S_ABORT] == 0 and v <= 0

    def _search_arrays(self, start: np.ndarray, heights: np.ndarray, rows: int, cols: int,
                       inarow: int, player: int, stop: float, best: int) -> int:
        """Iterative deepening with the array kernel :func:`_negamax` (any board size)."""
        self._tables(rows, cols, False)
        board = np.zeros_like(start)
        wcount = np.zeros((self.windows.shape[0], 2), dtype=np.int64)
        threats = np.zeros((rows * cols, 2), dtype=np.int64)
        status = np.zeros(6, dtype=np.int64)
        status[_S_EMPTY] = rows * cols
        key = np.zeros(1, dtype=np.int64)
        _load(start, board, self.windows, wcount, self.cell_ptr, self.cell_windows,
              self.weights, threats, self.bonus, rows, cols, status, self.zob, key)
        history = np.zeros((2, cols), dtype=np.int64)
        killers = np.full((_MAX_PLY, 2), -1, dtype=np.int64)
        mbuf = np.zeros((_MAX_PLY, 2 * cols), dtype=np.int64)
        empties = int(status[_S_EMPTY])
        limit = empties if self.max_depth is None else min(empties, self.max_depth)
        nodes = 0
        for depth in range(1, limit + 1):
            status[_S_ABORT] = 0
            status[_S_DONE] = 0
            status[_S_BEST] = -1
            score = _negamax(board, heights, rows, cols, inarow, self.windows, wcount,
                             self.cell_ptr, self.cell_windows, self.weights, threats,
                             self.bonus, self.zob, key, self.tt,
                             history, killers, mbuf, status, stop, player, depth, 0,
                             -(WIN + 1), WIN + 1)
            nodes = int(status[_S_NODES])
            if status[_S_ABORT] != 0:
                if status[_S_DONE] > 0 and status[_S_BEST] >= 0:
                    best = int(status[_S_BEST])
                break
            best = int(status[_S_BEST]) if status[_S_BEST] >= 0 else best
            self.last_depth = depth
            self.last_score = int(score)
            if abs(score) > WIN - 1000 or time_left(stop) < 0:
                break
        self.last_nodes = nodes
        return best


def time_left(deadline: float) -> float:
    """Seconds from now to ``deadline``."""
    return deadline - float(clock())
