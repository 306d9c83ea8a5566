"""Tests of atlas.arena.protocols' served side: built-in bots spoken to through each external
protocol."""

from __future__ import annotations

import io
import json
import os
import select
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from atlas.arena.protocols import SERVE_FIRST_MOVE_TIME, serve_builtin_bot
from atlas.arena.protocols.common import ServedBot, process_age, process_start
from atlas.games.tron import protocol as tron_protocol
from atlas.games.tron.protocol import safe_digit
from atlas.maps import parse_map
from atlas.sim import get_game

ROOT = Path(__file__).resolve().parents[2]
#: The official tron engine's time for a program's first move, from its start (seconds).
ENGINE_FIRST_MOVE = 3.0


def _readline(pipe, timeout: float = 60.0) -> bytes:
    """One line from ``pipe``, or ``b""`` if none came within ``timeout`` seconds (a
    guard against a test hanging on a silent bot, not a measure of its speed)."""
    buf = b""
    end = time.monotonic() + timeout
    fd = pipe.fileno()
    while not buf.endswith(b"\n"):
        left = end - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            return buf
        byte = os.read(fd, 1)
        if not byte:
            return buf
        buf += byte
    return buf


def _board(rows, me, opp):
    """The official board text for a 5-wide map, written by hand."""
    grid = [list(r) for r in rows]
    grid[me[0]][me[1]] = "1"
    grid[opp[0]][opp[1]] = "2"
    return f"{len(rows[0])} {len(rows)}\n" + "".join("".join(r) + "\n" for r in grid)


