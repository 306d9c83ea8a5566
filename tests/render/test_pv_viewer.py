"""What the bots expected, in the viewer's data (:mod:`atlas.render.viewer`, ``pv``):
each turn's principal variation becomes the cells it goes to, followed by the rules from
the position before the turn; a hostile record (a line of 100,000 moves, moves off the
board or of the wrong form) gives what can be drawn, at most 12 cells a line, and says
what it dropped."""

from __future__ import annotations

import json

import numpy as np
import pytest
from render_helpers import read_varints

from atlas.maps import parse_map
from atlas.render.registry import render_of
from atlas.render.viewer import pack_viewer, viewer_data
from atlas.sim import get_game
from atlas.sim.records import RecordBuilder, load_record, replay_states, save_record

ISOLATION = "isolation 6 6 queen\n1.....\n......\n..#...\n......\n......\n.....2\n"
CONNECT = "connect5 6 5 4\n"
TRON = "9 6\n#########\n#1      #\n#  # #  #\n#       #\n#      2#\n#########\n"


def _lookahead(game, state, seat, rng, plies):
    """A line of ``plies`` random legal moves from ``state``, ``seat`` first, and the
    cells they go to (the truth the viewer's cells are checked against)."""
    moves, cells = [], []
    s = state
    for i in range(plies):
        if game.outcome(s) is not None:
            break
        (who,) = game.to_move(s)
        m = game.random_move(s, who, rng)
        if i == 0:
            assert who == seat
        if hasattr(s, "heights"):  # connect5: the disc lands on its column's lowest row
            cells.append((s.board.shape[0] - 1 - int(s.heights[m]), int(m)))
        else:
            cells.append((int(m[0]), int(m[1])))
        moves.append(m)
        s = game.apply(s, {who: m})
    return moves, cells


def _alternating_record(text, game_name, seed=1):
    game = get_game(game_name)
    gm = parse_map(text, game=game_name, name="m")
    rng = np.random.default_rng(seed)
    state = game.initial_state(gm)
    builder = RecordBuilder(game, gm, None, ["a", "b"], seed)
    truth = []
    while game.outcome(state) is None:
        (seat,) = game.to_move(state)
        line, cells = _lookahead(game, state, seat, rng, 1 + int(rng.integers(7)))
        builder.add_turn({seat: line[0]}, {seat: 0.001}, {seat: {"depth": 3, "pv": line}})
        truth.append((seat, cells))
        state = game.apply(state, {seat: line[0]})
    return builder.finish(state, game.outcome(state)), truth


def _lines(packed, seats=2):
    """The packed ``pv`` stream as ``[turn][seat] -> [cell, ...]``."""
    values = read_varints(__import__("base64").b64decode(packed["pv"]))
    at, out = 0, []
    for _ in range(packed["last"]):
        row = []
        for _ in range(seats):
            n = values[at]
            at += 1
            line = []
            for j in range(n):
                z = values[at]
                at += 1
                d = -(z + 1) // 2 if z % 2 else z // 2
                line.append((line[j - 2] if j >= 2 else 0) + d)
            row.append(line)
        out.append(row)
    assert at == len(values)
    return out


@pytest.mark.parametrize(
    ("text", "game_name"), [(ISOLATION, "isolation"), (CONNECT, "connect5")]
)
def test_each_turns_line_becomes_the_cells_its_moves_go_to(text, game_name):
    record, truth = _alternating_record(text, game_name)
    data = viewer_data(record)
    w = record.game_map().width
    assert data["pv_dropped"] == []
    lines = _lines(pack_viewer(data))
    for i, (seat, cells) in enumerate(truth):
        assert data["pv"][seat][i] == [r * w + c for r, c in cells]
        assert lines[i][seat] == data["pv"][seat][i]
        assert lines[i][1 - seat] == []


def test_tron_lines_follow_both_heads_and_stop_at_a_wall():
    game = get_game("tron")
    gm = parse_map(TRON, game="tron", name="t")
    state = game.initial_state(gm)
    builder = RecordBuilder(game, gm, None, ["a", "b"], 0)
    # seat 0 at (1, 1) expects east, the reply west from (4, 7), east, west, then north
    # into the wall: the last move is not drawn
    builder.add_turn({0: 2, 1: 4}, None, {0: {"pv": [2, 4, 2, 4, 1]}, 1: {"pv": [4, 2, 9]}})
    state = game.apply(state, {0: 2, 1: 4})
    while game.outcome(state) is None:  # the rest of the game: both stand still, crash
        builder.add_turn({0: 3, 1: 1})
        state = game.apply(state, {0: 3, 1: 1})
    record = builder.finish(state, game.outcome(state))
    data = viewer_data(record, replay_states(record))
    w = gm.width
    assert data["pv"][0][0] == [1 * w + 2, 4 * w + 6, 1 * w + 3, 4 * w + 5]
    assert data["pv"][1][0] == [4 * w + 6, 1 * w + 2]
    assert data["pv_dropped"] == [[1, 0, 1], [1, 1, 1]]


def test_a_hostile_record_gives_what_can_be_drawn_and_says_what_it_dropped(tmp_path):
    record, truth = _alternating_record(ISOLATION, "isolation", seed=4)
    doc = record.to_json()
    seat0, cells0 = truth[0]
    first = doc["turns"][0]["info"][str(seat0)]
    first["pv"] = first["pv"][:1] + [[99, 99]] + [[1, 1]] * 100_000  # off the board
    doc["turns"][1]["info"][str(truth[1][0])]["pv"] = ["x", {"a": [1]}, None, -5, 1e300]
    doc["turns"][2]["info"][str(truth[2][0])]["pv"] = []
    doc["turns"][3]["info"][str(truth[3][0])]["pv_cut"] = 7
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    loaded = load_record(path)
    data = viewer_data(loaded)
    w = loaded.game_map().width
    assert data["pv"][seat0][0] == [cells0[0][0] * w + cells0[0][1]]
    assert data["pv"][truth[1][0]][1] is None
    dropped = {(t, s): n for t, s, n in data["pv_dropped"]}
    assert dropped[(1, seat0)] == 1 + 100_000  # all but the move played
    assert dropped[(2, truth[1][0])] == 5
    assert dropped[(4, truth[3][0])] == 7 + len(truth[3][1]) - len(data["pv"][truth[3][0]][3])
    packed = pack_viewer(data)
    assert all(len(line) <= 12 for row in _lines(packed) for line in row)
    assert len(packed["pv"]) < 40 * len(loaded.turns)  # bounded by the turns, not the record
    # a line written by the record builder is bounded when the game is played too
    save_record(loaded, tmp_path / "again.json")


def test_records_without_lines_have_no_pv_data(tron25):
    from render_helpers import play_record

    record = play_record("tron", tron25, seed=1)
    data = viewer_data(record)
    assert "pv" not in data and "pv_dropped" not in data
    assert "pv" not in pack_viewer(data)


def test_only_games_with_move_cells_draw_lines():
    render = render_of("outpost")
    assert render.pv_cells(get_game("outpost"), None, 0, [[]]) == []
