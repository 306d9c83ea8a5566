"""Any bytes a bot answers are a move or an 'invalid' BotFailure, in every protocol."""

from __future__ import annotations

import json

import numpy as np
from fuzz_helpers import ODD_VALUES, bounded_memory, examples
from hypothesis import given, settings
from hypothesis import strategies as st

from atlas.arena.process import BotFailure
from atlas.arena.protocols.jsonl import jsonl_move, parse_jsonl_line
from atlas.errors import IllegalMoveError
from atlas.games.connect5.protocol import gtp_column, parse_gtp_response
from atlas.games.tron.protocol import parse_tron_answer
from atlas.maps import parse_map
from atlas.sim import get_game
from atlas.sim.base import Status

ANSWER_BYTES = st.one_of(
    st.binary(max_size=200),
    st.lists(
        st.sampled_from(
            [
                b"= ",
                b"? ",
                b"=1 ",
                b"4",
                b"\xc2\xb2",
                b"9" * 5000,
                b"\n",
                b"\r\n",
                b"\n\n",
                b"resign",
                b"-",
                b"[" * 100,
                b'{"move": ',
                b"}",
                b"\xff",
                b"NaN",
                b" ",
            ]
        ),
        max_size=12,
    ).map(b"".join),
)


@settings(max_examples=examples(300))
@given(ANSWER_BYTES)
def test_tron_answers_are_a_digit_or_skipped(data):
    with bounded_memory():
        move, used = parse_tron_answer(bytearray(data))
    assert 0 <= used <= len(data)
    if move is None:
        assert used == len(data) and not set(data) & set(b"1234")
    else:
        assert move in (1, 2, 3, 4) and data[used - 1 : used] == str(move).encode()


@settings(max_examples=examples(300))
@given(ANSWER_BYTES)
def test_gtp_responses_parse_or_are_invalid(data):
    with bounded_memory():
        try:
            answer, used = parse_gtp_response(bytearray(data))
        except BotFailure as exc:
            assert exc.status is Status.INVALID
            return
        assert 0 <= used <= len(data)
        if answer is None:
            assert used == 0
            return
        ok, text = answer
        try:
            column = gtp_column(text)
        except BotFailure as exc:
            assert exc.status is Status.INVALID
            return
    assert isinstance(column, int) and abs(column) < 10**21


GAMES = {
    "tron": "5 3\n#    \n 1  2\n     \n",
    "isolation": "isolation 4 3 queen\n1..#\n....\n#..2\n",
    "connect5": "connect5 7 6 5\n",
    "outpost": "10 10\n11 10\n",
}


@settings(max_examples=examples(400))
@given(
    st.sampled_from(sorted(GAMES)),
    st.one_of(
        ANSWER_BYTES,
        ODD_VALUES.map(lambda v: json.dumps({"move": v}).encode()),
        st.recursive(ODD_VALUES, lambda c: st.lists(c, max_size=3), max_leaves=8).map(
            lambda v: json.dumps({"move": v}).encode()
        ),
    ),
)
def test_json_line_answers_are_a_move_or_invalid(game_name, data):
    game = get_game(game_name)
    state = game.initial_state(parse_map(GAMES[game_name], game=game_name, name="m"))
    with bounded_memory():
        line, used = parse_jsonl_line(bytearray(data + b"\n"))
        if line is None:
            assert used <= len(data) + 1
            return
        try:
            move = jsonl_move(game, line)
        except BotFailure as exc:
            assert exc.status is Status.INVALID and exc.detail
            return
        # a move that reads is played or refused by the rules, never anything else
        seat = game.to_move(state)[0]
        try:
            game.apply(state, {s: (move if s == seat else None) for s in game.to_move(state)})
        except IllegalMoveError:
            pass


def test_the_examples_of_the_issue_are_invalid_answers():
    game = get_game("isolation")
    for line in ["[" * 5000, '{"move": [1, 1' + "0" * 5000 + "]}", '{"move": NaN}']:
        try:
            jsonl_move(game, line)
        except BotFailure as exc:
            assert exc.status is Status.INVALID
        else:
            raise AssertionError(line)
    for answer in ["²", "9" * 5000, "resign", ""]:
        try:
            gtp_column(answer)
        except BotFailure as exc:
            assert exc.status is Status.INVALID and "not a column number" in exc.detail
        else:
            raise AssertionError(answer)
    assert gtp_column("4") == 3
    assert np.array_equal(parse_tron_answer(bytearray(b"x\r\n13")), (1, 4))
