"""Issue 34, interrupts and bots that leave (:mod:`atlas.bots.stop`).

* ``SIGINT`` and ``SIGTERM`` stop a command whatever it is doing, a search kernel in the
  middle of its work included: exit 130 / 143, no traceback, no record written, nothing
  recorded for the bot that was thinking.
* A search in progress ends at its next poll of the clock once a stop is requested.
* A Python-object bot whose ``move`` raises ``SystemExit`` or ``KeyboardInterrupt`` (or
  calls ``sys.exit``) loses its game as a crash; the user's interrupt is raised out of
  the runner instead.

Every wait is bounded; the bounds are generous (a slow machine passes), and each is far
below what the interrupted work would take without the fix (a 60 s move)."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

import atlas
from atlas.arena.runner import play_game
from atlas.bots import stop
from atlas.maps import parse_map
from atlas.sim.base import Status

ROOT = Path(__file__).resolve().parents[2]
ROOMS = ROOT / "maps" / "tron" / "rooms.txt"
BOX = "7 5\n#######\n#1    #\n#     #\n#    2#\n#######\n"
#: Seconds a stopped command gets to end: the issue asks for 1 s; a loaded CI machine
#: gets much more, still far below the 60 s move it interrupts.
BOUND = 20.0


@pytest.fixture(autouse=True)
def _no_stop_left():
    stop.clear()
    yield
    stop.clear()


# --------------------------------------------------------------------------- bots that leave


class _Leaver:
    def __init__(self, how: str) -> None:
        self.how = how
        self.name = f"leaver-{how}"

    def move(self, state, player, deadline):
        if self.how == "exit":
            sys.exit(3)
        if self.how == "system-exit":
            raise SystemExit
        if self.how == "keyboard":
            raise KeyboardInterrupt
        raise AssertionError(self.how)


@pytest.mark.parametrize("how", ["exit", "system-exit", "keyboard"])
def test_a_python_bot_that_leaves_loses_as_a_crash(how):
    gm = parse_map(BOX, game="tron", name="box")
    rec = play_game("tron", gm, [_Leaver(how), "wallhugger"], time_limit=0.5)
    assert rec.result.winner == 1
    status = rec.statuses[0]
    assert status.status == Status.CRASHED
    assert ("SystemExit" if how != "keyboard" else "KeyboardInterrupt") in status.detail
    # through the API too
    rec = atlas.play(atlas.read_map(BOX, "tron"), [_Leaver(how), "wallhugger"], time=0.5)
    assert rec.result.winner == 1


class _Interrupted:
    """A bot during whose move the user presses Ctrl-C (a real SIGINT to this process)."""

    name = "interrupted"

    def move(self, state, player, deadline):
        os.kill(os.getpid(), signal.SIGINT)
        end = time.monotonic() + BOUND
        while time.monotonic() < end:  # Python code: the handler raises here
            time.sleep(0.01)
        return 1


def test_the_users_interrupt_during_a_move_is_raised_not_recorded():
    gm = parse_map(BOX, game="tron", name="box")
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with pytest.raises(KeyboardInterrupt):
        play_game("tron", gm, [_Interrupted(), "wallhugger"], time_limit=BOUND * 2)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # restored
    assert not stop.requested()


def test_a_stop_asked_while_a_bot_raised_is_the_users_not_the_bots():
    class Raiser:
        name = "raiser"

        def move(self, state, player, deadline):
            stop.request(signal.SIGTERM)  # as the handler does
            raise RuntimeError("anything")

    gm = parse_map(BOX, game="tron", name="box")
    with pytest.raises(stop.Terminated):
        play_game("tron", gm, [Raiser(), "wallhugger"], time_limit=1.0)


def test_the_search_kernel_ends_at_its_next_clock_poll():
    from atlas.bots.registry import make_bot
    from atlas.games.tron.rules import TronGame  # noqa: F401 - the game's module loads

    gm = atlas.read_map(ROOMS, "tron")
    game = atlas.sim.get_game("tron")
    state = game.initial_state(gm, None)
    bot = make_bot("tron", "voronoi", 0)
    bot.start(gm, {}, 0)
    bot.move(state.copy(), 0, time.perf_counter() + 0.2)  # kernels loaded or compiled
    timer = threading.Timer(0.5, stop.request, args=(signal.SIGINT,))
    t0 = time.perf_counter()
    timer.start()
    try:
        move = bot.move(state.copy(), 0, time.perf_counter() + 60.0)
    except KeyboardInterrupt:  # the bot read the clock from Python after its kernel
        move = None
    finally:
        timer.cancel()
    elapsed = time.perf_counter() - t0
    assert elapsed < BOUND, elapsed
    assert move is None or move in (1, 2, 3, 4)
    assert stop.requested() == signal.SIGINT


@pytest.mark.parametrize("name", ["voronoi", "apex"])
def test_a_fixed_depth_search_ends_at_its_next_clock_poll(name):
    """A search at a fixed depth has no deadline, yet a stop request ends it: its
    deadline is far (``NO_DEADLINE``) but below the clock's jump on a stop."""
    from atlas.bots.registry import make_bot

    gm = atlas.read_map(ROOMS, "tron")
    state = atlas.sim.get_game("tron").initial_state(gm, None)
    bot = make_bot("tron", name, 0)
    bot.start(gm, {}, 0)
    bot.fixed_depth = 2
    bot.move(state.copy(), 0, time.perf_counter() + 60.0)  # kernels loaded or compiled
    bot.fixed_depth = 60  # far more than a move's worth of search on this open map
    timer = threading.Timer(0.5, stop.request, args=(signal.SIGINT,))
    t0 = time.perf_counter()
    timer.start()
    try:
        move = bot.move(state.copy(), 0, time.perf_counter() + 60.0)
    except KeyboardInterrupt:
        move = None
    finally:
        timer.cancel()
    assert time.perf_counter() - t0 < BOUND
    assert move is None or move in (1, 2, 3, 4)
    assert stop.requested() == signal.SIGINT


