"""Tests of atlas.bots.search: the transposition-table bookkeeping of the searches, the stop
time."""

from __future__ import annotations

import pytest

from atlas.bots.search import (
    EXACT,
    LOWER,
    MATE_BAND,
    UPPER,
    bound_flag,
    stop_time,
    tt_cuts,
    value_from_tt,
    value_to_tt,
)

WIN = 100_000


@pytest.mark.parametrize(
    "best, flag", [(-5, UPPER), (-3, UPPER), (0, EXACT), (4, LOWER), (9, LOWER)]
)
def test_bound_flag_in_window_minus_3_to_4(best, flag):
    assert bound_flag(best, -3, 4) == flag


def test_mate_scores_are_stored_relative_to_the_node():
    # a win 7 plies from the root, found at ply 3, is a win 4 plies from that node
    assert value_to_tt(WIN - 7, 3, WIN) == WIN - 4
    assert value_from_tt(WIN - 4, 5, WIN) == WIN - 9  # read back 5 plies from the root
    assert value_to_tt(-(WIN - 7), 3, WIN) == -(WIN - 4)
    for v in (0, 123, -(WIN - MATE_BAND), WIN - MATE_BAND):  # heuristic values unchanged
        assert value_to_tt(v, 6, WIN) == v == value_from_tt(v, 6, WIN)
    for v in (WIN - 20, -(WIN - 20), 17):
        assert value_from_tt(value_to_tt(v, 11, WIN), 11, WIN) == v


def test_tt_cuts_only_when_the_bound_settles_the_window():
    assert tt_cuts(EXACT, 0, -1, 1)
    assert tt_cuts(LOWER, 5, -1, 5) and not tt_cuts(LOWER, 4, -1, 5)
    assert tt_cuts(UPPER, -1, -1, 5) and not tt_cuts(UPPER, 0, -1, 5)


def test_gc_paused_switches_the_collector_off_for_the_move_only():
    import gc

    from atlas.bots.search import gc_paused

    seen = []

    @gc_paused
    def move(fail: bool) -> int:
        seen.append(gc.isenabled())
        if fail:
            raise RuntimeError("bot crashed")
        return 3

    assert gc.isenabled()
    assert move(False) == 3
    with pytest.raises(RuntimeError):
        move(True)
    assert seen == [False, False]
    assert gc.isenabled()  # back on after a move and after a crash
    gc.disable()
    try:
        move(False)
        assert not gc.isenabled()  # left off if it was off before
    finally:
        gc.enable()


def test_sort_moves_orders_one_row_by_key_largest_first():
    import numpy as np

    from atlas.bots.search import sort_moves

    rng = np.random.default_rng(3)
    buf = rng.integers(0, 100, size=(3, 12)).astype(np.int64)
    keys = rng.integers(-50, 50, size=(3, 12)).astype(np.int64)
    before_buf, before_keys = buf.copy(), keys.copy()
    sort_moves(buf, keys, 1, 9)
    want = sorted(zip(before_keys[1, :9], before_buf[1, :9]), key=lambda kv: -kv[0])
    assert list(keys[1, :9]) == [k for k, _ in want]
    assert sorted(zip(keys[1, :9], buf[1, :9])) == sorted(want)  # pairs kept together
    assert np.array_equal(buf[1, 9:], before_buf[1, 9:])  # the rest untouched
    assert np.array_equal(buf[[0, 2]], before_buf[[0, 2]])


def test_note_cutoff_keeps_two_distinct_killers_and_adds_history():
    import numpy as np

    from atlas.bots.search import note_cutoff

    killers = np.full((4, 2), -1, dtype=np.int64)
    history = np.zeros((2, 10), dtype=np.int64)
    note_cutoff(killers, history, 2, 1, 7, 9)
    note_cutoff(killers, history, 2, 1, 7, 4)  # the same move: no second copy
    assert list(killers[2]) == [7, -1]
    note_cutoff(killers, history, 2, 0, 3, 1)
    assert list(killers[2]) == [3, 7]
    assert history[1, 7] == 13 and history[0, 3] == 1
    assert (killers[[0, 1, 3]] == -1).all()


@pytest.mark.parametrize(
    "budget, margin, thinks",
    [
        (0.1, 0.02, 0.08),  # the margin before the deadline
        (1.0, 0.03, 0.97),
        (0.03, 0.02, 0.01),
        (0.02, 0.02, 0.004),  # a margin as long as the budget: a fifth of it all the same
        (0.01, 0.03, 0.002),
        (-0.5, 0.02, 0.0),  # a deadline already past: stop now
    ],
)
def test_stop_time_keeps_the_margin_but_thinks_a_fifth_of_the_budget(budget, margin, thinks):
    assert stop_time(100.0 + budget, margin, 100.0) - 100.0 == pytest.approx(thinks)


def test_compiled_searches_read_the_injected_clock(tick_clock):
    # The timing tests inject a tick clock for time.perf_counter: the compiled kernels'
    # clock must read it too, or their deadlines would still be the machine's.
    from atlas.bots.search import clock

    first = clock()
    assert first == tick_clock.now - tick_clock.tick
    assert clock() == first + tick_clock.tick


def test_processor_clock_switches_the_searches_clock_for_the_block_only():
    """Inside processor_clock the searches read the thread's processor time (Python's
    clock_now and the kernels' clock alike) and a perf_counter deadline is moved onto
    it; outside, the wall clock and the deadline unchanged."""
    import time

    from atlas.bots.search import clock, clock_now, on_clock, processor_clock

    assert abs(clock_now() - time.perf_counter()) < 0.05
    assert on_clock(123.5) == 123.5
    with processor_clock():
        assert abs(clock_now() - time.thread_time()) < 0.05
        assert abs(clock() - time.thread_time()) < 0.05
        # the same seconds from now, on the processor's clock
        assert abs(on_clock(time.perf_counter() + 7.0) - (time.thread_time() + 7.0)) < 0.05
    # the wall clock again after the block (perf_counter and thread_time differ by far
    # more than the tolerance in a process that has run for a while)
    assert abs(clock() - time.perf_counter()) < 0.05
    assert abs(clock_now() - time.perf_counter()) < 0.05
