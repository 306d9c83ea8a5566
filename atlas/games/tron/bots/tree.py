"""The tree-of-chambers evaluation of the tron bots (``chambers`` and ``frontline``).

:func:`chamber_walk` splits a player's Voronoi territory into chambers that can be
entered but not left (the subtrees hanging from cut vertices, found by the one
Hopcroft-Tarjan walk of :mod:`atlas.analysis.biconnected`) and values the best path
through them, with the optional checkerboard bound and "battlefront" rule of the
``frontline`` bot.  It is generic in its number type: :func:`chamber_value` runs it in
floating point (``voronoi``, ``chambers``, ``frontline``), and ``apex`` in integers
(:func:`atlas.games.tron.bots.apex.chamber_score`).

References
----------
.. [1] A. Sloane (a1k0n), "Google AI Challenge post-mortem", 2010.
.. [2] "Tree of chambers", 2010 contest submission notes.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ....analysis.biconnected import hopcroft_tarjan
from ....analysis.parity import parity_from_counts
from ....jit import numba
from .common import (
    R_CNT0,
    R_CNT1,
    R_COLOUR,
    R_DA,
    R_DB,
    R_DISC,
    R_FLAGS,
    R_LOW,
    R_STACK,
)

__all__ = ["chamber_walk", "chamber_value"]

#: Below any chamber's value (floating point).
_FLOAT_NEG = -1e18


class _Weights(NamedTuple):
    """The scalars of one chamber walk (its number type is that of ``k1``)."""

    mine: int
    opp: np.uint64
    offs: tuple[int, int, int, int]
    w2: int
    k1: Any
    k2: Any
    step: Any
    neg: Any
    use_parity: bool
    use_front: bool


#: Rows of the chamber walk's ``acc`` (the number type's) array.
_EDGES, _QUIET, _FRONT = 0, 1, 2


@numba.njit(cache=True, inline="always")
def _enter(grid, ibuf, acc, p, u, v):
    """A new cell ``u`` of the territory: its open neighbours, colour and front flag.

    One scan of the four neighbours: open ones (edges) and, for the battlefront rule,
    whether one is the opponent's territory or head (heads are blocked cells).
    """
    e = 0
    front = 0
    for j in range(4):
        w = np.uint64(np.int64(u) + p.offs[j])
        g = grid[w]
        if g != 0:
            e += 1
            ow = ibuf[R_DB, w]
            if ow != p.mine and ow != 0:
                front = 1
        elif w == p.opp:
            front = 1
    acc[_EDGES, u] = e
    cu = ibuf[R_COLOUR, u]
    ibuf[R_CNT1, u] = cu
    ibuf[R_CNT0, u] = 1 - cu
    acc[_QUIET, u] = 0
    acc[_FRONT, u] = p.neg
    ibuf[R_FLAGS, u] = front if p.use_front else 0


@numba.njit(cache=True, inline="always")
def _chamber(grid, ibuf, acc, p, v, u, root_child):
    """``v``'s subtree is a chamber entered from ``u``: its value goes to ``u``'s best
    child."""
    val, fill = _close(
        p,
        ibuf[R_COLOUR, v],
        ibuf[R_CNT0, v],
        ibuf[R_CNT1, v],
        acc[_EDGES, v],
        acc[_QUIET, v],
        acc[_FRONT, v],
        ibuf[R_DA, v],
    )
    if p.use_front:
        # Quiet value: what is left of the branch for a player who fills the current
        # chamber first; a chamber on the front is lost by then.
        fv = ibuf[R_FLAGS, v]
        q = 0 if (fv & 1) else fill
        if q > acc[_QUIET, u]:
            acc[_QUIET, u] = q
        if fv != 0:
            cand = p.step * ibuf[R_DA, v] + val
            if cand > acc[_FRONT, u]:
                acc[_FRONT, u] = cand
            ibuf[R_FLAGS, u] |= 2  # this branch leads to the front
    elif val > acc[_QUIET, u]:
        acc[_QUIET, u] = val


@numba.njit(cache=True, inline="always")
def _join(grid, ibuf, acc, p, v, u):
    """``v``'s subtree is part of ``u``'s chamber: its counts join ``u``'s."""
    acc[_EDGES, u] += acc[_EDGES, v]
    ibuf[R_CNT0, u] += ibuf[R_CNT0, v]
    ibuf[R_CNT1, u] += ibuf[R_CNT1, v]
    if acc[_QUIET, v] > acc[_QUIET, u]:
        acc[_QUIET, u] = acc[_QUIET, v]
    if acc[_FRONT, v] > acc[_FRONT, u]:
        acc[_FRONT, u] = acc[_FRONT, v]
    ibuf[R_FLAGS, u] |= ibuf[R_FLAGS, v]


