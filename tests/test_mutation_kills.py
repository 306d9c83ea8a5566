"""Tests that kill mutants the rest of the suite let live (tools/mutate.py)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from atlas.maps import parse_map
from atlas.sim import tron

# --- atlas/sim/tron.py ---------------------------------------------------------------

# seat 0 at (0, 0) in a corner, seat 1 at (2, 3); no border walls, a wall at (1, 0)
CORNER = "4 3\n1   \n#   \n   2\n"


def _tron(text: str, compat: str = "fair") -> tron.TronState:
    return tron.GAME.initial_state(parse_map(text, game="tron"), {"compat": compat})


def test_a_bare_tron_state_is_a_live_game_at_turn_0():
    blocked = np.zeros((3, 4), dtype=bool)
    s = tron.TronState(blocked, np.array([[0, 0], [2, 3]], dtype=np.int32))
    assert (s.turn, s.crashed, s.collided, s.causes) == (0, (False, False), False, ("", ""))
    assert not s.over and tron.GAME.outcome(s) is None
    assert tron.GAME.to_move(s) == (0, 1)


def test_the_initial_state_has_no_outcome():
    s = _tron(CORNER)
    assert tron.GAME.outcome(s) is None and not s.collided


def test_safe_moves_looks_the_right_way_and_stops_at_the_edge():
    s = _tron(CORNER)
    # (0, 0): north and west are off the map, south is the wall at (1, 0)
    assert tron.safe_moves(s, 0) == [tron.EAST]
    # (2, 3), the bottom-right corner of a map without border walls
    assert tron.safe_moves(s, 1) == [tron.NORTH, tron.WEST]


@pytest.mark.parametrize("compat", tron.COMPATS)
def test_a_head_on_collision_names_its_cause_for_both(compat):
    s = tron.GAME.apply(_tron("3 1\n1 2\n", compat), {0: tron.EAST, 1: tron.WEST})
    assert s.collided and s.crashed == (True, True)
    assert tuple(s.causes) == ("collision", "collision")


def test_initial_state_refuses_a_map_of_another_game_or_without_two_starts():
    two = parse_map(CORNER, game="tron")
    for game_map in (replace(two, game="isolation"), replace(two, starts=two.starts[:1])):
        with pytest.raises(ValueError, match="not a tron map with two starts"):
            tron.GAME.initial_state(game_map)


def test_summary_counts_the_blocked_squares_after_a_turn():
    s = tron.GAME.apply(_tron(CORNER), {0: tron.EAST, 1: tron.NORTH})
    out = tron.GAME.summary(s)
    assert out["turn"] == 1 and out["heads"] == [[0, 1], [1, 3]]
    assert out["crashed"] == [False, False] and out["collided"] is False
    # the wall, both starts (now trail) and both heads
    assert out["blocked_count"] == 5 and len(out["blocked_sha1"]) == 40


def test_summarize_map_adds_the_duel_figures_for_two_starts():
    out = tron.GAME.summarize_map(parse_map(CORNER, game="tron"))
    assert {"voronoi", "chambers", "parity_bound"} <= set(out)
    assert out["free_cells"] == 11
