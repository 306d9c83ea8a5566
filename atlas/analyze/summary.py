"""One map's key figures, as a JSON-ready dict and as a few lines for people.

``atlas analyze MAP [--json]`` prints these (see :mod:`atlas.cli`); the site shows them.

Keys of :func:`summarize_map`
-----------------------------
every game
    ``game``, ``name``, ``width``, ``height``.
tron, isolation
    ``free_cells``; ``components`` (count of 4-connected components of free cells);
    ``articulation_points`` (list of ``[row, col]``; on a static map the start cells
    are free cells of the graph); ``starts`` (list of ``[row, col]``); isolation adds
    ``variant``.
tron with two starts
    ``voronoi``: ``{"p1", "p2", "tie"}`` as :func:`atlas.analyze.voronoi.voronoi_counts`
    (starts occupied, ties to no one); ``chambers``: per player ``{"fillable",
    "count"}`` of :func:`atlas.analyze.chambers.chamber_tree` against the other start;
    ``parity_bound``: per player, :func:`atlas.analyze.parity.parity_bound` with the
    other start as a wall.  Isolation pieces jump (queen or knight moves), so these
    step-by-step measures are left out for isolation.
outpost
    ``land``, ``water``, ``free_cells`` (= land), ``components`` and
    ``articulation_points`` of the land, ``water_components``, ``homes``.
connect5
    ``columns``, ``rows``, ``inarow``, ``cells``.
"""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ..maps import GameMap
from .articulation import articulation_points
from .chambers import chamber_tree
from .components import label_components
from .parity import parity_bound
from .voronoi import voronoi_counts

__all__ = ["summarize_map", "format_summary"]

#: Articulation points listed by :func:`format_summary` before "and N more".
SHOWN_POINTS = 6


def _cells(cells: Any) -> list[list[int]]:
    return [[int(r), int(c)] for r, c in cells]


def summarize_map(game_map: GameMap) -> dict[str, Any]:
    """The key figures of ``game_map`` as a JSON-ready dict (keys in the module notes).

    Notes
    -----
    One pass of each kernel of :mod:`atlas.analyze` over the map: O(rows x cols).

    Examples
    --------
    >>> from atlas.maps import parse_map
    >>> m = parse_map("5 3\\n#####\\n#1 2#\\n#####\\n", game="tron", name="tiny")
    >>> s = summarize_map(m)
    >>> s["free_cells"], s["articulation_points"], s["voronoi"]
    (3, [[1, 2]], {'p1': 0, 'p2': 0, 'tie': 1})
    """
    g = game_map
    out: dict[str, Any] = {"game": g.game, "name": g.name, "width": g.width,
                           "height": g.height}
    if g.game == "connect5":
        out.update(columns=g.width, rows=g.height, inarow=int(g.meta.get("inarow", 5)),
                   cells=g.width * g.height)
        return out
    free = g.free
    _, n_components = label_components(free)
    points = _cells(articulation_points(free))
    if g.game == "outpost":
        _, n_water = label_components(g.blocked)
        land = int(free.sum())
        out.update(land=land, water=int(g.blocked.sum()), free_cells=land,
                   components=n_components, articulation_points=points,
                   water_components=n_water, homes=_cells(g.starts))
        return out
    out.update(free_cells=int(free.sum()), components=n_components,
               articulation_points=points, starts=_cells(g.starts))
    if g.game == "isolation":
        out["variant"] = str(g.meta.get("variant", "queen"))
    if g.game == "tron" and len(g.starts) == 2:
        a, b = g.starts
        out["voronoi"] = voronoi_counts(free, a, b)
        chambers = {}
        parity = {}
        for key, me, opp in (("p1", a, b), ("p2", b, a)):
            tree = chamber_tree(free, me, opp)
            chambers[key] = {"fillable": tree.fillable, "count": len(tree.chambers)}
            alone = np.array(free, copy=True)
            alone[opp] = False
            parity[key] = parity_bound(alone, me)
        out["chambers"] = chambers
        out["parity_bound"] = parity
    return out


def _pair(d: Mapping[str, Any], keys: tuple[str, ...] = ("p1", "p2", "tie")) -> str:
    return ", ".join(f"{k} {d[k]}" for k in keys if k in d)


def format_summary(d: Mapping[str, Any]) -> str:
    """A few aligned lines for people, from a :func:`summarize_map` dict.

    Examples
    --------
    >>> print(format_summary({"game": "connect5", "name": "standard", "width": 9,
    ...                       "height": 6, "columns": 9, "rows": 6, "inarow": 5}))
    connect5 map "standard", 9 x 6
      board                9 columns x 6 rows, 5 in a row wins
    """
    lines = [f'{d.get("game", "?")} map "{d.get("name", "?")}", '
             f'{d.get("width", "?")} x {d.get("height", "?")}']

    def row(label: str, text: str) -> None:
        lines.append(f"  {label:<20} {text}")

    if "columns" in d:
        row("board", f'{d["columns"]} columns x {d["rows"]} rows, '
                     f'{d["inarow"]} in a row wins')
    if "land" in d:
        row("land / water", f'{d["land"]} / {d["water"]} cells, water in '
                            f'{d.get("water_components", "?")} bodies')
    elif "free_cells" in d:
        row("free cells", str(d["free_cells"]))
    if "components" in d:
        n = d["components"]
        row("components", f'{n} ({"connected" if n == 1 else "split"})')
    if "articulation_points" in d:
        pts = d["articulation_points"]
        shown = " ".join(f"({r},{c})" for r, c in pts[:SHOWN_POINTS])
        more = f" and {len(pts) - SHOWN_POINTS} more" if len(pts) > SHOWN_POINTS else ""
        row("articulation points", f"{len(pts)}" + (f": {shown}{more}" if pts else ""))
    starts = d.get("starts") or d.get("homes")
    if starts:
        row("starts" if "starts" in d else "homes",
            "  ".join(f"p{i + 1} ({r},{c})" for i, (r, c) in enumerate(starts)))
    if "variant" in d:
        row("moves", f'{d["variant"]} moves')
    if "voronoi" in d:
        row("voronoi (first)", _pair(d["voronoi"]))
    if "chambers" in d:
        row("chambers fillable", ", ".join(
            f'{k} {v["fillable"]} in {v["count"]} chamber{"s" if v["count"] != 1 else ""}'
            for k, v in d["chambers"].items()))
    if "parity_bound" in d:
        row("parity bound", _pair(d["parity_bound"], ("p1", "p2")))
    return "\n".join(lines)
