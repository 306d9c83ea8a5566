"""Tests of the Outpost bots ``greedy``, ``balanced``, ``defender`` and ``planner``
(its own crafted positions: ``test_outpost_planner.py``)."""

from __future__ import annotations

import time

import numpy as np
import pytest

from atlas.arena.runner import late_after
from atlas.bots import make_bot
from atlas.games.outpost.rules.game import GAME, check_move, play_turn, with_outposts
from atlas.maps import GameMap

BOTS = ("greedy", "balanced", "defender", "planner")
PARAMS = {"r": 3, "L": 6, "W": 2, "T": 40}


def _map(size: int = 24, seed: int = 0) -> GameMap:
    """A small point-symmetric board: a few lakes, corners (the homes) dry."""
    rng = np.random.default_rng(seed)
    half = size // 2
    quarter = np.zeros((half, half), bool)
    for _ in range(4):
        r, c = rng.integers(2, half - 2, 2)
        quarter[r - 1 : r + 2, c - 1 : c + 1] = True
    quarter[:2, :2] = False
    water = np.zeros((size, size), bool)
    water[:half, :half] = quarter
    for _ in range(3):  # the four rotations, as the official maps
        water |= np.rot90(water)
    return GameMap("outpost", "small", water)


def _random_positions(state, rng, n: int):
    """Positions where enemy outposts stand close to empire 0's (then settled as after
    a turn: outposts without a supply line removed)."""
    land = np.argwhere(~state.water)
    for _ in range(n):
        home0 = np.array(state.board.homes[0])
        near0 = land[np.abs(land - home0).sum(axis=1) <= 9]
        ours = near0[rng.choice(len(near0), int(rng.integers(1, 5)))]
        lists = [np.vstack([[home0], ours]).tolist()]
        for e in (1, 2, 3):
            anchor = ours[rng.integers(len(ours))]
            dist = np.abs(land - anchor).sum(axis=1)
            close = land[(dist >= 2) & (dist <= 7)]
            theirs = close[rng.choice(len(close), int(rng.integers(1, 4)))]
            lists.append(np.vstack([[state.board.homes[e]], theirs]).tolist())
        yield with_outposts(state, lists)


def _alone(state, player: int, move) -> object:
    return play_turn(state, {player: move})


def test_greedy_never_loses_an_outpost_to_its_own_move():
    # r = 2 keeps the lines thin: about one position in ten offers a step that would
    # cut one of empire 0's own outposts off
    state = GAME.initial_state(_map(), dict(PARAMS, r=2))
    rng = np.random.default_rng(4)
    bot = make_bot("outpost", "greedy", seed=0)
    risky = 0
    for pos in _random_positions(state, rng, 60):
        n = pos.num_outposts(0)
        # is there a single step that would cut one of empire 0's outposts off?
        for step in GAME.legal_moves(pos, 0):
            if _alone(pos, 0, (step,)).num_outposts(0) < n:
                risky += 1
                break
        move = bot.move(pos.copy(), 0, time.perf_counter() + 2.0)
        assert check_move(pos, 0, move) is None
        assert _alone(pos, 0, move).num_outposts(0) == n
    assert risky >= 3  # the positions did offer ways to lose an outpost


def _cells(state, empire: int) -> int:
    return int(state.land[empire] + state.water_count[empire])


@pytest.mark.parametrize("name", ["greedy", "defender"])
def test_disbands_the_outpost_whose_loss_costs_least(name):
    state = GAME.initial_state(_map(), PARAMS)
    rng = np.random.default_rng(9)
    bot = make_bot("outpost", name, seed=0)
    for pos in _random_positions(state, rng, 8):
        lists = [o.tolist() for o in pos.outposts]
        if len(lists[0]) < 2:
            continue
        after = []
        for i in range(len(lists[0])):
            trial = [list(x) for x in lists]
            del trial[0][i]
            new = with_outposts(pos, trial)
            after.append((new.num_outposts(0) == len(trial[0]), _cells(new, 0)))
        pending = pos.copy()
        pending.pending = (True, False, False, False)
        choice = bot.move(pending, 0, time.perf_counter() + 2.0)
        assert choice in GAME.legal_moves(pending, 0)
        kept_all = [a for a in after if a[0]]
        best = max(c for ok, c in (kept_all or after))
        if name == "greedy":
            assert after[choice][1] == best
        assert after[choice][0] or not kept_all


def test_defender_cuts_an_enemy_supply_line_when_it_can():
    state = GAME.initial_state(_map(), dict(PARAMS, r=2))
    rng = np.random.default_rng(21)
    bot = make_bot("outpost", "defender", seed=0)
    tried = 0
    for pos in _random_positions(state, rng, 150):
        lists = [o.tolist() for o in pos.outposts]
        lists[0] = lists[0][:2]  # home and one outpost: the plan has one real choice
        pos = with_outposts(pos, lists)
        n0 = pos.num_outposts(0)
        enemies = sum(pos.num_outposts(e) for e in (1, 2, 3))
        cutting = [
            s
            for s in GAME.legal_moves(pos, 0)
            if (
                lambda nxt: (
                    nxt.num_outposts(0) == n0
                    and sum(nxt.num_outposts(e) for e in (1, 2, 3)) < enemies
                )
            )(_alone(pos, 0, (s,)))
        ]
        if not cutting:
            continue
        tried += 1
        nxt = _alone(pos, 0, bot.move(pos.copy(), 0, time.perf_counter() + 2.0))
        assert nxt.num_outposts(0) == n0
        assert sum(nxt.num_outposts(e) for e in (1, 2, 3)) < enemies
    assert tried >= 2


def _play(names, seed: int, T: int = 40):
    state = GAME.initial_state(_map(seed=seed), dict(PARAMS, T=T))
    bots = [make_bot("outpost", n, seed=seed + i) for i, n in enumerate(names)]
    while GAME.outcome(state) is None:
        moves = {
            p: bots[p].move(state.copy(), p, time.perf_counter() + 1.0)
            for p in GAME.to_move(state)
        }
        state = GAME.apply(state, moves)
    return state


@pytest.mark.parametrize("name", BOTS)
def test_beats_random_by_a_wide_margin(name):
    for seat, seed in ((0, 1), (2, 2)):
        names = ["random"] * 4
        names[seat] = name
        final = _play(names, seed)
        mine = _cells(final, seat)
        best_random = max(_cells(final, e) for e in range(4) if e != seat)
        assert mine >= 1.5 * best_random, (name, mine, best_random)
        assert final.num_outposts(seat) >= 2  # it grew


@pytest.mark.parametrize("name", BOTS)
def test_bots_answer_legal_moves_in_time(name, tick_clock):
    # On the injected tick clock (tests/conftest.py): a deadline is a budget of clock
    # reads, and "in time" is the game runner's own rule (late_after), on any machine.
    state = GAME.initial_state(_map(seed=3), PARAMS)
    rng = np.random.default_rng(0)
    bot = make_bot("outpost", name, seed=0)
    for pos in _random_positions(state, rng, 4):
        for p in range(4):
            asked = time.perf_counter()
            move = bot.move(pos.copy(), p, asked + 0.1)
            assert tick_clock.now - asked <= late_after(0.1)
            assert check_move(pos, p, move) is None
