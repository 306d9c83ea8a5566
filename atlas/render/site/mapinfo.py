"""What the site shows about one map: key figures, the chamber tree, the pictures.

Results are plain JSON (figures, chamber tree) or PNG bytes (pictures), so the build
can cache them by the map's content hash.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...maps import OUTPOST_QUARTER, GameMap, outpost_line_xy
from .. import palette as P
from ..images import (_grid_lines, index_image, map_picture, mark_cells, outpost_picture,
                     png_bytes, thumbnail, upscale)

__all__ = ["map_analysis", "map_figures", "chamber_list", "map_pictures",
           "picture_kinds", "validation_picture", "PICTURE_TITLES"]

#: Captions of the pictures on a map page.
PICTURE_TITLES = {
    "plain": "The map (start cells marked: seat 1 circle, seat 2 square)",
    "voronoi": "Voronoi shading at the start (light red: seat 1 is nearer, light blue: "
               "seat 2, white: equal) and articulation points (rings)",
    "chambers": "Chambers of seat 1's chamber tree, with their sizes",
    "territory": "Territory at the start (each empire's outpost on its home)",
    "supply": "Empire 1's supply line and the territory of a sample position",
    "validation": "Problems found by the validator (red: errors, yellow: warnings) "
                  "on the 50x50 quarter",
}


def map_figures(gm: GameMap) -> dict[str, Any]:
    """Key figures: size, free cells, components, articulation points, Voronoi balance."""
    from ...analyze.articulation import articulation_points
    from ...analyze.components import label_components

    free = gm.free
    fig: dict[str, Any] = {"size": f"{gm.width}x{gm.height}", "cells": gm.width * gm.height}
    if gm.game == "connect5":
        fig["inarow"] = int(gm.meta.get("inarow", 5))
        return fig
    if gm.game == "outpost":
        fig["land"] = int(free.sum())
        fig["water"] = int(gm.blocked.sum())
    else:
        fig["free"] = int(free.sum())
    _, n = label_components(free)
    fig["components"] = int(n)
    fig["articulation_points"] = len(articulation_points(free))
    if gm.game == "isolation":
        fig["variant"] = str(gm.meta.get("variant", "queen"))
    if gm.game == "tron" and len(gm.starts) == 2:
        from ...analyze.voronoi import voronoi_counts

        v = voronoi_counts(free, gm.starts[0], gm.starts[1])
        fig["voronoi"] = [int(v["p1"]), int(v["p2"]), int(v["tie"])]
    elif gm.game in ("tron", "isolation") and len(gm.starts) == 2:
        from ...analyze.voronoi import voronoi_partition

        own = np.asarray(voronoi_partition(free, list(gm.starts)))
        inner = free.copy()
        for cell in gm.starts:
            inner[cell] = False
        fig["voronoi"] = [int(((own == 0) & inner).sum()), int(((own == 1) & inner).sum()),
                          int(((own == -2) & inner).sum())]
    return fig


def chamber_list(gm: GameMap) -> list[dict[str, Any]]:
    """The chamber tree of seat 1 (tron), as nested ``{id, size, entrance, children}``
    (``entrance`` as ``[row, col]``, ``None`` for the root)."""
    from ...analyze.chambers import chamber_tree

    if gm.game != "tron" or len(gm.starts) != 2:
        return []
    tree = chamber_tree(gm.free, gm.starts[0], gm.starts[1])
    nodes = {ch.id: {"id": int(ch.id), "size": int(ch.size),
                     "entrance": None if ch.entrance is None
                     else [int(ch.entrance[0]), int(ch.entrance[1])],
                     "children": []} for ch in tree.chambers}
    roots = []
    for ch in tree.chambers:
        if ch.parent is None or ch.parent not in nodes:
            roots.append(nodes[ch.id])
        else:
            nodes[ch.parent]["children"].append(nodes[ch.id])
    return roots


def map_analysis(gm: GameMap) -> dict[str, Any]:
    """``{"summary": <atlas analyze JSON>, "figures": ..., "chambers": ...}``."""
    from ...analyze.summary import summarize_map

    return {"summary": summarize_map(gm), "figures": map_figures(gm),
            "chambers": chamber_list(gm)}


def picture_kinds(gm: GameMap) -> list[str]:
    """The pictures a map page shows, by kind."""
    if gm.game == "outpost":
        return ["thumb", "territory", "supply"]
    if gm.game == "connect5":
        return ["thumb", "plain"]
    if gm.game == "tron":
        return ["thumb", "plain", "voronoi", "chambers"]
    return ["thumb", "plain", "voronoi"]


def _sample_outposts(gm: GameMap) -> list[list[tuple[int, int]]]:
    """A fixed illustrative position: each empire's home and three outposts spread
    towards the centre on the nearest land (the same for every map)."""
    from ...maps import OUTPOST_HOMES

    land = np.argwhere(gm.free)
    out = []
    for hr, hc in OUTPOST_HOMES:
        cells = [(hr, hc)]
        for fr, fc in ((0.18, 0.08), (0.08, 0.22), (0.3, 0.3)):
            tr = round(hr + (49.5 - hr) * fr * 2)
            tc = round(hc + (49.5 - hc) * fc * 2)
            d = np.abs(land[:, 0] - tr) + np.abs(land[:, 1] - tc)
            r, c = land[int(np.argmin(d))]
            cells.append((int(r), int(c)))
        out.append(cells)
    return out


def map_pictures(gm: GameMap, kind: str | None) -> Any:
    """With ``kind=None`` the list of kinds; else the PNG bytes of that picture."""
    if kind is None:
        return picture_kinds(gm)
    if kind == "thumb":
        return png_bytes(thumbnail(gm))
    if kind == "plain":
        return png_bytes(map_picture(gm))
    if kind == "voronoi":
        return png_bytes(map_picture(gm, voronoi=True, articulation=True))
    if kind == "chambers":
        return png_bytes(map_picture(gm, chambers=True, articulation=True))
    if kind == "territory":
        return png_bytes(outpost_picture(gm))
    if kind == "supply":
        return png_bytes(outpost_picture(gm, outposts=_sample_outposts(gm), supply_for=0))
    raise ValueError(f"unknown picture kind {kind!r}")


def validation_picture(text: str, report: dict[str, Any], cell_px: int = 10) -> bytes:
    """The 50x50 quarter as read (every in-range ``x y`` line is water) with the cells
    the validator points at filled and ringed: red for errors, yellow for warnings."""
    n = OUTPOST_QUARTER
    water = np.zeros((n, n), dtype=bool)
    for line in text.splitlines():
        xy = outpost_line_xy(line.lstrip("\ufeff"))
        if xy is not None and 0 <= xy[0] < n and 0 <= xy[1] < n:
            water[xy[1], xy[0]] = True
    grid = np.where(water, P.WATER, P.LAND).astype(np.uint8)
    image = upscale(grid, cell_px)
    _grid_lines(image, cell_px, under=(P.LAND,))

    def cells(problems: list[dict[str, Any]], key: str) -> list[tuple[int, int]]:
        out = []
        for p in problems:
            raw = ([p["cell"]] if p.get("cell") else []) if key == "cell" \
                else list(p.get("region", []))
            for xy in raw:
                x, y = int(xy[0]), int(xy[1])
                if 0 <= x < n and 0 <= y < n:
                    out.append((y, x))
        return out

    big = 3 * cell_px
    for kind, color in (("warnings", P.WARNING), ("errors", P.ERROR)):
        problems = report.get(kind, [])
        region = np.zeros((n, n), dtype=bool)
        for r, c in cells(problems, "region") + cells(problems, "cell"):
            region[r, c] = True
        image[upscale(region.astype(np.uint8), cell_px).astype(bool)] = color
        mark_cells(image, cells(problems, "cell"), cell_px, "ring", color, size=big)
    return png_bytes(index_image(image))

