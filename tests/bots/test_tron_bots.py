"""Tests of the built-in tron bots and their kernels (atlas/bots/tron_*.py)."""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import networkx as nx
import numpy as np
import pytest

from atlas.arena.runner import late_after
from atlas.bots import make_bot
from atlas.games.tron.bots import apex, fill, tree
from atlas.games.tron.bots import common as tc
from atlas.games.tron.bots.chambers import rollout_value
from atlas.games.tron.bots.fill import space_fill_length, space_filler_move
from atlas.games.tron.bots.frontline import endgame_move
from atlas.games.tron.bots.voronoi import (
    MODE_CHAMBERS,
    MODE_FRONTLINE,
    MODE_VORONOI,
    WIN,
    draw_value,
    evaluate,
    iterative_deepening,
    search_root,
    turn_context,
)
from atlas.maps import read_map
from atlas.sim import get_game
from tests.conftest import benchmark_module

MAPS = Path(__file__).resolve().parents[2] / "maps" / "tron"
BOT_NAMES = ("wallhugger", "voronoi", "chambers", "frontline", "apex")


def position(rows: list[str]) -> SimpleNamespace:
    """A tron position from text: ``#`` blocked, ``1``/``2`` the heads, space free."""
    h, w = len(rows), max(len(r) for r in rows)
    blocked = np.zeros((h, w), dtype=bool)
    heads = np.zeros((2, 2), dtype=np.int32)
    for r, row in enumerate(rows):
        for c, ch in enumerate(row.ljust(w)):
            if ch in "#12":
                blocked[r, c] = True
            if ch in "12":
                heads[int(ch) - 1] = (r, c)
    return SimpleNamespace(blocked=blocked, heads=heads, turn=0)


def board(rows: list[str]) -> tuple[np.ndarray, int, int, tc.Workspace]:
    pos = position(rows)
    grid, me, opp = tc.board_from_state(pos, 0)
    return grid, me, opp, tc.Workspace(*pos.blocked.shape)


@pytest.fixture(scope="module")
def bots():
    # Made once: making a bot loads (or compiles) its kernels, which no move may pay.
    return {name: make_bot("tron", name, seed=1) for name in BOT_NAMES}


@pytest.fixture
def own_choices(monkeypatch):
    """``spy(bot)``: a list that receives every move ``bot.choose`` returns from now on.

    :meth:`TronBot.move <atlas.games.tron.bots.common.TronBot.move>` replaces an illegal
    choice with the first legal move, so a legality test of ``move`` alone only fails
    when ``legal_moves`` is broken; the bot's own choice is what it has to check.
    """

    def spy(bot) -> list[int]:
        seen: list[int] = []
        inner = bot.choose

        def choose(*args):
            mv = int(inner(*args))
            seen.append(mv)
            return mv

        monkeypatch.setattr(bot, "choose", choose)
        return seen

    return spy


def test_board_layout_matches_analyze_convention():
    grid, me, opp, ws = board(["1 #", "  2"])
    assert grid.dtype == np.uint8 and grid.shape == (4 * 5,)
    assert me == 1 * 5 + 1 and opp == 2 * 5 + 3
    assert grid[me] == tc.BLOCKED and grid[opp] == tc.BLOCKED
    assert grid[1 * 5 + 2] == tc.FREE and grid[1 * 5 + 3] == tc.BLOCKED
    assert grid[0:5].sum() == 0  # the wall border
    assert tc.legal_moves(grid, me, ws.off) == [2, 3]  # east, south


@pytest.mark.parametrize(
    "budget, thinks", [(0.1, 0.065), (0.9, 0.78), (1.0, 0.88), (2.9, 2.78), (0.04, 0.008)]
)
def test_safety_margin_is_bounded(budget, thinks):
    # 30 % of the budget kept back, within [35 ms, 0.12 s] and at most four fifths.
    assert tc.safety_deadline(100.0 + budget, 100.0) - 100.0 == pytest.approx(thinks)


def test_workspace_colour_row_is_the_checkerboard():
    ws = tc.Workspace(3, 4)
    rows, cols = np.divmod(np.arange(ws.n), ws.w2)
    assert np.array_equal(ws.ibuf[tc.R_COLOUR], (rows + cols) % 2)


def _reachable(free: np.ndarray, head: tuple[int, int]) -> set[tuple[int, int]]:
    h, w = free.shape
    seen: set[tuple[int, int]] = set()
    todo = [head]
    while todo:
        r, c = todo.pop()
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            q = (r + dr, c + dc)
            if 0 <= q[0] < h and 0 <= q[1] < w and free[q] and q not in seen:
                seen.add(q)
                todo.append(q)
    return seen


