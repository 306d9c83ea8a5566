"""Players that fail, in both modes: what the 2014 simulator does (``compat="official"``,
``Outpost.java``'s ``playStep`` and ``updatemap``), what the spec rules do, and how
:mod:`atlas.games.outpost.rules.faults` tells it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from atlas.errors import IllegalMoveError
from atlas.games.outpost.analysis import influence
from atlas.games.outpost.rules.faults import HOWS, Failure, failure_summary, find_failures
from atlas.games.outpost.rules.game import GAME, RETURNED_NULL, with_outposts
from atlas.maps import GameMap, read_map
from atlas.sim.records import RecordBuilder, record_from_json, replay_states, verify_record

DATA = Path(__file__).resolve().parents[1] / "data"


def small_map(n=12):
    homes = ((0, 0), (0, n - 1), (n - 1, n - 1), (n - 1, 0))
    return GameMap("outpost", "small", np.zeros((n, n), bool), homes)


def lists(state):
    return [a.tolist() for a in state.outposts]


def counts_of(state, outposts):
    """Land, water, disputed per empire of these outposts (no supply check)."""
    inf = influence(
        state.water, [np.asarray(o).reshape(-1, 2) for o in outposts], state.params.r
    )
    return inf.owner, inf.land.tolist()


def start(compat="official", **params):
    s = GAME.initial_state(small_map(), {"compat": compat, "r": 3, "L": 20, "W": 0, **params})
    # seat 1 reaches out from home: (0, 11) -> (3, 11) -> (4, 11); turn 3 (a stop on
    # turn 1 is another story: test_stop_on_turn_1_leaves_the_simulators_empty_ownership)
    s.turn = 3
    return with_outposts(
        s, [[(0, 0), (0, 4)], [(0, 11), (3, 11), (4, 11)], [(11, 11)], [(11, 0)]]
    )


# --------------------------------------------------------------------------- the stop


def test_stop_in_a_later_seat_leaves_the_ownership_of_the_seats_before_it():
    s = start()
    moves = {
        0: ((1, (0, 5)),),
        1: ((2, (5, 11)), (1, (4, 11)), (-1, (0, 0)), (0, (1, 11))),
        2: ((0, (10, 11)),),
        3: ((0, (10, 0)),),
    }
    t = GAME.apply(s, moves)
    # seat 0 moved; seat 1's two entries before the stop stand, the rest of its list and
    # seats 2 and 3 did not move; the turn counter went on
    assert lists(t) == [[[0, 0], [0, 5]], [[0, 11], [4, 11], [5, 11]], [[11, 11]], [[11, 0]]]
    assert t.turn == s.turn + 1 and t.stopped == (1, 2)
    # ownership: that after seat 0's updatemap (seat 0 moved, seat 1 where it was), not
    # that of the outposts as they stand
    owner, land = counts_of(
        t, [[(0, 0), (0, 5)], [(0, 11), (3, 11), (4, 11)], [(11, 11)], [(11, 0)]]
    )
    np.testing.assert_array_equal(t.owner, owner)
    assert t.land.tolist() == land
    _, standing = counts_of(t, t.outposts)
    assert standing != land


def test_a_stopped_turn_checks_no_supply_line():
    s = GAME.initial_state(small_map(), {"compat": "official", "r": 3, "L": 100, "W": 0})
    s.turn = 3
    s = with_outposts(s, [[(0, 0), (0, 4)], [(3, 11), (4, 11)], [(11, 11)], [(11, 0)]])
    assert lists(s)[1] == [[3, 11], [4, 11]]
    # seat 0 walks to (0, 8): seat 1's home (0, 11) becomes disputed (3 from (0, 8) and
    # from (3, 11)), which cuts both of seat 1's outposts off in a whole turn
    cut = {0: ((1, (0, 5)), (1, (0, 6)), (1, (0, 7)), (1, (0, 8)))}
    whole = GAME.apply(s, cut)
    assert whole.stopped is None and lists(whole)[1] == []
    # stopped by seat 2: no supply check, seat 1 keeps its outposts, its home disputed
    t = GAME.apply(s, {**cut, 2: RETURNED_NULL})
    assert t.stopped == (2, 0) and lists(t)[1] == [[3, 11], [4, 11]]
    assert t.owner[0, 11] == -2
    # the next whole turn checks them against the ownership it recomputes (and the
    # incremental recount agrees with a full one)
    u = GAME.apply(t, {})
    assert lists(u)[1] == []
    owner, land = counts_of(u, u.outposts)
    np.testing.assert_array_equal(u.owner, owner)
    assert u.land.tolist() == land


def test_stop_in_seat_0_recomputes_nothing():
    s = start()
    t = GAME.apply(s, {0: ((-1, (0, 1)),), 1: ((2, (5, 11)),)})
    assert t.stopped == (0, 0) and lists(t) == lists(s)
    np.testing.assert_array_equal(t.owner, s.owner)
    assert t.counts.tolist() == s.counts.tolist()
    # a null target stops it too, unless its index is beyond the list (ignored first)
    t = GAME.apply(s, {0: ((5, None), (0, (1, 0)), (0, None))})
    assert t.stopped == (0, 2) and lists(t)[0] == [[1, 0], [0, 4]]


def test_stop_on_turn_1_leaves_the_simulators_empty_ownership():
    s = GAME.initial_state(small_map(), {"compat": "official", "r": 3})
    assert s.land.tolist() != [0, 0, 0, 0]
    t = GAME.apply(s, {0: RETURNED_NULL, 1: ((0, (1, 11)),)})
    assert t.turn == 1 and t.stopped == (0, 0)
    assert (t.owner == -1).all() and t.counts.tolist() == [[0, 0, 0]] * 4
    # the next turn computes it all again
    u = GAME.apply(t, {1: ((0, (1, 11)),)})
    owner, land = counts_of(u, u.outposts)
    np.testing.assert_array_equal(u.owner, owner)
    assert u.land.tolist() == land and u.stopped is None


def test_a_throw_is_not_a_returned_null():
    s = start()
    steps = {0: ((1, (0, 5)),), 2: ((0, (10, 11)),), 3: ((0, (10, 0)),)}
    threw = GAME.apply(s, {**steps, 1: None})
    # the simulator catches the exception: seat 1 does not move, the others do
    assert threw.stopped is None
    assert lists(threw) == [[[0, 0], [0, 5]], lists(s)[1], [[10, 11]], [[10, 0]]]
    null = GAME.apply(s, {**steps, 1: RETURNED_NULL})
    # updatemap(null) throws: seats 2 and 3 do not move
    assert null.stopped == (1, 0)
    assert lists(null) == [[[0, 0], [0, 5]], lists(s)[1], [[11, 11]], [[11, 0]]]


def test_spec_mode_is_unchanged():
    s = start("spec")
    steps = {0: ((1, (0, 5)),), 2: ((0, (10, 11)),), 3: ((0, (10, 0)),)}
    # a failing player makes no move, however it failed
    for fail in (None, RETURNED_NULL):
        t = GAME.apply(s, {**steps, 1: fail})
        assert t.stopped is None
        assert lists(t) == [[[0, 0], [0, 5]], lists(s)[1], [[10, 11]], [[10, 0]]]
    # an illegal entry is an error
    for bad in ((-1, (0, 0)), (0, None)):
        with pytest.raises(IllegalMoveError, match="seat 1: step"):
            GAME.apply(s, {**steps, 1: (bad,)})


def test_returned_null_in_json_and_in_a_record():
    assert GAME.move_to_json(RETURNED_NULL) == "returned-null"
    assert GAME.move_from_json("returned-null") == RETURNED_NULL
    game_map = read_map(DATA / "outpost-maps" / "map1.txt", game="outpost")
    b = RecordBuilder(GAME, game_map, {"compat": "official", "T": 1}, ["a", "b", "c", "d"], 0)
    state = GAME.initial_state(game_map, b.params)
    for moves in ({1: RETURNED_NULL, 2: ((0, (98, 99)),)}, {1: None, 2: ((0, (98, 99)),)}):
        moves = {0: (), 3: (), **moves}
        b.add_turn(moves)
        state = GAME.apply(state, moves)
    b.set_status(1, "crashed", 1, "threw")
    rec = b.finish(state, GAME.outcome(state))
    again = record_from_json(rec.to_json())
    assert again.turns[0].moves[1] == "returned-null" and again.turns[1].moves[1] is None
    verify_record(again)
    states = replay_states(again)
    # turn 1: seat 1 returned null, seat 2 did not move; turn 2: seat 1 threw, seat 2 moved
    assert states[1].stopped == (1, 0) and lists(states[1])[2] == [[99, 99]]
    assert states[2].stopped is None and lists(states[2])[2] == [[98, 99]]


# --------------------------------------------------------------------------- telling it


def test_find_failures_tells_how_and_what_was_done():
    s = start()
    turns = [
        {0: [[1, [0, 5]]], 1: [[2, [5, 11]], [-1, [0, 0]]], 2: "returned-null", 3: None},
        {0: None, 1: [], 2: [], 3: "returned-null"},
    ]
    states = [s]
    for moves in turns:
        states.append(
            GAME.apply(
                states[-1],
                {
                    p: GAME.move_from_json(m) if m is not None else None
                    for p, m in moves.items()
                },
            )
        )
    fails = find_failures(turns, states)
    got = [(f.index, f.turn, f.seat, f.how) for f in fails]
    assert got == [
        (0, 4, 1, "stopped the turn"),
        (0, 4, 2, "returned null"),
        (0, 4, 3, "threw"),
        (1, 5, 0, "threw"),
        (1, 5, 3, "returned null"),
    ]
    stop = fails[0]
    assert stop.what == "entry 2 of 2, [-1, (0, 0)]: a negative index"
    assert stop.effect == (
        "the simulator stopped the turn there; player 1 had moved and the ownership was "
        "recomputed; its first 1 entry stands, not counted in the ownership; players 3 and "
        "4 did not move; no supply line was checked"
    )
    assert fails[1].effect == "never reached: the turn had stopped at player 2"
    assert fails[2].effect == "its outposts stayed (the turn had stopped at player 2)"
    assert fails[3].effect.endswith("the simulator caught the exception and the turn went on")
    assert fails[4].effect.startswith("the simulator stopped the turn there; players 1-3 had")
    assert failure_summary(fails, 1) == (
        "stopped the turn on turn 4: an entry with a negative index; "
        "the simulator stopped the turn there"
    )
    assert failure_summary(fails, 3) == (
        "threw on turn 4: its outposts stayed (the turn had stopped at player 2); "
        "returned null on turn 5: the simulator stopped the turn there"
    )
    assert failure_summary(fails, 0).startswith("threw on turn 5")
    assert all(f.how in HOWS for f in fails)


def test_find_failures_of_disband_answers_in_both_modes():
    from atlas.games.outpost.rules.game import prepare_turn

    for compat in ("official", "spec"):
        s = GAME.initial_state(small_map(), {"compat": compat, "r": 3, "L": 20, "W": 0})
        s = with_outposts(
            s, [[(0, 0), (1, 0)], [(0, 11), (1, 11)], [(11, 11), (10, 11)], [(11, 0)]]
        )
        s.turn = 9
        prepare_turn(s)
        assert s.pending == (True, True, True, False)
        answers = {0: None, 1: 0, 2: 7} if compat == "official" else {0: None, 1: 0, 2: 1}
        t = GAME.apply(s, answers)
        u = GAME.apply(t, {p: () for p in range(4)})
        fails = find_failures([answers, {p: [] for p in range(4)}], [s, t, u])
        if compat == "official":
            assert [(f.seat, f.how) for f in fails] == [
                (0, "threw when asked to disband"),
                (2, "bad disband answer"),
            ]
            assert fails[1].what == "disband #7 (it has 2 outposts)"
            assert fails[1].effect == "nothing was disbanded and it did not move on turn 10"
            assert t.skip == (True, False, True, False)
        else:
            assert [(f.seat, f.how, f.effect) for f in fails] == [
                (0, "no disband answer", "its last outpost (#1) was disbanded")
            ]


def test_failure_json_is_what_the_page_reads():
    f = Failure(3, 4, 1, "returned null", "null instead of a list", "never reached: x")
    assert f.to_json() == {
        "index": 3,
        "turn": 4,
        "seat": 1,
        "how": "returned null",
        "what": "null instead of a list",
        "effect": "never reached: x",
    }
