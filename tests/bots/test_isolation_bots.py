"""Tests of the isolation bots: the seed's ``phased`` bot and ``strong``."""

from __future__ import annotations

import time

import numpy as np
import pytest

from atlas.bots import make_bot
from atlas.bots.isolation_phased import (BEGIN, END, MIDDLE, WIN, flat_board, flood,
                                         longest_path, phase_of, separated)
from atlas.bots.isolation_strong import StrongIsolationBot, voronoi_split
from atlas.maps import GameMap
from atlas.sim.isolation import GAME, KNIGHT_JUMPS, QUEEN_DIRECTIONS, IsolationState


def _state(rows: list[str], variant: str = "queen", to_play: int = 0) -> IsolationState:
    """``#`` blocked, ``.`` free, ``0``/``1`` the pieces."""
    grid = np.array([list(r) for r in rows])
    blocked = grid != "."
    pos = np.full((2, 2), -1, np.int32)
    for p in (0, 1):
        found = np.argwhere(grid == str(p))
        if len(found):
            pos[p] = found[0]
    return IsolationState(blocked, pos, to_play, 0, variant)


def _moves(blocked: np.ndarray, r: int, c: int, variant: str) -> list[tuple[int, int]]:
    h, w = blocked.shape
    out = []
    if variant == "knight":
        for dr, dc in KNIGHT_JUMPS:
            if 0 <= r + dr < h and 0 <= c + dc < w and not blocked[r + dr, c + dc]:
                out.append((r + dr, c + dc))
        return out
    for dr, dc in QUEEN_DIRECTIONS:
        rr, cc = r + dr, c + dc
        while 0 <= rr < h and 0 <= cc < w and not blocked[rr, cc]:
            out.append((rr, cc))
            rr, cc = rr + dr, cc + dc
    return out


def _longest_reference(blocked: np.ndarray, start: tuple[int, int], variant: str) -> int:
    """Exhaustive longest walk, explicit stack (test reference)."""
    b = blocked.copy()
    best = 0
    stack = [(start, iter(_moves(b, *start, variant)))]
    path: list[tuple[int, int]] = []
    while stack:
        _, it = stack[-1]
        nxt = next(it, None)
        if nxt is None:
            stack.pop()
            if path:
                b[path.pop()] = False
            continue
        b[nxt] = True
        path.append(nxt)
        best = max(best, len(path))
        stack.append((nxt, iter(_moves(b, *nxt, variant))))
    return best


def test_phase_switching_by_empty_squares_and_separation():
    open_board = _state(["0.......", "........", "........", "........",
                         "........", "........", "........", ".......1"])
    assert phase_of(flat_board(open_board)) == BEGIN
    middle = _state(["0#.#.#.#", ".#.#.#.#", "........", "#.#.#.#.",
                     "........", "##.##.##", "..#.##..", "##.#.###"[:7] + "1"])
    middle.blocked[6, 0] = True
    share = (~middle.blocked).sum() / middle.blocked.size
    assert 0.2 < share <= 0.55
    assert phase_of(flat_board(middle)) == MIDDLE
    late = _state(["0.######", "..######", "########", "########",
                   "########", "#####...", "######..", "######.1"])
    assert phase_of(flat_board(late)) == END  # separated (and few squares left)
    few_but_joined = _state(["0.......", "#######.", "########", "########",
                             "########", "########", "########", "######.1"])
    b = flat_board(few_but_joined)
    assert (b.free.sum() / b.free.size) <= 0.2
    assert phase_of(b) == END
    # separation itself: a wall between the halves splits them, a gap joins them
    split = _state(["0..#...", "...#...", "...#..1"])
    joined = _state(["0..#...", "...#...", "......1"])
    assert phase_of(flat_board(split)) == END
    assert phase_of(flat_board(joined)) == BEGIN


@pytest.mark.parametrize("variant", ["queen", "knight"])
def test_longest_path_matches_exhaustive_search(variant):
    rng = np.random.default_rng(11)
    for _ in range(25):
        blocked = rng.random((4, 4)) < 0.4
        start = (int(rng.integers(4)), int(rng.integers(4)))
        blocked[start] = True
        st = IsolationState(blocked, np.array([[start[0], start[1]], [-1, -1]], np.int32),
                            0, 0, variant)
        b = flat_board(st)
        src = b.pos[0]
        area = flood(b.free, b.nbr, src, b.mark, b.queue, b.stamp)
        length, first, done = longest_path(b.free, b.nbr, b.slide, src, 10**7, area,
                                           *b.lp, np.inf)
        assert done
        assert length == _longest_reference(blocked, start, variant)
        if length:
            assert b.cell(first) in _moves(blocked, *start, variant)
        assert (b.free == (~blocked).ravel()).all()  # restored


