"""Tests that kill mutants of the protocol parsers the rest of the suite let live
(``python tools/mutate.py parsers``): the exact readings of the host side (GTP replies,
JSON answer lines, tron digits) and what the served sides answer, line by line.

The served sides run here against :class:`_Served`, a stand-in for
:class:`~atlas.arena.protocols.common.ServedBot` that asks the bot at once on this
thread (or answers with the fallback when told to be late): no threads, no clock.
"""

from __future__ import annotations

import io
import json
import time
from typing import Any

import numpy as np
import pytest

from atlas.arena.process import BotFailure
from atlas.arena.protocols import jsonl, protocol_module
from atlas.arena.protocols.common import RequestError, process_age, send_line
from atlas.errors import BotError
from atlas.games.connect5 import protocol as gtp
from atlas.games.tron import protocol as tron_protocol
from atlas.maps import parse_map
from atlas.sim import get_game
from atlas.sim.base import Status


class _Served:
    """The served clock's interface, without threads: ``tell`` and ``ask`` run at once.

    ``late`` makes every ``ask`` answer with its fallback (the bot missed its deadline);
    an exception of the bot is answered with the fallback too, as the real one does.
    """

    name = "fake"

    def __init__(self, bot: Any, *, late: bool = False) -> None:
        self.bot = bot
        self.late = late
        self.first = True
        self.read_at: list[float] = []
        self.deadlines: list[float] = []
        self.fallbacks = 0
        self.errors: list[Exception] = []

    def deadline(self, read_at: float) -> float:
        self.read_at.append(read_at)
        return read_at + 1000.0

    def tell(self, fn):
        fn(self.bot)

    def report(self, token):  # the info line: nothing to write here
        pass

    def ask(self, fn, deadline, fallback):
        self.deadlines.append(deadline)
        self.first = False
        if not self.late:
            try:
                return fn(self.bot, deadline)
            except Exception as exc:  # the real one reports it and falls back
                self.errors.append(exc)
        self.fallbacks += 1
        return fallback()


class _Bot:
    """Records what it is told and asked; answers ``answers`` in turn (then the last)."""

    def __init__(self, *answers: Any) -> None:
        self.answers = list(answers)
        self.starts: list[tuple[Any, dict, int]] = []
        self.moves: list[tuple[Any, int]] = []

    def start(self, game_map, params, seat):
        self.starts.append((game_map, params, seat))

    def move(self, state, player, deadline):
        self.moves.append((state, player))
        return self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]


# --- the host side: reading answers ---------------------------------------------------


@pytest.mark.parametrize(
    ("data", "want"),
    [
        (b"= 4\n\n", ((True, "4"), 5)),
        (b"=12 4\n\n= 5\n\n", ((True, "4"), 7)),  # an id is dropped; the next stays
        (b"\n\n= 3\n\nrest", ((True, "3"), 7)),  # blank lines before are consumed
        (b"= 3\r\n\r\n= 4\n\n", ((True, "3"), 7)),  # \r counted in the bytes consumed
        (b"\r\n= 3\r\n\r\n", ((True, "3"), 9)),
        (b"?7 unknown command\n\n", ((False, "unknown command"), 20)),
        (b"=\n\n", ((True, ""), 3)),
        (b"= 3\n", (None, 0)),  # the closing blank line has not come
        (b"\n", (None, 0)),
        (b"", (None, 0)),
    ],
)
def test_gtp_replies_read_exactly(data, want):
    assert gtp.parse_gtp_response(bytearray(data)) == want


@pytest.mark.parametrize("data", [b"4\n\n", b"\n\nok\n\n", b" = 4\n\n"])
def test_a_gtp_reply_without_its_sign_is_invalid(data):
    with pytest.raises(BotFailure, match="not a GTP response") as info:
        gtp.parse_gtp_response(data)
    assert info.value.status is Status.INVALID


