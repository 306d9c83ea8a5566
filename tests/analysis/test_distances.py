"""Breadth-first distances against networkx shortest path lengths."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atlas.analysis.distances import bfs_blocked_kernel, bfs_distances, bfs_kernel
from atlas.analysis.grid import GridError, flat_index, new_buffers, pad_free
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


def reference(free, sources, grid_graph):
    g = with_sources(grid_graph(free), sources)
    lengths = nx.multi_source_dijkstra_path_length(g, set(sources))
    out = np.full(free.shape, -1, dtype=np.int64)
    for (r, c), d in lengths.items():
        out[r, c] = d
    return out


def test_every_map_file_against_networkx(any_map_file, grid_graph):
    gm = read_map(any_map_file)
    free = gm.free
    sources = list(gm.starts) or [tuple(int(x) for x in np.argwhere(free)[0])]
    dist = bfs_distances(free, sources)
    assert dist.dtype == np.int32 and dist.shape == free.shape
    assert np.array_equal(dist, reference(free, sources, grid_graph))


@SETTINGS
@given(free=grids(), data=st.data())
def test_random_grids_against_networkx(grid_graph, free, data):
    h, w = free.shape
    cell = st.tuples(st.integers(0, h - 1), st.integers(0, w - 1))
    sources = data.draw(st.lists(cell, min_size=1, max_size=4))
    assert np.array_equal(bfs_distances(free, sources), reference(free, sources, grid_graph))


def test_blocked_source_leaves_through_free_neighbours():
    free = np.array([[1, 0, 1, 1]], bool)
    assert bfs_distances(free, [(0, 1)]).tolist() == [[1, 0, 1, 2]]
    assert bfs_distances(free, [(0, 0), (0, 3)]).tolist() == [[0, -1, 1, 0]]


@SETTINGS
@given(free=grids(15), data=st.data())
def test_blocked_kernel_treats_the_blocker_as_a_wall(grid_graph, free, data):
    h, w = free.shape
    a = (data.draw(st.integers(0, h - 1)), data.draw(st.integers(0, w - 1)))
    b = (data.draw(st.integers(0, h - 1)), data.draw(st.integers(0, w - 1)))
    flat, stride = pad_free(free)
    bufs = new_buffers(len(flat), 2)
    reached = bfs_blocked_kernel(
        flat, stride, flat_index(a, stride), flat_index(b, stride), bufs[0], bufs[1]
    )
    g = with_sources(grid_graph(free), [a])
    if b != a and b in g:
        g.remove_node(b)
    lengths = nx.single_source_shortest_path_length(g, a)
    ours = bufs[0].reshape(h + 2, w + 2)[1:-1, 1:-1]
    expected = np.full((h, w), -1)
    for cell, d in lengths.items():
        expected[cell] = d
    assert np.array_equal(ours, expected)
    assert reached == len(lengths)


def test_kernel_queue_is_in_distance_order_and_reused():
    rng = np.random.default_rng(3)
    free = rng.random((15, 17)) > 0.3
    flat, stride = pad_free(free)
    bufs = new_buffers(len(flat), 2)
    for cell in [(0, 0), (7, 8), (14, 16)]:
        src = np.array([flat_index(cell, stride)], dtype=np.int64)
        k = bfs_kernel(flat, stride, src, bufs[0], bufs[1])
        d = bufs[0][bufs[1][:k]]
        assert d[0] == 0 and np.all(np.diff(d) >= 0)
        assert k == int((bufs[0] >= 0).sum())
        assert np.array_equal(bufs[0].reshape(17, 19)[1:-1, 1:-1], bfs_distances(free, [cell]))


def test_no_source_and_outside_source_are_refused():
    with pytest.raises(GridError, match="at least one source"):
        bfs_distances(np.ones((2, 2), bool), [])
    with pytest.raises(GridError, match="outside"):
        bfs_distances(np.ones((2, 2), bool), [(2, 0)])
