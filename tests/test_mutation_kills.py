"""Tests that kill mutants the rest of the suite let live (tools/mutate.py)."""

from __future__ import annotations

import io
import json
import re
from dataclasses import replace

import numpy as np
import pytest

from atlas.errors import InvalidMoveError, RecordError
from atlas.games.tron import rules as tron
from atlas.maps import parse_map
from atlas.sim import records

# --- atlas/games/tron/rules.py ---------------------------------------------------------------

# seat 0 at (0, 0) in a corner, seat 1 at (2, 3); no border walls, a wall at (1, 0)
CORNER = "4 3\n1   \n#   \n   2\n"


def _tron(text: str, compat: str = "spec") -> tron.TronState:
    return tron.GAME.initial_state(parse_map(text, game="tron"), {"compat": compat})


def test_a_bare_tron_state_is_a_live_game_at_turn_0():
    blocked = np.zeros((3, 4), dtype=bool)
    s = tron.TronState(blocked, np.array([[0, 0], [2, 3]], dtype=np.int32))
    assert (s.turn, s.crashed, s.collided, s.causes) == (0, (False, False), False, ("", ""))
    assert not s.over and tron.GAME.outcome(s) is None
    assert tron.GAME.to_move(s) == (0, 1)


def test_the_initial_state_has_no_outcome():
    s = _tron(CORNER)
    assert tron.GAME.outcome(s) is None and not s.collided


def test_safe_moves_looks_the_right_way_and_stops_at_the_edge():
    s = _tron(CORNER)
    # (0, 0): north and west are off the map, south is the wall at (1, 0)
    assert tron.safe_moves(s, 0) == [tron.EAST]
    # (2, 3), the bottom-right corner of a map without border walls
    assert tron.safe_moves(s, 1) == [tron.NORTH, tron.WEST]


@pytest.mark.parametrize("compat", tron.COMPATS)
def test_a_head_on_collision_names_its_cause_for_both(compat):
    s = tron.GAME.apply(_tron("3 1\n1 2\n", compat), {0: tron.EAST, 1: tron.WEST})
    assert s.collided and s.crashed == (True, True)
    assert tuple(s.causes) == ("collision", "collision")


def test_initial_state_refuses_a_map_of_another_game_or_without_two_starts():
    two = parse_map(CORNER, game="tron")
    for game_map in (replace(two, game="isolation"), replace(two, starts=two.starts[:1])):
        with pytest.raises(ValueError, match="not a tron map with two starts"):
            tron.GAME.initial_state(game_map)


def test_summary_counts_the_blocked_squares_after_a_turn():
    s = tron.GAME.apply(_tron(CORNER), {0: tron.EAST, 1: tron.NORTH})
    out = tron.GAME.summary(s)
    assert out["turn"] == 1 and out["heads"] == [[0, 1], [1, 3]]
    assert out["crashed"] == [False, False] and out["collided"] is False
    # the wall, both starts (now trail) and both heads
    assert out["blocked_count"] == 5 and len(out["blocked_sha1"]) == 40


def test_summarize_map_adds_the_duel_figures_for_two_starts():
    out = tron.GAME.summarize_map(parse_map(CORNER, game="tron"))
    assert {"voronoi", "chambers", "parity_bound"} <= set(out)
    assert out["free_cells"] == 11


# --- atlas/sim/records/ --------------------------------------------------------------


def _tron_record() -> records.Record:
    """A two-turn tron game: seat 1 runs into the wall at turn 2."""
    game_map = parse_map("4 2\n1  2\n    \n", game="tron")
    builder = records.RecordBuilder("tron", game_map, None, ["random", "wallhugger"], 7)
    state = tron.GAME.initial_state(game_map)
    for moves in ({0: tron.EAST, 1: tron.SOUTH}, {0: tron.SOUTH, 1: tron.EAST}):
        builder.add_turn(moves, {0: 0.001, 1: 0.002})
        state = tron.GAME.apply(state, moves)
    outcome = tron.GAME.outcome(state)
    assert outcome is not None and outcome.winner == 0
    return builder.finish(state, outcome)