def test_raw_length_counts_every_byte_but_the_carriage_returns():
    assert gtp._raw_length(b"a\r\rb\nc", 2) == 4
    assert gtp._raw_length(b"abc", 1) == 1
    assert gtp._raw_length(b"ab", 5) == 2  # never more than the buffer


def test_gtp_column_reads_the_first_word_one_based():
    assert gtp.gtp_column("12 because") == 11
    assert gtp.gtp_column("1") == 0
    with pytest.raises(BotFailure, match="genmove answered 'resign 4', not a column"):
        gtp.gtp_column("resign 4")


@pytest.mark.parametrize(
    ("data", "want"),
    [
        (b"", (None, 0)),
        (b"x5\n", (None, 3)),  # no digit 1-4: all consumed
        (b"\x001", (1, 2)),
        (b"0 4 2", (4, 3)),
        (b"3", (3, 1)),
    ],
)
def test_tron_answers_read_exactly(data, want):
    assert tron_protocol.parse_tron_answer(bytearray(data)) == want


@pytest.mark.parametrize(
    ("data", "want"),
    [
        (b"", (None, 0)),
        (b'{"move": 1}', (None, 0)),  # no newline yet
        (b'  {"move": 1} \r\n{"x"', ('{"move": 1}', 16)),
        (b"   \nnext\n", (None, 4)),  # a blank line: consumed, no answer
        (b"\n", (None, 1)),
    ],
)
def test_json_answer_lines_read_exactly(data, want):
    assert jsonl.parse_jsonl_line(bytearray(data)) == want


@pytest.mark.parametrize(
    ("line", "match"),
    [
        ("[1, 2]", "answer has no 'move'"),
        ('{"mov": [1, 1]}', "answer has no 'move'"),
        ("{not json", "answer is not JSON"),
        ("[" * 500, "answer refused"),
        ('{"move": "north"}', "cannot read the move"),
    ],
)
def test_json_answers_that_are_not_moves_are_invalid(line, match):
    game = get_game("isolation")
    with pytest.raises(BotFailure, match=match) as info:
        jsonl.jsonl_move(game, line)
    assert info.value.status is Status.INVALID


def test_a_json_answer_s_move_is_the_game_s_reading():
    assert jsonl.jsonl_move(get_game("isolation"), '{"move": [2, 1]}') == (2, 1)


def test_an_unknown_protocol_is_a_bot_error_naming_it(monkeypatch):
    from dataclasses import replace

    from atlas.arena import protocols

    info = replace(get_game("isolation").info, protocol="smoke-signals")
    monkeypatch.setattr(protocols, "get_info", lambda game: info)
    with pytest.raises(BotError, match="'smoke-signals', which atlas does not speak"):
        protocol_module("isolation")


def test_process_age_is_the_boot_time_less_the_start_tick():
    line = "7 (a) R " + " ".join(["0"] * 18) + " 250 9 9"
    assert process_age(line, 5.0, 100.0) == pytest.approx(2.5)
    assert process_age(line, 2.0, 100.0) == 0.0


def test_send_line_writes_utf8_and_flushes():
    class Out(io.BytesIO):
        flushed = 0

        def flush(self):
            self.flushed += 1

    out = Out()
    send_line(out, "é\n")
    assert out.getvalue() == "é\n".encode() and out.flushed == 1


# --- the served tron side -------------------------------------------------------------

#: Seat 0 ("1") at (1, 1) with the west and north walled; seat 1 ("2") at (2, 3).
TRON_BOARD = "5 4\n#####\n#1  #\n#  2#\n#####\n"


