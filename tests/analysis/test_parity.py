"""The checkerboard bound: exact on corridors and rooms, never below the longest walk."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atlas.analysis.grid import GridError, flat_index, new_buffers, pad_free
from atlas.analysis.parity import parity_bound, parity_from_counts, parity_kernel
from atlas.maps import read_map

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True)
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def longest_walk(free, start):
    """Brute force: the most moves from ``start`` through distinct free cells."""
    best = 0
    stack = [(start, frozenset([start]))]
    h, w = free.shape
    while stack:
        v, seen = stack.pop()
        best = max(best, len(seen) - 1)
        for dr, dc in STEPS:
            r, c = v[0] + dr, v[1] + dc
            if 0 <= r < h and 0 <= c < w and free[r, c] and (r, c) not in seen:
                stack.append(((r, c), seen | {(r, c)}))
    return best


def colour_reference(free, start, grid_graph):
    """The formula from the colours (row + col) % 2 of start's component (networkx)."""
    g = grid_graph(free)
    g.add_node(start)
    for dr, dc in STEPS:
        if (start[0] + dr, start[1] + dc) in g:
            g.add_edge(start, (start[0] + dr, start[1] + dc))
    comp = nx.node_connected_component(g, start) - {start}
    same = sum((r + c) % 2 == sum(start) % 2 for r, c in comp)
    other = len(comp) - same
    return 2 * same + 1 if other > same else 2 * other


@pytest.mark.parametrize("length", [1, 2, 3, 4, 7, 10])
def test_exact_on_a_corridor_from_its_end(length):
    free = np.ones((1, length), bool)
    assert parity_bound(free, (0, 0)) == length - 1
    assert parity_bound(free.T, (length - 1, 0)) == length - 1


@pytest.mark.parametrize("h,w", [(2, 2), (2, 3), (3, 3), (3, 4), (5, 5), (4, 7), (6, 6)])
def test_exact_in_a_room_from_a_corner(h, w):
    free = np.ones((h, w), bool)
    # A boustrophedon from any corner visits every cell: h * w - 1 moves.
    for corner in [(0, 0), (0, w - 1), (h - 1, 0), (h - 1, w - 1)]:
        assert parity_bound(free, corner) == h * w - 1


def test_bound_bites_where_colours_are_unbalanced():
    # A plus shape: centre is one colour, the four arms' inner cells the other.
    free = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], bool)
    assert parity_bound(free, (0, 1)) == 2  # one cell of the other colour: the centre
    assert longest_walk(free, (0, 1)) == 2
    # From an edge middle of a 3x3 room (the minority colour): 3 cells of its colour
    # and 5 of the other remain, so 2 * 3 + 1 = 7 moves, not 8.
    assert parity_bound(np.ones((3, 3), bool), (0, 1)) == 7
    assert longest_walk(np.ones((3, 3), bool), (0, 1)) == 7


@SETTINGS
@given(
    h=st.integers(1, 4),
    w=st.integers(1, 4),
    seed=st.integers(0, 2**32 - 1),
    density=st.sampled_from([0.0, 0.2, 0.35]),
    data=st.data(),
)
def test_never_below_the_longest_walk(grid_graph, h, w, seed, density, data):
    free = np.random.default_rng(seed).random((h, w)) >= density
    start = (data.draw(st.integers(0, h - 1)), data.draw(st.integers(0, w - 1)))
    bound = parity_bound(free, start)
    assert bound == colour_reference(free, start, grid_graph)
    blocked_start = free.copy()
    blocked_start[start] = False  # a tron head on its trail: same walks
    assert parity_bound(blocked_start, start) == bound
    assert bound >= longest_walk(blocked_start, start)


def test_every_map_file_against_the_colouring(any_map_file, grid_graph):
    gm = read_map(any_map_file)
    for start in gm.starts or [(0, 0)]:
        assert parity_bound(gm.free, start) == colour_reference(gm.free, start, grid_graph)


def test_formula_and_kernel():
    assert [parity_from_counts(s, o) for s, o in [(0, 0), (0, 1), (1, 1), (2, 5), (5, 2)]] == [
        0,
        1,
        2,
        5,
        4,
    ]
    free = np.ones((4, 6), bool)
    flat, stride = pad_free(free)
    bufs = new_buffers(len(flat), 2)
    assert parity_kernel(flat, stride, flat_index((0, 0), stride), bufs[0], bufs[1]) == 23
    assert bufs[0][flat_index((3, 5), stride)] == 8


def test_bad_start_is_refused():
    with pytest.raises(GridError, match="start"):
        parity_bound(np.ones((2, 2), bool), (0, 2))
