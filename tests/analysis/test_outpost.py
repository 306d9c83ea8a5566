"""Outpost influence, affordability and supply lines against plain-Python references."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from atlas.analysis.grid import GridError
from atlas.games.outpost.analysis import (
    DISPUTED,
    NEUTRAL,
    UNLIMITED,
    affordable,
    influence,
    supply_lines,
)
from atlas.games.outpost.format import HOMES as OUTPOST_HOMES
from atlas.maps import read_map

DATA = Path(__file__).resolve().parents[1] / "data"


# --------------------------------------------------------------------------- references


def ref_owner(water, outposts, r):
    """Brute force over cells x outposts."""
    h, w = water.shape
    owner = np.full((h, w), NEUTRAL, np.int32)
    land = [0] * len(outposts)
    wat = [0] * len(outposts)
    disputed = [0] * len(outposts)
    for y in range(h):
        for x in range(w):
            best, who = None, set()
            for e, cells in enumerate(outposts):
                for rr, cc in cells:
                    d = abs(rr - y) + abs(cc - x)
                    if best is None or d < best:
                        best, who = d, {e}
                    elif d == best:
                        who.add(e)
            if best is None or best > r:
                continue
            if len(who) == 1:
                e = who.pop()
                owner[y, x] = e
                if water[y, x]:
                    wat[e] += 1
                else:
                    land[e] += 1
            else:
                owner[y, x] = DISPUTED
                for e in who:
                    disputed[e] += 1
    return owner, land, wat, disputed


def ref_supply(water, owner, outposts, homes):
    """networkx: a path of good cells from home to a neighbour of the outpost."""
    h, w = water.shape
    out = []
    for e, cells in enumerate(outposts):
        good = {
            (y, x)
            for y in range(h)
            for x in range(w)
            if not water[y, x] and owner[y, x] in (NEUTRAL, e)
        }
        g = nx.Graph()
        g.add_nodes_from(good)
        g.add_edges_from(
            ((y, x), (y + dy, x + dx))
            for (y, x) in good
            for dy, dx in ((0, 1), (1, 0))
            if (y + dy, x + dx) in good
        )
        home = tuple(homes[e])
        res = []
        for rr, cc in cells:
            if (rr, cc) == home:
                res.append(True)
                continue
            ok = home in good and any(
                (rr + dy, cc + dx) in good and nx.has_path(g, home, (rr + dy, cc + dx))
                for dy, dx in ((-1, 0), (1, 0), (0, -1), (0, 1))
            )
            res.append(ok)
        out.append(res)
    return out


@st.composite
def positions(draw):
    h = draw(st.integers(3, 12))
    w = draw(st.integers(3, 12))
    density = draw(st.sampled_from([0.0, 0.15, 0.3, 0.45]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    water = rng.random((h, w)) < density
    n_emp = draw(st.integers(1, 4))
    outposts = []
    for _ in range(n_emp):
        k = draw(st.integers(0, 6))
        outposts.append([(int(rng.integers(h)), int(rng.integers(w))) for _ in range(k)])
    r = draw(st.integers(0, 7))
    homes = [(int(rng.integers(h)), int(rng.integers(w))) for _ in range(n_emp)]
    # often put an outpost on its home, as in the game
    for e in range(n_emp):
        if outposts[e] and rng.random() < 0.5:
            outposts[e][0] = homes[e]
    return water, outposts, r, homes


@settings(
    max_examples=80,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(positions())
def test_influence_and_supply_match_references(case):
    water, outposts, r, homes = case
    inf = influence(water, outposts, r)
    owner, land, wat, disputed = ref_owner(water, outposts, r)
    np.testing.assert_array_equal(inf.owner, owner)
    assert inf.land.tolist() == land
    assert inf.water.tolist() == wat
    assert inf.disputed.tolist() == disputed
    got = supply_lines(water, inf.owner, outposts, homes)
    assert [g.tolist() for g in got] == ref_supply(water, owner, outposts, homes)


def test_real_map_matches_reference():
    m = read_map(DATA / "outpost-maps" / "map1.txt", game="outpost")
    rng = np.random.default_rng(5)
    land = np.argwhere(~m.blocked)
    outposts = [[tuple(land[i]) for i in rng.choice(len(land), 6)] for _ in range(4)]
    outposts = [[OUTPOST_HOMES[e]] + o for e, o in enumerate(outposts)]
    inf = influence(m.blocked, outposts, 10)
    owner, land_c, wat_c, disp = ref_owner(m.blocked, outposts, 10)
    np.testing.assert_array_equal(inf.owner, owner)
    assert (inf.land.tolist(), inf.water.tolist(), inf.disputed.tolist()) == (
        land_c,
        wat_c,
        disp,
    )
    got = supply_lines(m.blocked, inf.owner, outposts)
    assert [g.tolist() for g in got] == ref_supply(m.blocked, owner, outposts, OUTPOST_HOMES)


def numpy_owner(water, outposts, r):
    """Vectorised brute force (every cell against every outpost), for large boards."""
    h, w = water.shape
    yy, xx = np.mgrid[:h, :w]
    per_emp = np.stack(
        [
            np.min([np.abs(yy - a) + np.abs(xx - b) for a, b in cells], axis=0)
            if len(cells)
            else np.full((h, w), 10**6)
            for cells in outposts
        ]
    )
    best = per_emp.min(axis=0)
    nearest = (per_emp == best) & (best <= r)
    many = nearest.sum(axis=0)
    owner = np.where(many == 0, NEUTRAL, np.where(many > 1, DISPUTED, nearest.argmax(axis=0)))
    alone = nearest & (many == 1)
    return (
        owner,
        (alone & ~water).sum(axis=(1, 2)).tolist(),
        (alone & water).sum(axis=(1, 2)).tolist(),
        (nearest & (many > 1)).sum(axis=(1, 2)).tolist(),
    )


@pytest.mark.parametrize("per_empire", [1, 10, 20, 40, 80])
def test_many_outposts_match_reference_on_a_real_map(per_empire):
    """Both ownership methods (diamonds stamped row by row, and the distance transform
    used for many outposts) against the brute force, ties included."""
    m = read_map(DATA / "outpost-maps" / "map1.txt", game="outpost")
    rng = np.random.default_rng(per_empire)
    # clustered outposts (a 30x30 window) make many ties and disputed cells
    outposts = [
        [(int(a), int(b)) for a, b in rng.integers(35, 65, (per_empire, 2))] for _ in range(4)
    ]
    inf = influence(m.blocked, outposts, 10)
    owner, land_c, wat_c, disp = numpy_owner(m.blocked, outposts, 10)
    np.testing.assert_array_equal(inf.owner, owner)
    assert (inf.land.tolist(), inf.water.tolist(), inf.disputed.tolist()) == (
        land_c,
        wat_c,
        disp,
    )
    assert sum(disp) > 0


# --------------------------------------------------------------------------- edge cases


def test_disputed_ties_count_for_no_one():
    water = np.zeros((1, 7), bool)
    water[0, 3] = True  # the disputed middle is water: counted as disputed, not water
    inf = influence(water, [[(0, 1)], [(0, 5)]], r=2)
    assert inf.owner.tolist() == [[0, 0, 0, DISPUTED, 1, 1, 1]]
    assert inf.land.tolist() == [3, 3]
    assert inf.water.tolist() == [0, 0]
    assert inf.disputed.tolist() == [1, 1]
    # beyond r: neutral
    inf = influence(np.zeros((1, 7), bool), [[(0, 0)], []], r=2)
    assert inf.owner.tolist() == [[0, 0, 0, NEUTRAL, NEUTRAL, NEUTRAL, NEUTRAL]]


def test_mutual_disbandment_does_not_happen_with_a_friend_next_door():
    """Enemy outposts share a cell; each has a friendly neighbour linked home."""
    water = np.zeros((1, 11), bool)
    homes = [(0, 0), (0, 10)]
    outposts = [[(0, 4), (0, 5)], [(0, 5), (0, 6)]]
    inf = influence(water, outposts, r=10)
    assert inf.owner[0, 5] == DISPUTED
    assert inf.owner[0].tolist() == [0] * 5 + [DISPUTED] + [1] * 5
    alive = supply_lines(water, inf.owner, outposts, homes)
    assert [a.tolist() for a in alive] == [[True, True], [True, True]]
    # alone on the shared cell, both lose everything: every cell is disputed
    inf = influence(water, [[(0, 5)], [(0, 5)]], r=10)
    assert (inf.owner == DISPUTED).all()
    alive = supply_lines(water, inf.owner, [[(0, 5)], [(0, 5)]], homes)
    assert [a.tolist() for a in alive] == [[False], [False]]


def test_disputed_home_cuts_every_outpost_but_the_one_at_home():
    water = np.zeros((3, 9), bool)
    homes = [(1, 0), (1, 8)]
    outposts = [[(1, 0), (1, 2), (0, 1)], [(1, 0)]]
    inf = influence(water, outposts, r=3)
    assert inf.owner[1, 0] == DISPUTED
    alive = supply_lines(water, inf.owner, outposts, homes)
    assert alive[0].tolist() == [True, False, False]
    # the enemy outpost on our home has no good neighbour linked to its own home
    assert alive[1].tolist() == [False]


def test_outpost_own_cell_is_not_tested_but_the_path_is():
    water = np.array([[0, 0, 0, 1, 0, 0]], bool)
    inf = influence(water, [[(0, 0), (0, 2)], []], r=1)
    # the outpost at (0, 4) is cut by water at (0, 3)
    alive = supply_lines(water, inf.owner, [[(0, 0), (0, 2), (0, 4)], []], [(0, 0), (0, 5)])
    assert alive[0].tolist() == [True, True, False]
    # an enemy cell on the path cuts it; an enemy outpost on the outpost's cell does not
    owner = np.array([[0, 0, 1, 0, 0, 0]])
    alive = supply_lines(
        np.zeros((1, 6), bool), owner, [[(0, 1), (0, 4)], []], [(0, 0), (0, 5)]
    )
    assert alive[0].tolist() == [True, False]
    owner = np.array([[0, 0, DISPUTED, 0, 0, 0]])
    alive = supply_lines(np.zeros((1, 6), bool), owner, [[(0, 2)], []], [(0, 0), (0, 5)])
    assert alive[0].tolist() == [True]


def test_affordable_rules_and_official_quirks():
    assert affordable(0, 0, 20, 5) == 1
    assert affordable(39, 100, 20, 5) == 2
    assert affordable(40, 9, 20, 5) == 2
    assert affordable(400, 10, 20, 5) == 3
    assert affordable(0, 7, 0, 5) == 2  # L = 0: land sets no limit
    assert affordable(100, 0, 20, 0) == 6  # W = 0: water sets no limit
    assert affordable(3, 3, 0, 0) == UNLIMITED
    assert affordable(400, 10, 20, 5, official=True) == 3
    assert affordable(100, 0, 20, 0, official=True) == 1  # 0/0 = NaN -> 1
    assert affordable(100, 3, 20, 0, official=True) == 6  # 3/0 = inf
    assert affordable(3, 3, 0, 0, official=True) == -(2**31)  # overflow
    assert affordable(0, 3, 0, 0, official=True) == 1  # NaN again
    with pytest.raises(ValueError, match="land must be a whole number >= 0, got -1"):
        affordable(-1, 0, 20, 5)


def test_bad_input_is_reported():
    with pytest.raises(GridError, match="outside"):
        influence(np.zeros((3, 3), bool), [[(0, 3)]], 2)
    with pytest.raises(GridError, match="radius"):
        influence(np.zeros((3, 3), bool), [[(0, 0)]], -1)
    with pytest.raises(GridError, match="homes"):
        supply_lines(np.zeros((3, 3), bool), np.zeros((3, 3), int), [[(0, 0)]], [])


def test_many_empires_use_the_wide_masks():
    """More than 8 empires: the nearest sets no longer fit the packed form."""
    rng = np.random.default_rng(11)
    water = rng.random((9, 13)) < 0.2
    outposts = [
        [(int(rng.integers(9)), int(rng.integers(13))) for _ in range(2)] for _ in range(11)
    ]
    outposts[10].append(outposts[3][0])  # a shared cell: empires 3 and 10 tie there
    for r in (0, 2, 5):
        inf = influence(water, outposts, r)
        owner, land, wat, disputed = ref_owner(water, outposts, r)
        np.testing.assert_array_equal(inf.owner, owner)
        assert (inf.land.tolist(), inf.water.tolist(), inf.disputed.tolist()) == (
            land,
            wat,
            disputed,
        )
