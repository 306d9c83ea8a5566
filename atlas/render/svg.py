"""Small inline SVG drawings for the site's pages (text, no image files).

:func:`chamber_tree_svg` draws a tron map's chamber tree (as
:func:`atlas.analysis.summary.chamber_tree_json` gives it) as a tree: a node per
chamber, sized by its cells and tinted as on the chambers picture, an edge from each
chamber to its parent through its entrance cell.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any
from xml.sax.saxutils import escape

from . import palette as P

__all__ = ["chamber_tree_svg", "tree_layout", "merge_small_leaves"]

#: Leaf chambers below this many cells (or 1 % of the region) are drawn together, one
#: node per parent ("k small"), so a maze's dead ends do not drown the tree.
SMALL_LEAF = 4


def tree_layout(
    roots: Sequence[dict[str, Any]],
) -> list[tuple[dict[str, Any], float, int, dict[str, Any] | None]]:
    """``(node, x, depth, parent)`` for every node: leaves on consecutive slots ``0, 1,
    ...`` left to right, each parent centred over its children.

    Notes
    -----
    Post-order with an explicit stack (no recursion); O(nodes).

    Examples
    --------
    >>> tree = [{"id": 1, "children": [{"id": 2, "children": []},
    ...                                 {"id": 3, "children": []}]}]
    >>> [(n["id"], x, d) for n, x, d, _ in tree_layout(tree)]
    [(1, 0.5, 0), (2, 0.0, 1), (3, 1.0, 1)]
    """
    out: dict[int, tuple[dict[str, Any], float, int, dict[str, Any] | None]] = {}
    order: list[int] = []
    slot = 0.0
    stack: list[tuple[dict[str, Any], int, dict[str, Any] | None, bool]] = [
        (r, 0, None, False) for r in reversed(roots)
    ]
    while stack:
        node, depth, parent, done = stack.pop()
        kids = node.get("children", [])
        if not done and kids:
            stack.append((node, depth, parent, True))
            stack.extend((c, depth + 1, node, False) for c in reversed(kids))
            order.append(id(node))
            continue
        if kids:
            xs = [out[id(c)][1] for c in kids]
            x = (min(xs) + max(xs)) / 2
        else:
            x = slot
            slot += 1.0
            order.append(id(node))
        out[id(node)] = (node, x, depth, parent)
    return [out[i] for i in order]


def merge_small_leaves(roots: Sequence[dict[str, Any]], limit: int) -> list[dict[str, Any]]:
    """A copy of the tree where, under each parent, the leaf chambers of fewer than
    ``limit`` cells become one node ``{"id": None, "size": total, "merged": count,
    "children": []}`` (when there are at least two of them), drawn last.

    Examples
    --------
    >>> t = [{"id": 1, "size": 50, "entrance": None, "children": [
    ...     {"id": 2, "size": 1, "entrance": [0, 1], "children": []},
    ...     {"id": 3, "size": 2, "entrance": [0, 2], "children": []},
    ...     {"id": 4, "size": 30, "entrance": [0, 3], "children": []}]}]
    >>> [(c["id"], c["size"], c.get("merged")) for c in merge_small_leaves(t, 4)[0]["children"]]
    [(4, 30, None), (None, 3, 2)]
    """
    out: list[dict[str, Any]] = []
    stack: list[tuple[dict[str, Any], list[dict[str, Any]]]] = [
        (r, out) for r in reversed(roots)
    ]
    tails: list[tuple[list[dict[str, Any]], dict[str, Any]]] = []
    while stack:
        node, into = stack.pop()
        copy = {k: v for k, v in node.items() if k != "children"}
        copy["children"] = []
        into.append(copy)
        kids = list(node.get("children", []))
        small = [c for c in kids if not c.get("children") and int(c.get("size", 0)) < limit]
        if len(small) >= 2:
            kids = [c for c in kids if not any(c is x for x in small)]
            tails.append(
                (
                    copy["children"],
                    {
                        "id": None,
                        "size": sum(int(c.get("size", 0)) for c in small),
                        "entrance": None,
                        "merged": len(small),
                        "children": [],
                    },
                )
            )
        for c in reversed(kids):
            stack.append((c, copy["children"]))
    for children, merged in tails:  # after the kept children are all in place
        children.append(merged)
    return out


def chamber_tree_svg(
    roots: Sequence[dict[str, Any]], *, slot: int | None = None, level: int = 78
) -> str:
    """The chamber tree as an inline ``<svg>`` element (see the module docstring).

    Parameters
    ----------
    roots : list of dict
        ``{id, size, entrance, children}`` nodes.
    slot, level : int
        Pixels between neighbouring leaves (default: room for the entrance labels of
        trees small enough to show them) and between levels.
    """
    total = count = 0
    stack = list(roots)
    while stack:
        n = stack.pop()
        total += int(n.get("size", 0))
        count += 1
        stack += n.get("children", [])
    nodes = tree_layout(merge_small_leaves(roots, max(SMALL_LEAF, total // 100)))
    if not nodes:
        return ""
    labels = len(nodes) <= 16
    slot = slot or (96 if labels else 44)
    biggest = max(max(int(n.get("size", 0)), 1) for n, *_ in nodes)
    leaves = max(x for _, x, _, _ in nodes) + 1
    depth = max(d for _, _, d, _ in nodes) + 1
    width = int(leaves * slot + 20)
    height = int(depth * level + 10)

    def pos(x: float, d: int) -> tuple[float, float]:
        return 10 + slot / 2 + x * slot, 34 + d * level

    def radius(size: int) -> float:
        return 7 + 17 * math.sqrt(max(size, 0) / biggest)

    where = {id(n): pos(x, d) for n, x, d, _ in nodes}
    parts = [
        f'<svg class="chamber-tree" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="chamber tree of {count} chambers" '
        f'data-chambers="{count}">'
    ]
    for n, _x, _d, parent in nodes:
        if parent is None:
            continue
        (x1, y1), (x2, y2) = where[id(parent)], where[id(n)]
        parts.append(
            f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" class="edge"/>'
        )
        if labels and n.get("entrance"):
            r, c = n["entrance"]
            parts.append(
                f'<text x="{x1 + 0.62 * (x2 - x1):.1f}" '
                f'y="{y1 + 0.62 * (y2 - y1):.1f}" class="entrance">'
                f"({int(r)}, {int(c)})</text>"
            )
    for n, _x, _d, _ in nodes:
        cx, cy = where[id(n)]
        size = int(n.get("size", 0))
        rad = radius(size)
        entrance = n.get("entrance")
        if n.get("merged"):
            fill = P.PALETTE_HEX[P.MUTED]
            tip = f"{n['merged']} small dead-end chambers: {size} cells in all"
        else:
            fill = P.PALETTE_HEX[P.chamber_index(int(n.get("id", 1)) - 1)]
            tip = f"chamber {int(n.get('id', 0))}: {size} cells" + (
                f", entered at row {int(entrance[0])}, col {int(entrance[1])}"
                if entrance
                else ", where seat 1 starts"
            )
        parts.append(
            f'<g class="node"><title>{escape(tip)}</title>'
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{rad:.1f}" fill="{fill}"/>'
        )
        label = f"{n['merged']} small" if n.get("merged") else str(size)
        if rad >= 13 and not n.get("merged"):
            parts.append(f'<text x="{cx:.1f}" y="{cy + 4:.1f}" class="size">{label}</text>')
        else:
            parts.append(
                f'<text x="{cx:.1f}" y="{cy + rad + 11:.1f}" class="size">{label}</text>'
            )
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)
