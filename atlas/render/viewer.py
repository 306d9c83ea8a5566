"""The data of the in-page replay viewer: every turn of a game as compact differences.

:func:`viewer_data` gives it in a readable form, :func:`pack_viewer` in the compact one
the game page embeds.  The game page embeds this JSON in a
``<script type="application/json">`` element (no
``fetch()``, so the viewer works from ``file://``); ``templates/static/frames.js``
rebuilds any turn from the data, and ``templates/static/viewer.js`` draws it on a
``<canvas>`` with the same palette and mark shapes as the GIF.

Format (``"version": 3``; 2 had no ``predict``)::

    {"version": 3, "w": cols, "h": rows, "k": pixels per cell, "ms": ms per turn at 1x,
     "palette": ["#RRGGBB", ...], "shapes": ["circle", ...],
     "styles": [[shape, colour, outline or -1, scale], ...],
     "base": "<base64: one palette index per cell, row-major>",
     "frames": "<base64: the varint stream below>", "last": last turn,
     "series": [{"name", "unit", "values": [[value per turn] per seat]}, ...],
     "times": [[ms per turn or null] per seat],
     "cpu": [[CPU ms per turn or null] per seat] (only when the record has them),
     "late": [[turn, seat, limit s, load or null, cores or null, verdict], ...],
     "info": [{"depth": [...], "score": [...], "nodes": [...]} per seat],
     "pv": "<base64: the varint stream below>" (only when a bot reported one),
     "pv_dropped": [[turn, seat, moves not drawn], ...],
     "interest": {...}, "count": frames,
     "overlays": {"names", "free", "seats", "args"} (only for a game that has them:
     :meth:`atlas.render.painter.GameRender.overlays`),
     "predict": {"kind", ...} (only for a game whose frames follow a rule:
     :meth:`atlas.render.painter.GameRender.frame_rule`),
     "gif": what the page's GIF button needs beside the frames
     (:func:`atlas.render.gif.gif_spec`)}

``frames`` holds one frame per turn ``0 .. last``, each as unsigned LEB128 varints:
the number of *runs* of changed cells, then per run ``gap, length, colour`` (``gap``
counts the cells from the end of the previous run, row-major); then the number of
marks, then per mark ``zigzag(cell - previous frame's cell of the same mark index)``
and its style (an index into ``styles``).  The runs change the previous frame's cells
(``base`` is the first frame, whose runs are none), or, with ``predict``, the cells the
rule draws from the frame's own marks over ``base``, the bare map
(``templates/static/frames.js`` applies the rule): Outpost's territory follows from its
outposts, so its frames store only the cells where the rules leave the territory behind
them, a few turns a game.  ``times``, ``cpu`` and ``info`` are per turn
``1 .. last`` (index 0 is turn 1): what each seat took to answer (wall clock, CPU) and
what its bot said about the move (:data:`atlas.sim.records.INFO_KEYS`); ``late`` lists
the answers that came after their deadline (``turn`` counted from 1) with the machine's
load then and the verdict of :func:`atlas.arena.timing.late_moves`.

``pv`` holds what each bot expected when it moved (its principal variation, at most
:data:`~atlas.limits.MAX_PV_MOVES` moves: its own, the reply, its own, ...) as the cells
those moves go to, followed from the position before the turn by the game's painter
(:meth:`atlas.render.painter.GameRender.pv_cells`): per turn ``1 .. last``, per seat,
the number of cells, then each cell (row-major index) as ``zigzag(cell - the cell two
before)`` (0 before the first two), so a line of steps costs a byte a cell.
``pv_dropped`` names the turns whose line was not drawn whole: longer than the limit,
cut by the program that sent it, or leaving the board or the rules.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..limits import MAX_PV_MOVES
from ..sim.records import INFO_KEYS
from ..sim.registry import get_info
from . import palette as P
from .gif import gif_spec
from .registry import render_of
from .replay import record_frames

__all__ = [
    "viewer_data",
    "pack_viewer",
    "page_json",
    "read_page_json",
    "interest",
    "interest_of",
    "varints",
    "SHAPES",
    "VIEWER_VERSION",
    "DEFLATE_OVER",
]

#: Mark shapes by number, as the viewer's JavaScript knows them.
SHAPES = ("circle", "square", "triangle", "diamond", "ring", "dot", "cross", "frame")
VIEWER_VERSION = 3
#: Bytes of replay data's JSON text above which a page stores it deflated
#: (:func:`page_json`): below, the base64 of a compressed text is no smaller.
DEFLATE_OVER = 1024


def varints(values: npt.ArrayLike) -> bytes:
    """Non-negative integers as unsigned LEB128 varints (7 bits a byte, low first).

    Examples
    --------
    >>> varints([0, 1, 127, 128, 300]).hex()
    '00017f8001ac02'
    """
    v = np.asarray(values, dtype=np.uint64).reshape(-1)
    if v.size == 0:
        return b""
    nbytes = np.ones(v.size, dtype=np.int64)
    rest = v >> np.uint64(7)
    while rest.any():
        nbytes += rest > 0
        rest >>= np.uint64(7)
    owner = np.repeat(np.arange(v.size), nbytes)
    starts = np.cumsum(nbytes) - nbytes
    pos = np.arange(owner.size) - starts[owner]
    chunk = (v[owner] >> (np.uint64(7) * pos.astype(np.uint64))) & np.uint64(0x7F)
    more = pos < nbytes[owner] - 1
    return (chunk | (more.astype(np.uint64) << np.uint64(7))).astype(np.uint8).tobytes()


def _runs(d: Sequence[int], out: list[int]) -> None:
    """Append ``[count, gap, length, colour, ...]`` to ``out``: the changed cells of
    ``d`` (``[cell, colour, ...]``, cells ascending) as runs of consecutive cells of one
    colour, each after a gap from the end of the run before (from 0 for the first).

    Plain Python: a frame changes a few cells, where a dozen small numpy calls cost
    more than the loop (a season's build packs every turn of 100,000 games).

    >>> out = []
    >>> _runs([3, 1, 4, 1, 5, 2, 9, 2], out)
    >>> out
    [3, 3, 2, 1, 0, 1, 2, 3, 1, 2]
    """
    at = len(out)
    out.append(0)
    count = 0
    end = 0  # the cell after the last run
    i, n = 0, len(d)
    while i < n:
        first, colour = d[i], d[i + 1]
        j = i + 2
        while j < n and d[j] == d[j - 2] + 1 and d[j + 1] == colour:
            j += 2
        length = (j - i) // 2
        out += (first - end, length, colour)
        end = first + length
        count += 1
        i = j
    out[at] = count


def interest(record: Any, series: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """How interesting a game is to watch, by the rule map pages feature games by.

    Returns ``{"clean", "comeback", "decisive", "turns", "key"}``: ``clean`` is
    whether every seat played the game out (no timeout, crash of the bot, invalid or
    illegal answer: a game a failure decided shows little); ``comeback`` the largest
    lead any other seat held over the eventual winner in the game's first charted
    measure (:meth:`~atlas.render.painter.GameRender.series`), as a share of the
    largest total of that measure in any turn (0 when the winner never trailed, or
    without a winner or a chart); ``decisive`` whether the game has a winner (the top
    score, alone, in games of more than two seats); ``turns`` its length.  ``key``
    orders them: clean games first, then the larger comeback, then decisive games,
    then the longer game.
    """
    scores = list(record.result.scores)
    winner = record.result.winner
    if winner is None and len(scores) > 2 and scores.count(max(scores)) == 1:
        winner = scores.index(max(scores))
    comeback = 0.0
    if winner is not None and series and series[0]["values"]:
        vals = np.asarray(series[0]["values"], dtype=np.float64)
        if vals.ndim == 2 and vals.shape[0] > winner and vals.shape[1]:
            total = float(vals.sum(axis=0).max())
            others = np.delete(vals, winner, axis=0)
            if total > 0 and others.size:
                lead = float((others.max(axis=0) - vals[winner]).max())
                comeback = round(max(0.0, lead) / total, 4)
    turns = len(record.turns)
    clean = all(getattr(s, "status", "ok") == "ok" for s in getattr(record, "statuses", ()))
    return interest_of(clean, comeback, winner is not None, turns)


def interest_of(clean: bool, comeback: float, decisive: bool, turns: int) -> dict[str, Any]:
    """:func:`interest`'s value from its four parts, ``key`` made from them (a site's
    index keeps the parts alone).

    >>> interest_of(True, 0.25, False, 9)["key"]
    [1, 0.25, 0, 9]
    """
    return {
        "clean": clean,
        "comeback": comeback,
        "decisive": decisive,
        "turns": turns,
        "key": [int(clean), comeback, int(decisive), turns],
    }


def _per_turn(
    record: Any,
) -> tuple[list[list[Any]], list[list[Any]], list[dict[str, list[Any]]]]:
    n = record.num_players
    times: list[list[Any]] = [[] for _ in range(n)]
    cpu: list[list[Any]] = [[] for _ in range(n)]
    info: list[dict[str, list[Any]]] = [{} for _ in range(n)]
    for i, turn in enumerate(record.turns):
        for seat in range(n):
            t = turn.times.get(seat)
            times[seat].append(None if t is None else round(1000 * float(t), 1))
            c = turn.cpu.get(seat)
            cpu[seat].append(None if c is None else round(1000 * float(c), 1))
            said = turn.info.get(seat, {})
            for key in INFO_KEYS:
                if key in said:
                    info[seat].setdefault(key, [None] * len(record.turns))[i] = said[key]
    return times, cpu, info


def _pv_cells(
    record: Any, states: Sequence[Any], render: Any
) -> tuple[list[list[list[int] | None]], list[list[int]]]:
    """Each turn's principal variations as cells (row-major indices) per seat, and the
    turns whose line was not drawn whole: ``[turn, seat, moves dropped]``."""
    n, w = record.num_players, record.game_map().width
    cells: list[list[list[int] | None]] = [[None] * len(record.turns) for _ in range(n)]
    dropped: list[list[int]] = []
    game = None
    for i, turn in enumerate(record.turns):
        for seat, said in sorted(turn.info.items()):
            pv = said.get("pv")
            cut = said.get("pv_cut", 0)
            cut = int(cut) if isinstance(cut, (int, float)) and 0 < cut < 2**31 else 0
            if not isinstance(pv, list):
                if cut:
                    dropped.append([i + 1, int(seat), cut])
                continue
            if game is None:
                from ..sim.registry import get_game

                game = get_game(record.game)
            got: list[tuple[int, int]] = []
            if 0 <= seat < n and i < len(states):
                got = render.pv_cells(game, states[i], int(seat), pv[:MAX_PV_MOVES])
            if got:
                cells[seat][i] = [int(r) * w + int(c) for r, c in got]
            lost = len(pv) - len(got) + cut
            if lost:
                dropped.append([i + 1, int(seat), lost])
    return cells, dropped


def _pack_pv(cells: list[list[list[int] | None]]) -> str:
    """The lines of :func:`_pv_cells` as the base64 varint stream of the module."""
    parts: list[int] = []
    turns = len(cells[0]) if cells else 0
    for i in range(turns):
        for seat_cells in cells:
            line = seat_cells[i] or []
            parts.append(len(line))
            for j, c in enumerate(line):
                d = c - (line[j - 2] if j >= 2 else 0)
                parts.append(2 * d if d >= 0 else -2 * d - 1)
    return base64.b64encode(varints(parts)).decode("ascii")


def viewer_data(
    record: Any,
    states: Sequence[Any] | None = None,
    max_frames: int | None = None,
    frames: Sequence[Any] | None = None,
    series: Sequence[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The viewer data of a replay record, in its readable form.

    ``{"w", "h", "k", "ms", "palette", "shapes", "base": [palette index per cell],
    "frames": [{"t": turn, "d": [cell, colour, ...], "m": [[row, col, shape, colour,
    outline or -1, scale], ...]}, ...], "last", "sampled", "series", "times", "info",
    "interest", "gif"}``: the first frame's cells, then per frame the cells that
    changed since the previous one.  For a game with a frame rule
    (:meth:`~atlas.render.painter.GameRender.frame_rule`), ``"predict"`` is the rule,
    ``base`` the bare map and ``d`` the cells where the frame differs from what the
    rule draws of its marks.  :func:`pack_viewer` turns it into the compact form a
    page embeds (the module docstring).

    Parameters
    ----------
    record : Record
    states : sequence, optional
        The record's states (:func:`atlas.sim.records.replay_states`), if at hand.
    max_frames : int, optional
        Draw only this many evenly spaced turns (default: every turn).
    frames : sequence of Frame, optional
        The frames, if already drawn (:func:`atlas.render.replay.record_frames`).
    series : list, optional
        The game's charted measures (its painter module's ``series``), if computed.
    """
    if states is None:
        from ..sim.records import replay_states

        states = replay_states(record)
    gm = record.game_map()
    render = render_of(record.game)
    if frames is None:
        frames = list(record_frames(record, states=states, max_frames=max_frames))
    if series is None:
        series = render.series(gm, dict(record.params), states)
    rule = render.frame_rule(gm, dict(record.params))
    frames_out: list[dict[str, Any]] = []
    prev: npt.NDArray[np.uint8] | None = None
    base: list[int] = []
    if rule is not None:  # each frame against the rule's, drawn over the bare map
        base = np.asarray(render.base_grid(gm), dtype=np.uint8).reshape(-1).tolist()
    for frame in frames:
        flat = np.ascontiguousarray(frame.grid, dtype=np.uint8).reshape(-1)
        marks = [
            [
                int(m.cell[0]),
                int(m.cell[1]),
                SHAPES.index(m.shape),
                int(m.color),
                -1 if m.outline is None else int(m.outline),
                float(m.scale),
            ]
            for m in frame.marks
        ]
        if rule is not None:
            prev = np.asarray(rule.grid(marks), dtype=np.uint8).reshape(-1)
        elif prev is None:
            base = flat.astype(int).tolist()
            prev = flat
        idx = np.flatnonzero(flat != prev)
        diff = np.stack([idx, flat[idx]], axis=1).reshape(-1).astype(int).tolist()
        prev = flat
        frames_out.append({"t": int(frame.turn), "d": diff, "m": marks})
    last = len(record.turns)
    times, cpu, info = _per_turn(record)
    from ..arena.timing import late_moves

    late = [
        [m.turn + 1, m.seat, m.limit, m.load, m.cores, m.verdict] for m in late_moves(record)
    ]
    extra: dict[str, Any] = {}
    if any(c is not None for seat in cpu for c in seat):
        extra["cpu"] = cpu
    overlays = render.overlays(gm, dict(record.params))
    if overlays:
        extra["overlays"] = overlays
    if rule is not None:
        extra["predict"] = dict(rule.spec)
    pv, pv_dropped = _pv_cells(record, states, render)
    if any(line for seat in pv for line in seat) or pv_dropped:
        extra["pv"] = pv
        extra["pv_dropped"] = pv_dropped
    return {
        "w": gm.width,
        "h": gm.height,
        "k": render.viewer_cell_px(gm.shape),
        "ms": get_info(record.game).frame_ms,
        "palette": list(P.PALETTE_HEX),
        "shapes": list(SHAPES),
        "base": base,
        "frames": frames_out,
        "last": last,
        "sampled": len(frames_out) < last + 1,
        "series": [dict(s) for s in series],
        "times": times,
        **extra,
        "late": late,
        "info": info,
        "interest": interest(record, series),
        "gif": gif_spec(record),
    }


