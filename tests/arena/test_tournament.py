"""Tests of atlas.arena.tournament: schedules, executors that agree, standings."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest

from atlas.arena.rating import bradley_terry
from atlas.arena.tournament import (
    GameSpec,
    is_error,
    run_games,
    schedule_games,
    seatings,
    standings,
)
from atlas.cli import main
from atlas.maps import parse_map
from atlas.sim.base import Outcome
from atlas.sim.records import (
    MapRef,
    PlayerEntry,
    Record,
    SeatStatus,
    load_record,
    verify_record,
)

ROOT = Path(__file__).resolve().parents[2]
C5 = parse_map("connect5 6 5 4\n", game="connect5", name="small")
TRON = parse_map("7 5\n#######\n#1    #\n#  #  #\n#    2#\n#######\n", game="tron", name="box")
ISO = parse_map("isolation 4 4 queen\n1...\n..#.\n....\n...2\n", game="isolation", name="box")


def _essence(record):
    """Everything about a game except answer times (which depend on the machine)."""
    return (
        record.game,
        record.map.hash,
        record.players,
        record.seed,
        [dict(t.moves) for t in record.turns],
        record.result,
        record.statuses,
        dict(record.final),
    )


def test_seatings_cover_pairs_and_rotations_evenly():
    two = seatings(["a", "b", "c", "d"], 2)
    assert len(two) == 12 and len(set(two)) == 12
    assert all(x != y for x, y in two)
    four = seatings(["a", "b", "c", "d", "e"], 4)
    assert len(four) == 5 * 4 and len(set(four)) == 20
    # every bot sits in every seat equally often
    for seat in range(4):
        assert Counter(s[seat] for s in four) == {b: 4 for b in "abcde"}
    assert seatings(["a", "b", "c", "d"], 4) == [
        ("a", "b", "c", "d"),
        ("b", "c", "d", "a"),
        ("c", "d", "a", "b"),
        ("d", "a", "b", "c"),
    ]


def test_schedule_is_maps_times_seatings_times_seeds():
    specs = schedule_games(
        "connect5",
        [C5, parse_map("connect5 7 6 5\n", game="connect5", name="std")],
        ["random", "window4", "strong"],
        seeds=2,
        params={"inarow": 4},
        time_limit=0.05,
    )
    assert len(specs) == 2 * 6 * 2
    assert len({s.key for s in specs}) == len(specs)
    assert specs[0] == GameSpec(
        "connect5", "small", "connect5 6 5 4\n", ("random", "window4"), 0, '{"inarow": 4}', 0.05
    )
    assert {s.seed for s in specs} == {0, 1}


@pytest.mark.slow
def test_same_results_with_one_job_two_jobs_and_a_dask_cluster():
    # bots whose moves do not depend on the clock (the seeded random bot and the example
    # programs), so any executor must give the very same games
    def example(name):
        return f"cmd:{sys.executable} {ROOT / 'examples' / 'bots' / name}"

    specs = schedule_games(
        "tron", [TRON], ["random", example("tron_bot.py")], seeds=2, time_limit=2.0
    )
    specs += schedule_games(
        "connect5", [C5], ["random", example("connect5_bot.py")], time_limit=2.0
    )
    one = run_games(specs, jobs=1, progress=False)
    two = run_games(specs, jobs=2, progress=False)
    import distributed

    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        silence_logs=40,
    ) as cluster:
        dask = run_games(specs, scheduler=cluster.scheduler_address, progress=False)
    assert (
        [_essence(r) for r in one] == [_essence(r) for r in two] == [_essence(r) for r in dask]
    )
    assert not any(is_error(r) for r in one)
    for r in one:
        verify_record(r)
    assert standings(one) == standings(two) == standings(dask)


def test_a_game_that_raises_becomes_an_error_record_and_the_rest_goes_on():
    good = schedule_games("connect5", [C5], ["random", "window4"], time_limit=0.2)
    bad = GameSpec(
        "connect5",
        "small",
        "connect5 6 5 4\n",
        ("random", "window4"),
        0,
        '{"no_such_param": 1}',
        0.2,
    )
    broken_map = GameSpec(
        "connect5", "junk", "not a map\n", ("random", "window4"), 0, "{}", 0.2
    )
    records = run_games([good[0], bad, broken_map, good[1]], jobs=1, progress=False)
    assert [is_error(r) for r in records] == [False, True, True, False]
    assert "no_such_param" in records[1].result.detail
    assert records[1].result.scores == (0.0, 0.0)
    table = standings(records)
    assert table.errors == 2
    assert sum(r.games for r in table.rows) == 4


def _record(players, winner, scores):
    n = len(players)
    reason = "draw" if winner is None else "win"
    return Record(
        "connect5",
        MapRef("m", "", ""),
        {},
        tuple(PlayerEntry(p) for p in players),
        0,
        (),
        Outcome(winner, reason, tuple(scores), ""),
        tuple(SeatStatus() for _ in range(n)),
        {},
    )


def test_standings_count_exactly_and_rate_with_bradley_terry():
    records = [
        _record(["a", "b"], 0, (1.0, 0.0)),
        _record(["b", "a"], 1, (0.0, 1.0)),
        _record(["a", "b"], None, (0.5, 0.5)),
        _record(["b", "c"], 0, (1.0, 0.0)),
        _record(["c", "a"], 0, (1.0, 0.0)),
    ]
    table = standings(records)
    rows = {r.bot: r for r in table.rows}
    assert (rows["a"].games, rows["a"].wins, rows["a"].draws, rows["a"].losses) == (4, 2, 1, 1)
    assert (rows["b"].games, rows["b"].wins, rows["b"].draws, rows["b"].losses) == (4, 1, 1, 2)
    assert (rows["c"].games, rows["c"].wins, rows["c"].draws, rows["c"].losses) == (2, 1, 0, 1)
    assert rows["a"].points == 2.5 and rows["b"].points == 1.5 and rows["c"].points == 1.0
    assert table.head_to_head["a"]["b"] == (2, 1, 0)
    assert table.head_to_head["b"]["a"] == (0, 1, 2)
    assert table.head_to_head["a"]["c"] == (0, 0, 1)
    want = bradley_terry(
        ["a", "b", "c"],
        [("a", "b", 1.0), ("b", "a", 0.0), ("a", "b", 0.5), ("b", "c", 1.0), ("c", "a", 1.0)],
    )
    for name in "abc":
        assert rows[name].rating == pytest.approx(want[name])
    assert [r.bot for r in table.rows] == sorted("abc", key=lambda b: -want[b])
    # order of the records does not matter
    assert standings(list(reversed(records))) == table
    text = table.format_table()
    assert "2-1-0" in text and "0-1-2" in text


def test_four_seat_games_rank_pairwise_by_score():
    table = standings([_record(["a", "b", "c", "d"], 0, (1.0, 2 / 3, 1 / 3, 0.0))])
    assert table.head_to_head["b"] == {"a": (0, 0, 1), "c": (1, 0, 0), "d": (1, 0, 0)}
    assert [r.bot for r in table.rows] == ["a", "b", "c", "d"]
    # each pair of seats is one comparison: a beats three, b two, c one, d none
    assert [(r.wins, r.draws, r.losses) for r in table.rows] == [
        (3, 0, 0),
        (2, 0, 1),
        (1, 0, 2),
        (0, 0, 3),
    ]
    assert [r.games for r in table.rows] == [1, 1, 1, 1]


def test_cli_tournament_writes_results_and_records(tmp_path, capsys):
    map_file = tmp_path / "box.txt"
    map_file.write_text("isolation 4 4 queen\n1...\n..#.\n....\n...2\n")
    out = tmp_path / "out"
    code = main(
        [
            "tournament",
            "isolation",
            "--maps",
            str(map_file),
            "--bots",
            "random",
            "phased",
            "--seeds",
            "1",
            "--time",
            "0.2",
            "--jobs",
            "1",
            "--out",
            str(out),
            "--json",
        ]
    )
    assert code == 0
    printed = json.loads(capsys.readouterr().out)
    saved = json.loads((out / "results.json").read_text())
    assert printed["standings"] == saved["standings"]
    assert len(saved["games"]) == 2
    assert sum(r["games"] for r in saved["standings"]["rows"]) == 4
    for game in saved["games"]:
        record = load_record(out / game["record"])
        verify_record(record)
        assert record.result.winner == game["winner"]
        assert [p.name for p in record.players] == game["players"]


def test_fixed_depth_games_are_the_same_whatever_the_clock():
    # Searches that ignore the clock play the same game at any time per move (these two
    # bots also fill a separated room without the clock): a generous and a tight limit
    # give the same moves.
    from atlas.arena.tournament import run_game, schedule_games
    from atlas.maps import read_map

    duel = read_map(Path(__file__).resolve().parents[2] / "maps" / "tron" / "duel.txt")
    slow = schedule_games(
        "tron", [duel], ["voronoi", "chambers"], 1, None, 5.0, {"voronoi": 2, "chambers": 2}
    )
    fast = schedule_games(
        "tron", [duel], ["voronoi", "chambers"], 1, None, 2.0, {"voronoi": 2, "chambers": 2}
    )
    assert len(slow) == 2 and all(s.depths == (("chambers", 2), ("voronoi", 2)) for s in slow)
    assert slow[0].key != fast[0].key
    first, again = run_game(slow[0]), run_game(fast[0])
    assert [s.status for s in first.statuses] == ["ok", "ok"]
    assert [p.name for p in first.players] == ["voronoi", "chambers"]
    assert [t.moves for t in first.turns] == [t.moves for t in again.turns]
    assert first.result == again.result
