"""Tests of atlas.arena.runner: whole games, every failure turned into data, the CLI."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from atlas.arena.process import ExternalBot
from atlas.arena.runner import bot_seed, make_player, play_game, player_entry
from atlas.cli import main
from atlas.errors import BotError, UnknownNameError
from atlas.games.tron.protocol import TronProtocolBot
from atlas.maps import parse_map
from atlas.sim import get_game
from atlas.sim.records import load_record, verify_record

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "bots"
MAPS = {
    "tron": parse_map(
        "7 5\n#######\n#1    #\n#  #  #\n#    2#\n#######\n", game="tron", name="box"
    ),
    "isolation": parse_map(
        "isolation 4 4 queen\n1...\n..#.\n....\n...2\n", game="isolation", name="box"
    ),
    "connect5": parse_map("connect5 6 5 4\n", game="connect5", name="small"),
    "outpost": parse_map("10 10\n11 10\n30 5\n", game="outpost", name="lake"),
}
PARAMS = {"outpost": {"T": 12}}


class ScriptedBot:
    """Plays the game's random move, except at ``turn`` where it misbehaves."""

    def __init__(self, game, how, at=1, first_move_time=None):
        self.game = get_game(game)
        self.how, self.at, self.calls = how, at, 0
        self.name = f"scripted-{how}"
        self.closed = False
        if first_move_time is not None:
            self.first_move_time = first_move_time
        import numpy as np

        self.rng = np.random.default_rng(0)

    def move(self, state, player, deadline):
        k = self.calls
        self.calls += 1
        if k == self.at:
            if self.how == "raise":
                raise ZeroDivisionError("scripted failure")
            if self.how == "slow":  # past the deadline, on the injected clock
                late = max(0.0, deadline - time.perf_counter()) + 0.15
                advance = getattr(time.perf_counter, "advance", None)
                if advance is not None:
                    advance(late)
                else:
                    time.sleep(late)
            if self.how == "garbage":
                return "north-ish"
            if self.how == "illegal":
                return {"tron": 2, "isolation": (1, 2), "connect5": 99}[self.game.info.name]
            if self.how == "exit":
                raise SystemExit(3)
            if self.how == "interrupt":  # the user's Ctrl-C, as atlas.bots.stop notes it
                from atlas.bots import stop

                stop.request(2)
                raise KeyboardInterrupt
        return self.game.random_move(state, player, self.rng)

    def close(self):
        self.closed = True


def _moves(record, seat):
    return [t.moves.get(seat, "absent") for t in record.turns]


@pytest.mark.parametrize("game_name", sorted(MAPS))
def test_random_games_replay_and_repeat(game_name):
    players = ["random"] * get_game(game_name).info.num_players
    a = play_game(game_name, MAPS[game_name], players, params=PARAMS.get(game_name), seed=5)
    b = play_game(game_name, MAPS[game_name], players, params=PARAMS.get(game_name), seed=5)
    verify_record(a)
    assert [dict(t.moves) for t in a.turns] == [dict(t.moves) for t in b.turns]
    assert a.result == b.result and a.result.reason in ("win", "draw", "crash", "turn-limit")
    assert all(s.status == "ok" for s in a.statuses)
    assert all(t >= 0 for turn in a.turns for t in turn.times.values())
    assert len({bot_seed(5, s) for s in range(4)}) == 4


FAILURES = [
    ("raise", "crashed", "crash"),
    ("slow", "timeout", "timeout"),
    ("garbage", "invalid", "invalid"),
    ("illegal", "illegal", "illegal"),
]


# every tron direction is legal (a bad one crashes by the rules): no illegal tron case
@pytest.mark.parametrize(
    "game_name, how, status, reason",
    [
        (g, *f)
        for g in ("isolation", "connect5", "tron")
        for f in FAILURES
        if not (g == "tron" and f[0] == "illegal")
    ],
)
def test_a_failing_seat_loses_with_the_reason(game_name, how, status, reason, tick_clock):
    # On the injected tick clock: the random seat is never late whatever the machine's
    # load, and "slow" is 0.15 s past the deadline, later than the runner allows.
    bad = ScriptedBot(game_name, how, at=1)
    record = play_game(game_name, MAPS[game_name], ["random", bad], seed=2, time_limit=0.05)
    verify_record(record)
    assert bad.closed
    assert record.statuses[1].status == status
    assert record.statuses[0].status == "ok"
    fail_turn = record.statuses[1].turn
    assert record.turns[fail_turn].moves[1] is None
    assert (record.result.winner, record.result.reason) == (0, reason)
    assert record.result.scores == (1.0, 0.0)
    assert "player 2" in record.result.detail
    # two-seat alternating games end on the failing turn; tron crashes that cycle then
    assert fail_turn == len(record.turns) - 1
    if how == "raise":
        assert "ZeroDivisionError: scripted failure" in record.statuses[1].detail


def test_built_in_first_move_may_compile_but_later_moves_are_timed(tick_clock):
    slow_first = ScriptedBot("connect5", "slow", at=0)
    record = play_game("connect5", MAPS["connect5"], [slow_first, "random"], time_limit=0.05)
    assert record.statuses[0].status == "ok"  # within COMPILE_ALLOWANCE
    strict = ScriptedBot("connect5", "slow", at=0, first_move_time=0.05)
    record = play_game("connect5", MAPS["connect5"], [strict, "random"], time_limit=0.05)
    assert record.statuses[0].status == "timeout" and record.statuses[0].turn == 0