def test_player_identity_tells_players_apart_whatever_they_are_called():
    assert records.PlayerEntry("minimax").identity == "builtin:minimax"
    assert records.PlayerEntry("mm", bot="minimax").identity == "builtin:minimax=mm"
    assert records.PlayerEntry("x", "external", "python x.py").identity == (
        "external:x:python x.py"
    )
    assert records.PlayerEntry("x", "external", "python x.py", digest="ab").identity == (
        "external:x:ab"
    )
    assert records.PlayerEntry("x", "external").identity == "external:x:"


def test_a_record_without_stderr_writes_one_empty_string_per_seat():
    record = _tron_record()
    assert record.num_players == 2
    assert record.to_json()["stderr"] == ["", ""]


def test_clean_info_of_something_that_is_not_a_mapping_is_empty():
    assert records.clean_info([("depth", 3)]) == {}
    assert records.clean_info(None) == {}


def test_is_record_file_knows_a_saved_record_from_other_json(tmp_path):
    path = tmp_path / "game.json"
    records.save_record(_tron_record(), path)
    other = tmp_path / "other.json"
    other.write_text('{"format": "something-else"}\n')
    assert records.is_record_file(path) and not records.is_record_file(other)


def _refused(data: dict, match: str) -> None:
    with pytest.raises(RecordError, match=match):
        records.record_from_json(data, "game.json")


def test_a_winner_one_past_the_last_seat_is_refused():
    data = _tron_record().to_json()
    data["result"]["winner"] = 2
    _refused(data, r"result\.winner is seat 2; seats are 0\.\.1")
    data["result"]["winner"] = 1
    records.record_from_json(data, "game.json")  # a seat: read (verify judges it)


def test_a_status_turn_must_be_one_of_the_record_s_turns():
    data = _tron_record().to_json()
    data["statuses"][1] = {"status": "crashed", "turn": 1, "detail": ""}
    assert records.record_from_json(data, "game.json").statuses[1].turn == 1
    data["statuses"][1]["turn"] = 2
    _refused(data, r"statuses\[1\]\.turn is 2; the record has 2 turns")


def test_long_bad_values_are_cut_to_forty_characters_in_the_message():
    data = _tron_record().to_json()
    data["result"]["scores"] = ["x" * 36]  # 40 characters as JSON: shown whole
    _refused(data, 'got \\["x{36}"\\]$')
    data["result"]["scores"] = [1.0, 0.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]
    text = json.dumps(data["result"]["scores"])
    _refused(data, re.escape(f"got {text[:37]}..."))


def test_why_a_move_cannot_be_played_names_an_unexpected_error():
    assert records.verify._why(KeyError("x")) == "the move cannot be played (KeyError: 'x')"
    assert records.verify._why(InvalidMoveError("bad move")) == "bad move"


# --- atlas/games/tron/protocol.py: the served side's watchdog and board reader ------


def _board(*rows: str) -> np.ndarray:
    return np.array([list(r) for r in rows], dtype="<U1")


@pytest.mark.parametrize(
    ("rows", "digit"),
    [
        (("  1    ",), tron.EAST),  # one row, no walls: 4 cells east, 2 west
        (("    1  ",), tron.WEST),
        (("2", " ", "1"), tron.NORTH),  # one column: only north is open
        (("1", " ", " "), tron.SOUTH),
        # two rooms of 3 cells; the south one's entrance has 2 free neighbours
        (("#   ", "#1##", "#  #", "# ##"), tron.SOUTH),
        (("#2##",), tron.NORTH),  # no head of ours: north
        (("#1#", "###"), tron.NORTH),  # boxed in: north
    ],
)
def test_safe_digit_takes_the_most_room_at_the_edges_too(rows, digit):
    from atlas.games.tron.protocol import safe_digit

    assert safe_digit(_board(*rows)) == digit


def test_read_board_pads_short_rows_and_refuses_bad_sizes():
    from atlas.games.tron.protocol import _read_board

    board = _read_board(io.BytesIO(b"#1\n  2\n"), b"3 2\n")
    assert board is not None and ["".join(r) for r in board] == ["#1 ", "  2"]
    for header in (b"x 2\n", b"0 2\n", b"3 0\n", b"10001 1\n", b"1 10001\n"):
        assert _read_board(io.BytesIO(b"#\n" * 3), header) is None, header
    wide = _read_board(io.BytesIO(b"#\n"), b"10000 1\n")
    assert wide is not None and wide.shape == (1, 10_000)
    tall = _read_board(io.BytesIO(b""), b"1 10000\n")
    assert tall is not None and tall.shape == (10_000, 1)
