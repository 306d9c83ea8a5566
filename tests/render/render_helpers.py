"""Helpers for the render tests: small maps and seeded games played into records.

(A module with its own name, not ``conftest``, so that importing it from a test module
cannot pick up another folder's ``conftest``.)"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from atlas.maps import GameMap
from atlas.sim import get_game
from atlas.sim.records import Record, RecordBuilder

#: A 25x25 open tron room with two pillars (the size the issue's GIF budget names).
TRON25 = (
    "25 25\n"
    + "#" * 25
    + "\n"
    + "".join(
        "#"
        + "".join(
            "#"
            if (r in (8, 16) and c in range(6, 18))
            else "1"
            if (r, c) == (3, 3)
            else "2"
            if (r, c) == (21, 21)
            else " "
            for c in range(1, 24)
        )
        + "#\n"
        for r in range(1, 24)
    )
    + "#" * 25
    + "\n"
)


class _WallFollower:
    """Tron mover that goes straight until blocked, then turns left (seat 0) or right
    (seat 1): it spirals inwards through open rooms, so games are long."""

    def __init__(self) -> None:
        self.heading = {0: 1, 1: 3}

    def __call__(self, state: Any, seat: int, rng: np.random.Generator) -> int:
        from atlas.games.tron.rules import safe_moves

        safe = set(safe_moves(state, seat))
        if safe and rng.random() < 0.08:
            self.heading[seat] = int(sorted(safe)[int(rng.integers(len(safe)))])
            return self.heading[seat]
        d = self.heading[seat]
        left, right, back = (d + 2) % 4 + 1, d % 4 + 1, (d + 1) % 4 + 1
        order = (d, left, right, back) if seat == 0 else (d, right, left, back)
        for m in order:
            if m in safe:
                self.heading[seat] = m
                return m
        return d


def play_record(
    game: str,
    game_map: GameMap,
    seed: int = 0,
    *,
    players: tuple[str, ...] | None = None,
    params: dict | None = None,
    chooser: Callable[[Any, int, np.random.Generator], Any] | None = None,
    stderr: tuple[str, ...] = (),
    seconds: float = 0.001,
    cpu: float | None = None,
) -> Record:
    """A finished seeded game between simple movers, as a record: each answer took
    ``seconds`` (and ``cpu`` processor seconds, when given).  ``chooser(state, seat,
    rng)`` picks the moves (tron's default follows walls, the others' is random)."""
    g = get_game(game)
    n = g.info.num_players
    names = players or tuple(f"bot{i}" for i in range(n))
    state = g.initial_state(game_map, params)
    rng = np.random.default_rng(seed)
    builder = RecordBuilder(g, game_map, params, list(names), seed)
    for seat, text in enumerate(stderr):
        builder.set_stderr(seat, text)
    if chooser is None and game == "tron":
        chooser = _WallFollower()
    while g.outcome(state) is None:
        moves = {
            p: (chooser(state, p, rng) if chooser else g.random_move(state, p, rng))
            for p in g.to_move(state)
        }
        cpus = None if cpu is None else {p: cpu for p in moves}
        builder.add_turn(moves, {p: seconds for p in moves}, None, cpus)
        state = g.apply(state, moves)
    return builder.finish(state, g.outcome(state))


def random_mover(game: str) -> Callable[[Any, int, np.random.Generator], Any]:
    """A :func:`play_record` chooser: a uniformly random legal move of ``game``."""
    g = get_game(game)
    return lambda state, seat, rng: g.random_move(state, seat, rng)


def scripted_mover(
    moves: Sequence[Sequence[Any]],
) -> Callable[[Any, int, np.random.Generator], Any]:
    """A :func:`play_record` chooser for a simultaneous game: ``moves[turn][seat]``, the
    game's moves turn by turn (it must be over after the last)."""
    return lambda state, seat, rng: moves[int(state.turn)][seat]


