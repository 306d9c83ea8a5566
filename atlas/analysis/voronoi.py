"""Voronoi partitions of a grid by breadth-first distance (who gets where first).

Kernels (conventions in :mod:`atlas.analysis.grid`)
--------------------------------------------------
``voronoi_kernel(free_flat, stride, a, b, dist_a, dist_b, queue) -> (n1, n2, tie)``
    Two-player Voronoi of tron.  ``a``, ``b``: flat cells (``int64``) of the two heads;
    ``dist_a``, ``dist_b``, ``queue``: ``int32`` buffers as long as ``free_flat``.
    Returns the numbers of free cells strictly closer to ``a``, strictly closer to
    ``b``, and at equal finite distance, with the semantics of :func:`voronoi_counts`.
    Afterwards ``dist_a[i]`` holds the steps from the nearer head (``0`` at both heads,
    ``-1`` unreached) and ``dist_b[i]`` the owner code: ``1`` ``a`` strictly first,
    ``2`` ``b`` strictly first, ``3`` tie, ``0`` unreached; ``queue`` lists the
    reached cells in order of distance: the heads first (``queue[0] = a``,
    ``queue[1] = b``; only ``a`` when ``a == b``), then the ``n1 + n2 + tie`` others.
    The heads may be blocked cells (they usually are: a head stands on its trail);
    ``a == b`` makes every reached cell a tie.
``voronoi_partition_kernel(free_flat, stride, sources, dist, owner, queue) -> int``
    n-source partition.  ``sources``: ``int64`` flat cells; ``dist``, ``owner``,
    ``queue``: ``int32`` buffers.  Afterwards ``owner[i]`` is the index of the source
    strictly nearest to ``i``, ``-2`` for a tie, ``-1`` unreached; ``dist[i]`` the
    distance to the nearest source.  Returns the number of reached cells.

Both run in O(cells) with no allocation.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..jit import numba  # numba itself is imported on first compile
from ..types import Cell, IntGrid
from .grid import as_free_grid, check_cell, pad_kernel, scratch, source_indices, unpad

__all__ = [
    "voronoi_counts",
    "voronoi_partition",
    "voronoi_kernel",
    "voronoi_partition_kernel",
    "TIE",
    "UNREACHED",
]

#: ``voronoi_partition`` owner code of a cell at equal distance from two or more sources.
TIE = -2
#: ``voronoi_partition`` owner code of a blocked or unreachable cell.
UNREACHED = -1


#: Unsigned constants for wraparound-free indexing (see atlas.analysis.distances).
_U0 = np.uint64(0)
_U1 = np.uint64(1)


@numba.njit(cache=True, inline="always")
def _spread(stride, dist, owner, queue, t, union):  # type: ignore[no-untyped-def]
    """Run the breadth-first queue ``queue[:t]`` to exhaustion; return the final tail.

    ``dist`` holds -1 on unvisited free cells (-2 on walls), the distances of the cells
    queued.  A new cell takes the owner of the cell it is reached from; one reached at
    the same distance from another owner joins it (``union``: owner bits OR'ed) or
    becomes a tie (-2).
    """
    us = np.uint64(stride)
    offs = (_U0 - us, _U1, us, _U0 - _U1)  # modular: v + offs[k] is the neighbour
    h = np.uint64(0)
    while h < t:
        v = np.uint64(queue[h])
        h += _U1
        d = dist[v] + 1
        o = owner[v]
        for k in range(4):
            w = v + offs[k]
            dw = dist[w]
            if dw == -1:
                dist[w] = d
                owner[w] = o
                queue[t] = w
                t += _U1
            elif dw == d:
                if union:
                    owner[w] |= o
                elif owner[w] != o:
                    owner[w] = -2
    return t


@numba.njit(cache=True, inline="always")
def _voronoi_core(stride, a, b, dist, owner, queue):  # type: ignore[no-untyped-def]
    """The search of :func:`voronoi_kernel` on ``dist`` = -1 free / -2 wall, owner 0.

    One BFS from both heads; owner bits: 1 = a, 2 = b, 3 = both (tie).  A cell's owner
    is final when it leaves the queue: every cell one step nearer has been expanded by
    then, and owners only grow by union at equal distance.
    """
    dist[a] = 0
    owner[a] = 1
    queue[0] = a
    t = np.uint64(1)
    if dist[b] == 0:
        owner[b] = 3
    else:
        dist[b] = 0
        owner[b] = 2
        queue[1] = b
        t = np.uint64(2)
    heads = t
    t = _spread(stride, dist, owner, queue, t, True)
    n1 = 0
    n2 = 0
    tie = 0
    for k in range(heads, t):
        o = owner[np.uint64(queue[k])]
        if o == 1:
            n1 += 1
        elif o == 2:
            n2 += 1
        else:
            tie += 1
    return n1, n2, tie


@numba.njit(cache=True)
def voronoi_kernel(free_flat, stride, a, b, dist_a, dist_b, queue):  # type: ignore[no-untyped-def]
    n = free_flat.shape[0]
    for i in range(n):
        dist_a[i] = -1 if free_flat[i] != 0 else -2  # walls -2: one array read per step
        dist_b[i] = 0
    counts = _voronoi_core(stride, a, b, dist_a, dist_b, queue)
    for i in range(n):
        if dist_a[i] == -2:
            dist_a[i] = -1
    return counts


@numba.njit(cache=True, inline="always")
def voronoi_partition_kernel(free_flat, stride, sources, dist, owner, queue):  # type: ignore[no-untyped-def]
    n = free_flat.shape[0]
    for i in range(n):
        dist[i] = -1 if free_flat[i] != 0 else -2  # walls -2: one array read per step
        owner[i] = -1
    t = np.uint64(0)
    for k in range(sources.shape[0]):
        s = sources[k]
        if dist[s] < 0:
            dist[s] = 0
            owner[s] = k
            queue[t] = s
            t += _U1
        elif owner[s] != k:
            owner[s] = -2
    t = _spread(stride, dist, owner, queue, t, False)
    for i in range(n):
        if dist[i] == -2:
            dist[i] = -1
    return np.int64(t)


@numba.njit(cache=True)
def _counts_entry(free2d, a, b, work):  # type: ignore[no-untyped-def]
    # voronoi_kernel without the padded grid: the walls go straight into ``dist``.
    h, w = free2d.shape
    stride = w + 2
    dist = work[0]
    owner = work[1]
    for i in range((h + 2) * stride):
        dist[i] = -2
        owner[i] = 0
    for r in range(h):
        base = (r + 1) * stride + 1
        for c in range(w):
            if free2d[r, c]:
                dist[base + c] = -1
    return _voronoi_core(stride, a, b, dist, owner, work[2])


def voronoi_counts(free: npt.ArrayLike, a: Cell, b: Cell) -> dict[str, int]:
    """Count the free cells each of two players reaches first.

    Parameters
    ----------
    free : array_like of bool, shape (rows, cols)
        ``True`` for a free cell.
    a, b : (row, col)
        The two players' cells (tron heads; seat 1 is ``a``).

    Returns
    -------
    dict
        ``{"p1": n1, "p2": n2, "tie": t}``: the free cells strictly closer (in steps
        through free cells) to ``a``, strictly closer to ``b``, and at equal finite
        distance from both.

    Notes
    -----
    The two start cells are occupied: they count for no one and block paths (the
    distance from ``a`` is measured with ``b`` as a wall, and the other way round);
    they may be free or blocked in ``free``.  Cells neither player can reach count for
    no one, so ``p1 + p2 + tie`` is at most the free cells other than ``a`` and ``b``.
    One breadth-first search from both heads at once that carries an owner per cell
    (a cell reached at the same distance from both owners becomes a tie, and ties
    propagate); it equals two searches, each with the other head as a wall, because a
    shortest path through the other head is never the nearer one.  O(rows x cols).
    The "Voronoi heuristic" of the 2010 Tron contest; see the seed document
    ``tron-tree-of-chambers.txt`` (section 3, part 1).

    Examples
    --------
    >>> voronoi_counts([[1, 1, 1, 1, 1]], (0, 0), (0, 3))
    {'p1': 1, 'p2': 2, 'tie': 0}
    """
    grid = as_free_grid(free)
    h, w = grid.shape
    ar, ac = check_cell(a, grid.shape, "a")
    br, bc = check_cell(b, grid.shape, "b")
    stride = w + 2
    _, work = scratch((h + 2) * stride, 3)
    n1, n2, tie = _counts_entry(
        grid, (ar + 1) * stride + ac + 1, (br + 1) * stride + bc + 1, work
    )
    return {"p1": n1, "p2": n2, "tie": tie}  # numba returns Python ints


@numba.njit(cache=True)
def _partition_entry(free2d, sources, flat, work):  # type: ignore[no-untyped-def]
    pad_kernel(free2d, flat)
    return voronoi_partition_kernel(
        flat, free2d.shape[1] + 2, sources, work[0], work[1], work[2]
    )


def voronoi_partition(free: npt.ArrayLike, sources: Sequence[Cell]) -> IntGrid:
    """Owner of every cell: the index of the strictly nearest source.

    Parameters
    ----------
    free : array_like of bool, shape (rows, cols)
        ``True`` for a free cell.
    sources : sequence of (row, col)
        The sources, indexed ``0..n-1`` in the order given.

    Returns
    -------
    ndarray of int32, shape (rows, cols)
        ``k`` where source ``k`` is strictly nearest (in steps through free cells),
        :data:`TIE` (-2) where two or more sources are nearest, :data:`UNREACHED` (-1)
        where no source reaches (blocked cells included).

    Notes
    -----
    Each source cell is labelled with its own index (distance 0), even when it is a
    blocked cell; two sources on one cell make it a tie.  Paths never pass through
    another source's cell, so on every other cell the result agrees with
    :func:`voronoi_counts`: for two sources, the cells labelled 0, 1 and -2 other
    than the two sources are counted by ``p1``, ``p2`` and ``tie``.
    One breadth-first search from all sources at once that carries an owner per cell:
    a cell reached at the same distance from two different owners becomes a tie, and
    ties propagate.  O(rows x cols), independent of the number of sources.

    Examples
    --------
    >>> voronoi_partition([[1, 1, 1, 1, 1]], [(0, 0), (0, 4)]).tolist()
    [[0, 0, -2, 1, 1]]
    """
    grid = as_free_grid(free)
    h, w = grid.shape
    src = source_indices(grid, sources, "voronoi_partition")
    stride = w + 2
    flat, work = scratch((h + 2) * stride, 3)
    _partition_entry(grid, src, flat, work)
    return unpad(work[1], (h, w))
