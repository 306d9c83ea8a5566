"""Connect5 rules: gravity, lines in four directions, draws, forfeits, in-place play."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from atlas.errors import IllegalMoveError, InvalidMoveError
from atlas.games.connect5 import rules as connect5
from atlas.games.connect5.rules import GAME
from atlas.maps import parse_map, read_map

REPO = Path(__file__).resolve().parents[2]


def play(columns: list[int], text: str | None = None, **params) -> connect5.Connect5State:
    game_map = connect5.default_map() if text is None else parse_map(text, game="connect5")
    s = GAME.initial_state(game_map, params)
    for col in columns:
        s = GAME.apply(s, {s.to_play: col})
    return s


def reference_winner(board: np.ndarray, k: int) -> set[int]:
    """Seats with k equal discs in a line, by scanning every window on the board."""
    rows, cols = board.shape
    found = set()
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (-1, 1)):
                cells = [(r + i * dr, c + i * dc) for i in range(k)]
                if all(0 <= a < rows and 0 <= b < cols for a, b in cells):
                    vals = {int(board[a, b]) for a, b in cells}
                    if len(vals) == 1 and vals != {0}:
                        found.add(vals.pop() - 1)
    return found


def test_default_board_and_gravity():
    s = GAME.initial_state(connect5.default_map())
    assert s.board.shape == (6, 9) and s.board.dtype == np.int8
    assert s.heights.dtype == np.int32 and s.inarow == 5
    assert GAME.legal_moves(s, 0) == list(range(9)) and GAME.legal_moves(s, 1) == []
    s2 = play([4, 4, 0])
    assert s2.board[5, 4] == 1 and s2.board[4, 4] == 2 and s2.board[5, 0] == 1
    assert s2.heights.tolist() == [1, 0, 0, 0, 2, 0, 0, 0, 0]
    assert (s2.to_play, s2.turn) == (1, 3)
    assert s.board.sum() == 0 and s.turn == 0, "apply modified its input"


@pytest.mark.parametrize(
    "moves, winner",
    [
        ([0, 0, 1, 1, 2, 2, 3, 3, 4], 0),  # horizontal, bottom row
        ([8, 0, 8, 0, 8, 0, 8, 0, 7, 0], 1),  # vertical
        ([0, 1, 1, 2, 8, 2, 2, 3, 8, 3, 7, 3, 3, 4, 7, 4, 6, 4, 6, 4, 4], 0),  # up-right
        ([8, 7, 7, 6, 0, 6, 6, 5, 0, 5, 1, 5, 5, 4, 1, 4, 2, 4, 2, 4, 4], 0),  # up-left
    ],
)
def test_lines_in_all_four_directions_win(moves, winner):
    s = play(moves[:-1])
    assert GAME.outcome(s) is None
    s = play(moves)
    out = GAME.outcome(s)
    assert (out.winner, out.reason) == (winner, "win")
    assert out.scores == ((1.0, 0.0) if winner == 0 else (0.0, 1.0))
    assert reference_winner(s.board, 5) == {winner}
    assert GAME.to_move(s) == () and GAME.legal_moves(s, s.to_play) == []


def test_four_in_a_row_is_not_enough_by_default_but_is_with_inarow_4():
    moves = [0, 0, 1, 1, 2, 2, 3]
    assert GAME.outcome(play(moves)) is None
    out = GAME.outcome(play(moves, inarow=4))
    assert (out.winner, out.reason) == (0, "win")
    game_map = read_map(REPO / "maps" / "connect5" / "connect4.txt")
    s = GAME.initial_state(game_map)
    assert s.inarow == 4 and s.board.shape == (6, 7)


def test_full_board_is_a_draw():
    # 4 columns x 2 rows, three in a row: the drops give rows ABAB (bottom) and BABA.
    s = play([0, 1, 1, 0, 2, 3, 3, 2], "connect5 4 2 3\n")
    assert reference_winner(s.board, 3) == set()
    out = GAME.outcome(s)
    assert (out.winner, out.reason, out.scores) == (None, "draw", (0.5, 0.5))
    assert GAME.to_move(s) == ()


def test_full_column_and_off_board_are_illegal():
    s = play([0] * 6)
    assert 0 not in GAME.legal_moves(s, 0)
    with pytest.raises(IllegalMoveError, match="column 0 is full"):
        GAME.apply(s, {0: 0})
    with pytest.raises(IllegalMoveError, match="off the board"):
        GAME.apply(s, {0: 9})
    with pytest.raises(IllegalMoveError, match="seat 0 is to move"):
        GAME.apply(s, {1: 3})


def test_none_loses():
    s = GAME.apply(play([3]), {1: None})
    out = GAME.outcome(s)
    assert (out.winner, out.scores) == (0, (1.0, 0.0))


def test_move_json_and_parameters():
    assert GAME.move_from_json(GAME.move_to_json(3)) == 3
    for bad in ("3", 3.0, True, None, [3]):
        with pytest.raises(InvalidMoveError, match="column index"):
            GAME.move_from_json(bad)
    with pytest.raises(ValueError, match="inarow"):
        GAME.initial_state(connect5.default_map(), {"inarow": 10})
    with pytest.raises(ValueError, match="unknown connect5 parameter"):
        GAME.initial_state(connect5.default_map(), {"rows": 10})


def test_random_games_agree_with_the_reference_line_scan():
    rng = np.random.default_rng(8)
    for text in ("connect5 9 6 5\n", "connect5 7 6 4\n", "connect5 5 5 3\n"):
        game_map = parse_map(text, game="connect5")
        for _ in range(25):
            s = GAME.initial_state(game_map)
            while GAME.outcome(s) is None:
                assert reference_winner(s.board, s.inarow) == set()
                s = GAME.apply(s, {s.to_play: GAME.random_move(s, s.to_play, rng)})
            out = GAME.outcome(s)
            want = reference_winner(s.board, s.inarow)
            if out.winner is None:
                assert want == set() and s.heights.sum() == s.board.size
            else:
                assert want == {out.winner} and out.winner == 1 - s.to_play


def test_play_inplace_and_undo_restore_exactly():
    rng = np.random.default_rng(9)
    s = GAME.initial_state(connect5.default_map())
    snapshots, cols = [], []
    while GAME.outcome(s) is None:
        snapshots.append(GAME.summary(s))
        col = GAME.random_move(s, s.to_play, rng)
        expected = GAME.apply(s, {s.to_play: col})
        connect5.play_inplace(s, col)
        cols.append(col)
        assert GAME.summary(s) == GAME.summary(expected)
    while cols:
        connect5.undo(s, cols.pop())
        assert GAME.summary(s) == snapshots.pop()
    assert not s.board.any() and not s.heights.any()


def test_docstring_examples():
    import doctest

    result = doctest.testmod(connect5, raise_on_error=False, verbose=False)
    assert result.attempted >= 3 and result.failed == 0
