"""Connected components against networkx, on every map file and on random grids."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atlas.analysis.components import (
    component_size,
    component_size_kernel,
    components_kernel,
    label_components,
)
from atlas.analysis.grid import GridError, flat_index, new_buffers, pad_free
from atlas.maps import read_map

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True)


@st.composite
def grids(draw, max_side=20):
    """A random grid up to ``max_side`` each way, walls at one of a few densities."""
    h = draw(st.integers(1, max_side))
    w = draw(st.integers(1, max_side))
    density = draw(st.sampled_from([0.0, 0.2, 0.35, 0.5, 0.7]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    return rng.random((h, w)) >= density


def cells_of(mask):
    return frozenset((int(r), int(c)) for r, c in zip(*np.nonzero(mask)))


def check_against_networkx(free, grid_graph):
    labels, n = label_components(free)
    comps = list(nx.connected_components(grid_graph(free)))
    assert n == len(comps)
    assert labels.dtype == np.int32 and labels.shape == free.shape
    assert np.array_equal(labels == 0, ~free)
    assert {cells_of(labels == k) for k in range(1, n + 1)} == {frozenset(c) for c in comps}
    # Numbered in raster order of each component's first cell.
    firsts = [min(cells_of(labels == k)) for k in range(1, n + 1)]
    assert firsts == sorted(firsts)


def test_every_map_file_against_networkx(any_map_file, grid_graph):
    gm = read_map(any_map_file)
    check_against_networkx(gm.free, grid_graph)
    if gm.game == "outpost":
        check_against_networkx(gm.blocked, grid_graph)


def test_shared_maps_are_there(outside_data):
    assert len(list((outside_data / "tron-maps").glob("*.txt"))) >= 16
    assert len(list((outside_data / "outpost-maps").glob("*.txt"))) >= 4


@SETTINGS
@given(free=grids())
def test_random_grids_against_networkx(grid_graph, free):
    check_against_networkx(free, grid_graph)


@SETTINGS
@given(free=grids(12), data=st.data())
def test_component_size_against_networkx(grid_graph, free, data):
    r = data.draw(st.integers(0, free.shape[0] - 1))
    c = data.draw(st.integers(0, free.shape[1] - 1))
    g = grid_graph(free)
    # The start may be blocked (a tron head): it joins its free neighbours.
    g.add_node((r, c))
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if (r + dr, c + dc) in g:
            g.add_edge((r, c), (r + dr, c + dc))
    assert component_size(free, (r, c)) == len(nx.node_connected_component(g, (r, c))) - 1


def test_documented_example_and_labels_in_raster_order():
    labels, n = label_components([[0, 0, 1], [1, 0, 1], [1, 1, 0]])
    assert n == 2
    assert labels.tolist() == [[0, 0, 1], [2, 0, 1], [2, 2, 0]]


def test_all_blocked_and_all_free():
    labels, n = label_components(np.zeros((3, 4), bool))
    assert n == 0 and not labels.any()
    labels, n = label_components(np.ones((3, 4), bool))
    assert n == 1 and (labels == 1).all()


def test_checkerboard_has_one_component_per_free_cell():
    free = (np.add.outer(np.arange(7), np.arange(9)) % 2) == 0
    labels, n = label_components(free)
    assert n == int(free.sum())
    assert sorted(labels[free].tolist()) == list(range(1, n + 1))


def test_kernel_reuses_its_buffers():
    rng = np.random.default_rng(5)
    bufs = new_buffers(22 * 32, 2)
    for _ in range(3):
        free = rng.random((20, 30)) > 0.4
        flat, stride = pad_free(free)
        n = components_kernel(flat, stride, bufs[0], bufs[1])
        labels, n_ref = label_components(free)
        assert n == n_ref
        assert np.array_equal(bufs[0].reshape(22, 32)[1:-1, 1:-1], labels)
        start = flat_index((0, 0), stride)
        size = component_size_kernel(flat, stride, start, bufs[0], bufs[1])
        assert size == component_size(free, (0, 0))


@pytest.mark.parametrize(
    "bad", [np.ones(5, bool), np.ones((0, 3), bool), np.array([["a", "b"]])]
)
def test_bad_grids_are_refused(bad):
    with pytest.raises(GridError) as err:
        label_components(bad)
    assert isinstance(err.value, ValueError)


@pytest.mark.parametrize("cell", [(3, 0), (0, -1), (0.5, 1), "ab", None])
def test_bad_start_is_refused(cell):
    with pytest.raises(GridError, match="start"):
        component_size(np.ones((3, 3), bool), cell)
