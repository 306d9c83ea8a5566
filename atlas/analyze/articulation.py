"""Articulation points (cut cells) of the grid graph of free cells.

A free cell is an articulation point when removing it splits its 4-connected component
into more pieces.  In tron these are the corridor cells and doorways that decide which
part of the board a cycle can still use.

Kernels (conventions in :mod:`atlas.analyze.grid`)
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
from .grid import as_free_grid, pad_kernel, scratch

__all__ = [
    "articulation_points",
    "articulation_mask",
    "articulation_kernel",
    "articulation_from_kernel",
]


#: Unsigned constants for wraparound-free indexing (see atlas.analyze.distances).
_U0 = np.uint64(0)
_U1 = np.uint64(1)
_U3 = np.uint64(3)
_U7 = np.uint64(7)


@numba.njit(cache=True, inline="always")
def _dfs(stride, root, timer, disc, low, stack, is_cut):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
    """Iterative Hopcroft-Tarjan DFS from ``root``; returns the next free timer value.

    ``disc`` is -1 on blocked cells, 0 on unvisited free cells, else the discovery
    time.  A stack entry is ``cell * 8 + d`` where ``d`` (0..4) is the next direction
    to try (north, east, south, west; 4 = done); the parent of ``stack[k]`` is
    ``stack[k - 1]`` and ``low[k]`` is its low-point (kept by depth, not by cell: a
    low-point only matters while its cell is on the stack, and the stack is hot in
    cache).  The tree edge back to the parent is not excluded from the low-point: for
    articulation points (unlike bridges) this leaves the test
    ``low[child] >= disc[parent]`` unchanged and saves a comparison.
    """
    us = np.uint64(stride)
    offs = (_U0 - us, _U1, us, _U0 - _U1)  # modular: v + offs[d] is the neighbour
    r = np.uint64(root)
    disc[r] = timer
    low[0] = timer
    timer += 1
    stack[0] = r << _U3
    depth = _U1
    root_children = 0
    while depth > _U0:
        top = depth - _U1
        e = np.uint64(stack[top])
        v = e >> _U3
        d = np.int64(e & _U7)
        lv = low[top]
        descended = False
        while d < 4:
            w = v + offs[d]
            d += 1
            dw = disc[w]
            if dw == 0:
                stack[top] = (v << _U3) | np.uint64(d)
                low[top] = lv
                disc[w] = timer
                low[depth] = timer
                timer += 1
                stack[depth] = w << _U3
                depth += _U1
                descended = True
                break
            if 0 < dw < lv:
                lv = dw
        if descended:
            continue
        depth = top
        if depth > _U0:
            pt = depth - _U1
            if lv < low[pt]:
                low[pt] = lv
            if depth == _U1:
                root_children += 1
            else:
                u = np.uint64(stack[pt]) >> _U3
                if lv >= disc[u]:
                    is_cut[u] = 1
    if root_children >= 2:
        is_cut[r] = 1
    return timer


@numba.njit(cache=True)
def articulation_kernel(free_flat, stride, disc, low, stack, is_cut):  # type: ignore[no-untyped-def]  # pragma: no cover
    n = free_flat.shape[0]
    for i in range(n):
        disc[i] = np.int32(free_flat[i]) - 1
        is_cut[i] = 0
    timer = 1
    for s in range(n):
        if disc[s] == 0:
            timer = _dfs(stride, s, timer, disc, low, stack, is_cut)
    count = 0
    for i in range(n):
        count += is_cut[i]
    return count


@numba.njit(cache=True)
def articulation_from_kernel(  # type: ignore[no-untyped-def]
    free_flat,
    stride,
    root,
    disc,
    low,
    stack,
    is_cut,
):  # pragma: no cover - compiled
    n = free_flat.shape[0]
    for i in range(n):
        disc[i] = np.int32(free_flat[i]) - 1
        is_cut[i] = 0
    disc[root] = 0
    _dfs(stride, root, 1, disc, low, stack, is_cut)
    count = 0
    for i in range(n):
        count += is_cut[i]
    return count


@numba.njit(cache=True)
def _mask_entry(free2d, flat, work, is_cut):  # type: ignore[no-untyped-def]  # pragma: no cover - compiled
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
    .. [1] J. Hopcroft and R. Tarjan, "Algorithm 447: Efficient algorithms for graph
       manipulation", Communications of the ACM 16(6), 372-378, 1973.

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