def test_territories_and_contact_against_plain_python():
    rng = np.random.default_rng(5)
    for _ in range(40):
        free = rng.random((7, 9)) > 0.4
        cells = list(zip(*np.nonzero(free)))
        if len(cells) < 2:
            continue
        i, j = rng.choice(len(cells), 2, replace=False)
        a, b = cells[i], cells[j]
        free[a] = free[b] = False
        pos = SimpleNamespace(blocked=~free, heads=np.array([a, b]))
        grid, me, opp = tc.board_from_state(pos, 0)
        ws = tc.Workspace(7, 9)
        ra, rb = _reachable(free, a), _reachable(free, b)
        dist = {}
        for head, name in ((a, "a"), (b, "b")):
            frontier, d, seen = [head], 0, {head}
            while frontier:
                d += 1
                nxt = []
                for r, c in frontier:
                    for q in ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)):
                        if q in (ra | rb) and q not in seen:
                            seen.add(q)
                            dist[name, q] = d
                            nxt.append(q)
                frontier = nxt
        inf = 10**9
        n_a = sum(dist.get(("a", q), inf) < dist.get(("b", q), inf) for q in ra | rb)
        n_b = sum(dist.get(("b", q), inf) < dist.get(("a", q), inf) for q in ra | rb)
        touching = int(bool(ra & rb))
        na, nb, _, _, t1 = tc.voronoi_counts(grid, me, opp, ws.off, ws.ibuf)
        assert (na, nb, t1) == (n_a, n_b, touching)
        assert tuple(tc.voronoi_touching(grid, me, opp, ws.off, ws.ibuf)) == (
            n_a,
            n_b,
            touching,
        )


# --- wall hugger -----------------------------------------------------------------------


def test_wallhugger_in_a_doorway_takes_the_larger_room(bots):
    rows = ["##########", "#  #     #", "#  1     #", "#  #     #", "##########", "#2########"]
    # West: a 2x3 room (6 cells); east: a 3x5 room (15 cells).
    assert bots["wallhugger"].move(position(rows), 0, time.perf_counter() + 0.2) == 2


def test_wallhugger_leaves_a_dead_end_closet_alone(bots):
    rows = ["##########", "#      # #", "#      # #", "#       1#", "#      ###", "#2########"]
    # North enters a 2-cell closet, west the open room.
    assert bots["wallhugger"].move(position(rows), 0, time.perf_counter() + 0.2) == 4


def test_wallhugger_hugs_the_wall(bots):
    rows = ["#######", "#     #", "#1    #", "#     #", "#######", "#2#####"]
    # Along the wall (north or south: one open neighbour each once the head is a
    # trail) rather than into the open (east: three).
    assert bots["wallhugger"].move(position(rows), 0, time.perf_counter() + 0.2) in (1, 3)


def test_potential_articulation_against_true_cut_vertices():
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(30):
        free = rng.random((6, 7)) > 0.35
        grid = np.zeros((8, 9), dtype=np.uint8)
        grid[1:-1, 1:-1] = free
        flat = grid.ravel()
        off = tc.offsets(7)
        g = nx.grid_2d_graph(6, 7)
        g.remove_nodes_from([(r, c) for r, c in zip(*np.nonzero(~free))])
        cuts = set(nx.articulation_points(g))
        for r, c in cuts:
            # Every true cut vertex is flagged by the local test (it may flag more).
            assert tc.potential_articulation(flat, (r + 1) * 9 + c + 1, off) == 1
            checked += 1
    assert checked > 30  # the boards have cut vertices to check


# --- voronoi ---------------------------------------------------------------------------

CUT_OFF = [
    "#############",
    "#           #",
    "#           #",
    "#   1       #",
    "#####-#######",
    "###  2  #####",
    "#############",
]


def test_voronoi_cuts_the_opponent_off(bots):
    rows = [r.replace("-", " ") for r in CUT_OFF]
    # East steps onto the gap's mouth and seals the opponent in its 4-cell pocket; any
    # other move lets it out into the big room in two steps.
    pos = position(rows)
    assert bots["voronoi"].move(pos, 0, time.perf_counter() + 0.5) == 2
    assert bots["voronoi"].last_info["value"] >= 20000.0  # won by 20+ cells
    assert bots["frontline"].move(pos, 0, time.perf_counter() + 0.5) == 2


def _reference_minimax(grid, me, opp, depth, off, w2, ws, mode, ply=0):
    """Plain-Python minimax over the same simultaneous-move model (no pruning)."""
    if depth == 0:
        return evaluate(grid, me, opp, off, w2, ws.ibuf, ws.fbuf, mode)
    mine = [me + off[k] for k in range(4) if grid[me + off[k]]]
    theirs = [opp + off[k] for k in range(4) if grid[opp + off[k]]]
    if not mine:
        return -WIN + ply if theirs else draw_value(mode)
    best = -np.inf
    for t in mine:
        worst = np.inf
        if not theirs:
            worst = WIN - ply
        for s in theirs:
            if s == t:
                v = draw_value(mode)
            else:
                grid[t] = grid[s] = tc.BLOCKED
                v = _reference_minimax(grid, t, s, depth - 1, off, w2, ws, mode, ply + 1)
                grid[t] = grid[s] = tc.FREE
            worst = min(worst, v)
        best = max(best, worst)
    return best