#: The Hopcroft-Tarjan walk (:mod:`atlas.analysis.biconnected`) over a territory; the
#: player's head is where it starts, not a cell it can enter again.
_walk = hopcroft_tarjan(_enter, _chamber, _join, root_vertex=False)


@numba.njit(cache=True, inline="always")
def _close(p, colour, a, b, edges, quiet, front, first):
    """Value of a chamber whose first cell has ``colour`` (``a`` and ``b`` cells of each
    colour, ``edges``, best quiet and front child values, ``first`` steps to enter it),
    and its value when filled first.  Scalars only: arrays handed to an inlined kernel
    are reference-counted, at a cost the walk notices."""
    nodes = a + b  # cells of the chamber (both colours)
    if p.use_parity and nodes > 0:
        # The walk starts from the entrance outside the chamber, of the other colour.
        if colour == 0:
            bound = parity_from_counts(b, a)
        else:
            bound = parity_from_counts(a, b)
        if bound < nodes:
            nodes = bound
    fill = p.k1 * nodes + p.k2 * edges + quiet
    front = front - p.step * first
    return (fill if fill > front else front), fill


@numba.njit(cache=True)
def chamber_walk(
    grid, root, opp, off, w2, ibuf, acc, k1, k2, use_parity, use_front, swap, neg
):  # pragma: no cover - numba
    """Value of the space the player at ``root`` can fill in its own territory.

    The territory is the free cells the player reaches strictly first (owner codes left
    in ``ibuf`` by :func:`atlas.games.tron.bots.common.voronoi_counts` or
    :func:`~atlas.games.tron.bots.common.voronoi_touching`; ``swap`` 0 for the player that was
    their ``a``, 1 for ``b``; after a separation, the whole room).  A depth-first search
    with low-links splits it into the tree of chambers of [2]_: a subtree hanging from
    a cut vertex is a chamber that can be entered but not left.  A chamber is worth
    ``k1 * nodes + k2 * edges`` of its cells plus its best child.  With ``use_parity``
    the nodes of a chamber are capped by the checkerboard bound from its entrance.
    With ``use_front`` a child chamber that touches the opponent's territory (a
    battlefront), or leads to one, is worth only the steps needed to reach it plus its
    own value: the player cannot fill the current chamber first and still fight there
    [1]_.  A chamber is then worth the better of filling it first (plus what is left of
    its best child branch, front chambers lost) and going straight to the front.

    Generic in its number type: ``acc`` (rows: edges, best quiet child, best front
    child), ``k1``, ``k2`` and ``neg`` (a value below any chamber's) are all ``float64``
    (:func:`chamber_value`) or all ``int64`` (:func:`atlas.games.tron.bots.apex.chamber_score`,
    integer weights in thousandths: the same walk, about twice as fast).  The flags of
    a cell (1: touches the front, 2: leads to it) use the row ``R_FLAGS`` of ``ibuf``.

    Notes
    -----
    One explicit-stack DFS (:func:`atlas.analysis.biconnected.hopcroft_tarjan`),
    O(board) to mark the territory and O(territory) to walk it.  Returns the value.
    """
    owner = ibuf[R_DB]
    mine = 2 if swap else 1
    disc = ibuf[R_DISC]
    for i in range(grid.shape[0]):
        disc[i] = 0 if grid[i] != 0 and owner[i] == mine else -1
    p = _Weights(
        mine,
        np.uint64(opp),
        (off[0], off[1], off[2], off[3]),
        w2,
        k1,
        k2,
        k1 + 2 * k2,
        neg,
        use_parity,
        use_front,
    )
    acc[_EDGES, root] = 0
    ibuf[R_CNT0, root] = 0
    ibuf[R_CNT1, root] = 0
    acc[_QUIET, root] = 0
    acc[_FRONT, root] = neg
    ibuf[R_FLAGS, root] = 0
    _walk(grid, ibuf, acc, p, off[2], root, 1, disc, ibuf[R_LOW], ibuf[R_STACK])
    val, _ = _close(
        p,
        ibuf[R_COLOUR, root],
        ibuf[R_CNT0, root],
        ibuf[R_CNT1, root],
        acc[_EDGES, root],
        acc[_QUIET, root],
        acc[_FRONT, root],
        1,
    )
    return val


@numba.njit(cache=True)
def chamber_value(
    grid, root, opp, off, w2, ibuf, fbuf, k1, k2, use_parity, use_front, swap
):  # pragma: no cover - numba
    """:func:`chamber_walk` in floating point (``fbuf``'s first three rows, weights
    ``k1`` and ``k2`` as floats): the evaluation of ``voronoi``, ``chambers`` and
    ``frontline``."""
    return chamber_walk(
        grid, root, opp, off, w2, ibuf, fbuf, k1, k2, use_parity, use_front, swap, _FLOAT_NEG
    )
