"""Tests of the isolation bots: the seed's ``phased`` bot and ``strong``."""

from __future__ import annotations

import time

import numpy as np
import pytest

from atlas.bots import make_bot
from atlas.games.isolation.bots.knight import (
    knight_spread,
    knight_tables,
    knight_voronoi,
    knight_walk,
    popcount,
)
from atlas.games.isolation.bots.phased import (
    BEGIN,
    END,
    MIDDLE,
    WIN,
    flat_board,
    flood,
    longest_path,
    phase_of,
    separated,
)
from atlas.games.isolation.bots.queen import (
    queen_spread,
    queen_tables,
    queen_voronoi,
    queen_walk,
)
from atlas.games.isolation.bots.strong import StrongIsolationBot, voronoi_split
from atlas.games.isolation.rules import GAME, KNIGHT_JUMPS, QUEEN_DIRECTIONS, IsolationState
from atlas.maps import GameMap
from tests.conftest import benchmark_module


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
    open_board = _state(
        [
            "0.......",
            "........",
            "........",
            "........",
            "........",
            "........",
            "........",
            ".......1",
        ]
    )
    assert phase_of(flat_board(open_board)) == BEGIN
    middle = _state(
        [
            "0#.#.#.#",
            ".#.#.#.#",
            "........",
            "#.#.#.#.",
            "........",
            "##.##.##",
            "..#.##..",
            "##.#.###"[:7] + "1",
        ]
    )
    middle.blocked[6, 0] = True
    share = (~middle.blocked).sum() / middle.blocked.size
    assert 0.2 < share <= 0.55
    assert phase_of(flat_board(middle)) == MIDDLE
    late = _state(
        [
            "0.######",
            "..######",
            "########",
            "########",
            "########",
            "#####...",
            "######..",
            "######.1",
        ]
    )
    assert phase_of(flat_board(late)) == END  # separated (and few squares left)
    few_but_joined = _state(
        [
            "0.......",
            "#######.",
            "########",
            "########",
            "########",
            "########",
            "########",
            "######.1",
        ]
    )
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
        st = IsolationState(
            blocked, np.array([[start[0], start[1]], [-1, -1]], np.int32), 0, 0, variant
        )
        b = flat_board(st)
        src = b.pos[0]
        area = flood(b.free, b.nbr, src, b.mark, b.queue, b.stamp)
        length, first, done = longest_path(
            b.free, b.nbr, b.slide, src, 10**7, area, *b.lp, np.inf
        )
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


@pytest.mark.parametrize("name", ["phased", "strong"])
def test_searches_when_the_move_is_shorter_than_the_margin(name, tick_clock):
    # With a budget no longer than the margin kept in hand, the bot still searches a
    # fifth of it (the site's tournament gives 20 ms a move) instead of a random move.
    # On the injected tick clock (10 us a read): the budget is clock reads, not speed.
    tick_clock.tick = 1e-5
    st = _state(["1...0", "##...", ".....", ".....", "....."])
    bot = make_bot("isolation", name, seed=0)
    bot.start()
    assert bot.move(st.copy(), 0, time.perf_counter() + bot.margin) == (0, 1)
    # the opening of an 8 x 8 queen board: a first depth takes more than one clock check
    # (a first move on a new board size also clears the transposition table: not timed)
    bot.move(_state(["0......1"] + ["........"] * 7).copy(), 0, time.perf_counter() + 0.1)
    opening = _state(["0......."] + ["........"] * 6 + [".......1"])
    bot.move(opening.copy(), 0, time.perf_counter() + bot.margin)
    assert bot.last_depth >= 2


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


@pytest.mark.parametrize(
    "variant, shape, density, min_free, seed",
    [
        ("queen", (4, 4), 0.45, 4, 5),
        ("knight", (4, 5), 0.3, 6, 9),
    ],
)
def test_strong_search_is_exact_near_the_end(variant, shape, density, min_free, seed):
    # Small random boards with the pieces still in touch: the search's verdict (a win
    # or not) equals a full game-tree solve, and a move it calls winning is one.
    rng = np.random.default_rng(seed)
    checked = won = 0
    while checked < 12:
        blocked = rng.random(shape) < density
        cells = np.argwhere(~blocked)
        if len(cells) < min_free:
            continue
        a, b = rng.choice(len(cells), 2, replace=False)
        pos = [tuple(int(v) for v in cells[a]), tuple(int(v) for v in cells[b])]
        blocked[pos[0]] = blocked[pos[1]] = True
        if not _moves(blocked, *pos[0], variant):
            continue
        st = IsolationState(blocked.copy(), np.array(pos, np.int32), 0, 0, variant)
        b0 = flat_board(st)
        if separated(b0.free, b0.nbr, b0.pos, b0.mark, b0.queue, b0.stamp):
            continue
        bot = StrongIsolationBot(seed=0)
        move = bot.move(st.copy(), 0, time.perf_counter() + 5.0)
        wins = _solve(blocked.copy(), list(pos), 0, variant)
        assert (bot.last_score > WIN - 1000) == wins
        if wins:
            after = blocked.copy()
            after[move] = True
            assert not _solve(after, [move, pos[1]], 1, variant)  # a winning move
            won += 1
        checked += 1
    assert 0 < won < checked


