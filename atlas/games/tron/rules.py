"""Tron light cycles (Google AI Challenge 2010): the rules, as specified and official.

Two cycles move at the same time, one step north, east, south or west each turn.  The
square a cycle leaves becomes wall.  A cycle that steps onto a wall, a trail or off the
map crashes.  The verdict:

- both cycles on one square: a draw;
- both crash: a draw;
- one crashes: the other wins.

A move of ``None`` means no valid answer in time.  It leaves the cycle where it is, and
the cycle crashes.

The parameter ``compat`` chooses one of two resolutions of a turn:

``"spec"``
    The default.  The older word ``"fair"`` is still read.  Moves are simultaneous, as
    the documented rules say.  The squares both cycles leave become walls before either
    arrives.  So:

    - entering the square the opponent is leaving crashes, for either seat;
    - a swap is a draw, because both crash;
    - both stepping onto the same free square is a draw (a collision).
``"official"``
    The 2010 engine's sequential order, reproduced exactly.  Player 1 (seat 0) marks its
    square as wall and moves, then player 2 does.  Both start squares are walls from the
    start.  Afterwards a head is not a wall until its owner moves off it.  So:

    - on turn 1, stepping onto the other's start crashes;
    - from turn 2 on, seat 0 may follow seat 1's tail, but not the reverse;
    - a swap is won by seat 0;
    - a seat that stays put with no answer, and is stepped on, gives a collision.

    The verdict is checked in this order: collided, both crashed, seat 0 crashed, seat 1
    crashed.

The state contract of :class:`TronState`:

- ``blocked`` holds walls, trails *and* both current head squares;
- ``heads`` is ``[[row, col], [row, col]]``;
- ``turn`` counts turns played.

Moves are the ints 1..4 of the official protocol:

- 1 is north (row - 1);
- 2 is east (col + 1);
- 3 is south (row + 1);
- 4 is west (col - 1).

Every direction is legal.  A bad one crashes.

References
----------
The Google AI Challenge 2010 (Tron) engine, ``Tron.jar``.  What it does is documented in
``tests/data/tron-official.md``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ...errors import IllegalMoveError, InvalidMoveError
from ...maps import GameMap
from ...sim.base import SPEC, ArrayState, GameBase, GameInfo, Outcome, Param, Reason
from ...types import Grid, PlayerId

__all__ = [
    "NORTH",
    "EAST",
    "SOUTH",
    "WEST",
    "DIRECTIONS",
    "DELTAS",
    "COMPATS",
    "DEFAULT_MAX_TURNS",
    "TronState",
    "TronGame",
    "GAME",
    "play_inplace",
    "undo",
    "safe_moves",
    "follows",
]

NORTH, EAST, SOUTH, WEST = 1, 2, 3, 4
DIRECTIONS = (NORTH, EAST, SOUTH, WEST)
#: ``DELTAS[move]`` is the ``(d_row, d_col)`` of a move; row 0 is unused.
DELTAS = np.array([[0, 0], [-1, 0], [0, 1], [1, 0], [0, -1]], dtype=np.int32)
_STEPS = tuple((int(dr), int(dc)) for dr, dc in DELTAS)  # the same, for Python loops
COMPATS = (SPEC, "official")
#: Older words of ``compat`` still read: ``"fair"`` was tron's name for :data:`SPEC`.
COMPAT_ALIASES = {"fair": SPEC}
#: A safety net only: every turn blocks at least one free square, so games end sooner.
DEFAULT_MAX_TURNS = 1_000_000

#: Why a cycle crashed (``TronState.causes``).
_CAUSE_TEXT = {
    "edge": "ran off the map",
    "wall": "crashed into a wall or trail",
    "none": "gave no valid move",
    "collision": "collided with the other cycle",
}


@dataclass(eq=False)
class TronState(ArrayState):
    """A tron position.

    Attributes
    ----------
    blocked : ndarray of bool, shape (H, W)
        Walls, trails and both current head squares.
    heads : ndarray of int32, shape (2, 2)
        ``[row, col]`` of each seat's cycle.  A crashed cycle keeps its last square.
        Colliding cycles share the square they met on.
    turn : int
        Turns played.
    crashed : tuple of bool
        Per seat, whether the cycle crashed.  A collision sets both.
    compat : str
        ``"spec"`` or ``"official"``.
    max_turns : int
        Once ``turn`` reaches it, the game is a draw, by "turn-limit".
    collided : bool
        Both cycles ended on one square.
    causes : tuple of str
        Per seat, why it crashed: ``""``, ``"edge"``, ``"wall"``, ``"none"`` or
        ``"collision"``.
    """

    COPIED: ClassVar[tuple[str, ...]] = ("blocked", "heads")

    blocked: Grid
    heads: np.ndarray
    turn: int = 0
    crashed: tuple[bool, bool] = (False, False)
    compat: str = SPEC
    max_turns: int = DEFAULT_MAX_TURNS
    collided: bool = False
    causes: tuple[str, str] = ("", "")

    @property
    def over(self) -> bool:
        return self.crashed[0] or self.crashed[1] or self.turn >= self.max_turns

    def __repr__(self) -> str:
        h = self.heads.tolist()
        return (
            f"TronState(turn={self.turn}, heads={h}, crashed={self.crashed}, "
            f"compat={self.compat!r})"
        )


def _check_move(move: Any) -> int | None:
    if move is None:
        return None
    if isinstance(move, (bool, np.bool_)) or not isinstance(move, (int, np.integer)):
        raise InvalidMoveError(f"tron move should be an int 1..4, got {move!r}")
    m = int(move)
    if not 1 <= m <= 4:
        raise InvalidMoveError(
            f"tron move should be 1 (north), 2 (east), 3 (south) or 4 (west), got {m}"
        )
    return m


def follows(state: Any) -> bool:
    """Whether, on this turn of ``state``, seat 1 may step onto the square seat 2 is
    leaving: under ``compat="official"`` after the first turn, when a head is not a wall
    until its owner moves off it (on the first turn both start squares are walls).

    >>> from atlas.maps import parse_map
    >>> m = parse_map("3 2\\n1 2\\n   \\n", game="tron")
    >>> s = GAME.initial_state(m, {"compat": "official"})
    >>> follows(s), follows(GAME.apply(s, {0: 3, 1: 3}))
    (False, True)
    """
    return getattr(state, "compat", SPEC) == "official" and int(getattr(state, "turn", 0)) >= 1


def _in_bounds(blocked: Grid, r: int, c: int) -> bool:
    return bool(0 <= r < blocked.shape[0] and 0 <= c < blocked.shape[1])


def _resolve(
    state: TronState, m0: int | None, m1: int | None
) -> tuple[list[list[int]], list[bool], list[str], bool]:
    """Resolve one turn: new heads, crashed flags, causes, collided (no mutation)."""
    blocked = state.blocked
    heads = [
        [int(state.heads[0, 0]), int(state.heads[0, 1])],
        [int(state.heads[1, 0]), int(state.heads[1, 1])],
    ]
    moves = (m0, m1)
    targets: list[tuple[int, int] | None] = []
    for s in (0, 1):
        m = moves[s]
        if m is None:
            targets.append(None)
        else:
            targets.append((heads[s][0] + _STEPS[m][0], heads[s][1] + _STEPS[m][1]))
    crashed = [False, False]
    causes = ["", ""]
    if state.compat != "official":
        for s in (0, 1):
            t = targets[s]
            if t is None:
                crashed[s], causes[s] = True, "none"
            elif not _in_bounds(blocked, *t):
                crashed[s], causes[s] = True, "edge"
            elif blocked[t]:
                crashed[s], causes[s] = True, "wall"
        collided = (
            targets[0] is not None
            and targets[0] == targets[1]
            and not crashed[0]
            and not crashed[1]
        )
        new_heads = [
            list(t) if (t is not None and not crashed[s]) else heads[s]
            for s, t in enumerate(targets)
        ]
    else:
        # Engine view: all of ``blocked`` is wall, except that after turn 1 the heads
        # are not walls until their owners move off them.
        lifted: list[tuple[int, int]] = []
        if follows(state):
            lifted = [(heads[0][0], heads[0][1]), (heads[1][0], heads[1][1])]
        walls_added: set[tuple[int, int]] = set()

        def is_wall(cell: tuple[int, int]) -> bool:
            if cell in walls_added:
                return True
            if cell in lifted:
                return False
            return bool(blocked[cell])

        pos: list[tuple[int, int]] = []
        for s in (0, 1):
            walls_added.add((heads[s][0], heads[s][1]))
            t = targets[s]
            if t is None:
                crashed[s], causes[s] = True, "none"
                pos.append((heads[s][0], heads[s][1]))
            else:
                pos.append(t)
                if not _in_bounds(blocked, *t):
                    crashed[s], causes[s] = True, "edge"
                elif is_wall(t):
                    crashed[s], causes[s] = True, "wall"
        collided = pos[0] == pos[1]
        new_heads = [list(pos[s]) if not crashed[s] else heads[s] for s in (0, 1)]
        if collided:
            new_heads = [list(pos[0]), list(pos[0])]
    if collided:
        crashed = [True, True]
        causes = [c or "collision" for c in causes]
        if state.compat != "official":
            new_heads = [list(targets[0]), list(targets[0])]  # type: ignore[arg-type]
    return new_heads, crashed, causes, collided


def play_inplace(state: TronState, m0: int | None, m1: int | None) -> tuple[Any, ...]:
    """Apply one turn to ``state`` itself and return a token for :func:`undo`.

    For search code working on its own copy.  Moves are not validated beyond their
    range.  Cost: O(1).
    """
    new_heads, crashed, causes, collided = _resolve(state, m0, m1)
    token = (
        state.heads.copy(),
        state.turn,
        state.crashed,
        state.collided,
        state.causes,
        [bool(state.blocked[r, c]) for r, c in new_heads],
        new_heads,
    )
    for r, c in new_heads:
        state.blocked[r, c] = True
    state.heads[:, :] = new_heads
    state.turn += 1
    state.crashed = (crashed[0], crashed[1])
    state.causes = (causes[0], causes[1])
    state.collided = collided
    return token


def undo(state: TronState, token: tuple[Any, ...]) -> None:
    """Take back the turn that :func:`play_inplace` returned ``token`` for."""
    heads, turn, crashed, collided, causes, was_blocked, new_heads = token
    for (r, c), was in reversed(list(zip(new_heads, was_blocked))):
        state.blocked[r, c] = was
    state.heads[:, :] = heads
    state.turn, state.crashed, state.collided, state.causes = turn, crashed, collided, causes


def safe_moves(state: TronState, player: PlayerId) -> list[int]:
    """The directions of ``player`` that do not step onto a blocked square or off the map.

    Ignores what the opponent does this turn, so a head-on collision is still possible.
    """
    r, c = int(state.heads[player, 0]), int(state.heads[player, 1])
    out = []
    blocked = state.blocked
    h, w = blocked.shape
    for m in DIRECTIONS:
        rr, cc = r + _STEPS[m][0], c + _STEPS[m][1]
        if 0 <= rr < h and 0 <= cc < w and not blocked[rr, cc]:
            out.append(m)
    return out


class TronGame(GameBase[TronState]):
    r"""The ``GAME`` object of tron (see :class:`atlas.sim.base.Game`).

    Examples
    --------
    >>> from atlas.maps import parse_map
    >>> s = GAME.initial_state(parse_map("3 2\n1 2\n   \n", game="tron"))
    >>> GAME.outcome(GAME.apply(s, {0: EAST, 1: WEST})).detail
    'the cycles collided at turn 1'
    >>> s = GAME.apply(s, {0: SOUTH, 1: SOUTH})
    >>> GAME.apply(s, {0: EAST, 1: WEST}).crashed   # a swap: both crash (spec)
    (True, True)
    """

    info = GameInfo(
        name="tron",
        title="Tron",
        num_players=2,
        simultaneous=True,
        params=(
            Param(
                "compat",
                str,
                SPEC,
                "spec: simultaneous moves; official: the 2010 engine's sequential resolution",
                choices=COMPATS,
                aliases=COMPAT_ALIASES,
            ),
            Param(
                "max_turns",
                int,
                DEFAULT_MAX_TURNS,
                "a safety net: the game is a draw after this many turns",
                minimum=1,
            ),
        ),
        protocol="tron",
        frame_ms=120,
        description="Light cycles: move N/E/S/W each turn, the trail becomes wall; "
        "the last cycle moving wins.",
    )

    def initial_state(
        self, game_map: GameMap, params: Mapping[str, Any] | None = None
    ) -> TronState:
        """Both cycles on their starts, which are blocked."""
        p = self.check_params(params)
        if game_map.game != "tron" or len(game_map.starts) != 2:
            raise ValueError(f"not a tron map with two starts: {game_map!r}")
        blocked = np.array(game_map.blocked, dtype=np.bool_, copy=True)
        heads = np.array(game_map.starts, dtype=np.int32).reshape(2, 2)
        for r, c in game_map.starts:
            blocked[r, c] = True
        return TronState(blocked, heads, 0, (False, False), p["compat"], p["max_turns"])

    def to_move(self, state: TronState) -> tuple[PlayerId, ...]:
        return () if state.over else (0, 1)

    def legal_moves(self, state: TronState, player: PlayerId) -> tuple[int, ...]:
        """All four directions while the game goes on.  A bad one crashes."""
        return () if state.over else DIRECTIONS

    def apply(self, state: TronState, moves: Mapping[PlayerId, Any]) -> TronState:
        """The state after both seats' moves.  A missing seat counts as ``None``."""
        if state.over:
            raise IllegalMoveError(f"the game is over (turn {state.turn})")
        extra = set(moves) - {0, 1}
        if extra:
            raise IllegalMoveError(f"tron has seats 0 and 1, got moves for {sorted(extra)}")
        new = state.copy()
        play_inplace(new, _check_move(moves.get(0)), _check_move(moves.get(1)))
        return new

    def outcome(self, state: TronState) -> Outcome | None:
        c0, c1 = state.crashed
        t = state.turn
        if state.collided:
            return Outcome(None, Reason.DRAW, (0.5, 0.5), f"the cycles collided at turn {t}")
        if c0 and c1:
            return Outcome(
                None,
                Reason.DRAW,
                (0.5, 0.5),
                f"both cycles crashed at turn {t} (player 1 "
                f"{_CAUSE_TEXT[state.causes[0]]}, player 2 "
                f"{_CAUSE_TEXT[state.causes[1]]})",
            )
        if c0 or c1:
            loser = 0 if c0 else 1
            scores = (0.0, 1.0) if c0 else (1.0, 0.0)
            return Outcome(
                1 - loser,
                Reason.CRASH,
                scores,
                f"player {loser + 1} {_CAUSE_TEXT[state.causes[loser]]} at turn {t}",
            )
        if t >= state.max_turns:
            return Outcome(None, Reason.TURN_LIMIT, (0.5, 0.5), f"turn limit {t} reached")
        return None

    def move_to_json(self, move: Any) -> int:
        m = _check_move(move)
        if m is None:
            raise InvalidMoveError("None is not a move (records write it as null)")
        return m

    def move_from_json(self, data: Any) -> int:
        m = _check_move(data)
        if m is None:
            raise InvalidMoveError("tron move should be an int 1..4, got None")
        return m

    def summary(self, state: TronState) -> dict[str, Any]:
        """Turn, heads, crash flags and a SHA-1 of the blocked grid."""
        digest = hashlib.sha1(np.packbits(state.blocked).tobytes()).hexdigest()
        return {
            "turn": state.turn,
            "heads": state.heads.tolist(),
            "crashed": list(state.crashed),
            "collided": state.collided,
            "blocked_count": int(state.blocked.sum()),
            "blocked_sha1": digest,
        }

    def summarize_map(self, game_map: GameMap) -> dict[str, Any]:
        """The grid's figures.

        With two starts, also the Voronoi counts, chamber trees and parity bounds of
        :func:`atlas.analysis.summary.duel_summary`.
        """
        from ...analysis.summary import duel_summary, grid_summary

        out = grid_summary(game_map)
        if len(game_map.starts) == 2:
            out.update(duel_summary(game_map.free, *game_map.starts))
        return out

    def fairness_facts(self, game_map: GameMap) -> list[dict[str, Any]]:
        """Three facts at the start, with the other start as a wall.

        - The Voronoi balance: the free cells each cycle reaches strictly first.
        - Each seat's chamber bound: the cells its chamber tree lets it fill.
        - Each seat's parity bound: the moves the chessboard colouring allows.

        :func:`atlas.analysis.summary.duel_summary` computes them.  None without two
        starts.
        """
        from ...analysis.summary import duel_summary

        if len(game_map.starts) != 2:
            return []
        d = duel_summary(game_map.free, *game_map.starts)
        v, ch, par = d["voronoi"], d["chambers"], d["parity_bound"]
        lead = int(v["p1"]) - int(v["p2"])
        balance = "even" if lead == 0 else f"seat {1 if lead > 0 else 2} +{abs(lead)}"
        return [
            {
                "key": "voronoi",
                "label": "Voronoi cells",
                "seats": [int(v["p1"]), int(v["p2"])],
                "note": f"cells nearer one start, {int(v['tie'])} as near to both; {balance}",
            },
            {
                "key": "chambers",
                "label": "chamber bound",
                "seats": [int(ch["p1"]["fillable"]), int(ch["p2"]["fillable"])],
                "note": "moves in its Voronoi region, by its tree of chambers",
            },
            {
                "key": "parity",
                "label": "parity bound",
                "seats": [int(par["p1"]), int(par["p2"])],
                "note": "moves alone in its region, by the chessboard colouring",
            },
        ]

    def random_move(self, state: TronState, player: PlayerId, rng: np.random.Generator) -> int:
        """A uniformly random safe direction (:func:`safe_moves`), else any direction."""
        options = safe_moves(state, player) or list(DIRECTIONS)
        return options[int(rng.integers(len(options)))]


GAME = TronGame()
