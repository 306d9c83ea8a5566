"""Tests of the connect5 bots: the seed's window4 and the strong alpha-beta."""

from __future__ import annotations

import time

import numpy as np
import pytest

from atlas.bots import make_bot
from atlas.bots.connect5_strong import WIN, StrongConnect5Bot, _load, _weights
from atlas.bots.connect5_window import Window4Bot, move_score, seed_scores, window_table
from atlas.sim.connect5 import GAME, Connect5State


def _state(rows: int, cols: int, discs: dict[tuple[int, int], int], inarow: int = 5
           ) -> Connect5State:
    """A position from ``{(row, col): seat}``; the side to move follows from the counts."""
    board = np.zeros((rows, cols), np.int8)
    for (r, c), seat in discs.items():
        board[r, c] = seat + 1
    heights = (board != 0).sum(axis=0).astype(np.int32)
    n0, n1 = int((board == 1).sum()), int((board == 2).sum())
    assert n0 - n1 in (0, 1)
    return Connect5State(board, heights, n0 - n1, n0 + n1, inarow)


def _windows_reference(rows: int, cols: int, inarow: int) -> set[tuple[int, ...]]:
    out = set()
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + k * dr, c + k * dc) for k in range(inarow)]
                if all(0 <= a < rows and 0 <= b < cols for a, b in cells):
                    out.add(tuple(a * cols + b for a, b in cells))
    return out


@pytest.mark.parametrize("rows, cols, inarow", [(6, 9, 5), (6, 7, 4), (3, 3, 3)])
def test_window_table_lists_every_line_once(rows, cols, inarow):
    windows, ptr, per_cell = window_table(rows, cols, inarow)
    found = {tuple(w) for w in windows.tolist()}
    assert found == _windows_reference(rows, cols, inarow)
    assert len(found) == len(windows)
    for cell in range(rows * cols):
        listed = {int(w) for w in per_cell[ptr[cell]:ptr[cell + 1]]}
        assert listed == {i for i, w in enumerate(windows.tolist()) if cell in w}
    if (rows, cols, inarow) == (6, 9, 5):
        assert len(windows) == 30 + 18 + 10 + 10  # rows, columns, two diagonals


def test_seed_scores_are_the_seed_table():
    assert seed_scores(5).tolist() == [0, 10, 100, 1000, 10000]


def test_window4_move_score_matches_a_hand_count():
    # seat 0 on the bottom row at columns 0, 1, 2; its new disc lands at (5, 3).
    # Horizontal windows through (5, 3) start at columns 0..3 and hold 4, 3, 2, 1 of its
    # discs -> 1000 + 100 + 10 + 0; the vertical and the one diagonal window hold 1 -> 0.
    st = _state(6, 9, {(5, 0): 0, (5, 1): 0, (5, 2): 0, (4, 0): 1, (4, 1): 1, (4, 2): 1})
    windows, ptr, per_cell = window_table(6, 9, 5)
    board = st.board.ravel().copy()
    board[5 * 9 + 3] = 1
    score, won = move_score(board, 5 * 9 + 3, 1, windows, ptr, per_cell, seed_scores(5))
    assert (score, won) == (1110, False)
    # an opposing disc at (5, 5) kills the windows starting at columns 1, 2, 3
    board[5 * 9 + 5] = 2
    score, _ = move_score(board, 5 * 9 + 3, 1, windows, ptr, per_cell, seed_scores(5))
    assert score == 1000
    # depth 1: a column's value is the move score of the side to move (seat 0)
    bot = Window4Bot(seed=0, depth=1)
    values = bot.values(st, 0, time.perf_counter() + 5)
    assert values[3] == 1110 and values[4] == 1110  # the same four windows, mirrored
    assert values[0] == 0   # (3, 0): its vertical windows hold seat 1's (4, 0)
    assert bot.move(st.copy(), 0, time.perf_counter() + 5) in (3, 4)


@pytest.mark.parametrize("name", ["window4", "strong"])
def test_blocks_a_four(name):
    # seat 0 has four on the bottom row, open at column 4; seat 1 must block there
    st = _state(6, 9, {(5, 0): 0, (5, 1): 0, (5, 2): 0, (5, 3): 0,
                       (4, 0): 1, (4, 1): 1, (4, 2): 1})
    assert st.to_play == 1
    bot = make_bot("connect5", name, seed=1)
    assert bot.move(st.copy(), 1, time.perf_counter() + 1.0) == 4


