"""The checkerboard (parity) bound on how many moves a player can still make.

Colour the board like a chessboard.  Every move steps onto the other colour, so a walk
that never revisits a cell alternates colours, and the cells of the rarer colour bound
its length.  This is the red/black argument the 2010 Tron winner mentions (seed
``tron-tree-of-chambers.txt``, section 4, "The Chessboard Problem").

Kernels (conventions in :mod:`atlas.analysis.grid`)
--------------------------------------------------
``parity_kernel(free_flat, stride, start, dist, queue) -> int``
    The bound of :func:`parity_bound` for the player on flat cell ``start``
    (``int64``; may be blocked, as a tron head is).  ``dist``, ``queue``: ``int32``
    buffers; afterwards ``dist`` holds the BFS distances from ``start``.
``parity_from_counts(same, other) -> int``
    The formula alone, from the cell counts of the two colours.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..jit import numba  # numba itself is imported on first compile
from ..types import Cell
from .distances import _expand, _finish_dist, _init_dist
from .grid import as_free_grid, check_cell, pad_kernel, scratch

__all__ = ["parity_bound", "parity_kernel", "parity_from_counts"]


@numba.njit(cache=True)
def parity_from_counts(same, other):  # type: ignore[no-untyped-def]
    if other > same:
        return 2 * same + 1
    return 2 * other


@numba.njit(cache=True)
def parity_kernel(free_flat, stride, start, dist, queue):  # type: ignore[no-untyped-def]
    _init_dist(free_flat, dist)
    dist[start] = 0
    queue[0] = start
    tail = _expand(stride, dist, queue, 0, 1)
    _finish_dist(dist)
    other = 0
    for k in range(1, tail):
        other += dist[np.uint64(queue[k])] & 1
    same = tail - 1 - other
    return parity_from_counts(same, other)


@numba.njit(cache=True)
def _parity_entry(free2d, start, flat, work):  # type: ignore[no-untyped-def]
    pad_kernel(free2d, flat)
    return parity_kernel(flat, free2d.shape[1] + 2, start, work[0], work[1])


def parity_bound(free: npt.ArrayLike, start: Cell) -> int:
    """Upper bound on the moves a player on ``start`` can make, by the colouring.

    Parameters
    ----------
    free : array_like of bool, shape (rows, cols)
        ``True`` for a free cell.
    start : (row, col)
        The player's cell; it may be free or blocked and is not counted.

    Returns
    -------
    int
        With ``S`` the free cells reachable from ``start`` that have its colour
        (``(row + col) % 2`` equal; ``start`` excluded) and ``O`` those of the other
        colour, the bound is ``2 * S + 1`` when ``O > S`` and ``2 * O`` otherwise.

    Notes
    -----
    A walk that never revisits a cell steps on colours other, same, other, ... so
    after ``k`` moves it has used ``ceil(k / 2)`` cells of the other colour and
    ``floor(k / 2)`` of its own; both must be available, which gives the formula.
    On a grid the colour of a reachable cell is the parity of its distance from
    ``start``, so one breadth-first search counts both: O(rows x cols).  The bound is
    exact on a corridor entered from its end and on a rectangular room entered from a
    corner, and never below the true longest walk.

    Examples
    --------
    >>> parity_bound([[1, 1, 1, 1]], (0, 0))
    3
    >>> parity_bound([[1, 1, 1], [1, 0, 1]], (1, 0))
    4
    """
    grid = as_free_grid(free)
    h, w = grid.shape
    r, c = check_cell(start, grid.shape, "start")
    stride = w + 2
    flat, work = scratch((h + 2) * stride, 2)
    return int(_parity_entry(grid, (r + 1) * stride + c + 1, flat, work))
