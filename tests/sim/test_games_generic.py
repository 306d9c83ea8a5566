"""Every game through seeded random playouts, checked against the Game interface.

In the spirit of OpenSpiel's ``games_sim_test``: one test, every registered game,
a few maps and seeds each; at every step copies are independent,
``apply`` leaves its input alone, moves survive a JSON round trip, the game is over
exactly when nobody is to move, scores are in bounds, and the finished game's record
survives a file round trip and replays to the same final position.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from atlas.bots.random import RandomBot
from atlas.errors import RecordError
from atlas.maps import find_maps, parse_map, read_map
from atlas.sim import game_names, get_game
from atlas.sim.base import REASONS, Game, GameInfo, Outcome
from atlas.sim.records import (
    RecordBuilder,
    load_record,
    replay_states,
    save_record,
    verify_record,
)

REPO = Path(__file__).resolve().parents[2]
#: Games whose ``legal_moves`` lists whole moves (outpost lists per-outpost steps).
LEGAL_MOVES_ARE_MOVES = ("tron", "isolation", "connect5")
#: A cap on turns per playout, so that a long game still checks quickly (outpost's
#: cap still spans several seasons).
MAX_TURNS = {"outpost": 45}
DEFAULT_MAX_TURNS = 600
SEEDS = (0, 1)

PRESENT = list(game_names())

# Small boards written here, so every game is tried on an odd shape too.
EXTRA_MAPS = {
    "tron": ["4 3\n1   \n ## \n   2\n"],
    "isolation": [
        "isolation 3 4 queen\n1..\n.#.\n...\n..2\n",
        "isolation 4 4 knight\n....\n....\n....\n....\n",
    ],
    "connect5": ["connect5 3 3 3\n"],
    "outpost": ["".join(f"{x} {y}\n" for x in range(20, 30) for y in range(5, 45, 3))],
}


def test_every_game_is_present_and_its_rules_import():
    # The parametrized tests below run once per registered game: a game missing from
    # the registry, or whose rules module fails to import, must fail here, not vanish.
    assert {"tron", "isolation", "connect5", "outpost"} <= set(PRESENT)
    for name in PRESENT:
        assert get_game(name).info.name == name


def maps_of(game_name: str) -> list:
    files = find_maps(REPO / "maps" / game_name)[:3]
    maps = [read_map(p, game_name) for p in files]
    maps += [
        parse_map(t, game=game_name, name=f"extra{i}")
        for i, t in enumerate(EXTRA_MAPS.get(game_name, []))
    ]
    return maps


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
    assert out.reason in REASONS
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


def playout(game_name: str, game_map: Any, seed: int) -> tuple[list, Any, Any]:
    """One checked random game; returns (moves per turn, final state, builder)."""
    game = get_game(game_name)
    info = game.info
    state = game.initial_state(game_map)
    bots = [RandomBot(game_name, seed * 10 + p) for p in range(info.num_players)]
    builder = RecordBuilder(game_name, game_map, None, ["random"] * info.num_players, seed)
    turns = []
    longest = game.longest_game(game_map)
    while game.outcome(state) is None and len(turns) < MAX_TURNS.get(
        game_name, DEFAULT_MAX_TURNS
    ):
        assert len(turns) <= longest
        check_copy_is_independent(game, state)
        check_outcome(game, state, None)
        seats = game.to_move(state)
        assert seats and len(set(seats)) == len(seats)
        if not info.simultaneous:
            assert len(seats) == 1
            assert not game.legal_moves(state, 1 - seats[0]) if info.num_players == 2 else True
        moves = {}
        for p in seats:
            move = bots[p].move(state.copy(), p, float("inf"))
            if game_name in LEGAL_MOVES_ARE_MOVES:
                legal = list(game.legal_moves(state, p))
                assert legal and move in legal
                for m in legal:
                    check_move_round_trip(game, m)
            if move is not None:
                check_move_round_trip(game, move)
            moves[p] = move
        before = _snapshot(game, state)
        nxt = game.apply(state, moves)
        assert _snapshot(game, state) == before, "apply modified its input"
        # one apply is one turn, except outpost's season step (choosing what to disband)
        assert nxt.turn == state.turn + 1 or (game_name == "outpost" and nxt.turn == state.turn)
        builder.add_turn(moves, {p: 0.0 for p in moves})
        turns.append(moves)
        state = nxt
    check_outcome(game, state, game.outcome(state))
    assert len(turns) <= longest
    return turns, state, builder


@pytest.mark.parametrize("game_name", PRESENT)
def test_random_playouts(game_name, tmp_path):
    game = get_game(game_name)
    assert game.info.name == game_name and isinstance(game, Game)
    maps = maps_of(game_name)
    assert maps, f"no maps for {game_name}"
    finished = 0
    for game_map in maps:
        for seed in SEEDS:
            turns, final, builder = playout(game_name, game_map, seed)
            assert turns, "a game with no turn"
            out = game.outcome(final)
            finished += out is not None
            if out is None:
                out = Outcome(None, "turn-limit", (0.0,) * game.info.num_players)
            record = builder.finish(final, out)
            path = tmp_path / f"{game_map.name}-{seed}.json.gz"
            save_record(record, path)
            loaded = load_record(path)
            assert loaded == record
            if game.outcome(final) is not None:
                verify_record(loaded)
            else:  # cut at MAX_TURNS: it replays, but cannot claim a result
                assert game.summary(replay_states(loaded)[-1]) == game.summary(final)
                with pytest.raises(RecordError, match="before the game is over"):
                    verify_record(loaded)
            again_turns, again_final, _ = playout(game_name, game_map, seed)
            assert game.summary(again_final) == game.summary(final), "not reproducible"
            assert [
                {p: game.move_to_json(m) if m is not None else None for p, m in t.items()}
                for t in again_turns
            ] == [
                {p: game.move_to_json(m) if m is not None else None for p, m in t.items()}
                for t in turns
            ]
    if game_name in LEGAL_MOVES_ARE_MOVES:
        assert finished == len(maps) * len(SEEDS)