def _distances_reference(blocked: np.ndarray, start, variant: str) -> dict:
    """Moves from ``start`` to each square (plain-Python breadth-first search over
    :func:`_moves`; blocked squares, the pieces' included, stop a slide)."""
    dist = {tuple(start): 0}
    frontier = [tuple(start)]
    while frontier:
        nxt = []
        for r, c in frontier:
            for sq in _moves(blocked, r, c, variant):
                if sq not in dist:
                    dist[sq] = dist[(r, c)] + 1
                    nxt.append(sq)
        frontier = nxt
    return dist


def _split_reference(st: IsolationState, tie: int) -> tuple[int, int, int]:
    d0 = _distances_reference(st.blocked, st.pos[0], st.variant)
    d1 = _distances_reference(st.blocked, st.pos[1], st.variant)
    a = b = both = 0
    for sq in zip(*np.nonzero(~st.blocked)):
        sq = (int(sq[0]), int(sq[1]))
        x, y = d0.get(sq), d1.get(sq)
        if x is not None and (y is None or x < y or (x == y and tie == 0)):
            a += 1
        elif y is not None and (x is None or y < x or (x == y and tie == 1)):
            b += 1
        both += x is not None and y is not None
    return a, b, both


def test_voronoi_split_counts_squares_reached_first():
    # Expected counts from distances of our own (a plain breadth-first search), never
    # from the distances the kernel under test wrote.
    st = _state(["0....", ".....", "....1"])
    b = flat_board(st)
    d0 = np.zeros(b.free.size, np.int64)
    d1 = np.zeros(b.free.size, np.int64)
    a, c, both = voronoi_split(b.free, b.nbr, b.slide, b.pos, d0, d1, b.queue, -1)
    assert both == int((~st.blocked).sum())  # an open board: every square reachable by both
    assert (a, c, both) == _split_reference(st, -1)
    assert d0[0 * 5 + 4] == 1 and d0[2 * 5 + 3] == 2 and d1[2 * 5 + 0] == 1
    # Walls, both variants, each tie rule, random boards (some with the pieces apart).
    rng = np.random.default_rng(5)
    kinds = set()
    for trial in range(60):
        variant = ("queen", "knight")[trial % 2]
        rows, cols = int(rng.integers(3, 8)), int(rng.integers(3, 8))
        grid = np.where(rng.random((rows, cols)) < 0.3, "#", ".")
        cells = rng.choice(rows * cols, 2, replace=False)
        grid.flat[cells[0]], grid.flat[cells[1]] = "0", "1"
        st = _state(["".join(r) for r in grid], variant)
        b = flat_board(st)
        d0, d1 = np.zeros(b.free.size, np.int64), np.zeros(b.free.size, np.int64)
        for tie in (-1, 0, 1):
            got = voronoi_split(b.free, b.nbr, b.slide, b.pos, d0, d1, b.queue, tie)
            want = _split_reference(st, tie)
            assert tuple(int(v) for v in got) == want, (trial, variant, tie)
            kinds.add(want[2] == 0)
    assert kinds == {True, False}  # separated and connected boards were both tried


@pytest.mark.parametrize("name", ["phased", "strong"])
@pytest.mark.parametrize(
    "variant, starts",
    [("queen", ((0, 0), (6, 6))), ("knight", ((0, 0), (6, 6))), ("queen", ())],
)
def test_bots_answer_legal_moves_in_time(name, variant, starts, moves_in_time):
    game_map = GameMap("isolation", "t", np.zeros((7, 7), bool), starts, {"variant": variant})
    moves_in_time(
        "isolation",
        make_bot("isolation", name, seed=0),
        game_map,
        (0, 1, 6, 15),
        seed=1,
        as_move=tuple,
    )


