"""Malformed input on both sides of every protocol.

Host side (atlas reading a program): answers split across reads at every byte, a GTP
``= abc``, JSON without ``move``, non-digits before a tron digit.  Served side (``atlas
bot`` reading a host): a non-numeric tron header, GTP commands that do not read, JSON
lines that are not messages; each is skipped or refused in one line, never a traceback.
"""

from __future__ import annotations

import io
import json
import sys

import pytest

from atlas.arena.process import MAX_TURN_BYTES, BotFailure, BotProcess
from atlas.arena.protocols import external_bot, serve_builtin_bot
from atlas.arena.protocols.jsonl import parse_jsonl_line
from atlas.arena.runner import play_game
from atlas.games.connect5.protocol import parse_gtp_response
from atlas.games.tron.protocol import parse_tron_answer
from atlas.maps import parse_map
from atlas.sim import get_game
from atlas.sim.base import Status

ISO_TEXT = "isolation 4 3 queen\n1..#\n....\n#..2\n"

# --------------------------------------------------------------------------- host side


class Arrivals:
    """A BotProcess whose output arrives in the given chunks, one per read."""

    def __new__(cls, chunks):
        proc = object.__new__(BotProcess)
        proc.buffer = bytearray()
        proc._eof = False
        proc.max_turn_bytes = MAX_TURN_BYTES
        proc.pending = pending = list(chunks)

        def fill(deadline):
            if not pending:
                return False  # the deadline passed with nothing more
            proc.buffer += pending.pop(0)
            return True

        proc._fill = fill
        return proc


ANSWERS = [
    (parse_tron_answer, b"x\r\n3\n", 3, b"\n"),  # bytes before the digit are skipped
    (parse_tron_answer, b"23", 2, b"3"),  # the rest is next turn's answer
    (parse_gtp_response, b"\n= 4\r\n\r\n", (True, "4"), b""),
    (parse_gtp_response, b"=7 resign\n\n= 2\n\n", (True, "resign"), b"= 2\n\n"),
    (parse_gtp_response, b"? illegal move\n\n", (False, "illegal move"), b""),
    (parse_jsonl_line, b'\n{"move": [1, 2]}\r\n{"move"', '{"move": [1, 2]}', b'{"move"'),
]


@pytest.mark.parametrize("parse, data, value, rest", ANSWERS)
def test_an_answer_split_across_reads_at_any_byte_reads_the_same(parse, data, value, rest):
    splits = [[data[:i], data[i:]] for i in range(1, len(data))]
    splits.append([data[i : i + 1] for i in range(len(data))])  # a byte per read
    for chunks in splits:
        proc = Arrivals(chunks)
        assert proc.read_answer(parse, 0.0, "an answer") == value, chunks
        # what was not read yet stays for the next turn (or arrives with the next read)
        assert bytes(proc.buffer) + b"".join(proc.pending) == rest


@pytest.mark.parametrize(
    "parse, data",
    [(parse_tron_answer, b"north\n"), (parse_gtp_response, b"= 4\n"), (parse_jsonl_line, b"{")],
)
def test_half_an_answer_at_the_deadline_is_invalid_nothing_is_a_timeout(parse, data):
    with pytest.raises(BotFailure) as info:
        Arrivals([data[:2], data[2:]]).read_answer(parse, 0.0, "an answer")
    assert info.value.status is Status.INVALID
    assert info.value.detail == f"wrote {len(data)} bytes but no an answer in time"
    with pytest.raises(BotFailure) as info:
        Arrivals([]).read_answer(parse, 0.0, "an answer")
    assert (info.value.status, info.value.detail) == (Status.TIMEOUT, "no an answer in time")