@pytest.mark.parametrize("mode", [MODE_VORONOI, MODE_CHAMBERS, MODE_FRONTLINE])
def test_alphabeta_equals_plain_minimax(mode):
    rng = np.random.default_rng(3 + mode)
    for trial in range(4):
        free = rng.random((5, 6)) > 0.25
        cells = list(zip(*np.nonzero(free)))
        a, b = rng.choice(len(cells), 2, replace=False)
        blocked = ~free
        blocked[cells[a]] = blocked[cells[b]] = True
        pos = SimpleNamespace(blocked=blocked, heads=np.array([cells[a], cells[b]]))
        grid, me, opp = tc.board_from_state(pos, 0)
        ws = tc.Workspace(5, 6)
        for depth in (1, 2):
            search = turn_context(grid, ws, ws.fbuf, mode, draw_value(mode), depth)
            k = search_root(search, me, opp, depth)
            scores = search.scores
            before = grid.copy()
            want = _reference_minimax(grid, me, opp, depth, ws.off, ws.w2, ws, mode)
            assert np.array_equal(grid, before)
            if k < 0:
                assert not any(grid[me + o] for o in ws.off)
            else:
                assert scores[k] == pytest.approx(want), (trial, depth)


# --- chambers --------------------------------------------------------------------------

SEED_CORRIDOR = [
    "#####################",
    "#####               #",
    "#1    ###############",
    "#####              ##",
    "#####################",
]


def test_chamber_estimate_of_the_seed_corridor():
    rows = [r + "2#" if i == 2 else r + "##" for i, r in enumerate(SEED_CORRIDOR)]
    grid, me, opp, ws = board(rows)
    na, nb, _, _, touching = tc.voronoi_counts(grid, me, opp, ws.off, ws.ibuf)
    assert (na, nb, touching) == (33, 0, 0)  # the whole corridor system is mine
    # Chamber 1 (4 cells) then the longer branch, 15 cells, not 33 (seed section 3).
    assert (
        tree.chamber_value(
            grid, me, opp, ws.off, ws.w2, ws.ibuf, ws.fbuf, 1.0, 0.0, False, False, 0
        )
        == 19.0
    )
    assert fill.fill_length(grid, me, ws.off, ws.ibuf, 1000) == 19


def test_battlefront_counts_only_the_steps_to_the_front():
    rows = [
        "#######",
        "#1   ##",
        "#    ##",
        "#    ##",
        "#### ##",
        "#### ##",
        "#### ##",
        "#### ##",
        "#### ##",
        "#### ##",
        "#    ##",
        "#  2 ##",
        "#######",
    ]
    grid, me, opp, ws = board(rows)
    na, nb, _, _, touching = tc.voronoi_counts(grid, me, opp, ws.off, ws.ibuf)
    # Mine: the 11-cell room and the corridor's first cell (6 steps; the opponent needs
    # 7 for it); the next corridor cell is a tie, the rest the opponent's.
    assert (na, nb, touching) == (12, 11, 1)
    args = (grid, me, opp, ws.off, ws.w2, ws.ibuf, ws.fbuf, 1.0, 0.0, False)
    # Tree of chambers: the room, then the corridor cell (a child chamber).
    assert tree.chamber_value(*args, False, 0) == 12.0
    # Battlefront: the corridor cell touches the contested cell, so the player either
    # fills the room (11) or goes to the front (5 steps + 1); filling the room first and
    # then taking the corridor cell is not possible.
    assert tree.chamber_value(*args, True, 0) == 11.0


def test_rollout_restores_the_board_and_scores_a_sure_loss():
    rows = ["#########", "#1#     #", "# #     #", "#       #", "#      2#", "#########"]
    grid, me, opp, ws = board(rows)
    before = grid.copy()

    def rollout(first: int) -> float:
        args = (ws.off, ws.w2, ws.ibuf, ws.fbuf, 50, time.perf_counter() + 1.0)
        return rollout_value(grid, me, opp, first, *args)

    # North, east and west (0, 1, 3) run into a wall at once: a sure loss, -WIN exactly.
    for first in (0, 1, 3):
        assert rollout(first) == -WIN
        assert np.array_equal(grid, before)
    # South is the only move; it leads on into the big room: never a crash.
    assert rollout(2) > -WIN / 2
    assert np.array_equal(grid, before)
    # The other way round: an opponent boxed in crashes on its first step, a sure win.
    grid, me, opp, ws = board(["#######", "#1   #", "#   #2#", "#######"])
    before = grid.copy()
    assert rollout(1) == WIN
    assert np.array_equal(grid, before)


