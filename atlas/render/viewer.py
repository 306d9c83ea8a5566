"""The data of the in-page replay viewer: every drawn turn as palette-index diffs.

The game page embeds this JSON in a ``<script type="application/json">`` element (no
``fetch()``, so the viewer works from ``file://``); ``templates/static/viewer.js``
rebuilds any turn by applying the diffs from the first frame and draws it on a
``<canvas>`` with the same palette and mark shapes as the GIF.

Format::

    {"w": cols, "h": rows, "k": pixels per cell, "palette": ["#RRGGBB", ...],
     "shapes": ["circle", ...], "base": [index per cell, row-major],
     "frames": [{"t": turn, "d": [cell, colour, cell, colour, ...],
                 "m": [[row, col, shape, colour, outline or -1, scale], ...]}, ...],
     "last": last turn, "sampled": bool}
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ..sim.registry import get_info
from . import palette as P
from .replay import record_frames
from .games import render_of

__all__ = ["viewer_data", "SHAPES"]

#: Mark shapes by number, as the viewer's JavaScript knows them.
SHAPES = ("circle", "square", "triangle", "diamond", "ring", "dot", "cross", "frame")


def viewer_data(record: Any, states: Sequence[Any] | None = None,
                max_frames: int | None = None, frames: Sequence[Any] | None = None
                ) -> dict[str, Any]:
    """The viewer JSON of a replay record (see the module docstring).

    Notes
    -----
    Each frame stores only the cells that changed since the previous drawn frame, so
    a tron game costs a few numbers per turn.  ``frames`` (from
    :func:`~atlas.render.replay.record_frames`) reuses frames already drawn.  Games with
    :attr:`~atlas.sim.base.GameInfo.max_frames` keep the GIF's sampling.
    """
    if max_frames is None:
        max_frames = get_info(record.game).max_frames
    gm = record.game_map()
    frames_out: list[dict[str, Any]] = []
    prev: np.ndarray | None = None
    base: list[int] = []
    last = 0
    shape_ids = {s: i for i, s in enumerate(SHAPES)}
    if frames is None:
        frames = list(record_frames(record, states=states, max_frames=max_frames))
    for frame in frames:
        flat = frame.grid.reshape(-1)
        if prev is None:
            base = [int(v) for v in flat]
            diff: list[int] = []
        else:
            idx = np.flatnonzero(flat != prev)
            diff = np.stack([idx, flat[idx]], axis=1).reshape(-1).astype(int).tolist()
        prev = flat.copy()
        marks = [[int(m.cell[0]), int(m.cell[1]), shape_ids[m.shape], int(m.color),
                  -1 if m.outline is None else int(m.outline), float(m.scale)]
                 for m in frame.marks]
        frames_out.append({"t": int(frame.turn), "d": diff, "m": marks})
        last = int(frame.turn)
    return {"w": gm.width, "h": gm.height,
            "k": render_of(record.game).viewer_cell_px(gm.shape),
            "palette": list(P.PALETTE_HEX), "shapes": list(SHAPES), "base": base,
            "frames": frames_out, "last": last,
            "sampled": len(frames_out) < last + 1}