@pytest.mark.parametrize("parse", [parse_tron_answer, parse_gtp_response, parse_jsonl_line])
def test_the_end_of_the_last_answer_s_line_then_nothing_is_a_timeout(parse):
    # a bot that prints "1\n" and then hangs has left "\n" for the next turn: that is
    # no answer begun, so it timed out (and a tournament may void the game under load)
    with pytest.raises(BotFailure) as info:
        Arrivals([b"\n", b"\r\n "]).read_answer(parse, 0.0, "an answer")
    assert (info.value.status, info.value.detail) == (Status.TIMEOUT, "no an answer in time")


def test_a_gtp_response_that_is_not_one_is_invalid():
    with pytest.raises(BotFailure) as info:
        parse_gtp_response(b"ok 4\n\n")
    assert info.value.status is Status.INVALID and "not a GTP response: 'ok 4'" in str(
        info.value.detail
    )


def _program(tmp_path, name, source):
    path = tmp_path / name
    path.write_text(source)
    return [sys.executable, str(path)]


GTP_ABC = """import sys
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    print("= abc" if word == "genmove" else "=", end="\\n\\n", flush=True)
    if word == "quit":
        break
"""
JSON_WITHOUT_MOVE = """import json, sys
for line in sys.stdin:
    if json.loads(line)["type"] == "turn":
        print(json.dumps({"mov": [0, 1], "note": "a typo"}), flush=True)
"""
TRON_CHATTY = """import sys
while True:
    header = sys.stdin.readline()
    if not header:
        break
    for _ in range(int(header.split()[1])):
        sys.stdin.readline()
    sys.stdout.write("thinking... going east: 2\\n")
    sys.stdout.flush()
"""


def test_gtp_equals_abc_is_an_invalid_move(tmp_path):
    bot = external_bot("connect5", _program(tmp_path, "abc.py", GTP_ABC), first_move_time=60)
    c5 = parse_map("connect5 7 6 5\n", game="connect5", name="c")
    record = play_game("connect5", c5, ["random", bot], seed=1, time_limit=60)
    status = record.statuses[1]
    assert (status.status, status.turn) == ("invalid", 1)
    assert status.detail == "genmove answered 'abc', not a column number"
    assert (record.result.winner, record.result.reason) == (0, "invalid")


def test_json_without_move_is_an_invalid_answer(tmp_path):
    bot = external_bot(
        "isolation", _program(tmp_path, "nomove.py", JSON_WITHOUT_MOVE), first_move_time=60
    )
    iso = parse_map(ISO_TEXT, game="isolation", name="m")
    record = play_game("isolation", iso, [bot, "random"], seed=1, time_limit=60)
    status = record.statuses[0]
    assert (status.status, status.turn) == ("invalid", 0)
    assert status.detail.startswith("answer has no 'move': '{\"mov\"")
    assert (record.result.winner, record.result.reason) == (1, "invalid")


def test_text_around_a_tron_digit_is_skipped(tmp_path):
    # "thinking... going east: 2\n": the first digit 1-4 is the answer, the rest skipped
    bot = external_bot("tron", _program(tmp_path, "chatty.py", TRON_CHATTY), first_move_time=60)
    box = parse_map("7 3\n#######\n#1   2#\n#######\n", game="tron", name="corridor")
    record = play_game("tron", box, [bot, "random"], seed=1, time_limit=60)
    assert record.statuses[0].status == "ok"
    assert [t.moves[0] for t in record.turns] == [2] * len(record.turns)


# --------------------------------------------------------------------------- served side


def _serve(game, text, capsys):
    out = io.BytesIO()
    code = serve_builtin_bot(
        game, "random", time_limit=30.0, stdin=io.BytesIO(text.encode()), stdout=out
    )
    err = capsys.readouterr().err
    assert code == 0 and "Traceback" not in err
    return out.getvalue().decode(), err


def test_served_tron_skips_headers_that_are_not_w_h(capsys):
    board = "5 3\n#####\n#1 2#\n#####\n"  # only east is free
    junk = "abc def\n5\n0 3\n-5 3\n5 x\n\n"
    out, err = _serve("tron", junk + board + "x 1\n" + board, capsys)
    assert out == "2\n2\n"  # one answer per board, none for the junk
    assert err == ""


