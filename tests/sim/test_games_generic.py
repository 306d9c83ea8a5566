"""Every game through seeded random playouts, checked against the Game interface.

In the spirit of OpenSpiel's ``games_sim_test``: one test, every registered game and the
tests' own toy game (``tests/sim/toygame/``), a few maps and seeds each, the same checks
for all of them and no game named in them.  At every step copies are independent,
``apply`` leaves its input alone, every move a bot gives and a few random ones are legal
(``GAME.is_legal``) and survive a JSON round trip, seats that are not to move have no
legal move, the turn counter advances by one (a game may take one extra step inside a
turn, never two in a row), the game is over exactly when nobody is to move, scores are
in bounds, and the finished game's record survives a file round trip, replays to the
same final position and verifies.

Each game is played with its quick parameters (:attr:`GameInfo.quick_params
<atlas.sim.base.GameInfo>`, a short Outpost game), so every playout ends by the rules.
Maps: the first three of ``maps/GAME/`` and every map of ``tests/sim/maps/GAME/`` (small
boards of odd shapes).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import toygame

from atlas.bots.random import RandomBot
from atlas.maps import find_maps, read_map
from atlas.sim import game_names, get_game
from atlas.sim.base import Game, GameInfo, Outcome, Reason
from atlas.sim.records import RecordBuilder, load_record, save_record, verify_record

REPO = Path(__file__).resolve().parents[2]
ODD_MAPS = Path(__file__).resolve().parent / "maps"
SEEDS = (0, 1)
#: Random moves checked for legality and a JSON round trip at each seat's turn.
SAMPLED_MOVES = 3

#: The tests' own games, registered for the test that plays them (atlas registers its).
TEST_GAMES = {toygame.NAME: toygame}
ALL_GAMES = [*game_names(), *TEST_GAMES]


@pytest.fixture(params=ALL_GAMES)
def game_name(request):
    package = TEST_GAMES.get(request.param)
    if package is not None:
        package.register()
    yield request.param
    if package is not None:
        package.unregister()


def test_every_game_is_present_and_its_rules_import():
    # The parametrized tests below run once per game: a game missing from the registry,
    # or whose rules module fails to import, must fail here, not vanish.
    assert {"tron", "isolation", "connect5", "outpost"} <= set(game_names())
    for name in game_names():
        assert get_game(name).info.name == name


def maps_of(game_name: str) -> list:
    """The first three of the game's maps in ``maps/`` and its odd ones here."""
    ours, odd = REPO / "maps" / game_name, ODD_MAPS / game_name
    files = (find_maps(ours)[:3] if ours.is_dir() else []) + (
        find_maps(odd) if odd.is_dir() else []
    )
    return [read_map(p, game_name) for p in files]


def _arrays(state: Any) -> dict[str, np.ndarray]:
    return {k: v for k, v in vars(state).items() if isinstance(v, np.ndarray)}


def _snapshot(game: Game, state: Any) -> tuple[str, dict[str, bytes]]:
    return (
        json.dumps(game.summary(state), sort_keys=True),
        {k: v.tobytes() for k, v in _arrays(state).items()},
    )


def check_copy_is_independent(game: Game, state: Any) -> None:
    before = _snapshot(game, state)
    twin = state.copy()
    assert _snapshot(game, twin) == before
    for name, arr in _arrays(twin).items():
        if not arr.flags.writeable:  # constant data (e.g. a map) may be shared
            continue
        assert not np.shares_memory(arr, getattr(state, name)), name
        if arr.size:
            arr.flat[0] = arr.flat[0] + 1 if arr.dtype != np.bool_ else not arr.flat[0]
    assert _snapshot(game, state) == before


def check_outcome(game: Game, state: Any, out: Outcome | None) -> None:
    info: GameInfo = game.info
    assert (out is None) == bool(game.to_move(state))
    if out is None:
        return
    assert isinstance(out.reason, Reason)
    assert len(out.scores) == info.num_players
    low, high = info.score_range
    assert all(math.isfinite(s) and low <= s <= high for s in out.scores)
    if info.num_players == 2:
        assert sorted(out.scores) in ([0.0, 1.0], [0.5, 0.5])
        assert (out.winner is None) == (out.scores == (0.5, 0.5))
    if out.winner is not None:
        assert 0 <= out.winner < info.num_players
        assert out.scores[out.winner] == max(out.scores)
    for p in range(info.num_players):
        assert not game.legal_moves(state, p)


