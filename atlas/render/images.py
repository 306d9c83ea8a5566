"""Map pictures: grids of palette indices, scaled by whole pixels, marked with Pillow.

Every picture is built the same way: a ``uint8`` grid of palette indices per cell
(:mod:`atlas.render.palette`), overlays written into that grid by numpy masks (Voronoi
shading, chamber tints, territory), a nearest-neighbour upscale by an integer factor
(``repeat``), small shape stamps for marks (start cells, articulation points, outposts)
and, last, Pillow for the text (chamber sizes).  No Python loop runs per cell.

Notes
-----
Cost: O(H·W·k²) for a k-pixel cell, plus the analyses asked for (each a linear-time
kernel of :mod:`atlas.analyze`), plus O(m·k²) for m marks.
"""

from __future__ import annotations

import io
import os
from functools import lru_cache
from typing import Any, Iterable, Sequence

import numpy as np
import numpy.typing as npt

from ..maps import GameMap
from . import palette as P

__all__ = [
    "cell_size",
    "upscale",
    "shape_mask",
    "stamp",
    "base_grid",
    "map_picture",
    "outpost_picture",
    "thumbnail",
    "write_map_png",
    "png_bytes",
    "mark_cells",
    "supply_paths",
    "outpost_supply",
    "outpost_owner",
    "territory_grid",
    "index_image",
    "font",
]

IndexImage = npt.NDArray[np.uint8]
#: At most this many chambers are labelled with their size (the largest ones, 4+ cells).
MAX_CHAMBER_LABELS = 12