def test_outpost_empire_that_fails_stops_moving_and_the_game_goes_on(tick_clock):
    bad = ScriptedBot("outpost", "raise", at=3)
    record = play_game(
        "outpost",
        MAPS["outpost"],
        ["random", bad, "random", "random"],
        params={"T": 12},
        seed=1,
        time_limit=0.5,
    )
    verify_record(record)
    assert record.statuses[1].status == "crashed"
    turn = record.statuses[1].turn
    assert turn == 3
    assert all(m is None for m in _moves(record, 1)[turn:])
    assert all(m is not None for m in _moves(record, 1)[:turn])
    assert record.result.reason == "turn-limit"
    assert record.final["turn"] == 12


def test_bot_that_cannot_start_loses_at_turn_zero():
    class NoStart(ScriptedBot):
        def start(self, game_map, params, player):
            raise RuntimeError("no memory")

    record = play_game("isolation", MAPS["isolation"], [NoStart("isolation", "none"), "random"])
    assert record.statuses[0].status == "crashed" and record.statuses[0].turn == 0
    assert "no memory" in record.statuses[0].detail
    assert (record.result.winner, record.result.reason, len(record.turns)) == (1, "crash", 1)


def test_external_process_is_closed_even_when_the_game_is_interrupted():
    external = TronProtocolBot("tron", [sys.executable, str(EXAMPLES / "tron_bot.py")])
    leaving = ScriptedBot("tron", "interrupt", at=2)
    # A generous move time (answers come at once; it only bounds a hang): a loaded
    # machine must not end the game by a timeout before the user stops it at turn 2.
    # (A bot's own SystemExit loses its game instead: tests/arena/test_interrupts.py.)
    with pytest.raises(KeyboardInterrupt):
        play_game("tron", MAPS["tron"], [external, leaving], time_limit=60.0)
    assert leaving.calls == 3  # stopped at its third move (turn 2)
    assert leaving.closed
    assert external.process is not None and external.process.proc.returncode is not None


def test_make_player_and_names():
    bot = make_player("tron", "cmd:python3 'my bots/x.py' --fast", 1)
    assert isinstance(bot, ExternalBot) and bot.argv == ["python3", "my bots/x.py", "--fast"]
    assert bot.process is None  # nothing runs before start()
    assert player_entry("cmd:./bots/fast --x").kind == "external"
    assert player_entry("cmd:./bots/fast --x").command == "./bots/fast --x"
    assert player_entry("random").kind == "builtin"
    with pytest.raises(
        UnknownNameError,
        match="unknown tron bot 'no-such-bot'; expected one of random, wallhugger",
    ):
        make_player("tron", "no-such-bot", 0)
    with pytest.raises(BotError, match="empty command line"):
        make_player("tron", "cmd:  ", 0)
    with pytest.raises(BotError, match="tron is played by 2 bots, got 1"):
        play_game("tron", MAPS["tron"], ["random"])
    with pytest.raises(UnknownNameError, match="unknown tron bot 'nosuch'"):
        play_game("tron", MAPS["tron"], ["random", "nosuch"])


def test_cli_play_json_and_record(tmp_path, capsys):
    map_file = tmp_path / "box.txt"
    map_file.write_text("isolation 4 4 queen\n1...\n..#.\n....\n...2\n")
    out = tmp_path / "game.json.gz"
    code = main(
        [
            "play",
            "isolation",
            str(map_file),
            "random",
            f"cmd:{sys.executable} {EXAMPLES / 'isolation_bot.py'}",
            "--seed",
            "4",
            "--time",
            "0.5",
            "--json",
            "--record",
            str(out),
        ]
    )
    assert code == 0
    line = capsys.readouterr().out.strip().splitlines()
    assert len(line) == 1
    result = json.loads(line[0])
    record = load_record(out)
    verify_record(record)
    assert result["winner"] == record.result.winner
    assert result["reason"] == record.result.reason
    assert result["turns"] == len(record.turns) and result["scores"] == list(
        record.result.scores
    )
    assert record.players[1].kind == "external" and record.seed == 4
    code = main(["play", "isolation", str(map_file), "random", "random", "--seed", "4"])
    text = capsys.readouterr().out
    assert code == 0 and text.startswith("isolation on box: ") and "turns" in text


class _Reporting:
    """A tron bot that always goes east and reports a search the way each kind of bot
    does: a ``last_info`` mapping (tron) or ``last_*`` attributes (isolation, connect5)."""

    name = "reporting"

    def __init__(self, style):
        self.style, self.calls = style, 0

    def move(self, state, player, deadline):
        self.calls += 1
        if self.style == "mapping":
            self.last_info = {
                "depth": self.calls,
                "nodes": 10 * self.calls,
                "value": -1.5,
                "scores": [float("-inf")] * 4,
            }
        else:
            self.last_depth, self.last_score, self.last_nodes = self.calls, 3, 99
        return 2 if player == 0 else 4


def test_bot_info_is_recorded_per_move():
    gm = parse_map("9 3\n#########\n#1     2#\n#########\n", game="tron", name="row")
    rec = play_game(
        "tron", gm, [_Reporting("mapping"), _Reporting("attributes")], time_limit=1.0
    )
    assert len(rec.turns) == 3  # a head-on meeting in the middle
    assert [t.info[0] for t in rec.turns] == [
        {"depth": k, "score": -1.5, "nodes": 10 * k} for k in (1, 2, 3)
    ]
    assert [t.info[1] for t in rec.turns] == [
        {"depth": k, "score": 3, "nodes": 99} for k in (1, 2, 3)
    ]
    # a bot that says nothing gets no info
    rec2 = play_game("tron", gm, ["random", _Reporting("mapping")], time_limit=1.0)
    assert rec2.turns and all(0 not in t.info and 1 in t.info for t in rec2.turns)
