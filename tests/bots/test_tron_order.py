"""The tron search under the 2010 engine's sequential turn (``compat="official"``).

The search's values are checked against a plain minimax that plays every turn through
atlas's own official rules (``GAME.apply``), so the follow onto the square the other
cycle is leaving, the first seat's swap and the first turn's walls are what the engine
does, not what the search believes.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from atlas.games.tron.bots import apex
from atlas.games.tron.bots import common as tc
from atlas.games.tron.rules import GAME, TronState
from tests.conftest import benchmark_module

DIRS = (1, 2, 3, 4)
STEP = {1: (-1, 0), 2: (0, 1), 3: (1, 0), 4: (0, -1)}


def state_of(rows: list[str], turn: int, compat: str = "official") -> TronState:
    """A position from text (``#`` blocked, ``1``/``2`` the heads) at ``turn``."""
    h, w = len(rows), len(rows[0])
    blocked = np.zeros((h, w), dtype=bool)
    heads = np.zeros((2, 2), dtype=np.int32)
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            blocked[r, c] = ch in "#12"
            if ch in "12":
                heads[int(ch) - 1] = (r, c)
    return TronState(blocked, heads, turn, (False, False), compat, 1000)


def _crashes(state: TronState, seat: int, move: int, other: int = 0) -> bool:
    """Whether ``seat``'s ``move`` crashes against the other's ``other`` (0: against
    any of its moves, a meeting on one square not counting)."""
    if other == 0:
        return any(_crashes(state, seat, move, o) for o in DIRS)
    nxt = GAME.apply(state, {seat: move, 1 - seat: other})
    return bool(nxt.crashed[seat] and not nxt.collided)


def _leaf(state: TronState, seat: int) -> float:
    grid, me, opp = tc.board_from_state(state, seat)
    ws = tc.Workspace(*state.blocked.shape)
    tables = apex.SearchTables(ws.n)
    return apex.apex_evaluate(grid, me, opp, ws.off, ws.w2, ws.ibuf, tables.bbuf, apex.EVAL)


def reference(state: TronState, seat: int, depth: int, turn: int = 0) -> float:
    """Minimax of ``depth`` turns for ``seat``, each turn resolved by the rules: my
    move first, the opponent's reply knowing it; a win is worth ``WIN`` less the turns
    it takes (the search's convention), a draw ``DRAW``."""
    if depth == 0:
        return _leaf(state, seat)
    opp = 1 - seat
    mine = [m for m in DIRS if not _crashes(state, seat, m)]
    if not mine:
        theirs = [n for n in DIRS if not _crashes(state, opp, n)]
        return apex.DRAW if not theirs else -apex.WIN + (turn - 1)
    best = -np.inf
    for m in mine:
        theirs = [n for n in DIRS if not _crashes(state, opp, n, m)]
        if not theirs:
            value = apex.WIN - turn
        else:
            value = np.inf
            for n in theirs:
                nxt = GAME.apply(state, {seat: m, opp: n})
                if nxt.collided:
                    v = apex.DRAW
                else:
                    v = reference(nxt, seat, depth - 1, turn + 1)
                value = min(value, v)
        best = max(best, value)
    return best


def searched(state: TronState, seat: int, depth: int) -> tuple[int, float]:
    """The search's move and value at ``depth`` turns, as ``apex`` plays ``seat``."""
    grid, me, opp = tc.board_from_state(state, seat)
    ws = tc.Workspace(*state.blocked.shape)
    tables = apex.SearchTables(ws.n)
    order, first = tc.turn_seat(state, seat)
    before = grid.copy()
    s = apex._context(grid, ws, tables, apex.EVAL, apex.DRAW, depth, order, first)
    k = int(apex.apex_search_root(s, me, opp, depth))
    assert np.array_equal(grid, before)  # every move taken back, follows included
    return k, float(s.scores[k]) if k >= 0 else -np.inf


def _random_states(n: int, seed: int) -> list[TronState]:
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        free = rng.random((5, 6)) > 0.3
        cells = list(zip(*np.nonzero(free)))
        if len(cells) < 6:
            continue
        a = cells[int(rng.integers(len(cells)))]
        near = [c for c in cells if abs(c[0] - a[0]) + abs(c[1] - a[1]) == 1]
        pool = near if near and rng.random() < 0.6 else [c for c in cells if c != a]
        b = pool[int(rng.integers(len(pool)))]
        blocked = ~free
        blocked[a] = blocked[b] = True
        turn = 0 if rng.random() < 0.25 else int(rng.integers(1, 9))
        out.append(
            TronState(
                blocked, np.array([a, b], np.int32), turn, (False, False), "official", 1000
            )
        )
    return out


@pytest.mark.parametrize("depth", [1, 2])
def test_search_values_equal_a_minimax_over_the_official_rules(depth):
    # Heads side by side in most positions: follows and swaps are what is checked.
    checked = 0
    for state in _random_states(40, 7 + depth):
        for seat in (0, 1):
            k, value = searched(state, seat, depth)
            if k < 0:
                continue
            want = reference(state, seat, depth)
            assert value == pytest.approx(want), (state.turn, seat, state.heads.tolist())
            checked += 1
    assert checked >= 60


def test_the_first_seat_follows_the_other_cycle_and_wins_the_swap():
    # Seat 0 (moving first) has no free square but the one seat 1 is leaving; from the
    # second turn on it may step there.  Seat 1 can only swap, onto seat 0's square:
    # that crashes it, so seat 0 wins.  On the first turn both start squares are walls.
    rows = ["#####", "#12##", "#####"]
    later = state_of(rows, 3)
    assert tc.turn_seat(later, 0) == (tc.SEAT_FIRST, False)
    assert tc.turn_seat(later, 1) == (tc.SEAT_SECOND, False)
    assert tc.turn_seat(later, -1) == (tc.SEAT_FAIR, False)  # a seat not known
    k, value = searched(later, 0, 1)
    assert k == 1 and value == apex.WIN  # east, onto seat 1's square: won this turn
    nxt = GAME.apply(later, {0: 2, 1: 4})
    assert nxt.crashed == (False, True)  # the rules agree
    k, value = searched(state_of(rows, 0), 0, 1)
    assert k < 0  # first turn: no legal move at all
    k, value = searched(later, 1, 1)
    assert k < 0  # the second seat may not step onto the first seat's square


def test_the_second_seat_expects_to_be_followed():
    # Seat 1's head is beside seat 0's, and seat 0's only way out is seat 1's square.
    # Under atlas's fair turn that is a crash for seat 0; under the official order
    # seat 0 follows seat 1, so seat 1 gains nothing by running and loses nothing.
    rows = ["#######", "#12   #", "###   #", "#######"]
    state = state_of(rows, 2)
    fair = state_of(rows, 2, compat="spec")
    assert tc.turn_seat(fair, 1) == (tc.SEAT_FAIR, False)
    assert searched(fair, 1, 1)[1] == apex.WIN  # fair: seat 0 is stuck
    k, value = searched(state, 1, 1)
    assert value < apex.WIN / 2  # official: seat 0 lives on behind it
    assert value == pytest.approx(reference(state, 1, 1))


def test_a_bot_that_models_the_order_follows_when_that_is_the_only_way():
    # apex playing seat 0 under the official rules finds the follow (east); a bot that
    # does not model the order plays its fallback, and under these rules that is north,
    # a crash.
    rows = ["#####", "#12##", "#####"]
    bot = apex.ApexBot()
    bot.fixed_depth = 2
    assert bot.models_order
    assert bot.move(state_of(rows, 3), 0, time.perf_counter() + 5.0) == 2
    assert bot.move(state_of(rows, 3, compat="spec"), 0, time.perf_counter() + 5.0) == 1


def test_the_a_b_benchmark_scores_a_bot_against_itself_even_pair_by_pair(tmp_path):
    # The same settings on both sides: each pair is one game played twice with the
    # seats swapped, so the variant scores exactly half of every pair, whoever the
    # board favours; a setting the bot lacks is refused.
    ab = benchmark_module("tron_ab")
    board = tmp_path / "room.txt"
    board.write_text("8 6\n########\n#1     #\n#  ##  #\n#      #\n#     2#\n########\n")
    pair = ab.play_pair("apex", {"tie_break": False}, {"tie_break": False}, str(board), 40)
    assert [g["seat"] for g in pair] == [0, 1]
    assert pair[0]["score"] + pair[1]["score"] == 1.0
    assert pair[0]["turns"] == pair[1]["turns"]
    assert ab.play_pair("apex", {"tie_break": False}, {}, str(board), 40) == ab.play_pair(
        "apex", {"tie_break": False}, {}, str(board), 40
    )  # fixed effort: the same games every time
    with pytest.raises(ValueError, match="no setting"):
        ab.play_pair("apex", {"no_such": 1}, {}, str(board), 40)
    # an array setting from JSON keeps its type: apex's own weights play its own games
    weights = {"ev": [int(v) for v in ab._bot("apex", {}, 0).ev]}
    assert ab._bot("apex", weights, 0).ev.dtype == np.int64
    assert ab.play_pair("apex", weights, {}, str(board), 40) == ab.play_pair(
        "apex", {}, {}, str(board), 40
    )
    with pytest.raises(ValueError, match="expected 5 values"):
        ab._bot("apex", {"ev": [1, 2]}, 0)
    games = [dict(g, maps="own") for g in pair] + [
        {"maps": "own", "map": "b", "effort": 40, "seed": 0, "seat": s, "score": 1.0}
        for s in (0, 1)
    ]
    lines = ab.report(games)
    assert lines[0].startswith("own: 75.0 % [")
    assert "over 2 seat-swapped pairs (4 games): 1 pairs better, 0 worse, 1 even" in lines[0]
    assert lines[-1].startswith("all: 75.0 %")
