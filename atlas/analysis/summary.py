"""One map's key figures, as a JSON-ready dict and as a few lines for people.

``atlas analyze MAP [--json]`` prints these (see :mod:`atlas.cli`); the site shows them.
Each game composes its summary from the parts here (``GAME.summarize_map``, see
:mod:`atlas.sim`); :func:`format_summary` prints any of them.

Keys
----
:func:`grid_summary` (every map)
    ``game``, ``name``, ``width``, ``height``; ``free_cells``; ``components`` (count of
    4-connected components of free cells); ``articulation_points`` (list of ``[row,
    col]``; on a static map the start cells are free cells of the graph); ``starts``
    (list of ``[row, col]``).  Isolation adds ``variant``.
:func:`duel_summary` (two starts that move step by step: tron)
    ``voronoi``: ``{"p1", "p2", "tie"}`` as :func:`atlas.analysis.voronoi.voronoi_counts`
    (starts occupied, ties to no one); ``chambers``: per player ``{"fillable",
    "count"}`` of :func:`atlas.analysis.chambers.chamber_tree` against the other start;
    ``chamber_tree``: player 1's chambers as nested ``{id, size, entrance, children}``;
    ``parity_bound``: per player, :func:`atlas.analysis.parity.parity_bound` with the
    other start as a wall.  Isolation pieces jump (queen or knight moves), so these
    step-by-step measures are left out for isolation.
:func:`atlas.games.outpost.analysis.map_summary` (a board of land and water with homes)
    ``land``, ``water``, ``free_cells`` (= land), ``components`` and
    ``articulation_points`` of the land, ``water_components``, ``homes``.
a board without walls (``atlas.games.connect5.rules``)
    ``columns``, ``rows``, ``inarow``, ``cells``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..maps import GameMap
from ..types import Cell, Grid
from .articulation import articulation_points
from .chambers import ChamberTree, chamber_tree
from .components import label_components
from .parity import parity_bound
from .voronoi import voronoi_counts

__all__ = [
    "grid_summary",
    "duel_summary",
    "head_fields",
    "cell_lists",
    "chamber_tree_json",
    "format_summary",
]

#: Articulation points listed by :func:`format_summary` before "and N more".
SHOWN_POINTS = 6


def cell_lists(cells: Any) -> list[list[int]]:
    """``(row, col)`` cells as JSON lists ``[row, col]``."""
    return [[int(r), int(c)] for r, c in cells]


def head_fields(g: GameMap) -> dict[str, Any]:
    """The keys every summary starts with: ``game``, ``name``, ``width``, ``height``."""
    return {"game": g.game, "name": g.name, "width": g.width, "height": g.height}


def grid_summary(game_map: GameMap) -> dict[str, Any]:
    """Size, free cells, their components and articulation points, and the starts.

    Notes
    -----
    One pass of each kernel over the map: O(rows x cols).

    Examples
    --------
    >>> from atlas.maps import parse_map
    >>> m = parse_map("5 3\\n#####\\n#1 2#\\n#####\\n", game="tron", name="tiny")
    >>> s = grid_summary(m)
    >>> s["free_cells"], s["articulation_points"]
    (3, [[1, 2]])
    """
    free = game_map.free
    _, n_components = label_components(free)
    return {
        **head_fields(game_map),
        "free_cells": int(free.sum()),
        "components": n_components,
        "articulation_points": cell_lists(articulation_points(free)),
        "starts": cell_lists(game_map.starts),
    }


def duel_summary(free: Grid, a: Cell, b: Cell) -> dict[str, Any]:
    """Voronoi counts, chamber trees and parity bounds of two players on ``a`` and ``b``.

    Examples
    --------
    >>> free = np.ones((1, 3), dtype=bool)
    >>> duel_summary(free, (0, 0), (0, 2))["voronoi"]
    {'p1': 0, 'p2': 0, 'tie': 1}
    """
    out: dict[str, Any] = {"voronoi": voronoi_counts(free, a, b)}
    chambers = {}
    parity = {}
    for key, me, opp in (("p1", a, b), ("p2", b, a)):
        tree = chamber_tree(free, me, opp)
        chambers[key] = {"fillable": tree.fillable, "count": len(tree.chambers)}
        if key == "p1":
            out["chamber_tree"] = chamber_tree_json(tree)
        alone = np.array(free, copy=True)
        alone[opp] = False
        parity[key] = parity_bound(alone, me)
    out["chambers"] = chambers
    out["parity_bound"] = parity
    return out


def chamber_tree_json(tree: ChamberTree) -> list[dict[str, Any]]:
    """A chamber tree as nested ``{id, size, entrance, children}`` (``entrance`` as
    ``[row, col]``, ``None`` for a root)."""
    nodes: dict[int, dict[str, Any]] = {
        ch.id: {
            "id": int(ch.id),
            "size": int(ch.size),
            "entrance": None
            if ch.entrance is None
            else [int(ch.entrance[0]), int(ch.entrance[1])],
            "children": [],
        }
        for ch in tree.chambers
    }
    roots = []
    for ch in tree.chambers:
        if ch.parent is None or ch.parent not in nodes:
            roots.append(nodes[ch.id])
        else:
            nodes[ch.parent]["children"].append(nodes[ch.id])
    return roots


def _pair(d: Mapping[str, Any], keys: tuple[str, ...] = ("p1", "p2", "tie")) -> str:
    return ", ".join(f"{k} {d[k]}" for k in keys if k in d)


def format_summary(d: Mapping[str, Any]) -> str:
    """A few aligned lines for people, from a summary dict (any game's ``summarize_map``).

    Examples
    --------
    >>> print(format_summary({"game": "connect5", "name": "standard", "width": 9,
    ...                       "height": 6, "columns": 9, "rows": 6, "inarow": 5}))
    connect5 map "standard", 9 x 6
      board                9 columns x 6 rows, 5 in a row wins
    """
    lines = [
        f'{d.get("game", "?")} map "{d.get("name", "?")}", '
        f"{d.get('width', '?')} x {d.get('height', '?')}"
    ]

    def row(label: str, text: str) -> None:
        lines.append(f"  {label:<20} {text}")

    if "columns" in d:
        row("board", f"{d['columns']} columns x {d['rows']} rows, {d['inarow']} in a row wins")
    if "land" in d:
        row(
            "land / water",
            f"{d['land']} / {d['water']} cells, water in "
            f"{d.get('water_components', '?')} bodies",
        )
    elif "free_cells" in d:
        row("free cells", str(d["free_cells"]))
    if "components" in d:
        n = d["components"]
        row("components", f"{n} ({'connected' if n == 1 else 'split'})")
    if "articulation_points" in d:
        pts = d["articulation_points"]
        shown = " ".join(f"({r},{c})" for r, c in pts[:SHOWN_POINTS])
        more = f" and {len(pts) - SHOWN_POINTS} more" if len(pts) > SHOWN_POINTS else ""
        row("articulation points", f"{len(pts)}" + (f": {shown}{more}" if pts else ""))
    starts = d.get("starts") or d.get("homes")
    if starts:
        row(
            "starts" if "starts" in d else "homes",
            "  ".join(f"p{i + 1} ({r},{c})" for i, (r, c) in enumerate(starts)),
        )
    if "variant" in d:
        row("moves", f"{d['variant']} moves")
    if "voronoi" in d:
        row("voronoi (first)", _pair(d["voronoi"]))
    if "chambers" in d:
        row(
            "chambers fillable",
            ", ".join(
                f"{k} {v['fillable']} in {v['count']} chamber{'s' if v['count'] != 1 else ''}"
                for k, v in d["chambers"].items()
            ),
        )
    if "parity_bound" in d:
        row("parity bound", _pair(d["parity_bound"], ("p1", "p2")))
    return "\n".join(lines)