def cell_size(shape: tuple[int, int], target: int = 480, lo: int = 2, hi: int = 24) -> int:
    """Whole pixels per cell so the longer side is about ``target`` pixels."""
    return int(max(lo, min(hi, target // max(1, max(shape)))))


def upscale(grid: npt.ArrayLike, k: int) -> IndexImage:
    """Nearest-neighbour upscale of a cell grid by ``k`` pixels per cell."""
    g = np.asarray(grid, dtype=np.uint8)
    if k == 1:
        return g.copy()
    return np.repeat(np.repeat(g, k, axis=0), k, axis=1)


@lru_cache(maxsize=256)
def shape_mask(shape: str, size: int) -> npt.NDArray[np.bool_]:
    """A ``size`` x ``size`` boolean mask of a mark: circle, ring, square, triangle,
    diamond, dot, cross or frame (an outlined square)."""
    if size <= 2:
        return np.ones((size, size), dtype=np.bool_)
    c = (size - 1) / 2.0
    y, x = np.mgrid[0:size, 0:size].astype(np.float64)
    dy, dx = y - c, x - c
    rad = size / 2.0
    if shape == "circle":
        m = dx * dx + dy * dy <= (rad * 0.86) ** 2
    elif shape == "ring":
        d2 = dx * dx + dy * dy
        m = (d2 <= (rad * 0.86) ** 2) & (d2 >= (rad * 0.86 - max(1.0, size / 6)) ** 2)
    elif shape == "dot":
        m = dx * dx + dy * dy <= (rad * 0.45) ** 2
    elif shape == "square":
        m = (np.abs(dx) <= rad * 0.72) & (np.abs(dy) <= rad * 0.72)
    elif shape == "frame":
        inner = rad - max(1.0, size / 7)
        m = ~((np.abs(dx) < inner - 0.5) & (np.abs(dy) < inner - 0.5))
    elif shape == "diamond":
        m = np.abs(dx) + np.abs(dy) <= rad * 0.95
    elif shape == "triangle":
        top, bottom = 0.1 * size, 0.88 * size
        frac = np.clip((y - top) / max(bottom - top, 1.0), 0.0, 1.0)
        m = (y >= top) & (y <= bottom) & (np.abs(dx) <= frac * rad * 0.95 + 0.25)
    elif shape == "cross":
        w = max(1.0, size / 7)
        m = ((np.abs(dx - dy) <= w) | (np.abs(dx + dy) <= w)) & \
            (np.maximum(np.abs(dx), np.abs(dy)) <= rad * 0.72)
    else:
        raise ValueError(f"unknown shape {shape!r}")
    m.setflags(write=False)
    return m


def stamp(image: IndexImage, cell: tuple[int, int], k: int, shape: str, color: int,
          *, outline: int | None = None, size: int | None = None) -> None:
    """Draw ``shape`` in palette colour ``color`` over ``cell`` of an upscaled image.

    ``size`` (pixels, default ``k``) draws a mark larger than the cell, centred on it
    and clipped at the image's edges.  With ``outline`` a one-pixel silhouette is
    drawn around the mark in that colour, so it stays visible on any background.
    """
    s = k if size is None else int(size)
    r0 = int(cell[0]) * k + (k - s) // 2
    c0 = int(cell[1]) * k + (k - s) // 2
    h, w = image.shape
    rs, cs = max(r0, 0), max(c0, 0)
    re, ce = min(r0 + s, h), min(c0 + s, w)
    if rs >= re or cs >= ce:
        return
    view = image[rs:re, cs:ce]
    sub = (slice(rs - r0, re - r0), slice(cs - c0, ce - c0))
    m = shape_mask(shape, s)
    if outline is not None and s >= 6:
        solid = shape_mask("circle" if shape == "ring" else shape, s)
        grown = solid.copy()
        grown[1:, :] |= solid[:-1, :]
        grown[:-1, :] |= solid[1:, :]
        grown[:, 1:] |= solid[:, :-1]
        grown[:, :-1] |= solid[:, 1:]
        view[(grown & ~solid)[sub]] = outline
    view[m[sub]] = color


def mark_cells(image: IndexImage, cells: Iterable[tuple[int, int]], k: int, shape: str,
               color: int, *, outline: int | None = None, size: int | None = None) -> None:
    """:func:`stamp` the same mark on many cells."""
    for cell in cells:
        stamp(image, cell, k, shape, color, outline=outline, size=size)


def _grid_lines(image: IndexImage, k: int, under: Sequence[int] = (P.FREE,)) -> None:
    """Thin cell borders over the pixels whose colour is in ``under`` (k >= 8 only)."""
    if k < 8:
        return
    lines = np.zeros(image.shape, dtype=np.bool_)
    lines[::k, :] = True
    lines[:, ::k] = True
    lines &= np.isin(image, np.asarray(under, dtype=np.uint8))
    image[lines] = P.GRID_LINE


def base_grid(game_map: GameMap) -> IndexImage:
    """Palette indices of the bare map: walls and free cells, water and land, or the
    connect5 board."""
    if game_map.game == "outpost":
        return np.where(game_map.blocked, P.WATER, P.LAND).astype(np.uint8)
    if game_map.game == "connect5":
        return np.full(game_map.shape, P.BOARD, dtype=np.uint8)
    return np.where(game_map.blocked, P.WALL, P.FREE).astype(np.uint8)


@lru_cache(maxsize=16)
def font(size: int = 12) -> Any:
    """Pillow's bundled font at ``size`` pixels (no system font needed)."""
    from PIL import ImageFont

    return ImageFont.load_default(size=size)


def index_image(image: IndexImage) -> Any:
    """A Pillow ``P`` image of an index image with the atlas palette attached."""
    from PIL import Image

    pil = Image.fromarray(np.ascontiguousarray(image, dtype=np.uint8), mode="P")
    pil.putpalette(P.PALETTE.reshape(-1).tolist())
    return pil


def _voronoi_grid(game_map: GameMap) -> IndexImage | None:
    from ..analyze.voronoi import voronoi_partition

    if len(game_map.starts) < 2:
        return None
    owner = np.asarray(voronoi_partition(game_map.free, list(game_map.starts)))
    grid = base_grid(game_map)
    free = game_map.free
    for seat in range(min(len(game_map.starts), 4)):
        grid[(owner == seat) & free] = P.PLAYER_TINT[seat]
    grid[(owner == -2) & free] = P.TIE
    return grid


def _chamber_layer(game_map: GameMap, grid: IndexImage) -> list[tuple[tuple[int, int], str]]:
    """Tint the chambers of the first start's view; return (cell, size text) labels for
    the :data:`MAX_CHAMBER_LABELS` largest chambers of at least 4 cells."""
    from ..analyze.chambers import chamber_tree

    if len(game_map.starts) < 2:
        return []
    tree = chamber_tree(game_map.free, game_map.starts[0], game_map.starts[1])
    labels = np.asarray(tree.labels)
    texts = []
    sizes = sorted((ch.size for ch in tree.chambers), reverse=True)
    floor = max(4, sizes[min(len(sizes), MAX_CHAMBER_LABELS) - 1] if sizes else 0)
    for i, ch in enumerate(tree.chambers):
        cells = labels == ch.id
        if not cells.any():
            continue
        grid[cells & game_map.free] = P.chamber_index(i)
        if ch.size < floor:
            continue
        rows, cols = np.nonzero(cells)
        pick = int(np.argmin((rows - rows.mean()) ** 2 + (cols - cols.mean()) ** 2))
        texts.append(((int(rows[pick]), int(cols[pick])), str(int(ch.size))))
    return texts


def _draw_texts(pil: Any, texts: Sequence[tuple[tuple[int, int], str]], k: int) -> Any:
    if not texts:
        return pil
    from PIL import ImageDraw

    rgb = pil.convert("RGB")
    draw = ImageDraw.Draw(rgb)
    f = font(max(9, min(16, int(k * 1.1))))
    for (r, c), text in texts:
        x, y = c * k + k / 2, r * k + k / 2
        draw.text((x, y), text, fill=P.PALETTE_HEX[P.TEXT], font=f, anchor="mm",
                  stroke_width=2, stroke_fill="#FFFFFF")
    return rgb


def map_picture(game_map: GameMap, *, voronoi: bool = False, articulation: bool = False,
                chambers: bool = False, starts: bool = True, cell_px: int | None = None,
                outposts: Sequence[Sequence[tuple[int, int]]] | None = None,
                radius: int = 10, supply_for: int | None = None) -> Any:
    """The picture of a map with the overlays asked for.

    Parameters
    ----------
    game_map : GameMap
    voronoi : bool
        Shade each free cell by the start that reaches it first (light red / light blue,
        white for ties), as in the 2010 winner's post-mortem.
    articulation : bool
        Ring every articulation point (a cell whose loss splits its region).
    chambers : bool
        Tint the chambers of seat 0's chamber tree, each labelled with its size.
    starts : bool
        Mark the start cells with the seat's colour and shape.
    cell_px : int, optional
        Pixels per cell (default: about 480 pixels on the longer side).
    outposts, radius, supply_for
        Outpost maps only, see :func:`outpost_picture`.

    Returns
    -------
    PIL.Image.Image
        A ``P`` image with the atlas palette, or ``RGB`` when text was drawn.
    """
    if game_map.game == "outpost":
        return outpost_picture(game_map, outposts=outposts, radius=radius,
                               supply_for=supply_for, cell_px=cell_px)
    k = cell_px or cell_size(game_map.shape)
    grid = base_grid(game_map)
    texts: list[tuple[tuple[int, int], str]] = []
    if voronoi:
        shaded = _voronoi_grid(game_map)
        if shaded is not None:
            grid = shaded
    if chambers:
        texts = _chamber_layer(game_map, grid)
    image = upscale(grid, k)
    if game_map.game == "connect5":
        mark_cells(image, zip(*np.nonzero(np.ones(game_map.shape, bool))), k, "circle",
                   P.FREE)
    else:
        _grid_lines(image, k)
    if articulation:
        from ..analyze.articulation import articulation_points

        cells = articulation_points(game_map.free)
        mark_cells(image, cells, k, "ring" if k >= 6 else "square", P.MARK)
    if starts:
        size = k if k >= 8 else min(3 * k, 9)
        for seat, cell in enumerate(game_map.starts[:4]):
            stamp(image, cell, k, P.PLAYER_SHAPES[seat], P.PLAYER[seat], outline=P.MARK,
                  size=size)
    return _draw_texts(index_image(image), texts, k)


def outpost_picture(game_map: GameMap, *, outposts: Sequence[Sequence[tuple[int, int]]]
                    | None = None, radius: int = 10, supply_for: int | None = None,
                    cell_px: int | None = None, homes: bool = True) -> Any:
    """An Outpost board: land, water, each empire's territory, disputed cells, marks.

    Parameters
    ----------
    outposts : list of lists of (row, col), optional
        Each empire's outposts; default one on each home cell (the start of a game).
    radius : int
        The radius of influence ``r``.
    supply_for : int, optional
        Draw a shortest supply line of each of this empire's outposts (dots in its
        dark colour, :func:`supply_paths`); an outpost without one gets a cross.
    homes : bool
        Frame each home cell in its empire's colour.

    Notes
    -----
    Ownership and supply come from :mod:`atlas.analyze.outpost`; the picture is one
    palette lookup plus a stamp per outpost.
    """
    from ..maps import OUTPOST_HOMES

    k = cell_px or cell_size(game_map.shape, target=500)
    if outposts is None:
        outposts = [[home] for home in OUTPOST_HOMES]
    owner = outpost_owner(game_map, outposts, radius)
    grid = territory_grid(game_map, owner)
    image = upscale(grid, k)
    cut: list[tuple[int, int]] = []
    if supply_for is not None:
        mine = list(outposts[supply_for])
        for cell, path in zip(mine, supply_paths(game_map, owner, mine, supply_for)):
            if path is None:
                cut.append(cell)
                continue
            mark_cells(image, path, k, "dot" if k >= 4 else "square",
                       P.PLAYER_DARK[supply_for])
    if homes:
        for seat, home in enumerate(OUTPOST_HOMES):
            stamp(image, home, k, "frame", P.PLAYER_DARK[seat])
    big = max(k, min(3 * k, 15))
    for seat, cells in enumerate(outposts):
        for cell in cells:
            stamp(image, cell, k, P.PLAYER_SHAPES[seat], P.PLAYER[seat], outline=P.MARK,
                  size=big)
    for cell in cut:
        stamp(image, cell, k, "cross", P.MARK, size=big)
    return index_image(image)


def territory_grid(game_map: GameMap, owner: npt.ArrayLike) -> IndexImage:
    """Palette indices of an Outpost ownership grid (seat >= 0, -1 neutral, -2
    disputed) over land and water; owned water is water mixed with the empire's colour."""
    own = np.asarray(owner)
    grid = base_grid(game_map)
    land = ~game_map.blocked
    for seat in range(4):
        grid[(own == seat) & land] = P.PLAYER_TINT[seat]
        grid[(own == seat) & ~land] = P.PLAYER_WATER[seat]
    grid[(own == -2)] = P.DISPUTED
    return grid


def outpost_owner(game_map: GameMap, outposts: Sequence[Sequence[tuple[int, int]]],
                  radius: int) -> npt.NDArray[np.int32]:
    """Ownership grid (seat, -1 neutral, -2 disputed) of outpost positions."""
    from ..analyze.outpost import influence

    cells = [np.asarray(o, dtype=np.int32).reshape(-1, 2) for o in outposts]
    return np.asarray(influence(game_map.blocked, cells, int(radius)).owner)


def outpost_supply(game_map: GameMap, owner: npt.ArrayLike, seat: int
                   ) -> npt.NDArray[np.bool_]:
    """The land through which ``seat``'s supply lines can run: the cells linked to its
    home by orthogonal paths over land that is neutral or its own (the home itself
    must be such a cell, else the region is empty)."""
    from ..analyze.components import label_components
    from ..maps import OUTPOST_HOMES

    own = np.asarray(owner)
    good = ~game_map.blocked & ((own == -1) | (own == seat))
    home = OUTPOST_HOMES[seat]
    if not good[home]:
        return np.zeros(game_map.shape, dtype=np.bool_)
    labels, _ = label_components(good)
    return labels == labels[home]


def supply_paths(game_map: GameMap, owner: npt.ArrayLike,
                 cells: Sequence[tuple[int, int]], seat: int
                 ) -> list[list[tuple[int, int]] | None]:
    """A shortest supply line from home to each of ``seat``'s outposts ``cells``, or
    ``None`` for an outpost that has none.

    Notes
    -----
    One breadth-first search from the home over the good cells (land, neutral or the
    empire's own; :func:`outpost_supply`), then each path is walked back from the
    outpost's best neighbour along decreasing distances: O(cells + total path length).
    """
    from ..analyze.distances import bfs_distances
    from ..maps import OUTPOST_HOMES

    own = np.asarray(owner)
    good = ~game_map.blocked & ((own == -1) | (own == seat))
    home = OUTPOST_HOMES[seat]
    h, w = game_map.shape
    out: list[list[tuple[int, int]] | None] = []
    if not good[home]:
        return [[] if tuple(c) == home else None for c in cells]
    dist = np.asarray(bfs_distances(good, [home]))
    steps = ((-1, 0), (0, 1), (1, 0), (0, -1))
    for cell in cells:
        r, c = int(cell[0]), int(cell[1])
        if (r, c) == home:
            out.append([])
            continue
        best = None
        for dr, dc in steps:
            rr, cc = r + dr, c + dc
            if 0 <= rr < h and 0 <= cc < w and dist[rr, cc] >= 0:
                if best is None or dist[rr, cc] < dist[best]:
                    best = (rr, cc)
        if best is None:
            out.append(None)
            continue
        path = [best]
        while dist[path[-1]] > 0:
            pr, pc = path[-1]
            for dr, dc in steps:
                rr, cc = pr + dr, pc + dc
                if 0 <= rr < h and 0 <= cc < w and dist[rr, cc] == dist[pr, pc] - 1:
                    path.append((rr, cc))
                    break
        out.append(path)
    return out


def thumbnail(game_map: GameMap, size: int = 160) -> Any:
    """A small picture of the bare map (starts marked), about ``size`` pixels wide."""
    k = cell_size(game_map.shape, target=size, lo=1, hi=12)
    if game_map.game == "outpost":
        return outpost_picture(game_map, cell_px=k)
    return map_picture(game_map, cell_px=k, starts=True)


def png_bytes(image: Any) -> bytes:
    """PNG bytes of a Pillow image (deterministic: no time stamp)."""
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=False, compress_level=6)
    return buf.getvalue()


def write_map_png(game_map: GameMap, path: str | os.PathLike[str], **overlays: Any) -> None:
    """Write the annotated picture of ``game_map`` (``atlas analyze --png``).

    By default a tron or isolation map shows the Voronoi shading of its starts, its
    articulation points and its start cells; an Outpost map shows the territory at the
    start and empire 0's supply lines.  Keyword arguments override
    :func:`map_picture`'s overlays.
    """
    if game_map.game == "outpost":
        opts: dict[str, Any] = {"supply_for": 0}
    elif game_map.game == "connect5":
        opts = {}
    else:
        opts = {"voronoi": True, "articulation": True}
    opts.update(overlays)
    image = map_picture(game_map, **opts)
    with open(path, "wb") as fh:
        fh.write(png_bytes(image))
