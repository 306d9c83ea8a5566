"""The course-player benchmark (``benchmarks/outpost_course.py``), with a stand-in
for the course players: a JSON-lines bot that never moves."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location(
    "outpost_course", ROOT / "benchmarks" / "outpost_course.py"
)
bench = importlib.util.module_from_spec(_spec)
sys.modules["outpost_course"] = bench
_spec.loader.exec_module(bench)

STILL = """import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "turn":
        move = msg["legal"][0] if msg["expect"] == "disband" else []
        print(json.dumps({"move": move}), flush=True)
"""


def test_every_rotation_seats_the_bot_once_in_each_seat():
    games = bench.schedule(["planner"], ["m.txt"], [("g1", "g2", "g3")], [0, 1, 2, 3])
    assert [g["me"] for g in games] == [0, 3, 2, 1]
    for g in games:
        assert g["seats"][g["me"]] == "planner"
        assert sorted(g["seats"]) == ["g1", "g2", "g3", "planner"]
    assert [g["seats"] for g in games][1] == ["g1", "g2", "g3", "planner"]


def test_rank_schedule_seats_every_group_equally_often():
    groups = [f"g{i}" for i in range(10)]
    games = bench.rank_schedule(groups, ["a", "b"], 5, seed=1)
    assert len(games) == 10
    counts = {g: sum(g in x["seats"] for x in games) for g in groups}
    assert set(counts.values()) == {4}
    assert all(len(set(x["seats"])) == 4 for x in games)
    assert games == bench.rank_schedule(groups, ["a", "b"], 5, seed=1)  # seeded


def test_table_leaves_out_games_where_a_course_player_failed():
    def res(score, statuses, m="maps/x.txt"):
        return {
            "bot": "b",
            "map": m,
            "me": 1,
            "scores": [0, score, 0, 0],
            "statuses": statuses,
            "cells": [0, 100, 0, 0],
            "outposts": [1, 5, 1, 1],
        }

    ok = ["ok"] * 4
    rows = [
        res(1.0, ok),
        res(0.5, ok, "maps/y.txt"),
        res(0.0, ["crashed", "ok", "ok", "ok"]),
        res(0.0, ["ok", "timeout", "ok", "ok"]),
    ]  # our own failure counts
    text = bench.table(rows)
    assert "| `b` | 0.500 | 3 | 1 | 0.50 | 0.50 | 100 | 5.0 |" in text


def test_variants_change_the_planners_config():
    bot = bench.make_variant("planner[defend=0,passes=1,premiums=0/3]")
    assert bot.config.defend is False and bot.config.passes == 1
    assert bot.config.premiums == (0.0, 3.0) and bot.config.attack is True
    assert bench.make_variant("planner") == "planner"


def test_a_short_game_against_stand_ins(tmp_path):
    still = tmp_path / "still.py"
    still.write_text(STILL)
    course = {"python": sys.executable, "bot": str(still), "classes": "unused"}
    game = bench.schedule(
        ["greedy"], [str(ROOT / "maps" / "outpost" / "lakes.txt")], [("g1", "g2", "g3")], [1]
    )[0]
    res = bench.play_one(game, course, 12, 1.0)
    assert res["statuses"] == ["ok"] * 4
    me = res["me"]
    # the stand-ins never leave home: greedy holds more than any of them
    assert res["cells"][me] > max(c for i, c in enumerate(res["cells"]) if i != me)
    assert res["scores"][me] == 1.0
    assert "score 1.00" in bench._line(res)
