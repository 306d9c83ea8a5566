"""Isolation: two pieces on a grid, each move blocks the square left behind.

Players alternate, seat 0 first.  A piece moves in one of two ways:

``variant="queen"``
    Like a chess queen: any distance along a row, column or diagonal.  It never moves
    through or onto a blocked square or the other piece.
``variant="knight"``
    Like a knight: the eight L-shaped jumps onto a free square.

The square a piece leaves becomes blocked.  A player who has no legal move on its turn
loses.  A move of ``None`` means no valid answer, and it also loses.

A free-placement board is a map without starts.  There each player's first move places
its piece on any free square.  The square is then occupied like any piece square.

The state contract of :class:`IsolationState`:

- ``blocked`` holds blocked squares, squares left behind and both current piece squares;
- ``pos`` is ``[[row, col], [row, col]]``, with ``[-1, -1]`` for a piece not yet placed.

A move is the destination ``(row, col)``.  In JSON it is ``[row, col]``.

References
----------
A. Quimby, "Isolation", CS 4701 (Columbia University) assignment 3 write-up.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ...errors import IllegalMoveError, InvalidMoveError
from ...maps import GameMap
from ...sim.base import AlternatingGame, ArrayState, GameInfo, Outcome, Param, Reason
from ...types import Cell, Grid, PlayerId

__all__ = [
    "VARIANTS",
    "QUEEN_DIRECTIONS",
    "KNIGHT_JUMPS",
    "UNPLACED",
    "IsolationState",
    "IsolationGame",
    "GAME",
    "default_map",
    "play_inplace",
    "undo",
    "has_move",
]

VARIANTS = ("queen", "knight")
QUEEN_DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
KNIGHT_JUMPS = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))
#: ``pos`` of a piece not yet placed (free placement).
UNPLACED = -1


@dataclass(eq=False)
class IsolationState(ArrayState):
    """An isolation position.

    Attributes
    ----------
    blocked : ndarray of bool, shape (H, W)
        Blocked squares, squares left behind and both current piece squares.
    pos : ndarray of int32, shape (2, 2)
        ``[row, col]`` of each piece, ``[-1, -1]`` if not yet placed.
    to_play : int
        The seat to move.
    turn : int
        Moves played (one per player turn).
    variant : str
        ``"queen"`` or ``"knight"``.
    forfeit : int
        The seat that gave no valid answer and so lost, or -1.
    """

    COPIED: ClassVar[tuple[str, ...]] = ("blocked", "pos")

    blocked: Grid
    pos: np.ndarray
    to_play: int = 0
    turn: int = 0
    variant: str = "queen"
    forfeit: int = -1

    def __repr__(self) -> str:
        return (
            f"IsolationState(turn={self.turn}, to_play={self.to_play}, "
            f"pos={self.pos.tolist()}, variant={self.variant!r})"
        )


def default_map(variant: str = "queen", *, free_placement: bool = False) -> GameMap:
    """The classic boards: 8x8 for queens, 7x7 for knights, no blocked squares.

    Seat 0 starts top-left and seat 1 bottom-right.  With ``free_placement``, there are
    no starts: each player's first move places its piece.
    """
    if variant not in VARIANTS:
        raise ValueError(f"variant should be 'queen' or 'knight', got {variant!r}")
    n = 8 if variant == "queen" else 7
    starts = () if free_placement else ((0, 0), (n - 1, n - 1))
    name = f"default-{variant}" + ("-free" if free_placement else "")
    return GameMap(
        "isolation", name, np.zeros((n, n), dtype=np.bool_), starts, {"variant": variant}
    )


def _legal(state: IsolationState, player: PlayerId) -> list[Cell]:
    blocked = state.blocked
    h, w = blocked.shape
    r, c = int(state.pos[player, 0]), int(state.pos[player, 1])
    if r == UNPLACED:
        rows, cols = np.nonzero(~blocked)
        return [(int(a), int(b)) for a, b in zip(rows, cols)]
    out: list[Cell] = []
    if state.variant == "knight":
        for dr, dc in KNIGHT_JUMPS:
            rr, cc = r + dr, c + dc
            if 0 <= rr < h and 0 <= cc < w and not blocked[rr, cc]:
                out.append((rr, cc))
        return out
    for dr, dc in QUEEN_DIRECTIONS:
        rr, cc = r + dr, c + dc
        while 0 <= rr < h and 0 <= cc < w and not blocked[rr, cc]:
            out.append((rr, cc))
            rr += dr
            cc += dc
    return sorted(out)


def has_move(state: IsolationState, player: PlayerId) -> bool:
    """Whether ``player`` has a legal move.

    Cost: O(1), because a queen needs only one free neighbour.
    """
    blocked = state.blocked
    h, w = blocked.shape
    r, c = int(state.pos[player, 0]), int(state.pos[player, 1])
    if r == UNPLACED:
        return not bool(blocked.all())
    steps = KNIGHT_JUMPS if state.variant == "knight" else QUEEN_DIRECTIONS
    for dr, dc in steps:
        rr, cc = r + dr, c + dc
        if 0 <= rr < h and 0 <= cc < w and not blocked[rr, cc]:
            return True
    return False


def _is_legal(state: IsolationState, player: PlayerId, move: Cell) -> bool:
    blocked = state.blocked
    h, w = blocked.shape
    tr, tc = move
    if not (0 <= tr < h and 0 <= tc < w) or blocked[tr, tc]:
        return False
    r, c = int(state.pos[player, 0]), int(state.pos[player, 1])
    if r == UNPLACED:
        return True
    dr, dc = tr - r, tc - c
    if state.variant == "knight":
        return (dr, dc) in KNIGHT_JUMPS
    if not (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
        return False
    n = max(abs(dr), abs(dc))
    sr, sc = (dr > 0) - (dr < 0), (dc > 0) - (dc < 0)
    return not any(blocked[r + sr * k, c + sc * k] for k in range(1, n))


def play_inplace(state: IsolationState, move: Cell) -> Cell:
    """Move the piece of ``state.to_play`` to ``move`` on ``state`` itself.

    Returns the square it came from, the token for :func:`undo`.  After a placement, that
    square is ``(-1, -1)``.  The move is not checked: search code passes moves from
    ``legal_moves``.  Cost: O(1).
    """
    p = state.to_play
    old = (int(state.pos[p, 0]), int(state.pos[p, 1]))
    state.blocked[move[0], move[1]] = True
    state.pos[p, 0], state.pos[p, 1] = move[0], move[1]
    state.to_play = 1 - p
    state.turn += 1
    return old


def undo(state: IsolationState, token: Cell) -> None:
    """Take back the last :func:`play_inplace`, whose return value is ``token``."""
    p = 1 - state.to_play
    r, c = int(state.pos[p, 0]), int(state.pos[p, 1])
    state.blocked[r, c] = False
    state.pos[p, 0], state.pos[p, 1] = token
    state.to_play = p
    state.turn -= 1


def _parse_move(move: Any) -> Cell:
    if (
        isinstance(move, (list, tuple))
        and len(move) == 2
        and all(
            isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))
            for v in move
        )
    ):
        return (int(move[0]), int(move[1]))
    raise InvalidMoveError(f"isolation move should be [row, col] (two ints), got {move!r}")


class IsolationGame(AlternatingGame[IsolationState]):
    r"""The ``GAME`` object of isolation (see :class:`atlas.sim.base.Game`).

    Examples
    --------
    >>> from atlas.maps import parse_map
    >>> s = GAME.initial_state(parse_map("isolation 3 1 queen\n1.2\n", game="isolation"))
    >>> GAME.legal_moves(s, 0)
    [(0, 1)]
    >>> s = GAME.apply(s, {0: (0, 1)})
    >>> GAME.outcome(s).detail
    'player 2 has no move at turn 1'
    """

    info = GameInfo(
        name="isolation",
        title="Isolation",
        num_players=2,
        simultaneous=False,
        params=(
            Param(
                "variant",
                str,
                None,
                "how the pieces move (default: as the map says)",
                choices=VARIANTS,
                nullable=True,
            ),
        ),
        protocol="jsonl",
        frame_ms=350,
        description="Move your piece like a queen (or a knight); the square you leave is "
        "blocked; a player without a move loses.",
    )

    def initial_state(
        self, game_map: GameMap, params: Mapping[str, Any] | None = None
    ) -> IsolationState:
        """Pieces on the map's starts, or unplaced on a free-placement board.

        ``params["variant"]`` overrides the map's variant.  ``None`` keeps it.
        """
        p = self.check_params(params)
        variant = p["variant"] or game_map.meta.get("variant", "queen")
        if variant not in VARIANTS:
            raise ValueError(f"variant should be 'queen' or 'knight', got {variant!r}")
        if game_map.game != "isolation" or len(game_map.starts) not in (0, 2):
            raise ValueError(f"not an isolation map: {game_map!r}")
        blocked = np.array(game_map.blocked, dtype=np.bool_, copy=True)
        pos = np.full((2, 2), UNPLACED, dtype=np.int32)
        for seat, (r, c) in enumerate(game_map.starts):
            pos[seat] = (r, c)
            blocked[r, c] = True
        return IsolationState(blocked, pos, 0, 0, variant)

    def to_move(self, state: IsolationState) -> tuple[PlayerId, ...]:
        if state.forfeit >= 0 or not has_move(state, state.to_play):
            return ()
        return (state.to_play,)

    def legal_moves(self, state: IsolationState, player: PlayerId) -> list[Cell]:
        """Destinations of ``player``'s piece, sorted.  Empty when it is not its turn."""
        if player != state.to_play or state.forfeit >= 0:
            return []
        return _legal(state, player)

    def apply(self, state: IsolationState, moves: Mapping[PlayerId, Any]) -> IsolationState:
        """The state after the seat to move plays ``moves[to_play]``.  ``None`` loses."""
        new, p, move = self.begin_turn(state, moves, over=not self.to_move(state))
        if move is None:
            return new
        cell = _parse_move(move)
        if not _is_legal(state, p, cell):
            raise IllegalMoveError(
                f"player {p + 1} cannot move to {list(cell)} at turn "
                f"{state.turn} ({state.variant} moves from "
                f"{state.pos[p].tolist()})"
            )
        play_inplace(new, cell)
        return new

    def outcome(self, state: IsolationState) -> Outcome | None:
        if state.forfeit >= 0:
            return self.forfeit_outcome(state)
        p = state.to_play
        if has_move(state, p):
            return None
        return Outcome(
            1 - p,
            Reason.WIN,
            self.win_scores(1 - p),
            f"player {p + 1} has no move at turn {state.turn}",
        )

    def move_to_json(self, move: Any) -> list[int]:
        return list(_parse_move(move))

    def move_from_json(self, data: Any) -> Cell:
        return _parse_move(data)

    def summary(self, state: IsolationState) -> dict[str, Any]:
        """Turn, seat to move, piece squares and a SHA-1 of the blocked grid."""
        digest = hashlib.sha1(np.packbits(state.blocked).tobytes()).hexdigest()
        return {
            "turn": state.turn,
            "to_play": state.to_play,
            "pos": state.pos.tolist(),
            "forfeit": state.forfeit,
            "blocked_count": int(state.blocked.sum()),
            "blocked_sha1": digest,
        }

    def summarize_map(self, game_map: GameMap) -> dict[str, Any]:
        """The grid's figures and the variant.

        Pieces jump, so there are no step-by-step measures.
        """
        from ...analysis.summary import grid_summary

        return {**grid_summary(game_map), "variant": str(game_map.meta.get("variant", "queen"))}

    def turn_json(self, state: IsolationState, player: PlayerId) -> dict[str, Any]:
        """``{"expect": "cell", "legal": [[row, col], ...]}``."""
        return {"expect": "cell", "legal": [list(m) for m in self.legal_moves(state, player)]}


GAME = IsolationGame()
