"""Tests of the ``planner`` Outpost bot and its kernels, on crafted positions."""

from __future__ import annotations

import itertools
import time

import numpy as np
import pytest

from atlas.bots import make_bot
from atlas.games.outpost.bots.plan_kernels import (
    FAR,
    Lookahead,
    Weighing,
    assign,
    diamond_gain,
    evaluate_moved,
    evaluate_toward,
    gain_field,
    greedy_targets,
    l1_field,
    land_field,
    near_field,
    robust_supply,
    simulate_plan,
)
from atlas.games.outpost.bots.planner import PlannerConfig, PlannerOutpostBot
from atlas.games.outpost.rules import GAME, check_move, play_turn, with_outposts
from atlas.games.outpost.rules.kernels import Position
from atlas.maps import GameMap

FAR_AWAY = 1e9  # a deadline no test reaches: the planner stops by its own budget


def _open_map(size: int = 30) -> GameMap:
    return GameMap("outpost", "open", np.zeros((size, size), bool))


def _flat(state, cells):
    s = state.board.stride
    return np.array([(r + 1) * s + c + 1 for r, c in cells], np.int64)


def _random_board(seed, rows, cols, water_share, r, enemies):
    """A board with random water (its corners land), the generator that drew it, and
    ``elim`` (distance to the enemy outposts on ``enemies``, capped at ``r + 1``)."""
    rng = np.random.default_rng(seed)
    water = rng.random((rows, cols)) < water_share
    for rc in ((0, 0), (0, cols - 1), (rows - 1, cols - 1), (rows - 1, 0)):
        water[rc] = False
    state = GAME.initial_state(GameMap("outpost", "g", water), {"r": r, "L": 1, "W": 1})
    b = state.board
    en = np.zeros(len(b.land_flat), np.int32)
    l1_field(b.board_flat, b.stride, _flat(state, enemies), en, np.zeros(len(en), np.int32))
    return rng, state, np.minimum(en, r + 1).astype(np.int32)