def test_atlas_bot_tron_random_speaks_the_official_protocol():
    proc = subprocess.Popen(
        [sys.executable, "-m", "atlas.cli", "bot", "tron", "random", "--time", "0.5"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=ROOT,
    )
    rows = ["#####", "#   #", "#   #", "#####"]
    answers = []
    try:
        # the bot at (1,1) can only go east or south; later it is boxed in on three sides
        for me, walls in (((1, 1), []), ((2, 1), [(1, 1), (1, 2), (2, 2)])):
            grid = [list(r) for r in rows]
            for r, c in walls:
                grid[r][c] = "#"
            proc.stdin.write(_board(["".join(g) for g in grid], me, (2, 3)).encode())
            proc.stdin.flush()
            answers.append(_readline(proc.stdout))
        proc.stdin.close()
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert answers[0] in (b"2\n", b"3\n")
    assert answers[1] in (b"1\n", b"2\n", b"3\n", b"4\n")  # every direction crashes here


def test_serve_connect5_gtp_in_memory():
    commands = (
        b"1 protocol_version\nboardsize 7 6\nclear_board\nplay black 4\n"
        b"genmove white\nplay b 9\nquit\n"
    )
    out = io.BytesIO()
    assert (
        serve_builtin_bot(
            "connect5", "random", seed=2, time_limit=0.2, stdin=io.BytesIO(commands), stdout=out
        )
        == 0
    )
    replies = out.getvalue().decode().split("\n\n")
    assert replies[:3] == ["=1 2", "=", "="]
    assert replies[3] == "="
    assert replies[4].startswith("= ") and 1 <= int(replies[4][2:]) <= 7
    assert replies[5].startswith("? ")  # column 9 is off a 7-column board
    assert replies[6] == "="


def test_serve_isolation_jsonl_in_memory():
    text = "isolation 4 3 queen\n1..#\n....\n#..2\n"
    game = get_game("isolation")
    state = game.initial_state(parse_map(text, game="isolation", name="m"))
    lines = [
        {
            "type": "start",
            "game": "isolation",
            "seat": 0,
            "players": 2,
            "map": text,
            "map_name": "m",
            "params": {},
        },
        {
            "type": "turn",
            "turn": 0,
            "seat": 0,
            "time": 1.0,
            "state": get_game("isolation").state_to_json(state),
        },
    ]
    out = io.BytesIO()
    serve_builtin_bot(
        "isolation",
        "random",
        time_limit=0.2,
        stdin=io.BytesIO("".join(json.dumps(m) + "\n" for m in lines).encode()),
        stdout=out,
    )
    answer = json.loads(out.getvalue())
    assert tuple(answer["move"]) in game.legal_moves(state, 0)


# --------------------------------------------------------------------------- the clock


def test_process_age_reads_the_start_tick_after_the_command_name():
    # the command name may hold spaces and parentheses: fields count after the last ")"
    line = "42 (atlas (bot) x) S " + " ".join(str(k) for k in range(4, 22)) + " 1234 0 0\n"
    assert process_age(line, 20.0, 100.0) == pytest.approx(20.0 - 12.34)
    assert process_age(line, 10.0, 100.0) == 0.0  # never negative


def test_process_start_of_a_child_is_no_earlier_than_its_popen():
    code = (
        "import time; from atlas.arena.protocols.common import process_start; "
        "print(time.perf_counter() - process_start())"
    )
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    elapsed = time.perf_counter() - t0
    age = float(done.stdout)
    # The child's age when it asked is at most the time since its Popen (plus one clock
    # tick of /proc's 10 ms), and it includes the interpreter's own start (> 0).
    assert 0.0 < age <= elapsed + 0.011
    assert process_start() <= time.perf_counter()


# --------------------------------------------------------------------------- the watchdog


class _Stuck:
    """A bot whose moves wait for ``release`` (a search that overruns its deadline)."""

    name = "stuck"

    def __init__(self, answer: int = 4) -> None:
        self.release = threading.Event()
        self.answer = answer
        self.asked = 0

    def move(self, state, player, deadline):
        self.asked += 1
        assert self.release.wait(60)
        return self.answer


TRON_BOARD = "7 5\n#######\n#1 ####\n# #   #\n#    2#\n#######\n"


def _served(make, first_in: float = 0.0, move_time: float = 0.0) -> ServedBot:
    now = time.perf_counter()
    return ServedBot(make, first_deadline=now + first_in, move_time=move_time)


def test_safe_digit_takes_the_neighbour_with_the_most_room():
    rows = TRON_BOARD.splitlines()[1:]
    chars = np.array([list(r) for r in rows], dtype="<U1")
    # head at (1, 1): east is a 1-cell dead end, south leads into a room of 8 cells
    assert safe_digit(chars) == 3
    chars[2, 1] = "#"  # south walled: the dead end is all there is
    assert safe_digit(chars) == 2
    chars[1, 2] = "#"  # boxed in: any digit
    assert safe_digit(chars) == 1


def test_watchdog_answers_a_safe_move_for_a_bot_past_its_deadline():
    bot = _Stuck(answer=4)  # west: into the wall, which the watchdog would never say
    served = _served(lambda: bot)
    out = io.BytesIO()
    try:
        tron_protocol.serve("tron", served, io.BytesIO(TRON_BOARD.encode()), out, {})
    finally:
        bot.release.set()
        served.close()
    assert out.getvalue() == b"3\n"  # the watchdog's safe digit, not the bot's 4
    assert served.fallbacks == 1


def test_watchdog_answers_while_the_bot_is_still_being_made():
    made = threading.Event()
    bot = _Stuck(answer=2)
    bot.release.set()

    def make():
        assert made.wait(60)  # numba compiling on a cold cache, say
        return bot

    served = _served(make, first_in=0.0, move_time=60.0)
    try:
        first = served.ask(lambda b, dl: b.move(None, 0, dl), served.deadline(0.0), lambda: 9)
        assert (first, bot.asked, served.fallbacks) == (9, 0, 1)
        made.set()  # the bot is ready: the next request is the bot's again
        later = served.ask(
            lambda b, dl: b.move(None, 0, dl), served.deadline(time.perf_counter()), lambda: 9
        )
    finally:
        made.set()
        served.close()
    assert later == 2 and served.fallbacks == 1


def test_a_bot_that_raises_is_answered_for_and_reported(capsys):
    def boom(bot, deadline):
        raise RuntimeError("deliberate")

    served = _served(lambda: object(), first_in=60.0)
    try:
        assert served.ask(boom, served.deadline(0.0), lambda: 7) == 7
    finally:
        served.close()
    assert "deliberate" in capsys.readouterr().err


def test_first_move_counts_from_the_start_later_moves_from_the_read():
    served = ServedBot(lambda: None, first_deadline=100.0, move_time=0.9, clock=lambda: 0.0)
    try:
        assert served.deadline(50.0) == 100.0  # the first: the start's deadline
        served.ask(lambda bot, dl: 1, 1e9, lambda: 0)
        assert served.deadline(50.0) == pytest.approx(50.9)
    finally:
        served.close()


def test_atlas_bot_tron_frontline_answers_within_the_engine_s_first_three_seconds():
    """Started as the official engine starts a program, timed from Popen: the answer
    comes within the engine's 3 s whatever the machine's load (the bot's own deadline is
    2.8 s after its start, and a watchdog answers for it if its kernels are not ready)."""
    rows = ["#######", "#     #", "#     #", "#######"]
    board = _board(rows, (1, 1), (2, 5)).encode()
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "atlas", "bot", "tron", "frontline"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=ROOT,
    )
    try:
        proc.stdin.write(board)
        proc.stdin.flush()
        answer = _readline(proc.stdout)
        elapsed = time.perf_counter() - t0
        proc.stdin.close()
        assert proc.wait(timeout=120) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert answer in (b"2\n", b"3\n")  # east or south: north and west are walls
    assert elapsed < ENGINE_FIRST_MOVE, f"first answer {elapsed:.2f} s after Popen"
    assert SERVE_FIRST_MOVE_TIME < ENGINE_FIRST_MOVE


