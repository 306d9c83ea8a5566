"""Isolation rules: queen and knight moves against brute force, blocking, losing, placement."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from atlas.errors import IllegalMoveError, InvalidMoveError
from atlas.games.isolation import rules as isolation
from atlas.games.isolation.rules import GAME
from atlas.maps import GameMap, parse_map, read_map

REPO = Path(__file__).resolve().parents[2]


def brute_force_moves(blocked: np.ndarray, pos: tuple[int, int], variant: str) -> set:
    """Every square reachable in one move, checked square by square."""
    h, w = blocked.shape
    r0, c0 = pos
    out = set()
    for r in range(h):
        for c in range(w):
            if blocked[r, c]:
                continue
            dr, dc = r - r0, c - c0
            if variant == "knight":
                if sorted((abs(dr), abs(dc))) == [1, 2]:
                    out.add((r, c))
                continue
            if (dr, dc) == (0, 0) or not (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
                continue
            n = max(abs(dr), abs(dc))
            path = [(r0 + dr * k // n, c0 + dc * k // n) for k in range(1, n)]
            if not any(blocked[p] for p in path):
                out.add((r, c))
    return out


def board(text: str) -> isolation.IsolationState:
    return GAME.initial_state(parse_map(text, game="isolation"))


def test_default_board_and_initial_state():
    s = GAME.initial_state(isolation.default_map())
    assert s.blocked.shape == (8, 8) and s.variant == "queen"
    assert s.pos.dtype == np.int32 and s.pos.tolist() == [[0, 0], [7, 7]]
    assert s.blocked.sum() == 2 and s.blocked[0, 0] and s.blocked[7, 7]
    assert (s.to_play, s.turn) == (0, 0)
    assert GAME.to_move(s) == (0,)
    # from the corner of an empty 8x8 board a queen has 7 + 7 + 6 moves (7,7 is taken)
    assert len(GAME.legal_moves(s, 0)) == 20
    assert GAME.legal_moves(s, 1) == []
    knight = GAME.initial_state(isolation.default_map("knight"))
    assert knight.blocked.shape == (7, 7) and knight.pos.tolist() == [[0, 0], [6, 6]]
    assert sorted(GAME.legal_moves(knight, 0)) == [(1, 2), (2, 1)]
    free = GAME.initial_state(isolation.default_map("knight", free_placement=True))
    assert free.pos.tolist() == [[-1, -1], [-1, -1]] and len(GAME.legal_moves(free, 0)) == 49


@pytest.mark.parametrize("variant", ["queen", "knight"])
def test_legal_moves_match_brute_force_on_random_boards(variant):
    rng = np.random.default_rng(2)
    for _ in range(60):
        h, w = rng.integers(3, 9, size=2)
        blocked = rng.random((h, w)) < 0.3
        free = np.argwhere(~blocked)
        if len(free) < 2:
            continue
        a, b = rng.choice(len(free), size=2, replace=False)
        starts = (tuple(free[a]), tuple(free[b]))
        s = GAME.initial_state(GameMap("isolation", "r", blocked, starts, {"variant": variant}))
        want = brute_force_moves(s.blocked, starts[0], variant)
        assert set(GAME.legal_moves(s, 0)) == want
        assert isolation.has_move(s, 0) == bool(want)
        assert (GAME.outcome(s) is None) == bool(want)


def test_queen_cannot_pass_through_blocked_squares_or_the_other_piece():
    s = board("isolation 5 1 queen\n1.#.2\n")
    assert GAME.legal_moves(s, 0) == [(0, 1)]
    s = board("isolation 5 1 queen\n1.2..\n")
    assert GAME.legal_moves(s, 0) == [(0, 1)]
    with pytest.raises(IllegalMoveError, match=r"\[0, 3\]"):
        GAME.apply(s, {0: (0, 3)})


def test_the_square_left_is_blocked_and_apply_is_pure():
    s0 = GAME.initial_state(isolation.default_map())
    s1 = GAME.apply(s0, {0: (3, 3)})
    assert s1.pos.tolist() == [[3, 3], [7, 7]]
    assert s1.blocked[0, 0] and s1.blocked[3, 3] and s1.blocked.sum() == 3
    assert (s1.to_play, s1.turn) == (1, 1)
    assert s0.pos.tolist() == [[0, 0], [7, 7]] and s0.blocked.sum() == 2
    assert (0, 0) not in GAME.legal_moves(GAME.apply(s1, {1: (7, 0)}), 0)


def test_player_without_a_move_loses():
    # seat 0 boxed in at the corner; seat 1 free to move
    s = board("isolation 4 3 queen\n1#..\n##..\n...2\n")
    out = GAME.outcome(s)
    assert out is not None and (out.winner, out.reason, out.scores) == (1, "win", (0.0, 1.0))
    assert GAME.to_move(s) == () and "player 1 has no move" in out.detail
    # the same for seat 1, once seat 0 has moved
    s = board("isolation 4 3 queen\n1...\n..##\n..#2\n")
    assert GAME.outcome(s) is None
    s = GAME.apply(s, {0: (0, 1)})
    out = GAME.outcome(s)
    assert (out.winner, out.reason, out.scores) == (0, "win", (1.0, 0.0))


def test_none_loses():
    s = GAME.apply(GAME.initial_state(isolation.default_map()), {0: None})
    out = GAME.outcome(s)
    assert (out.winner, out.scores) == (1, (0.0, 1.0)) and GAME.to_move(s) == ()
    with pytest.raises(IllegalMoveError):
        GAME.apply(s, {1: (6, 6)})


def test_knight_moves():
    s = board("isolation 5 5 knight\n1....\n.....\n.#...\n.....\n....2\n")
    assert GAME.legal_moves(s, 0) == [(1, 2)]  # (2, 1) is blocked
    with pytest.raises(IllegalMoveError):
        GAME.apply(s, {0: (1, 1)})
    s = GAME.apply(s, {0: (1, 2)})
    assert sorted(GAME.legal_moves(s, 1)) == [(2, 3), (3, 2)]


def test_free_placement_then_knight_moves():
    game_map = read_map(REPO / "maps" / "isolation" / "knight7.txt")
    assert game_map.starts == ()
    s = GAME.initial_state(game_map)
    assert s.pos.tolist() == [[-1, -1], [-1, -1]] and s.variant == "knight"
    assert len(GAME.legal_moves(s, 0)) == 49
    s = GAME.apply(s, {0: (3, 3)})
    assert len(GAME.legal_moves(s, 1)) == 48 and (3, 3) not in GAME.legal_moves(s, 1)
    with pytest.raises(IllegalMoveError):
        GAME.apply(s, {1: (3, 3)})
    s = GAME.apply(s, {1: (0, 0)})
    assert s.pos.tolist() == [[3, 3], [0, 0]] and s.blocked.sum() == 2
    assert set(GAME.legal_moves(s, 0)) == brute_force_moves(s.blocked, (3, 3), "knight")
    assert len(GAME.legal_moves(s, 0)) == 8


def test_variant_parameter_overrides_the_map():
    s = GAME.initial_state(isolation.default_map(), {"variant": "knight"})
    assert s.variant == "knight" and sorted(GAME.legal_moves(s, 0)) == [(1, 2), (2, 1)]
    with pytest.raises(ValueError, match="variant"):
        GAME.initial_state(isolation.default_map(), {"variant": "rook"})
    with pytest.raises(ValueError, match="unknown isolation parameter"):
        GAME.initial_state(isolation.default_map(), {"size": 3})


def test_move_json_round_trip_and_errors():
    assert GAME.move_to_json((2, 5)) == [2, 5]
    assert GAME.move_from_json([2, 5]) == (2, 5)
    for bad in ("2,5", [1], [1, 2, 3], [1.0, 2], [True, 1], None, {"r": 1}):
        with pytest.raises(InvalidMoveError, match="isolation move"):
            GAME.move_from_json(bad)


def test_play_inplace_and_undo_restore_exactly():
    rng = np.random.default_rng(4)
    for path in ("queen8.txt", "knight7.txt", "cross9.txt"):
        s = GAME.initial_state(read_map(REPO / "maps" / "isolation" / path))
        snapshots, tokens = [], []
        while GAME.outcome(s) is None:
            snapshots.append(GAME.summary(s))
            move = GAME.random_move(s, s.to_play, rng)
            expected = GAME.apply(s, {s.to_play: move})
            tokens.append(isolation.play_inplace(s, move))
            assert GAME.summary(s) == GAME.summary(expected)
        assert s.turn >= 2
        while tokens:
            isolation.undo(s, tokens.pop())
            assert GAME.summary(s) == snapshots.pop()


def test_docstring_examples():
    import doctest

    result = doctest.testmod(isolation, raise_on_error=False, verbose=False)
    assert result.attempted >= 3 and result.failed == 0