def test_flood_counts_cells_and_colours_like_plain_python():
    # Random boards: the room of a free cell and how many of its cells share that
    # cell's checkerboard colour, against a plain-Python flood.
    rng = np.random.default_rng(7)
    for _ in range(40):
        h, w = int(rng.integers(3, 12)), int(rng.integers(3, 12))
        blocked = rng.random((h, w)) < rng.uniform(0.1, 0.5)
        free_cells = np.argwhere(~blocked)
        if len(free_cells) == 0:
            continue
        src_rc = tuple(int(x) for x in free_cells[rng.integers(len(free_cells))])
        room = _reachable(~blocked, src_rc) | {src_rc}
        same = sum(1 for r, c in room if (r + c) % 2 == (src_rc[0] + src_rc[1]) % 2)
        grid = np.zeros((h + 2, w + 2), dtype=np.uint8)
        grid[1:-1, 1:-1] = ~blocked
        grid = grid.ravel()
        ws = tc.Workspace(h, w)
        src = (src_rc[0] + 1) * (w + 2) + src_rc[1] + 1
        mark = ws.ibuf[tc.R_MARK]
        assert fill._flood(grid, src, ws.off, mark, 5, ws.ibuf[tc.R_QUEUE]) == (len(room), same)
        other = len(room) - same
        assert fill._side_bound(grid, src, ws.off, mark, 6, ws.ibuf[tc.R_QUEUE]) == 2 * min(
            same, other
        ) + (same > other)
        assert fill._flood_count(grid, src, ws.off, mark, 7, ws.ibuf[tc.R_QUEUE]) == len(room)


# --- frontline endgame -----------------------------------------------------------------


def _longest_path(grid: np.ndarray, head: int, off: np.ndarray) -> int:
    best = 0
    stack = [(head, 0, iter(range(4)))]
    while stack:
        c, d, it = stack[-1]
        best = max(best, d)
        for k in it:
            t = c + off[k]
            if grid[t]:
                grid[t] = tc.BLOCKED
                stack.append((t, d + 1, iter(range(4))))
                break
        else:
            stack.pop()
            if stack:
                grid[c] = tc.FREE
    return best


@pytest.mark.parametrize(
    "rows",
    [
        ["#######", "#1    #", "#     #", "#     #", "#######", "##2####"],
        ["#########", "#   #   #", "#       #", "#1  #   #", "#########", "#2#######"],
        ["########", "#  ## 1#", "#      #", "# #  # #", "#      #", "########", "#2######"],
    ],
)
def test_endgame_fills_a_separated_room_to_the_best_possible(rows):
    grid, me, opp, ws = board(rows)
    bound = int(tc.parity_bound(grid, me, ws.off, ws.ibuf))
    best = _longest_path(grid.copy(), me, ws.off)
    assert best <= bound  # the bound is a bound
    steps = 0
    while True:
        k, info = endgame_move(grid, me, ws, time.perf_counter() + 0.5)
        if k < 0 or not grid[me + ws.off[k]]:
            break
        me = me + ws.off[k]
        grid[me] = tc.BLOCKED
        steps += 1
    assert steps == best  # the longest path, found exactly
    free_cells = int(sum(1 for r in rows[:-1] for ch in r if ch == " "))
    if bound == free_cells:
        assert steps == free_cells  # filled completely


def test_space_filler_walks_real_paths_no_longer_than_the_longest():
    rng = np.random.default_rng(17)
    for _ in range(30):
        free = rng.random((5, 6)) > 0.25
        free[0, 0] = True
        rows = ["".join(" " if f else "#" for f in row) for row in free]
        rows[0] = "1" + rows[0][1:]
        rows.append("#" * 5 + "2")  # the opponent, walled off
        grid, me, opp, ws = board(rows)
        before = grid.copy()
        longest = _longest_path(grid.copy(), me, ws.off)
        for art_w in (0, 8):
            steps = space_fill_length(grid, me, ws.off, ws.ibuf, 1000, art_w, np.inf)
            assert np.array_equal(grid, before)  # the board is restored
            # Replay the filler's own moves: each enters a free cell, none is skipped.
            g, c, walked = grid.copy(), me, 0
            stamp = int(ws.ibuf[tc.R_MARK].max()) + 1
            while True:
                k, stamp = space_filler_move(g, c, ws.off, ws.ibuf, stamp, art_w)
                if k < 0:
                    break
                c = c + ws.off[k]
                assert g[c] == tc.FREE
                g[c] = tc.BLOCKED
                walked += 1
            assert walked == steps <= longest
            if longest > 0:
                assert steps >= 1


# --- every bot, real games ---------------------------------------------------------------


@pytest.mark.parametrize("map_name", ["arena", "doors", "duel"])
def test_bots_answer_legal_moves_in_time(bots, map_name, tick_clock, own_choices):
    # On the injected tick clock (tests/conftest.py): 80 ms is a budget of clock reads,
    # and "in time" is the game runner's own rule (late_after), on any machine.  The
    # move checked is the bot's own choice: TronBot.move's fallback was not used.
    game = get_game("tron")
    gmap = read_map(MAPS / f"{map_name}.txt", "tron")
    for name, bot in bots.items():
        chosen = own_choices(bot)
        state = game.initial_state(gmap)
        for _ in range(4):
            moves = {}
            for seat in (0, 1):
                asked = time.perf_counter()
                before = len(chosen)
                mv = bot.move(state.copy(), seat, asked + 0.08)
                assert tick_clock.now - asked <= late_after(0.08), (name, map_name)
                r, c = (
                    state.heads[seat] + np.array([(0, 0), (-1, 0), (0, 1), (1, 0), (0, -1)])[mv]
                )
                assert mv in (1, 2, 3, 4) and not state.blocked[r, c], (name, map_name)
                if len(chosen) > before:  # the bot chose (more than one move was legal)
                    assert chosen[-1] == mv, (name, map_name, "fallback used")
                moves[seat] = mv
            state = game.apply(state, moves)
            if game.outcome(state) is not None:
                break
        assert chosen, name  # the opening has several legal moves: the bot chose