def test_jsonl_watchdog_answers_one_of_the_legal_moves_it_was_sent():
    from atlas.arena.protocols import jsonl

    text = "isolation 4 3 queen\n1..#\n....\n#..2\n"
    game = get_game("isolation")
    state = game.initial_state(parse_map(text, game="isolation", name="m"))
    legal = [list(m) for m in game.legal_moves(state, 0)]
    lines = [
        {
            "type": "start",
            "game": "isolation",
            "seat": 0,
            "players": 2,
            "map": text,
            "map_name": "m",
            "params": {},
        },
        {
            "type": "turn",
            "turn": 0,
            "seat": 0,
            "time": 1.0,
            "legal": legal[1:2],
            "state": game.state_to_json(state),
        },
    ]
    bot = _Stuck(answer=(0, 0))
    served = _served(lambda: bot)
    out = io.BytesIO()
    try:
        jsonl.serve(
            "isolation",
            served,
            io.BytesIO("".join(json.dumps(m) + "\n" for m in lines).encode()),
            out,
            {},
        )
    finally:
        bot.release.set()
        served.close()
    assert json.loads(out.getvalue()) == {"move": legal[1]} and served.fallbacks == 1


# --------------------------------------------------------------------------- reports


class _Thinker:
    """A bot that says what it thought (the tron searches' ``last_info`` form)."""

    name = "thinker"

    def __init__(self, move, pv):
        self._move, self._pv = move, pv
        self.last_info = None

    def move(self, state, player, deadline):
        self.last_info = {"depth": 6, "value": -12.5, "nodes": 4096, "pv": self._pv}
        return self._move


def test_a_served_tron_bot_writes_its_info_line_before_the_answer():
    # the official engine never reads stderr; atlas's tron host does (docs/protocols.md)
    from atlas.arena.protocols.common import parse_info_line

    served = ServedBot(
        lambda: _Thinker(2, [2, 3, 3, 9]), first_deadline=time.perf_counter() + 60, move_time=60
    )
    served.err = io.StringIO()
    out = io.BytesIO()
    board = _board(["#####", "#   #", "#   #", "#####"], (1, 1), (2, 3))
    tron_protocol.serve("tron", served, io.BytesIO(board.encode()), out, {})
    served.close()
    assert out.getvalue() == b"2\n"
    line = served.err.getvalue()
    assert line == "info depth 6 score -12.5 nodes 4096 pv 2 3 3\n"  # 9 is no tron digit
    assert parse_info_line(line.strip(), int) == {
        "depth": 6,
        "score": -12.5,
        "nodes": 4096,
        "pv": [2, 3, 3],
    }


def test_no_info_line_for_a_watchdogs_answer():
    release = threading.Event()

    class Slow(_Thinker):
        def move(self, state, player, deadline):
            release.wait(30)
            return super().move(state, player, deadline)

    served = ServedBot(
        lambda: Slow(2, [2]), first_deadline=time.perf_counter() + 0.05, move_time=0.05
    )
    served.err = io.StringIO()
    out = io.BytesIO()
    board = _board(["#####", "#   #", "#   #", "#####"], (1, 1), (2, 3))
    tron_protocol.serve("tron", served, io.BytesIO(board.encode()), out, {})
    release.set()
    served.close()
    assert out.getvalue() in (b"2\n", b"3\n")  # the watchdog's safe digit
    assert served.fallbacks == 1 and served.err.getvalue() == ""


