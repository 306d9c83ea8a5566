"""The board symmetries that treat seats alike (atlas.analysis.symmetry).

Boards are built to have exactly one symmetry each, then hostile ones: one row, one
column, one cell, non-square, no starts, one start, starts that share a cell, starts
off the board.  Every answer is checked against a definition written cell by cell here
(a loop over the cells with the formulas of the module docstring's table), which
shares no code with the whole-array comparisons of the module.
"""

from __future__ import annotations

import doctest

import numpy as np
import pytest

from atlas.analysis import symmetry
from atlas.analysis.symmetry import (
    SYMMETRIES,
    board_symmetries,
    seat_classes,
    seat_permutation,
    transform_cell,
    transform_grid,
)
from atlas.maps import read_map
from tests.conftest import OUTSIDE_DATA, REPO_MAPS

FORMULA = {
    "rot90": lambda r, c, h, w: (w - 1 - c, r),
    "rot180": lambda r, c, h, w: (h - 1 - r, w - 1 - c),
    "flip-lr": lambda r, c, h, w: (r, w - 1 - c),
    "flip-ud": lambda r, c, h, w: (h - 1 - r, c),
    "transpose": lambda r, c, h, w: (c, r),
    "antitranspose": lambda r, c, h, w: (w - 1 - c, h - 1 - r),
}


def reference(blocked: np.ndarray, starts: list[tuple[int, int]]) -> list[str]:
    """The definition, cell by cell: the walls map onto the walls, the start cells onto
    start cells (as a multiset), and each seat onto another seat's start."""
    h, w = blocked.shape
    out = []
    for name in SYMMETRIES:
        if name in ("rot90", "transpose", "antitranspose") and h != w:
            continue
        f = FORMULA[name]
        if any(blocked[r, c] != blocked[f(r, c, h, w)] for r in range(h) for c in range(w)):
            continue
        images = [f(r, c, h, w) for r, c in starts]
        if sorted(images) != sorted(starts):
            continue
        if len(starts) == 1:
            continue
        moved = all(
            any(j != i and starts[j] == images[i] for j in range(len(starts)))
            for i in range(len(starts))
        )
        if moved:
            out.append(name)
    return out


def test_the_docstring_examples_hold():
    assert doctest.testmod(symmetry, raise_on_error=False).failed == 0


def test_the_numpy_image_and_the_cell_formula_agree_for_every_symmetry():
    rng = np.random.default_rng(7)
    for shape in ((5, 5), (4, 7), (1, 6), (6, 1), (1, 1)):
        grid = rng.random(shape) < 0.4
        h, w = shape
        for name in SYMMETRIES:
            if name in ("rot90", "transpose", "antitranspose") and h != w:
                with pytest.raises(ValueError, match="square"):
                    transform_grid(name, grid)
                continue
            image = transform_grid(name, grid)
            for r in range(h):
                for c in range(w):
                    assert transform_cell(name, shape, (r, c)) == FORMULA[name](r, c, h, w)
                    assert image[FORMULA[name](r, c, h, w)] == grid[r, c]


def _one(name: str) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """A 6x6 board whose walls and starts have the symmetry ``name`` and no other of
    the six (each board checked against the reference below)."""
    b = np.zeros((6, 6), dtype=bool)
    if name == "flip-lr":
        b[0, 0] = b[0, 5] = b[2, 1] = b[2, 4] = b[5, 2] = b[5, 3] = True
        return b, [(3, 0), (3, 5)]
    if name == "flip-ud":
        b[0, 0] = b[5, 0] = b[1, 2] = b[4, 2] = b[2, 5] = b[3, 5] = True
        return b, [(0, 3), (5, 3)]
    if name == "transpose":
        b[0, 1] = b[1, 0] = b[0, 4] = b[4, 0] = b[5, 5] = True
        return b, [(2, 4), (4, 2)]
    if name == "antitranspose":
        b[0, 0] = b[5, 5] = b[0, 1] = b[4, 5] = True
        return b, [(1, 2), (3, 4)]
    if name == "rot180":
        b[0, 0] = b[5, 5] = b[0, 1] = b[5, 4] = b[2, 0] = b[3, 5] = True
        return b, [(1, 3), (4, 2)]
    if name == "rot90":
        b[0, 1] = b[1, 5] = b[5, 4] = b[4, 0] = True
        return b, [(2, 0), (5, 2), (3, 5), (0, 3)]
    raise AssertionError(name)


@pytest.mark.parametrize("name", SYMMETRIES)
def test_a_board_built_for_one_symmetry_has_that_one(name):
    blocked, starts = _one(name)
    expected = [name] if name != "rot90" else ["rot90", "rot180"]
    assert board_symmetries(blocked, starts) == expected
    assert reference(blocked, starts) == expected


def test_a_quarter_turn_with_two_seats_carries_each_onto_the_other_only_by_a_half_turn():
    # four-fold walls, two starts opposite: rot90 sends seat 1 to an empty corner
    b = np.zeros((5, 5), dtype=bool)
    b[0, 2] = b[2, 4] = b[4, 2] = b[2, 0] = True
    starts = [(0, 0), (4, 4)]
    assert seat_permutation("rot90", b, starts) is None
    assert board_symmetries(b, starts) == ["rot180", "antitranspose"]
    assert reference(b, starts) == ["rot180", "antitranspose"]