def test_served_tron_counts_the_turns_and_starts_the_bot_once():
    bot = _Bot(2, 3, 3)
    served = _Served(bot)
    out = io.BytesIO()
    inp = io.BytesIO((TRON_BOARD * 3).encode())
    tron_protocol.serve("tron", served, inp, out, {})
    assert out.getvalue() == b"2\n3\n3\n"
    assert [state.turn for state, _ in bot.moves] == [0, 1, 2]
    assert [player for _, player in bot.moves] == [0, 0, 0]
    assert len(bot.starts) == 1 and bot.starts[0][2] == 0
    game_map = bot.starts[0][0]
    assert game_map.starts == ((1, 1), (2, 3))
    assert game_map.blocked.sum() == 14 and not game_map.blocked[1, 2]


def test_served_tron_skips_blank_and_bad_headers_and_answers_a_board_without_heads():
    bot = _Bot(2)
    served = _Served(bot)
    out = io.BytesIO()
    no_head = "3 1\n# #\n"
    # a blank line, a header that is not "W H" (its rows are then read as headers too),
    # a board without heads (answered "1", counted as a turn), then a real board
    text = "\n" + "x y\n#\n" + no_head + TRON_BOARD
    tron_protocol.serve("tron", served, io.BytesIO(text.encode()), out, {})
    assert out.getvalue() == b"1\n2\n"
    assert [state.turn for state, _ in bot.moves] == [1]
    assert bot.starts == []  # the bot is started at turn 0 only


@pytest.mark.parametrize("answer", [0, 5, None, 2.5])
def test_served_tron_replaces_an_answer_that_is_not_a_digit_with_the_safe_one(answer):
    out = io.BytesIO()
    tron_protocol.serve("tron", _Served(_Bot(answer)), io.BytesIO(TRON_BOARD.encode()), out, {})
    # east and south reach the same 4 cells; east has two free neighbours, south one
    assert out.getvalue() == b"2\n"


def test_served_tron_answers_the_safe_digit_for_a_late_bot():
    served = _Served(_Bot(4), late=True)
    out = io.BytesIO()
    tron_protocol.serve("tron", served, io.BytesIO(TRON_BOARD.encode()), out, {})
    assert out.getvalue() == b"2\n" and served.fallbacks == 1
    assert served.deadlines == [served.read_at[0] + 1000.0]


def test_tron_board_text_leaves_out_a_head_off_the_board():
    from atlas.games.tron.rules import TronState

    blocked = np.array([[False, True, False]])
    for heads, want in (
        ([[0, 0], [0, 2]], "3 1\n1#2\n"),
        ([[-1, 0], [0, 2]], "3 1\n #2\n"),  # above the board
        ([[0, 3], [0, 2]], "3 1\n #2\n"),  # right of it
        ([[0, 0], [1, 2]], "3 1\n1# \n"),  # below it
        ([[0, 0], [0, -1]], "3 1\n1# \n"),  # left of it
    ):
        state = TronState(blocked, np.array(heads, dtype=np.int32))
        assert tron_protocol.tron_board_text(state, 0) == want, heads


# --- the served GTP side --------------------------------------------------------------


def _gtp(commands: str, bot: _Bot | None = None, **kw: Any) -> tuple[list[str], _Served]:
    served = _Served(bot or _Bot(3), **kw)
    out = io.BytesIO()
    gtp.serve("connect5", served, io.BytesIO(commands.encode()), out, {})
    text = out.getvalue().decode()
    assert text.endswith("\n\n")
    return text[:-2].split("\n\n"), served


def test_served_gtp_answers_the_administrative_commands():
    replies, _ = _gtp(
        "protocol_version\n5 name\nversion\nknown_command genmove\nknown_command fly\n"
        "known_command\nlist_commands\nFLY away\n# a comment\n\n3 quit\nname\n"
    )
    assert replies == [
        "= 2",
        "=5 atlas-fake",
        "= 1",
        "= true",
        "= false",
        "= false",
        "= " + "\n".join(_GTP_COMMANDS),
        "? unknown command",
        "=3",  # quit: answered, and nothing after it is read
    ]


_GTP_COMMANDS = (
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "inarow",
    "clear_board",
    "play",
    "genmove",
    "quit",
)


