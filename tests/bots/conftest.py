"""Fixtures shared by the bot tests: every one runs on the injected tick clock."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

from atlas.arena.runner import late_after
from atlas.sim import get_game


@pytest.fixture
def moves_in_time(tick_clock: Any) -> Callable[..., None]:
    """A check that a bot of an alternating game answers legal moves in time.

    ``check(game, bot, game_map, plies, seed, as_move=...)`` plays each number of
    ``plies`` of seeded random moves from the start, then asks ``bot`` for a move with
    0.15 s on the injected tick clock (``tests/conftest.py``: 1 ms a clock read) and
    asserts it came back before the game runner would call it late
    (:func:`atlas.arena.runner.late_after`) and is legal.
    """

    def check(
        game_name: str,
        bot: Any,
        game_map: Any,
        plies: Sequence[int],
        seed: int,
        as_move: Callable[[Any], Any] = lambda m: m,
    ) -> None:
        game = get_game(game_name)
        rng = np.random.default_rng(seed)
        warm = game.initial_state(game_map)
        bot.move(warm.copy(), 0, time.perf_counter() + 0.5)  # compiles outside the timing
        for n in plies:
            st = game.initial_state(game_map)
            for _ in range(n):
                if game.outcome(st) is not None:
                    break
                st = game.apply(st, {st.to_play: game.random_move(st, st.to_play, rng)})
            if game.outcome(st) is not None:
                continue
            p = st.to_play
            asked = time.perf_counter()
            move = bot.move(st.copy(), p, asked + 0.15)
            assert tick_clock.now - asked <= late_after(0.15)
            assert as_move(move) in game.legal_moves(st, p)

    return check


@pytest.fixture(autouse=True)
def _bots_think_on_the_tick_clock(tick_clock: Any) -> Any:
    """Every bot test runs on the injected tick clock (``tests/conftest.py``): a deadline
    is a budget of clock reads, so what a search finds in its time is the same on any
    machine, at any load."""
    return tick_clock