def test_a_symmetry_that_keeps_a_seat_where_it_is_does_not_count():
    b = np.zeros((4, 4), dtype=bool)
    # transpose keeps both starts on the diagonal: each goes onto itself
    assert seat_permutation("transpose", b, [(0, 0), (3, 3)]) == (0, 1)
    assert "transpose" not in board_symmetries(b, [(0, 0), (3, 3)])
    # but it relates the seats it does move: 1 and 3 below
    starts = [(0, 0), (0, 3), (3, 3), (3, 0)]
    assert seat_permutation("transpose", b, starts) == (0, 3, 2, 1)
    assert board_symmetries(b, starts) == ["rot90", "rot180", "flip-lr", "flip-ud"]
    assert seat_classes(b, starts) == [[0, 1, 2, 3]]


def test_hostile_boards():
    # one row: a left-right mirror, its up-down flip is the identity on rows
    row = np.zeros((1, 7), dtype=bool)
    assert board_symmetries(row, [(0, 1), (0, 5)]) == ["rot180", "flip-lr"]
    assert reference(row, [(0, 1), (0, 5)]) == ["rot180", "flip-lr"]
    # the up-down flip keeps both starts of one row where they are
    assert seat_permutation("flip-ud", row, [(0, 1), (0, 5)]) == (0, 1)
    # one column
    col = np.zeros((7, 1), dtype=bool)
    assert board_symmetries(col, [(1, 0), (5, 0)]) == ["rot180", "flip-ud"]
    # asymmetric starts on one row
    assert board_symmetries(row, [(0, 0), (0, 5)]) == []
    assert seat_classes(row, [(0, 0), (0, 5)]) == [[0], [1]]
    # a single cell, two seats sharing it: every symmetry carries each onto the other
    one = np.zeros((1, 1), dtype=bool)
    assert board_symmetries(one, [(0, 0), (0, 0)]) == list(SYMMETRIES)
    assert reference(one, [(0, 0), (0, 0)]) == list(SYMMETRIES)
    # non-square: only the three that need no square board can hold
    wide = np.zeros((3, 8), dtype=bool)
    assert board_symmetries(wide, [(1, 0), (1, 7)]) == ["rot180", "flip-lr"]
    for name in ("rot90", "transpose", "antitranspose"):
        assert seat_permutation(name, wide, [(1, 0), (1, 7)]) is None
    # no starts: nothing is asked of starts, the walls' symmetries stay
    walls = np.zeros((4, 4), dtype=bool)
    walls[0, 0] = walls[3, 3] = True
    assert board_symmetries(walls, []) == ["rot180", "transpose", "antitranspose"]
    assert reference(walls, []) == ["rot180", "transpose", "antitranspose"]
    assert seat_classes(walls, []) == []
    # one start: no other seat to be carried onto
    assert board_symmetries(np.zeros((3, 3), dtype=bool), [(1, 1)]) == []
    # two seats on one cell that a flip moves: the cell must go to a cell of two seats
    assert board_symmetries(np.zeros((3, 3), dtype=bool), [(0, 1), (0, 1)]) == ["flip-lr"]
    assert reference(np.zeros((3, 3), dtype=bool), [(0, 1), (0, 1)]) == ["flip-lr"]


def test_bad_input_is_a_clear_value_error():
    with pytest.raises(ValueError, match=r"start 2 at \(row 0, col 9\) is off the 3 x 3"):
        board_symmetries(np.zeros((3, 3), dtype=bool), [(0, 0), (0, 9)])
    with pytest.raises(ValueError, match="2-D"):
        board_symmetries(np.zeros(5, dtype=bool), [])
    with pytest.raises(ValueError, match="unknown symmetry 'spin'"):
        transform_cell("spin", (3, 3), (0, 0))


def test_random_boards_agree_with_the_cell_by_cell_definition():
    rng = np.random.default_rng(2024)
    checked = 0
    for _ in range(300):
        h, w = (int(x) for x in rng.integers(1, 7, size=2))
        if rng.random() < 0.5:
            w = h
        blocked = rng.random((h, w)) < 0.3
        # symmetrise half the boards so that symmetries do occur
        name = SYMMETRIES[int(rng.integers(len(SYMMETRIES)))]
        if rng.random() < 0.5 and not (
            name in ("rot90", "transpose", "antitranspose") and h != w
        ):
            blocked = blocked | transform_grid(name, blocked)
            if name == "rot90":
                for _ in range(3):
                    blocked = blocked | transform_grid(name, blocked)
        k = int(rng.integers(0, 4))
        starts = [(int(rng.integers(h)), int(rng.integers(w))) for _ in range(k)]
        if (
            k
            and rng.random() < 0.5
            and not (name in ("rot90", "transpose", "antitranspose") and h != w)
        ):
            starts = [starts[0], transform_cell(name, (h, w), starts[0])]
        assert board_symmetries(blocked, starts) == reference(blocked, starts), (
            blocked,
            starts,
        )
        checked += bool(reference(blocked, starts))
    assert checked > 30  # the sample holds symmetric boards, not only asymmetric ones


def test_the_contest_and_atlas_maps():
    keyhole = read_map(OUTSIDE_DATA / "tron-maps" / "keyhole.txt")
    assert board_symmetries(keyhole.blocked, keyhole.starts) == reference(
        np.asarray(keyhole.blocked), list(keyhole.starts)
    )
    # every Outpost board is its quarter turned four times, homes in the corners
    outpost = read_map(OUTSIDE_DATA / "outpost-maps" / "map1.txt")
    syms = board_symmetries(outpost.blocked, outpost.starts)
    assert {"rot90", "rot180"} <= set(syms)
    assert seat_classes(outpost.blocked, outpost.starts) == [[0, 1, 2, 3]]
    # an isolation map with queens in opposite corners
    queen = read_map(REPO_MAPS / "isolation" / "queen8.txt")
    assert board_symmetries(queen.blocked, queen.starts) == ["rot180", "antitranspose"]
