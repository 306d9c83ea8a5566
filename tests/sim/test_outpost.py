"""The Outpost engine: spec rules, the official compatibility mode, seasons, scores."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from atlas.errors import IllegalMoveError, InvalidMoveError
from atlas.games.outpost.analysis import DISPUTED, influence, supply_lines
from atlas.games.outpost.rules.game import GAME, OutpostParams, with_outposts
from atlas.maps import GameMap, read_map

DATA = Path(__file__).resolve().parents[1] / "data"


def small_map(n=12, water=()):
    w = np.zeros((n, n), bool)
    for r, c in water:
        w[r, c] = True
    homes = ((0, 0), (0, n - 1), (n - 1, n - 1), (n - 1, 0))
    return GameMap("outpost", "small", w, homes)


@pytest.fixture(scope="module")
def map1():
    return read_map(DATA / "outpost-maps" / "map1.txt", game="outpost")


def lists(state):
    return [a.tolist() for a in state.outposts]


def check_invariants(state):
    """Ownership, counts and supply lines agree with the analysis functions."""
    inf = influence(state.water, state.outposts, state.params.r)
    np.testing.assert_array_equal(state.owner, inf.owner)
    assert state.land.tolist() == inf.land.tolist()
    assert state.water_count.tolist() == inf.water.tolist()
    alive = supply_lines(state.water, inf.owner, state.outposts, state.board.homes)
    assert all(a.all() for a in alive)
    for a in state.outposts:
        assert not state.water[a[:, 0], a[:, 1]].any()


# --------------------------------------------------------------------------- start, symmetry


def test_initial_state_is_symmetric(map1):
    s = GAME.initial_state(map1)
    assert lists(s) == [[[0, 0]], [[0, 99]], [[99, 99]], [[99, 0]]]
    assert s.params == OutpostParams(10, 20, 5, 500, "spec")
    # the board is rotation-symmetric: every empire controls the same
    assert len(set(s.land.tolist())) == 1 and len(set(s.water_count.tolist())) == 1
    assert s.land[0] == 66 - int(
        map1.blocked[:11, :11][np.add.outer(np.arange(11), np.arange(11)) <= 10].sum()
    )
    assert GAME.to_move(s) == (0, 1, 2, 3)
    check_invariants(s)


def test_transposed_board_swaps_seats_1_and_3(map1):
    """Swapping x and y mirrors the board and swaps seats 1 and 3."""
    mirror = GameMap("outpost", "mirror", map1.blocked.T, map1.starts)
    params = {"T": 40}
    a = GAME.initial_state(map1, params)
    b = GAME.initial_state(mirror, params)
    rng = np.random.default_rng(3)
    swap = [0, 3, 2, 1]
    while GAME.to_move(a):
        assert GAME.to_move(b) == tuple(sorted(swap[s] for s in GAME.to_move(a)))
        moves = {s: GAME.random_move(a, s, rng) for s in GAME.to_move(a)}
        mirrored = {}
        for s, m in moves.items():
            mirrored[swap[s]] = (
                m if isinstance(m, int) else tuple((i, (c, r)) for i, (r, c) in m)
            )
        a, b = GAME.apply(a, moves), GAME.apply(b, mirrored)
        for s in range(4):
            assert b.outposts[swap[s]].tolist() == a.outposts[s][:, ::-1].tolist()
            assert b.land[swap[s]] == a.land[s] and b.water_count[swap[s]] == a.water_count[s]
    assert a.turn == 40


# --------------------------------------------------------------------------- spec moves


def test_spec_moves_one_step_onto_land():
    m = small_map(water=[(1, 1)])
    s = GAME.initial_state(m)
    s = with_outposts(s, [[(0, 0), (2, 2)], [(0, 11)], [(11, 11)], [(11, 0)]])
    t = GAME.apply(s, {0: ((1, (2, 3)), (0, (0, 0))), 2: ((0, (10, 11)),)})
    assert lists(t)[0] == [[0, 0], [2, 3]] and lists(t)[2] == [[10, 11]]
    assert t.turn == 1
    bad = {
        ((5, (0, 1)),): "no outpost with that index",
        ((0, (1, 1)),): "targets water",
        ((1, (3, 3)),): "more than one orthogonal step",
        ((1, (4, 2)),): "more than one orthogonal step",
        ((0, (-1, 0)),): "off the board",
        ((1, (2, 3)), (1, (2, 2))): "already moved",
        ((0, None),): "no target",
    }
    for move, why in bad.items():
        with pytest.raises(IllegalMoveError, match=why):
            GAME.apply(s, {0: move})
    with pytest.raises(IllegalMoveError, match="seat 0"):
        GAME.apply(s, {0: "north"})
    with pytest.raises(IllegalMoveError, match="seats 0..3"):
        GAME.apply(s, {4: ()})
    # the position is untouched by a refused move
    assert lists(s)[0] == [[0, 0], [2, 2]]


def test_legal_moves_and_random_moves_are_steps():
    m = small_map(water=[(1, 0)])
    s = GAME.initial_state(m)
    assert sorted(GAME.legal_moves(s, 0)) == [(0, (0, 1))]
    assert sorted(GAME.legal_moves(s, 2)) == [(0, (10, 11)), (0, (11, 10))]
    rng = np.random.default_rng(0)
    seen = {GAME.random_move(s, 2, rng) for _ in range(60)}
    assert seen == {(), ((0, (10, 11)),), ((0, (11, 10)),)}


def test_cut_off_outposts_are_removed_at_once_after_the_moves():
    # row 0 is a corridor (water below it, except at the right edge)
    m = small_map(n=12, water=[(1, c) for c in range(10)])
    s = GAME.initial_state(m, {"r": 3, "L": 5, "W": 0})
    s = with_outposts(s, [[(0, 0), (0, 2), (0, 8)], [(0, 11), (2, 7)], [(11, 11)], [(11, 0)]])
    assert [len(a) for a in s.outposts] == [3, 2, 1, 1]
    assert (s.owner[0, :9] == 0).all()
    # empire 1 steps to (2, 6): (0, 5) becomes disputed and cuts the corridor
    t = GAME.apply(s, {1: ((1, (2, 6)),)})
    assert lists(t) == [[[0, 0], [0, 2]], [[0, 11], [2, 6]], [[11, 11]], [[11, 0]]]
    check_invariants(t)
    # ownership is recomputed after the removal: (0, 8)'s cells are no longer empire 0's
    assert t.owner[0, 8] == 1 and t.owner[0, 5] == DISPUTED


# --------------------------------------------------------------------------- seasons


def test_season_builds_at_home_and_disbands_by_choice():
    m = small_map(n=12)
    s = GAME.initial_state(m, {"r": 3, "L": 5, "W": 0, "T": 30})
    rng = np.random.default_rng(1)
    for _ in range(9):
        s = GAME.apply(s, {p: GAME.random_move(s, p, rng) for p in GAME.to_move(s)})
    # before turn 10: counted from turn 9's ownership, one new outpost at home, last
    assert s.turn == 9 and all(s.built)
    assert s.afford == tuple(int(x) // 5 + 1 for x in s.land)
    for e in range(4):
        assert s.outposts[e][-1].tolist() == list(m.starts[e])
    # now make empire 2 over budget: 3 outposts, afford 1 at the next season
    with pytest.warns(UserWarning, match="can ever grow"):
        s = GAME.initial_state(m, {"r": 3, "L": 100, "W": 0, "T": 30})
    s = with_outposts(s, [[(0, 0)], [(0, 11)], [(11, 11), (11, 10), (10, 11)], [(11, 0)]])
    s.turn = 9
    from atlas.games.outpost.rules.game import prepare_turn

    prepare_turn(s)
    assert s.pending == (False, False, True, False)
    assert GAME.to_move(s) == (2,)
    assert GAME.legal_moves(s, 2) == (0, 1, 2)
    assert GAME.legal_moves(s, 0) == ()
    with pytest.raises(IllegalMoveError, match="only seats"):
        GAME.apply(s, {0: 0})
    with pytest.raises(IllegalMoveError, match="no outpost 3"):
        GAME.apply(s, {2: 3})
    t = GAME.apply(s, {2: 1})
    assert (
        t.turn == 9 and lists(t)[2] == [[11, 11], [10, 11]] and GAME.to_move(t) == (0, 1, 2, 3)
    )
    # None disbands the last one (spec)
    t = GAME.apply(s, {2: None})
    assert lists(t)[2] == [[11, 11], [11, 10]]


def test_random_playout_keeps_every_invariant(map1):
    s = GAME.initial_state(map1, {"T": 60, "L": 20, "W": 0})
    rng = np.random.default_rng(7)
    phases = 0
    while GAME.to_move(s):
        seats = GAME.to_move(s)
        if any(s.pending):
            phases += 1
        moves = {p: GAME.random_move(s, p, rng) for p in seats}
        s = GAME.apply(
            s, {p: GAME.move_from_json(GAME.move_to_json(m)) for p, m in moves.items()}
        )
        if not any(s.pending) and not any(s.built):
            check_invariants(s)
    assert s.turn == 60
    assert max(len(a) for a in s.outposts) >= 2
    out = GAME.outcome(s)
    assert out.reason == "turn-limit"
    assert sum(out.scores) == pytest.approx(2.0)


# --------------------------------------------------------------------------- official mode


def test_official_chained_moves_and_ignored_entries(map1):
    s = GAME.initial_state(map1, {"compat": "official", "T": 5})
    moves = {
        0: (
            (0, (0, 1)),
            (0, (0, 2)),
            (0, (0, 3)),
            (0, (1, 4)),
            (7, (0, 0)),
            (0, (0, 3)),
        ),  # diagonal ignored, unknown index ignored
        1: ((0, (0, 99)), (0, (2, 99))),  # stay, two cells: ignored
        2: ((0, (100, 99)),),
    }  # off board: ignored
    t = GAME.apply(s, moves)
    assert lists(t) == [[[0, 3]], [[0, 99]], [[99, 99]], [[99, 0]]]
    check_invariants(t)


def test_official_negative_index_or_missing_target_stops_the_turn(map1):
    s = GAME.initial_state(map1, {"compat": "official"})
    for stop in ((-1, (0, 1)), (0, None)):
        t = GAME.apply(
            s, {0: ((0, (0, 1)),), 1: ((0, (1, 99)), stop, (0, (2, 99))), 3: ((0, (98, 0)),)}
        )
        # entries before the stop stand; the rest of seat 1 and seat 3 do not move
        assert lists(t) == [[[0, 1]], [[1, 99]], [[99, 99]], [[99, 0]]]
        # ownership as the simulator's updatemap left it after seat 0's list: seat 0
        # moved, seat 1's first entry not counted (tests/sim/test_outpost_faults.py)
        inf = influence(t.water, [[(0, 1)], [(0, 99)], [(99, 99)], [(99, 0)]], t.params.r)
        assert t.land.tolist() == inf.land.tolist() != s.land.tolist()
        assert t.turn == 1 and t.stopped == (1, 1)
    # in spec mode the same moves are refused
    spec = GAME.initial_state(map1)
    with pytest.raises(IllegalMoveError, match=r"seat 1: step \[-1, \(0, 1\)\] has no outpost"):
        GAME.apply(spec, {1: ((-1, (0, 1)),)})


def test_official_length_and_invalid_disband_answer():
    m = small_map(n=12)
    s = GAME.initial_state(m, {"compat": "official", "r": 3, "L": 100, "W": 0, "T": 12})
    assert s.params.last_turn == 13
    s = with_outposts(s, [[(0, 0)], [(0, 11)], [(11, 11), (11, 10)], [(11, 0)]])
    for _ in range(9):
        s = GAME.apply(s, {})
    assert s.pending == (False, False, True, False)
    t = GAME.apply(s, {2: None})  # invalid answer: nothing disbanded ...
    assert len(t.outposts[2]) == 2 and t.skip == (False, False, True, False)
    t = GAME.apply(t, {2: ((0, (10, 11)),), 0: ((0, (0, 1)),)})  # ... and no moves
    assert lists(t)[2] == [[11, 11], [11, 10]] and lists(t)[0] == [[0, 1]]
    t = GAME.apply(t, {2: ((0, (10, 11)),)})  # moves again after
    assert lists(t)[2][0] == [10, 11]
    while GAME.to_move(t):
        t = GAME.apply(t, {p: None for p in GAME.to_move(t)})
    assert t.turn == 13


def test_official_zero_costs_disband_every_season():
    from atlas.games.outpost.rules.game import prepare_turn

    m = small_map(n=12)
    s = GAME.initial_state(m, {"compat": "official", "r": 3, "L": 0, "W": 0})
    s = with_outposts(s, [[(5, 5)], [(0, 11)], [(11, 11)], [(11, 0)]])
    s.turn = 9
    prepare_turn(s)
    # no water on this map: 0 / 0 is NaN, which gives 1 (no disband)
    assert s.afford == (1, 1, 1, 1) and not any(s.pending)
    # land and water: x / 0 is infinite, and int(inf) + 1 overflows
    w = small_map(n=12, water=[(2, 2), (2, 9), (9, 9), (9, 2)])
    s = GAME.initial_state(w, {"compat": "official", "r": 4, "L": 0, "W": 0})
    s.turn = 9
    prepare_turn(s)
    assert s.afford == (-(2**31),) * 4 and all(s.pending)


def test_spec_warns_when_growth_is_impossible():
    with pytest.warns(UserWarning, match="no empire can ever grow"):
        GAME.initial_state(small_map(), {"r": 2, "L": 10, "W": 5})
    with pytest.raises(ValueError, match="compat"):
        GAME.initial_state(small_map(), {"compat": "java"})
    with pytest.raises(ValueError, match="unknown outpost parameter"):
        GAME.initial_state(small_map(), {"R": 3})


# --------------------------------------------------------------------------- end, JSON, copies


def test_outcome_scores_and_ties():
    m = small_map(n=12)
    s = GAME.initial_state(m, {"T": 1, "r": 2, "L": 5, "W": 0})
    s = with_outposts(s, [[(0, 0), (2, 2)], [(0, 11)], [(11, 11)], [(11, 0)]])
    t = GAME.apply(s, {})
    out = GAME.outcome(t)
    assert out.winner == 0 and out.reason == "turn-limit"
    # 1, 2, 3 are tied (same corner diamonds): each beats nobody and ties two
    assert out.scores == (1.0, 1 / 3, 1 / 3, 1 / 3)
    assert "player 1 wins" in out.detail  # seats are read from 1 in details
    t = GAME.apply(GAME.initial_state(m, {"T": 1, "r": 2, "L": 5, "W": 0}), {})
    out = GAME.outcome(t)
    assert out.winner is None and out.scores == (0.5, 0.5, 0.5, 0.5)
    assert GAME.outcome(GAME.initial_state(m)) is None
    assert GAME.to_move(t) == ()
    with pytest.raises(IllegalMoveError, match="over"):
        GAME.apply(t, {})


def test_json_round_trip_and_bad_data():
    move = ((0, (1, 2)), (3, None))
    data = GAME.move_to_json(move)
    assert data == [[0, [1, 2]], [3, None]]
    assert GAME.move_from_json(data) == move
    assert GAME.move_from_json(2) == 2 and GAME.move_to_json(2) == 2
    assert GAME.move_to_json(np.array([[1, 4, 5]])) == [[1, [4, 5]]]
    move = (
        r"an outpost move is a list of \[index, \[row, col\]\] steps, 'returned-null' "
        r"or a disband index"
    )
    step = r"an outpost step is \[index, \[row, col\]\]"
    for bad, problem in (
        ("n", move),
        ([[0, [1]]], step),
        ([["0", [1, 2]]], step),
        ([[0, [1.5, 2]]], step),
        ({"a": 1}, move),
        (True, move),
    ):
        with pytest.raises(InvalidMoveError, match=rf"^{problem}, got "):
            GAME.move_from_json(bad)


def test_copy_is_independent_and_summary_is_json(map1):
    s = GAME.initial_state(map1)
    c = s.copy()
    c.rc[0, 0] = 5
    c.owner_flat[:] = DISPUTED
    assert s.outposts[0].tolist() == [[0, 0]] and (s.owner != DISPUTED).any()
    assert c.water is s.water
    summ = GAME.summary(s)
    assert summ["outposts"] == [[[0, 0]], [[0, 99]], [[99, 99]], [[99, 0]]]
    assert summ["turn"] == 0 and summ["land"] == s.land.tolist()


def test_moves_in_every_accepted_form_play_alike():
    """Tuples, lists, numpy integers and (k, 3) arrays are the same move; anything but
    whole numbers is refused, whatever the seat."""
    m = small_map(water=[(1, 1)])
    s = with_outposts(
        GAME.initial_state(m), [[(0, 0), (2, 2)], [(0, 11)], [(11, 11)], [(11, 0)]]
    )
    want = lists(GAME.apply(s, {0: ((1, (2, 3)),), 3: ((0, (10, 0)),)}))
    assert want[0] == [[0, 0], [2, 3]] and want[3] == [[10, 0]]
    for move0, move3 in (
        ([[1, [2, 3]]], [[0, [10, 0]]]),
        (((np.int64(1), (np.int32(2), np.int64(3))),), ((0, np.array([10, 0])),)),
        (np.array([[1, 2, 3]]), np.array([[0, 10, 0]])),
    ):
        assert lists(GAME.apply(s, {0: move0, 3: move3})) == want
        # seat order in the mapping does not matter
        assert lists(GAME.apply(s, {3: move3, 0: move0})) == want
    whole = r"outpost moves are \(index, \(row, col\)\) steps of whole numbers, got \[1"
    shape = r"seat 0: an outpost move is a sequence of \(index, \(row, col\)\) steps"
    for bad, problem in (
        (((1, (2.0, 3)),), whole),
        (((1.5, (2, 3)),), whole),
        (((1, ("2", 3)),), whole),
        (((1, (2, 3, 4)),), shape),
        (((1, (2**70, 3)),), whole),
    ):
        with pytest.raises(IllegalMoveError, match=problem):
            GAME.apply(s, {3: ((0, (10, 0)),), 0: bad})
    # the error names the seat whose step is illegal, after legal seats' steps
    with pytest.raises(IllegalMoveError, match=r"seat 2: step \[0, \(9, 9\)\]"):
        GAME.apply(s, {0: ((1, (2, 3)),), 1: ((0, (1, 11)),), 2: ((0, (9, 9)),)})


@pytest.mark.parametrize("per_empire, steps_per_turn", [(1, 4), (3, 1), (12, 4)])
def test_turns_recomputing_only_around_moves_agree_with_the_analysis(
    map1, per_empire, steps_per_turn
):
    """Few moves: the engine recomputes ownership only in boxes around them; many: the
    whole board.  Either way every turn's owners and counts are those of
    :func:`influence` on the new outposts, and the state played from is untouched."""
    rng = np.random.default_rng(per_empire)
    land = np.argwhere(~map1.blocked)
    s = GAME.initial_state(map1, {"T": 40})
    lists0 = []
    for home in map1.starts:
        near = land[np.abs(land - home).sum(axis=1) < 45]
        lists0.append([home] + [tuple(c) for c in near[rng.choice(len(near), per_empire)]])
    s = with_outposts(s, lists0)
    for _ in range(25):
        if any(s.pending):
            s = GAME.apply(s, {p: 0 for p in GAME.to_move(s)})
            continue
        moves = {}
        for p in range(4):
            steps = list(GAME.legal_moves(s, p))
            picks = rng.permutation(len(steps))[:steps_per_turn] if steps else []
            seen = set()
            moves[p] = tuple(
                steps[i] for i in picks if steps[i][0] not in seen and not seen.add(steps[i][0])
            )
        before = (s.owner.copy(), s.counts.copy(), lists(s))
        t = GAME.apply(s, moves)
        np.testing.assert_array_equal(s.owner, before[0])
        assert s.counts.tolist() == before[1].tolist() and lists(s) == before[2]
        inf = influence(t.water, t.outposts, t.params.r)
        np.testing.assert_array_equal(t.owner, inf.owner)
        assert (t.land.tolist(), t.water_count.tolist(), t.disputed.tolist()) == (
            inf.land.tolist(),
            inf.water.tolist(),
            inf.disputed.tolist(),
        )
        s = t


@pytest.mark.parametrize("huge", [199, 2**31, 2**62])
def test_a_radius_past_the_board_plays_and_replays_as_the_whole_board(map1, huge):
    """Past rows + cols every cell is within reach of every outpost, so any larger
    radius owns the board alike.  A radius of 2**62 overflowed the kernels' packed
    distances: the game played, and its record no longer replayed."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "render"))
    from render_helpers import play_record, random_mover

    from atlas.sim.records import replay_states, verify_record

    games = {
        r: play_record(
            "outpost", map1, 3, params={"r": r, "T": 25}, chooser=random_mover("outpost")
        )
        for r in (200, huge)
    }
    verify_record(games[huge])
    ends = {r: replay_states(g)[-1] for r, g in games.items()}
    assert [t.moves for t in games[huge].turns] == [t.moves for t in games[200].turns]
    np.testing.assert_array_equal(ends[huge].owner, ends[200].owner)
    assert ends[huge].land.tolist() == ends[200].land.tolist()
    check_invariants(ends[huge])