def _random_positions(n: int, seed: int):
    game = get_game("tron")
    gmap = read_map(MAPS / "pillars.txt", "tron")
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        state = game.initial_state(gmap)
        for _ in range(int(rng.integers(5, 60))):
            nxt = game.apply(state, {p: game.random_move(state, p, rng) for p in (0, 1)})
            if game.outcome(nxt) is not None:
                break
            state = nxt
        out.append(state)
    return out


def test_bots_never_suicide_when_a_safe_move_exists(bots, own_choices):
    # The bot's own choice, not TronBot.move's fallback to the first legal move.
    deltas = np.array([(0, 0), (-1, 0), (0, 1), (1, 0), (0, -1)])
    chosen = {name: own_choices(bot) for name, bot in bots.items()}
    for state, (name, bot) in itertools.product(_random_positions(6, 11), bots.items()):
        for seat in (0, 1):
            head = state.heads[seat]
            free = [m for m in (1, 2, 3, 4) if not state.blocked[tuple(head + deltas[m])]]
            before = len(chosen[name])
            mv = bot.move(state.copy(), seat, time.perf_counter() + 0.05)
            if free:
                assert mv in free, (name, state.turn, seat)
            if len(free) > 1:
                assert len(chosen[name]) == before + 1 and chosen[name][-1] == mv, (
                    name,
                    state.turn,
                    seat,
                )


@pytest.mark.parametrize("name", ["voronoi", "chambers", "frontline", "apex"])
def test_fixed_depth_searches_that_deep_whatever_the_clock(name, tick_clock):
    # Far apart (chambers would roll out) on an open board: a 1 ms deadline would stop
    # a timed search at depth 1 or 2; a fixed-depth one goes to 4 turns all the same.
    # On the injected tick clock every clock read takes 1 ms, on any machine.
    rows = ["1" + " " * 11] + [" " * 12] * 6 + [" " * 11 + "2"]
    bot = make_bot("tron", name, seed=1)
    bot.fixed_depth = 4
    mv = bot.move(position(rows), 0, time.perf_counter() - 1.0)
    assert mv in (2, 3)
    assert bot.last_info["depth"] == 4 and "rollouts" not in bot.last_info
    bot.fixed_depth = 0  # by the clock again: a deadline already past stops it early
    bot.move(position(rows), 0, time.perf_counter() - 1.0)
    assert bot.last_info["depth"] < 4


# --- apex ------------------------------------------------------------------------------


def _random_board(rng: np.random.Generator, h: int, w: int, density: float):
    free = rng.random((h, w)) > density
    cells = list(zip(*np.nonzero(free)))
    a, b = rng.choice(len(cells), 2, replace=False)
    blocked = ~free
    blocked[cells[a]] = blocked[cells[b]] = True
    pos = SimpleNamespace(blocked=blocked, heads=np.array([cells[a], cells[b]]))
    grid, me, opp = tc.board_from_state(pos, 0)
    return grid, me, opp, tc.Workspace(h, w)


def test_apex_chamber_score_is_chamber_value_in_thousandths():
    rng = np.random.default_rng(23)
    for trial in range(60):
        grid, me, opp, ws = _random_board(rng, 9, 11, rng.uniform(0.05, 0.45))
        tables = apex.SearchTables(ws.n)
        tc.voronoi_touching(grid, me, opp, ws.off, ws.ibuf)
        for parity, front in itertools.product((False, True), repeat=2):
            for x, y, swap in ((me, opp, 0), (opp, me, 1)):
                want = tree.chamber_value(
                    grid,
                    x,
                    y,
                    ws.off,
                    ws.w2,
                    ws.ibuf,
                    ws.fbuf,
                    0.055,
                    0.194,
                    parity,
                    front,
                    swap,
                )
                got = apex.chamber_score(
                    grid,
                    x,
                    y,
                    ws.off,
                    ws.w2,
                    ws.ibuf,
                    tables.bbuf,
                    55,
                    194,
                    parity,
                    front,
                    swap,
                )
                assert got == pytest.approx(1000 * want, abs=1e-6), (trial, parity, front)


def test_apex_chamber_score_of_the_seed_positions():
    rows = [r + "2#" if i == 2 else r + "##" for i, r in enumerate(SEED_CORRIDOR)]
    grid, me, opp, ws = board(rows)
    tables = apex.SearchTables(ws.n)
    tc.voronoi_touching(grid, me, opp, ws.off, ws.ibuf)
    # The room of 4 cells then the longer corridor (15), as the seed counts it.
    assert (
        apex.chamber_score(
            grid, me, opp, ws.off, ws.w2, ws.ibuf, tables.bbuf, 1, 0, False, False, 0
        )
        == 19
    )