def test_served_gtp_refuses_commands_that_do_not_read(capsys):
    commands = (
        "boardsize x\nplay black\nplay purple 3\ngenmove\ninarow\nfrobnicate\n"
        "play black 99999999999999999999999\n"
        # a 3x2 board: column 1 fills up, and white is asked to move on black's turn
        "boardsize 3 2\ninarow 3\nplay black 1\nplay white 1\nplay black 1\n"
        "genmove white\ngenmove black\nquit\n"
    )
    out, err = _serve("connect5", commands, capsys)
    replies = out.split("\n\n")
    assert replies[:7] == [
        "? invalid literal for int() with base 10: 'x'",
        "? list index out of range",
        "? unknown colour 'purple'",
        "? list index out of range",
        "? list index out of range",
        "? unknown command",
        "? column 99999999999999999999998 is off the board (0..8)",
    ]
    assert replies[7:12] == ["=", "=", "=", "=", "? column 0 is full"]
    assert replies[12] == "? no legal move for white"  # was a traceback, the bot gone
    assert replies[13] in ("= 2", "= 3") and replies[14:] == ["=", ""]
    assert err == ""


def _turn(state_json, **extra):
    return {"type": "turn", "turn": 0, "seat": 0, "time": 30.0, "state": state_json, **extra}


def test_served_json_lines_skip_what_is_not_a_message_in_one_line(capsys):
    game = get_game("isolation")
    state = game.initial_state(parse_map(ISO_TEXT, game="isolation", name="m"))
    good = game.state_to_json(state)
    start = {"type": "start", "seat": 0, "map": ISO_TEXT, "map_name": "m"}
    lines = [
        "not json",
        "[1, 2]",
        json.dumps(_turn(good)),  # before the start
        '{"type": "start"}',  # no map
        '{"a": ' * 100 + "1",  # beyond the nesting limit
        json.dumps(start),
        json.dumps(_turn(good, time="soon")),
        json.dumps(_turn({"pos": "x"})),  # a state that does not read, no legal list
        json.dumps(_turn({"pos": "x"}, legal=[[1, 1]])),  # ...answered from legal
        json.dumps(_turn(good)),  # and a good turn still gets the bot's own answer
    ]
    out, err = _serve("isolation", "\n".join(lines) + "\n", capsys)
    answers = [json.loads(a)["move"] for a in out.splitlines()]
    assert answers[0] == [1, 1] and len(answers) == 2
    assert tuple(answers[1]) in game.legal_moves(state, 0)
    said = err.splitlines()
    assert said[:5] == [
        "atlas bot: input line 1: not a JSON message (Expecting value: line 1 column 1 "
        "(char 0))",
        "atlas bot: input line 2: not a JSON object: b'[1, 2]\\n'",
        "atlas bot: input line 3: a turn message before the start message",
        "atlas bot: input line 4: a start message without its map",
        "atlas bot: input line 5: not a JSON message (JSON nested 100 deep, more than 64)",
    ]
    assert said[5] == "atlas bot: input line 7: could not convert string to float: 'soon'"
    assert said[6].startswith("atlas bot: cannot read the turn's state:")
    assert said[7] == "atlas bot: input line 8: invalid literal for int() with base 10: 'x'"
    assert said[8].startswith("atlas bot: cannot read the turn's state:")
    assert len(said) == 9


def test_served_json_lines_with_an_unreadable_map_answer_from_legal(capsys):
    start = {"type": "start", "seat": 0, "map": "isolation 4\n", "map_name": "m"}
    turn = _turn({}, legal=[[2, 2]])
    out, err = _serve("isolation", json.dumps(start) + "\n" + json.dumps(turn) + "\n", capsys)
    assert [json.loads(a)["move"] for a in out.splitlines()] == [[2, 2]]
    said = err.splitlines()
    assert said[0].startswith("atlas bot: cannot start the game: line 1:")
    assert said[1:] == ["atlas bot: no game to move in: the start message could not be used"]