# --- the knight bitboard search (atlas/bots/isolation_knight.py) ------------------------


def _knight_bits(blocked: np.ndarray) -> np.uint64:
    return np.uint64(sum(1 << int(c) for c in np.flatnonzero(~blocked.ravel())))


def _knight_distances(blocked: np.ndarray, start: tuple[int, int]) -> dict:
    """Jump distance from ``start`` to every free square it reaches (plain BFS)."""
    dist = {}
    frontier = [start]
    d = 0
    while frontier:
        d += 1
        nxt = []
        for r, c in frontier:
            for m in _moves(blocked, r, c, "knight"):
                if m not in dist:
                    dist[m] = d
                    nxt.append(m)
        frontier = nxt
    return dist


@pytest.mark.parametrize("rows, cols", [(7, 7), (8, 8), (5, 9), (4, 3)])
def test_knight_spread_and_popcount_match_plain_jumps(rows, cols):
    tables = knight_tables(rows, cols)
    rng = np.random.default_rng(rows * 10 + cols)
    for _ in range(30):
        cells = rng.random((rows, cols)) < 0.3
        x = np.uint64(sum(1 << int(c) for c in np.flatnonzero(cells.ravel())))
        expect = set()
        for r, c in np.argwhere(cells):
            for dr, dc in KNIGHT_JUMPS:
                if 0 <= r + dr < rows and 0 <= c + dc < cols:
                    expect.add((r + dr) * cols + c + dc)
        got = int(knight_spread(x, tables.tab))
        assert {i for i in range(rows * cols) if got >> i & 1} == expect
        assert popcount(x) == int(cells.sum())


@pytest.mark.parametrize("tie", [-1, 0, 1])
def test_knight_voronoi_matches_plain_distances(tie):
    rng = np.random.default_rng(7 + tie)
    tables = knight_tables(7, 7)
    for _ in range(40):
        blocked = rng.random((7, 7)) < 0.35
        cells = rng.choice(49, 2, replace=False)
        a, b = (divmod(int(c), 7) for c in cells)
        blocked[a] = blocked[b] = True
        da, db = _knight_distances(blocked, a), _knight_distances(blocked, b)
        ref = [0, 0]
        for sq in set(da) | set(db):
            x, y = da.get(sq, 99), db.get(sq, 99)
            if x < y or (x == y and tie == 0):
                ref[0] += 1
            elif y < x or (x == y and tie == 1):
                ref[1] += 1
        own0, own1, reach0, reach1 = knight_voronoi(
            _knight_bits(blocked), a[0] * 7 + a[1], b[0] * 7 + b[1], tie, tables.tab
        )
        assert [own0, own1] == ref
        assert ((int(reach0) & int(reach1)) == 0) == (not set(da) & set(db))


def test_knight_voronoi_ties_all_go_to_the_mover_on_equal_colours():
    # a knight changes colour every jump: pieces on squares of the same colour reach
    # every square after jump counts of the same parity, so many ties; on squares of
    # different colours never
    tables = knight_tables(7, 7)
    free = _knight_bits(np.zeros((7, 7), bool)) & ~np.uint64((1 << 24) | (1 << 10))
    none0, none1, _, _ = knight_voronoi(free, 24, 10, -1, tables.tab)  # (3,3), (1,3)
    mover0, mover1, _, _ = knight_voronoi(free, 24, 10, 0, tables.tab)
    assert mover0 + mover1 == 47 > none0 + none1 and mover1 == none1
    free = _knight_bits(np.zeros((7, 7), bool)) & ~np.uint64((1 << 24) | (1 << 17))
    none0, none1, _, _ = knight_voronoi(free, 24, 17, -1, tables.tab)  # (3,3), (2,3)
    assert none0 + none1 == 47


def test_strong_places_on_the_other_colour_as_second_player():
    # free placement on the knight board: the second piece decides whether the colours
    # match at the first player's turns; the strong bot takes the side that moves onto
    # the squares the other piece needs next
    game_map = GameMap("isolation", "t", np.zeros((7, 7), bool), (), {"variant": "knight"})
    bot = StrongIsolationBot(seed=0, max_depth=4)
    for first in [(0, 0), (1, 2), (3, 3), (2, 3)]:
        st = GAME.apply(GAME.initial_state(game_map), {0: first})
        move = bot.move(st.copy(), 1, time.perf_counter() + 5.0)
        assert (sum(move) - sum(first)) % 2 == 1


