"""Connect5: drop discs into columns, and ``inarow`` in a line wins.

Players alternate, seat 0 first.  A move is a column index, 0-based.  The disc falls to
the lowest free square of that column.  The first player with ``inarow`` discs in a row,
a column or either diagonal wins.  ``inarow`` is 5 by default, and 4 is Connect Four.  A
full board without a line is a draw.  A move of ``None`` means no valid answer, and it
loses.

The state contract of :class:`Connect5State`:

- ``board`` is int8 ``[rows, cols]``, with :data:`EMPTY`, :data:`SEAT0_DISC` and
  :data:`SEAT1_DISC`;
- row 0 is the *top* row, so discs fall to the largest free row index;
- ``heights[c]`` counts the discs in column ``c``.

The default board is 9 columns by 6 rows.  The map gives the size and ``inarow``.  The
parameter ``inarow`` overrides the map's.

References
----------
B. Gauch, "Connect 5", CS 360 assignment write-up (2014).  Its columns are 0-indexed.  A
move is legal iff its column is not full.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ...errors import IllegalMoveError, InvalidMoveError, ParamError
from ...maps import GameMap
from ...sim.base import AlternatingGame, ArrayState, GameInfo, Outcome, Param, Reason
from ...types import PlayerId
from .format import inarow_of

__all__ = [
    "EMPTY",
    "SEAT0_DISC",
    "SEAT1_DISC",
    "DEFAULT_COLUMNS",
    "DEFAULT_ROWS",
    "DEFAULT_INAROW",
    "Connect5State",
    "Connect5Game",
    "GAME",
    "default_map",
    "play_inplace",
    "undo",
    "is_winning_drop",
]

EMPTY, SEAT0_DISC, SEAT1_DISC = 0, 1, 2
DEFAULT_COLUMNS, DEFAULT_ROWS, DEFAULT_INAROW = 9, 6, 5
#: The four line directions (d_row, d_col): vertical, horizontal, two diagonals.
_LINES = ((1, 0), (0, 1), (1, 1), (1, -1))


@dataclass(eq=False)
class Connect5State(ArrayState):
    """A connect5 position.

    Attributes
    ----------
    board : ndarray of int8, shape (rows, cols)
        0 empty, 1 a disc of seat 0, 2 a disc of seat 1.  Row 0 is the top row.
    heights : ndarray of int32, shape (cols,)
        Discs in each column.
    to_play : int
        The seat to move.
    turn : int
        Discs dropped.
    inarow : int
        Discs in a line needed to win.
    winner : int
        The seat that made a line, or -1.
    forfeit : int
        The seat that gave no valid answer and so lost, or -1.
    """

    COPIED: ClassVar[tuple[str, ...]] = ("board", "heights")

    board: np.ndarray
    heights: np.ndarray
    to_play: int = 0
    turn: int = 0
    inarow: int = DEFAULT_INAROW
    winner: int = -1
    forfeit: int = -1

    @property
    def full(self) -> bool:
        return self.turn >= self.board.size

    @property
    def over(self) -> bool:
        return self.winner >= 0 or self.forfeit >= 0 or self.full

    def __repr__(self) -> str:
        return (
            f"Connect5State(turn={self.turn}, to_play={self.to_play}, "
            f"inarow={self.inarow}, winner={self.winner})"
        )


def default_map() -> GameMap:
    """The assignment's board: 9 columns, 6 rows, five in a row."""
    return GameMap(
        "connect5",
        "default",
        np.zeros((DEFAULT_ROWS, DEFAULT_COLUMNS), dtype=np.bool_),
        (),
        {"inarow": DEFAULT_INAROW},
    )


def is_winning_drop(board: np.ndarray, row: int, col: int, inarow: int) -> bool:
    """Whether the disc at ``(row, col)`` lies on a line of ``inarow`` equal discs.

    Notes
    -----
    Counts equal discs both ways along each of the four directions.  Cost: O(inarow).
    """
    disc = board[row, col]
    rows, cols = board.shape
    for dr, dc in _LINES:
        n = 1
        for sign in (1, -1):
            r, c = row + sign * dr, col + sign * dc
            while 0 <= r < rows and 0 <= c < cols and board[r, c] == disc:
                n += 1
                r += sign * dr
                c += sign * dc
        if n >= inarow:
            return True
    return False


def play_inplace(state: Connect5State, col: int) -> None:
    """Drop a disc of ``state.to_play`` into ``col`` on ``state`` itself.

    The column must not be full, and this is not checked.  Undo with :func:`undo` and the
    same column.  Cost: O(inarow), for the win check.
    """
    rows = state.board.shape[0]
    row = rows - 1 - int(state.heights[col])
    p = state.to_play
    state.board[row, col] = SEAT0_DISC + p
    state.heights[col] += 1
    state.turn += 1
    state.to_play = 1 - p
    if is_winning_drop(state.board, row, col, state.inarow):
        state.winner = p