def pack_viewer(data: dict[str, Any]) -> dict[str, Any]:
    """The compact form of :func:`viewer_data`'s result that a game page embeds (see
    the module docstring): the grid and the frames as base64 varints.

    Notes
    -----
    Every turn is kept, Outpost's 500 included: a frame stores only the runs of cells
    whose colour changed (or, for a game with a frame rule, differs from the rule's)
    and each mark's step from its place in the previous frame, so a turn of a 100x100
    Outpost board costs a few dozen bytes.  A sampled game's
    frames carry their turn numbers in ``"turns"``.
    """
    w = int(data["w"])
    styles: dict[tuple[Any, ...], int] = {}
    values: list[int] = []  # the stream's integers, frame after frame
    prev_cells: list[int] = []
    for frame in data["frames"]:
        _runs([int(x) for x in frame["d"]], values)
        marks = frame["m"]
        values.append(len(marks))
        cells = [int(m[0]) * w + int(m[1]) for m in marks]
        for k, (c, m) in enumerate(zip(cells, marks)):
            step = c - (prev_cells[k] if k < len(prev_cells) else 0)
            values.append(2 * step if step >= 0 else -2 * step - 1)  # zigzag
            values.append(styles.setdefault(tuple(m[2:]), len(styles)))
        prev_cells = cells
    stream = varints(values) if values else b""
    out = {k: v for k, v in data.items() if k not in ("base", "frames", "sampled")}
    if "pv" in data:
        out["pv"] = _pack_pv(data["pv"])
    out.update(
        version=VIEWER_VERSION,
        styles=[list(st) for st, _ in sorted(styles.items(), key=lambda kv: kv[1])],
        base=base64.b64encode(bytes(data["base"])).decode("ascii"),
        frames=base64.b64encode(stream).decode("ascii"),
        count=len(data["frames"]),
    )
    if data.get("sampled"):
        out["turns"] = [f["t"] for f in data["frames"]]
    return out