def test_served_gtp_plays_on_the_board_size_and_row_it_was_given():
    bot = _Bot(1)  # 0-based column 1: GTP column 2
    replies, served = _gtp(
        "boardsize 6 5\ninarow 4\nclear_board\nplay black 3\nplay W 3\n"
        "genmove b\nplay white 1 # a comment\n",
        bot,
    )
    assert replies == ["=", "=", "=", "=", "=", "= 2", "="]
    game_map, params, seat = bot.starts[0]
    assert game_map.blocked.shape == (5, 6) and params["inarow"] == 4 and seat == 0
    state, player = bot.moves[0]
    assert player == 0 and state.inarow == 4
    board = np.asarray(state.board)
    assert board.shape == (5, 6)
    # black then white in column 3 (index 2), bottom row last
    assert board[4, 2] == 1 and board[3, 2] == 2 and board.sum() == 3


def test_served_gtp_boardsize_with_one_number_keeps_the_rows():
    bot = _Bot(0)
    replies, _ = _gtp("boardsize 8\ngenmove black\n", bot)
    assert replies == ["=", "= 1"]
    assert bot.starts[0][0].blocked.shape == (6, 8)  # 9 x 6 by default: the 6 rows stay
    assert bot.moves[0][1] == 0


def test_served_gtp_without_boardsize_plays_nine_by_six_five_in_a_row():
    bot = _Bot(8)
    replies, _ = _gtp("genmove b\n", bot)
    assert replies == ["= 9"]
    game_map, params, _ = bot.starts[0]
    assert game_map.blocked.shape == (6, 9) and params["inarow"] == 5


def test_served_gtp_starts_a_fresh_game_after_boardsize_or_inarow():
    bot = _Bot(0)
    replies, _ = _gtp("play b 1\nboardsize 7 6\nplay b 2\ninarow 3\nplay b 3\ngenmove w\n", bot)
    assert replies == ["=", "=", "=", "=", "=", "= 1"]
    state, _ = bot.moves[0]
    assert state.inarow == 3 and np.asarray(state.board).sum() == 1  # only "play b 3"
    assert [s[1]["inarow"] for s in bot.starts] == [5, 5, 3]


@pytest.mark.parametrize(
    ("command", "reply"),
    [
        ("play red 1", "? unknown colour 'red'"),
        ("play black", "? list index out of range"),
        ("boardsize x 6", "? invalid literal for int() with base 10: 'x'"),
        ("genmove", "? list index out of range"),
        ("play black 99", "? "),
    ],
)
def test_served_gtp_refuses_bad_commands_in_one_reply(command, reply):
    replies, _ = _gtp(command + "\nversion\n")
    assert replies[0].startswith(reply) and replies[1] == "= 1"


def test_served_gtp_genmove_on_a_full_board_is_refused():
    replies, served = _gtp(
        "boardsize 2 1\ninarow 2\nplay b 1\nplay w 2\ngenmove b\n", late=True
    )
    assert replies[-1] == "? no legal move for black" and served.fallbacks == 1


def test_served_gtp_late_bot_gets_a_random_legal_column():
    replies, served = _gtp(
        "boardsize 3 2\ninarow 2\nplay b 1\nplay w 1\ngenmove b\n", late=True
    )
    assert replies[-1] in ("= 2", "= 3") and served.fallbacks == 1


# --- the served JSON-lines side -------------------------------------------------------

ISO = "isolation 4 3 queen\n1..#\n....\n#..2\n"


def _iso_state():
    game = get_game("isolation")
    return game, game.initial_state(parse_map(ISO, game="isolation", name="m"))


def _start(**extra: Any) -> dict:
    return {"type": "start", "game": "isolation", "map": ISO, "map_name": "m", **extra}


def _turn(state, **extra: Any) -> dict:
    return {"type": "turn", "state": get_game("isolation").state_to_json(state), **extra}