def undo(state: Connect5State, col: int) -> None:
    """Take back the disc last dropped into ``col`` by :func:`play_inplace`."""
    state.heights[col] -= 1
    row = state.board.shape[0] - 1 - int(state.heights[col])
    state.board[row, col] = EMPTY
    state.turn -= 1
    state.to_play = 1 - state.to_play
    state.winner = -1


def _parse_move(move: Any) -> int:
    if isinstance(move, (int, np.integer)) and not isinstance(move, (bool, np.bool_)):
        return int(move)
    raise InvalidMoveError(f"connect5 move should be a column index (int), got {move!r}")


class Connect5Game(AlternatingGame[Connect5State]):
    r"""The ``GAME`` object of connect5 (see :class:`atlas.sim.base.Game`).

    Examples
    --------
    >>> s = GAME.initial_state(default_map())
    >>> for col in [0, 8, 1, 8, 2, 8, 3, 8, 4]:
    ...     s = GAME.apply(s, {s.to_play: col})
    >>> GAME.outcome(s).detail
    'player 1 made 5 in a row at turn 9'
    >>> s.board[5].tolist()
    [1, 1, 1, 1, 1, 0, 0, 0, 2]
    """

    info = GameInfo(
        name="connect5",
        title="Connect 5",
        num_players=2,
        simultaneous=False,
        params=(
            Param(
                "inarow",
                int,
                None,
                "discs in a line that win (default: as the map says)",
                minimum=2,
                nullable=True,
            ),
        ),
        protocol="gtp",
        frame_ms=400,
        description="Drop discs into columns; the first line of five (or inarow) wins.",
    )

    def initial_state(
        self, game_map: GameMap, params: Mapping[str, Any] | None = None
    ) -> Connect5State:
        """An empty board of the map's size.  ``params["inarow"]`` overrides the map's."""
        p = self.check_params(params)
        if game_map.game != "connect5":
            raise ValueError(f"not a connect5 map: {game_map!r}")
        inarow = p["inarow"]
        if inarow is None:
            inarow = inarow_of(game_map, DEFAULT_INAROW)
        rows, cols = game_map.shape
        if not 2 <= inarow <= max(rows, cols):
            raise ParamError(
                f"connect5 parameter inarow should be from 2 to "
                f"{max(rows, cols)} on a {cols}x{rows} board, got {inarow}"
            )
        board = np.zeros((rows, cols), dtype=np.int8)
        heights = np.zeros(cols, dtype=np.int32)
        return Connect5State(board, heights, 0, 0, int(inarow))

    def to_move(self, state: Connect5State) -> tuple[PlayerId, ...]:
        return () if state.over else (state.to_play,)

    def legal_moves(self, state: Connect5State, player: PlayerId) -> list[int]:
        """The columns that are not full, while it is ``player``'s turn."""
        if state.over or player != state.to_play:
            return []
        rows = state.board.shape[0]
        return [int(c) for c in np.nonzero(state.heights < rows)[0]]

    def apply(self, state: Connect5State, moves: Mapping[PlayerId, Any]) -> Connect5State:
        """The state after the seat to move drops into ``moves[to_play]``.  ``None`` loses."""
        new, p, move = self.begin_turn(state, moves, over=state.over)
        if move is None:
            return new
        col = _parse_move(move)
        rows, cols = state.board.shape
        if not 0 <= col < cols:
            raise IllegalMoveError(f"column {col} is off the board (0..{cols - 1})")
        if state.heights[col] >= rows:
            raise IllegalMoveError(f"column {col} is full")
        play_inplace(new, col)
        return new

    def outcome(self, state: Connect5State) -> Outcome | None:
        if state.forfeit >= 0:
            return self.forfeit_outcome(state)
        if state.winner >= 0:
            w = state.winner
            return Outcome(
                w,
                Reason.WIN,
                self.win_scores(w),
                f"player {w + 1} made {state.inarow} in a row at turn {state.turn}",
            )
        if state.full:
            return Outcome(
                None, Reason.DRAW, (0.5, 0.5), f"the board is full after {state.turn} discs"
            )
        return None

    def move_to_json(self, move: Any) -> int:
        return _parse_move(move)

    def move_from_json(self, data: Any) -> int:
        return _parse_move(data)

    def summary(self, state: Connect5State) -> dict[str, Any]:
        """Turn, seat to move, the result flags and the board as strings of 0/1/2."""
        board = ["".join(str(int(v)) for v in row) for row in state.board]
        return {
            "turn": state.turn,
            "to_play": state.to_play,
            "winner": state.winner,
            "forfeit": state.forfeit,
            "inarow": state.inarow,
            "board": board,
            "board_sha1": hashlib.sha1(state.board.tobytes()).hexdigest(),
        }

    def summarize_map(self, game_map: GameMap) -> dict[str, Any]:
        """The board's size and how many in a row win."""
        g = game_map
        return {
            "game": g.game,
            "name": g.name,
            "width": g.width,
            "height": g.height,
            "columns": g.width,
            "rows": g.height,
            "inarow": inarow_of(g, DEFAULT_INAROW),
            "cells": g.width * g.height,
        }


GAME = Connect5Game()
