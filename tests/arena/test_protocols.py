"""Tests of atlas.arena.process: protocol bytes, broken bots, example programs."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from atlas.arena.process import BotFailure
from atlas.arena.protocols import external_bot
from atlas.arena.protocols.jsonl import JsonLinesBot
from atlas.arena.runner import play_game
from atlas.games.connect5.protocol import GtpBot
from atlas.games.tron.protocol import TronProtocolBot, tron_board_text
from atlas.maps import parse_map
from atlas.sim import get_game

ROOT = Path(__file__).resolve().parents[2]
BROKEN = Path(__file__).resolve().parent / "broken_bots"
EXAMPLES = ROOT / "examples" / "bots"

# A borderless 5x3 map (cells outside count as walls) with trailing spaces on every row.
TRON_TEXT = "5 3\n#    \n 1  2\n     \n"


#: Seconds a test waits for something that should happen at once (a killed process to
#: vanish, a program to answer): a guard against hanging, never a measure of speed.
PATIENCE = 60.0


def _gone(pid: int, wait: float = PATIENCE) -> bool:
    """True once ``pid`` no longer runs: no such process, or a zombie.

    An orphaned grandchild is reparented to PID 1, which may not reap it (containers);
    a zombie no longer runs.  SIGKILL to a process group lands asynchronously, so poll
    (returning as soon as it is gone; ``wait`` only bounds a process that never goes).
    """
    end = time.monotonic() + wait
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        try:
            with open(f"/proc/{pid}/stat") as fh:
                if fh.read().rsplit(")", 1)[1].split()[0] in ("Z", "X"):
                    return True
        except (FileNotFoundError, IndexError):
            return True
        if time.monotonic() > end:
            return False
        time.sleep(0.01)


def _soon() -> float:
    return time.perf_counter() + PATIENCE


# --------------------------------------------------------------------------- tron bytes


def test_tron_board_text_matches_the_official_bytes_for_both_seats():
    game = get_game("tron")
    tmap = parse_map(TRON_TEXT, game="tron", name="tiny")
    state = game.initial_state(tmap)
    assert tron_board_text(state, 0) == "5 3\n#    \n 1  2\n     \n"
    assert tron_board_text(state, 1) == "5 3\n#    \n 2  1\n     \n"
    state = game.apply(state, {0: 1, 1: 4})  # seat 0 north, seat 1 west
    # trails are '#', like walls; the receiving bot is always '1'
    assert tron_board_text(state, 0) == "5 3\n#1   \n # 2#\n     \n"
    assert tron_board_text(state, 1) == "5 3\n#2   \n # 1#\n     \n"


RECORDER = r"""
import sys
log = open(sys.argv[1], "ab")
answers = iter(sys.argv[2:])
while True:
    header = sys.stdin.buffer.readline()
    if not header:
        break
    h = int(header.split()[1])
    rows = [sys.stdin.buffer.readline() for _ in range(h)]
    log.write(header + b"".join(rows))
    log.flush()
    sys.stdout.write(next(answers, ""))
    sys.stdout.flush()
