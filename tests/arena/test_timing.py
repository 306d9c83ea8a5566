"""Timing evidence (atlas.arena.timing, the runner's ``cpu`` and ``late`` readings):
every answer's CPU time beside its wall time, the machine's load when a move came late,
the verdict that tells a slow bot from a loaded machine, and tournaments that void games
lost on time under load.  Every clock, CPU clock and load reading here is injected: no
test depends on the machine's speed or load."""

from __future__ import annotations

import doctest
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from atlas.arena import timing
from atlas.arena.competition import load_plan, run_plan
from atlas.arena.runner import CPU_RESCAN_EVERY, late_after, play_game
from atlas.arena.standings import standings
from atlas.arena.timing import (
    Meters,
    ProcessTreeCPU,
    late_moves,
    process_cpu_seconds,
    verdict,
    void_reason,
)
from atlas.errors import PlanError
from atlas.maps import parse_map
from atlas.sim import get_game
from atlas.sim.base import Outcome, Reason
from atlas.sim.records import Late, RecordBuilder, load_record, record_from_json
from tests.conftest import TickClock

C5 = parse_map("connect5 6 5 4\n", game="connect5", name="small")
LIMIT = 0.2


class Scripted:
    """A connect5 bot whose k-th answer takes ``walls[k]`` seconds on the still clock
    and ``cpus[k]`` on the injected CPU clock (or its own, with ``own_cpu``)."""

    def __init__(self, clock, cpu, walls, cpus, own_cpu=False, seed=0):
        self.clock, self.cpu, self.walls, self.cpus = clock, cpu, walls, cpus
        self.game = get_game("connect5")
        self.rng = np.random.default_rng(seed)
        self.k = 0
        self.rescans: list[bool] = []
        self.spent = 0.0
        if own_cpu:
            self.cpu_seconds = self._own

    def _own(self, *, rescan=False):
        self.rescans.append(rescan)
        return self.spent

    def move(self, state, player, deadline):
        k = self.k
        self.k += 1
        self.clock.now += self.walls[k % len(self.walls)]
        used = self.cpus[k % len(self.cpus)]
        self.cpu.now += used
        self.spent += used
        return self.game.random_move(state, player, self.rng)


#: A board random play takes long to fill (for the rescans, every 64 answers).
BIG = parse_map("connect5 20 20 7\n", game="connect5", name="big")


def _play(clock, walls, cpus, load=(6.0, 2), own_cpu=False, board=C5):
    cpu = TickClock(start=0.0, tick=0.0)
    bot = Scripted(clock, cpu, walls, cpus, own_cpu)
    quick = Scripted(clock, cpu, [0.001], [0.001], seed=1)
    meters = Meters(cpu=cpu, load=lambda: load)
    record = play_game("connect5", board, [quick, bot], seed=3, time_limit=LIMIT, meters=meters)
    return record, bot


def test_each_answer_keeps_its_cpu_time_and_a_late_one_the_load(still_clock):
    # seat 2's answers: in time, late within the grace, in time, ...
    walls = [0.05, LIMIT + 0.02, 0.1]
    cpus = [0.04, 0.005, 0.09]
    record, _ = _play(still_clock, walls, cpus)
    mine = [(t.times[1], t.cpu[1], t.late.get(1)) for t in record.turns if 1 in t.moves]
    assert len(mine) >= 3
    for k, (wall, cpu, late) in enumerate(mine):
        assert wall == pytest.approx(walls[k % 3])
        assert cpu == pytest.approx(cpus[k % 3])
        if k % 3 == 1:
            assert late == Late(LIMIT, 6.0, 2)  # past its deadline: the machine's load
        else:
            assert late is None
    assert record.statuses[1].status == "ok"  # late, but within the grace
    theirs = [t.cpu[0] for t in record.turns if 0 in t.moves]
    assert theirs == pytest.approx([0.001] * len(theirs))
    # the same answers read back from a file, and their verdicts
    back = record_from_json(json.loads(json.dumps(record.to_json())))
    assert back == record
    late = late_moves(back)
    assert [m.seat for m in late] == [1] * len(late) and late[0].turn == 3
    assert late[0].verdict == "loaded machine"  # 0.005 s of CPU in 0.22 s at 3 a core
    assert not late[0].timeout


