"""Small inline SVG drawings for the site's pages (text, no image files).

:func:`chamber_tree_svg` draws a tron map's chamber tree (as
:func:`atlas.analyze.summary.chamber_tree_json` gives it) as a tree: a node per
chamber, sized by its cells and tinted as on the chambers picture, an edge from each
chamber to its parent through its entrance cell.
"""

from __future__ import annotations

import math
from typing import Any, Sequence
from xml.sax.saxutils import escape

from . import palette as P

__all__ = ["chamber_tree_svg", "tree_layout"]


def tree_layout(roots: Sequence[dict[str, Any]]) -> list[tuple[dict[str, Any], float, int,
                                                                dict[str, Any] | None]]:
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
        (r, 0, None, False) for r in reversed(roots)]
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


def chamber_tree_svg(roots: Sequence[dict[str, Any]], *, slot: int | None = None,
                     level: int = 78) -> str:
    """The chamber tree as an inline ``<svg>`` element (see the module docstring).

    Parameters
    ----------
    roots : list of dict
        ``{id, size, entrance, children}`` nodes.
    slot, level : int
        Pixels between neighbouring leaves (default: room for the entrance labels of
        trees small enough to show them) and between levels.
    """
    nodes = tree_layout(roots)
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
    parts = [f'<svg class="chamber-tree" '
             f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
             f'role="img" aria-label="chamber tree of {len(nodes)} chambers">']
    for n, x, d, parent in nodes:
        if parent is None:
            continue
        (x1, y1), (x2, y2) = where[id(parent)], where[id(n)]
        parts.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                     f'class="edge"/>')
        if labels and n.get("entrance"):
            r, c = n["entrance"]
            parts.append(f'<text x="{x1 + 0.62 * (x2 - x1):.1f}" '
                         f'y="{y1 + 0.62 * (y2 - y1):.1f}" class="entrance">'
                         f'({int(r)}, {int(c)})</text>')
    for n, x, d, _ in nodes:
        cx, cy = where[id(n)]
        size = int(n.get("size", 0))
        rad = radius(size)
        fill = P.PALETTE_HEX[P.chamber_index(int(n.get("id", 1)) - 1)]
        entrance = n.get("entrance")
        tip = f"chamber {int(n.get('id', 0))}: {size} cells" + (
            f", entered at row {int(entrance[0])}, col {int(entrance[1])}" if entrance
            else ", where seat 1 starts")
        parts.append(f'<g class="node"><title>{escape(tip)}</title>'
                     f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{rad:.1f}" fill="{fill}"/>')
        if rad >= 13:
            parts.append(f'<text x="{cx:.1f}" y="{cy + 4:.1f}" class="size">{size}</text>')
        else:
            parts.append(f'<text x="{cx:.1f}" y="{cy + rad + 11:.1f}" class="size">'
                         f'{size}</text>')
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)
