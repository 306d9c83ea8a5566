"""The array search of the ``strong`` connect5 bot, and the constants both searches share.

:data:`window_search` is a negamax alpha-beta (:func:`atlas.bots.search.negamax`) over
a flat board with make/undo and incremental window counts, used for boards too large
for 64-bit bitboards (:mod:`.bitboard`).  See :mod:`.strong` for the search as a
whole.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ....bots.search import (
    S_BEST,
    S_DONE,
    S_EMPTY,
    S_SCORE,
    NodeKernels,
    bound_flag,
    killer_cutoff,
    killer_key,
    negamax,
    sort_moves,
    tt_cuts,
    value_from_tt,
    value_to_tt,
)
from ....jit import numba
from .window import EMPTY

__all__ = [
    "WIN",
    "TT_BITS",
    "ZUGZWANG",
    "PARITY",
    "SOLVE_EMPTIES",
    "SOLVE_SHARE",
    "window_counts",
    "WindowSearch",
    "window_search",
]

#: Score of a win at the root; a win at ply p scores ``WIN - p``.
WIN = 1_000_000
#: log2 of the transposition-table size.
TT_BITS = 20
#: Value of the lowest threat of a column with the right parity, in four-disc windows.
ZUGZWANG = 4
#: Value of a parity window (both searches) ``e`` empty cells short of a line, all on
#: the owner's rows, for ``e = 2, 3``, in four-disc windows (``8 ** (inarow - 2)``).
#: Measured on 9 x 6 at 0.1 s against window4, the bot moving first (32 games each):
#: no parity windows 75 %, (0.25, 0.05) 95 %, (0.5, 0.1) 98 %, (1, 0.2) and (2, 0.4)
#: 100 %; on 7 x 6 (Connect Four) (2, 0.4) drew 3 of 16 games, (1, 0.2) none.
PARITY = (1.0, 0.2)
#: Empty cells from which a move first tries to solve the game exactly (bitboards).
SOLVE_EMPTIES = 28
#: Share of the move's time the exact attempt may take before the heuristic search.
SOLVE_SHARE = 0.5
_MAX_PLY = 512


def _weights(inarow: int) -> np.ndarray:
    w = np.zeros(inarow + 1, dtype=np.int64)
    for k in range(1, inarow):
        w[k] = 8 ** (k - 1)
    return w


def _parity_weights(inarow: int) -> np.ndarray:
    """Parity-window values by empty cells ``e`` (index), :data:`PARITY` for 2 and 3."""
    top = int(_weights(inarow)[inarow - 1])
    p = np.zeros(inarow + 1, dtype=np.int64)
    for e, share in enumerate(PARITY, start=2):
        if e < inarow:
            p[e] = int(round(share * top))
    return p


def window_counts(windows: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """The int64 count table of the array search, one row per window, with no discs.

    Columns: discs of seat 0, discs of seat 1, discs on odd heights (heights counted
    from 1 at the bottom), and the window's cells on odd heights (fixed).
    """
    counts = np.zeros((windows.shape[0], 4), dtype=np.int64)
    heights = rows - windows.astype(np.int64) // cols
    counts[:, 3] = (heights % 2 == 1).sum(axis=1)
    return counts


@numba.njit(cache=True)
def _parity_value(wcount: np.ndarray, w: int, bonus: np.ndarray, inarow: int) -> int:
    """Parity-window value of window ``w`` from seat 0's side (``bonus[3 + e]`` for a
    window free of the other seat with its ``e`` empty cells all on the seat's rows)."""
    a = wcount[w, 0]
    b = wcount[w, 1]
    odd_discs = wcount[w, 2]
    odd_cells = wcount[w, 3]
    if b == 0 and (inarow - odd_cells) - (a + b - odd_discs) == 0:
        return bonus[3 + inarow - a]
    if a == 0 and odd_cells - odd_discs == 0:
        return -bonus[3 + inarow - b]
    return 0


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
def _threat_cell(
    board: np.ndarray, windows: np.ndarray, wcount: np.ndarray, w: int, inarow: int
) -> tuple[int, int]:
    """``(seat, empty cell)`` if window ``w`` lacks one disc of one seat, else ``(-1, -1)``."""
    for s in range(2):
        if wcount[w, s] == inarow - 1 and wcount[w, 1 - s] == 0:
            for k in range(inarow):
                if board[windows[w, k]] == EMPTY:
                    return s, windows[w, k]
    return -1, -1