def test_a_timeout_under_load_is_told_from_a_slow_bot(still_clock):
    over = late_after(LIMIT) + 0.01
    record, _ = _play(
        still_clock, [0.01, over], [0.01, 0.1]
    )  # a third of a core at load 3/core
    (late,) = late_moves(record)
    assert late.timeout and record.statuses[1].status == "timeout"
    assert late.verdict == "loaded machine"
    assert "load 6.00 on 2 cores: loaded machine" in late.text
    record, _ = _play(still_clock, [0.01, over], [0.01, 0.95 * over], load=(0.2, 2))
    assert late_moves(record)[0].verdict == "slow bot"
    record, _ = _play(still_clock, [0.01, over], [0.01, 0.0], load=(0.2, 2))
    assert late_moves(record)[0].verdict == "waiting"
    record, _ = _play(still_clock, [0.01, over], [0.01, 0.0], load=None)
    assert late_moves(record)[0].verdict == "unknown"
    assert record.turns[late_moves(record)[0].turn].late[1] == Late(LIMIT, None, None)


def test_a_program_s_own_cpu_clock_is_read_and_rescanned_now_and_then(still_clock):
    record, bot = _play(still_clock, [0.01], [0.003], own_cpu=True, board=BIG)
    mine = [t.cpu[1] for t in record.turns if 1 in t.moves]
    assert mine == pytest.approx([0.003] * len(mine))
    # read before and after each answer; looked for its processes before answer 17, 81, ...
    before = bot.rescans[0::2]
    assert len(before) > 80 and before[16] and not any(before[:16])
    assert [k for k, r in enumerate(before) if r] == list(
        range(16, len(before), CPU_RESCAN_EVERY)
    )
    assert not any(bot.rescans[1::2])


@pytest.mark.parametrize(
    "wall, cpu, load, cores, want",
    [
        (0.5, 0.45, 9.0, 2, "slow bot"),  # 90 % of a core: it computed, load or not
        (0.5, 0.40, 0.1, 2, "slow bot"),  # exactly 80 %
        (0.5, 0.39, 0.1, 2, "waiting"),  # a free machine, and it did not compute
        (0.5, 0.39, 2.1, 2, "loaded machine"),  # a little over a task a core
        (0.5, 0.0, 8.0, 2, "loaded machine"),  # no CPU, but no core to be had either
        (0.5, 0.0, 2.0, 2, "waiting"),  # exactly a task a core is not loaded
        (0.5, None, 9.0, 2, "unknown"),
        (0.5, 0.1, None, None, "unknown"),
    ],
)
def test_the_verdict_rule(wall, cpu, load, cores, want):
    assert verdict(wall, cpu, load, cores) == want


def test_the_verdict_examples():
    assert doctest.testmod(timing).failed == 0


def _timed_out(load, cores, cpu=0.0, seat=1):
    """A connect5 game seat 2 loses on time at turn 1, with the load then."""
    game = get_game("connect5")
    b = RecordBuilder(game, C5, {}, ["a", "b"], 0)
    state = game.initial_state(C5)
    move = game.legal_moves(state, 0)[0]
    b.add_turn({0: move}, {0: 0.01}, None, {0: 0.01})
    state = game.apply(state, {0: move})
    b.add_turn({1: None}, {1: 0.3}, None, {1: cpu}, {1: Late(0.2, load, cores)})
    state = game.apply(state, {1: None})
    b.set_status(1, "timeout", 1, "answered after 0.300 s, the limit is 0.2 s")
    outcome = game.outcome(state)
    assert outcome is not None and outcome.winner == 0
    return b.finish(state, Outcome(0, Reason.TIMEOUT, outcome.scores, "player 2 timed out"))


def test_void_reason_names_the_seat_the_turn_and_the_load():
    rec = _timed_out(4.0, 2)
    why = void_reason(rec, 1.5)
    assert why == (
        "seat 2 (b) lost on time at turn 1 while the machine's load was 4.00 on 2 cores "
        "(2.00 a core, above 1.5); it used 0.000 s of CPU in 0.300 s"
    )
    assert void_reason(rec, 2.0) is None  # exactly 2 a core is not above 2
    assert void_reason(_timed_out(None, None), 0.1) is None  # no reading: counted


