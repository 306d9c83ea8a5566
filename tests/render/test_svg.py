"""The chamber tree drawn as a tree: layout, small dead ends grouped, nothing lost."""

from __future__ import annotations

import re
from pathlib import Path

from atlas.maps import read_map
from atlas.render.svg import SMALL_LEAF, chamber_tree_svg, merge_small_leaves, tree_layout
from atlas.sim.registry import summarize_map

ROOT = Path(__file__).resolve().parents[2]


def _walk(nodes):
    stack = list(nodes)
    while stack:
        n = stack.pop()
        yield n
        stack += n["children"]


def test_layout_centres_parents_over_their_children():
    tree = [
        {
            "id": 1,
            "children": [
                {"id": 2, "children": [{"id": 4, "children": []}]},
                {"id": 3, "children": []},
            ],
        }
    ]
    placed = {n["id"]: (x, d) for n, x, d, _ in tree_layout(tree)}
    assert placed == {1: (0.5, 0), 2: (0.0, 1), 4: (0.0, 2), 3: (1.0, 1)}


def test_small_dead_ends_are_grouped_and_no_cell_is_lost():
    roots = summarize_map(read_map(ROOT / "maps" / "tron" / "labyrinth.txt"))["chamber_tree"]
    nodes = list(_walk(roots))
    merged = merge_small_leaves(roots, 4)
    drawn = list(_walk(merged))
    assert len(drawn) < len(nodes)
    assert sum(n["size"] for n in drawn) == sum(n["size"] for n in nodes)
    groups = [n for n in drawn if n.get("merged")]
    assert groups and all(n["merged"] >= 2 and not n["children"] for n in groups)
    assert sum(n["merged"] for n in groups) + len(drawn) - len(groups) == len(nodes)
    svg = chamber_tree_svg(roots)  # groups leaves under max(4, 1 % of the cells)
    limit = max(SMALL_LEAF, sum(n["size"] for n in nodes) // 100)
    assert svg.count("<circle ") == len(list(_walk(merge_small_leaves(roots, limit))))
    assert f'data-chambers="{len(nodes)}"' in svg
    width = int(re.search(r'width="(\d+)"', svg).group(1))
    assert width < 1200  # fits a page


def test_a_small_tree_keeps_every_chamber_and_its_entrances():
    roots = summarize_map(read_map(ROOT / "maps" / "tron" / "rooms.txt"))["chamber_tree"]
    nodes = list(_walk(roots))
    svg = chamber_tree_svg(roots)
    for n in nodes:
        if n["entrance"] and n["size"] >= 4:
            r, c = n["entrance"]
            assert f"entered at row {r}, col {c}" in svg
    assert "http" not in svg  # inline SVG needs no namespace: no outside address