@numba.njit(cache=True)
def _threat_delta(
    seat: int,
    cell: int,
    step: int,
    threats: np.ndarray,
    rows: int,
    cols: int,
    bonus: np.ndarray,
) -> int:
    """Change of the threat score when ``cell`` gains (``step=1``) or loses a threat."""
    before = threats[cell, seat] > 0
    threats[cell, seat] += step
    after = threats[cell, seat] > 0
    if before == after:
        return 0
    height = rows - cell // cols  # 1 = bottom row
    good = (height % 2 == 1) == (seat == 0)
    v = bonus[0] if good else bonus[1]
    if seat == 1:
        v = -v
    return v if after else -v


#: The node kernels of the array search.
_NODE = NodeKernels(cutoff=killer_cutoff)


class WindowSearch(NamedTuple):
    """The context of the array search (``g`` of :func:`atlas.bots.search.negamax`).

    The flat board (``cell = row * cols + col``, row 0 at the top) and each column's
    height; the windows (:func:`atlas.games.connect5.bots.window.window_table`) with their
    counts (:func:`window_counts`), weights and the threat squares of each seat; the
    bonuses (threat squares of the right and wrong parity, the zugzwang value, parity
    windows by empty cells); Zobrist keys per cell and seat and the position's key
    (``key[0]``); the table (rows of key, best move, depth * 4 + bound flag, value),
    history and killers; each ply's moves and their sort keys.
    """

    status: np.ndarray
    deadline: float
    pv: np.ndarray

    board: np.ndarray
    heights: np.ndarray
    rows: int
    cols: int
    inarow: int
    windows: np.ndarray
    wcount: np.ndarray
    cell_ptr: np.ndarray
    cell_windows: np.ndarray
    weights: np.ndarray
    threats: np.ndarray
    bonus: np.ndarray
    zob: np.ndarray
    key: np.ndarray
    tt: np.ndarray
    history: np.ndarray
    killers: np.ndarray
    moves: np.ndarray
    keys: np.ndarray