def _jsonl(lines: list, bot: _Bot, **kw: Any) -> tuple[list, _Served]:
    served = _Served(bot, **kw)
    out = io.BytesIO()
    text = "".join((m if isinstance(m, str) else json.dumps(m)) + "\n" for m in lines)
    jsonl.serve("isolation", served, io.BytesIO(text.encode()), out, {})
    return [json.loads(ln) for ln in out.getvalue().decode().splitlines()], served


def test_served_jsonl_starts_the_bot_with_the_map_seat_and_params():
    game, state = _iso_state()
    bot = _Bot((1, 1))
    answers, _ = _jsonl(
        [_start(seat=1, params={"variant": "queen"}), _turn(state), _turn(state, seat=0)], bot
    )
    assert answers == [{"move": [1, 1]}, {"move": [1, 1]}]
    game_map, params, seat = bot.starts[0]
    assert (game_map.name, params, seat) == ("m", {"variant": "queen"}, 1)
    # a turn without a seat is the start's seat's; a turn's own seat wins
    assert [p for _, p in bot.moves] == [1, 0]
    assert game.summary(bot.moves[0][0]) == game.summary(state)


def test_served_jsonl_defaults_the_seat_to_zero_and_caps_the_deadline_by_the_time():
    _, state = _iso_state()
    bot = _Bot((1, 1))
    before = time.perf_counter()
    _, served = _jsonl([_start(), _turn(state, time=10.0), _turn(state)], bot)
    after = time.perf_counter()
    assert [p for _, p in bot.moves] == [0, 0] and bot.starts[0][2] == 0
    capped, free = served.deadlines
    # four fifths of the 10 s the host says are left, from the moment the line was read
    assert before + 8.0 <= capped <= after + 8.0
    assert free == served.read_at[1] + 1000.0


def test_served_jsonl_skips_bad_lines_with_one_message_each(capsys):
    _, state = _iso_state()
    bot = _Bot((1, 1))
    answers, _ = _jsonl(
        [
            _turn(state),  # 1: before the start
            {"type": "start", "map": 3},  # 2: no map
            "{not json",  # 3
            "[1, 2]",  # 4: not an object
            "",  # blank: skipped silently
            {"type": "hello"},  # 6: an unknown type: ignored
            _start(),  # 7
            _turn(state, seat="x"),  # 8: a seat that is no number
            _turn(state),  # 9
            {"type": "end"},
            _turn(state),  # after the end: never read
        ],
        bot,
    )
    assert answers == [{"move": [1, 1]}]
    err = capsys.readouterr().err.splitlines()
    assert [line.split(":")[1] for line in err] == [
        " input line 1",
        " input line 2",
        " input line 3",
        " input line 4",
        " input line 8",
    ]
    assert "a turn message before the start message" in err[0]
    assert "a start message without its map" in err[1]
    assert "not a JSON message" in err[2] and "not a JSON object" in err[3]


def test_served_jsonl_late_bot_answers_a_legal_move_it_was_sent_or_a_random_one():
    game, state = _iso_state()
    legal = [list(m) for m in game.legal_moves(state, 0)]
    answers, served = _jsonl(
        [_start(), _turn(state, legal=legal[2:3]), _turn(state)], _Bot((9, 9)), late=True
    )
    assert answers[0] == {"move": legal[2]}
    assert tuple(answers[1]["move"]) in game.legal_moves(state, 0)
    assert served.fallbacks == 2