@pytest.mark.parametrize("name", ["window4", "strong"])
def test_takes_an_immediate_win_over_a_block(name):
    # seat 1 threatens (5, 4); seat 0 can win at once on top of column 8
    discs = {(5, 0): 1, (5, 1): 1, (5, 2): 1, (5, 3): 1,
             (5, 8): 0, (4, 8): 0, (3, 8): 0, (2, 8): 0}
    st = _state(6, 9, discs)
    assert st.to_play == 0
    bot = make_bot("connect5", name, seed=2)
    assert bot.move(st.copy(), 0, time.perf_counter() + 1.0) == 8


def test_strong_finds_a_forced_win_in_connect_four():
    # seat 0 on (5, 2), (5, 3): columns 1 and 4 make an open three on the bottom row
    st = _state(6, 7, {(5, 2): 0, (5, 3): 0, (5, 6): 1, (4, 6): 1}, inarow=4)
    bot = StrongConnect5Bot(seed=0)
    move = bot.move(st.copy(), 0, time.perf_counter() + 2.0)
    assert move in (1, 4)
    assert bot.last_score > WIN - 1000


def _reference_eval(board: np.ndarray, inarow: int, bonus: tuple[int, int]) -> int:
    """Plain-Python value from seat 0's side: window weights plus threat squares."""
    rows, cols = board.shape
    weights = _weights(inarow)
    total = 0
    threat = set()
    for w in _windows_reference(rows, cols, inarow):
        vals = [board.flat[c] for c in w]
        a, b = vals.count(1), vals.count(2)
        if b == 0:
            total += int(weights[a])
        elif a == 0:
            total -= int(weights[b])
        for seat, own, other in ((0, a, b), (1, b, a)):
            if own == inarow - 1 and other == 0:
                threat.add((seat, next(c for c in w if board.flat[c] == 0)))
    for seat, cell in threat:
        height = rows - cell // cols
        good = (height % 2 == 1) == (seat == 0)
        v = bonus[0] if good else bonus[1]
        total += v if seat == 0 else -v
    return total


@pytest.mark.parametrize("inarow, rows, cols", [(5, 6, 9), (4, 6, 7)])
def test_strong_incremental_evaluation_matches_a_full_count(inarow, rows, cols):
    rng = np.random.default_rng(7)
    bot = StrongConnect5Bot(seed=0)
    bot._setup(rows, cols, inarow)
    for _ in range(20):
        st = GAME.initial_state(_blank_map(rows, cols, inarow))
        for _ in range(int(rng.integers(3, 25))):
            if GAME.outcome(st) is not None:
                break
            st = GAME.apply(st, {st.to_play: GAME.random_move(st, st.to_play, rng)})
        start = st.board.ravel().astype(np.int8)
        board = np.zeros_like(start)
        wcount = np.zeros((bot.windows.shape[0], 2), np.int64)
        threats = np.zeros((rows * cols, 2), np.int64)
        status = np.zeros(6, np.int64)
        status[3] = rows * cols
        key = np.zeros(1, np.uint64)
        _load(start, board, bot.windows, wcount, bot.cell_ptr, bot.cell_windows, bot.weights,
              threats, bot.bonus, rows, cols, status, bot.zob, key)
        assert (board == start).all()
        expected = _reference_eval(st.board, inarow, tuple(int(v) for v in bot.bonus))
        assert status[0] == expected
        assert status[3] == int((start == 0).sum())


def _blank_map(rows: int, cols: int, inarow: int):
    from atlas.maps import GameMap
    return GameMap("connect5", "t", np.zeros((rows, cols), bool), (), {"inarow": inarow})


@pytest.mark.parametrize("name", ["window4", "strong"])
def test_bots_answer_legal_moves_in_time(name):
    rng = np.random.default_rng(3)
    bot = make_bot("connect5", name, seed=0)
    st = GAME.initial_state(_blank_map(6, 9, 5))
    bot.move(st.copy(), 0, time.perf_counter() + 0.5)  # compiles outside the timing
    for plies in (0, 7, 19, 33):
        st = GAME.initial_state(_blank_map(6, 9, 5))
        for _ in range(plies):
            if GAME.outcome(st) is not None:
                break
            st = GAME.apply(st, {st.to_play: GAME.random_move(st, st.to_play, rng)})
        if GAME.outcome(st) is not None:
            continue
        p = st.to_play
        deadline = time.perf_counter() + 0.15
        move = bot.move(st.copy(), p, deadline)
        assert time.perf_counter() <= deadline + 0.05  # scheduling slack on a busy machine
        assert move in GAME.legal_moves(st, p)
