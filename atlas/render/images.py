"""Map pictures: grids of palette indices, scaled by whole pixels, marked with Pillow.

Every picture is built the same way: a ``uint8`` grid of palette indices per cell
(:mod:`atlas.render.palette`), overlays written into that grid by numpy masks (Voronoi
shading, chamber tints, territory), a nearest-neighbour upscale by an integer factor
(``repeat``), small shape stamps for marks (start cells, articulation points, outposts)
and, last, Pillow for the text (chamber sizes).  No Python loop runs per cell.

Notes
-----
Cost: O(H·W·k²) for a k-pixel cell, plus the analyses asked for (each a linear-time
kernel of :mod:`atlas.analysis`), plus O(m·k²) for m marks.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

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
    "png_bytes",
    "is_atlas_png",
    "mark_cells",
    "grid_lines",
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
        m = ((np.abs(dx - dy) <= w) | (np.abs(dx + dy) <= w)) & (
            np.maximum(np.abs(dx), np.abs(dy)) <= rad * 0.72
        )
    else:
        raise ValueError(f"unknown shape {shape!r}")
    m.setflags(write=False)
    return m


def stamp(
    image: IndexImage,
    cell: tuple[int, int],
    k: int,
    shape: str,
    color: int,
    *,
    outline: int | None = None,
    size: int | None = None,
) -> None:
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


def mark_cells(
    image: IndexImage,
    cells: Iterable[tuple[int, int]],
    k: int,
    shape: str,
    color: int,
    **style: int | None,
) -> None:
    """:func:`stamp` the same mark on many cells (``style``: its ``outline`` and
    ``size``, as :func:`stamp` takes them)."""
    for cell in cells:
        stamp(image, cell, k, shape, color, **style)


def grid_lines(image: IndexImage, k: int, under: Sequence[int] = (P.FREE,)) -> None:
    """Thin cell borders over the pixels whose colour is in ``under`` (k >= 8 only)."""
    if k < 8:
        return
    lines = np.zeros(image.shape, dtype=np.bool_)
    lines[::k, :] = True
    lines[:, ::k] = True
    lines &= np.isin(image, np.asarray(under, dtype=np.uint8))
    image[lines] = P.GRID_LINE


def base_grid(game_map: GameMap) -> IndexImage:
    """Palette indices of the bare map: walls and free cells."""
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


def _voronoi_layer(game_map: GameMap, grid: IndexImage) -> None:
    """Tint each free cell of ``grid`` by the start that reaches it first (ties grey)."""
    from ..analysis.voronoi import voronoi_partition

    if len(game_map.starts) < 2:
        return
    owner = np.asarray(voronoi_partition(game_map.free, list(game_map.starts)))
    free = game_map.free
    for seat in range(min(len(game_map.starts), 4)):
        grid[(owner == seat) & free] = P.PLAYER_TINT[seat]
    grid[(owner == -2) & free] = P.TIE


def _chamber_layer(game_map: GameMap, grid: IndexImage) -> list[tuple[tuple[int, int], str]]:
    """Tint the chambers of the first start's view; return (cell, size text) labels for
    the :data:`MAX_CHAMBER_LABELS` largest chambers of at least 4 cells."""
    from ..analysis.chambers import chamber_tree

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
        draw.text(
            (x, y),
            text,
            fill=P.PALETTE_HEX[P.TEXT],
            font=f,
            anchor="mm",
            stroke_width=2,
            stroke_fill="#FFFFFF",
        )
    return rgb


def map_picture(
    game_map: GameMap,
    *,
    base: IndexImage | None = None,
    voronoi: bool = False,
    articulation: bool = False,
    chambers: bool = False,
    starts: bool = True,
    cell_px: int | None = None,
    lines: bool = True,
    cell_mark: tuple[str, int] | None = None,
) -> Any:
    """The picture of a grid map with the overlays asked for.

    Parameters
    ----------
    game_map : GameMap
    base : index grid, optional
        Palette indices of the bare map (default :func:`base_grid`: walls and free cells).
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
    lines : bool
        Thin lines between free cells (when cells are large enough).
    cell_mark : (shape, colour), optional
        A mark on every cell (the holes of a connect5 board).

    Returns
    -------
    PIL.Image.Image
        A ``P`` image with the atlas palette, or ``RGB`` when text was drawn.
    """
    k = cell_px or cell_size(game_map.shape)
    grid = base_grid(game_map) if base is None else np.array(base, dtype=np.uint8)
    texts: list[tuple[tuple[int, int], str]] = []
    if voronoi:
        _voronoi_layer(game_map, grid)
    if chambers:
        texts = _chamber_layer(game_map, grid)
    image = upscale(grid, k)
    if cell_mark is not None:
        mark_cells(image, zip(*np.nonzero(np.ones(game_map.shape, bool))), k, *cell_mark)
    elif lines:
        grid_lines(image, k)
    if articulation:
        from ..analysis.articulation import articulation_points

        cells = articulation_points(game_map.free)
        mark_cells(image, cells, k, "ring" if k >= 6 else "square", P.MARK)
    if starts:
        size = k if k >= 8 else min(3 * k, 9)
        for seat, cell in enumerate(game_map.starts[:4]):
            stamp(
                image, cell, k, P.PLAYER_SHAPES[seat], P.PLAYER[seat], outline=P.MARK, size=size
            )
    return _draw_texts(index_image(image), texts, k)


def png_bytes(image: Any) -> bytes:
    """PNG bytes of a Pillow image (deterministic: no time stamp), marked as atlas's
    (a ``Software`` text chunk)."""
    from PIL.PngImagePlugin import PngInfo

    info = PngInfo()
    info.add_text("Software", "atlas")
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=False, compress_level=6, pnginfo=info)
    return buf.getvalue()


def is_atlas_png(path: Any) -> bool:
    """Whether the file at ``path`` is a PNG atlas wrote."""
    from ..fsutil import starts_with

    return starts_with(Path(path), (b"tEXtSoftware\x00atlas",))