def test_standings_leave_voided_games_out_and_say_why():
    lost = _timed_out(5.0, 2)
    won = [_timed_out(0.5, 2) for _ in range(2)]  # a light load: counted
    table = standings([lost, *won], samples=20, void_under_load=1.5)
    assert [k for k, _ in table.voided] == [0]
    assert table.row("a").games == 2 and table.row("b").losses == 2
    assert "1 game(s) voided" in table.format_table()
    assert table.to_json()["voided"] == 1 and table.to_json()["void_under_load"] == 1.5
    # a player whose only game was voided still has a row
    alone = standings([lost], samples=0, void_under_load=1.5)
    assert {r.bot for r in alone.rows} == {"a", "b"} and alone.row("a").games == 0
    assert standings([lost], samples=0).row("a").games == 1  # no rule: it counts


#: A tron program that hangs on its third move.
SLEEPER = Path(__file__).resolve().parent / "broken_bots" / "hangs_on_third_move.py"
TRON = "7 5\n#######\n#1    #\n#     #\n#    2#\n#######\n"


def _league(tmp_path, extra=""):
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "box.txt").write_text(TRON)
    plan = tmp_path / "cup.toml"
    plan.write_text(
        f"""game = "tron"
maps = ["maps/box.txt"]
time = 0.05
{extra}
[[bots]]
name = "sleeper"
command = "{sys.executable} {SLEEPER}"

[[bots]]
name = "hug"
builtin = "wallhugger"
"""
    )
    return plan


def test_a_tournament_voids_games_lost_on_time_under_load(tmp_path, monkeypatch):
    monkeypatch.setattr(timing, "machine_load", lambda: (7.0, 2))  # 3.5 a core
    plan = load_plan(_league(tmp_path, "void_timeouts_under_load = 1.5"))
    assert plan.void_under_load == 1.5
    result = run_plan(plan, tmp_path / "out", jobs=1)
    seats = [[p.name for p in r.players].index("sleeper") for r in result.records]
    assert [r.statuses[s].status for r, s in zip(result.records, seats)] == ["timeout"] * 2
    data = json.loads((tmp_path / "out" / "results.json").read_text())
    assert data["void_timeouts_under_load"] == 1.5
    assert [v["index"] for v in data["voided"]] == [0, 1]
    for v in data["voided"]:
        assert "lost on time at turn 2" in v["why"] and "3.50 a core" in v["why"]
    assert [g["voided"] is not None for g in data["games"]] == [True, True]
    assert all(r["games"] == 0 for r in data["standings"]["rows"])
    # the records keep the evidence: the load at the late answer, and its CPU time
    rec = load_record(tmp_path / "out" / data["voided"][0]["record"])
    (late,) = [m for m in late_moves(rec) if m.timeout]
    assert (late.load, late.cores) == (7.0, 2) and late.cpu is not None
    assert late.cpu < 0.04  # asleep; at 3.5 tasks a core that looks like starving
    assert late.verdict == "loaded machine"


def test_without_the_rule_or_on_a_quiet_machine_they_count(tmp_path, monkeypatch):
    monkeypatch.setattr(timing, "machine_load", lambda: (1.0, 2))
    plan = load_plan(_league(tmp_path, "void_timeouts_under_load = 1.5"))
    result = run_plan(plan, None, jobs=1)
    assert result.table.voided == () and result.table.row("hug").wins == 2


def test_a_bad_void_rule_names_the_line(tmp_path):
    with pytest.raises(PlanError, match="void_timeouts_under_load should be a load") as err:
        load_plan(_league(tmp_path, "void_timeouts_under_load = -1"))
    assert err.value.line == 4


