"""Tests of the connect5 bots: the seed's window4 and the strong alpha-beta."""

from __future__ import annotations

import time

import numpy as np
import pytest

from atlas.bots import make_bot
from atlas.bots.search import S_ABORT, S_EMPTY, S_SCORE, new_status
from atlas.games.connect5.bots.bitboard import (
    _bb_eval,
    _bb_parity,
    _bb_wins,
    bit_geometry,
    bit_search,
    bit_search_context,
    bitboards,
)
from atlas.games.connect5.bots.search import (
    PARITY,
    WIN,
    _parity_weights,
    _update,
    _weights,
    _zugzwang,
)
from atlas.games.connect5.bots.strong import StrongConnect5Bot
from atlas.games.connect5.bots.window import Window4Bot, move_score, seed_scores, window_table
from atlas.games.connect5.rules import GAME, Connect5State, is_winning_drop
from tests.conftest import benchmark_module


def _state(
    rows: int, cols: int, discs: dict[tuple[int, int], int], inarow: int = 5
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
        listed = {int(w) for w in per_cell[ptr[cell] : ptr[cell + 1]]}
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
    assert values[0] == 0  # (3, 0): its vertical windows hold seat 1's (4, 0)
    assert bot.move(st.copy(), 0, time.perf_counter() + 5) in (3, 4)


@pytest.mark.parametrize("name", ["window4", "strong"])
def test_blocks_a_four(name):
    # seat 0 has four on the bottom row, open at column 4; seat 1 must block there
    st = _state(
        6, 9, {(5, 0): 0, (5, 1): 0, (5, 2): 0, (5, 3): 0, (4, 0): 1, (4, 1): 1, (4, 2): 1}
    )
    assert st.to_play == 1
    bot = make_bot("connect5", name, seed=1)
    assert bot.move(st.copy(), 1, time.perf_counter() + 1.0) == 4


@pytest.mark.parametrize("name", ["window4", "strong"])
def test_takes_an_immediate_win_over_a_block(name):
    # seat 1 threatens (5, 4); seat 0 can win at once on top of column 8
    discs = {
        (5, 0): 1,
        (5, 1): 1,
        (5, 2): 1,
        (5, 3): 1,
        (5, 8): 0,
        (4, 8): 0,
        (3, 8): 0,
        (2, 8): 0,
    }
    st = _state(6, 9, discs)
    assert st.to_play == 0
    bot = make_bot("connect5", name, seed=2)
    assert bot.move(st.copy(), 0, time.perf_counter() + 1.0) == 8


@pytest.mark.parametrize("name", ["window4", "strong"])
def test_searches_when_the_move_is_shorter_than_the_margin(name, tick_clock):
    # The site's tournament gives 20 ms a move, no more than window4 keeps in hand: the bot
    # must still search (a fifth of the budget) and see the win, not play a fallback.
    # On the injected tick clock (10 us a read): the budget is clock reads, not speed.
    tick_clock.tick = 1e-5
    discs = {
        (5, 0): 1,
        (5, 1): 1,
        (5, 2): 1,
        (5, 3): 1,
        (5, 8): 0,
        (4, 8): 0,
        (3, 8): 0,
        (2, 8): 0,
    }
    st = _state(6, 9, discs)
    bot = make_bot("connect5", name, seed=2)
    bot.start()
    assert bot.move(st.copy(), 0, time.perf_counter() + bot.margin) == 8


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


def _parity_reference(board: np.ndarray, inarow: int, parity: np.ndarray) -> int:
    """Plain-Python parity windows from seat 0's side: a window free of the other seat
    with e >= 2 empty cells, all on the seat's rows (odd heights for seat 0), is worth
    ``parity[e]``."""
    rows, cols = board.shape
    total = 0
    for w in _windows_reference(rows, cols, inarow):
        vals = [int(board.flat[c]) for c in w]
        heights = [rows - c // cols for c in w if board.flat[c] == 0]
        for seat, sign in ((0, 1), (1, -1)):
            if (2 - seat) in vals or len(heights) < 2:
                continue
            if all((h % 2 == 1) == (seat == 0) for h in heights):
                total += sign * int(parity[len(heights)])
    return total


def _loaded(bot, start, rows, cols):
    """The array search's context after :func:`_load` of the flat board ``start``, as
    the bot builds it (evaluation in ``status[S_SCORE]``)."""
    heights = (start.reshape(rows, cols) != 0).sum(axis=0).astype(np.int32)
    return bot.window_search(start, heights, rows, cols, bot._geometry[2], 0.0)


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
        g = _loaded(bot, start, rows, cols)
        board, status = g.board, g.status
        assert (board == start).all()
        expected = _reference_eval(st.board, inarow, tuple(int(v) for v in bot.bonus))
        expected += _parity_reference(st.board, inarow, bot.parity)
        assert status[S_SCORE] == expected
        assert status[S_EMPTY] == int((start == 0).sum())
        # take back the top disc of a column (as the search's undo does)
        filled = [c for c in range(cols) if st.heights[c] > 0]
        if filled:
            c = int(rng.choice(filled))
            r = rows - int(st.heights[c])
            cell = r * cols + c
            _update(g, cell, int(board[cell]) - 1, -1)
            after = st.board.copy()
            after[r, c] = 0
            bonus = tuple(int(v) for v in bot.bonus)
            assert status[S_SCORE] == (
                _reference_eval(after, inarow, bonus)
                + _parity_reference(after, inarow, bot.parity)
            )


def _blank_map(rows: int, cols: int, inarow: int):
    from atlas.maps import GameMap

    return GameMap("connect5", "t", np.zeros((rows, cols), bool), (), {"inarow": inarow})


@pytest.mark.parametrize("name", ["window4", "strong"])
def test_bots_answer_legal_moves_in_time(name, moves_in_time):
    moves_in_time(
        "connect5",
        make_bot("connect5", name, seed=0),
        _blank_map(6, 9, 5),
        (0, 7, 19, 33),
        seed=3,
    )


# ------------------------------------------------------------------ bitboard search


def _random_state(
    rows: int, cols: int, inarow: int, plies: int, rng: np.random.Generator
) -> Connect5State:
    """A random position of at most ``plies`` discs that is not over."""
    while True:
        st = GAME.initial_state(_blank_map(rows, cols, inarow))
        for _ in range(plies):
            if GAME.outcome(st) is not None:
                break
            st = GAME.apply(st, {st.to_play: GAME.random_move(st, st.to_play, rng)})
        if GAME.outcome(st) is None:
            return st


def _winning_cells_reference(board: np.ndarray, seat: int, inarow: int) -> set[tuple[int, int]]:
    """Every cell (occupied or not) that would complete a line of ``seat`` if it were its."""
    rows, cols = board.shape
    out = set()
    for w in _windows_reference(rows, cols, inarow):
        cells = [divmod(c, cols) for c in w]
        other = [rc for rc in cells if board[rc] != seat + 1]
        if len(other) == 1:
            out.add(other[0])
    return out


def _bits_to_cells(bits: int, rows: int, cols: int) -> set[tuple[int, int]]:
    h1 = rows + 1
    return {(rows - 1 - (b % h1), b // h1) for b in range(cols * h1) if (bits >> b) & 1}


def test_bit_geometry_only_for_boards_of_64_bits():
    bot = StrongConnect5Bot()
    bot._setup(6, 9, 5)  # 9 * 7 = 63 bits
    geo = bit_geometry(6, 9, 5, bot.bonus, bot.weights)
    assert geo is not None
    assert bin(int(geo[4]) & ((1 << 64) - 1)).count("1") == 54  # every cell, no sentinel
    assert bit_geometry(7, 8, 5, bot.bonus, bot.weights) is not None  # 64 bits
    assert bit_geometry(6, 10, 5, bot.bonus, bot.weights) is None  # 70 bits
    assert bit_geometry(8, 8, 5, bot.bonus, bot.weights) is None  # 72 bits


def test_bitboards_of_a_position():
    st = _state(6, 9, {(5, 0): 0, (4, 0): 1, (5, 8): 0})
    own, allb = bitboards(st.board.ravel(), 6, 9, 1)
    # column c starts at bit 7 * c, the bottom row is bit 0 of its column
    assert allb == (1 << 0) | (1 << 1) | (1 << 56)
    assert own == 1 << 1


@pytest.mark.parametrize(
    "rows, cols, inarow", [(6, 9, 5), (6, 7, 4), (4, 4, 3), (7, 8, 6), (5, 5, 2)]
)
def test_bitboard_winning_cells_match_a_window_scan(rows, cols, inarow):
    rng = np.random.default_rng(inarow)
    bot = StrongConnect5Bot()
    bot._setup(rows, cols, inarow)
    for _ in range(25):
        st = _random_state(rows, cols, inarow, int(rng.integers(0, rows * cols // 2)), rng)
        for seat in (0, 1):
            own, _ = bitboards(st.board.ravel(), rows, cols, seat)
            got = _bits_to_cells(int(_bb_wins(own, bot.geo)), rows, cols)
            assert got == _winning_cells_reference(st.board, seat, inarow)


def test_parity_weights_follow_the_measured_shares():
    # In units of a window one disc short of a line (8 ** (inarow - 2), counted here):
    # two empty cells get PARITY[0] of it, three PARITY[1], every other count nothing
    # (one empty cell is a threat, scored apart; a window cannot have inarow empties
    # and count).  Whatever shares are measured, the closer line counts more.
    assert PARITY[0] > PARITY[1] > 0
    for inarow in range(3, 9):
        unit = 8 ** (inarow - 2)
        want = [0] * (inarow + 1)
        for e, share in ((2, PARITY[0]), (3, PARITY[1])):
            if e < inarow:
                want[e] = int(round(share * unit))
        assert _parity_weights(inarow).tolist() == want, inarow
        assert unit == _weights(inarow)[inarow - 1]  # the unit is that window's value


def test_parity_windows_count_claimeven_lines():
    # X on the bottom row (height 1, odd: X's rows) at columns 0, 1, 2; O above it at
    # columns 0, 1 (height 2, even: O's rows) and at the bottom of column 8.
    st = _state(6, 9, {(5, 0): 0, (5, 1): 0, (5, 2): 0, (4, 0): 1, (4, 1): 1, (5, 8): 1})
    bot = StrongConnect5Bot()
    bot._setup(6, 9, 5)
    x0, mask = bitboards(st.board.ravel(), 6, 9, 0)
    p2, p3 = int(bot.parity[2]), int(bot.parity[3])
    # X: bottom windows over columns 0..4 (empties 3, 4 at height 1) and 1..5 (three
    # empties); O: the height-2 window over columns 0..4 (three empties at height 2).
    # Vertical and diagonal windows mix heights, and columns 2..6 has four empties.
    assert _bb_parity(x0, x0 ^ mask, bot.geo) == (p2 + p3) - p3 == 512
    assert _parity_reference(st.board, 5, bot.parity) == 512
    # the seats swapped: each seat's lines now need cells on the other seat's rows
    st2 = _state(6, 9, {(5, 0): 1, (5, 1): 1, (5, 2): 1, (4, 0): 0, (4, 1): 0, (5, 8): 0})
    x0, mask = bitboards(st2.board.ravel(), 6, 9, 0)
    assert _bb_parity(x0, x0 ^ mask, bot.geo) == 0


@pytest.mark.parametrize("rows, cols, inarow", [(6, 9, 5), (6, 7, 4), (7, 8, 6)])
def test_bitboard_evaluation_matches_the_array_evaluation(rows, cols, inarow):
    # windows, parity windows, threat squares and zugzwang, on bitboards, against
    # _load + _zugzwang; the parity windows alone against a plain-Python count
    rng = np.random.default_rng(11)
    bot = StrongConnect5Bot()
    bot._setup(rows, cols, inarow)
    for _ in range(30):
        st = _random_state(rows, cols, inarow, int(rng.integers(1, rows * cols - 8)), rng)
        start = st.board.ravel().astype(np.int8)
        g = _loaded(bot, start, rows, cols)
        expected = g.status[S_SCORE] + _zugzwang(
            g.threats, st.heights, rows, cols, bot.bonus[2]
        )
        x0, mask = bitboards(start, rows, cols, 0)
        x1 = x0 ^ mask
        w0 = _bb_wins(x0, bot.geo) & ~mask
        w1 = _bb_wins(x1, bot.geo) & ~mask
        parity = _parity_reference(st.board, inarow, bot.parity)
        assert _bb_parity(x0, x1, bot.geo) == parity
        assert _bb_eval(x0, x1, mask, w0, w1, bot.geo) == expected


def _solve_reference(board: np.ndarray, p: int, inarow: int, ply: int, memo: dict) -> int:
    """Plain minimax to the end with the kernel's scores (win at ply p: WIN - p - 1)."""
    key = (board.tobytes(), ply)
    if key in memo:
        return memo[key]
    rows, cols = board.shape
    best = None
    empty = False
    for c in range(cols):
        filled = np.nonzero(board[:, c])[0]
        r = (filled[0] if filled.size else rows) - 1
        if r < 0:
            continue
        empty = True
        board[r, c] = p + 1
        if is_winning_drop(board, r, c, inarow):
            v = WIN - ply - 1
        elif (board != 0).all():
            v = 0
        else:
            v = -_solve_reference(board, 1 - p, inarow, ply + 1, memo)
        board[r, c] = 0
        best = v if best is None else max(best, v)
    memo[key] = best if empty else 0
    return memo[key]


@pytest.mark.parametrize(
    "rows, cols, inarow, plies", [(4, 4, 3, 5), (5, 4, 4, 9), (4, 5, 3, 9)]
)
def test_bitboard_search_to_the_end_is_exact(rows, cols, inarow, plies):
    rng = np.random.default_rng(rows * cols + inarow)
    bot = StrongConnect5Bot()
    bot._setup(rows, cols, inarow)
    tt = np.full((1 << 12, 2), -1, np.int64)
    for _ in range(12):
        st = _random_state(rows, cols, inarow, plies, rng)
        empties = int((st.board == 0).sum())
        cur, mask = bitboards(st.board.ravel(), rows, cols, st.to_play)
        status = new_status()
        g = bit_search_context(bot.geo, tt, rows * cols + 2, status, time.perf_counter() + 60)
        position = (cur, mask, _bb_wins(cur, bot.geo), _bb_wins(cur ^ mask, bot.geo))
        v = bit_search(g, position, empties, 0, -(WIN + 1), WIN + 1)
        assert status[S_ABORT] == 0
        assert v == _solve_reference(st.board.copy(), st.to_play, inarow, 0, {})


def test_strong_solves_the_end_of_a_game_exactly():
    # the last cells of 7 x 6 connect four games: the bot proves the result at once
    rng = np.random.default_rng(1)
    bot = StrongConnect5Bot(seed=0)
    bot.start()
    solved = drawn = 0
    seed_bot = Window4Bot(seed=0)
    for _ in range(10):
        # four random discs, then the seed bot for both sides: fewer games decided early
        st = _random_state(6, 7, 4, 4, rng)
        while st.turn < 32 and GAME.outcome(st) is None:
            st = GAME.apply(
                st, {st.to_play: seed_bot.move(st, st.to_play, time.perf_counter() + 1.0)}
            )
        if GAME.outcome(st) is not None:
            continue
        empties = int((st.board == 0).sum())
        move = bot.move(st.copy(), st.to_play, time.perf_counter() + 2.0)
        assert move in GAME.legal_moves(st, st.to_play)
        ref = _solve_reference(st.board.copy(), st.to_play, 4, 0, {})
        if bot.last_depth == empties:
            solved += 1
            assert (bot.last_score > 0) == (ref > 0) and (bot.last_score == 0) == (ref == 0)
        if ref >= 0:  # the move keeps the win, or the draw (after the trap search)
            after = GAME.apply(st, {st.to_play: move})
            if GAME.outcome(after) is None:
                v = -_solve_reference(after.board.copy(), after.to_play, 4, 1, {})
                assert (v > 0) == (ref > 0) and v >= 0
                drawn += ref == 0
        if ref == 0:  # which moves keep the draw: the check behind the trap search
            cur, mask = bitboards(st.board.ravel(), 6, 7, st.to_play)
            for c in GAME.legal_moves(st, st.to_play):
                after = GAME.apply(st, {st.to_play: c})
                keeps = (
                    GAME.outcome(after) is not None
                    or _solve_reference(after.board.copy(), after.to_play, 4, 1, {}) <= 0
                )
                assert (
                    bot._holds_draw(cur, mask, c, 6, empties, time.perf_counter() + 5.0)
                    == keeps
                )
    assert solved >= 3 and drawn >= 1


def test_strong_on_a_board_too_big_for_bitboards():
    # 10 x 7 = 80 bits: the array kernel plays; seat 1 must block the four at column 4
    st = _state(
        7, 10, {(6, 0): 0, (6, 1): 0, (6, 2): 0, (6, 3): 0, (5, 0): 1, (5, 1): 1, (5, 2): 1}
    )
    bot = StrongConnect5Bot(seed=0)
    bot.start()
    assert bot.move(st.copy(), 1, time.perf_counter() + 1.0) == 4
    # the array table was filled and the bitboard one (reset for this board) was not
    assert bot.geo is None and (bot.tt[:, 0] != 0).any() and (bot.tt_bits[:, 0] == -1).all()


def test_connect4_benchmark_judges_moves_by_the_solver_scores():
    bench = benchmark_module("connect4_solver")
    full = bench.FULL
    # a won position: only the centre wins (fastest 3), a draw and losses elsewhere
    scores = [-2, 0, 1, 3, -1, full, -4]
    assert bench.judge(scores, 3) == (1, True, True)
    assert bench.judge(scores, 2) == (1, False, True)  # a slower win keeps the value
    assert bench.judge(scores, 1) == (1, False, False)  # a draw gives it away
    assert bench.judge(scores, 5) == (1, False, False)  # a full column is no move
    # a drawn position: a loss gives the draw away
    assert bench.judge([0, -1, 0, -3, full, full, full], 0) == (0, True, True)
    assert bench.judge([0, -1, 0, -3, full, full, full], 1) == (0, False, False)
    # a lost position: every move keeps it, the slowest loss is optimal
    assert bench.judge([-5, -2, -9, -2, -3, -3, -7], 2) == (-1, False, True)
    assert bench.judge([-5, -2, -9, -2, -3, -3, -7], 3) == (-1, True, True)
    lo, hi = bench.wilson(98, 100)
    assert 0.92 < lo < 0.94 and 0.99 < hi < 1.0


def test_connect4_benchmark_positions_are_move_strings_of_undecided_games():
    bench = benchmark_module("connect4_solver")
    st = bench.state_of("4453")
    assert st.to_play == 0 and st.turn == 4 and st.inarow == 4
    assert st.board.shape == (6, 7)
    # columns 1-7 left to right; the first disc is seat 0's, at the bottom (row 5)
    assert st.board[5, 3] == 1 and st.board[4, 3] == 2 and st.board[5, 4] == 1
    assert st.board[5, 2] == 2
    positions = bench.random_positions(30, 4, 10, seed=3)
    assert len(set(positions)) == 30
    assert {len(p) for p in positions} <= set(range(4, 11))
    for p in positions:
        assert GAME.outcome(bench.state_of(p)) is None
        assert not bench._wins_at_once(p)
    assert bench._wins_at_once("112233")  # three in the bottom row, a fourth wins
    assert positions == bench.random_positions(30, 4, 10, seed=3)


def test_start_loads_only_the_search_of_the_maps_board():
    # 9x6 fits a bitboard, 10x10 does not: a first game compiles one search, not both
    from pathlib import Path

    from atlas.bots.registry import make_bot
    from atlas.maps import read_map

    standard = read_map(
        Path(__file__).resolve().parents[2] / "maps" / "connect5" / "standard.txt"
    )
    bot = make_bot("connect5", "strong", 0)
    bot.start(standard, {}, 0)
    assert bot._warmed == {standard.width * (standard.height + 1) <= 64}
    other = make_bot("connect5", "strong", 0)
    other.start(None, {}, 0)
    assert other._warmed == {True, False}