def test_knight_walk_is_the_longest_walk_when_uncapped():
    rng = np.random.default_rng(13)
    tables = knight_tables(4, 5)
    cur = np.zeros(22, np.int64)
    idx = np.zeros(22, np.int64)
    rem = np.zeros(22, np.uint64)
    for _ in range(25):
        blocked = rng.random((4, 5)) < 0.25
        start = (int(rng.integers(4)), int(rng.integers(5)))
        blocked[start] = True
        free = _knight_bits(blocked)
        reach = np.uint64(sum(1 << (r * 5 + c) for r, c in _knight_distances(blocked, start)))
        got = knight_walk(
            free, start[0] * 5 + start[1], reach, tables.tab, tables.jumps, 10**7, cur, idx, rem
        )
        assert got == _longest_reference(blocked, start, "knight")


def _bits(cells: np.ndarray) -> np.uint64:
    """A boolean grid as a bit set (square ``r * cols + c`` is bit ``r * cols + c``)."""
    return np.uint64(sum(1 << int(c) for c in np.flatnonzero(cells.ravel())))


@pytest.mark.parametrize("rows, cols", [(8, 8), (5, 9), (7, 3), (1, 6)])
def test_queen_spread_matches_plain_slides(rows, cols):
    tables = queen_tables(rows, cols)
    rng = np.random.default_rng(rows * 10 + cols)
    for _ in range(30):
        blocked = rng.random((rows, cols)) < 0.3
        sources = rng.random((rows, cols)) < 0.15
        expect = set()
        for r, c in np.argwhere(sources):
            expect |= {rr * cols + cc for rr, cc in _moves(blocked, r, c, "queen")}
        got = int(queen_spread(_bits(sources), _bits(~blocked), tables.tab))
        assert {i for i in range(rows * cols) if got >> i & 1} == expect


def test_queen_voronoi_matches_the_array_split():
    rng = np.random.default_rng(21)
    tables = queen_tables(8, 8)
    separated_seen = 0
    for _ in range(60):
        blocked = rng.random((8, 8)) < rng.uniform(0.2, 0.7)
        cells = rng.choice(64, 2, replace=False)
        a, b = (divmod(int(c), 8) for c in cells)
        blocked[a] = blocked[b] = True
        st = IsolationState(blocked.copy(), np.array([a, b], np.int32), 0, 0, "queen")
        board = flat_board(st)
        d0 = np.zeros(64, np.int64)
        d1 = np.zeros(64, np.int64)
        ref0, ref1, both = voronoi_split(
            board.free, board.nbr, board.slide, board.pos, d0, d1, board.queue, -1
        )
        own0, own1, reach0, reach1 = queen_voronoi(
            _bits(~blocked), a[0] * 8 + a[1], b[0] * 8 + b[1], tables.tab
        )
        assert (own0, own1) == (ref0, ref1)
        assert ((int(reach0) & int(reach1)) == 0) == (both == 0)
        separated_seen += both == 0
    assert separated_seen > 0


def test_queen_walk_is_the_longest_walk_when_uncapped():
    rng = np.random.default_rng(17)
    tables = queen_tables(4, 4)
    stack = np.zeros((18, 34), np.int64)
    rem = np.zeros(18, np.uint64)
    lengths = set()
    for _ in range(20):
        blocked = rng.random((4, 4)) < 0.45
        start = (int(rng.integers(4)), int(rng.integers(4)))
        blocked[start] = True
        got, nodes = queen_walk(
            _bits(~blocked), start[0] * 4 + start[1], tables.tab, 10**7, stack, rem
        )
        assert got <= nodes
        assert got == _longest_reference(blocked, start, "queen")
        lengths.add(int(got))
    assert len(lengths) > 3


