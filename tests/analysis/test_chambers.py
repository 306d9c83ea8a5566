"""Tree of chambers: the seed's example, a networkx reference, and the path bound."""

from __future__ import annotations

from collections import defaultdict, deque

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atlas.analysis.chambers import (
    CHAMBER_ROWS,
    ROW_BLOCK,
    chamber_kernel,
    chamber_tree,
    chamber_work,
)
from atlas.analysis.grid import GridError, flat_index, pad_free
from atlas.analysis.voronoi import voronoi_counts
from atlas.maps import read_map

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True)
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))

#: The corridor of the seed document (tron-tree-of-chambers.txt, section 3), and the
#: chambers the seed draws for it (X, the player, is in chamber 1).
SEED_MAP = [
    "#####################",
    "#####               #",
    "#X    ###############",
    "#####              ##",
    "#####################",
]
SEED_CHAMBERS = [
    "#####################",
    "#####222222222222222#",
    "#X1111###############",
    "#####33333333333333##",
    "#####################",
]


def parse(rows):
    free = np.array([[ch != "#" for ch in row] for row in rows])
    marks = {
        ch: (r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch not in "# "
    }
    return free, marks


@st.composite
def grids(draw, max_side=20):
    """A random grid up to ``max_side`` each way, walls at one of a few densities."""
    h = draw(st.integers(1, max_side))
    w = draw(st.integers(1, max_side))
    density = draw(st.sampled_from([0.1, 0.25, 0.35, 0.45]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    return rng.random((h, w)) >= density


# --------------------------------------------------------------------------- reference


def region_graph(free, me, opp, grid_graph):
    """Graph of ``me`` plus the free cells ``me`` reaches strictly first (networkx)."""
    g = grid_graph(free)
    for s in (me,) if opp is None else (me, opp):
        g.add_node(s)
        for dr, dc in STEPS:
            if (s[0] + dr, s[1] + dc) in g and (s[0] + dr, s[1] + dc) != s:
                g.add_edge(s, (s[0] + dr, s[1] + dc))
    if opp is None:
        region = set(nx.node_connected_component(g, me)) - {me}
    elif opp == me:
        region = set()  # every cell the two reach is reached at once
    else:
        da = nx.single_source_shortest_path_length(g.subgraph(set(g) - {opp}), me)
        db = nx.single_source_shortest_path_length(g.subgraph(set(g) - {me}), opp)
        region = {
            c
            for c, d in da.items()
            if c not in (me, opp) and free[c] and (c not in db or d < db[c])
        }
    h = g.subgraph(region | {me}).copy()
    return h.subgraph(nx.node_connected_component(h, me)).copy()


def reference_tree(free, me, opp, grid_graph):
    """Chambers as ``{frozenset(cells): (entrance, parent cells)}`` and fillable.

    Blocks from networkx, the block-cut tree walked from ``me``, each block minus its top
    cell an elementary chamber, single children merged into their parent.
    """
    h = region_graph(free, me, opp, grid_graph)
    blocks = [frozenset(b) for b in nx.biconnected_components(h)]
    blocks_of = defaultdict(list)
    for i, b in enumerate(blocks):
        for c in b:
            blocks_of[c].append(i)
    ROOT = -1
    cells = {ROOT: frozenset()}
    top = {ROOT: None}
    parent = {ROOT: None}
    children = defaultdict(list)
    seen = set()
    queue = deque()
    for i in blocks_of[me]:
        seen.add(i)
        top[i], parent[i] = me, ROOT
        children[ROOT].append(i)
        queue.append(i)
    order = [ROOT]
    while queue:
        i = queue.popleft()
        order.append(i)
        cells[i] = blocks[i] - {top[i]}
        for c in cells[i]:
            for j in blocks_of[c]:
                if j not in seen:
                    seen.add(j)
                    top[j], parent[j] = c, i
                    children[i].append(j)
                    queue.append(j)
    group = {ROOT: ROOT}
    for i in order[1:]:
        p = parent[i]
        group[i] = group[p] if len(children[p]) == 1 else i
    merged = defaultdict(frozenset)
    for i in order:
        merged[group[i]] |= cells[i]
    out = {}
    for g, cs in merged.items():
        out[cs] = (top[g], None if g == ROOT else merged[group[parent[g]]])
    best = {}
    for i in reversed(order):
        best[i] = len(cells[i]) + max((best[j] for j in children[i]), default=0)
    return out, best[ROOT]


def ours_as_reference(tree):
    cells = {
        ch.id: frozenset((int(r), int(c)) for r, c in np.argwhere(tree.labels == ch.id))
        - {tree.me}
        for ch in tree.chambers
    }
    return {
        cells[ch.id]: (ch.entrance, None if ch.parent is None else cells[ch.parent])
        for ch in tree.chambers
    }


def compare(free, me, opp, grid_graph):
    tree = chamber_tree(free, me, opp)
    ref, fillable = reference_tree(free, me, opp, grid_graph)
    ours = ours_as_reference(tree)
    ref = {
        cs: (None if parent is None else entrance, parent)
        for cs, (entrance, parent) in ref.items()
    }
    assert ours == ref
    assert tree.fillable == fillable
    return tree


def longest_walk(free, me, allowed):
    """Brute force: the most moves from ``me`` through distinct ``allowed`` cells."""
    best = 0
    stack = [(me, frozenset([me]))]
    while stack:
        v, seen = stack.pop()
        best = max(best, len(seen) - 1)
        for dr, dc in STEPS:
            w = (v[0] + dr, v[1] + dc)
            if w in allowed and w not in seen:
                stack.append((w, seen | {w}))
    return best


# --------------------------------------------------------------------------- tests


def test_seed_corridor_example():
    free, marks = parse(SEED_MAP)
    tree = chamber_tree(free, marks["X"])
    sizes = [ch.size for ch in tree.chambers]
    assert sizes == [4, 15, 14]
    one, two, three = tree.chambers
    assert tree.fillable == one.size + two.size == 19
    assert one.children == (2, 3) and one.parent is None and one.entrance is None
    assert two.parent == three.parent == 1
    assert two.entrance == three.entrance == (2, 5)
    expected = np.array(
        [
            [int(ch) if ch.isdigit() else 1 if ch == "X" else 0 for ch in row]
            for row in SEED_CHAMBERS
        ]
    )
    assert np.array_equal(tree.labels, expected)
    # The bound is exact on a tree of corridors.
    assert longest_walk(free, marks["X"], set(zip(*map(list, np.nonzero(free))))) == 19


def test_seed_corridor_with_an_opponent_in_the_upper_arm():
    rows = [row for row in SEED_MAP]
    rows[1] = rows[1][:15] + "O" + rows[1][16:]
    free, marks = parse(rows)
    tree = chamber_tree(free, marks["X"], marks["O"])
    # X is k steps from (1, k), O is 15 - k: X keeps (1, 5)..(1, 7) of the upper arm and
    # all the lower arm, so the best branch is the corridor (4) then the lower arm (14).
    counts = voronoi_counts(free, marks["X"], marks["O"])
    assert tree.region_size == counts["p1"] == 4 + 3 + 14
    assert [c.size for c in tree.chambers] == [4, 3, 14]
    assert tree.fillable == 4 + 14


def test_player_in_the_middle_of_a_corridor_chooses_a_side():
    free = np.ones((1, 9), bool)
    tree = chamber_tree(free, (0, 3))
    assert [(c.size, c.entrance, c.parent) for c in tree.chambers] == [
        (0, None, None),
        (3, (0, 3), 1),
        (5, (0, 3), 1),
    ]
    assert tree.fillable == 5


def test_room_with_two_dead_ends():
    free, marks = parse(
        [
            "#########",
            "#   #   #",
            "# X     #",
            "#   # # #",
            "##### # #",
            "#########",
        ]
    )
    tree = chamber_tree(free, marks["X"])
    # The left room (8 cells besides X), the door (2, 4) and (2, 5) behind it form the
    # root: each has a single way on until (2, 5), where the player must choose
    # between the right room with its leg (5 + 2 cells) and the left leg (2 cells).
    assert [(c.size, c.entrance, c.parent) for c in tree.chambers] == [
        (10, None, None),
        (7, (2, 5), 1),
        (2, (2, 5), 1),
    ]
    assert tree.fillable == 17
    assert tree.fillable >= longest_walk(
        free, marks["X"], set(zip(*map(list, np.nonzero(free))))
    )


def test_every_map_file_against_the_reference(any_map_file, grid_graph):
    gm = read_map(any_map_file)
    if gm.game == "tron":
        pairs = [gm.starts, gm.starts[::-1]]
    elif len(gm.starts) >= 3:  # outpost: two opposite homes
        pairs = [(gm.starts[0], gm.starts[2])]
    else:  # other grids: opposite corners, or the starts
        pairs = [gm.starts[:2] or ((0, 0), (gm.height - 1, gm.width - 1))]
    for me, opp in pairs:
        tree = compare(gm.free, me, opp, grid_graph)
        assert tree.region_size == voronoi_counts(gm.free, me, opp)["p1"]
        assert tree.labels[me] == 1


@SETTINGS
@given(free=grids(), data=st.data())
def test_random_grids_against_the_reference(grid_graph, free, data):
    h, w = free.shape
    cell = st.tuples(st.integers(0, h - 1), st.integers(0, w - 1))
    me = data.draw(cell)
    opp = data.draw(st.none() | cell)
    compare(free, me, opp, grid_graph)


@SETTINGS
@given(free=grids(4), data=st.data())
def test_fillable_bounds_the_longest_walk_in_the_region(grid_graph, free, data):
    h, w = free.shape
    cell = st.tuples(st.integers(0, h - 1), st.integers(0, w - 1))
    me = data.draw(cell)
    opp = data.draw(st.none() | cell)
    tree = chamber_tree(free, me, opp)
    allowed = set(region_graph(free, me, opp, grid_graph)) - {me}
    assert tree.fillable >= longest_walk(free, me, allowed)
    assert tree.fillable <= len(allowed) == tree.region_size


def test_kernel_reuses_its_work_array():
    rng = np.random.default_rng(2)
    work = chamber_work(27 * 27)
    assert work.shape == (CHAMBER_ROWS, 27 * 27)
    for _ in range(4):
        free = rng.random((25, 25)) > 0.3
        flat, stride = pad_free(free)
        me, opp = (0, 0), (24, 24)
        fillable, nb = chamber_kernel(
            flat, stride, flat_index(me, stride), flat_index(opp, stride), work
        )
        tree = chamber_tree(free, me, opp)
        assert fillable == tree.fillable
        inside = (work[ROW_BLOCK] >= 0).reshape(27, 27)[1:-1, 1:-1]
        assert np.array_equal(inside, tree.labels > 0)


def test_isolated_player_has_one_empty_chamber():
    tree = chamber_tree(np.zeros((3, 3), bool), (1, 1), (0, 0))
    assert tree.fillable == 0 and len(tree.chambers) == 1
    assert tree.chambers[0].size == 0 and tree.labels.tolist() == [
        [0, 0, 0],
        [0, 1, 0],
        [0, 0, 0],
    ]


def test_bad_cells_are_refused():
    with pytest.raises(GridError, match="opponent"):
        chamber_tree(np.ones((3, 3), bool), (0, 0), (5, 5))