def page_json(packed: dict[str, Any]) -> str:
    """The replay data ``packed`` (:func:`pack_viewer`) as a page embeds it, in a
    ``<script type="application/json">`` element: its JSON text when that is at most
    :data:`DEFLATE_OVER` bytes, else ``{"deflated": base64, "bytes": n}``, the text
    compressed with raw DEFLATE (level 9), which ``templates/static/inflate.js`` unpacks
    in the browser (a long game's frames and measures shrink three to five times).
    ``<``, ``>`` and ``&`` are written as ``\\u`` escapes, so no text can close the
    element early.

    Examples
    --------
    >>> page_json({"w": 3})
    '{"w":3}'
    >>> read_page_json(page_json({"w": 3, "runs": list(range(600))}))["runs"][-1]
    599
    """
    import json
    import zlib

    text = (
        json.dumps(packed, separators=(",", ":"), ensure_ascii=False)
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
    )
    raw = text.encode("utf-8")
    if len(raw) <= DEFLATE_OVER:
        return text
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, 9)
    deflated = packer.compress(raw) + packer.flush()
    return json.dumps(
        {"deflated": base64.b64encode(deflated).decode("ascii"), "bytes": len(raw)},
        separators=(",", ":"),
    )


def read_page_json(text: str) -> Any:
    """The replay data a page embeds (:func:`page_json`'s text), unpacked."""
    import json
    import zlib

    value = json.loads(text)
    if isinstance(value, dict) and isinstance(value.get("deflated"), str):
        raw = zlib.decompress(base64.b64decode(value["deflated"]), -15)
        return json.loads(raw.decode("utf-8"))
    return value
