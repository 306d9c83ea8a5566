"""Two-player and n-source Voronoi against two (n) networkx breadth-first searches."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atlas.analysis.grid import GridError, flat_index, new_buffers, pad_free
from atlas.analysis.voronoi import (
    TIE,
    UNREACHED,
    voronoi_counts,
    voronoi_kernel,
    voronoi_partition,
)
from atlas.maps import read_map

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True)
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


@st.composite
def grids(draw, max_side=20):
    """A random grid up to ``max_side`` each way, walls at one of a few densities."""
    h = draw(st.integers(1, max_side))
    w = draw(st.integers(1, max_side))
    density = draw(st.sampled_from([0.0, 0.2, 0.35, 0.5]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    return rng.random((h, w)) >= density


def with_sources(g, sources):
    """``g`` plus the (possibly blocked) sources, joined to their free neighbours."""
    g = g.copy()
    for r, c in sources:
        g.add_node((r, c))
        for dr, dc in STEPS:
            if (r + dr, c + dc) in g:
                g.add_edge((r, c), (r + dr, c + dc))
    return g


def distances_from(g, src, walls):
    """BFS lengths from ``src`` in ``g`` (which holds it) with ``walls`` removed."""
    hidden = [w for w in set(walls) if w != src and w in g]
    edges = [e for w in hidden for e in g.edges(w)]
    g.remove_nodes_from(hidden)
    try:
        return nx.single_source_shortest_path_length(g, src)
    finally:
        g.add_nodes_from(hidden)
        g.add_edges_from(edges)


def reference_counts(free, a, b, grid_graph):
    g = with_sources(grid_graph(free), [a, b])
    da = distances_from(g, a, [b])
    db = distances_from(g, b, [a])
    out = {"p1": 0, "p2": 0, "tie": 0}
    for cell in zip(*np.nonzero(free)):
        cell = (int(cell[0]), int(cell[1]))
        if cell in (a, b):
            continue
        x, y = da.get(cell), db.get(cell)
        if x is None and y is None:
            continue
        if y is None or (x is not None and x < y):
            out["p1"] += 1
        elif x is None or y < x:
            out["p2"] += 1
        else:
            out["tie"] += 1
    return out


def reference_partition(free, sources, grid_graph):
    g = with_sources(grid_graph(free), sources)
    dists = [distances_from(g, s, sources) for s in sources]
    out = np.full(free.shape, UNREACHED, dtype=np.int64)
    for r, c in zip(*np.nonzero(free)):
        ds = [d.get((int(r), int(c))) for d in dists]
        finite = [x for x in ds if x is not None]
        if finite:
            best = [i for i, x in enumerate(ds) if x == min(finite)]
            out[r, c] = best[0] if len(best) == 1 else TIE
    for s in set(sources):
        owners = [i for i, t in enumerate(sources) if t == s]
        out[s] = owners[0] if len(owners) == 1 else TIE
    return out


def test_every_map_file_against_networkx(any_map_file, grid_graph):
    gm = read_map(any_map_file)
    starts = list(gm.starts) if len(gm.starts) >= 2 else [(0, 0), (gm.height - 1, gm.width - 1)]
    a, b = starts[:2]
    assert voronoi_counts(gm.free, a, b) == reference_counts(gm.free, a, b, grid_graph)
    part = voronoi_partition(gm.free, starts)
    assert np.array_equal(part, reference_partition(gm.free, starts, grid_graph))


@SETTINGS
@given(free=grids(), data=st.data())
def test_random_grids_against_networkx(grid_graph, free, data):
    h, w = free.shape
    cell = st.tuples(st.integers(0, h - 1), st.integers(0, w - 1))
    a, b = data.draw(cell), data.draw(cell)
    assert voronoi_counts(free, a, b) == reference_counts(free, a, b, grid_graph)


@SETTINGS
@given(free=grids(), data=st.data())
def test_random_partitions_against_networkx(grid_graph, free, data):
    h, w = free.shape
    cell = st.tuples(st.integers(0, h - 1), st.integers(0, w - 1))
    sources = data.draw(st.lists(cell, min_size=1, max_size=5))
    part = voronoi_partition(free, sources)
    assert part.dtype == np.int32
    assert np.array_equal(part, reference_partition(free, sources, grid_graph))


@SETTINGS
@given(free=grids(), data=st.data())
def test_partition_agrees_with_counts_off_the_starts(free, data):
    h, w = free.shape
    cell = st.tuples(st.integers(0, h - 1), st.integers(0, w - 1))
    a, b = data.draw(cell), data.draw(cell)
    part = voronoi_partition(free, [a, b])
    inner = free.copy()
    inner[a] = inner[b] = False
    counts = voronoi_counts(free, a, b)
    # (a == b makes every reached cell a tie in both.)
    assert counts == {
        "p1": int(((part == 0) & inner).sum()),
        "p2": int(((part == 1) & inner).sum()),
        "tie": int(((part == TIE) & inner).sum()),
    }


def test_starts_block_paths_and_count_for_no_one():
    row = np.ones((1, 7), bool)
    # a at 1, b at 4: cell 0 is a's, 2 a's (1 vs 2), 3 b's, 5 and 6 b's.
    assert voronoi_counts(row, (0, 1), (0, 4)) == {"p1": 2, "p2": 3, "tie": 0}
    # a at 0, b at 4: cell 2 is at 2 from both.
    assert voronoi_counts(row, (0, 0), (0, 4)) == {"p1": 1, "p2": 3, "tie": 1}
    # Heads on blocked cells (a tron trail) behave the same.
    blocked_heads = row.copy()
    blocked_heads[0, [0, 4]] = False
    assert voronoi_counts(blocked_heads, (0, 0), (0, 4)) == {"p1": 1, "p2": 3, "tie": 1}


def test_unreachable_cells_count_for_no_one():
    free = np.array([[1, 1, 0, 1, 1]], bool)
    assert voronoi_counts(free, (0, 0), (0, 1)) == {"p1": 0, "p2": 0, "tie": 0}
    assert voronoi_partition(free, [(0, 0)]).tolist() == [[0, 0, -1, -1, -1]]


def test_ties_propagate_behind_a_tie_cell():
    # Both heads reach (1, 1) in 2 steps; (2, 1) behind it is also a tie.
    free = np.array([[1, 1, 1], [0, 1, 0], [0, 1, 0]], bool)
    assert voronoi_counts(free, (0, 0), (0, 2)) == {"p1": 0, "p2": 0, "tie": 3}


def test_kernel_contract_for_bots():
    rng = np.random.default_rng(9)
    free = rng.random((25, 25)) > 0.25
    flat, stride = pad_free(free)
    bufs = new_buffers(len(flat), 3)
    for a, b in [((0, 0), (24, 24)), ((3, 4), (20, 5)), ((12, 12), (12, 12))]:
        fa, fb = flat_index(a, stride), flat_index(b, stride)
        n1, n2, tie = voronoi_kernel(flat, stride, fa, fb, bufs[0], bufs[1], bufs[2])
        assert {"p1": n1, "p2": n2, "tie": tie} == voronoi_counts(free, a, b)
        heads = 1 if a == b else 2
        assert list(bufs[2][:heads]) == [fa, fb][:heads]
        others = bufs[2][heads : heads + n1 + n2 + tie]
        owner = bufs[1]
        assert sorted(others.tolist()) == sorted(
            i for i in np.flatnonzero(owner > 0).tolist() if i not in (fa, fb)
        )
        assert int((owner[others] == 1).sum()) == n1 and int((owner[others] == 3).sum()) == tie
        assert np.all(np.diff(bufs[0][others]) >= 0)


def test_bad_cells_are_refused():
    with pytest.raises(GridError, match="b"):
        voronoi_counts(np.ones((3, 3), bool), (0, 0), (3, 3))
    with pytest.raises(GridError, match="at least one source"):
        voronoi_partition(np.ones((3, 3), bool), [])


def test_kernel_is_callable_from_compiled_code():
    import numba

    @numba.njit
    def best_first_move(flat, stride, a, b, bufs):
        # What a bot does: score each step of head a by the Voronoi count.
        best = -1
        best_score = -1_000_000
        for off in (-stride, 1, stride, -1):
            c = a + off
            if flat[c] == 0:
                continue
            flat[c] = 0
            n1, n2, tie = voronoi_kernel(flat, stride, c, b, bufs[0], bufs[1], bufs[2])
            flat[c] = 1
            if n1 - n2 > best_score:
                best, best_score = c, n1 - n2
        return best, best_score

    free = np.ones((9, 9), bool)
    flat, stride = pad_free(free)
    a, b = flat_index((4, 1), stride), flat_index((4, 7), stride)
    flat[a] = flat[b] = 0
    cell, score = best_first_move(flat, stride, a, b, new_buffers(len(flat), 3))
    # Stepping towards the opponent (east) claims the most.
    assert cell == flat_index((4, 2), stride)
    after = free.copy()
    after[4, 1] = after[4, 7] = after[4, 2] = False
    counts = voronoi_counts(after, (4, 2), (4, 7))
    assert score == counts["p1"] - counts["p2"]
