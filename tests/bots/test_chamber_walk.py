"""The chamber walk of the tron bots, one function over two number types, values as before.

``chamber_walk_pins.json`` holds 24 random boards (``1`` and ``2`` the heads, ``#``
walls) and the values of ``tree.chamber_value`` (floating point) and
``apex.chamber_score`` (integers) for both players under several weights, computed by
atlas at commit 6156980, when the two were separate copies of the walk.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from atlas.games.tron.bots.apex import SearchTables, chamber_score
from atlas.games.tron.bots.common import Workspace, voronoi_counts, voronoi_touching
from atlas.games.tron.bots.tree import chamber_value

PINS = json.loads((Path(__file__).resolve().parent / "chamber_walk_pins.json").read_text())
#: (k1, k2, checkerboard bound, battlefront rule) of each pinned value.
FLOAT_WEIGHTS = ((1.0, 0.0, False, False), (1.0, 0.5, True, False), (0.055, 0.194, True, True))
INT_WEIGHTS = (
    (1, 0, True, False),
    (55, 194, True, True),
    (55, 194, False, True),
    (3, 1, False, False),
)


def _board(rows):
    h, w = len(rows), len(rows[0])
    ws = Workspace(h, w)
    grid = np.zeros((h + 2, w + 2), np.uint8)
    grid[1:-1, 1:-1] = np.array([[ch != "#" for ch in r] for r in rows])
    heads = [next((r, c) for r in range(h) for c in range(w) if rows[r][c] == s) for s in "12"]
    me, opp = ((r + 1) * ws.w2 + c + 1 for r, c in heads)
    grid = grid.ravel()
    grid[me] = grid[opp] = 0
    return grid, me, opp, ws


@pytest.mark.parametrize("index", range(len(PINS)))
def test_both_number_types_walk_as_before(index):
    pin = PINS[index]
    grid, me, opp, ws = _board(pin["rows"])
    got = []
    for k1, k2, parity, front in FLOAT_WEIGHTS:
        voronoi_counts(grid, me, opp, ws.off, ws.ibuf)
        args = (ws.off, ws.w2, ws.ibuf, ws.fbuf, k1, k2, parity, front)
        got.append(
            [chamber_value(grid, me, opp, *args, 0), chamber_value(grid, opp, me, *args, 1)]
        )
    assert got == pin["float"]
    tables = SearchTables(ws.n, 4)
    got = []
    for k1, k2, parity, front in INT_WEIGHTS:
        voronoi_touching(grid, me, opp, ws.off, ws.ibuf)
        args = (ws.off, ws.w2, ws.ibuf, tables.bbuf, k1, k2, parity, front)
        got.append(
            [chamber_score(grid, me, opp, *args, 0), chamber_score(grid, opp, me, *args, 1)]
        )
    assert got == pin["int"]
    # the integer walk in thousandths is the floating one
    assert got[1][0] == round(1000 * pin["float"][2][0])
