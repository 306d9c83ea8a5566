"""Game positions as pictures: one frame per turn, in palette indices.

A *painter* turns the states of one game, in order, into :class:`Frame` values: a grid
of palette indices per cell plus a few marks (heads, pieces, outposts).  Painters are
stateful because a picture may show history that a state does not keep (which cycle
laid which trail, which piece burned which square).  :func:`compose` scales a frame
by whole pixels and adds the caption band and the legend, still in palette indices, so
the GIF encoder and the page viewer share one fixed palette.

Notes
-----
Cost per frame: O(H·W) numpy work for the grid, O(H·W·k²) for the upscale, a stamp
per mark and one small Pillow text render for the caption.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from . import palette as P
from .images import font, shape_mask, stamp, upscale

__all__ = [
    "Frame",
    "Mark",
    "sample_turns",
    "compose",
    "text_band",
    "legend_band",
    "legend_items",
]


@dataclass(frozen=True)
class Mark:
    """A mark drawn over one cell: a shape in a palette colour, ``scale`` cells wide
    (centred on the cell; Outpost draws its outposts larger than a cell)."""

    cell: tuple[int, int]
    shape: str
    color: int
    outline: int | None = P.MARK
    scale: float = 1.0


@dataclass
class Frame:
    """One picture of a position: cell colours, marks and a caption."""

    grid: npt.NDArray[np.uint8]
    marks: list[Mark] = field(default_factory=list)
    turn: int = 0
    caption: str = ""


def sample_turns(n_states: int, max_frames: int | None) -> list[int]:
    """Indices of the states to draw: all of them, or at most ``max_frames`` evenly
    spaced ones (every ``ceil(n / max_frames)``-th state), always with the last."""
    if n_states <= 0:
        return []
    if max_frames is None or n_states <= max_frames:
        return list(range(n_states))
    step = -(-n_states // max_frames)
    picks = list(range(0, n_states, step))
    if picks[-1] != n_states - 1:
        picks.append(n_states - 1)
    return picks


@lru_cache(maxsize=2048)
def _glyph(ch: str, size: int, height: int) -> tuple[npt.NDArray[np.uint8], float]:
    """Coverage (0..255) of one character drawn at the left of a ``height``-pixel row,
    and its advance width."""
    from PIL import Image, ImageDraw

    f = font(size)
    advance = float(f.getlength(ch))
    img = Image.new("L", (int(advance) + size, height), 0)
    ImageDraw.Draw(img).text((size // 2, height / 2), ch, fill=255, font=f, anchor="lm")
    cover = np.asarray(img, dtype=np.uint8)
    cover.setflags(write=False)
    return cover, advance


@lru_cache(maxsize=512)
def _text_pixels(
    text: str, size: int, width: int, height: int, align: str
) -> npt.NDArray[np.uint8]:
    """Anti-aliased text as text-ramp palette indices, composed from cached glyphs (one
    Pillow render per distinct character, not per caption)."""
    widths = [_glyph(ch, size, height)[1] for ch in text]
    total = 0.0
    for w in widths:  # plain left-to-right sums (static/gif.js adds them the same way)
        total += w
    x = 6.0 if align == "left" else width - 6.0 - total
    pad = size // 2
    cover = np.zeros((height, width + 2 * pad + 2 * size), dtype=np.uint8)
    for ch, adv in zip(text, widths):
        g, _ = _glyph(ch, size, height)
        x0 = int(round(x)) + pad
        if x0 < 0:
            x += adv
            continue
        view = cover[:, x0 : x0 + g.shape[1]]
        np.maximum(view, g[:, : view.shape[1]], out=view)
        x += adv
    cover16 = cover[:, 2 * pad : 2 * pad + width].astype(np.uint16)
    ramp = np.asarray(P.TEXT_RAMP, dtype=np.uint8)
    out = ramp[(cover16 * (len(ramp) - 1) + 127) // 255]
    out.setflags(write=False)
    return out


def text_band(
    width: int, height: int, left: str = "", right: str = "", size: int = 12
) -> npt.NDArray[np.uint8]:
    """A caption band of palette indices: ``left`` and ``right`` texts, anti-aliased
    with the text ramp on the caption background."""
    band = np.full((height, width), P.CAPTION_BG, dtype=np.uint8)
    if right:
        r = _text_pixels(right, size, width, height, "right")
        band = np.where(r != P.TEXT_RAMP[0], r, band)
    if left:
        lpx = _text_pixels(left, size, width, height, "left")
        band = np.where(lpx != P.TEXT_RAMP[0], lpx, band)
    return band


def legend_items(names: Sequence[str], size: int = 12) -> list[tuple[str, int]]:
    """Each seat's legend text (``"1. name"``) and the pixels its item takes in a
    legend row: swatch, text and gap."""
    swatch = size + 2
    f = font(size)
    items = [f"{i + 1}. {name}" for i, name in enumerate(names)]
    return [(t, int(f.getlength(t)) + swatch + 18) for t in items]


def legend_band(width: int, names: Sequence[str], size: int = 12) -> npt.NDArray[np.uint8]:
    """Legend rows: each seat's shape and colour, then its name, wrapping as needed
    (the items of :func:`legend_items`)."""
    row_h = size + 8
    swatch = row_h - 6
    pairs = legend_items(names, size)
    items = [t for t, _ in pairs]
    widths = [w for _, w in pairs]
    rows: list[list[int]] = [[]]
    used = 0
    for i, w in enumerate(widths):
        if rows[-1] and used + w > width - 6:
            rows.append([])
            used = 0
        rows[-1].append(i)
        used += w
    band = np.full((row_h * len(rows), width), P.CAPTION_BG, dtype=np.uint8)
    for ri, row in enumerate(rows):
        x = 4
        for i in row:
            y0 = ri * row_h + 3
            mask = shape_mask(P.PLAYER_SHAPES[i % 4], swatch)
            view = band[y0 : y0 + swatch, x : x + swatch]
            view[mask[: view.shape[0], : view.shape[1]]] = P.PLAYER[i % 4]
            tw = max(1, min(width - x - swatch - 2, widths[i]))
            txt = _text_pixels(items[i], size, tw, row_h, "left")
            dest = band[ri * row_h : (ri + 1) * row_h, x + swatch - 2 : x + swatch - 2 + tw]
            dest[...] = np.where(txt != P.TEXT_RAMP[0], txt, dest)
            x += widths[i]
    return band


def compose(
    frame: Frame,
    k: int,
    *,
    header_right: str = "",
    legend: npt.NDArray[np.uint8] | None = None,
    min_width: int = 240,
) -> npt.NDArray[np.uint8]:
    """The full picture of a frame in palette indices: caption band, board, legend.

    The board is centred when narrower than ``min_width`` pixels.
    """
    board = upscale(frame.grid, k)
    for m in frame.marks:
        stamp(
            board,
            m.cell,
            k,
            m.shape,
            m.color,
            outline=m.outline,
            size=None if m.scale == 1.0 else max(k, int(round(k * m.scale))),
        )
    width = max(board.shape[1], min_width)
    if board.shape[1] < width:
        pad = width - board.shape[1]
        board = np.pad(
            board, ((0, 0), (pad // 2, pad - pad // 2)), constant_values=P.BACKGROUND
        )
    parts = [text_band(width, 20, frame.caption, header_right), board]
    if legend is not None:
        parts.append(
            legend[:, :width]
            if legend.shape[1] >= width
            else np.pad(
                legend, ((0, 0), (0, width - legend.shape[1])), constant_values=P.CAPTION_BG
            )
        )
    return np.concatenate(parts, axis=0)