def _serve_strong(game: str, stdin: bytes) -> tuple[bytes, str]:
    """``atlas bot GAME strong`` in memory on ``stdin`` (time enough to solve a tiny
    board): what it answered and what it wrote on stderr."""
    out, err = io.BytesIO(), io.StringIO()
    serve_builtin_bot(
        game,
        "strong",
        time_limit=600,
        first_move_time=600,
        stdin=io.BytesIO(stdin),
        stdout=out,
        stderr=err,
    )
    return out.getvalue(), err.getvalue()


def test_served_strong_bots_report_lines_the_hosts_read_back():
    # isolation (JSON lines) and connect5 (GTP) on boards small enough to solve at once:
    # the line parses back with the protocol's own move reader, and its pv starts with
    # the move answered
    from atlas.arena.protocols.common import parse_info_line

    text = "isolation 4 3 queen\n1..#\n....\n#..2\n"
    game = get_game("isolation")
    state = game.initial_state(parse_map(text, game="isolation", name="m"))
    start = {"type": "start", "game": "isolation", "seat": 0, "players": 2, "map": text}
    turn = {"type": "turn", "turn": 0, "seat": 0, "state": game.state_to_json(state)}
    out, err = _serve_strong(
        "isolation", "".join(json.dumps(m) + "\n" for m in (start, turn)).encode()
    )
    answer = json.loads(out)["move"]
    said = parse_info_line(err.strip(), json.loads)
    assert said["pv"][0] == answer and said["depth"] >= 1 and "score" in said
    # connect5: connect-3 on a 4x3 board, black to play with two stones in column 1
    commands = (
        b"boardsize 4 3\ninarow 3\nclear_board\nplay black 1\nplay white 2\n"
        b"play black 1\nplay white 2\ngenmove black\nquit\n"
    )
    out, err = _serve_strong("connect5", commands)
    replies = out.decode().split("\n\n")
    assert replies[7] == "= 1"  # black completes three in column 1
    said = parse_info_line(err.strip(), int)
    assert said["pv"][0] == 1 and said["mate"] == 1


def _serve_apex(boards: list[str], **kw) -> bytes:
    """``atlas bot tron apex`` in memory on ``boards`` (time enough for a tiny board)."""
    out = io.BytesIO()
    serve_builtin_bot(
        "tron",
        "apex",
        time_limit=30,
        first_move_time=60,
        stdin=io.BytesIO("".join(boards).encode()),
        stdout=out,
        stderr=io.StringIO(),
        **kw,
    )
    return out.getvalue()


@pytest.mark.parametrize(
    "seat, compat, second",
    [(0, "official", b"2\n"), (None, "official", b"1\n"), (0, "spec", b"1\n")],
)
def test_served_apex_follows_the_other_cycle_only_when_it_knows_it_moves_first(
    seat, compat, second
):
    # On the second board the bot's only way out is the square the other cycle is
    # leaving (east).  Tron.jar lets player 1 step there; player 2 would crash, and so
    # would either under atlas's fair rules.  A bot that is not told its seat plans by
    # the fair turn (its fallback, north, is as good as any crash).
    boards = [
        _board(["#####", "#   #", "#####"], (1, 1), (1, 3)),
        _board(["#####", "#  ##", "#####"], (1, 1), (1, 2)),
    ]
    out = _serve_apex(boards, params={"compat": compat}, seat=seat)
    assert out.split(b"\n")[0] == b"2"
    assert out.endswith(second)


def test_atlas_bot_plans_by_the_official_rules_unless_told(monkeypatch):
    from atlas.arena import protocols
    from atlas.cli import main

    seen: list[tuple] = []

    def fake(game, name, **kw):
        seen.append((game, kw["params"], kw["seat"]))
        return 0

    monkeypatch.setattr(protocols, "serve_builtin_bot", fake)
    assert main(["bot", "tron", "apex"]) == 0
    assert main(["bot", "tron", "apex", "--compat", "spec", "--seat", "2"]) == 0
    assert main(["bot", "isolation", "strong"]) == 0
    assert seen == [
        ("tron", {"compat": "official"}, None),
        ("tron", {"compat": "spec"}, 1),
        ("isolation", {}, None),
    ]
