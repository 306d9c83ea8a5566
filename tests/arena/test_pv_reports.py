"""External programs' reports of what they thought (``docs/protocols.md``, "What the bot
thought"): the ``info`` line and the JSON ``info`` object are read when good, bounded
when oversized, and left out when garbage; a bad report never costs a game nor prints a
traceback.  The scripted reporters are in ``reporting_bots/``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from atlas.arena.protocols import external_bot
from atlas.arena.protocols.common import info_from_json, parse_info_line
from atlas.arena.protocols.jsonl import jsonl_answer
from atlas.arena.runner import play_game
from atlas.limits import MAX_PV_LINE, MAX_PV_MOVES
from atlas.maps import read_map
from atlas.sim import get_game

ROOT = Path(__file__).resolve().parents[2]
BOTS = Path(__file__).resolve().parent / "reporting_bots"
#: A generous first move: an interpreter's start on a loaded machine is not the test.
PATIENCE = 60.0


def _digit(token: str) -> int:
    if token not in ("1", "2", "3", "4"):
        raise ValueError(token)
    return int(token)


# ------------------------------------------------------------------------- the readers


def test_a_good_info_line_gives_numbers_and_moves():
    said = parse_info_line("info depth 7 score -12.5 nodes 48211 pv 3 4 3", _digit)
    assert said == {"depth": 7, "score": -12.5, "nodes": 48211, "pv": [3, 4, 3]}
    # unknown pairs are skipped, the order of pairs is free
    said = parse_info_line("info seldepth 9 nodes 5 hashfull 3 depth 2", _digit)
    assert said == {"nodes": 5, "depth": 2}
    # a forced end: mate, plies to it (negative: the reporter loses)
    said = parse_info_line("info depth 9 score 999991 mate 9 pv 1", _digit)
    assert said == {"depth": 9, "score": 999991, "mate": 9, "pv": [1]}


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("info depth nan score inf nodes -inf", {}),
        ("info depth 1e999 score " + "9" * 40, {}),
        ("info pv 1 2 9 3", {"pv": [1, 2], "pv_cut": 2}),
        ("info pv x", {"pv_cut": 1}),
        ("info depth", {}),
        ("information depth 3", {}),
        ("depth 3 pv 1", {}),
        ("", {}),
        ("info \x00\x01 \udcff depth 4 pv", {"depth": 4}),
    ],
)
def test_garbage_in_an_info_line_is_left_out(line, expected):
    assert parse_info_line(line, _digit) == expected


def test_an_oversized_line_or_line_of_moves_is_bounded():
    said = parse_info_line("info depth 3 pv " + "1 " * 500, _digit)
    assert said["pv"] == [1] * MAX_PV_MOVES and said["pv_cut"] == 500 - MAX_PV_MOVES
    assert parse_info_line("info depth 3 " + "x" * MAX_PV_LINE, _digit) == {"pv_cut": 1}
    # one move word of a megabyte is not read
    assert parse_info_line("info pv " + "1" * 300, _digit) == {"pv_cut": 1}


def test_the_json_info_object_is_read_and_checked():
    game = get_game("isolation")
    move, said = jsonl_answer(
        game, '{"move": [1, 2], "info": {"depth": 2, "score": 0.5, "pv": [[1, 2], [3, 4]]}}'
    )
    assert move == (1, 2)
    assert said == {"depth": 2, "score": 0.5, "pv": [(1, 2), (3, 4)]}
    for info in ('"no"', "[1, 2]", "null", '{"pv": "1 2"}', '{"depth": true}'):
        move, said = jsonl_answer(game, '{"move": [1, 2], "info": %s}' % info)
        assert move == (1, 2)
        assert "pv" not in said and "depth" not in said
    said = info_from_json({"pv": [[1, 2]] * 1000, "nodes": 1e400}, game.move_from_json)
    assert said == {"pv": [(1, 2)] * MAX_PV_MOVES, "pv_cut": 1000 - MAX_PV_MOVES}


# ------------------------------------------------------------------- whole games


def _play(game_name: str, map_path: str, script: str, mode: str):
    game_map = read_map(ROOT / "maps" / map_path, game=game_name)
    bot = external_bot(
        game_name, [sys.executable, str(BOTS / script), mode], first_move_time=PATIENCE
    )
    return play_game(game_name, game_map, [bot, "random"], seed=1, time_limit=PATIENCE)


def _said(record) -> list[dict]:
    return [dict(t.info[0]) for t in record.turns if 0 in t.info]


@pytest.mark.parametrize(
    ("game_name", "map_path", "script", "mode"),
    [
        ("tron", "tron/arena.txt", "tron_reports.py", "good"),
        ("tron", "tron/arena.txt", "tron_reports.py", "huge"),
        ("tron", "tron/arena.txt", "tron_reports.py", "garbage"),
        ("tron", "tron/arena.txt", "tron_reports.py", "noisy"),
        ("connect5", "connect5/connect4.txt", "connect5_reports.py", "good"),
        ("connect5", "connect5/connect4.txt", "connect5_reports.py", "garbage"),
        ("isolation", "isolation/knight7.txt", "isolation_reports.py", "good"),
        ("isolation", "isolation/knight7.txt", "isolation_reports.py", "huge"),
        ("isolation", "isolation/knight7.txt", "isolation_reports.py", "garbage"),
        ("isolation", "isolation/knight7.txt", "isolation_reports.py", "line"),
    ],
)
def test_reports_through_each_protocol(game_name, map_path, script, mode, capfd):
    record = _play(game_name, map_path, script, mode)
    assert record.statuses[0].status == "ok", record.statuses[0]
    said = _said(record)
    moves = [t.moves[0] for t in record.turns if 0 in t.moves]
    if mode == "garbage" and game_name == "isolation":
        # [99, 99] has the form of a move: kept here, dropped by whoever draws it; every
        # other answer's info is a string, which says nothing (and is not carried over)
        assert said == [{"pv": [[99, 99]], "pv_cut": 2}] * ((len(moves) + 1) // 2)
        said = moves = []
    assert len(said) == len(moves)  # one report for every move, none carried over
    for info, move in zip(said, moves, strict=True):
        if mode == "good":
            assert info["pv"] == [move] * (2 if game_name == "isolation" else 3)
            assert info["depth"] in (2, 3, 4) and "pv_cut" not in info
        elif mode == "huge" and game_name == "tron":
            assert info == {"pv_cut": 1}  # the 200 kB line is dropped whole
        elif mode == "huge":
            assert len(info["pv"]) == MAX_PV_MOVES and info["pv_cut"] == 5000 - MAX_PV_MOVES
        elif mode == "garbage" and game_name == "tron":
            assert info == {"pv": [move], "pv_cut": 3}
        elif mode == "garbage" and game_name == "connect5":
            assert info == {"depth": 4, "score": 12, "nodes": 99, "pv_cut": 3}
        elif mode == "noisy" or mode == "line":
            assert info["pv"] == [move] and info["nodes"] in (3, 7)
    assert "Traceback" not in capfd.readouterr().err
