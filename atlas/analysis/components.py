"""Connected components of the free cells of a grid (4-neighbourhood).

Kernels (conventions in :mod:`atlas.analysis.grid`)
--------------------------------------------------
``components_kernel(free_flat, stride, labels, queue) -> int``
    Labels every free cell of ``free_flat`` (``uint8``) with its component number
    ``1..n`` in raster order of each component's first cell, ``0`` elsewhere; returns
    ``n``.  ``labels``, ``queue``: ``int32`` buffers as long as ``free_flat``.
``component_size_kernel(free_flat, stride, start, seen, queue) -> int``
    Number of free cells reachable from flat cell ``start`` (``int64``), not counting
    ``start`` itself, which may be blocked (a tron head).  ``seen``, ``queue``: ``int32``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..jit import numba  # numba itself is imported on first compile
from ..types import Cell, IntGrid
from .grid import as_free_grid, check_cell, flat_index, pad_kernel, scratch, unpad

__all__ = ["label_components", "component_size", "components_kernel", "component_size_kernel"]


#: Unsigned constants for wraparound-free indexing (see atlas.analysis.distances).
_U0 = np.uint64(0)
_U1 = np.uint64(1)


@numba.njit(cache=True, inline="always")
def _fill(stride, start, value, mark, queue):  # type: ignore[no-untyped-def]
    """Mark with ``value`` every cell reachable from ``start`` whose mark is 0.

    ``mark`` holds -1 on walls and 0 on unvisited free cells, so one array is read per
    step.
    """
    us = np.uint64(stride)
    offs = (_U0 - us, _U1, us, _U0 - _U1)  # modular: v + offs[k] is the neighbour
    mark[start] = value
    queue[0] = start
    t = _U1
    h = np.uint64(0)
    while h < t:
        v = np.uint64(queue[h])
        h += _U1
        for k in range(4):
            w = v + offs[k]
            if mark[w] == 0:
                mark[w] = value
                queue[t] = w
                t += _U1
    return np.int64(t)


@numba.njit(cache=True, inline="always")
def components_kernel(free_flat, stride, labels, queue):  # type: ignore[no-untyped-def]
    n = free_flat.shape[0]
    for i in range(n):
        labels[i] = np.int32(free_flat[i]) - 1
    count = 0
    for s in range(n):
        if labels[s] == 0:
            count += 1
            _fill(stride, s, count, labels, queue)
    for i in range(n):
        if labels[i] < 0:
            labels[i] = 0
    return count


@numba.njit(cache=True)
def component_size_kernel(free_flat, stride, start, seen, queue):  # type: ignore[no-untyped-def]
    n = free_flat.shape[0]
    for i in range(n):
        seen[i] = np.int32(free_flat[i]) - 1
    return _fill(stride, start, 1, seen, queue) - 1


@numba.njit(cache=True)
def _label_entry(free2d, flat, work):  # type: ignore[no-untyped-def]
    pad_kernel(free2d, flat)
    return components_kernel(flat, free2d.shape[1] + 2, work[0], work[1])


def label_components(free: npt.ArrayLike) -> tuple[IntGrid, int]:
    """Label the 4-connected components of the free cells.

    Parameters
    ----------
    free : array_like of bool, shape (rows, cols)
        ``True`` for a free cell.

    Returns
    -------
    labels : ndarray of int32, shape (rows, cols)
        ``0`` for blocked cells; components numbered ``1..n`` in raster order of their
        first cell (the component holding the first free cell met row by row is 1).
    n : int
        The number of components.

    Notes
    -----
    One breadth-first flood fill per component over the padded flat grid
    (:mod:`atlas.analysis.grid`), started from each unlabelled free cell in raster
    order: O(rows x cols) time, no allocation beyond the result.

    Examples
    --------
    >>> labels, n = label_components([[1, 0, 1], [1, 0, 0]])
    >>> n, labels.tolist()
    (2, [[1, 0, 2], [1, 0, 0]])
    """
    grid = as_free_grid(free)
    h, w = grid.shape
    flat, work = scratch((h + 2) * (w + 2), 2)
    n = _label_entry(grid, flat, work)
    return unpad(work[0], (h, w)), int(n)


def component_size(free: npt.ArrayLike, start: Cell) -> int:
    """Number of free cells reachable from ``start``, ``start`` itself not counted.

    ``start`` may be a blocked cell (a tron cycle's head stands on its own trail); the
    walk starts there and moves only through free cells.

    Examples
    --------
    >>> component_size([[1, 1, 0, 1]], (0, 0))
    1
    """
    grid = as_free_grid(free)
    h, w = grid.shape
    r, c = check_cell(start, grid.shape, "start")
    flat, work = scratch((h + 2) * (w + 2), 2)
    pad_kernel(grid, flat)
    return int(component_size_kernel(flat, w + 2, flat_index((r, c), w + 2), work[0], work[1]))