def test_no_deadline_is_far_yet_passed_by_the_clock_of_a_stop():
    from atlas.bots import search

    assert search.no_deadline() > search.clock_now() + search.NO_DEADLINE / 2
    with search.effort_clock(5):  # effort mode: reading it costs no poll
        assert search.no_deadline() == search.NO_DEADLINE
    stop.request(signal.SIGINT)
    # what a compiled search reads once a stop is requested is past that deadline
    assert search._CLOCK.now() > search.no_deadline()


def test_limits_that_cannot_end_are_refused_by_the_runner():
    gm = parse_map(BOX, game="tron", name="box")
    for bad in (float("inf"), float("nan"), 0.0):
        with pytest.raises(atlas.errors.ArgumentError, match="time_limit"):
            play_game("tron", gm, ["random", "random"], time_limit=bad)


# --------------------------------------------------------------------------- the command line


def _start(
    argv: list[str], cwd: Path, env: dict[str, str] | None = None
) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "atlas", *argv],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
    )


@pytest.fixture(scope="module")
def warm_kernels(tmp_path_factory) -> None:
    """numba's cache holds the two bots' kernels, so the 60 s move starts within the
    tests' sleep (a cold cache compiles for longer than that on a loaded machine)."""
    cwd = tmp_path_factory.mktemp("warm")
    proc = _start(["play", "tron", str(ROOMS), "voronoi", "chambers", "--time", "0.02"], cwd)
    out, err = proc.communicate(timeout=900)
    assert proc.returncode == 0, err