@numba.njit(cache=True)
def _update(g, cell, p, step):
    """Put (``step=1``) or take back (``step=-1``) a disc of seat ``p`` on ``cell``."""
    board, windows, wcount, threats = g.board, g.windows, g.wcount, g.threats
    weights, bonus, rows, cols = g.weights, g.bonus, g.rows, g.cols
    inarow = windows.shape[1]
    old_code = board[cell]
    new_code = p + 1 if step > 0 else EMPTY
    delta = 0
    top = inarow - 1
    odd = (rows - cell // cols) % 2 == 1
    for i in range(g.cell_ptr[cell], g.cell_ptr[cell + 1]):
        w = g.cell_windows[i]
        old = _value(wcount, w, weights) + _parity_value(wcount, w, bonus, inarow)
        a0 = wcount[w, 0]
        a1 = wcount[w, 1]
        if (a0 == top and a1 == 0) or (a1 == top and a0 == 0):
            board[cell] = old_code
            s0, c0 = _threat_cell(board, windows, wcount, w, inarow)
            if s0 >= 0:
                delta += _threat_delta(s0, c0, -1, threats, rows, cols, bonus)
        wcount[w, p] += step
        if odd:
            wcount[w, 2] += step
        board[cell] = new_code
        a0 = wcount[w, 0]
        a1 = wcount[w, 1]
        if (a0 == top and a1 == 0) or (a1 == top and a0 == 0):
            s1, c1 = _threat_cell(board, windows, wcount, w, inarow)
            if s1 >= 0:
                delta += _threat_delta(s1, c1, 1, threats, rows, cols, bonus)
        delta += _value(wcount, w, weights) + _parity_value(wcount, w, bonus, inarow) - old
    board[cell] = new_code
    g.status[S_SCORE] += delta
    g.status[S_EMPTY] -= step


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


@_NODE
def _expand(g, p, depth, ply, alpha, beta):  # pragma: no cover - compiled
    """Tactics first (a win now; a block of the opponent's win, two of them a loss),
    the leaves' value, the table, then the moves ordered."""
    status = g.status
    rows, cols, heights, threats = g.rows, g.cols, g.heights, g.threats
    h = g.key[0]
    slot = h & (g.tt.shape[0] - 1)
    if status[S_EMPTY] == 0:
        return -1, 0, alpha, beta, (-1, slot, h)
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
                status[S_BEST] = c
                status[S_DONE] = 1
            return -1, WIN - ply - 1, alpha, beta, (forced, slot, h)
        if threats[cell, q] > 0:
            n_threats += 1
            forced = c
    if n_threats >= 2:
        if ply == 0:
            status[S_BEST] = forced
            status[S_DONE] = 1
        return -1, -(WIN - ply - 2), alpha, beta, (forced, slot, h)
    if depth <= 0 and n_threats == 0:
        v = status[S_SCORE] + _zugzwang(threats, heights, rows, cols, g.bonus[2])
        return -1, v if p == 0 else -v, alpha, beta, (forced, slot, h)
    tt = g.tt
    tt_best = -1
    if tt[slot, 0] == h:
        tt_best = tt[slot, 1]
        if tt[slot, 2] >> 2 >= depth and ply > 0:
            v = value_from_tt(tt[slot, 3], ply, WIN)
            if tt_cuts(tt[slot, 2] & 3, v, alpha, beta):
                return -1, v, alpha, beta, (forced, slot, h)
    # order the moves
    n = 0
    centre2 = cols - 1
    for c in range(cols):
        if heights[c] >= rows:
            continue
        if forced >= 0 and c != forced:
            continue
        k = g.history[p, c] - abs(2 * c - centre2)
        k = killer_key(k, c, tt_best, g.killers, ply, 50)
        if heights[c] + 1 < rows:
            above = (rows - 2 - heights[c]) * cols + c
            if threats[above, q] > 0:
                k -= 1 << 52
        g.moves[ply, n] = c
        g.keys[ply, n] = k
        n += 1
    sort_moves(g.moves, g.keys, ply, n)
    return n, 0, alpha, beta, (forced, slot, h)


@_NODE
def _play(g, p, node, c, ply):  # pragma: no cover - compiled
    cell = (g.rows - 1 - g.heights[c]) * g.cols + c
    _update(g, cell, p, 1)
    g.heights[c] += 1
    g.key[0] ^= g.zob[cell, p]
    return 1 - p


@_NODE
def _undo(g, p, node, c, q):  # pragma: no cover - compiled
    g.heights[c] -= 1
    cell = (g.rows - 1 - g.heights[c]) * g.cols + c
    g.key[0] ^= g.zob[cell, p]
    _update(g, cell, p, -1)


@_NODE
def _child_depth(g, p, node, ply, i, depth):  # pragma: no cover - compiled
    """An extension when forced keeps the horizon honest."""
    next_depth = depth - 1 if node[0] < 0 else depth
    return next_depth if next_depth > 0 else 0


@_NODE
def _store(g, p, node, depth, ply, best, move, alpha0, beta):  # pragma: no cover - compiled
    slot = node[1]
    g.tt[slot, 0] = node[2]
    g.tt[slot, 1] = move
    g.tt[slot, 2] = depth * 4 + bound_flag(best, alpha0, beta)
    g.tt[slot, 3] = value_to_tt(best, ply, WIN)


#: Negamax alpha-beta over a :class:`WindowSearch` with make/undo
#: (:func:`atlas.bots.search.negamax`): ``window_search(g, p, depth, ply, alpha, beta)``,
#: the value for seat ``p`` to move (see :mod:`atlas.games.connect5.bots.strong`).
window_search = negamax(f"{__name__}.window_search", _NODE, win=WIN, clock_mask=1023)


@numba.njit(cache=True)
def _load(g, start):
    """Fill the search arrays (counts, threats, score, key) from the position ``start``."""
    for cell in range(start.shape[0]):
        if start[cell] != EMPTY:
            p = start[cell] - 1
            _update(g, cell, p, 1)
            g.key[0] ^= g.zob[cell, p]
