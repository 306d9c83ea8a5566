"""Articulation points against networkx; very large and very deep grids."""

from __future__ import annotations

import networkx as nx
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from atlas.analysis.articulation import (
    articulation_from_kernel,
    articulation_kernel,
    articulation_mask,
    articulation_points,
)
from atlas.analysis.components import label_components
from atlas.analysis.grid import flat_index, new_buffers, pad_free
from atlas.maps import read_map

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True)


@st.composite
def grids(draw, max_side=20):
    """A random grid up to ``max_side`` each way, walls at one of a few densities."""
    h = draw(st.integers(1, max_side))
    w = draw(st.integers(1, max_side))
    density = draw(st.sampled_from([0.0, 0.2, 0.3, 0.4, 0.55]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    return rng.random((h, w)) >= density


def check_against_networkx(free, grid_graph):
    points = articulation_points(free)
    assert points == sorted(nx.articulation_points(grid_graph(free)))
    mask = articulation_mask(free)
    assert mask.dtype == np.bool_ and mask.shape == free.shape
    assert sorted(zip(*map(list, np.nonzero(mask)))) == points


def test_every_map_file_against_networkx(any_map_file, grid_graph):
    gm = read_map(any_map_file)
    check_against_networkx(gm.free, grid_graph)


@SETTINGS
@given(free=grids())
def test_random_grids_against_networkx(grid_graph, free):
    check_against_networkx(free, grid_graph)


def test_corridor_maps_have_points():
    # The shared tron maps are open rooms; make sure the comparison saw cut cells.
    free = np.array(
        [
            [c != "#" for c in row]
            for row in [
                "#########",
                "#   #   #",
                "#   #   #",
                "##### ###",
                "#       #",
                "#########",
            ]
        ]
    )
    # The door (3, 5), the room cell above it, and the inner cells of the corridor.
    assert articulation_points(free) == [(2, 5), (3, 5), (4, 2), (4, 3), (4, 4), (4, 5), (4, 6)]


def test_open_1000x1000_map_has_none_and_no_recursion_error():
    free = np.ones((1000, 1000), bool)
    assert articulation_points(free) == []


def test_long_serpentine_corridor():
    # 199 x 200 serpentine: every cell but the two ends cuts it (depth ~ 20 000).
    h, w = 199, 200
    free = np.zeros((h, w), bool)
    free[::2, :] = True
    for r in range(1, h, 2):
        free[r, w - 1 if r % 4 == 1 else 0] = True
    _, n = label_components(free)
    assert n == 1
    mask = articulation_mask(free)
    ends = [(0, 0), (h - 1, w - 1 if (h - 1) % 4 == 0 else 0)]
    assert int(mask.sum()) == int(free.sum()) - 2
    assert not mask[ends[0]] and not mask[ends[1]]


def test_straight_corridor_of_5000():
    free = np.ones((1, 5000), bool)
    pts = articulation_points(free)
    assert pts == [(0, c) for c in range(1, 4999)]


def test_from_kernel_sees_only_the_roots_component(grid_graph):
    rng = np.random.default_rng(11)
    free = rng.random((18, 18)) > 0.35
    labels, n = label_components(free)
    flat, stride = pad_free(free)
    bufs = new_buffers(len(flat), 3)
    is_cut = np.zeros(len(flat), np.uint8)
    g = grid_graph(free)
    for k in range(1, n + 1):
        r, c = map(int, np.argwhere(labels == k)[0])
        count = articulation_from_kernel(
            flat, stride, flat_index((r, c), stride), bufs[0], bufs[1], bufs[2], is_cut
        )
        comp = g.subgraph(nx.node_connected_component(g, (r, c)))
        ours = {(int(i) // stride - 1, int(i) % stride - 1) for i in np.flatnonzero(is_cut)}
        assert ours == set(nx.articulation_points(comp))
        assert count == len(ours)
    # The all-components kernel agrees with the union, reusing the same buffers.
    total = articulation_kernel(flat, stride, bufs[0], bufs[1], bufs[2], is_cut)
    assert total == len(list(nx.articulation_points(g)))


def test_two_cell_and_single_cell_components_have_none():
    assert articulation_points([[1, 1, 0, 1]]) == []
    assert articulation_points([[1, 1, 1]]) == [(0, 1)]
    assert articulation_points(np.zeros((4, 4), bool)) == []
