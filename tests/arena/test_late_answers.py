"""The runner's late-answer rule at its boundary, on a clock that moves only when a bot
says so: an answer is late past the limit plus a quarter of it plus 0.05 s (a built-in
bot's first move: past 30 s, it may compile), never before."""

from __future__ import annotations

import numpy as np
import pytest

from atlas.arena.runner import COMPILE_ALLOWANCE, late_after, play_game
from atlas.maps import parse_map
from atlas.sim import get_game

C5 = parse_map("connect5 6 5 4\n", game="connect5", name="small")
EPS = 1e-6


class ThinkingBot:
    """Plays random moves; its move number ``at`` takes ``seconds`` on the clock."""

    def __init__(self, clock, seconds, at, first_move_time=None):
        self.clock, self.seconds, self.at = clock, seconds, at
        self.game = get_game("connect5")
        self.rng = np.random.default_rng(0)
        self.given = []  # the time each move was given (deadline - now)
        if first_move_time is not None:
            self.first_move_time = first_move_time

    def move(self, state, player, deadline):
        self.given.append(deadline - self.clock.now)
        if len(self.given) - 1 == self.at:
            self.clock.advance(self.seconds)
        return self.game.random_move(state, player, self.rng)


def _status(clock, seconds, at, time_limit=0.2, first_move_time=None, own=None):
    bot = ThinkingBot(clock, seconds, at, own)
    record = play_game(
        "connect5",
        C5,
        ["random", bot],
        seed=1,
        time_limit=time_limit,
        first_move_time=first_move_time,
    )
    return record.statuses[1], bot


def test_the_formula():
    # the limit, a quarter of it, and 50 ms
    assert late_after(0.2) == pytest.approx(0.3)
    assert late_after(1.0) == pytest.approx(1.3)
    assert late_after(0.0) == pytest.approx(0.05)


@pytest.mark.parametrize("limit", [0.05, 0.2, 1.0])
def test_a_later_move_is_late_just_past_the_formula(still_clock, limit):
    edge = late_after(limit)
    status, bot = _status(still_clock, edge - EPS, at=1, time_limit=limit)
    assert status.status == "ok"
    assert bot.given[:2] == pytest.approx([limit, limit])  # the real deadline, not the judge's
    status, _ = _status(still_clock, edge + EPS, at=1, time_limit=limit)
    assert (status.status, status.turn) == ("timeout", 3)  # seat 1's second move: turn 3
    assert status.detail == f"answered after {edge + EPS:.3f} s, the limit is {limit:g} s"
    # past the limit but within the grace: still in time
    status, _ = _status(still_clock, limit + (edge - limit) / 2, at=1, time_limit=limit)
    assert status.status == "ok"


def test_a_built_in_first_move_may_take_the_compile_allowance(still_clock):
    status, bot = _status(still_clock, COMPILE_ALLOWANCE - EPS, at=0)
    assert status.status == "ok" and bot.given[0] == pytest.approx(0.2)
    status, _ = _status(still_clock, COMPILE_ALLOWANCE + EPS, at=0)
    assert (status.status, status.turn) == ("timeout", 1)


def test_a_program_s_first_move_is_judged_by_its_own_first_move_time(still_clock):
    # a bot with first_move_time (an external program) gets the larger of it and the
    # limit, judged by the same formula, and no compile allowance
    edge = late_after(1.0)
    status, bot = _status(still_clock, edge - EPS, at=0, own=1.0)
    assert status.status == "ok" and bot.given[0] == pytest.approx(1.0)
    status, _ = _status(still_clock, edge + EPS, at=0, own=1.0)
    assert status.status == "timeout"
    # play_game's first_move_time overrides the bot's own
    edge = late_after(0.5)
    status, bot = _status(still_clock, edge - EPS, at=0, first_move_time=0.5, own=1.0)
    assert status.status == "ok" and bot.given[0] == pytest.approx(0.5)
    status, _ = _status(still_clock, edge + EPS, at=0, first_move_time=0.5, own=1.0)
    assert status.status == "timeout"
