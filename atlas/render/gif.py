"""Animated GIF replays of saved games.

A replay is rendered as palette-index frames (:mod:`atlas.render.frames`) and encoded
with one fixed global palette, so no frame is quantised and colours never flicker.
Frame-to-frame optimisation: after the first frame, every pixel that did not change
is written as the reserved transparent index (:data:`~atlas.render.palette.TRANSPARENT`)
and frames are not disposed, so the viewer keeps the previous picture there; Pillow's
writer then crops each frame to the box that differs.  Long runs of the transparent
index compress to almost nothing, which keeps a tron replay to a few hundred bytes per
turn.

Timing is the game's (:attr:`GameInfo.frame_ms <atlas.sim.base.GameInfo>`: 120 ms a
turn for tron, 80 ms for Outpost, ...); the last frame is held for 2.5 s.  A game with
:attr:`~atlas.sim.base.GameInfo.max_frames` (Outpost: 120) shows at most that many
evenly spaced turns plus the last.
"""

from __future__ import annotations

import base64
import io
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..sim.registry import get_info
from . import palette as P
from .frames import _glyph, compose, legend_band, legend_items
from .registry import render_of
from .replay import record_frames

__all__ = [
    "encode_gif",
    "record_gif_bytes",
    "write_gif",
    "is_atlas_gif",
    "gif_overlays",
    "check_overlay",
    "HOLD_LAST_MS",
    "gif_spec",
    "glyph_table",
    "font_script",
    "FONT_CHARS",
]

#: How long the last frame stays up.
HOLD_LAST_MS = 2500


def encode_gif(
    frames: Sequence[npt.NDArray[np.uint8]], durations: Sequence[int] | int, *, loop: int = 0
) -> bytes:
    """Encode palette-index frames (all the same shape) as an animated GIF.

    Parameters
    ----------
    frames : sequence of (H, W) uint8 arrays
        Indices into :data:`atlas.render.palette.PALETTE`.
    durations : int or sequence of int
        Milliseconds per frame.
    loop : int
        0 loops for ever.

    Notes
    -----
    One global 64-colour palette, no dithering, no quantisation; Pillow's writer
    crops every frame to the box that differs from the previous one.
    """
    from PIL import Image

    if not frames:
        raise ValueError("a GIF needs at least one frame")
    flat_palette = P.PALETTE.reshape(-1).tolist()
    images = []
    prev: npt.NDArray[np.uint8] | None = None
    for f in frames:
        cur = np.ascontiguousarray(f, dtype=np.uint8)
        out = cur if prev is None else np.where(cur == prev, np.uint8(P.TRANSPARENT), cur)
        prev = cur
        im = Image.fromarray(out, mode="P")
        im.putpalette(flat_palette)
        images.append(im)
    if isinstance(durations, int):
        durations = [durations] * len(images)
    buf = io.BytesIO()
    images[0].save(
        buf,
        format="GIF",
        save_all=True,
        append_images=images[1:],
        duration=list(durations),
        loop=loop,
        optimize=False,
        disposal=1,
        transparency=P.TRANSPARENT,
        comment=ATLAS_MARK,
    )
    return buf.getvalue()


#: The comment atlas writes in its GIFs (how it knows a file it may write over).
ATLAS_MARK = b"atlas replay"


def is_atlas_gif(path: Any) -> bool:
    """Whether the file at ``path`` is a GIF atlas wrote."""
    from ..fsutil import starts_with

    return starts_with(Path(path), (ATLAS_MARK,))


def gif_overlays(game: str) -> tuple[str, ...]:
    """The overlays a GIF of ``game`` may carry (its painter's
    :meth:`~atlas.render.painter.GameRender.gif_overlays`)."""
    return tuple(render_of(game).gif_overlays())


def check_overlay(game: str, overlay: str) -> str:
    """``overlay`` when a GIF of ``game`` may carry it; else a ``ValueError`` naming the
    game's overlays."""
    names = gif_overlays(game)
    if overlay not in names:
        known = ", ".join(names) if names else "none"
        raise ValueError(f"{game} has no GIF overlay {overlay!r} (its overlays: {known})")
    return overlay


def _player_names(record: Any) -> list[str]:
    return [p.name for p in record.players]


def _outcome(record: Any) -> str:
    """The last frame's caption on the right: who won and why, or how it ended."""
    result = record.result
    if result.winner is not None:
        return f"{record.players[result.winner].name} wins ({result.reason})"
    return "draw" if result.reason in ("draw", "win") else str(result.reason)


def _cell_and_width(record: Any, cell_px: int | None) -> tuple[int, int]:
    """Pixels per cell and the picture's width (at least 240 pixels)."""
    game_map = record.game_map()
    k = cell_px or render_of(record.game).cell_px(game_map.shape)
    return k, max(game_map.width * k, 240)


def record_gif_bytes(
    record: Any,
    *,
    states: Sequence[Any] | None = None,
    max_frames: int | None = None,
    cell_px: int | None = None,
    frame_ms: int | None = None,
    hold_last_ms: int = HOLD_LAST_MS,
    frames: Sequence[Any] | None = None,
    overlay: str | None = None,
) -> bytes:
    """The GIF of a replay record, as bytes (see :func:`write_gif`).

    ``frames`` (from :func:`~atlas.render.replay.record_frames`) skips drawing them
    again when the caller already has them.  ``overlay``: one of the game's
    :func:`gif_overlays`, drawn on every frame (:func:`check_overlay` first).
    """
    info = get_info(record.game)
    if max_frames is None:
        max_frames = info.max_frames
    k, width = _cell_and_width(record, cell_px)
    legend = legend_band(width, _player_names(record))
    outcome = _outcome(record)
    images = []
    if frames is None:
        if overlay is not None:
            check_overlay(record.game, overlay)
        frames = list(
            record_frames(record, states=states, max_frames=max_frames, overlay=overlay)
        )
    for i, frame in enumerate(frames):
        right = outcome if i == len(frames) - 1 else record.map.name
        images.append(compose(frame, k, header_right=right, legend=legend))
    per = frame_ms or info.frame_ms
    durations = [per] * len(images)
    durations[-1] = max(per, hold_last_ms)
    return encode_gif(images, durations)