def test_served_jsonl_a_state_that_does_not_read_is_the_host_s_error():
    _, state = _iso_state()
    bad = _turn(state)
    bad["state"] = 5  # not an object
    legal = [[1, 1]]
    answers, served = _jsonl([_start(), {**bad, "legal": legal}], _Bot((2, 2)))
    assert answers == [{"move": [1, 1]}] and served.fallbacks == 1
    assert isinstance(served.errors[0], RequestError)
    assert "cannot read the turn's state" in str(served.errors[0])
    bad["state"] = {"turn": "x" * 300}  # a message that quotes it is cut to 200
    _, served = _jsonl([_start(), {**bad, "legal": legal}], _Bot((2, 2)))
    assert str(served.errors[0]).startswith("cannot read the turn's state: ValueError(")
    assert len(str(served.errors[0])) == 200


def test_served_jsonl_without_a_usable_start_falls_back_for_every_turn(capsys):
    _, state = _iso_state()
    start = _start()
    start["map"] = "isolation 2 2 queen\n1.\n"  # a map that does not parse
    answers, served = _jsonl([start, _turn(state, legal=[[0, 1]])], _Bot((1, 1)))
    assert answers == [{"move": [0, 1]}]
    assert "no game to move in" in str(served.errors[0])
    assert "cannot start the game" in capsys.readouterr().err


# --- the host side against a scripted process -----------------------------------------


class _Proc:
    """A bot process that answers from a script: what is written is kept in ``sent``."""

    def __init__(self, replies: bytes = b"") -> None:
        self.buffer = bytearray(replies)
        self.sent: list[str] = []
        self.deadlines: list[float] = []
        self.closed = False

    def write(self, data: bytes, deadline: float) -> None:
        self.sent.append(data.decode())
        self.deadlines.append(deadline)

    def read_answer(self, parse, deadline, what):
        value, used = parse(self.buffer)
        del self.buffer[:used]
        assert value is not None, f"the script has no {what}"
        return value

    def close(self) -> None:
        self.closed = True


def _connect5(text: str = "connect5 7 6 5\n"):
    game = get_game("connect5")
    return game, game.initial_state(parse_map(text, game="connect5", name="c"))


def test_gtp_host_replays_a_column_bottom_disc_first():
    game, state = _connect5()
    state = game.apply(state, {0: 2})
    state = game.apply(state, {1: 2})  # white on black in column 3
    state = game.apply(state, {0: 5})
    bot = gtp.GtpBot("connect5", ["engine"])
    bot.process = proc = _Proc(b"=\n\n" * 6 + b"= 1\n\n")
    assert bot.move(state, 1, 0.0) == 0
    # the bottom row first (left to right), then the row above it
    assert proc.sent[3:] == [
        "play black 3\n",
        "play black 6\n",
        "play white 3\n",
        "genmove white\n",
    ]


def test_gtp_host_refusals_are_invalid_except_inarow_five():
    game, state = _connect5()
    bot = gtp.GtpBot("connect5", ["engine"])
    bot.process = _Proc(b"=\n\n? no\n\n=\n\n= 2\n\n")  # inarow 5 refused: fine
    assert bot.move(state, 0, 0.0) == 1
    state = game.apply(state, {0: 1})
    state = game.apply(state, {1: 3})
    bot.process = _Proc(b"? occupied\n\n")  # the play of white's disc refused
    with pytest.raises(BotFailure, match="refused 'play white 4': occupied") as info:
        bot.move(state, 0, 0.0)
    assert info.value.status is Status.INVALID


def test_gtp_host_says_quit_only_after_a_game_started():
    bot = gtp.GtpBot("connect5", ["engine"])
    bot.process = idle = _Proc()
    bot.close()
    assert idle.sent == [] and idle.closed
    _, state = _connect5()
    bot = gtp.GtpBot("connect5", ["engine"])
    bot.process = proc = _Proc(b"=\n\n" * 3 + b"= 4\n\n")
    assert bot.move(state, 0, 0.0) == 3
    before = time.perf_counter()
    bot.close()
    assert proc.sent[-1] == "quit\n" and proc.closed
    assert proc.deadlines[-1] >= before + 0.05  # a moment to write it, not a past deadline


