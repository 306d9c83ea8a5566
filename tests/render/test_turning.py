"""Turning points (:func:`atlas.render.turning.turning_points`) and the overlays a game's
painter declares for the viewer (:meth:`atlas.render.painter.GameRender.overlays`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from atlas.games import game_names
from atlas.maps import parse_map
from atlas.render.registry import render_of
from atlas.render.turning import turning_points
from atlas.render.viewer import viewer_data
from atlas.sim.records import replay_states
from tests.render.render_helpers import TRON25, play_record, scripted_mover

SERIES = {"name": "Territory", "phrase": "territory", "unit": "cells"}


def test_the_largest_swings_in_turn_order_and_in_words():
    values = [[10, 10, 10, 30, 30, 31, 31, 5, 5, 5], [10, 10, 10, 10, 11, 11, 12, 30, 30, 30]]
    points = turning_points([{**SERIES, "values": values}], ["red", "blue"])
    assert [p["turn"] for p in points] == [3, 7]
    assert points[0]["seat"] == 0 and points[1]["seat"] == 1
    assert points[0]["text"] == (
        "territory swung 25 points to red from blue: red 30 cells (was 10), blue 10 (was 10)"
    )


def test_no_turning_point_without_a_swing_or_a_measure():
    flat = [[5] * 8, [5] * 8]
    assert turning_points([{**SERIES, "values": flat}], ["a", "b"]) == []
    assert turning_points([], ["a", "b"]) == []
    zero = [[0] * 4, [0] * 4]  # nobody holds anything: no share, no swing
    assert turning_points([{**SERIES, "values": zero}], ["a", "b"]) == []


def test_every_game_names_overlays_the_viewer_knows():
    known = {
        "voronoi",
        "articulation",
        "chambers",
        "reachable",
        "mobility",
        "windows",
        "threats",
        "ownership",
        "supply",
    }
    root = Path(__file__).resolve().parents[2] / "maps"
    for game in game_names():
        render = render_of(game)
        path = next((root / game).glob("*.txt"), None)
        if path is None:
            continue
        gm = parse_map(path.read_text(), game=game, name=path.stem)
        spec = render.overlays(gm, {})
        if spec is None:
            continue
        assert set(spec["names"]) <= known, game
        assert spec["seats"], game


def test_the_viewer_data_carries_the_overlays_and_a_tron_game_its_separation():
    gm = parse_map(TRON25, game="tron", name="room25")
    record = play_record("tron", gm, seed=3)
    data = viewer_data(record)
    assert data["overlays"]["names"] == ["voronoi", "articulation", "chambers"]
    states = replay_states(record)
    render = render_of("tron")
    series = render.series(gm, {}, states)
    points = render.turning_points(gm, {}, states, series, ["red", "blue"])
    assert any("sealed into" in p["text"] for p in points)
    assert [p["turn"] for p in points] == sorted(p["turn"] for p in points)


def test_a_bots_own_score_that_swung_is_a_turning_point():
    from types import SimpleNamespace

    from atlas.render.turning import score_turning_point

    scores = [1.0, 1.5, 2.0, 2.0, -40.0, -41.0]
    turns = [SimpleNamespace(info={0: {"score": v}, 1: {}}) for v in scores]
    point = score_turning_point(SimpleNamespace(turns=turns), ["red", "blue"])
    assert point == {
        "turn": 5,
        "seat": 0,
        "text": "red's own score (its search's evaluation) fell from 2 to -40",
    }
    # a forced end in the report is said in words, not as the bot's raw win score
    said = [{"score": 3}, {"score": 4}, {"score": 3}, {"score": 999983, "mate": 17}]
    turns = [SimpleNamespace(info={1: s}) for s in said]
    point = score_turning_point(SimpleNamespace(turns=turns), ["red", "blue"])
    assert point is not None and point["turn"] == 4 and point["seat"] == 1
    assert point["text"] == (
        "blue's own score (its search's evaluation) rose from 3 to a forced win in 17 plies"
    )
    steady = [SimpleNamespace(info={0: {"score": float(v)}}) for v in range(6)]
    assert score_turning_point(SimpleNamespace(turns=steady), ["red", "blue"]) is None


def test_a_head_next_to_the_other_is_not_sealed_under_the_official_order():
    from atlas.games.tron.painter import separation_point

    # Seat 1 rides into a pocket beside seat 2 (a pillar ahead of it): no free cell
    # next to it.  Under the official order it follows seat 2 onto the square seat 2 is
    # leaving, turn after turn, until seat 2 turns into the wall; under atlas's rules
    # that square is a wall.
    text = "10 4\n##########\n#1 #     #\n#2       #\n##########\n"
    gm = parse_map(text, game="tron", name="pocket")
    east, south = 2, 3

    def states(compat: str, moves: list[tuple[int, int]]) -> list:
        rec = play_record("tron", gm, params={"compat": compat}, chooser=scripted_mover(moves))
        return replay_states(rec)

    official = states("official", [(east, east), (south, east), (east, east), (east, south)])
    assert not any(np.asarray(s.crashed).any() for s in official[:4])
    assert [tuple(map(int, h)) for h in np.asarray(official[3].heads)] == [(2, 3), (2, 4)]
    assert official[-1].crashed == (False, True)
    assert separation_point(official, ["a", "b"]) is None
    spec = states("spec", [(east, east), (south, east)])
    point = separation_point(spec, ["a", "b"])
    assert point is not None and point["turn"] == 1
    assert "a is sealed into 0 cells" in point["text"]
