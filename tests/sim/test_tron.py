"""Tron rules: every spec case, every row of the official engine's table, the kernel."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from atlas.errors import IllegalMoveError, InvalidMoveError, ParamError
from atlas.games.tron import rules as tron
from atlas.games.tron.rules import EAST, GAME, NORTH, SOUTH, WEST
from atlas.maps import parse_map, read_map
from atlas.sim import get_info
from atlas.sim.base import SPEC

REPO = Path(__file__).resolve().parents[2]

# heads side by side: seat 0 at (1, 1), seat 1 at (1, 2); no border walls
SIDE = "5 4\n     \n 12  \n     \n     \n"
# heads two apart: seat 0 at (1, 1), seat 1 at (1, 3); a wall at (0, 1)
GAP = "5 3\n #   \n 1 2 \n     \n"


def start(text: str, compat: str = "spec", **params: int) -> tron.TronState:
    return GAME.initial_state(parse_map(text, game="tron"), {"compat": compat, **params})


def step(state: tron.TronState, m0: int | None, m1: int | None) -> tron.TronState:
    return GAME.apply(state, {0: m0, 1: m1})


def result(state: tron.TronState) -> tuple[int | None, str, tuple[float, ...]] | None:
    out = GAME.outcome(state)
    return None if out is None else (out.winner, out.reason, out.scores)


def after_parallel_turn(compat: str) -> tron.TronState:
    """Turn 1 played: both went south; heads (2, 1) and (2, 2), side by side."""
    s = step(start(SIDE, compat), SOUTH, SOUTH)
    assert result(s) is None and s.heads.tolist() == [[2, 1], [2, 2]]
    return s


# --------------------------------------------------------------------------- basics


def test_initial_state_blocks_starts_and_follows_contract():
    s = start(SIDE)
    assert s.heads.dtype == np.int32 and s.heads.tolist() == [[1, 1], [1, 2]]
    assert s.blocked[1, 1] and s.blocked[1, 2] and s.blocked.sum() == 2
    assert s.turn == 0 and s.crashed == (False, False) and s.compat == "spec"
    assert GAME.to_move(s) == (0, 1) and GAME.legal_moves(s, 0) == (1, 2, 3, 4)
    assert tron.DELTAS[NORTH].tolist() == [-1, 0] and tron.DELTAS[EAST].tolist() == [0, 1]
    assert tron.DELTAS[SOUTH].tolist() == [1, 0] and tron.DELTAS[WEST].tolist() == [0, -1]


def test_a_step_leaves_wall_and_blocks_new_heads():
    s0 = start(SIDE)
    s1 = step(s0, NORTH, EAST)
    assert s1.heads.tolist() == [[0, 1], [1, 3]]
    assert s1.turn == 1 and result(s1) is None
    expected = np.zeros((4, 5), dtype=bool)
    expected[[1, 1, 0, 1], [1, 2, 1, 3]] = True
    assert np.array_equal(s1.blocked, expected)
    assert s0.turn == 0 and s0.blocked.sum() == 2, "apply modified its input"


@pytest.mark.parametrize("compat", ["spec", "official"])
def test_wall_crash_other_wins(compat):
    s = step(start(GAP, compat), NORTH, SOUTH)  # seat 0 into the wall at (0, 1)
    assert result(s) == (1, "crash", (0.0, 1.0))
    assert "player 1 crashed into a wall" in GAME.outcome(s).detail
    assert GAME.to_move(s) == () and GAME.legal_moves(s, 0) == ()


@pytest.mark.parametrize("compat", ["spec", "official"])
def test_off_the_map_crashes(compat):
    s = step(start(GAP, compat), SOUTH, NORTH)
    s = step(s, WEST, EAST)
    s = step(s, WEST, SOUTH)  # seat 0 to (2, -1): off the map; seat 1 to (1, 4)
    assert result(s) == (1, "crash", (0.0, 1.0))
    assert s.causes[0] == "edge"
    assert s.heads.tolist()[0] == [2, 0], "a crashed cycle keeps its last square"


@pytest.mark.parametrize("compat", ["spec", "official"])
def test_both_crash_is_a_draw(compat):
    s = step(start(GAP, compat), NORTH, NORTH)  # seat 0 into the wall, seat 1 free
    assert result(s)[0] == 1
    s = step(step(start(GAP, compat), SOUTH, SOUTH), SOUTH, SOUTH)  # both off the map
    assert result(s) == (None, "draw", (0.5, 0.5)) and not s.collided
    assert "both cycles crashed" in GAME.outcome(s).detail


@pytest.mark.parametrize("compat", ["spec", "official"])
def test_same_empty_target_is_a_collision_draw(compat):
    s = step(start(GAP, compat), EAST, WEST)  # both onto (1, 2)
    assert result(s) == (None, "draw", (0.5, 0.5)) and s.collided
    assert s.heads.tolist() == [[1, 2], [1, 2]] and s.crashed == (True, True)
    assert "collided" in GAME.outcome(s).detail


def test_none_stays_put_and_crashes():
    s0 = start(GAP)
    s = step(s0, None, EAST)
    assert result(s) == (1, "crash", (0.0, 1.0))
    assert s.heads.tolist() == [[1, 1], [1, 4]] and s.causes[0] == "none"
    s = GAME.apply(s0, {0: EAST})  # a missing seat counts as None
    assert result(s) == (0, "crash", (1.0, 0.0))
    s = step(s0, None, None)
    assert result(s) == (None, "draw", (0.5, 0.5))


def test_turn_limit_is_a_draw():
    s = step(start(GAP, max_turns=1), SOUTH, SOUTH)
    assert result(s) == (None, "turn-limit", (0.5, 0.5))
    assert GAME.to_move(s) == ()
    with pytest.raises(IllegalMoveError):
        step(s, SOUTH, SOUTH)


# --------------------------------------------------------------------------- spec cases


def test_spec_entering_the_square_the_opponent_leaves_crashes_either_seat():
    s = step(after_parallel_turn("spec"), EAST, EAST)  # seat 0 follows seat 1's tail
    assert result(s) == (1, "crash", (0.0, 1.0))
    s = step(after_parallel_turn("spec"), WEST, WEST)  # seat 1 follows seat 0's tail
    assert result(s) == (0, "crash", (1.0, 0.0))


def test_spec_swap_is_a_draw_both_crash():
    s = step(after_parallel_turn("spec"), EAST, WEST)
    assert result(s) == (None, "draw", (0.5, 0.5))
    assert s.crashed == (True, True) and not s.collided


def test_spec_turn_one_onto_a_start_crashes_either_seat():
    assert result(step(start(SIDE), EAST, EAST))[0] == 1
    assert result(step(start(SIDE), WEST, WEST))[0] == 0
    assert result(step(start(SIDE), EAST, WEST))[:2] == (None, "draw")


def test_spec_stepping_on_a_seat_that_stayed_put_is_both_crashed():
    s = step(after_parallel_turn("spec"), None, WEST)
    assert result(s)[:2] == (None, "draw") and not s.collided


def test_spec_is_symmetric_under_seat_swap():
    # Mirror the SIDE board left-right and swap seats: results must swap too.
    rng = np.random.default_rng(3)
    mirror = {NORTH: NORTH, SOUTH: SOUTH, EAST: WEST, WEST: EAST}
    for _ in range(40):
        a, b = start(SIDE), start("5 4\n     \n  12 \n     \n     \n")
        while result(a) is None:
            m0 = int(rng.integers(1, 5))
            m1 = int(rng.integers(1, 5))
            a = step(a, m0, m1)
            b = step(b, mirror[m1], mirror[m0])
        ra, rb = result(a), result(b)
        assert rb is not None and ra[1] == rb[1] and ra[2] == rb[2][::-1]


# --------------------------------------------------------------------------- official table


def test_official_same_square_is_collided():
    s = step(start(GAP, "official"), EAST, WEST)
    assert result(s) == (None, "draw", (0.5, 0.5)) and s.collided


def test_official_turn_one_onto_the_other_start_crashes_the_mover():
    assert result(step(start(SIDE, "official"), EAST, EAST)) == (1, "crash", (0.0, 1.0))
    assert result(step(start(SIDE, "official"), WEST, WEST)) == (0, "crash", (1.0, 0.0))
    s = step(start(SIDE, "official"), EAST, WEST)  # swap on turn 1
    assert result(s) == (None, "draw", (0.5, 0.5)) and not s.collided
    assert s.crashed == (True, True)


def test_official_seat0_may_follow_seat1_tail_from_turn_two():
    s = step(after_parallel_turn("official"), EAST, EAST)
    assert result(s) is None
    assert s.heads.tolist() == [[2, 2], [2, 3]]
    assert s.blocked[2, 1] and s.blocked[2, 2] and s.blocked[2, 3]
    s = step(s, EAST, SOUTH)  # and it goes on by the ordinary rules
    assert result(s) is None and s.heads.tolist() == [[2, 3], [3, 3]]


def test_official_seat1_following_seat0_tail_crashes():
    s = step(after_parallel_turn("official"), WEST, WEST)
    assert result(s) == (0, "crash", (1.0, 0.0))


def test_official_swap_from_turn_two_is_won_by_seat0():
    s = step(after_parallel_turn("official"), EAST, WEST)
    assert result(s) == (0, "crash", (1.0, 0.0))
    assert s.crashed == (False, True)


def test_official_seat0_timeout_stepped_on_is_collided():
    s = step(after_parallel_turn("official"), None, WEST)
    assert result(s) == (None, "draw", (0.5, 0.5)) and s.collided
    s = step(start(SIDE, "official"), None, WEST)  # also on turn 1
    assert result(s)[:2] == (None, "draw") and s.collided


def test_official_seat1_timeout_stepped_on_is_collided():
    s = step(after_parallel_turn("official"), EAST, None)
    assert result(s) == (None, "draw", (0.5, 0.5)) and s.collided


def test_official_single_timeout_loses():
    assert result(step(after_parallel_turn("official"), None, SOUTH))[0] == 1
    assert result(step(after_parallel_turn("official"), SOUTH, None))[0] == 0


def test_official_and_spec_agree_when_heads_are_apart():
    rng = np.random.default_rng(11)
    game_map = read_map(REPO / "maps" / "tron" / "duel.txt")
    for _ in range(20):
        a = GAME.initial_state(game_map, {"compat": "spec"})
        b = GAME.initial_state(game_map, {"compat": "official"})
        while result(a) is None:
            moves = {p: GAME.random_move(a, p, rng) for p in (0, 1)}
            near = np.abs(a.heads[0] - a.heads[1]).sum() <= 2
            a, b = GAME.apply(a, moves), GAME.apply(b, moves)
            if near:
                break
            assert GAME.summary(a) == GAME.summary(b)


# --------------------------------------------------------------------------- interface


def test_move_json_round_trip_and_errors():
    for m in tron.DIRECTIONS:
        assert GAME.move_from_json(GAME.move_to_json(m)) == m
    for bad in (0, 5, "1", 1.0, True, None, [1]):
        with pytest.raises(InvalidMoveError, match=repr(bad) if bad is not None else "None"):
            GAME.move_from_json(bad)
    with pytest.raises(InvalidMoveError):
        step(start(SIDE), 7, 1)


def test_bad_parameters_are_refused():
    with pytest.raises(ValueError, match="compat"):
        start(SIDE, "strict")
    with pytest.raises(ValueError, match="unknown tron parameter"):
        GAME.initial_state(parse_map(SIDE, game="tron"), {"speed": 2})


def test_play_inplace_and_undo_restore_exactly():
    rng = np.random.default_rng(7)
    game_map = read_map(REPO / "maps" / "tron" / "duel.txt")
    for compat in tron.COMPATS:
        s = GAME.initial_state(game_map, {"compat": compat})
        stack = []
        snapshots = []
        while not s.over:
            snapshots.append((s.blocked.copy(), s.heads.copy(), s.turn, s.crashed))
            moves = [GAME.random_move(s, p, rng) for p in (0, 1)]
            expected = GAME.apply(s, {0: moves[0], 1: moves[1]})
            stack.append(tron.play_inplace(s, *moves))
            assert GAME.summary(s) == GAME.summary(expected)
        while stack:
            tron.undo(s, stack.pop())
            blocked, heads, turn, crashed = snapshots.pop()
            assert np.array_equal(s.blocked, blocked) and np.array_equal(s.heads, heads)
            assert (s.turn, s.crashed) == (turn, crashed)


def test_random_move_avoids_walls_when_it_can():
    s = start(GAP)
    rng = np.random.default_rng(0)
    seen = {GAME.random_move(s, 0, rng) for _ in range(60)}
    assert seen == {SOUTH, WEST, EAST}  # north is the wall at (0, 1)
    assert tron.safe_moves(s, 1) == [NORTH, EAST, SOUTH, WEST]


# --------------------------------------------------------------------------- kernel

_MASK = (1 << 64) - 1


def test_docstring_examples():
    import doctest

    result = doctest.testmod(tron, raise_on_error=False, verbose=False)
    assert result.attempted >= 3 and result.failed == 0


# --------------------------------------------------------------------------- the word


def test_the_documented_rules_are_called_spec_and_fair_is_still_read():
    # every game calls its documented rules "spec"; tron's older word "fair" means it
    assert GAME.info.param("compat").default == "spec" == SPEC
    assert get_info("outpost").param("compat").default == SPEC
    assert start(SIDE, compat="fair").compat == "spec"
    assert GAME.info.canonical_params({"compat": "fair", "max_turns": 9}) == {
        "compat": "spec",
        "max_turns": 9,
    }
    with pytest.raises(ParamError, match="compat should be one of spec, official"):
        start(SIDE, compat="fir")


def test_an_old_record_whose_params_say_fair_reads_as_spec_and_replays():
    from atlas.sim.records import load_record, verify_record

    path = REPO / "tests" / "sim" / "golden" / "tron-duel-random.json.gz"
    old = load_record(path)
    assert old.params["compat"] == "spec"  # the file says "fair", converted once on reading
    verify_record(old)
    path = REPO / "tests" / "sim" / "golden" / "tron-duel-random.json.gz"
    assert json.loads(gzip.decompress(path.read_bytes()))["params"]["compat"] == "fair"
