"""The small interface every game module implements, and the values it speaks in.

A game module (``atlas/sim/tron.py`` ...) exposes one object, ``GAME``, that satisfies
:class:`Game`.  States are small numpy-backed objects owned by the game module; they are
cheap to ``copy()`` and are never shared with a bot (a bot gets a copy).

Turns are uniform across games: :meth:`Game.to_move` names the seats that must answer
now (both at once for tron, one for the alternating games, every empire for outpost,
or only those that must choose an outpost to disband at a season), and
:meth:`Game.apply` takes one move per such seat.  A move of ``None`` means *the seat
gave no valid answer* (crash, timeout, garbage); what that costs is a rule of the game:
a tron cycle stays put and crashes, an isolation or connect5 player loses, an outpost
empire does not move that turn.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol, Sequence, runtime_checkable

from ..errors import IllegalMoveError
from ..maps import GameMap
from ..types import PlayerId

__all__ = ["GameInfo", "Outcome", "Game", "State", "REASONS", "begin_alternating_turn"]

#: Why a game ended, or why a seat lost; the words used in records and on the site.
REASONS = (
    "win",        # the rules gave a winner (five in a row, opponent has no move, ...)
    "draw",       # the rules gave a draw (collision, both crashed, full board)
    "crash",      # a tron cycle hit a wall or trail, or an external bot process died
    "timeout",    # no answer within the time limit
    "illegal",    # an answer that parsed but broke the rules
    "invalid",    # an answer that did not parse
    "turn-limit", # the game reached its last turn and was scored
)


@dataclass(frozen=True)
class GameInfo:
    """What a game is, stated as data (OpenSpiel style)."""

    name: str
    num_players: int
    simultaneous: bool
    default_params: Mapping[str, Any] = field(default_factory=dict)
    description: str = ""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    Attributes
    ----------
    winner : int or None
        The winning seat (0-based), or ``None`` for a draw or a game with no single winner.
    reason : str
        One of :data:`REASONS`.
    scores : tuple of float
        Points per seat for standings: 1 / 0.5 / 0 in two-player games; for outpost, the
        documented score of :mod:`atlas.sim.outpost.rules`.
    detail : str
        A sentence for people ("player 2 crashed into a wall at turn 31").
    """

    winner: int | None
    reason: str
    scores: tuple[float, ...]
    detail: str = ""


@runtime_checkable
class State(Protocol):
    """A game position.  Each game defines its own dataclass; all have these."""

    turn: int

    def copy(self) -> "State": ...


@runtime_checkable
class Game(Protocol):
    """The interface of a game module's ``GAME`` object."""

    info: GameInfo

    def initial_state(self, game_map: GameMap, params: Mapping[str, Any] | None = None,
                      ) -> Any:
        """The position before the first turn; ``params`` override ``info.default_params``."""

    def to_move(self, state: Any) -> tuple[PlayerId, ...]:
        """Seats that must give a move now (empty once the game is over)."""

    def legal_moves(self, state: Any, player: PlayerId) -> Sequence[Any]:
        """Every legal move of ``player`` now (for outpost: per-outpost steps, see module)."""

    def apply(self, state: Any, moves: Mapping[PlayerId, Any]) -> Any:
        """Return the next state; ``state`` is not modified.  ``None`` = no valid answer."""

    def outcome(self, state: Any) -> Outcome | None:
        """The outcome, or ``None`` while the game goes on."""

    def move_to_json(self, move: Any) -> Any:
        """A move as plain JSON data (for records and protocols)."""

    def move_from_json(self, data: Any) -> Any:
        """Inverse of :meth:`move_to_json`; raises ``InvalidMoveError`` on bad data."""

    def summary(self, state: Any) -> dict[str, Any]:
        """A JSON digest of a position, used to check that a record replays exactly."""

    def random_move(self, state: Any, player: PlayerId, rng: Any) -> Any:
        """A uniformly random legal move (``rng`` a ``numpy.random.Generator``)."""


def begin_alternating_turn(state: Any, moves: Mapping[PlayerId, Any], *, over: bool
                           ) -> tuple[Any, PlayerId, Any]:
    """The checks every alternating game's ``apply`` starts with.

    Returns ``(new, seat, move)``: a copy of ``state`` to play on, the seat to move and
    its move.  A ``None`` move (no valid answer) sets ``new.forfeit`` to that seat, and
    the caller returns ``new`` as it is.  Raises ``IllegalMoveError`` when the game is
    over or ``moves`` is not exactly the seat to move.
    """
    if over:
        raise IllegalMoveError(f"the game is over (turn {state.turn})")
    p = state.to_play
    if set(moves) != {p}:
        raise IllegalMoveError(f"seat {p} is to move, got moves for {sorted(moves)}")
    new = state.copy()
    move = moves[p]
    if move is None:
        new.forfeit = p
    return new, p, move