def test_jsonl_host_sends_the_start_once_and_the_time_to_four_places(monkeypatch):
    from types import SimpleNamespace

    game, state = _iso_state()
    game_map = parse_map(ISO, game="isolation", name="m")
    bot = jsonl.JsonLinesBot("isolation", ["program"])
    bot.game_map = game_map
    bot.process = proc = _Proc(b'{"move": [1, 1]}\n{"move": [0, 1]}\n')
    monkeypatch.setattr(jsonl, "time", SimpleNamespace(perf_counter=lambda: 100.0))
    assert bot.move(state, 0, 100.123456) == (1, 1)
    assert bot.move(state, 0, 99.0) == (0, 1)
    sent = [json.loads(line) for line in proc.sent]
    assert [m["type"] for m in sent] == ["start", "turn", "turn"]
    assert [m["time"] for m in sent[1:]] == [0.1235, 0.0]


# --- odds and ends the first run left alive -------------------------------------------


def test_safe_digit_breaks_a_full_tie_by_direction_order():
    board = np.array([list("  1  ")], dtype="<U1")
    assert tron_protocol.safe_digit(board) == 2  # east and west alike: east comes first
    column = np.array([[" "], ["1"], [" "]], dtype="<U1")
    assert tron_protocol.safe_digit(column) == 1  # north before south


def test_read_board_takes_the_first_two_words_of_the_header():
    board = tron_protocol._read_board(io.BytesIO(b"#1\n  2\n"), b"3 2 extra\n")
    assert board is not None and ["".join(r) for r in board] == ["#1 ", "  2"]


def test_serve_builtin_bot_sets_the_clock_and_seed_it_was_given(monkeypatch):
    from atlas.arena import protocols

    made: list[tuple] = []
    clocks: list[dict] = []

    class Recording(protocols.ServedBot):
        def __init__(self, make, **kw):
            clocks.append(kw)
            super().__init__(make, **kw)
            self._bot.result(timeout=60)  # made: the seed it was made with is known

    monkeypatch.setattr(protocols, "ServedBot", Recording)
    monkeypatch.setattr(protocols, "make_bot", lambda *a: made.append(a) or _Bot(2))
    before = time.perf_counter()
    assert (
        protocols.serve_builtin_bot("tron", "x", stdin=io.BytesIO(), stdout=io.BytesIO()) == 0
    )
    after = time.perf_counter()
    protocols.serve_builtin_bot(
        "tron", "y", 5, 0.25, first_move_time=7.0, stdin=io.BytesIO(), stdout=io.BytesIO()
    )
    assert made == [("tron", "x", 0), ("tron", "y", 5)]
    # reading a given input, the first move's clock starts now, not at the process's start
    assert before + 2.8 <= clocks[0]["first_deadline"] <= after + 2.8
    assert clocks[0]["move_time"] == 0.9 and clocks[0]["name"] == "x"
    assert clocks[1]["move_time"] == 0.25
    assert after + 7.0 <= clocks[1]["first_deadline"]


def test_process_start_without_proc_is_the_import_time(monkeypatch):
    from atlas.arena.protocols import common

    def no_proc(*args, **kwargs):
        raise FileNotFoundError("/proc/self/stat")

    monkeypatch.setattr(common, "open", no_proc, raising=False)
    assert common.process_start() == common._IMPORTED


def test_a_host_mistake_is_one_line_and_the_worker_is_a_daemon(capsys):
    from atlas.arena.protocols.common import ServedBot

    def refuse(bot, deadline):
        raise RequestError("no game to move in")

    soon = time.perf_counter() + 60.0
    served = ServedBot(lambda: None, first_deadline=soon, move_time=60.0)
    try:
        assert served._thread.daemon  # a bot still compiling never keeps the process
        assert served.ask(refuse, soon, lambda: 3) == 3
    finally:
        served.close()
    assert capsys.readouterr().err == "atlas bot: no game to move in\n"
    assert served.fallbacks == 1