def read_varints(data: bytes) -> list[int]:
    """Unsigned LEB128 varints, as the viewer's JavaScript reads them."""
    out, value, shift = [], 0, 0
    for b in data:
        value |= (b & 0x7F) << shift
        if b & 0x80:
            shift += 7
        else:
            out.append(value)
            value, shift = 0, 0
    assert shift == 0, "truncated varint"
    return out


def rule_of(record: Record) -> Callable[[list], np.ndarray] | None:
    """The Python side of the frame rule of ``record``'s game page, or ``None``."""
    from atlas.render.registry import render_of

    rule = render_of(record.game).frame_rule(record.game_map(), dict(record.params))
    return None if rule is None else rule.grid


def unpack_viewer(
    packed: dict, rule: Callable[[list], np.ndarray] | None = None
) -> tuple[list[np.ndarray], list[list[tuple[int, list]]]]:
    """Rebuild every frame's grid and marks from a page's packed viewer data, the way
    ``templates/static/frames.js`` does (an independent reading of the format).  Data
    with a frame rule (``"predict"``) needs the rule's Python side, ``rule``: a frame's
    marks ``[row, col, shape, colour, outline, scale]`` to its grid."""
    import base64

    w, h = packed["w"], packed["h"]
    base = np.frombuffer(base64.b64decode(packed["base"]), dtype=np.uint8)
    grid = base.copy()
    assert grid.size == w * h
    assert ("predict" in packed) == (rule is not None), "a frame rule goes with its data"
    nums = read_varints(base64.b64decode(packed["frames"]))
    at = 0
    grids, marks = [], []
    prev: list[int] = []
    for _ in range(packed["count"]):
        runs = nums[at]
        at += 1
        changes = []
        for _ in range(runs):
            changes.append(nums[at : at + 3])
            at += 3
        n = nums[at]
        at += 1
        cells, frame_marks = [], []
        for j in range(n):
            z, style = nums[at : at + 2]
            at += 2
            delta = -(z + 1) // 2 if z % 2 else z // 2
            cell = (prev[j] if j < len(prev) else 0) + delta
            cells.append(cell)
            frame_marks.append((cell, packed["styles"][style]))
        prev = cells
        if rule is not None:  # the rule's cells from the marks, then where they differ
            grid = np.asarray(
                rule([[c // w, c % w, *st] for c, st in frame_marks]), dtype=np.uint8
            ).reshape(-1)
        pos = 0
        for gap, length, colour in changes:
            pos += gap
            grid[pos : pos + length] = colour
            pos += length
        grids.append(grid.reshape(h, w).copy())
        marks.append(frame_marks)
    assert at == len(nums)
    return grids, marks


def read_site_index(out):
    """The site index of the site ``out``: ``site-index.js`` and its parts read back as
    a browser's script would, the games' compact rows made whole again."""
    import json
    import re

    def data(text, call, end):
        m = re.fullmatch(
            re.escape(call) + r"JSON\.parse\((\".*\")\)" + re.escape(end), text, re.S
        )
        assert m, text[:80]
        return json.loads(json.loads(m.group(1)))

    head = data((out / "site-index.js").read_text(), "window.ATLAS_INDEX = ", ";\n")
    games = []
    for k, part in enumerate(head["parts"]):
        for row in data((out / part).read_text(), f"ATLAS_PART({k}, ", ");\n"):
            ident, m = row[0], row[1]
            row[0] = ident[1:] if ident.startswith("=") else f"{head['maps'][m][0]}-{ident}"
            row[2] = row[2] or head["maps"][m][1]
            games.append(row)
    assert len(games) == head["count"]
    return {**head, "games": games}


def build_records_site(maps, recs, site, cache):
    """Build the site of the maps folder ``maps`` and the records folder ``recs`` into
    ``site`` (no tournament, quiet); returns its files (path in the site -> bytes) and
    the build's result."""
    from atlas.render.site.build import build_site

    result = build_site(
        maps,
        site,
        records_dir=recs,
        cache_dir=cache,
        tournament=False,
        progress=False,
        log=lambda m: None,
    )
    files = {
        p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()
    }
    return files, result
