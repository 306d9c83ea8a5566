"""Tic-tac-toe on the maps of its own format (``toygame.format``: ``tictactoe N`` + rows).

Players alternate, seat 0 first, each marking a free cell; N in a row (across, down or
diagonal; three on the usual board) wins; a full board is a draw; a seat with no valid
answer loses.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from atlas.errors import IllegalMoveError, InvalidMoveError
from atlas.games.connect5.rules import is_winning_drop
from atlas.maps import GameMap
from atlas.sim.base import (
    GameBase,
    GameInfo,
    Outcome,
    Reason,
    begin_alternating_turn,
    win_scores,
)


@dataclass(eq=False)
class TicTacToeState:
    board: np.ndarray  # int8: 0 free, 1 seat 0, 2 seat 1, -1 blocked
    to_play: int = 0
    turn: int = 0
    forfeit: int = -1
    winner: int = -1
    inarow: int = 3

    def copy(self) -> TicTacToeState:
        return TicTacToeState(
            self.board.copy(), self.to_play, self.turn, self.forfeit, self.winner, self.inarow
        )


def _cell(move: Any) -> tuple[int, int]:
    if (
        isinstance(move, (list, tuple))
        and len(move) == 2
        and all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in move)
    ):
        return int(move[0]), int(move[1])
    raise InvalidMoveError(f"a tic-tac-toe move is [row, col], got {move!r}")


class TicTacToe(GameBase[TicTacToeState]):
    info = GameInfo(
        name="tictactoe",
        title="Tic-tac-toe",
        num_players=2,
        simultaneous=False,
        protocol="jsonl",
        frame_ms=500,
        description="Three in a row wins.",
    )

    def initial_state(
        self, game_map: GameMap, params: Mapping[str, Any] | None = None
    ) -> TicTacToeState:
        self.check_params(params)
        board = np.where(game_map.blocked, -1, 0).astype(np.int8)
        return TicTacToeState(board, inarow=int(game_map.meta.get("inarow", 3)))

    def over(self, state: TicTacToeState) -> bool:
        return state.forfeit >= 0 or state.winner >= 0 or not (state.board == 0).any()

    def to_move(self, state: TicTacToeState) -> tuple[int, ...]:
        return () if self.over(state) else (state.to_play,)

    def legal_moves(self, state: TicTacToeState, player: int) -> list[tuple[int, int]]:
        if self.over(state) or player != state.to_play:
            return []
        return [(int(r), int(c)) for r, c in np.argwhere(state.board == 0)]

    def apply(self, state: TicTacToeState, moves: Mapping[int, Any]) -> TicTacToeState:
        new, p, move = begin_alternating_turn(state, moves, over=self.over(state))
        if move is None:
            return new
        r, c = _cell(move)
        h, w = state.board.shape
        if not (0 <= r < h and 0 <= c < w) or state.board[r, c] != 0:
            raise IllegalMoveError(f"cell {[r, c]} is not free")
        new.board[r, c] = p + 1
        new.turn += 1
        new.to_play = 1 - p
        if is_winning_drop(new.board, r, c, state.inarow):  # connect5's line test serves
            new.winner = p
        return new

    def outcome(self, state: TicTacToeState) -> Outcome | None:
        if state.forfeit >= 0:
            return Outcome(1 - state.forfeit, Reason.INVALID, win_scores(1 - state.forfeit))
        if state.winner >= 0:
            return Outcome(
                state.winner,
                Reason.WIN,
                win_scores(state.winner),
                f"player {state.winner + 1} made {state.inarow} in a row",
            )
        if not (state.board == 0).any():
            return Outcome(None, Reason.DRAW, (0.5, 0.5), "the board is full")
        return None

    def move_to_json(self, move: Any) -> list[int]:
        return list(_cell(move))

    def move_from_json(self, data: Any) -> tuple[int, int]:
        return _cell(data)

    def summary(self, state: TicTacToeState) -> dict[str, Any]:
        return {
            "turn": state.turn,
            "winner": state.winner,
            "forfeit": state.forfeit,
            "board_sha1": hashlib.sha1(state.board.tobytes()).hexdigest(),
        }


GAME = TicTacToe()
