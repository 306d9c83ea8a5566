"""The padded flat grid every analysis kernel works on, and helpers to build it.

Kernel conventions (shared by every ``*_kernel`` in :mod:`atlas.analysis`)
-------------------------------------------------------------------------
A grid of ``H`` rows and ``W`` columns is handed to kernels as a flat ``uint8`` array
``free_flat`` of length ``(H + 2) * (W + 2)``: the grid surrounded by a one-cell wall
border, row-major.  ``free_flat[i]`` is :data:`FREE` (1) for a free cell and
:data:`BLOCKED` (0) for a wall, water, trail or border cell.

* ``stride = W + 2``; cell ``(r, c)`` has index ``i = (r + 1) * stride + (c + 1)``
  (:func:`flat_index`); its four neighbours are ``i - stride`` (north), ``i + 1``
  (east), ``i + stride`` (south) and ``i - 1`` (west).  The border means a kernel
  never tests bounds.
* Flat order is raster order: increasing ``i`` visits cells row by row.
* Cell arguments of kernels are flat indices (``int64``); "no cell" is ``-1``.
* Buffers are preallocated by the caller, 1-D, C-contiguous, as long as ``free_flat``
  (``int32`` unless a kernel says otherwise) and fully (re)initialised by the kernel
  that uses them, so one set of buffers serves any number of calls and a kernel
  allocates nothing.  :func:`new_buffers` makes them.
* One dtype per argument (``uint8`` grid, ``int64`` scalars and cell lists, ``int32``
  buffers, ``uint8`` masks) keeps one compiled signature per kernel.

Compiled search code (bots) calls the kernels directly with its own buffers; the public
functions of each module validate ``[row, col]`` input, pad it here and call them.
Pass variables rather than literal constants for scalar arguments from compiled code
(numba compiles a separate version for each literal value).  A ``cache=True`` function
that calls a kernel keeps the kernel's code as it was when it was compiled (numba only
watches the caller's own file); atlas's cache folder is keyed by every compiled source,
so a changed kernel starts a fresh cache (:mod:`atlas.jit`).

Inside kernels, cell indices are ``uint64`` values: numba then skips its negative-index
wraparound test on every array access (40 % of a BFS step).  Never mix them with
signed integers in arithmetic (numba would promote the result to float).

Kernels here
------------
``pad_kernel(free2d, out) -> None``
    ``free2d``: C-contiguous 2-D ``bool`` array (``True`` = free); ``out``: ``uint8``
    of length ``(H + 2) * (W + 2)``, overwritten with the padded flat grid.
"""

from __future__ import annotations

import operator
import threading
from collections.abc import Sequence
from typing import Final, TypeVar

import numpy as np
import numpy.typing as npt

from ..errors import AtlasError, located
from ..jit import numba  # numba itself is imported on first compile
from ..types import Cell, Grid, IntGrid

__all__ = [
    "source_indices",
    "FREE",
    "BLOCKED",
    "GridError",
    "as_free_grid",
    "check_cell",
    "flat_index",
    "cell_of",
    "pad_free",
    "pad_kernel",
    "unpad",
    "new_buffers",
    "scratch",
]

#: ``free_flat`` code of a cell that can be entered.
FREE: Final = 1
#: ``free_flat`` code of a wall, water, trail or border cell.
BLOCKED: Final = 0


_BOOL = np.dtype(np.bool_)
G = TypeVar("G", bound=np.generic)


class GridError(AtlasError, ValueError):
    """A grid or a cell handed to an analysis that cannot be analysed."""

    def __init__(self, message: str) -> None:
        super().__init__(located(None, None, message))


def as_free_grid(free: npt.ArrayLike, name: str = "free") -> Grid:
    """Return ``free`` as a writeable C-contiguous 2-D ``bool`` array (``True`` = free).

    Raises
    ------
    GridError
        ``free`` is not a non-empty 2-D grid of booleans or numbers.
    """
    if type(free) is np.ndarray and free.dtype is _BOOL and free.ndim == 2 and free.size:
        flags = free.flags
        if flags.c_contiguous and flags.writeable:
            return free  # the common case, kept cheap for per-move callers
    arr = np.asarray(free)
    if arr.ndim != 2 or arr.shape[0] < 1 or arr.shape[1] < 1:
        raise GridError(f"{name} must be a non-empty 2-D grid, got shape {arr.shape}")
    if arr.dtype != np.bool_:
        if arr.dtype.kind not in "biuf":
            raise GridError(f"{name} must hold booleans (True = free), got dtype {arr.dtype}")
        arr = arr != 0
    arr = np.ascontiguousarray(arr)
    # One compiled signature per kernel: read-only grids (GameMap.blocked) are copied.
    return arr if arr.flags.writeable else arr.copy()


