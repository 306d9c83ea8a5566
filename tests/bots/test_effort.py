"""Effort mode (issue 33): a built-in bot at a fixed effort per move plays the same
moves whatever its clock says, the record says each seat's effort, and the spec's key
keys on it.  No test here depends on the machine's speed."""

from __future__ import annotations

import pytest

from atlas.arena.runner import play_game
from atlas.arena.tournament import GameSpec, run_game
from atlas.bots.registry import bot_efforts
from atlas.bots.search import clock_now, effort_active, effort_clock, on_clock, stop_time
from atlas.maps import parse_map
from atlas.sim.records import load_record, machine_free, save_record

TRON = "9 5\n#########\n#1      #\n#  # #  #\n#      2#\n#########\n"
ISOLATION = "isolation 5 5 knight\n1....\n.....\n..#..\n.....\n....2\n"
CONNECT = "connect5 6 5 4\n"


def test_the_effort_clock_counts_polls_and_no_margin_cuts_it():
    assert not effort_active()
    with effort_clock(10):
        assert effort_active()
        assert clock_now() == 1.0 and clock_now() == 2.0
        # whatever deadline and margin a bot names, its stop is its effort from now
        assert stop_time(0.0, 5.0) == 12.0
        assert on_clock(-1.0) == 12.0
    assert not effort_active()
    with effort_clock(0):
        assert not effort_active()


def test_effort_mode_is_one_thread_s():
    """A game at fixed effort leaves another thread's clock alone (a Dask worker may run
    games in threads)."""
    import threading
    import time

    seen = []
    with effort_clock(10):
        worker = threading.Thread(target=lambda: seen.append((effort_active(), clock_now())))
        worker.start()
        worker.join()
        assert effort_active()
    assert seen[0][0] is False  # the machine's clock there, not a count of polls
    assert abs(seen[0][1] - time.perf_counter()) < 60.0


def _moves(record):
    return [dict(t.moves) for t in record.turns]


@pytest.mark.parametrize(
    ("game", "text", "bots", "effort"),
    [
        ("tron", TRON, ["voronoi", "apex"], 30),
        ("tron", TRON, ["chambers", "frontline"], 30),
        ("isolation", ISOLATION, ["phased", "strong"], 5),
        ("connect5", CONNECT, ["window4", "strong"], 3),
    ],
)
def test_a_game_at_fixed_effort_ignores_the_clock(game, text, bots, effort):
    game_map = parse_map(text, game=game, name="small")
    first = play_game(game, game_map, bots, seed=3, time_limit=0.01, effort=effort)
    second = play_game(game, game_map, bots, seed=3, time_limit=5.0, effort=effort)
    assert _moves(first) == _moves(second)
    assert first.result == second.result
    assert [p.effort for p in first.players] == [effort, effort]
    assert all(s.status == "ok" for s in first.statuses)
    assert not any(t.late for t in first.turns)  # never judged by the clock
    # the nodes each search reports are the machine's no more than the moves are
    assert [t.info for t in first.turns] == [t.info for t in second.turns]


def test_the_record_keeps_the_effort_and_the_site_drops_its_seconds(tmp_path):
    game_map = parse_map(TRON, game="tron", name="small")
    rec = play_game("tron", game_map, ["wallhugger", "voronoi"], seed=1, effort=[0, 20])
    assert [p.effort for p in rec.players] == [None, 20]
    path = tmp_path / "r.json"
    save_record(rec, path)
    again = load_record(path)
    assert [p.effort for p in again.players] == [None, 20]
    bare = machine_free(again)
    assert all(1 not in t.times and 1 not in t.cpu for t in bare.turns)
    assert any(0 in t.times for t in bare.turns)  # the seat on the clock keeps its times


def test_a_program_keeps_its_clock():
    game_map = parse_map(TRON, game="tron", name="small")
    rec = play_game("tron", game_map, ["wallhugger", "cmd:./nowhere"], seed=1, effort=7)
    assert [p.effort for p in rec.players] == [7, None]


def test_the_spec_keys_on_efforts_and_run_game_plays_them():
    game_map = parse_map(TRON, game="tron", name="small")
    plain = GameSpec.on_map(game_map, ["wallhugger", "voronoi"], 1)
    fixed = GameSpec.on_map(game_map, ["wallhugger", "voronoi"], 1, efforts={"voronoi": 20})
    other = GameSpec.on_map(game_map, ["wallhugger", "voronoi"], 1, efforts={"voronoi": 21})
    assert len({plain.key, fixed.key, other.key}) == 3
    assert fixed.efforts == (("voronoi", 20),)
    rec = run_game(fixed)
    assert [p.effort for p in rec.players] == [None, 20]


def test_every_built_in_bot_has_a_default_effort():
    for game in ("tron", "isolation", "connect5", "outpost"):
        efforts = bot_efforts(game)
        assert efforts and all(e >= 1 for e in efforts.values())
        assert bot_efforts(game, 3) == {b: 3 * e for b, e in efforts.items()}


def test_the_first_bot_of_a_process_reports_as_the_others(monkeypatch):
    """Only the first tron bot of its class in a process warms up on tiny boards; a forced
    first move (no search) must not report the warm-up's figures."""
    from atlas.games.tron.bots import common

    forced = "9 5\n#########\n#1#     #\n# #  #  #\n#     #2#\n#########\n"
    game_map = parse_map(forced, game="tron", name="forced")
    monkeypatch.setattr(common, "_WARM", {})  # as in a fresh process
    first = play_game("tron", game_map, ["voronoi", "apex"], seed=1, effort=30)
    second = play_game("tron", game_map, ["voronoi", "apex"], seed=1, effort=30)
    assert [t.info for t in first.turns] == [t.info for t in second.turns]
    assert first.turns[0].info == {}  # both first moves are forced: nothing searched


def test_the_clock_the_kernels_name_can_be_pickled():
    """numba caches a kernel that reads :func:`atlas.bots.search.clock` only when the
    object it names can be pickled (a thread-local one cannot: every process would
    compile every search again)."""
    import pickle

    from atlas.bots import search

    assert pickle.loads(pickle.dumps(search._CLOCK)).processor is False


class _SlowMachine:
    """``time`` as a bot sees it on a very slow machine: every read of the wall clock
    is a second later than the last (the rest of ``time`` as it is)."""

    def __init__(self) -> None:
        import time

        self._time = time
        self._now = time.perf_counter()

    def perf_counter(self) -> float:
        self._now += 1.0
        return self._now

    def __getattr__(self, name: str):
        return getattr(self._time, name)


@pytest.mark.parametrize("bots", [["strong", "phased"], ["phased", "strong"]])
def test_a_fixed_effort_game_is_the_same_on_a_slow_machine(monkeypatch, bots):
    """Every read of the clock a second apart changes nothing in a fixed-effort game,
    its start included: the isolation bots' start searches the game's board as a
    warm-up, on the strong bot's own transposition table, and runs at the game's
    effort (the runner's effort clock), and the table's keys go with its entries."""
    from atlas import resources
    from atlas.bots import search
    from atlas.maps import read_map

    game_map = read_map(resources.maps_dir() / "isolation" / "knight7.txt", game="isolation")
    efforts = bot_efforts("isolation")
    effort = [efforts[b] for b in bots]
    quick = play_game("isolation", game_map, bots, seed=0, effort=effort)
    monkeypatch.setattr(search, "time", _SlowMachine())
    slow = play_game("isolation", game_map, bots, seed=0, effort=effort)
    assert _moves(slow) == _moves(quick)
    assert [t.info for t in slow.turns] == [t.info for t in quick.turns]
    assert slow.result == quick.result