def _win(board, elim, r, cell, won):
    """Mark ``won`` the cells an outpost on ``cell`` wins: within ``r``, nearer than
    the enemy (the plain count the greedy tests check against)."""
    s = board.stride
    r0, c0 = divmod(int(cell), s)
    for x in np.flatnonzero(board.board_flat):
        d = abs(x // s - r0) + abs(x % s - c0)
        if d <= r and d < elim[x]:
            won[x] = 1


# --------------------------------------------------------------------------- kernels


def test_assign_matches_brute_force():
    rng = np.random.default_rng(3)
    for n, m in ((3, 3), (4, 6), (5, 5), (2, 7)):
        for _ in range(20):
            cost = rng.integers(0, 50, (n, m)).astype(np.float64)
            col = assign(cost)
            assert len(set(col.tolist())) == n  # distinct columns
            got = cost[np.arange(n), col].sum()
            best = min(
                sum(cost[i, p[i]] for i in range(n))
                for p in itertools.permutations(range(m), n)
            )
            assert got == best


def test_l1_field_is_manhattan_distance_over_water():
    water = np.zeros((12, 12), bool)
    water[3:9, 5] = True  # water does not block influence
    state = GAME.initial_state(GameMap("outpost", "w", water), {"r": 3, "L": 6, "W": 2})
    b = state.board
    dist = np.zeros(len(b.land_flat), np.int32)
    l1_field(
        b.board_flat,
        b.stride,
        _flat(state, [(5, 2), (0, 11)]),
        dist,
        np.zeros(len(b.land_flat), np.int32),
    )
    grid = dist.reshape(14, 14)[1:-1, 1:-1]
    rr, cc = np.mgrid[0:12, 0:12]
    want = np.minimum(abs(rr - 5) + abs(cc - 2), abs(rr - 0) + abs(cc - 11))
    assert (grid == want).all()
    assert dist.reshape(14, 14)[0, 0] == FAR  # the border


@pytest.mark.parametrize(
    ("rows", "cols", "r", "sources"),
    [(9, 17, 3, 2), (16, 5, 10, 5), (1, 12, 2, 1), (7, 7, 4, 0)],
)
def test_near_field_is_the_l1_field_up_to_the_radius(rows, cols, r, sources):
    # random sources (repeats allowed) on boards of several shapes; beyond r, r + 1
    rng = np.random.default_rng(rows * cols + sources)
    water = rng.random((rows, cols)) < 0.3
    state = GAME.initial_state(GameMap("outpost", "n", water), {"r": r, "L": 1, "W": 1})
    b = state.board
    src = _flat(
        state, [(int(rng.integers(rows)), int(rng.integers(cols))) for _ in range(sources)]
    )
    full = np.zeros(len(b.land_flat), np.int32)
    l1_field(b.board_flat, b.stride, src, full, np.zeros(len(full), np.int32))
    near = np.full(len(full), -7, np.int32)
    near_field(b.stride, r, src, near)
    inside = b.board_flat != 0
    assert (near[inside] == np.minimum(full[inside], r + 1)).all()
    assert (near[~inside] == r + 1).all()
    assert (near[inside] <= r).any() == (sources > 0)


def test_greedy_targets_spread_and_respect_the_enemy():
    # an open 30x30 board, r = 3: the first target wins a whole diamond (25 cells) and
    # no two targets share a cell of their winnings; nothing is won next to the enemy
    state = GAME.initial_state(_open_map(), {"r": 3, "L": 6, "W": 2})
    b = state.board
    size = len(b.land_flat)
    value = (b.board_flat != 0).astype(np.float64)
    en = np.zeros(size, np.int32)
    enemy = _flat(state, [(15, 15)])
    l1_field(b.board_flat, b.stride, enemy, en, np.zeros(size, np.int32))
    elim = np.minimum(en, 4).astype(np.int32)
    cand = np.flatnonzero(b.land_flat).astype(np.int64)
    won = np.zeros(size, np.uint8)
    out = np.zeros(6, np.int64)
    got = greedy_targets(
        b.board_flat, b.stride, 3, value, elim, won, cand, np.zeros(len(cand)), 6, 1.0, out
    )
    assert got == 6
    chosen = cand[out[:got]]
    s = b.stride
    rc = [(c // s - 1, c % s - 1) for c in chosen]
    # the first pick is a full diamond away from the enemy and the edges
    r0, c0 = rc[0]
    assert 3 <= r0 <= 26 and 3 <= c0 <= 26 and abs(r0 - 15) + abs(c0 - 15) >= 7
    # coverage: every pair of the first four targets is more than r apart
    for (a, b_), (c, d) in itertools.combinations(rc[:4], 2):
        assert abs(a - c) + abs(b_ - d) > 3
    # the enemy's cell and its neighbours are never won
    for r, c in ((15, 15), (14, 15), (15, 16)):
        assert won[(r + 1) * s + c + 1] == 0
    # the winnings add up: won cells = sum of the gains taken
    assert won.sum() <= 6 * 25


def test_greedy_takes_the_best_gain_at_every_pick():
    # against a plain greedy that re-counts every candidate at every pick: the same
    # gains in the same order (keeping the gains up to date changes only the work),
    # ties to the earlier candidate
    rng, state, elim = _random_board(5, 20, 20, 0.2, 3, [(4, 15), (12, 3)])
    b = state.board
    size = len(b.land_flat)
    value = (b.board_flat != 0) * (1.0 + 2.0 * (b.land_flat == 0))
    cand = np.flatnonzero(b.land_flat).astype(np.int64)
    bonus = rng.integers(0, 3, len(cand)).astype(np.float64)
    won = np.zeros(size, np.uint8)
    out = np.zeros(8, np.int64)
    got = greedy_targets(b.board_flat, b.stride, 3, value, elim, won, cand, bonus, 8, 1.0, out)
    s = b.stride

    def gain(c, w):
        r0, c0 = divmod(int(c), s)
        g = 0.0
        for x in np.flatnonzero(b.board_flat):
            d = abs(x // s - r0) + abs(x % s - c0)
            if d <= 3 and w[x] == 0 and d < elim[x]:
                g += value[x]
        return g

    w = np.zeros(size, np.uint8)
    for t in range(got):
        gains = np.array([gain(c, w) for c in cand]) + bonus
        assert gains[out[t]] == gains.max()
        assert out[t] == int(np.argmax(gains))  # the earliest of equal gains
        _win(b, elim, 3, cand[out[t]], w)
    assert (w == won).all()


@pytest.mark.parametrize(
    ("rows", "cols", "r"),
    [(23, 31, 10), (17, 9, 4), (6, 40, 7), (9, 5, 8), (12, 13, 1), (7, 8, 2), (1, 30, 3)],
)
def test_gain_field_is_every_cells_diamond_gain(rows, cols, r):
    # the row-sum field against diamond_gain cell by cell: water, half-integer values,
    # enemies near the edges (elim from 0 to r + 1) and cells already won
    enemies = [(0, cols // 2), (rows // 2, 0), (rows - 1, cols - 1)]
    rng, state, elim = _random_board(rows * cols + r, rows, cols, 0.25, r, enemies)
    b = state.board
    size = len(b.land_flat)
    value = (
        (b.board_flat != 0) * (1.0 + 2.0 * (b.land_flat == 0)) * rng.choice([0.5, 1.0], size)
    )
    won = (rng.random(size) < 0.3).astype(np.uint8)
    field = np.full(size, np.nan)
    gain_field(b.board_flat, b.stride, r, value, elim, won, field)
    s = b.stride
    for x in range(size):
        if 1 <= x // s <= rows and 1 <= x % s <= cols:
            assert field[x] == diamond_gain(b.board_flat, s, r, value, elim, won, x)


def test_greedy_from_cells_already_won_matches_recounting():
    # a wide radius (the bundled maps' r = 10) and coverage given on entry
    _, state, elim = _random_board(11, 30, 34, 0.15, 10, [(5, 28), (25, 6)])
    b = state.board
    s = b.stride
    size = len(b.land_flat)
    value = (b.board_flat != 0) * (1.0 + 6.0 * (b.land_flat == 0))
    cand = np.flatnonzero(b.land_flat).astype(np.int64)
    bonus = np.zeros(len(cand))
    won = np.zeros(size, np.uint8)
    won[: size // 3] = 1
    start = won.copy()
    out = np.zeros(5, np.int64)
    got = greedy_targets(b.board_flat, s, 10, value, elim, won, cand, bonus, 5, 1.0, out)
    assert got == 5
    w = start.copy()
    for t in range(got):
        gains = np.array([diamond_gain(b.board_flat, s, 10, value, elim, w, c) for c in cand])
        assert out[t] == int(np.argmax(gains))
        _win(b, elim, 10, cand[out[t]], w)
    assert (w == won).all()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_greedy_in_any_candidate_order_ties_to_the_earlier_candidate(seed):
    # candidates shuffled (the earlier candidate is not the earlier cell), plateaus of
    # equal gains (open land, all cells worth 1, no bonus) and a few bonuses: each pick
    # is the first candidate of the greatest recounted gain
    rng, state, elim = _random_board(40 + seed, 18, 22, 0.1, 4, [(9, 11)])
    b = state.board
    s = b.stride
    size = len(b.land_flat)
    value = (b.board_flat != 0).astype(np.float64)
    cand = rng.permutation(np.flatnonzero(b.land_flat)).astype(np.int64)
    bonus = np.where(rng.random(len(cand)) < 0.05, 1.0, 0.0)
    won = np.zeros(size, np.uint8)
    out = np.zeros(12, np.int64)
    got = greedy_targets(b.board_flat, s, 4, value, elim, won, cand, bonus, 12, 1.0, out)
    w = np.zeros(size, np.uint8)
    expected = []
    for _ in range(12):
        gains = np.array([diamond_gain(b.board_flat, s, 4, value, elim, w, c) for c in cand])
        keys = gains + bonus
        keys[expected] = -np.inf  # taken
        best = int(np.argmax(keys))
        if keys[best] < 1.0:
            break
        expected.append(best)
        _win(b, elim, 4, cand[best], w)
    assert got == len(expected) > 3
    assert out[:got].tolist() == expected
    assert (w == won).all()


def _scoring(state, me, value, cells, emps):
    """A Position and a Weighing of their own buffers for ``state``'s board, as tuples."""
    b = state.board
    size = len(b.land_flat)
    bufs = np.zeros((7, size), np.int32)
    bufs[6] = -1
    pos = Position(b.land_flat, b.board_flat, b.stride, state.params.r, b.homes_flat, bufs)
    en = np.zeros(size, np.int32)
    l1_field(b.board_flat, b.stride, cells[emps != me], en, np.zeros(size, np.int32))
    w = Weighing(
        me,
        value,
        en,
        np.zeros(size, np.int32),
        np.zeros(size, np.int32),
        np.zeros((4, 3), np.int64),
        np.zeros(len(cells), np.uint8),
        120.0,
        150.0,
        1e7,
    )
    return pos, w


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_step_scored_in_its_box_scores_as_counted_anew(seed):
    # evaluate_moved (the ownership updated in the box of one outpost's step) against
    # evaluate_toward on buffers of its own: the same score, our counts, and the
    # ownership held put back as it was, or kept as the step's when asked
    rng = np.random.default_rng(seed)
    _, state, _ = _random_board(60 + seed, 40, 44, 0.25, 6, [])
    b = state.board
    s = b.stride
    land = np.flatnonzero(b.land_flat)
    per = [3, 5, 4, 2]
    cells = rng.choice(land, sum(per), replace=False).astype(np.int64)
    emps = np.repeat(np.arange(4), per).astype(np.int64)
    starts = np.concatenate([[0], np.cumsum(per)]).astype(np.int64)
    me = 1
    a = int(starts[me])
    value = (b.board_flat != 0) * rng.choice([0.5, 1.0, 3.0], len(b.land_flat))
    pos, w = _scoring(state, me, value, cells, emps)
    targets = rng.choice(land, 3, replace=False)
    fields = np.zeros((3, len(b.land_flat)), np.int32)
    for t in range(3):
        land_field(
            b.land_flat, s, int(targets[t]), fields[t], np.zeros(len(b.land_flat), np.int32)
        )
    slot = rng.integers(0, 3, per[me]).astype(np.int64)
    tail = (emps, starts, fields, slot, a, 12.0)
    boxes = np.zeros((1, 4), np.int64)
    got = np.zeros(2, np.int64)

    def in_box(moved, j, keep):  # the step of outpost j from cells[j], on the held ownership
        return evaluate_moved(
            tuple(pos), tuple(w), moved, *tail, j, int(cells[j]), boxes, got, keep
        )

    def anew(moved):  # counted on buffers of their own: the score and its weighing
        ref_pos, ref_w = _scoring(state, me, value, cells, emps)
        return evaluate_toward(tuple(ref_pos), tuple(ref_w), moved, *tail), ref_pos, ref_w

    evaluate_toward(tuple(pos), tuple(w), cells, *tail)
    held = (w.owner.copy(), w.counts.copy(), pos.bufs[0].copy())
    moves = 0
    for j in range(a, a + per[me]):
        for step in (-s, 1, s, -1):
            dst = int(cells[j]) + step
            if not b.land_flat[dst] or dst in cells:
                continue
            moved = cells.copy()
            moved[j] = dst
            got_score = in_box(moved, j, False)
            want, _, ref_w = anew(moved)
            assert got_score == want
            assert got.tolist() == ref_w.counts[me, :2].tolist()
            assert (w.owner == held[0]).all() and (w.counts == held[1]).all()
            assert (pos.bufs[0] == held[2]).all()
            moves += 1
    assert moves >= 6
    # a kept step: the ownership held becomes the step's, as counted anew
    j = a
    dst = next(int(cells[j]) + d for d in (-s, 1, s, -1) if b.land_flat[int(cells[j]) + d])
    moved = cells.copy()
    moved[j] = dst
    kept = in_box(moved, j, True)
    want, ref_pos, ref_w = anew(moved)
    assert kept == want
    assert (w.owner == ref_w.owner).all() and (w.counts == ref_w.counts).all()
    assert (pos.bufs[0] == ref_pos.bufs[0]).all()


def test_robust_supply_sees_a_cut_one_enemy_step_away():
    # a dead-end corridor of land along row 0, reached from the rest of the board only
    # through home (0, 0); our outposts on home and (0, 9), r = 3
    water = np.zeros((16, 16), bool)
    water[1, 1:13] = True
    water[0, 13] = True
    state = GAME.initial_state(GameMap("outpost", "c", water), {"r": 3, "L": 6, "W": 2})
    b = state.board
    size = len(b.land_flat)
    q = np.zeros(size, np.int32)

    def robust(enemy_rc):
        mine = _flat(state, [(0, 0), (0, 9)])
        my = np.zeros(size, np.int32)
        en = np.zeros(size, np.int32)
        l1_field(b.board_flat, b.stride, mine, my, q)
        l1_field(b.board_flat, b.stride, _flat(state, [enemy_rc]), en, q)
        alive = np.zeros(2, np.uint8)
        owner = np.zeros(size, np.int32)
        bufs = np.zeros((7, size), np.int32)
        bufs[6] = -1
        pos = Position(b.land_flat, b.board_flat, b.stride, 3, b.homes_flat, bufs)
        kept = robust_supply(pos, my, en, 0, mine, alive, owner)
        assert not bufs[3].any() and (bufs[6] == -1).all()  # left clean
        return kept, alive.tolist()

    # enemy on (4, 5): the corridor cell (0, 5) is neutral now (4 from the enemy, 4
    # from (0, 9), 5 from home) but one enemy step north takes it: (0, 9) is at risk
    assert robust((4, 5)) == (1, [1, 0])
    # on (11, 5) nothing can reach the corridor in one step
    assert robust((11, 5)) == (2, [1, 1])


def test_guard_drops_targets_an_enemy_two_steps_away_could_cut_off():
    # the dead-end corridor of the test above: a target on (0, 9) is supplied through
    # (0, 5); an enemy five rows below can take that cell after two steps north, one
    # eight rows below cannot
    water = np.zeros((16, 16), bool)
    water[1, 1:13] = True
    water[0, 13] = True
    for enemy, held in (((5, 5), False), ((8, 5), True)):
        st = with_outposts(
            GAME.initial_state(GameMap("outpost", "c", water), {"r": 3, "L": 6, "W": 2}),
            [[(0, 0)], [(0, 15)], [(15, 15)], [(15, 0), enemy]],
        )
        assert st.num_outposts(3) == 2
        bot = PlannerOutpostBot()
        bot.move(st.copy(), 0, FAR_AWAY)  # sets up the enemy distances
        targets = _flat(st, [(0, 9), (3, 0)])
        assert bot._held(st, 0, targets, 3).tolist() == [held, True]


def test_simulate_plan_builds_when_the_walk_reaches_water():
    # water only far from home: an outpost that walks to it builds at the next season
    water = np.zeros((30, 30), bool)
    water[10:13, 10:13] = True
    water[17:20, 17:20] = True
    state = GAME.initial_state(
        GameMap("outpost", "lake", water), {"r": 3, "L": 6, "W": 2, "T": 60}
    )
    b = state.board
    size = len(b.land_flat)
    cells = np.asarray(b.homes_flat, np.int64)
    emps = np.arange(4, dtype=np.int64)
    target = _flat(state, [(9, 9)])[0]
    fields = np.zeros((1, size), np.int32)
    from atlas.games.outpost.bots.plan_kernels import land_field

    land_field(b.land_flat, b.stride, int(target), fields[0], np.zeros(size, np.int32))
    value = (b.board_flat != 0).astype(np.float64)
    bufs = np.zeros((7, size), np.int32)
    pos = Position(
        b.land_flat, b.board_flat, b.stride, 3, np.asarray(b.homes_flat, np.int64), bufs
    )
    la = Lookahead(
        6, 2, 0, 0, 30, 60, 10, value, np.zeros(size, np.int32), np.zeros((4, 3), np.int64)
    )
    none = np.zeros(0, np.int64)
    walk = simulate_plan(pos, la, cells, emps, np.array([0], np.int64), fields, none)
    stay = simulate_plan(pos, la, cells, emps, np.array([-1], np.int64), fields, none)
    # (9, 9) is 18 steps away: reached by turn 18, water counted before turn 20 -> a
    # build at 20 and (two outposts, 4+ water) at 30; standing at home builds nothing
    assert walk[0] >= 1 and walk[1] == 0
    assert stay[0] == 0
    assert walk[2] > stay[2]


# --------------------------------------------------------------------------- the bot


def _state(outposts, size=30, r=3, L=6, W=2, T=60, water=None):
    if water is None:
        water = np.zeros((size, size), bool)
    st = GAME.initial_state(GameMap("outpost", "t", water), {"r": r, "L": L, "W": W, "T": T})
    return with_outposts(st, outposts)


def test_two_outposts_never_share_a_target():
    homes = [(0, 0), (0, 29), (29, 29), (29, 0)]
    # our three outposts stand together near home: each gets its own target
    for cluster in ([(0, 0), (2, 2), (2, 2), (3, 2)], [(0, 0), (5, 5), (5, 6), (6, 5)]):
        st = _state([cluster, [homes[1]], [homes[2]], [homes[3]]])
        bot = PlannerOutpostBot()
        bot.move(st.copy(), 0, FAR_AWAY)
        plan = bot.last_plan
        slot = plan["slot"].tolist()
        assert len(slot) == 4 and len(set(slot)) == 4
        targets = plan["targets"][plan["slot"]]
        assert len(set(targets.tolist())) == 4


def test_planner_never_loses_an_outpost_to_its_own_move():
    # r = 2 keeps the lines thin; enemies crowd around empire 0's outposts
    rng = np.random.default_rng(4)
    base = _state([[(0, 0)], [(0, 23)], [(23, 23)], [(23, 0)]], size=24, r=2, L=6, W=2)
    land = np.argwhere(~base.water)
    bot = make_bot("outpost", "planner")
    risky = 0
    for _ in range(60):
        near0 = land[np.abs(land).sum(axis=1) <= 9]
        ours = near0[rng.choice(len(near0), int(rng.integers(1, 5)))]
        lists = [np.vstack([[[0, 0]], ours]).tolist()]
        for _e, h in ((1, (0, 23)), (2, (23, 23)), (3, (23, 0))):
            anchor = ours[rng.integers(len(ours))]
            d = np.abs(land - anchor).sum(axis=1)
            close = land[(d >= 2) & (d <= 7)]
            theirs = close[rng.choice(len(close), int(rng.integers(1, 4)))]
            lists.append(np.vstack([[h], theirs]).tolist())
        pos = with_outposts(base, lists)
        n = pos.num_outposts(0)
        for step in GAME.legal_moves(pos, 0):
            if play_turn(pos, {0: (step,)}).num_outposts(0) < n:
                risky += 1
                break
        move = bot.move(pos.copy(), 0, FAR_AWAY)
        assert check_move(pos, 0, move) is None
        assert play_turn(pos, {0: move}).num_outposts(0) == n
    assert risky >= 3


def test_disbands_the_redundant_outpost_not_the_link():
    # a chain home -> (0, 6) (last in the list) -> (0, 12) along a dead-end corridor; a
    # second outpost on (0, 12) is redundant; without the link (0, 6) the enemy on (3, 6) takes the
    # corridor cell (0, 6) and cuts (0, 12) off
    water = np.zeros((30, 30), bool)
    water[1, 1:16] = True
    water[0, 16] = True  # row 0 up to column 15 is a dead end behind home
    st = _state(
        [[(0, 0), (0, 12), (0, 12), (0, 6)], [(0, 29)], [(29, 29)], [(29, 0), (3, 6)]],
        water=water,
    )
    assert st.num_outposts(0) == 4
    st.pending = (True, False, False, False)
    bot = PlannerOutpostBot()
    choice = bot.move(st.copy(), 0, FAR_AWAY)
    assert choice in (1, 2)  # one of the two on (0, 12)


def test_disband_keeps_the_outpost_that_holds_the_most():
    # two outposts far apart in the open, one more standing on home: home's twin goes
    st = _state([[(0, 0), (10, 10), (0, 0), (5, 15)], [(0, 29)], [(29, 29)], [(29, 0)]])
    st.pending = (True, False, False, False)
    choice = PlannerOutpostBot().move(st.copy(), 0, FAR_AWAY)
    assert choice in (0, 2)


def _moves_toward(bot, st, targets_rc):
    """The planner's moves with the targets forced to ``targets_rc`` (one per outpost)."""
    from atlas.games.outpost.bots.plan_kernels import land_field

    bot._setup(st, 0)
    outposts = bot._arrays(st)
    starts = outposts.starts
    plan = bot._plan(st, 0, outposts, FAR_AWAY)
    b = st.board
    tg = _flat(st, targets_rc)
    fields = np.zeros((len(tg), len(b.land_flat)), np.int32)
    for j, t in enumerate(tg):
        land_field(
            b.land_flat, b.stride, int(t), fields[j], np.zeros(len(b.land_flat), np.int32)
        )
    plan = dict(
        plan,
        targets=tg,
        fields=fields,
        slot=np.arange(len(tg)),
        value=(b.board_flat != 0).astype(np.float64),
    )
    pos = bot._choose_moves(st, 0, outposts, plan, FAR_AWAY)
    s = b.stride
    return [(int(c) // s - 1, int(c) % s - 1) for c in pos[starts[0] : starts[1]]]


def test_the_turn_before_a_season_keeps_the_water_a_new_outpost_needs():
    # our second outpost on (8, 10) sees four water cells of the lake, enough for a third
    # outpost (W = 1: two needed); its target lies west, where a step would leave one
    water = np.zeros((30, 30), bool)
    water[6:12, 12:14] = True
    st = _state([[(0, 0), (8, 10)], [(0, 29)], [(29, 29)], [(29, 0)]], water=water, W=1)
    st.turn = 8  # the move for turn 9; the season of turn 10 counts after it
    assert st.water_count[0] == 4
    for season, want_water in ((True, True), (False, False)):
        bot = PlannerOutpostBot(config=PlannerConfig(season=season, defend=False))
        new = _moves_toward(bot, st, [(0, 0), (8, 0)])
        w = sum(abs(new[1][0] - r) + abs(new[1][1] - c) <= 3 for r, c in np.argwhere(water))
        assert (w >= 2) == want_water, (season, new)
    # any other turn: the step toward the target
    st.turn = 5
    bot = PlannerOutpostBot(config=PlannerConfig(defend=False))
    assert _moves_toward(bot, st, [(0, 0), (8, 0)])[1] == (8, 9)


def test_the_same_position_gives_the_same_move():
    st = _state([[(0, 0), (3, 4), (6, 2)], [(0, 29), (4, 25)], [(29, 29)], [(29, 0), (20, 3)]])
    moves = {PlannerOutpostBot(seed=s).move(st.copy(), 0, FAR_AWAY) for s in range(3)}
    assert len(moves) == 1


@pytest.mark.parametrize(
    "part", ["targets", "coordinate", "lookahead", "defend", "attack", "season", "home_prior"]
)
def test_every_ablation_plays_legal_moves(part):
    cfg = PlannerConfig(**{part: False})
    st = _state([[(0, 0), (3, 4), (6, 2)], [(0, 29), (4, 25)], [(29, 29)], [(29, 0)]])
    bot = PlannerOutpostBot(config=cfg)
    for _ in range(3):
        move = bot.move(st.copy(), 0, FAR_AWAY)
        assert check_move(st, 0, move) is None
        st = play_turn(st, {0: move})


def test_answers_in_time_at_the_sites_short_limit():
    st = _state([[(0, 0)], [(0, 29)], [(29, 29)], [(29, 0)]])
    bot = make_bot("outpost", "planner")
    bot.move(st.copy(), 0, time.perf_counter() + 5)  # compiles outside the timing
    deadline = time.perf_counter() + 0.1
    move = bot.move(st.copy(), 0, deadline)
    assert time.perf_counter() <= deadline + 0.05
    assert check_move(st, 0, move) is None


def test_the_planner_reports_the_score_of_the_move_it_chose():
    # its report (the record's info): the score of the chosen positions, as evaluate
    # gives it with the plan's progress term, and how many positions it scored; a
    # disband phase reports nothing rather than the move before's figures
    from atlas.arena.runner import bot_info, play_game

    names = ["planner", "greedy", "balanced", "defender"]
    game_map = GameMap("outpost", "open", np.zeros((24, 24), bool))
    params = {"r": 3, "L": 6, "W": 2, "T": 40}
    record = play_game("outpost", game_map, names, params=params, effort=[20, 64, 64, 64])
    said = [t.info[0] for t in record.turns if 0 in t.info]
    assert len(said) >= 30
    assert all(set(s) == {"score", "nodes"} and s["nodes"] >= 1 for s in said)
    assert len({s["score"] for s in said}) > 1
    bot = PlannerOutpostBot()
    state = GAME.initial_state(game_map, params)
    move = bot.move(state, 0, FAR_AWAY)
    report = bot_info(bot)
    assert report["nodes"] == bot.last_info["nodes"]
    # alone in its corner nothing is at risk: the score is the cells it holds after its
    # move, every cell worth 1 whatever the plan's premiums
    after = GAME.apply(state, {0: move, 1: (), 2: (), 3: ()})
    assert report["score"] == after.counts[0, 0] + after.counts[0, 1]
    disband = _state([[(0, 0), (10, 10), (0, 0), (5, 15)], [(0, 29)], [(29, 29)], [(29, 0)]])
    disband.pending = (True, False, False, False)
    assert isinstance(bot.move(disband, 0, FAR_AWAY), int)  # an index: the disband
    assert bot.last_info is None and bot_info(bot) == {}