"""


@pytest.mark.parametrize("seat", [0, 1])
def test_tron_protocol_through_a_pipe(tmp_path, seat):
    script = tmp_path / "recorder.py"
    script.write_text(RECORDER)
    log = tmp_path / "log.bin"
    # turn 1: garbage, then '1', and a '3' left in the pipe; turn 2 writes nothing new
    bot = TronProtocolBot("tron", [sys.executable, str(script), str(log), "x\r\n13", ""])
    game = get_game("tron")
    tmap = parse_map(TRON_TEXT, game="tron", name="tiny")
    state = game.initial_state(tmap)
    bot.start(tmap, {}, seat)
    try:
        first = bot.move(state.copy(), seat, _soon())
        state = game.apply(state, {seat: first, 1 - seat: 3})
        second = bot.move(state.copy(), seat, _soon())
    finally:
        bot.close()
    assert (first, second) == (1, 3)
    want = tron_board_text(game.initial_state(tmap), seat) + tron_board_text(state, seat)
    assert log.read_bytes() == want.encode("ascii")
    assert b"\r" not in log.read_bytes() and log.read_bytes().count(b"\n") == 8
    assert _gone(bot.pid)


def test_tron_bot_without_a_digit_in_time_times_out_quickly(tmp_path):
    bot = TronProtocolBot("tron", [sys.executable, str(BROKEN / "hangs.py")])
    tmap = parse_map(TRON_TEXT, game="tron", name="tiny")
    bot.start(tmap, {}, 0)
    t0 = time.perf_counter()
    with pytest.raises(BotFailure) as info:
        bot.move(get_game("tron").initial_state(tmap), 0, time.perf_counter() + 0.1)
    assert info.value.status == "timeout"
    # it waited for the deadline (never less), and gave up then: not the guard's minute
    assert 0.1 <= time.perf_counter() - t0 < PATIENCE
    bot.close()
    assert _gone(bot.pid)


# --------------------------------------------------------------------------- GTP


GTP_RECORDER = r"""
import sys
log = open(sys.argv[1], "a")
for line in sys.stdin:
    log.write(line)
    log.flush()
    cmd = line.split()
    if cmd[0] == "inarow":
        sys.stdout.write("? unknown command\n\n")
    elif cmd[0] == "genmove":
        sys.stdout.write("= 3\r\n\r\n")
    else:
        sys.stdout.write("=\n\n")
    sys.stdout.flush()