@pytest.mark.parametrize(
    "shape, density, depth", [((5, 5), 0.3, 3), ((8, 8), 0.5, 3), ((4, 6), 0.4, 4)]
)
def test_queen_bitboard_search_matches_the_array_search(shape, density, depth):
    # same evaluation, so the same value at the same fixed depth (small regions: the
    # walks of separated leaves are exact in both)
    rng = np.random.default_rng(int(shape[0] * 100 + depth))
    checked = 0
    while checked < 8:
        blocked = rng.random(shape) < density
        cells = np.argwhere(~blocked)
        if len(cells) < 6:
            continue
        a, b = rng.choice(len(cells), 2, replace=False)
        pos = [tuple(int(v) for v in cells[a]), tuple(int(v) for v in cells[b])]
        blocked[pos[0]] = blocked[pos[1]] = True
        st = IsolationState(blocked.copy(), np.array(pos, np.int32), 0, 0, "queen")
        b0 = flat_board(st)
        if not _moves(blocked, *pos[0], "queen") or separated(
            b0.free, b0.nbr, b0.pos, b0.mark, b0.queue, b0.stamp
        ):
            continue
        scores = []
        for arrays in (True, False):
            bot = StrongIsolationBot(seed=0, max_depth=depth)
            bot.arrays = arrays
            bot.move(st.copy(), 0, time.perf_counter() + 60.0)
            scores.append((bot.last_depth, bot.last_score))
        assert scores[0] == scores[1]
        checked += 1


@pytest.mark.parametrize("variant", ["knight", "queen"])
def test_ab_improved_scores_own_moves_minus_the_opponents(variant):
    # depth 1: the move that leaves the most own moves minus the opponent's (first of
    # equals); the full depth of a small board: a winning move whenever there is one
    bench = benchmark_module("isolation_udacity")
    rng = np.random.default_rng(4)
    checked = won = 0
    while checked < 10:
        blocked = rng.random((4, 5)) < 0.3
        cells = np.argwhere(~blocked)
        if len(cells) < 6:
            continue
        a, b = rng.choice(len(cells), 2, replace=False)
        pos = [tuple(int(v) for v in cells[a]), tuple(int(v) for v in cells[b])]
        blocked[pos[0]] = blocked[pos[1]] = True
        moves = _moves(blocked, *pos[0], variant)
        if not moves:
            continue
        nbr = bench.neighbours(4, 5, variant == "knight")
        free = ~blocked.ravel()
        flat = np.array([pos[0][0] * 5 + pos[0][1], pos[1][0] * 5 + pos[1][1]], np.int64)
        buf = np.zeros((24, 20), np.int64)
        status = np.zeros(2, np.int64)
        best = bench.ab_search(
            free, nbr, variant == "queen", flat, 0, 1, buf, status, time.perf_counter() + 60.0
        )
        scores = []
        for m in moves:
            after = blocked.copy()
            after[m] = True
            replies = _moves(after, *pos[1], variant)
            scores.append(
                np.inf if not replies else len(_moves(after, *m, variant)) - len(replies)
            )
        # the kernel's move order is the direction order, _moves' too
        assert divmod(int(best), 5) == moves[int(np.argmax(scores))]
        deep = bench.ab_search(
            free,
            nbr,
            variant == "queen",
            flat,
            0,
            int(free.sum()),
            buf,
            status,
            time.perf_counter() + 60.0,
        )
        if _solve(blocked.copy(), list(pos), 0, variant):
            after = blocked.copy()
            r, c = divmod(int(deep), 5)
            after[r, c] = True
            assert not _solve(after, [(r, c), pos[1]], 1, variant)
            won += 1
        checked += 1
    assert 0 < won < checked


@pytest.mark.parametrize(
    ("map_name", "kind"), [("knight7", ("knight", 7, 7)), ("cross9", ("queen", 9, 9))]
)
def test_start_loads_only_the_kernels_of_the_maps_board(map_name, kind):
    # a first game compiles what its board needs (its variant; arrays past 64 squares),
    # and plays the moves of a bot warmed on every kind
    from pathlib import Path

    from atlas.bots.registry import make_bot
    from atlas.bots.search import effort_clock
    from atlas.maps import read_map
    from atlas.sim import get_game

    game_map = read_map(
        Path(__file__).resolve().parents[2] / "maps" / "isolation" / f"{map_name}.txt"
    )
    game = get_game("isolation")
    narrow, wide = make_bot("isolation", "strong", 0), make_bot("isolation", "strong", 0)
    narrow.start(game_map, {}, 0)
    wide.start(None, {}, 0)
    wide.start(game_map, {}, 0)
    assert narrow._warmed == {kind}
    assert wide._warmed == {kind, ("queen", 3, 3), ("knight", 3, 3)}
    state = game.initial_state(game_map)
    for _ in range(6):
        seat = game.to_move(state)[0]
        with effort_clock(40):
            a = narrow.move(state.copy(), seat, 1e18)
        with effort_clock(40):
            b = wide.move(state.copy(), seat, 1e18)
        assert a == b
        state = game.apply(state, {seat: a})
