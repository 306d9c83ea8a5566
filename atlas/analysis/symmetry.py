"""The symmetries of a board that treat its seats alike.

A map is fair by construction when some symmetry of the board carries the walls onto
themselves and every start onto another seat's start: whatever one seat can do, the
seat it is carried onto can do in the mirror image.  The six candidate symmetries are
named in numpy's words (:data:`SYMMETRIES`); on a board of ``H`` rows and ``W``
columns, the cell ``(r, c)`` goes to

===================== ======================== =========================
name                  cell ``(r, c)`` goes to  numpy
===================== ======================== =========================
``rot90``             ``(W-1-c, r)``           ``np.rot90(grid)``
``rot180``            ``(H-1-r, W-1-c)``       ``np.rot90(grid, 2)``
``flip-lr``           ``(r, W-1-c)``           ``np.fliplr(grid)``
``flip-ud``           ``(H-1-r, c)``           ``np.flipud(grid)``
``transpose``         ``(c, r)``               ``grid.T``
``antitranspose``     ``(W-1-c, H-1-r)``       ``np.rot90(grid, 2).T``
===================== ======================== =========================

``rot90``, ``transpose`` and ``antitranspose`` exist only on square boards.  A board
that ``rot90`` maps onto itself is also mapped onto itself by a quarter turn the other
way (its inverse), so ``rot90`` stands for both.

:func:`board_symmetries` lists those that carry the walls onto themselves and each
start onto *another* seat's start (so a board without two starts has none that treats
seats alike, except that a board with no starts at all keeps every symmetry of its
walls: nothing is asked of starts it does not have).  :func:`seat_classes` groups the
seats that some chain of the board's symmetries carries onto each other.

Everything here is a whole-array comparison: O(cells), no kernel needed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from ..types import Cell

__all__ = [
    "SYMMETRIES",
    "SQUARE_ONLY",
    "transform_cell",
    "transform_grid",
    "seat_permutation",
    "board_symmetries",
    "seat_classes",
]

#: The candidate symmetries, in the order reports list them.
SYMMETRIES: tuple[str, ...] = (
    "rot90",
    "rot180",
    "flip-lr",
    "flip-ud",
    "transpose",
    "antitranspose",
)
#: The symmetries that exist only when the board has as many rows as columns.
SQUARE_ONLY = frozenset({"rot90", "transpose", "antitranspose"})

_CELL: dict[str, Callable[[int, int, int, int], Cell]] = {
    "rot90": lambda r, c, h, w: (w - 1 - c, r),
    "rot180": lambda r, c, h, w: (h - 1 - r, w - 1 - c),
    "flip-lr": lambda r, c, h, w: (r, w - 1 - c),
    "flip-ud": lambda r, c, h, w: (h - 1 - r, c),
    "transpose": lambda r, c, h, w: (c, r),
    "antitranspose": lambda r, c, h, w: (w - 1 - c, h - 1 - r),
}
_GRID: dict[str, Callable[[npt.NDArray[np.bool_]], npt.NDArray[np.bool_]]] = {
    "rot90": lambda g: np.rot90(g),
    "rot180": lambda g: np.rot90(g, 2),
    "flip-lr": np.fliplr,
    "flip-ud": np.flipud,
    "transpose": lambda g: g.T,
    "antitranspose": lambda g: np.rot90(g, 2).T,
}


def _check_name(name: str) -> None:
    if name not in _CELL:
        raise ValueError(f"unknown symmetry {name!r}; expected one of {', '.join(SYMMETRIES)}")


def transform_cell(name: str, shape: tuple[int, int], cell: Cell) -> Cell:
    """Where the symmetry ``name`` carries ``cell`` (``(row, col)``) on a board of
    ``shape`` (rows, cols).

    Examples
    --------
    >>> transform_cell("rot90", (3, 3), (0, 0))
    (2, 0)
    >>> transform_cell("flip-lr", (2, 5), (1, 1))
    (1, 3)
    """
    _check_name(name)
    h, w = int(shape[0]), int(shape[1])
    r, c = _CELL[name](int(cell[0]), int(cell[1]), h, w)
    return int(r), int(c)


def transform_grid(name: str, grid: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    """The image of a boolean ``grid`` under the symmetry ``name``: ``out[transform_cell(
    name, grid.shape, (r, c))] == grid[r, c]`` for every cell.

    Raises ``ValueError`` for a symmetry that needs a square board on one that is not.
    """
    _check_name(name)
    g = np.asarray(grid, dtype=np.bool_)
    if g.ndim != 2:
        raise ValueError(f"expected a 2-D grid, got shape {g.shape}")
    if name in SQUARE_ONLY and g.shape[0] != g.shape[1]:
        raise ValueError(f"{name} needs a square board, got {g.shape[0]} x {g.shape[1]}")
    return _GRID[name](g)


def _starts(starts: Sequence[Cell], shape: tuple[int, int]) -> list[Cell]:
    out = []
    for k, cell in enumerate(starts):
        r, c = int(cell[0]), int(cell[1])
        if not (0 <= r < shape[0] and 0 <= c < shape[1]):
            raise ValueError(
                f"start {k + 1} at (row {r}, col {c}) is off the {shape[0]} x {shape[1]} board"
            )
        out.append((r, c))
    return out


def seat_permutation(
    name: str, blocked: npt.ArrayLike, starts: Sequence[Cell]
) -> tuple[int, ...] | None:
    """The seats the symmetry ``name`` carries each seat onto, when it maps the walls
    onto themselves and the starts onto the starts; ``None`` when it does not.

    ``out[i] == j`` means seat ``i``'s start goes to seat ``j``'s (0-based).  Seats that
    share a start cell go, in order, to the seats of the cell it is carried onto; when
    the symmetry keeps that cell where it is, each of its seats goes to the next one
    there (seats on one cell cannot be told apart).

    Examples
    --------
    >>> walls = np.zeros((3, 5), dtype=bool)
    >>> seat_permutation("flip-lr", walls, [(1, 0), (1, 4)])
    (1, 0)
    >>> seat_permutation("flip-ud", walls, [(1, 0), (1, 4)])
    (0, 1)
    >>> seat_permutation("flip-lr", walls, [(0, 0), (1, 4)]) is None
    True
    """
    _check_name(name)
    g = np.asarray(blocked, dtype=np.bool_)
    if g.ndim != 2:
        raise ValueError(f"expected a 2-D grid, got shape {g.shape}")
    shape = (int(g.shape[0]), int(g.shape[1]))
    cells = _starts(starts, shape)
    if name in SQUARE_ONLY and shape[0] != shape[1]:
        return None
    if not np.array_equal(transform_grid(name, g), g):
        return None
    seats_at: dict[Cell, list[int]] = {}
    for seat, cell in enumerate(cells):
        seats_at.setdefault(cell, []).append(seat)
    out = [-1] * len(cells)
    for cell, seats in seats_at.items():
        target = transform_cell(name, shape, cell)
        image = seats_at.get(target)
        if image is None or len(image) != len(seats):
            return None
        if target == cell:  # seats on one cell are alike: each goes to the next
            image = image[1:] + image[:1]
        for a, b in zip(seats, image):
            out[a] = b
    return tuple(out)


def board_symmetries(blocked: npt.ArrayLike, starts: Sequence[Cell]) -> list[str]:
    """The symmetries of :data:`SYMMETRIES` that carry the walls of ``blocked`` onto
    themselves and each start onto another seat's start.

    Parameters
    ----------
    blocked : array_like of bool, shape (rows, cols)
        Walls (``True``).
    starts : sequence of (row, col)
        One start per seat.  With no starts at all, every symmetry of the walls is
        listed; with one start, none (no other seat to be carried onto).

    Returns
    -------
    list of str
        Names in the order of :data:`SYMMETRIES`; empty when there are none.

    Raises
    ------
    ValueError
        ``blocked`` is not 2-D, or a start is off the board.

    Notes
    -----
    Each candidate costs one comparison of the board with its image and a look-up per
    start: O(rows x cols) in all.  A symmetry whose seat permutation fixes a seat (a
    ``transpose`` that keeps a start on the diagonal where it is) is left out: it says
    nothing about that seat against the others.  Seats that share a start cell may be
    carried onto each other by a symmetry that fixes their cell.

    Examples
    --------
    >>> walls = np.zeros((3, 5), dtype=bool)
    >>> board_symmetries(walls, [(1, 0), (1, 4)])
    ['rot180', 'flip-lr']
    >>> walls[0, 0] = True
    >>> board_symmetries(walls, [(1, 0), (1, 4)])
    []
    """
    g = np.asarray(blocked, dtype=np.bool_)
    if g.ndim != 2:
        raise ValueError(f"expected a 2-D grid, got shape {g.shape}")
    _starts(starts, (int(g.shape[0]), int(g.shape[1])))
    out = []
    for name in SYMMETRIES:
        perm = seat_permutation(name, g, starts)
        if perm is None:
            continue
        if len(perm) == 1:
            continue
        if all(perm[i] != i for i in range(len(perm))):
            out.append(name)
    return out


def seat_classes(blocked: npt.ArrayLike, starts: Sequence[Cell]) -> list[list[int]]:
    """The seats (0-based) grouped by the board's symmetries: two seats share a class
    when a chain of symmetries of :data:`SYMMETRIES` that map the walls and the starts
    onto themselves carries one's start onto the other's.

    One class holding every seat means the board treats all seats alike; a class per
    seat, that no symmetry relates any two.  No starts: no classes.

    Examples
    --------
    >>> walls = np.zeros((4, 4), dtype=bool)
    >>> seat_classes(walls, [(0, 0), (0, 3), (3, 3), (3, 0)])
    [[0, 1, 2, 3]]
    >>> seat_classes(walls, [(0, 1), (0, 2)])
    [[0, 1]]
    >>> seat_classes(walls, [(0, 0), (1, 2)])
    [[0], [1]]
    """
    g = np.asarray(blocked, dtype=np.bool_)
    if g.ndim != 2:
        raise ValueError(f"expected a 2-D grid, got shape {g.shape}")
    n = len(_starts(starts, (int(g.shape[0]), int(g.shape[1]))))
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for name in SYMMETRIES:
        perm = seat_permutation(name, g, starts)
        if perm is None:
            continue
        for i, j in enumerate(perm):
            a, b = root(i), root(j)
            if a != b:
                parent[max(a, b)] = min(a, b)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    return sorted(groups.values())