def check_move_round_trip(game: Game, move: Any) -> None:
    data = json.loads(json.dumps(game.move_to_json(move)))
    back = game.move_from_json(data)
    assert game.move_to_json(back) == data
    assert json.dumps(data) == json.dumps(game.move_to_json(move))


def check_legal(game: Game, state: Any, seat: int, move: Any, others: tuple[int, ...]) -> None:
    """``move`` is legal for ``seat``, survives JSON, and is no one else's move now."""
    assert game.is_legal(state, seat, move), f"seat {seat} was given an illegal {move!r}"
    check_move_round_trip(game, move)
    for other in others:
        assert not game.is_legal(state, other, move)


def playout(game_name: str, game_map: Any, seed: int) -> tuple[list, Any, Any]:
    """One checked random game; returns (moves per turn, final state, builder)."""
    game = get_game(game_name)
    info = game.info
    params = dict(info.quick_params)
    state = game.initial_state(game_map, params)
    bots = [RandomBot(game_name, seed * 10 + p) for p in range(info.num_players)]
    sampler = np.random.default_rng(seed + 1000)
    builder = RecordBuilder(game_name, game_map, params, ["random"] * info.num_players, seed)
    turns = []
    longest = game.longest_game(game_map, params)
    stayed = False  # the last apply did not advance the turn
    while game.outcome(state) is None:
        assert len(turns) <= longest
        check_copy_is_independent(game, state)
        check_outcome(game, state, None)
        seats = tuple(game.to_move(state))
        assert seats and len(set(seats)) == len(seats)
        if not info.simultaneous:
            assert len(seats) == 1
        others = tuple(p for p in range(info.num_players) if p not in seats)
        for p in others:
            assert not game.legal_moves(state, p)
        assert not any(game.is_legal(state, p, None) for p in seats)
        moves = {}
        for p in seats:
            move = bots[p].move(state.copy(), p, float("inf"))
            check_legal(game, state, p, move, others)
            for _ in range(SAMPLED_MOVES):
                check_legal(game, state, p, game.random_move(state, p, sampler), others)
            moves[p] = move
        before = _snapshot(game, state)
        nxt = game.apply(state, moves)
        assert _snapshot(game, state) == before, "apply modified its input"
        assert nxt.turn in (state.turn, state.turn + 1)
        if nxt.turn == state.turn:  # a step inside a turn (a choice the turn needs)
            assert not stayed, "two applies in a row left the turn where it was"
        stayed = nxt.turn == state.turn
        builder.add_turn(moves, {p: 0.0 for p in moves})
        turns.append(moves)
        state = nxt
    check_outcome(game, state, game.outcome(state))
    assert len(turns) <= longest
    return turns, state, builder


def test_random_playouts(game_name, tmp_path):
    game = get_game(game_name)
    assert game.info.name == game_name and isinstance(game, Game)
    maps = maps_of(game_name)
    assert len(maps) >= 2, f"too few maps for {game_name}"
    for game_map in maps:
        for seed in SEEDS:
            turns, final, builder = playout(game_name, game_map, seed)
            assert turns, "a game with no turn"
            out = game.outcome(final)
            assert out is not None
            record = builder.finish(final, out)
            path = tmp_path / f"{game_map.name}-{seed}.json.gz"
            save_record(record, path)
            loaded = load_record(path)
            assert loaded == record
            verify_record(loaded)
            again_turns, again_final, _ = playout(game_name, game_map, seed)
            assert game.summary(again_final) == game.summary(final), "not reproducible"
            assert [{p: game.move_to_json(m) for p, m in t.items()} for t in again_turns] == [
                {p: game.move_to_json(m) for p, m in t.items()} for t in turns
            ]