def test_apex_search_has_frontline_values_at_every_depth():
    # The move table changes the order moves are searched in, never the values: the
    # best root value is 1000 times frontline's (its evaluation in thousandths).
    rng = np.random.default_rng(31)
    for trial in range(8):
        grid, me, opp, ws = _random_board(rng, 6, 7, 0.2)
        tables = apex.SearchTables(ws.n)
        for depth in (1, 2, 3):
            before = grid.copy()
            k, info = apex.apex_deepening(grid, me, opp, ws, tables, np.inf, fixed_depth=depth)
            assert np.array_equal(grid, before)
            k0, info0 = iterative_deepening(
                grid, me, opp, ws, MODE_FRONTLINE, np.inf, fixed_depth=depth
            )
            if k0 < 0:
                assert k < 0
                continue
            v, v0 = info["value"], info0["value"]
            if abs(v0) >= WIN - 1000:  # a won or lost line, as many plies away
                assert np.sign(v) == np.sign(v0)
                assert apex.WIN - abs(v) == WIN - abs(v0)
            else:
                assert v == pytest.approx(1000 * v0, abs=1e-6), (trial, depth)


def test_apex_cuts_the_opponent_off():
    rows = [r.replace("-", " ") for r in CUT_OFF]
    bot = make_bot("tron", "apex")
    bot.fixed_depth = 3
    assert bot.move(position(rows), 0, time.perf_counter() + 0.5) == 2
    assert bot.last_info["value"] >= 20 * apex.CELL  # won by 20+ cells


def test_apex_risks_the_collision_rather_than_a_dead_end():
    # West is a one-cell dead end (a sure loss); east is the square between the heads,
    # which leads down into the room: the opponent may take it too (a draw), or run
    # for the room by its own door.  A draw is worth more than a loss.
    rows = ["#######", "# 1 2 #", "### # #", "#     #", "#######"]
    bot = make_bot("tron", "apex")
    bot.fixed_depth = 3
    assert bot.move(position(rows), 0, time.perf_counter() + 0.5) == 2
    assert bot.last_info["value"] > -apex.WIN / 2


def test_apex_fixed_depth_is_deterministic_and_chooses_a_legal_move():
    # ``choose`` itself (not ``move``, which would repair an illegal answer) returns a
    # free cell, and the same search twice gives the same move and node count, even
    # after another position filled the move table.  (Positions where the cycles can
    # still meet: the separated endgame goes by the clock.)
    game = get_game("tron")
    bot = make_bot("tron", "apex")
    bot.fixed_depth = 3
    for state in _random_positions(8, 5):
        for seat in (0, 1):
            grid, me, opp = tc.board_from_state(state, seat)
            ws = tc.Workspace(*state.blocked.shape)
            legal = tc.legal_moves(grid, me, ws.off)
            if len(legal) < 2 or tc.head_distance(grid, me, opp, ws.off, ws.ibuf) >= tc.INF:
                continue
            runs = [
                (bot.choose(grid, me, opp, ws, np.inf), dict(bot.last_info)) for _ in range(2)
            ]
            assert runs[0][0] in legal, (state.turn, seat)
            assert runs[0][0] == runs[1][0]
            assert runs[0][1]["nodes"] == runs[1][1]["nodes"]
    assert game is not None


@pytest.mark.parametrize(
    "budget, thinks", [(0.1, 0.08), (0.9, 0.83), (1.0, 0.93), (3.0, 2.93), (0.02, 0.004)]
)
def test_apex_thinks_most_of_its_budget(budget, thinks):
    bot = make_bot("tron", "apex")
    assert bot.stop_time(100.0 + budget, 100.0) - 100.0 == pytest.approx(thinks)


def test_apex_node_budget_bounds_the_search_whatever_the_clock():
    # An open board: with 300 nodes a move the search stops at the same place every
    # time (the budget, not the clock, ends it), and with more nodes it goes deeper.
    rows = ["1" + " " * 9] + [" " * 10] * 6 + [" " * 9 + "2"]
    bot = make_bot("tron", "apex")
    bot.node_limit = 300
    runs = []
    for _ in range(2):
        mv = bot.move(position(rows), 0, time.perf_counter() + 60.0)
        runs.append((mv, bot.last_info["depth"], bot.last_info["nodes"]))
    assert runs[0] == runs[1]
    assert 300 <= runs[0][2] <= 300 + 1  # stopped by the budget (at most one over)
    bot.node_limit = 3000
    bot.move(position(rows), 0, time.perf_counter() + 60.0)
    assert bot.last_info["depth"] > runs[0][1]


def test_apex_breaks_a_forced_draw_tie_by_the_game_without_collision():
    # North and east both let the opponent force a draw (it may step onto the square
    # in the corner between the heads).  If it does not collide, east shuts it in its
    # 2-cell pocket (a win), while after north it may still come out into the right-
    # hand column.  The tie-break plays east; the plain search takes the first of
    # equals, north.
    rows = ["    #  ", "     # ", "    #  ", "#   #1 ", "#  #  2"]
    bot = make_bot("tron", "apex")
    bot.fixed_depth = 3
    bot.tie_break = False
    assert bot.move(position(rows), 0, time.perf_counter() + 0.5) == 1
    scores = bot.last_info["scores"]
    assert scores[0] == scores[1] == apex.DRAW  # a draw the opponent can force
    bot.tie_break = True
    assert bot.move(position(rows), 0, time.perf_counter() + 0.5) == 2
    assert bot.last_info["tie_break"] == 3


