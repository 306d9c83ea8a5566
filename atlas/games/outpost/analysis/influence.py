"""Outpost influence, affordability and supply lines.

The three questions the Outpost rules ask of a position, as plain functions over
``[row, col]`` grids, each backed by a numba kernel that compiled code (the game engine,
outpost bots) calls directly on padded flat arrays:

* :func:`influence` -- who controls each cell: the empire(s) whose outposts are nearest
  in the Manhattan metric, if within the radius ``r``; land and water counted per empire.
* :func:`affordable` -- how many outposts an empire can keep for given ``L`` and ``W``.
* :func:`supply_lines` -- which outposts have a supply line to their home cell.

Rules (spec ``outpost-2014-spec.txt``, as the 2014 simulator applies them)
---------------------------------------------------------------------------
Ownership
    For a cell C let d be the Manhattan distance to the nearest outpost of any empire.
    ``d > r``: C is neutral; ``d <= r`` and one empire has an outpost at distance d: C is
    controlled by it; several empires at d: C is disputed (it counts for no one).  Water
    does not block influence: distances are plain Manhattan distances on the board.
Affordability
    An empire controlling ``land`` land and ``water`` water cells can afford
    ``n = floor(min(land / L, water / W)) + 1`` outposts.  With ``L = 0`` (or ``W = 0``)
    that resource sets no limit; with both 0 the number is unlimited
    (:data:`UNLIMITED`).  ``official=True`` reproduces the 2014 simulator's Java
    arithmetic instead: ``0 / 0`` is NaN and gives ``n = 1``; ``x / 0`` is infinite and
    with both infinite the int conversion saturates and ``+ 1`` overflows to
    ``-2**31``.
Supply lines
    A cell is *good* for empire E if it is land and neutral or controlled by E alone.
    An outpost survives if it stands on its home cell, or if the home cell is good and
    there is an orthogonal path of good cells from home to a neighbour of the outpost
    (the outpost's own cell is not tested).  So two enemy outposts on one cell both
    survive when each has a good neighbour linked home (the spec's "When would mutual
    disbandment not happen?"), and a disputed home cell cuts every outpost off home.

Kernel conventions
------------------
As in :mod:`atlas.analysis.grid`: ``land_flat`` is the padded flat ``uint8`` grid (1 =
land, 0 = water or border) of stride ``W + 2``; ``board_flat`` is the same shape with 1
on every board cell (land or water) and 0 on the border; cells are ``int64`` flat
indices; buffers are ``int32`` arrays as long as ``land_flat``, reinitialised by the
kernel.  Owner codes are :data:`NEUTRAL` (-1), :data:`DISPUTED` (-2) or the empire
(0, 1, ...).

``ownership_kernel(land_flat, board_flat, stride, r, cells, empires, owner, dist, mask,
queue, counts) -> int``
    Writes the owner of every cell into ``owner``; ``counts[e, 0]``, ``counts[e, 1]``,
    ``counts[e, 2]`` (``int64``, shape ``(n_empires, 3)``, zeroed by the kernel) receive
    empire e's land, water and disputed-among cells.  Returns the number of cells
    within ``r`` of some outpost.  ``board_flat`` and ``queue`` are not read (kept for
    a stable signature); ``mask`` is scratch (the transposed grid of the distance
    transform with many outposts, the empire sets with more than 8 empires).  ``dist``
    is left holding ``(distance << 8) | empire bits`` per cell (up to 8 empires; at
    least ``(r + 1) << 8`` beyond ``r``).
``ownership_update(land_flat, stride, r, cells, empires, boxes, owner, dist, counts)``
    Brings ``owner``, ``counts`` and the packed grid ``dist`` left by
    :func:`ownership_kernel` up to date for new outposts when only the cells inside
    ``boxes`` (``int64`` rows: first row, last row, first column, last column, padded
    coordinates) can have changed: the game engine's turn when few outposts moved.
``supply_kernel(land_flat, stride, owner, empire, home, cells, alive, mark, link, seen,
heads) -> int``
    ``alive[i]`` (``uint8``) is set to 1 if outpost ``cells[i]`` of ``empire`` has a
    supply line to ``home``, else 0.  Returns the number of survivors.
``supply_core(...)``
    The same, for callers checking several empires with one set of buffers: ``mark``
    must be all 0 and ``heads`` all -1 on entry, and are left so (no 10,000-cell reset
    per call).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from ....analysis.grid import GridError, as_free_grid, check_cell, pad_free
from ....types import Cell, IntGrid
from .kernels import ownership_kernel, ownership_update
from .supply import supply_core, supply_kernel

__all__ = [
    "NEUTRAL",
    "DISPUTED",
    "UNLIMITED",
    "Influence",
    "influence",
    "OwnershipBoard",
    "reach",
    "affordable",
    "supply_lines",
    "default_homes",
    "outpost_cells",
    "ownership_kernel",
    "ownership_update",
    "supply_kernel",
    "supply_core",
]

#: Owner code of a cell farther than ``r`` from every outpost.
NEUTRAL: Final = -1
#: Owner code of a cell with outposts of several empires at the nearest distance.
DISPUTED: Final = -2
#: :func:`affordable` with ``L = W = 0`` (spec rules): no limit.
UNLIMITED: Final = 2**31 - 1

_INT32_MIN: Final = -(2**31)


# --------------------------------------------------------------------------- public API


@dataclass(frozen=True, eq=False)
class Influence:
    """Who controls what.

    Attributes
    ----------
    owner : ndarray of int32, shape (rows, cols)
        :data:`NEUTRAL`, :data:`DISPUTED` or the controlling empire, per cell.
    land, water : ndarray of int64, shape (n_empires,)
        Land and water cells each empire controls alone.
    disputed : ndarray of int64, shape (n_empires,)
        Disputed cells each empire is among (the official traces record these).
    """

    owner: IntGrid
    land: npt.NDArray[np.int64]
    water: npt.NDArray[np.int64]
    disputed: npt.NDArray[np.int64]


def default_homes(shape: tuple[int, int], n_empires: int = 4) -> tuple[Cell, ...]:
    """The corners clockwise from the top-left, as :data:`atlas.maps.OUTPOST_HOMES`.

    >>> default_homes((100, 100))
    ((0, 0), (0, 99), (99, 99), (99, 0))
    """
    h, w = shape
    corners = ((0, 0), (0, w - 1), (h - 1, w - 1), (h - 1, 0))
    if not 1 <= n_empires <= 4:
        raise GridError(f"default homes exist for 1 to 4 empires, got {n_empires}")
    return corners[:n_empires]


def outpost_cells(
    outposts: Sequence[npt.ArrayLike],
    shape: tuple[int, int],
) -> list[npt.NDArray[np.int32]]:
    """Check per-empire outpost lists and return them as ``int32`` arrays ``(k, 2)``.

    Raises
    ------
    GridError
        An entry is not a ``(row, col)`` pair of integers inside the grid, or there are
        more than 30 empires.
    """
    if len(outposts) > 30:
        raise GridError(f"at most 30 empires, got {len(outposts)}")
    out = []
    for e, cells in enumerate(outposts):
        arr = np.asarray(cells)
        if arr.size == 0:
            out.append(np.zeros((0, 2), dtype=np.int32))
            continue
        if arr.ndim != 2 or arr.shape[1] != 2 or arr.dtype.kind not in "iu":
            raise GridError(
                f"outposts of empire {e} must be (row, col) integer pairs, "
                f"got {np.asarray(cells).tolist()!r:.60}"
            )
        bad = (
            (arr[:, 0] < 0)
            | (arr[:, 0] >= shape[0])
            | (arr[:, 1] < 0)
            | (arr[:, 1] >= shape[1])
        )
        if bad.any():
            i = int(np.argmax(bad))
            check_cell(tuple(int(v) for v in arr[i]), shape, f"outpost {i} of empire {e}")
        out.append(arr.astype(np.int32))
    return out


def _flat_cells(
    cells: Sequence[npt.NDArray[np.int32]],
    stride: int,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    if not cells:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    allc = np.concatenate(cells).astype(np.int64)
    flat = (allc[:, 0] + 1) * stride + allc[:, 1] + 1
    emp = np.repeat(np.arange(len(cells), dtype=np.int64), [len(c) for c in cells])
    return flat, emp


def influence(water: npt.ArrayLike, outposts: Sequence[npt.ArrayLike], r: int) -> Influence:
    """Ownership of every cell by the empires' outposts, and what each empire controls.

    Parameters
    ----------
    water : array_like of bool, shape (rows, cols)
        ``True`` for water, ``False`` for land (``GameMap.blocked`` of an outpost map).
    outposts : sequence of array_like, shape (k_e, 2)
        Per empire, its outposts as ``[row, col]`` (any order; duplicates allowed).
    r : int
        Radius of influence (Manhattan), ``r >= 0``.

    Returns
    -------
    Influence

    Notes
    -----
    Each outpost stamps its diamond of radius ``r`` (water does not block influence)
    into a per-cell nearest distance and a bitmask of the empires at that distance;
    one pass over the board then reads owners and counts.  Cost
    ``O(cells + outposts * (2r^2 + 2r + 1))`` in tight row-contiguous loops, which beat
    a breadth-first search from all outposts (random access, four neighbour tests per
    cell) up to hundreds of outposts on the 100x100 board.

    References
    ----------
    ``outpost-2014-spec.txt`` (neutral, disputed, controlled); the official simulator's
    counts, ``outpost-official.md``.

    Examples
    --------
    >>> inf = influence([[False] * 5], [[[0, 0]], [[0, 4]]], r=3)
    >>> inf.owner.tolist(), inf.land.tolist()
    ([[0, 0, -2, 1, 1]], [2, 2])
    """
    wat = as_free_grid(water, "water")
    board = OwnershipBoard(wat, _check_radius(r))
    cells = outpost_cells(outposts, wat.shape)
    flat, emp = _flat_cells(cells, board.stride)
    counts = np.zeros((len(cells), 3), np.int64)
    grid = board.owner(flat, emp, counts).copy()
    return Influence(grid, counts[:, 0].copy(), counts[:, 1].copy(), counts[:, 2].copy())


class OwnershipBoard:
    """:func:`influence`'s kernel on one board, its padded grids and buffers made once:
    the ownership of many positions of one game (a replay's 500 turns).

    Parameters
    ----------
    water : ndarray of bool, shape (rows, cols)
        ``True`` for water (checked by the caller: :func:`influence` checks it).
    r : int
        Radius of influence, ``r >= 0``.

    Examples
    --------
    >>> board = OwnershipBoard(np.zeros((1, 5), bool), 3)
    >>> cells = np.array([board.stride + 1, board.stride + 5])  # (0, 0) and (0, 4)
    >>> board.owner(cells, np.array([0, 1]), np.zeros((2, 3), np.int64)).tolist()
    [[0, 0, -2, 1, 1]]
    """

    def __init__(self, water: npt.NDArray[np.bool_], r: int) -> None:
        self.shape = water.shape
        self.r = reach(r, water.shape)
        self.land_flat, self.stride = pad_free(~water)
        self.board_flat, _ = pad_free(np.ones_like(water))
        n = self.land_flat.shape[0]
        self._owner = np.empty(n, np.int32)
        self._bufs = np.empty((3, n), np.int32)

    def owner(
        self, flat: npt.NDArray[np.int64], empires: npt.NDArray[np.int64], counts: np.ndarray
    ) -> IntGrid:
        """The owner of every cell (a view the next call overwrites) of the outposts at
        the padded flat cells ``flat`` (``(row + 1) * stride + col + 1``) of
        ``empires``; ``counts[e]`` (``int64``, one row per empire) receives empire e's
        land, water and disputed cells."""
        b = self._bufs
        ownership_kernel(
            self.land_flat,
            self.board_flat,
            self.stride,
            self.r,
            flat,
            empires,
            self._owner,
            b[0],
            b[1],
            b[2],
            counts,
        )
        h, w = self.shape
        return self._owner.reshape(h + 2, w + 2)[1:-1, 1:-1]


def _check_radius(r: object) -> int:
    if isinstance(r, bool) or not isinstance(r, (int, np.integer)) or r < 0:
        raise GridError(f"radius r must be a whole number >= 0, got {r!r}")
    return int(r)


def reach(r: int, shape: tuple[int, ...]) -> int:
    """The radius the kernels are given for the radius ``r`` on a board of ``shape``:
    ``r``, or ``rows + cols`` when ``r`` is larger.

    No two cells of the board are that far apart, so every cell is then within reach of
    every outpost, as with any larger radius, and the ownership is the same.  The
    kernels pack ``distance << 8`` in 32 bits and stamp ``(2r + 1)^2`` templates: a
    radius of ``2**62`` would overflow the one and exhaust memory with the other.

    >>> reach(10, (100, 100)), reach(2**62, (100, 100))
    (10, 200)
    """
    return min(int(r), int(shape[0]) + int(shape[1]))


def affordable(land: int, water: int, L: int, W: int, *, official: bool = False) -> int:
    """How many outposts an empire controlling ``land`` and ``water`` cells can afford.

    The largest ``n`` with ``(n - 1) * L <= land`` and ``(n - 1) * W <= water``, i.e.
    ``floor(min(land / L, water / W)) + 1``; a cost of 0 sets no limit, and
    ``L = W = 0`` gives :data:`UNLIMITED`.

    Parameters
    ----------
    land, water : int
        Cells controlled (``>= 0``).
    L, W : int
        Land and water cost per additional outpost (``>= 0``).
    official : bool
        Reproduce the 2014 simulator's double arithmetic: ``min`` propagates NaN
        (``0 / 0``) and NaN converts to 0, so ``W = 0`` without water gives 1; with
        ``L = W = 0`` and both resources present the saturated ``2**31 - 1`` plus one
        overflows to ``-2**31`` (every empire must disband every season).

    Examples
    --------
    >>> affordable(120, 12, 20, 5), affordable(0, 0, 20, 5), affordable(50, 0, 20, 0)
    (3, 1, 3)
    >>> affordable(50, 0, 20, 0, official=True), affordable(5, 5, 0, 0, official=True)
    (1, -2147483648)
    """
    for name, v in (("land", land), ("water", water), ("L", L), ("W", W)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
            raise ValueError(f"{name} must be a whole number >= 0, got {v!r}")
    land, water, L, W = int(land), int(water), int(L), int(W)
    if official:
        a = _java_div(land, L)
        b = _java_div(water, W)
        m = math.nan if (math.isnan(a) or math.isnan(b)) else min(a, b)
        if math.isnan(m):
            k = 0
        elif math.isinf(m):
            k = 2**31 - 1
        else:
            k = min(int(math.floor(m)), 2**31 - 1)
        n = k + 1
        return n - 2**32 if n >= 2**31 else n
    limits = [res // cost for res, cost in ((land, L), (water, W)) if cost > 0]
    if not limits:
        return UNLIMITED
    return min(min(limits) + 1, UNLIMITED)


def _java_div(a: int, b: int) -> float:
    if b != 0:
        return a / b
    return math.nan if a == 0 else math.inf


def supply_lines(
    water: npt.ArrayLike,
    owner: npt.ArrayLike,
    outposts: Sequence[npt.ArrayLike],
    homes: Sequence[Cell] | None = None,
) -> list[npt.NDArray[np.bool_]]:
    """Which outposts have a supply line to their empire's home cell.

    Parameters
    ----------
    water : array_like of bool, shape (rows, cols)
        ``True`` for water.
    owner : array_like of int, shape (rows, cols)
        Owner codes, as :attr:`Influence.owner`.
    outposts : sequence of array_like, shape (k_e, 2)
        Per empire, its outposts as ``[row, col]``.
    homes : sequence of (row, col), optional
        Per empire, its home cell; default :func:`default_homes`.

    Returns
    -------
    list of ndarray of bool
        Per empire, ``True`` for each outpost (in list order) that keeps its supply line.

    Notes
    -----
    Per empire, outposts nearest home first, one search per unresolved neighbour of an
    outpost towards the nearest cell already known to reach home (home itself or where
    an earlier search started): first a straight monotone walk, then, if the walk is
    blocked, a greedy best-first search (a bucket queue keyed by the Manhattan
    distance).  Each search stops at the first cell known to reach home (or known
    not to) and labels every cell it entered with its answer, so each good cell is
    entered at most once per empire: ``O(cells)`` in the worst case, about the distance
    between neighbouring outposts per outpost in open country.

    References
    ----------
    ``outpost-2014-spec.txt`` (supply lines); ``outpost-official.md`` ("Supply lines (the
    subtle one)").

    Examples
    --------
    >>> land = [[False] * 5]
    >>> supply_lines(land, [[0, 0, -2, 1, 1]], [[[0, 0], [0, 2]], [[0, 4]]])
    ... # doctest: +NORMALIZE_WHITESPACE
    [array([ True,  True]), array([ True])]
    """
    wat = as_free_grid(water, "water")
    own = np.asarray(owner)
    if own.shape != wat.shape or own.dtype.kind not in "iu":
        raise GridError(
            f"owner must be an integer grid of shape {wat.shape}, got {own.dtype} {own.shape}"
        )
    cells = outpost_cells(outposts, wat.shape)
    if homes is None:
        homes = default_homes(wat.shape, len(cells))
    if len(homes) != len(cells):
        raise GridError(f"{len(cells)} empires but {len(homes)} homes")
    homes = [check_cell(hc, wat.shape, f"home of empire {e}") for e, hc in enumerate(homes)]
    land_flat, stride = pad_free(~wat)
    h, w = wat.shape
    n = land_flat.shape[0]
    owner_flat = np.full(n, NEUTRAL, np.int32)
    owner_flat.reshape(h + 2, w + 2)[1:-1, 1:-1] = own
    bufs = np.empty((4, n), np.int32)
    out = []
    for e, arr in enumerate(cells):
        flat = (arr[:, 0].astype(np.int64) + 1) * stride + arr[:, 1] + 1
        alive = np.zeros(len(flat), np.uint8)
        home = (homes[e][0] + 1) * stride + homes[e][1] + 1
        supply_kernel(
            land_flat,
            stride,
            owner_flat,
            e,
            home,
            flat,
            alive,
            bufs[0],
            bufs[1],
            bufs[2],
            bufs[3],
        )
        out.append(alive.astype(bool))
    return out
