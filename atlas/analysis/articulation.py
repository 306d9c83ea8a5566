"""Articulation points (cut cells) of the grid graph of free cells.

A free cell is an articulation point when removing it splits its 4-connected component
into more pieces.  In tron these are the corridor cells and doorways that decide which
part of the board a cycle can still use.

Kernels (conventions in :mod:`atlas.analysis.grid`)
--------------------------------------------------
``articulation_kernel(free_flat, stride, disc, low, stack, is_cut) -> int``
    Marks ``is_cut[i] = 1`` (``uint8`` buffer) for every articulation point of the
    graph of free cells of ``free_flat``, ``0`` elsewhere; returns how many there are.
    ``disc``, ``low``, ``stack``: ``int32`` buffers as long as ``free_flat``.
``articulation_from_kernel(free_flat, stride, root, disc, low, stack, is_cut) -> int``
    The same, restricted to the component of flat cell ``root`` (``int64``; if it is
    blocked it still joins its free neighbours, like a tron head); ``is_cut`` is
    cleared everywhere first.

After either call ``disc[i]`` is the depth-first discovery time (``> 0``) of each visited
cell, ``0`` for a free cell not visited and ``-1`` for a blocked one; ``low`` and
``stack`` are scratch.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..jit import numba  # numba itself is imported on first compile
from ..types import Cell, Grid
from .biconnected import enter_nothing, hopcroft_tarjan, inner_nothing
from .grid import as_free_grid, pad_kernel, scratch

__all__ = [
    "articulation_points",
    "articulation_mask",
    "articulation_kernel",
    "articulation_from_kernel",
]


@numba.njit(cache=True, inline="always")
def _mark_cut(is_cut, b, c, params, v, u, root_child):  # type: ignore[no-untyped-def]
    """A non-root cell is a cut cell when some child's subtree has no edge above it."""
    if not root_child:
        is_cut[u] = 1


#: The Hopcroft-Tarjan walk (:mod:`atlas.analysis.biconnected`) that marks cut cells.
_cut_walk = hopcroft_tarjan(enter_nothing, _mark_cut, inner_nothing)


@numba.njit(cache=True, inline="always")
def _cuts_from(stride, root, timer, disc, low, stack, is_cut):  # type: ignore[no-untyped-def]
    """Mark the cut cells of the component of ``root``; returns the next free timer."""
    timer, children = _cut_walk(is_cut, disc, low, (), stride, root, timer, disc, low, stack)
    if children >= 2:
        is_cut[root] = 1
    return timer


@numba.njit(cache=True, inline="always")
def articulation_kernel(free_flat, stride, disc, low, stack, is_cut):  # type: ignore[no-untyped-def]
    n = free_flat.shape[0]
    for i in range(n):
        disc[i] = np.int32(free_flat[i]) - 1
        is_cut[i] = 0
    timer = 1
    for s in range(n):
        if disc[s] == 0:
            timer = _cuts_from(stride, s, timer, disc, low, stack, is_cut)
    count = 0
    for i in range(n):
        count += is_cut[i]
    return count


@numba.njit(cache=True)
def articulation_from_kernel(free_flat, stride, root, disc, low, stack, is_cut):  # type: ignore[no-untyped-def]
    n = free_flat.shape[0]
    for i in range(n):
        disc[i] = np.int32(free_flat[i]) - 1
        is_cut[i] = 0
    disc[root] = 0
    _cuts_from(stride, root, 1, disc, low, stack, is_cut)
    count = 0
    for i in range(n):
        count += is_cut[i]
    return count


@numba.njit(cache=True)
def _mask_entry(free2d, flat, work, is_cut):  # type: ignore[no-untyped-def]
    pad_kernel(free2d, flat)
    return articulation_kernel(flat, free2d.shape[1] + 2, work[0], work[1], work[2], is_cut)


def articulation_mask(free: npt.ArrayLike) -> Grid:
    """Boolean grid, ``True`` at the articulation points of the free cells.

    Parameters
    ----------
    free : array_like of bool, shape (rows, cols)
        ``True`` for a free cell.

    Returns
    -------
    ndarray of bool, shape (rows, cols)

    Notes
    -----
    Hopcroft and Tarjan's depth-first search with low-points [1]_, run from every
    unvisited free cell in raster order, with an explicit stack (no recursion, so a
    1000x1000 open map is fine): a non-root cell ``u`` is a cut cell when some DFS child
    ``v`` has ``low[v] >= disc[u]``; a DFS root when it has two or more children.
    O(rows x cols) time; buffers of 3 ``int32`` per cell.

    References
    ----------
    .. [1] J. Hopcroft and R. Tarjan (1973), algorithm 447: the reference of the walk,
       :mod:`atlas.analysis.biconnected`.

    Examples
    --------
    >>> articulation_mask([[1, 1, 1]]).tolist()
    [[False, True, False]]
    """
    grid = as_free_grid(free)
    h, w = grid.shape
    size = (h + 2) * (w + 2)
    flat, work = scratch(size, 3)
    is_cut = np.empty(size, dtype=np.uint8)
    _mask_entry(grid, flat, work, is_cut)
    return is_cut.reshape(h + 2, w + 2)[1:-1, 1:-1].astype(np.bool_)


def articulation_points(free: npt.ArrayLike) -> list[Cell]:
    """Articulation points of the free cells, as ``(row, col)`` sorted.

    See :func:`articulation_mask` for the algorithm.

    Examples
    --------
    >>> articulation_points([[1, 1, 1], [0, 1, 0]])
    [(0, 1)]
    """
    rows, cols = np.nonzero(articulation_mask(free))
    return [(int(r), int(c)) for r, c in zip(rows, cols)]