def test_apex_unfinished_depth_does_not_keep_a_move_found_failing():
    # Depth 6 found moves 0 and 2 equal (-1468); depth 7 finished move 0 only, at
    # -14182 (it loses the fight): move 2, as good as 0 one depth less, is played.
    scores = np.array([-14182.0, -np.inf, -np.inf, -np.inf])
    last = [-1468.0, -2742.0, -1468.0, -np.inf]
    assert apex._partial_choice(scores, last, 0, 6) == 2
    # A small fall keeps the move searched deeper; without a finished depth, too.
    scores[0] = -1468.0 - apex.FAIL_LOW_MARGIN / 2
    assert apex._partial_choice(scores, last, 0, 6) == 0
    assert (
        apex._partial_choice(np.array([-9e3, -np.inf, -np.inf, -np.inf]), [-np.inf] * 4, 0, 0)
        == 0
    )


# --- benchmarks/tron_outside.py ----------------------------------------------------------


# A contest-protocol program that always goes north: it reads the "W H" line and H
# rows each turn and answers "1".
_NORTH_BOT = """import sys
while True:
    line = sys.stdin.readline()
    if not line:
        break
    h = int(line.split()[1])
    for _ in range(h):
        sys.stdin.readline()
    sys.stdout.write("1\\n")
    sys.stdout.flush()
"""


def test_outside_benchmark_plays_both_seats_and_scores_them(tmp_path):
    bench = benchmark_module("tron_outside")
    script = tmp_path / "north.py"
    script.write_text(_NORTH_BOT)
    board = tmp_path / "room.txt"
    # From seat 1 ("1") the program runs north into the wall after 3 steps, from seat 2
    # at once; wallhugger outlives it either way.
    board.write_text("7 6\n#######\n#2    #\n#     #\n#     #\n#    1#\n#######\n")
    outside = bench.parse_outside([f"north=cmd:{sys.executable} {script}"])
    results = bench.play_vs_outside(["wallhugger"], outside, [board], time_limit=1.0)
    assert [r["seat"] for r in results] == [0, 1]
    for r in results:
        assert r["outcome"] == "W" and r["score"] == 1.0, r
        assert r["status"] == "ok" and r["outside_status"] == "ok"
        assert 0 < r["slowest"] < 1.5
    assert [r["turns"] for r in results] == [1, 4]
    summary = bench.summarise(results)[("wallhugger", "north")]
    assert (summary["W"], summary["D"], summary["L"], summary["games"]) == (2, 0, 0, 2)
    # Mean 0.625, sample variance 1/16: plus or minus 1.96 * sqrt(1/16 / 4) = 0.245.
    assert bench.score_interval([1.0, 0.5, 0.5, 0.5]) == pytest.approx((0.38, 0.625, 0.87))
    with pytest.raises(ValueError):
        bench.parse_outside(["north=./bot"])


def _result(map_name, seat, score, seed=0, maps="tests/data/tron-maps"):
    return {
        "bot": "apex",
        "outside": "winner",
        "map": map_name,
        "maps": maps,
        "seat": seat,
        "seed": seed,
        "score": score,
        "outcome": "W" if score == 1.0 else "L" if score == 0.0 else "D",
        "status": "ok",
        "outside_status": "ok",
        "slowest": 0.1,
        "outside_slowest": 0.1,
        "detail": "",
    }


def test_outside_report_pairs_the_seats_and_keeps_the_map_sets_apart():
    bench = benchmark_module("tron_outside")
    contest = [
        _result("box", 0, 1.0),
        _result("box", 1, 0.0),
        _result("ring", 0, 0.5),
        _result("ring", 1, 0.5),
        _result("box", 0, 1.0, seed=1),
        _result("box", 1, 1.0, seed=1),
    ]
    ours = "benchmarks/data/tron-maps"
    own = [
        _result("maze", 0, 1.0, maps=ours),
        _result("maze", 1, 1.0, maps=ours),
        _result("lanes", 0, 1.0, maps=ours),
        _result("lanes", 1, 0.0, maps=ours),
    ]
    # each map, seed and set's games are one group: (1 + 0) / 2, 1/2, (1 + 1) / 2
    assert bench.pair_values(contest) == [0.5, 1.0, 0.5]
    s = bench.summarise(contest)[("apex", "winner")]
    assert s["pairs"] == 3 and s["mean"] == pytest.approx(4 / 6)
    from atlas.arena.paired import paired_interval

    want = paired_interval([0.5, 1.0, 0.5])
    assert (s["pair_low"], s["pair_high"]) == (want.low, want.high)
    report = bench.format_report(contest + own)
    blocks = report.split("\n\n")
    assert "on tests/data/tron-maps:\napex vs winner: 3 wins, 2 draws" in report
    assert "in 6 games = 66.7 %" in report and "over 3 seat-swapped pairs" in report
    assert "on benchmarks/data/tron-maps:\napex vs winner: 3 wins, 0 draws" in report
    assert "on all the maps:\napex vs winner: 6 wins, 2 draws (0 head-on), 2 losses" in report
    assert "\n  box              WW | LW    3.0 / 4\n" in report
    assert "\n  lanes             W | L     1.0 / 2\n" in report
    assert len(blocks) == 4  # the per-map tables, then each set and all of them