def check_cell(cell: object, shape: tuple[int, ...], name: str = "cell") -> Cell:
    """Return ``cell`` as ``(row, col)`` ints, checked to lie inside ``shape``.

    Raises
    ------
    GridError
        ``cell`` is not a pair of integers inside the grid.
    """
    if type(cell) is tuple and len(cell) == 2:
        r, c = cell
        if type(r) is int and type(c) is int and 0 <= r < shape[0] and 0 <= c < shape[1]:
            return cell  # the common case, kept cheap for per-move callers
    try:
        r, c = cell  # type: ignore[misc]
        ri = operator.index(r)
        ci = operator.index(c)
    except (TypeError, ValueError):
        raise GridError(f"{name} must be a (row, col) pair of integers, got {cell!r}") from None
    if not (0 <= ri < shape[0] and 0 <= ci < shape[1]):
        raise GridError(
            f"{name} {(ri, ci)} is outside the {shape[0]}x{shape[1]} grid (rows x columns)"
        )
    return ri, ci


def flat_index(cell: Cell, stride: int) -> int:
    """Index of ``cell = (row, col)`` in a padded flat grid of row length ``stride``."""
    return (cell[0] + 1) * stride + cell[1] + 1


def cell_of(index: int, stride: int) -> Cell:
    """Inverse of :func:`flat_index`."""
    r, c = divmod(int(index), stride)
    return r - 1, c - 1


def source_indices(grid: Grid, sources: Sequence[object], caller: str) -> npt.NDArray[np.int64]:
    """Padded flat indices (int64) of ``sources``, each checked against ``grid``'s shape.

    Raises ``GridError`` naming ``caller`` when there is no source.
    """
    cells = [check_cell(s, grid.shape, "source") for s in sources]
    if not cells:
        raise GridError(f"{caller} needs at least one source cell")
    stride = grid.shape[1] + 2
    return np.array([flat_index(c, stride) for c in cells], dtype=np.int64)


@numba.njit(cache=True, inline="always")
def pad_kernel(free2d, out):  # type: ignore[no-untyped-def]
    h, w = free2d.shape
    stride = w + 2
    for c in range(stride):
        out[c] = 0
        out[(h + 1) * stride + c] = 0
    for r in range(h):
        base = (r + 1) * stride
        out[base] = 0
        out[base + w + 1] = 0
        for c in range(w):
            out[base + 1 + c] = 1 if free2d[r, c] else 0


def pad_free(free: npt.ArrayLike) -> tuple[npt.NDArray[np.uint8], int]:
    """Return ``(free_flat, stride)``: ``free`` padded with a wall border, flattened.

    Examples
    --------
    >>> flat, stride = pad_free([[True, False]])
    >>> stride, flat.reshape(3, 4).tolist()
    (4, [[0, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0]])
    """
    grid = as_free_grid(free)
    h, w = grid.shape
    out = np.zeros((h + 2) * (w + 2), dtype=np.uint8)
    out.reshape(h + 2, w + 2)[1:-1, 1:-1] = grid
    return out, w + 2


def unpad(flat: npt.NDArray[G], shape: tuple[int, int]) -> npt.NDArray[G]:
    """The ``(rows, cols)`` interior of a padded flat array, as a 2-D copy."""
    h, w = shape
    return flat.reshape(h + 2, w + 2)[1:-1, 1:-1].copy()


def new_buffers(size: int, rows: int = 1) -> npt.NDArray[np.int32]:
    """Fresh ``int32`` buffers for kernels: shape ``(rows, size)``, C-contiguous.

    Each row ``buf[k]`` is a valid 1-D kernel buffer.  ``size`` is ``len(free_flat)``.
    """
    return np.zeros((rows, size), dtype=np.int32)


_local = threading.local()


def scratch(size: int, rows: int) -> tuple[npt.NDArray[np.uint8], IntGrid]:
    """Per-thread reusable ``(flat uint8 [size], int32 [rows, size])`` work arrays.

    The public wrappers use these so that a call allocates nothing but its result.
    Kernels reinitialise whatever they read, and a wrapper copies out anything it
    returns, so sharing them between calls (never between threads) is safe.
    """
    cache = getattr(_local, "cache", None)
    if cache is None:
        cache = _local.cache = {}
    key = (size, rows)
    hit = cache.get(key)
    if hit is None:
        if len(cache) > 16:
            cache.clear()
        hit = cache[key] = (
            np.zeros(size, dtype=np.uint8),
            np.zeros((rows, size), dtype=np.int32),
        )
    return hit