#: The characters of the glyph table every page of a site shares (``static/gif-font.js``):
#: printable ASCII.  A game whose captions need others carries them in its own data.
FONT_CHARS = "".join(chr(c) for c in range(32, 127))
#: Caption text size and band height in pixels (:func:`~atlas.render.frames.text_band`,
#: :func:`~atlas.render.frames.legend_band`).
_TEXT_SIZE, _TEXT_HEIGHT = 12, 20


def glyph_table(chars: str) -> dict[str, list[Any]]:
    """The caption glyphs of ``chars`` as the browser's GIF maker reads them.

    Each character maps to ``[advance, width, x, y, w, h, coverage]``: its advance in
    pixels (a float), the width of its cell, the box of its inked pixels in that cell,
    and their coverage (0-255, row-major, base64).  These are the very glyphs
    :func:`~atlas.render.frames.text_band` composes, so captions drawn from them in the
    browser are the same pixels.
    """
    table: dict[str, list[Any]] = {}
    for ch in sorted(set(chars)):
        cover, advance = _glyph(ch, _TEXT_SIZE, _TEXT_HEIGHT)
        rows, cols = np.nonzero(cover)
        if rows.size:
            y0, y1, x0, x1 = (
                int(rows.min()),
                int(rows.max()) + 1,
                int(cols.min()),
                int(cols.max()) + 1,
            )
        else:
            y0 = y1 = x0 = x1 = 0
        ink = np.ascontiguousarray(cover[y0:y1, x0:x1]).tobytes()
        table[ch] = [
            float(advance),
            int(cover.shape[1]),
            x0,
            y0,
            x1 - x0,
            y1 - y0,
            base64.b64encode(ink).decode("ascii"),
        ]
    return table


def font_script() -> str:
    """``static/gif-font.js``: the glyphs of :data:`FONT_CHARS` and the palette indices
    the browser's GIF maker (``static/gif.js``) composes captions and legends with."""
    kit = {
        "size": _TEXT_SIZE,
        "height": _TEXT_HEIGHT,
        "ramp": list(P.TEXT_RAMP),
        "captionBg": P.CAPTION_BG,
        "background": P.BACKGROUND,
        "transparent": P.TRANSPARENT,
        "player": list(P.PLAYER),
        "playerShapes": list(P.PLAYER_SHAPES),
        "comment": ATLAS_MARK.decode("ascii"),
        "glyphs": glyph_table(FONT_CHARS),
    }
    text = json.dumps(kit, separators=(",", ":"), sort_keys=True)
    return (
        "/* atlas: the caption glyphs and colours of static/gif.js, written by atlas build "
        "(atlas/render/gif.py font_script) */\n"
        f"window.atlasGifFont = {text};\n"
    )


def gif_spec(
    record: Any,
    *,
    max_frames: int | None = None,
    cell_px: int | None = None,
    frame_ms: int | None = None,
    hold_last_ms: int = HOLD_LAST_MS,
) -> dict[str, Any]:
    """What the browser needs beside the viewer's frames to make the GIF
    :func:`record_gif_bytes` makes (the ``"gif"`` entry of the viewer data).

    ``{"k": pixels per cell, "width", "max": max frames or null, "ms", "hold",
    "loop", "map": the caption's right side, "outcome": the last frame's,
    "legend": [[text, pixels], ...], "glyphs": {...}}``; ``glyphs`` holds, in the form
    of :func:`glyph_table`, only the characters :data:`FONT_CHARS` lacks.
    """
    info = get_info(record.game)
    k, width = _cell_and_width(record, cell_px)
    items = legend_items(_player_names(record), _TEXT_SIZE)
    outcome = _outcome(record)
    texts = "turn 0123456789/" + record.map.name + outcome + "".join(t for t, _ in items)
    extra = "".join(sorted(set(texts) - set(FONT_CHARS)))
    return {
        "k": int(k),
        "width": int(width),
        "max": max_frames if max_frames is not None else info.max_frames,
        "ms": int(frame_ms or info.frame_ms),
        "hold": int(hold_last_ms),
        "loop": 0,
        "map": record.map.name,
        "outcome": outcome,
        "legend": [[t, w] for t, w in items],
        "glyphs": glyph_table(extra) if extra else {},
    }


def write_gif(record: Any, path: str | os.PathLike[str], **options: Any) -> None:
    """Render ``record`` as an animated GIF at ``path`` (``atlas replay --gif``).

    One frame per turn with trails or territory as they grow, a caption with the
    turn number and the map (the result on the last frame), a legend of the players
    with their colours and shapes, the last frame held longer.  Keyword options are
    those of :func:`record_gif_bytes` (``max_frames``, ``cell_px``, ``frame_ms``,
    ``hold_last_ms``, ``overlay``).
    """
    from ..fsutil import write_atomically

    write_atomically(path, record_gif_bytes(record, **options))
