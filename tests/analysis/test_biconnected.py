"""The one Hopcroft-Tarjan walk (atlas.analysis.biconnected) against networkx."""

from __future__ import annotations

import networkx as nx
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from atlas import jit
from atlas.analysis.biconnected import hopcroft_tarjan
from atlas.analysis.grid import cell_of, flat_index, pad_free

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True)

#: Rows of the test walk's work array: cells entered (a stack), each cell's block.
_VSTACK, _BLOCK, _TOP, _PARENT = 0, 1, 2, 3


@jit.njit(cache=False, inline="always")
def _push(work, counts, c, params, w, v):  # pragma: no cover - compiled
    work[_VSTACK, counts[0]] = w
    work[_PARENT, w] = v
    counts[0] += 1


@jit.njit(cache=False, inline="always")
def _block(work, counts, c, params, v, u, root_child):  # pragma: no cover - compiled
    nb = counts[1]
    while True:
        counts[0] -= 1
        x = np.uint64(work[_VSTACK, counts[0]])
        work[_BLOCK, x] = nb
        if x == v:
            break
    work[_TOP, nb] = u
    counts[1] = nb + 1
    if root_child:
        counts[2] += 1


@jit.njit(cache=False, inline="always")
def _inner(work, counts, c, params, v, u):  # pragma: no cover - compiled
    counts[3] += 1


_walk = hopcroft_tarjan(_push, _block, _inner)
_walk_headless = hopcroft_tarjan(_push, _block, _inner, root_vertex=False)


@jit.njit(cache=False)
def _run(flat, stride, root, work, disc, low, stack, counts, headless):  # pragma: no cover
    for i in range(flat.shape[0]):
        disc[i] = np.int32(flat[i]) - 1
        work[_BLOCK, i] = -1
        work[_PARENT, i] = -1
    if headless:
        return _walk_headless(work, counts, counts, (), stride, root, 1, disc, low, stack)
    return _walk(work, counts, counts, (), stride, root, 1, disc, low, stack)


def walk_blocks(free, root, headless=False):
    """The blocks the walk reports from ``root`` (each a set of cells, its top included),
    and the walk's other figures."""
    flat, stride = pad_free(free)
    n = flat.size
    work = np.zeros((4, n), np.int32)
    disc, low, stack = (np.zeros(n, np.int32) for _ in range(3))
    counts = np.zeros(4, np.int64)
    r = flat_index(root, stride)
    timer, children = _run(flat, stride, r, work, disc, low, stack, counts, headless)
    blocks: dict[int, set] = {}
    for i in np.flatnonzero(work[_BLOCK] >= 0):
        blocks.setdefault(int(work[_BLOCK, i]), set()).add(cell_of(int(i), stride))
    for k, cells in blocks.items():
        cells.add(cell_of(int(work[_TOP, k]), stride))
    visited = int((disc > 0).sum())
    return blocks, int(timer), int(children), counts, visited


@st.composite
def grids(draw, max_side=14):
    h = draw(st.integers(1, max_side))
    w = draw(st.integers(1, max_side))
    density = draw(st.sampled_from([0.0, 0.2, 0.3, 0.4]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    free = rng.random((h, w)) >= density
    cells = np.argwhere(free)
    if len(cells) == 0:
        free[0, 0] = True
        cells = np.argwhere(free)
    root = tuple(int(x) for x in cells[draw(st.integers(0, len(cells) - 1))])
    return free, root


@SETTINGS
@given(case=grids())
def test_blocks_are_the_biconnected_components_of_networkx(grid_graph, case):
    free, root = case
    graph = grid_graph(free)
    component = graph.subgraph(nx.node_connected_component(graph, root))
    want = sorted(sorted(b) for b in nx.biconnected_components(component))
    blocks, timer, children, counts, visited = walk_blocks(free, root)
    assert sorted(sorted(b) for b in blocks.values()) == want
    # every cell of the component was discovered once, the root first (time 1)
    assert visited == component.number_of_nodes() == timer - 1
    # the root's children: one per block holding the root
    assert children == sum(root in b for b in blocks.values()) == counts[2]
    # a finished cell either closes a block or joins its parent's
    assert counts[1] + counts[3] == component.number_of_nodes() - 1


def test_a_headless_root_is_no_vertex_of_the_graph():
    # A ring of 8 cells around a wall: from a corner, networkx sees one block (the ring);
    # without the root as a vertex, the ring opened at the root is a path: 7 blocks.
    free = np.array([[1, 1, 1], [1, 0, 1], [1, 1, 1]], bool)
    blocks, *_ = walk_blocks(free, (0, 0))
    assert len(blocks) == 1 and len(blocks[0]) == 8
    blocks, timer, children, counts, visited = walk_blocks(free, (0, 0), headless=True)
    assert len(blocks) == 7 and all(len(b) == 2 for b in blocks.values())
    assert children == 1 and visited == 7  # the root's disc is -1: not counted


def test_the_walk_runs_as_python_the_same():
    free = np.random.default_rng(5).random((9, 11)) > 0.3
    root = tuple(int(x) for x in np.argwhere(free)[0])
    compiled = walk_blocks(free, root)
    with jit.interpreted():
        plain = walk_blocks(free, root)
    assert compiled[0] == plain[0] and compiled[1:3] == plain[1:3]
    assert compiled[4] == plain[4] and list(compiled[3]) == list(plain[3])


def test_a_walk_pickles_as_its_name():
    import pickle

    assert pickle.loads(pickle.dumps(_walk)) is _walk
    assert _walk.name.startswith("hopcroft_tarjan(") and "test_biconnected._push" in _walk.name
