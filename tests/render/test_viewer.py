"""The page viewer's data: every turn kept, packed as varints, charts and per-move info."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from render_helpers import play_record, read_varints, rule_of, unpack_viewer

from atlas.maps import parse_map
from atlas.render.registry import render_of
from atlas.render.replay import record_frames
from atlas.render.site.build import featured_game, render_replay
from atlas.render.viewer import SHAPES, interest, pack_viewer, varints, viewer_data
from atlas.sim.base import Outcome
from atlas.sim.records import RecordBuilder, replay_states

ROOT = Path(__file__).resolve().parents[2]
OUTPOST_WATER = "".join(f"{x} {y}\n" for x in range(15, 35) for y in range(15, 40))


def test_varints_round_trip():
    values = [0, 1, 127, 128, 255, 16383, 16384, 2**31, 10**12]
    assert read_varints(varints(values)) == values
    assert varints([]) == b""
    assert len(varints([127])) == 1 and len(varints([128])) == 2


@pytest.mark.parametrize(
    "game,text,params",
    [
        ("tron", None, None),
        ("isolation", "isolation 5 5 queen\n1....\n.....\n..#..\n.....\n....2\n", None),
        ("connect5", "connect5 6 5 4\n", None),
        ("outpost", OUTPOST_WATER, {"T": 60}),
    ],
)
def test_packed_frames_rebuild_every_turn(tron25, game, text, params):
    gm = tron25 if game == "tron" else parse_map(text, game=game, name="m")
    rec = play_record(game, gm, seed=3, params=params)
    states = replay_states(rec)
    frames = list(record_frames(rec, states))
    packed = pack_viewer(viewer_data(rec, states))
    assert packed["count"] == len(rec.turns) + 1 == len(frames)  # every turn, none sampled
    assert packed["last"] == len(rec.turns) and "turns" not in packed
    assert ("predict" in packed) == (game == "outpost")  # territory from the outposts
    grids, marks = unpack_viewer(packed, rule_of(rec))
    for grid, got, frame in zip(grids, marks, frames):
        assert np.array_equal(grid, frame.grid)
        want = [
            (
                m.cell[0] * gm.width + m.cell[1],
                [
                    SHAPES.index(m.shape),
                    m.color,
                    -1 if m.outline is None else m.outline,
                    m.scale,
                ],
            )
            for m in frame.marks
        ]
        assert got == want


def test_a_500_turn_outpost_page_stays_small():
    """Every turn of a full Outpost game in well under the page budget of 1.5 MB (the
    viewer data alone; benchmarks/bench_render.py measures whole pages)."""
    gm = parse_map(OUTPOST_WATER, game="outpost", name="lake")
    rec = play_record("outpost", gm, seed=5, params={"T": 500})
    assert len(rec.turns) >= 500
    packed = pack_viewer(viewer_data(rec))
    assert packed["count"] == len(rec.turns) + 1
    assert len(json.dumps(packed)) < 1_000_000


def test_outpost_frames_store_only_where_the_territory_is_not_its_outposts(monkeypatch):
    """With its frame rule an Outpost page stores a few cells a game, not the territory
    of every turn, and decodes to the same frames as without it."""
    from atlas.games.outpost.painter import RENDER

    gm = parse_map((ROOT / "maps" / "outpost" / "lakes.txt").read_text(), game="outpost")
    rec = play_record("outpost", gm, seed=4, params={"T": 200})
    states = replay_states(rec)
    frames = list(record_frames(rec, states))
    data = viewer_data(rec, states, frames=frames)
    # the only turns the rule may not draw whole are the seasons' (new home outposts
    # wait a turn for their territory): at most one in ten
    differing = [f["t"] for f in data["frames"] if f["d"]]
    assert len(differing) <= len(frames) // 10 + 1
    ruled, rule = pack_viewer(data), rule_of(rec)
    monkeypatch.setattr(RENDER, "frame_rule", lambda game_map, params: None)
    plain = pack_viewer(viewer_data(rec, states, frames=frames))
    assert "predict" not in plain and ruled["predict"]["r"] == 10
    assert len(ruled["frames"]) * 3 < len(plain["frames"])
    with_rule, _ = unpack_viewer(ruled, rule)
    without, _ = unpack_viewer(plain)
    for a, b, frame in zip(with_rule, without, frames):
        assert np.array_equal(a, frame.grid) and np.array_equal(b, frame.grid)


def test_series_follow_the_game(tron25):
    rec = play_record("tron", tron25, seed=2)
    states = replay_states(rec)
    (territory,) = render_of("tron").series(tron25, {}, states)
    assert territory["name"] == "Voronoi territory"
    first = territory["values"]
    assert len(first) == 2 and all(len(v) == len(states) for v in first)
    # at the start: the map's own Voronoi split of the starts
    from atlas.analysis.voronoi import voronoi_counts

    start = voronoi_counts(tron25.free, *tron25.starts)
    assert (first[0][0], first[1][0]) == (start["p1"], start["p2"]) and start["p1"] > 0
    # a crashed cycle holds nothing at the end (unless both crashed into each other)
    if rec.result.winner is not None:
        assert first[1 - rec.result.winner][-1] <= first[rec.result.winner][-1]


def test_connect5_threats_and_isolation_mobility():
    from atlas.games.connect5.painter import open_threats

    board = np.zeros((5, 6), dtype=np.int8)
    board[4, 1:4] = 1  # three in the bottom row, both ends open
    board[3, 1:3] = 2  # two: no line of four within reach of one disc
    assert open_threats(board, 4) == (2, 0)
    gm = parse_map("isolation 3 3 queen\n1..\n.#.\n..2\n", game="isolation", name="t")
    rec = play_record("isolation", gm, seed=1)
    (mob,) = render_of("isolation").series(gm, {}, replay_states(rec))
    assert mob["values"][0][0] == 4 and mob["values"][1][0] == 4  # row, column, no diagonal


def test_outpost_series_and_overlays():
    gm = parse_map(OUTPOST_WATER, game="outpost", name="lake")
    rec = play_record("outpost", gm, seed=4, params={"T": 40})
    states = replay_states(rec)
    land, water, posts = render_of("outpost").series(gm, dict(rec.params), states)
    assert [s["name"] for s in (land, water, posts)] == ["Land", "Water", "Outposts"]
    assert all(len(v) == len(states) for v in land["values"]) and len(land["values"]) == 4
    assert posts["values"][0][0] == 1
    assert land["values"][2][-1] == int(states[-1].counts[2, 0])
    pictures = render_of("outpost").game_pictures(gm, dict(rec.params), states)
    assert [c for c, _ in pictures] == [
        f"Turn {round(s * len(rec.turns))} of {len(rec.turns)}" for s in (0.25, 0.5, 0.75, 1.0)
    ]
    assert all(im.size[0] == 400 for _, im in pictures)


def _scripted(values0, values1, winner):
    rec = type("R", (), {})()
    rec.result = Outcome(
        winner,
        "crash" if winner is not None else "draw",
        (1.0, 0.0) if winner == 0 else (0.0, 1.0) if winner == 1 else (0.5, 0.5),
    )
    rec.turns = [None] * (len(values0) - 1)
    return rec, [{"name": "m", "unit": "cells", "values": [values0, values1]}]


def test_interest_measures_the_winners_comeback():
    rec, series = _scripted([10, 4, 6, 12], [10, 12, 8, 0], 0)
    it = interest(rec, series)
    # seat 1 led by 8 at turn 1, out of at most 20 cells in play
    assert it["comeback"] == pytest.approx(8 / 20) and it["decisive"] and it["turns"] == 3
    rec, series = _scripted([10, 14, 16], [10, 6, 0], 0)
    assert interest(rec, series)["comeback"] == 0.0
    rec, series = _scripted([5, 5], [5, 5], None)
    assert interest(rec, series) == {
        "clean": True,
        "comeback": 0.0,
        "decisive": False,
        "turns": 1,
        "key": [1, 0.0, 0, 1],
    }
    # a game a timeout decided comes after every game played out
    from atlas.sim.records import SeatStatus

    rec, series = _scripted([10, 4, 6, 12], [10, 12, 8, 0], 0)
    rec.statuses = (SeatStatus(), SeatStatus("timeout", 2, "late"))
    it = interest(rec, series)
    assert not it["clean"] and it["key"][0] == 0 and it["comeback"] == pytest.approx(0.4)


def test_featured_game_rule():
    class G:
        def __init__(self, key, drawn=True):
            self.meta = {"interest": {"key": key}}
            self.drawn = drawn

    games = [
        G([1, 0.0, 1, 300]),
        G([1, 0.1, 1, 40]),
        G([1, 0.1, 1, 50]),
        G([1, 0.5, 1, 9], drawn=False),
        G([1, 0.0, 0, 900]),
        G([0, 0.9, 1, 99]),
    ]
    assert featured_game(games) is games[2]  # comeback first, then length
    assert featured_game([games[0], games[4]]) is games[0]  # a winner beats a long draw
    assert featured_game([games[5], games[4]]) is games[4]  # played out beats a timeout
    assert featured_game([]) is None


def test_per_move_info_reaches_the_viewer(tron25):
    from atlas.sim import get_game

    g = get_game("tron")
    state = g.initial_state(tron25, None)
    builder = RecordBuilder(g, tron25, None, ["a", "b"], 0)
    for k in range(3):
        builder.add_turn(
            {0: 2, 1: 4},
            {0: 0.05, 1: 0.002},
            {0: {"depth": k + 4, "score": 1.5 * k, "nodes": 1000 * k}},
        )
        state = g.apply(state, {0: 2, 1: 4})
    rng = np.random.default_rng(7)
    while g.outcome(state) is None:  # played out: the site publishes only real games
        moves = {p: g.random_move(state, p, rng) for p in g.to_move(state)}
        builder.add_turn(moves, {0: 0.05, 1: 0.002}, {})
        state = g.apply(state, moves)
    rec = builder.finish(state, g.outcome(state))
    gif, packed, meta = render_replay(rec)
    assert meta["has_info"] and gif[:6] == b"GIF89a"
    n = len(rec.turns)
    assert {k: v[:3] for k, v in packed["info"][0].items()} == {
        "depth": [4, 5, 6],
        "score": [0, 1.5, 3],
        "nodes": [0, 1000, 2000],
    }
    assert packed["info"][1] == {}
    assert packed["times"] == [[50.0] * n, [2.0] * n]
