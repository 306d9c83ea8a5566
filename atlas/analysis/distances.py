"""Breadth-first distances over the free cells of a grid (4-neighbourhood).

Kernels (conventions in :mod:`atlas.analysis.grid`)
--------------------------------------------------
``bfs_kernel(free_flat, stride, sources, dist, queue) -> int``
    Multi-source BFS.  ``sources``: ``int64`` array of flat cells; ``dist``, ``queue``:
    ``int32`` buffers as long as ``free_flat``.  Afterwards ``dist[i]`` is the number of
    steps from the nearest source to ``i`` (``0`` at the sources, ``-1`` where no source
    reaches) and ``queue[:k]`` lists the ``k`` reached cells in order of distance, the
    sources first; returns ``k``.  Sources may be blocked cells (a tron head stands on
    its trail): they are reached at distance 0 and the walk leaves them through free
    neighbours; every other step enters a free cell.
``bfs_blocked_kernel(free_flat, stride, source, blocker, dist, queue) -> int``
    Single-source BFS from flat ``source`` (``int64``) that treats flat ``blocker``
    (``int64``, ``-1`` for none) as a wall; ``dist[blocker]`` is ``-1`` afterwards
    (unless it is the source).  Returns the number of reached cells (source included).
    Two of these (each head with the other as the blocker) give the distances that
    define the two-player Voronoi of :mod:`atlas.analysis.voronoi`, which counts it in
    one joint search instead.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..jit import numba  # numba itself is imported on first compile
from ..types import Cell, IntGrid
from .grid import as_free_grid, pad_kernel, scratch, source_indices, unpad

__all__ = ["bfs_distances", "bfs_kernel", "bfs_blocked_kernel"]


#: Unsigned constants: indexing with ``uint64`` values spares numba the negative-index
#: wraparound test on every access (about 40 % of a BFS step); never mix them with
#: signed integers in arithmetic (numba would promote to float).
_U0 = np.uint64(0)
_U1 = np.uint64(1)


@numba.njit(cache=True, inline="always")
def _init_dist(free_flat, dist):  # type: ignore[no-untyped-def]
    """``dist`` = -1 on free cells, -2 on walls: the search then reads one array only."""
    for i in range(free_flat.shape[0]):
        dist[i] = -1 if free_flat[i] != 0 else -2


@numba.njit(cache=True, inline="always")
def _finish_dist(dist):  # type: ignore[no-untyped-def]
    """Turn the walls' -2 back into the documented -1 (unreached)."""
    for i in range(dist.shape[0]):
        if dist[i] == -2:
            dist[i] = -1


@numba.njit(cache=True, inline="always")
def _expand(stride, dist, queue, head, tail):  # type: ignore[no-untyped-def]
    """Run the BFS queue ``queue[head:tail]`` to exhaustion; return the final tail.

    ``dist`` must hold -1 on unvisited free cells and anything else (-2 on walls)
    elsewhere (:func:`_init_dist`).
    """
    us = np.uint64(stride)
    offs = (_U0 - us, _U1, us, _U0 - _U1)  # modular: v + offs[k] is the neighbour
    h = np.uint64(head)
    t = np.uint64(tail)
    while h < t:
        v = np.uint64(queue[h])
        h += _U1
        d = dist[v] + 1
        for k in range(4):
            w = v + offs[k]
            if dist[w] == -1:
                dist[w] = d
                queue[t] = w
                t += _U1
    return np.int64(t)


@numba.njit(cache=True)
def bfs_kernel(free_flat, stride, sources, dist, queue):  # type: ignore[no-untyped-def]
    _init_dist(free_flat, dist)
    tail = 0
    for k in range(sources.shape[0]):
        s = sources[k]
        if dist[s] != 0:
            dist[s] = 0
            queue[tail] = s
            tail += 1
    tail = _expand(stride, dist, queue, 0, tail)
    _finish_dist(dist)
    return tail


@numba.njit(cache=True)
def bfs_blocked_kernel(free_flat, stride, source, blocker, dist, queue):  # type: ignore[no-untyped-def]
    _init_dist(free_flat, dist)
    if blocker >= 0:
        dist[blocker] = -2
    dist[source] = 0
    queue[0] = source
    tail = _expand(stride, dist, queue, 0, 1)
    _finish_dist(dist)
    return tail


@numba.njit(cache=True)
def _bfs_entry(free2d, sources, flat, work):  # type: ignore[no-untyped-def]
    pad_kernel(free2d, flat)
    return bfs_kernel(flat, free2d.shape[1] + 2, sources, work[0], work[1])


def bfs_distances(free: npt.ArrayLike, sources: Sequence[Cell]) -> IntGrid:
    """Steps from the nearest of ``sources`` to every cell, moving through free cells.

    Parameters
    ----------
    free : array_like of bool, shape (rows, cols)
        ``True`` for a free cell.
    sources : sequence of (row, col)
        One or more start cells.  A source may be blocked (a tron head on its trail):
        it still gets distance 0 and the walk leaves it through free neighbours.

    Returns
    -------
    ndarray of int32, shape (rows, cols)
        ``0`` at the sources, ``-1`` where no source reaches (blocked cells included).

    Raises
    ------
    GridError
        No source, or a source outside the grid.

    Notes
    -----
    Multi-source breadth-first search over the padded flat grid: O(rows x cols).

    Examples
    --------
    >>> bfs_distances([[1, 1, 0, 1]], [(0, 0)]).tolist()
    [[0, 1, -1, -1]]
    """
    grid = as_free_grid(free)
    h, w = grid.shape
    src = source_indices(grid, sources, "bfs_distances")
    stride = w + 2
    flat, work = scratch((h + 2) * stride, 2)
    _bfs_entry(grid, src, flat, work)
    return unpad(work[0], (h, w))