@pytest.mark.slow
def test_a_stop_while_numba_compiles_ends_the_command_without_a_traceback(tmp_path):
    """The signal lands while numba compiles a bot's kernels (an empty cache folder):
    the handler raises nothing inside the compiler (an exception in llvmlite's callback
    broke it: ``RuntimeError: no compiled object yet``); the command ends with 130 once
    the kernel in hand is compiled."""
    proc = _start(
        ["play", "tron", str(ROOMS), "voronoi", "chambers", "--time", "60"],
        tmp_path,
        env={"ATLAS_CACHE_DIR": str(tmp_path / "cold")},
    )
    try:
        time.sleep(4.0)  # imported, compiling the first bot's kernels
        assert proc.poll() is None
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=600)  # a kernel's compile is not cut short
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "Exception ignored" not in err
    assert "wins" not in out


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_atlas_play_stops_mid_search_with_nothing_recorded(tmp_path, sig, code, warm_kernels):
    record = tmp_path / "game.json"
    proc = _start(
        ["play", "tron", str(ROOMS), "voronoi", "chambers", "--time", "60"]
        + ["--record", str(record)],
        tmp_path,
    )
    try:
        time.sleep(6.0)  # started, kernels loaded: the first 60 s move is under way
        assert proc.poll() is None
        t0 = time.monotonic()
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=BOUND * 3)
        took = time.monotonic() - t0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == code, err
    assert took < BOUND, took
    assert "Traceback" not in err and "crash" not in out + err and "wins" not in out
    assert not record.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".atlas-tmp-")]


def test_a_python_program_calling_atlas_play_is_interrupted_mid_search(tmp_path):
    script = tmp_path / "caller.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import sys, time
            import atlas
            from atlas.bots.registry import make_bot

            inner = make_bot("tron", "voronoi", 0)

            class Loud:
                name = "loud"
                warm = False

                def start(self, game_map, params, seat):
                    inner.start(game_map, params, seat)

                def move(self, state, player, deadline):
                    if not self.warm:
                        inner.move(state.copy(), player, time.perf_counter() + 0.3)
                        self.warm = True
                    print("thinking", flush=True)
                    return inner.move(state, player, deadline)

            try:
                rec = atlas.play({str(ROOMS)!r}, [Loud(), "wallhugger"], time=60)
            except KeyboardInterrupt:
                print("interrupted", flush=True)
                sys.exit(130)
            print("finished", rec.result_text(), flush=True)
            """
        )
    )
    proc = subprocess.Popen(
        [sys.executable, str(script)],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], BOUND * 6)  # bounded wait
        assert ready, "the program never began its search"
        line = proc.stdout.readline()
        assert line.strip() == "thinking"
        time.sleep(0.5)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=BOUND * 3)
        took = time.monotonic() - t0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, err
    assert "interrupted" in out and "finished" not in out, out + err
    assert took < BOUND, took


def test_an_interrupted_tournament_keeps_what_finished_and_resumes(tmp_path):
    from atlas.sim.records import load_record

    side = 11  # an open room: games of a few dozen turns, each a search of 0.1 s a bot
    rows = ["#" * side] + ["#" + " " * (side - 2) + "#" for _ in range(side - 2)]
    rows += ["#" * side]
    rows[2] = "#1" + rows[2][2:]
    rows[-3] = rows[-3][:-2] + "2#"
    (tmp_path / "room.txt").write_text(f"{side} {side}\n" + "\n".join(rows) + "\n")
    out = tmp_path / "cup"
    argv = ["tournament", "tron", "--maps", str(tmp_path / "room.txt")]
    argv += ["--bots", "voronoi", "chambers", "--seeds", "2", "--time", "0.1"]
    argv += ["--jobs", "1", "--out", str(out), "--quiet"]
    proc = _start(argv, tmp_path)
    try:
        end = time.monotonic() + BOUND * 6
        while time.monotonic() < end and proc.poll() is None:  # a first game finished
            if (out / "records").is_dir() and any((out / "records").glob("*.json*")):
                break
            time.sleep(0.05)
        time.sleep(0.4)  # now in the middle of a later game's search
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=BOUND * 3)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    if proc.returncode == 0:
        pytest.skip("the machine finished the whole tournament before the interrupt")
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    kept = sorted((out / "records").glob("*.json*"))
    assert kept and not (out / "results.json").exists()
    for path in kept:  # nothing recorded for a bot because the user interrupted
        for status in load_record(path).statuses:
            assert "SystemError" not in status.detail and "Interrupt" not in status.detail
    r = _start([*argv, "--resume"], tmp_path)
    _, err = r.communicate(timeout=BOUND * 12)
    assert r.returncode == 0, err
    assert len(list((out / "records").glob("*.json*"))) == 4