def test_outside_runs_compare_pair_by_pair():
    """Two runs of the same games: the pairs both played in both seats, each set of
    maps and all of them, the difference with the normal interval over the pairs."""
    bench = benchmark_module("tron_outside")
    ours = "benchmarks/data/tron-maps"
    before = [
        _result("box", 0, 1.0),
        _result("box", 1, 0.0),  # pair 0.5
        _result("ring", 0, 0.5),
        _result("ring", 1, 0.5),  # pair 0.5
        _result("oval", 0, 1.0),
        _result("oval", 1, 1.0),  # pair 1.0
        _result("maze", 0, 0.0, maps=ours),
        _result("maze", 1, 0.5, maps=ours),  # pair 0.25
        _result("lanes", 0, 1.0, maps=ours),  # one seat only: left out
    ]
    after = [
        _result("box", 0, 1.0),
        _result("box", 1, 1.0),  # pair 1.0: +0.5
        _result("ring", 0, 0.5),
        _result("ring", 1, 0.5),  # the same
        _result("oval", 0, 1.0),
        _result("oval", 1, 0.0),  # pair 0.5: -0.5
        _result("maze", 0, 1.0, maps=ours),
        _result("maze", 1, 0.5, maps=ours),  # pair 0.75: +0.5
        _result("lanes", 0, 1.0, maps=ours),
        _result("lanes", 1, 1.0, maps=ours),
    ]
    lines = bench.compare_runs(after, before)
    assert len(lines) == 3  # each set, then all the maps
    # the contest's three pairs: differences +0.5, 0, -0.5 (mean 0, sd 0.5)
    half = 1.959963984540054 * 0.5 / 3**0.5
    assert lines[1] == (
        "on tests/data/tron-maps: 3 pairs, first 66.7 %, second 66.7 %, first - second "
        f"+0.0 points [95 % interval {-100 * half:+.1f}, {100 * half:+.1f}]; pairs "
        "better 1, worse 1, the same 1"
    )
    assert lines[0].startswith("on benchmarks/data/tron-maps: 1 pairs, first 75.0 %")
    assert "+50.0 points" in lines[0]
    assert lines[2].startswith("on all the maps: 4 pairs, first 68.8 %, second 56.2 %")
    assert bench.compare_runs(after[:1], before[:1]) == [
        "no pair played in both seats in both runs"
    ]


def test_outside_games_set_array_settings_with_their_type():
    # --set "ev=[...]" reads a JSON list; apex's kernels are compiled for an int64
    # array, so the list must become one (a list made every game crash)
    from atlas.bots import make_bot
    from atlas.games.tron.bots.apex import ApexBot

    bench = benchmark_module("tron_outside")

    def apex(settings: dict[str, object]) -> ApexBot:
        return bench.apply_settings(make_bot("tron", "apex", 0), "apex", settings)

    weights = [55, 150, 1, 1, 1_000_000]
    bot = apex({"ev": weights})
    assert bot.ev.dtype == np.int64 and bot.ev.tolist() == weights
    assert apex({"tie_break": False}).tie_break is False
    with pytest.raises(ValueError, match="expected 5 values"):
        apex({"ev": [1, 2]})
    with pytest.raises(ValueError, match="no setting"):
        apex({"no_such": 1})


def test_map_set_is_the_map_s_folder_in_the_repository():
    bench = benchmark_module("tron_outside")
    root = Path(__file__).resolve().parents[2]
    assert bench.map_set(root / "tests" / "data" / "tron-maps" / "box.txt") == (
        "tests/data/tron-maps"
    )
    assert bench.map_set("/elsewhere/maps/x.txt") == "/elsewhere/maps"


def test_tron_jar_output_gives_the_first_seat_s_score_and_the_turns():
    bench = benchmark_module("tron_outside")
    board = "5 3\n#####\n#1 2#\n#####\n"
    assert bench.parse_jar_output(board * 3 + "Player One Wins!\n") == (
        1.0,
        3,
        "Player One Wins!",
    )
    assert bench.parse_jar_output(board + "Player Two Wins!\n")[:2] == (0.0, 1)
    assert bench.parse_jar_output(board * 2 + "Players collided. Draw!\n")[:2] == (0.5, 2)
    assert bench.parse_jar_output(board + "Both players crashed. Draw!")[0] == 0.5
    with pytest.raises(ValueError, match="no result line"):
        bench.parse_jar_output(board + "Exception in thread main\n")