def test_the_supervisor_reports_the_bot_and_no_scan_is_needed(monkeypatch):
    from atlas.arena.process import BotProcess

    scans = []
    real = ProcessTreeCPU.scan
    monkeypatch.setattr(ProcessTreeCPU, "scan", lambda self: (scans.append(1), real(self)))
    code = "import sys\nfor line in sys.stdin:\n    print(sum(range(200_000)), flush=True)\n"
    bot = BotProcess([sys.executable, "-c", code])
    try:
        deadline = time.perf_counter() + 30
        while bot._cpu.child is None and time.perf_counter() < deadline:
            bot.cpu_seconds()
            time.sleep(0.01)
        child = bot._cpu.child
        assert child is not None and child != bot.pid
        with open(f"/proc/{child}/stat", "rb") as fh:
            assert int(fh.read().rsplit(b")", 1)[1].split()[1]) == bot.pid  # its child
        before = bot.cpu_seconds()
        bot.write(b"go\n", time.perf_counter() + 30)
        assert bot.read_answer(
            lambda b: (bytes(b), len(b)) if b.endswith(b"\n") else (None, 0),
            time.perf_counter() + 30,
            "a line",
        )
        after = bot.cpu_seconds()
        own = process_cpu_seconds(child)
        assert before is not None and after is not None and own is not None
        assert after > before and after == pytest.approx(own, abs=0.02)
        assert scans == []  # no look through /proc: the supervisor said who the bot is
        bot.cpu_seconds(rescan=True)
        assert scans == [1] and bot._cpu.members == {child}
    finally:
        bot.close()
    assert bot.cpu_seconds() is None


def test_the_cpu_clock_of_a_program_s_processes(tmp_path):
    # a supervisor stand-in starts a child that computes, then sleeps; its own CPU is
    # left out, the child's is counted, and a finished grandchild's through its parent
    child = (
        "import subprocess, sys, time\n"
        "subprocess.run([sys.executable, '-c', 'sum(range(3_000_000))'])\n"
        "x = sum(range(2_000_000))\n"
        "print('ready', flush=True)\n"
        "time.sleep(30)\n"
    )
    parent = f"import subprocess, sys; subprocess.run([sys.executable, '-c', {child!r}])"
    root = subprocess.Popen([sys.executable, "-c", parent], stdout=subprocess.PIPE)
    pid = None
    try:
        assert root.stdout is not None and root.stdout.readline() == b"ready\n"
        tree = ProcessTreeCPU(root.pid)
        total = tree.seconds()
        assert len(tree.members) == 1
        (pid,) = tree.members
        own = process_cpu_seconds(pid)
        with open(f"/proc/{pid}/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
        reaped = (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")
        assert own is not None and total == pytest.approx(own + reaped, abs=1e-3)
        root_cpu = process_cpu_seconds(root.pid)
        assert root_cpu is not None and root_cpu > 0  # not counted above
        assert tree.seconds() == pytest.approx(total, abs=1e-3)  # asleep: no more
    finally:
        for p in (pid, root.pid):
            if p is not None:
                try:
                    os.kill(p, 9)
                except ProcessLookupError:
                    pass
        root.wait()
    assert ProcessTreeCPU(root.pid).seconds() is None  # gone
    assert process_cpu_seconds(root.pid) is None


def test_records_from_before_the_timing_fields_load_and_verify_as_before():

    from atlas.sim.records import verify_record

    golden = Path(__file__).resolve().parents[1] / "sim" / "golden" / "tron-duel-random.json.gz"
    old = load_record(golden)
    verify_record(old)
    assert all(not t.cpu and not t.late for t in old.turns)
    assert late_moves(old) == [] and void_reason(old, 0.1) is None
    assert "cpu" not in json.dumps(old.to_json()) and '"late"' not in json.dumps(old.to_json())


def test_a_record_with_the_timing_fields_verifies_and_refuses_bad_ones(tmp_path):
    from atlas.errors import RecordError
    from atlas.sim.records import verify_record

    rec = _timed_out(4.0, 2)
    verify_record(rec)  # the fields claim nothing a replay could check
    data = rec.to_json()
    assert data["turns"][1]["late"] == {"1": {"limit": 0.2, "load": 4.0, "cores": 2}}
    assert data["turns"][1]["cpu"] == {"1": 0.0}
    for path, bad, message in [
        (("cpu", "1"), -0.5, "turns[1].cpu['1'] should be a number of seconds"),
        (("late", "1", "cores"), 0, "turns[1].late['1'].cores should be a whole number"),
        (("late", "1", "limit"), "fast", "turns[1].late['1'].limit should be a number"),
        (("late", "1", "when"), 3, "turns[1].late['1'] should be an object of limit"),
        (("late", "7"), {"limit": 1}, "turns[1].late has seat '7'"),
    ]:
        broken = json.loads(json.dumps(data))
        where = broken["turns"][1]
        for key in path[:-1]:
            where = where[key]
        where[path[-1]] = bad
        with pytest.raises(RecordError, match=re.escape(message)):
            record_from_json(broken, tmp_path / "x.json")