"""


def test_gtp_dialogue(tmp_path):
    script = tmp_path / "gtp.py"
    script.write_text(GTP_RECORDER)
    log = tmp_path / "log.txt"
    game = get_game("connect5")
    cmap = parse_map("connect5 7 6 5\n", game="connect5", name="c")
    bot = GtpBot("connect5", [sys.executable, str(script), str(log)])
    bot.start(cmap, {}, 1)
    state = game.apply(game.initial_state(cmap), {0: 3})  # black drops into column 4
    try:
        col = bot.move(state.copy(), 1, _soon())
        assert col == 2  # "= 3" is the third column, 1-based
        state = game.apply(state, {1: col})
        state = game.apply(state, {0: 3})
        assert bot.move(state.copy(), 1, _soon()) == 2
    finally:
        bot.close()
    assert log.read_text().splitlines() == [
        "boardsize 7 6",
        "inarow 5",
        "clear_board",
        "play black 4",
        "genmove white",
        "play black 4",
        "genmove white",
        "quit",
    ]


def test_gtp_inarow_refused_matters_when_not_five(tmp_path):
    script = tmp_path / "gtp.py"
    script.write_text(GTP_RECORDER)
    cmap = parse_map("connect5 7 6 4\n", game="connect5", name="c")
    bot = GtpBot("connect5", [sys.executable, str(script), str(tmp_path / "log.txt")])
    bot.start(cmap, {}, 0)
    try:
        with pytest.raises(BotFailure) as info:
            bot.move(get_game("connect5").initial_state(cmap), 0, _soon())
    finally:
        bot.close()
    assert info.value.status == "invalid" and "inarow 4" in info.value.detail


# --------------------------------------------------------------------------- JSON lines


def test_state_json_round_trip_for_every_game_state():
    for game_name, text, turns in (
        ("outpost", "3 4\n10 10\n", 11),
        ("tron", TRON_TEXT, 2),
        ("connect5", "connect5 7 6 4\n", 2),
        ("isolation", "isolation 4 3 knight\n1..#\n....\n#..2\n", 2),
    ):
        game = get_game(game_name)
        state = game.initial_state(parse_map(text, game=game_name, name="m"))
        rng = np.random.default_rng(1)
        for _ in range(turns):
            moves = {s: game.random_move(state, s, rng) for s in game.to_move(state)}
            state = game.apply(state, moves)
        data = json.loads(json.dumps(game.state_to_json(state)))
        back = game.state_from_json(
            game.initial_state(parse_map(text, game=game_name, name="m")), data
        )
        assert game.summary(back) == game.summary(state)
        if game_name == "outpost":
            assert len(data["owner"]) == 100 and len(data["owner"][0]) == 100
            assert data["turn"] == 11 and len(data["outposts"]) == 4
            assert np.array_equal(np.asarray(data["owner"]), state.owner)
            assert np.array_equal(back.owner, state.owner)
    assert len(data["blocked"]) == 3 and all(
        len(row) == 4 and set(row) <= set("#.") for row in data["blocked"]
    )
    assert data["blocked"][0][3] == "#" and data["variant"] == "knight"


def test_jsonl_messages(tmp_path):
    script = tmp_path / "echo.py"
    script.write_text(
        "import sys, json\nlog = open(sys.argv[1], 'a')\n"
        "for line in sys.stdin:\n    log.write(line); log.flush()\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'turn': print(json.dumps({'move': m['legal'][-1]}),"
        " flush=True)\n"
    )
    log = tmp_path / "log.jsonl"
    text = "isolation 4 3 queen\n1..#\n....\n#..2\n"
    imap = parse_map(text, game="isolation", name="small")
    game = get_game("isolation")
    state = game.initial_state(imap)
    bot = JsonLinesBot("isolation", [sys.executable, str(script), str(log)])
    bot.start(imap, {"variant": None}, 0)
    try:
        move = bot.move(state.copy(), 0, _soon())
    finally:
        bot.close()
    assert move == max(game.legal_moves(state, 0))
    start, turn = (json.loads(ln) for ln in log.read_text().splitlines())
    assert start == {
        "type": "start",
        "game": "isolation",
        "seat": 0,
        "players": 2,
        "map_name": "small",
        "map": text,
        "params": {"variant": None},
    }
    assert turn["type"] == "turn" and turn["turn"] == 0 and turn["seat"] == 0
    assert 0 < turn["time"] <= PATIENCE
    assert turn["state"]["blocked"] == ["#..#", "....", "#..#"]
    assert turn["state"]["pos"] == [[0, 0], [2, 3]]
    assert [tuple(m) for m in turn["legal"]] == game.legal_moves(state, 0)


# --------------------------------------------------------------------------- broken bots

MAPS = {
    "tron": TRON_TEXT,
    "connect5": "connect5 7 6 5\n",
    "isolation": "isolation 4 3 queen\n1..#\n....\n#..2\n",
}
EXPECTED = {
    "crashes.py": ("crashed", "crash"),
    "exits_early.py": ("crashed", "crash"),
    "hangs.py": ("timeout", "timeout"),
    "ignores_sigterm.py": ("timeout", "timeout"),
    "floods.py": ("invalid", "invalid"),
    "garbage.py": ("invalid", "invalid"),
}


#: Broken bots that never answer are timed out after this first move; the others get
#: PATIENCE, so that a slow interpreter start cannot turn a crash into a timeout.
NEVER_ANSWERS = {"hangs.py": 0.6, "ignores_sigterm.py": 3.0}
#: Tron's protocol skips a line that is not a move, so a bot answering only nonsense is
#: judged when its first move's time runs out: 10 s, not PATIENCE, keeps the test short.
SKIPS_NONSENSE = {("tron", "garbage.py"): 10.0}


@pytest.mark.parametrize("game_name", sorted(MAPS))
@pytest.mark.parametrize("script", sorted(EXPECTED))
def test_broken_bot_loses_cleanly_and_leaves_no_process(game_name, script):
    game_map = parse_map(MAPS[game_name], game=game_name, name="m")
    broken = external_bot(
        game_name,
        [sys.executable, str(BROKEN / script)],
        first_move_time=SKIPS_NONSENSE.get(
            (game_name, script), NEVER_ANSWERS.get(script, PATIENCE)
        ),
    )
    record = play_game(game_name, game_map, ["random", broken], seed=3, time_limit=0.1)
    status, reason = EXPECTED[script]
    assert record.statuses[1].status == status, record.statuses[1]
    assert record.statuses[0].status == "ok"
    assert record.result.winner == 0
    assert record.result.reason == reason
    assert record.result.scores == (1.0, 0.0)
    assert _gone(broken.pid)
    if script == "crashes.py":
        assert "deliberate crash" in record.stderr[1]
    if script == "ignores_sigterm.py":
        pids = [int(p) for p in record.stderr[1].split()[1:3]]
        assert len(pids) == 2 and broken.pid not in pids  # the bot runs under a supervisor
        assert all(_gone(p) for p in pids)


def test_missing_program_is_a_crash_not_an_exception():
    game_map = parse_map(MAPS["connect5"], game="connect5", name="m")
    record = play_game("connect5", game_map, ["cmd:./no-such-bot-here --x", "random"])
    assert record.statuses[0].status == "crashed"
    assert "cannot start" in record.statuses[0].detail
    assert (record.result.winner, record.result.reason) == (1, "crash")


# --------------------------------------------------------------------------- examples


def test_outpost_programs_play_through_json_lines():
    game_map = parse_map("10 10\n11 10\n", game="outpost", name="lake")
    # The served bot starts atlas and loads (or compiles) the outpost kernels: it and the
    # host get PATIENCE for every move, so that it always answers itself (its watchdog
    # would otherwise answer a random legal move for it while numba compiles).
    served = external_bot(
        "outpost",
        [
            sys.executable,
            "-m",
            "atlas.cli",
            "bot",
            "outpost",
            "random",
            "--seed",
            "7",
            "--first-time",
            str(PATIENCE),
            "--time",
            str(PATIENCE),
        ],
        first_move_time=PATIENCE,
    )
    players = [
        f"cmd:{sys.executable} {EXAMPLES / 'outpost_bot.py'}",
        "random",
        served,
        "random",
    ]
    record = play_game(
        "outpost", game_map, players, params={"T": 12}, seed=1, time_limit=PATIENCE / 2
    )
    assert [s.status for s in record.statuses] == ["ok"] * 4, record.statuses
    assert record.final["turn"] == 12 and record.result.reason == "turn-limit"
    # the served random bot plays what the built-in one would with the same seed
    same = play_game(
        "outpost",
        game_map,
        [players[0], "random", _SeededRandom(7), "random"],
        params={"T": 12},
        seed=1,
        time_limit=PATIENCE / 2,
    )
    assert [t.moves[2] for t in record.turns] == [t.moves[2] for t in same.turns]


class _SeededRandom:
    """The built-in random bot with a given seed (the runner would derive one)."""

    def __init__(self, seed):
        from atlas.bots import make_bot

        self.bot = make_bot("outpost", "random", seed)
        self.name = "random"

    def move(self, state, player, deadline):
        return self.bot.move(state, player, deadline)


@pytest.mark.parametrize(
    "game_name, example",
    [
        ("tron", "tron_bot.py"),
        ("connect5", "connect5_bot.py"),
        ("isolation", "isolation_bot.py"),
    ],
)
def test_example_bots_play_whole_games(game_name, example):
    game_map = parse_map(MAPS[game_name], game=game_name, name="m")
    record = play_game(
        game_name,
        game_map,
        [f"cmd:{sys.executable} {EXAMPLES / example}", "random"],
        seed=1,
        time_limit=0.5,
    )
    assert [s.status for s in record.statuses] == ["ok", "ok"]
    assert record.result.reason in ("win", "draw", "crash")
    assert len(record.turns) >= 1


# --------------------------------------------------------------------------- serving
