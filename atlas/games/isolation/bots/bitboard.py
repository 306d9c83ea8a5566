"""The alpha-beta search of the ``strong`` isolation bot on bitboards (knight and queen).

Both pieces' boards of at most 64 squares are searched the same way; only the moves
and the evaluation differ (:mod:`atlas.games.isolation.bots.knight`,
:mod:`atlas.games.isolation.bots.queen`).  A position is the free squares as one ``uint64``,
the two pieces' squares (-1 while unplaced: the move is then a placement on any free
square), the side to move and its Zobrist key; a child is a new position (no
make/undo).  :func:`bitboard_search` builds the search of one piece from three kernels,
on :func:`atlas.bots.search.negamax`:

* principal-variation search with a Zobrist transposition table (nodes this close to
  the leaves skip it: five random memory reads and writes cost more than searching them
  again), two killer moves per ply and the history heuristic;
* moves ordered, at least :data:`ORDER_DEPTH` plies from the leaves, by the mover's
  onward moves minus twice the opponent's replies after it;
* the children of a node one ply from the leaves valued in place rather than in a node
  each (a child without replies is a win).

References
----------
Zobrist, A. L. (1970). A new hashing method with application for game playing.
Schaeffer, J. (1989). The history heuristic and alpha-beta search enhancements in
practice. *IEEE PAMI* 11(11).  ``isolation-alphabeta.txt`` (the seed bot).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ....bots.search import (
    PVS_ALPHA,
    S_NODES,
    killer_key,
    negamax,
    note_cutoff,
    sort_moves,
    tt_probe,
    tt_store,
)
from ....jit import LazyKernel, built, numba
from .phased import WIN

__all__ = [
    "BitboardSearch",
    "bitboard_search",
    "bit_voronoi",
    "popcount",
    "CLOCK_NODES",
    "TT_MIN_DEPTH",
    "ORDER_DEPTH",
]

#: Nodes between two reads of the clock (``S_CLOCK`` holds the count of the next read).
CLOCK_NODES = 1024
#: Nodes this close to the leaves skip the transposition table.
TT_MIN_DEPTH = 2
#: Nodes at least this far from the leaves order their moves by mobility.
ORDER_DEPTH = 2
_ZERO = np.uint64(0)
_ONE = np.uint64(1)


class BitboardSearch(NamedTuple):
    """The context of a bitboard search (``g`` of :func:`atlas.bots.search.negamax`).

    ``tab`` and ``jumps`` describe the board (the piece's tables; ``jumps`` is the
    knight's jump targets, unused by the queen), ``moves`` and ``keys`` hold each ply's
    moves and their sort keys, ``walk`` and ``rem`` are the evaluation's walk stacks;
    ``zobrist`` stacks the keys of blocked squares and of each seat's piece, ``zside``
    the side to move's; ``tt[slot]`` holds best move, depth, bound flag and value of the
    entry whose key is ``tt_key[slot]``.
    """

    status: np.ndarray
    deadline: float
    pv: np.ndarray

    tab: np.ndarray
    jumps: np.ndarray
    moves: np.ndarray
    keys: np.ndarray
    walk: np.ndarray
    rem: np.ndarray
    zobrist: np.ndarray
    zside: np.uint64
    tt_key: np.ndarray
    tt: np.ndarray
    killers: np.ndarray
    history: np.ndarray


@numba.njit(cache=True)
def popcount(x):
    """Number of set bits of a ``uint64`` (SWAR)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + (
        (x >> np.uint64(2)) & np.uint64(0x3333333333333333)
    )
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


def bit_voronoi(name: str, step: LazyKernel) -> LazyKernel:
    """The Voronoi split of a piece's moves on a bitboard, named ``name``:
    ``voronoi(free, a, b, tie, tab) -> (own 0, own 1, reach 0, reach 1)``.

    ``step(x, free, tab)`` (a kernel) is the squares of ``free`` one move from any
    square of ``x``.  From the pieces' squares ``a`` and ``b`` both reaches grow a move
    a layer; a square both reach after the same number of moves goes to seat ``tie``
    (0 or 1; anything else: to neither).  Returns the squares each seat gets (counts)
    and the reaches as bit sets (each includes its piece's square): they are disjoint
    exactly when the pieces are separated.  O(move distance) layers of ``step``.
    """

    def voronoi(free, a, b, tie, tab):  # pragma: no cover - compiled
        seen0 = _ONE << np.uint64(a)
        seen1 = _ONE << np.uint64(b)
        f0 = seen0
        f1 = seen1
        own0 = _ZERO
        own1 = _ZERO
        claimed = _ZERO
        while (f0 | f1) != _ZERO:
            n0 = _ZERO
            n1 = _ZERO
            if f0 != _ZERO:
                n0 = step(f0, free, tab) & ~seen0
                seen0 |= n0
            if f1 != _ZERO:
                n1 = step(f1, free, tab) & ~seen1
                seen1 |= n1
            c0 = n0 & ~claimed
            c1 = n1 & ~claimed
            if tie == 0:
                own0 |= c0
                own1 |= c1 & ~c0
            elif tie == 1:
                own1 |= c1
                own0 |= c0 & ~c1
            else:
                own0 |= c0 & ~c1
                own1 |= c1 & ~c0
            claimed |= c0 | c1
            f0 = n0
            f1 = n1
        return popcount(own0), popcount(own1), seen0, seen1

    return built(voronoi, name, cache=True)


def bitboard_search(
    name: str, gen: LazyKernel, reach: LazyKernel, evaluate: LazyKernel, order_base: int
) -> LazyKernel:
    """The search of one piece, named ``name``: ``search(g, s, depth, ply, alpha, beta)``.

    ``g`` a :class:`BitboardSearch`, ``s`` the position ``(free, pos0, pos1, p, key)``.
    The piece's kernels (``inline="always"``):

    ``gen(g, src, free, moves, ply) -> n``
        Write the moves from square ``src`` (-1: a placement) over ``free`` to row
        ``ply`` of ``moves``, in the piece's order.
    ``reach(g, c, x) -> int``
        The moves from square ``c`` over the squares ``x`` (all of ``x`` if ``c < 0``).
    ``evaluate(g, free, pos0, pos1, p) -> int``
        The static value for seat ``p`` to move.

    Moves are ordered by ``order_base`` plus the mover's onward moves minus twice the
    opponent's replies (then the table's move, the killers and the history).
    """

    def expand(g, s, depth, ply, alpha, beta):  # pragma: no cover - compiled
        free, pos0, pos1, p, key = s
        src = pos0 if p == 0 else pos1
        other = pos1 if p == 0 else pos0
        slot = key & np.uint64(g.tt_key.shape[0] - 1)
        n = gen(g, src, free, g.moves, ply)
        if n == 0:
            return -1, -(WIN - ply), alpha, beta, (src, other, slot, False)
        if depth <= 0:
            return -1, evaluate(g, free, pos0, pos1, p), alpha, beta, (src, other, slot, False)
        use_tt = depth >= TT_MIN_DEPTH
        tt_best = -1
        if use_tt:
            tt_best, settled, v = tt_probe(
                g.tt_key, g.tt, slot, key, depth, ply, alpha, beta, WIN
            )
            if settled:
                return -1, v, alpha, beta, (src, other, slot, use_tt)
        for i in range(n):
            m = g.moves[ply, i]
            k = g.history[p, m]
            if depth >= ORDER_DEPTH:
                after = free & ~(_ONE << np.uint64(m))
                k += (order_base + reach(g, m, after) - 2 * reach(g, other, after)) << 40
            g.keys[ply, i] = killer_key(k, m, tt_best, g.killers, ply, 60)
        sort_moves(g.moves, g.keys, ply, n)
        return n, 0, alpha, beta, (src, other, slot, use_tt)

    def leaf(g, s, node, m, depth, ply):  # pragma: no cover - compiled
        if depth != 1:
            return False, 0
        # the leaves, valued here rather than in a node each (but counted as nodes)
        free, pos0, pos1, p, key = s
        g.status[S_NODES] += 1
        child = free & ~(_ONE << np.uint64(m))
        if reach(g, node[1], child) == 0:
            return True, WIN - ply - 1
        c0 = m if p == 0 else pos0
        c1 = pos1 if p == 0 else m
        return True, -evaluate(g, child, c0, c1, 1 - p)

    def play(g, s, node, m, ply):  # pragma: no cover - compiled
        free, pos0, pos1, p, key = s
        src = node[0]
        z = g.zobrist
        ckey = key ^ z[0, m] ^ z[1 + p, m] ^ g.zside
        if src >= 0:
            ckey ^= z[1 + p, src]
        c0 = m if p == 0 else pos0
        c1 = pos1 if p == 0 else m
        return (free & ~(_ONE << np.uint64(m)), c0, c1, 1 - p, ckey)

    def cutoff(g, s, node, m, depth, ply):  # pragma: no cover - compiled
        note_cutoff(g.killers, g.history, ply, s[3], m, depth * depth)

    def store(g, s, node, depth, ply, best, move, alpha0, beta):  # pragma: no cover - compiled
        if node[3]:
            tt_store(g.tt_key, g.tt, node[2], s[4], move, depth, ply, best, alpha0, beta, WIN)

    kernels = {
        f.__name__: built(f, f"{name}.{f.__name__}", cache=True, inline="always")
        for f in (expand, leaf, play, cutoff, store)
    }
    return negamax(name, kernels, win=WIN, pvs=PVS_ALPHA, clock_nodes=CLOCK_NODES)