@pytest.mark.parametrize("name", ["phased", "strong"])
def test_separated_endgame_walks_a_longest_path(name):
    # the pieces are walled apart; seat 0's region is an awkward shape where a careless
    # first step wastes squares
    rows = ["0.#.#.", "..#...", ".##.#.", "...###", "####.1", "......"]
    st = _state(rows)
    b = flat_board(st)
    assert phase_of(b) == END
    bot = make_bot("isolation", name, seed=0)
    move = bot.move(st.copy(), 0, time.perf_counter() + 2.0)
    best = _longest_reference(st.blocked, (0, 0), "queen")
    after = st.blocked.copy()
    after[move] = True
    assert move in _moves(st.blocked, 0, 0, "queen")
    assert 1 + _longest_reference(after, move, "queen") == best


@pytest.mark.parametrize("name", ["phased", "strong"])
def test_takes_the_move_that_leaves_the_opponent_stuck(name):
    st = _state(["1...0", "##...", ".....", ".....", "....."])
    bot = make_bot("isolation", name, seed=0)
    assert bot.move(st.copy(), 0, time.perf_counter() + 1.0) == (0, 1)


def _solve(blocked: np.ndarray, pos: list[tuple[int, int]], p: int, variant: str) -> bool:
    """Whether seat ``p`` to move wins (plain game-tree search, test reference)."""
    moves = _moves(blocked, *pos[p], variant)
    for m in moves:
        blocked[m] = True
        old = pos[p]
        pos[p] = m
        opponent_wins = _solve(blocked, pos, 1 - p, variant)
        pos[p] = old
        blocked[m] = False
        if not opponent_wins:
            return True
    return False


def test_strong_search_is_exact_near_the_end():
    rng = np.random.default_rng(5)
    checked = won = 0
    while checked < 12:
        blocked = rng.random((4, 4)) < 0.45
        cells = np.argwhere(~blocked)
        if len(cells) < 4:
            continue
        a, b = rng.choice(len(cells), 2, replace=False)
        pos = [tuple(int(v) for v in cells[a]), tuple(int(v) for v in cells[b])]
        blocked[pos[0]] = blocked[pos[1]] = True
        if not _moves(blocked, *pos[0], "queen"):
            continue
        st = IsolationState(blocked.copy(), np.array(pos, np.int32), 0, 0, "queen")
        bot = StrongIsolationBot(seed=0)
        b0 = flat_board(st)
        if separated(b0.free, b0.nbr, b0.pos, b0.mark, b0.queue, b0.stamp):
            continue
        move = bot.move(st.copy(), 0, time.perf_counter() + 5.0)
        wins = _solve(blocked.copy(), list(pos), 0, "queen")
        assert (bot.last_score > WIN - 1000) == wins
        if wins:
            after = blocked.copy()
            after[move] = True
            assert not _solve(after, [move, pos[1]], 1, "queen")  # a winning move
            won += 1
        checked += 1
    assert 0 < won < checked


def test_voronoi_split_counts_squares_reached_first():
    st = _state(["0....", ".....", "....1"])
    b = flat_board(st)
    d0 = np.zeros(b.free.size, np.int64)
    d1 = np.zeros(b.free.size, np.int64)
    a, c, both = voronoi_split(b.free, b.nbr, b.slide, b.pos, d0, d1, b.queue)
    assert both == int((~st.blocked).sum())  # an open board: every square reachable by both
    # queen distances: seat 0 reaches in one move row 0, column 0, its diagonal; seat 1
    # likewise; squares at equal distance count for no one
    ref0 = ref1 = 0
    for r in range(3):
        for col in range(5):
            if st.blocked[r, col]:
                continue
            x, y = int(d0[r * 5 + col]), int(d1[r * 5 + col])
            ref0 += x < y
            ref1 += y < x
    assert (a, c) == (ref0, ref1)
    assert d0[0 * 5 + 4] == 1 and d0[2 * 5 + 3] == 2 and d1[2 * 5 + 0] == 1


@pytest.mark.parametrize("name", ["phased", "strong"])
@pytest.mark.parametrize("variant, starts", [("queen", ((0, 0), (6, 6))),
                                             ("knight", ((0, 0), (6, 6))),
                                             ("queen", ())])
def test_bots_answer_legal_moves_in_time(name, variant, starts):
    game_map = GameMap("isolation", "t", np.zeros((7, 7), bool), starts, {"variant": variant})
    rng = np.random.default_rng(1)
    bot = make_bot("isolation", name, seed=0)
    warm = GAME.initial_state(game_map)
    bot.move(warm.copy(), 0, time.perf_counter() + 0.5)  # compiles outside the timing
    for plies in (0, 1, 6, 15):
        st = GAME.initial_state(game_map)
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
        assert tuple(move) in GAME.legal_moves(st, p)
