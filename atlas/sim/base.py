"""The small interface every game module implements, and the values it speaks in.

A game module, such as ``atlas/games/tron/rules.py``, exposes one object, ``GAME``, that
satisfies :class:`Game`.  Its :class:`GameInfo` states the game's facts as data:

- the title and the seats;
- the parameters, with their types and defaults;
- the score bounds;
- the replay timing;
- the protocol an external bot speaks.

:class:`GameBase` gives a game the parts that are the same for most games:

- parameter checks;
- a random move;
- the JSON view of a state, for the JSON-lines protocol;
- a map summary.

A game overrides what differs.  States are small numpy-backed objects owned by the game
module.  They are cheap to ``copy()``.  They are never shared with a bot: a bot gets a
copy.

Turns are uniform across games.  :meth:`Game.to_move` names the seats that must answer
now:

- both at once for tron;
- one for the alternating games;
- every empire for outpost, or only those that must choose an outpost to disband at a
  season.

:meth:`Game.apply` takes one move per such seat.  A move of ``None`` means *the seat gave
no valid answer*: a crash, a timeout, garbage.  What that costs is a rule of the game:

- a tron cycle stays put and crashes;
- an isolation or connect5 player loses;
- an outpost empire does not move that turn.
"""

from __future__ import annotations

import abc
import dataclasses
import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar, runtime_checkable

import numpy as np

from ..errors import IllegalMoveError, InvalidMoveError, ParamError, choices_text
from ..limits import LimitError, check_depth
from ..maps import GameMap
from ..types import PlayerId

__all__ = [
    "Reason",
    "Status",
    "REASONS",
    "STATUSES",
    "SPEC",
    "reason_of",
    "status_of",
    "Param",
    "GameInfo",
    "Outcome",
    "Game",
    "GameBase",
    "ArrayState",
    "State",
    "AlternatingState",
    "begin_alternating_turn",
    "AlternatingGame",
    "win_scores",
]


class Reason(str, enum.Enum):
    """Why a game ended, or why a seat lost.  Records and the site use these words."""

    WIN = "win"  # the rules gave a winner: five in a row, no move left, ...
    DRAW = "draw"  # the rules gave a draw: collision, both crashed, full board
    CRASH = "crash"  # a tron cycle hit a wall or trail, or a bot process died
    TIMEOUT = "timeout"  # no answer within the time limit
    ILLEGAL = "illegal"  # an answer that parsed but broke the rules
    INVALID = "invalid"  # an answer that did not parse
    TURN_LIMIT = "turn-limit"  # the game reached its last turn and was scored

    def __str__(self) -> str:
        return self.value


class Status(str, enum.Enum):
    """How a seat fared: it played to the end, or how it failed."""

    OK = "ok"
    CRASHED = "crashed"
    TIMEOUT = "timeout"
    ILLEGAL = "illegal"
    INVALID = "invalid"

    def __str__(self) -> str:
        return self.value

    @property
    def reason(self) -> Reason:
        """The reason a two-seat game gives when a seat with this status loses it."""
        return _REASON_OF_STATUS[self]

    @property
    def words(self) -> str:
        """The status as a verb phrase: ``player 2 timed out``."""
        return _STATUS_WORDS[self]


_REASON_OF_STATUS = {
    Status.OK: Reason.WIN,
    Status.CRASHED: Reason.CRASH,
    Status.TIMEOUT: Reason.TIMEOUT,
    Status.INVALID: Reason.INVALID,
    Status.ILLEGAL: Reason.ILLEGAL,
}
_STATUS_WORDS = {
    Status.OK: "played to the end",
    Status.CRASHED: "crashed",
    Status.TIMEOUT: "timed out",
    Status.INVALID: "gave an invalid answer",
    Status.ILLEGAL: "played an illegal move",
}

#: The words of :class:`Reason` and :class:`Status`, as records hold them.
REASONS = tuple(r.value for r in Reason)
STATUSES = tuple(s.value for s in Status)

#: The one word every game uses for its documented rules.  It is the default of a
#: ``compat`` parameter.  The other words, such as ``"official"``, name an original
#: engine's behaviour.
SPEC = "spec"


@dataclass(frozen=True)
class Param:
    """One game parameter: its name, type, default and the values it may take.

    - ``kind`` is ``int`` or ``str``.
    - ``choices`` limits a ``str`` to a few words.
    - ``minimum`` bounds an ``int`` from below.
    - ``nullable`` lets ``None`` stand for "what the map says".  Isolation's variant and
      connect5's in-a-row are such parameters.
    - ``aliases`` maps older words still read to the word they mean now.  Tron's
      ``"fair"`` is :data:`SPEC`.
    """

    name: str
    kind: type
    default: Any
    help: str = ""
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    nullable: bool = False
    aliases: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "aliases", MappingProxyType(dict(self.aliases)))

    def canonical(self, value: Any) -> Any:
        """``value``, or the word it is an alias of."""
        if isinstance(value, str):
            return self.aliases.get(value, value)
        return value

    def check(self, game: str, value: Any) -> Any:
        """``value`` if it is valid for this parameter, else :class:`ParamError`.

        An alias becomes the word it stands for.
        """
        value = self.canonical(value)
        if value is None and self.nullable:
            return None
        what = f"{game} parameter {self.name}"
        if self.kind is int:
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
                raise ParamError(f"{what} should be a whole number, got {_shown(value)}")
            value = int(value)
            if self.minimum is not None and value < self.minimum:
                raise ParamError(f"{what} should be at least {self.minimum}, got {value}")
            return value
        if not isinstance(value, str):
            raise ParamError(f"{what} should be a word, got {_shown(value)}")
        if self.choices and value not in self.choices:
            raise ParamError(f"{what} should be {choices_text(self.choices)}, got {value!r}")
        return value


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass(frozen=True)
class GameInfo:
    """What a game is, stated as data, in the OpenSpiel style.

    It is the one registry of per-game facts.  The arena, the protocols and the site read
    it.

    Attributes
    ----------
    name : str
        The game's name in maps, records and commands.
    title : str
        The name people read on the site.
    num_players : int
        Seats.
    simultaneous : bool
        Every seat answers each turn, rather than one at a time.  Tron and outpost do.
    params : tuple of Param
        The game's parameters, their types and defaults.
    score_range : (float, float)
        Bounds of a seat's score in :attr:`Outcome.scores`.
    protocol : str
        The protocol of an external bot: ``"tron"``, ``"gtp"`` or ``"jsonl"``.
        ``"tron"`` is the 2010 contest's.  ``docs/protocols.md`` describes them.
    frame_ms : int
        Milliseconds a replay shows each turn.
    max_frames : int or None
        A GIF replay draws at most this many turns, evenly spaced.  ``None`` draws every
        turn.
    quick_params : mapping
        Parameters of a quick game, for ``atlas check``.  A short Outpost game, say.
    description : str
        One sentence for people.
    """

    name: str
    title: str
    num_players: int
    simultaneous: bool
    params: tuple[Param, ...] = ()
    score_range: tuple[float, float] = (0.0, 1.0)
    protocol: str = "jsonl"
    frame_ms: int = 300
    max_frames: int | None = None
    quick_params: Mapping[str, Any] = field(default_factory=dict)
    description: str = ""

    @property
    def default_params(self) -> dict[str, Any]:
        """Every parameter with its default."""
        return {p.name: p.default for p in self.params}

    def param(self, name: str) -> Param | None:
        """The parameter called ``name``, or ``None``."""
        return next((p for p in self.params if p.name == name), None)

    def canonical_params(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """``params`` with every alias replaced by the word it stands for.

        Nothing else is changed or checked.  A record's parameters are read through this.


        >>> info = GameInfo("demo", "Demo", 2, False,
        ...                 (Param("compat", str, "spec", aliases={"fair": "spec"}),))
        >>> info.canonical_params({"compat": "fair", "other": 1})
        {'compat': 'spec', 'other': 1}
        """
        out = dict(params)
        for p in self.params:
            if p.name in out:
                out[p.name] = p.canonical(out[p.name])
        return out

    def check_params(self, params: Mapping[str, Any] | None) -> dict[str, Any]:
        """``params`` over the defaults, each checked.  :class:`ParamError` otherwise.

        >>> info = GameInfo("demo", "Demo", 2, False, (Param("depth", int, 3, minimum=1),))
        >>> info.check_params({"depth": 5})
        {'depth': 5}
        >>> info.check_params({"width": 5})
        Traceback (most recent call last):
        ...
        atlas.errors.ParamError: unknown demo parameter 'width'; expected depth
        """
        given = dict(params or {})
        for key, value in given.items():  # before a value is shown or copied
            try:
                check_depth(value, f"{self.name} parameter {str(key)[:40]!r}")
            except LimitError as exc:
                raise ParamError(str(exc)) from None
        unknown = sorted(set(given) - {p.name for p in self.params})
        if unknown:
            names = [p.name for p in self.params]
            expected = (
                f"expected {', '.join(names)}" if names else f"{self.name} has no parameters"
            )
            many = "s" if len(unknown) > 1 else ""
            raise ParamError(
                f"unknown {self.name} parameter{many} "
                f"{', '.join(repr(u) for u in unknown)}; {expected}"
            )
        return {p.name: p.check(self.name, given.get(p.name, p.default)) for p in self.params}


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    Attributes
    ----------
    winner : int or None
        The winning seat, 0-based.  ``None`` for a draw or a game with no single winner.
    reason : Reason
        Why the game ended.  A game may give the word, such as ``"win"``.  It becomes
        the :class:`Reason` here.  An unknown word is a ``ValueError``.
    scores : tuple of float
        Points per seat for standings.  In two-player games they are 1, 0.5 or 0.  For
        outpost, they are the documented score of :mod:`atlas.games.outpost.rules`.
    detail : str
        A sentence for people, such as "player 2 crashed into a wall at turn 31".
    """

    winner: int | None
    reason: Reason
    scores: tuple[float, ...]
    detail: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "reason", reason_of(self.reason))


_E = TypeVar("_E", bound=enum.Enum)


def _word_of(kind: type[_E], what: str, word: _E | str) -> _E:
    """The member of ``kind`` for ``word``.  Else a ``ValueError`` naming the known words."""
    if type(word) is kind:  # a member already (the common case: cheap, without kind())
        return word
    if type(word) is str:  # a word of a record: looked up as kind() would, faster
        member = kind._value2member_map_.get(word)
        if member is not None:
            return member  # type: ignore[return-value]
    try:
        return kind(word)
    except ValueError:
        known = ", ".join(str(member.value) for member in kind)
        raise ValueError(f"unknown {what} {word!r}; expected one of {known}") from None


def reason_of(word: Reason | str) -> Reason:
    """The :class:`Reason` of ``word``.  If none, a ``ValueError`` naming the known words."""
    return _word_of(Reason, "reason", word)


def status_of(word: Status | str) -> Status:
    """The :class:`Status` of ``word``.  If none, a ``ValueError`` naming the known words."""
    return _word_of(Status, "status", word)


class ArrayState:
    """A dataclass game state's :meth:`copy`.

    The arrays named in :attr:`COPIED` are copied.  Every other field is shared: numbers,
    strings, tuples and read-only arrays.

    The copy calls the dataclass's own constructor with the fields read as attributes.
    That code is written once per class, on its first copy, as :mod:`dataclasses` writes
    ``__init__``.  The reason: an instance whose ``__dict__`` was touched or assigned
    loses Python's fast attribute access, and every ``apply`` copies its state.
    """

    #: The attributes holding arrays a move may change.  Each state names its own.
    COPIED: ClassVar[tuple[str, ...]] = ()

    def copy(self) -> Self:
        """An independent copy: the :attr:`COPIED` arrays copied, the rest shared."""
        cls = type(self)
        setattr(cls, "copy", _state_copier(cls))  # noqa: B010  (a method, not a field)
        return self.copy()


def _state_copier(cls: type) -> Any:
    """``copy(self)`` for the dataclass ``cls``.

    It calls the constructor with the fields, the :attr:`ArrayState.COPIED` ones copied.
    """
    fields = dataclasses.fields(cls)
    if any(not f.init for f in fields):
        raise TypeError(f"{cls.__name__}: ArrayState needs every field in __init__")
    copied = set(cls.COPIED)  # type: ignore[attr-defined]
    unknown = copied - {f.name for f in fields}
    if unknown:
        raise TypeError(f"{cls.__name__}.COPIED names no field: {sorted(unknown)}")

    def value(name: str) -> str:
        return f"self.{name}.copy()" if name in copied else f"self.{name}"

    args = [value(f.name) for f in fields if not f.kw_only]
    args += [f"{f.name}={value(f.name)}" for f in fields if f.kw_only]
    source = (
        "def copy(self):\n"
        "    if type(self) is not cls:\n"  # a subclass gets its own on its first copy
        "        return base_copy(self)\n"
        f"    return cls({', '.join(args)})\n"
    )
    namespace: dict[str, Any] = {"cls": cls, "base_copy": ArrayState.copy}
    exec(source, namespace)  # generated from the field names, as dataclasses does
    copier = namespace["copy"]
    copier.__qualname__ = f"{cls.__qualname__}.copy"
    copier.__doc__ = ArrayState.copy.__doc__
    return copier


@runtime_checkable
class State(Protocol):
    """A game position.  Each game defines its own dataclass; all have these."""

    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]
    turn: int

    def copy(self) -> Self: ...


class AlternatingState(State, Protocol):
    """The position of a game whose seats move in turn, as :func:`begin_alternating_turn`
    plays them."""

    to_play: int
    forfeit: int


#: A game's state type: :class:`Game` and :class:`GameBase` are generic in it.
S = TypeVar("S", bound=State)
#: The state type of an alternating game.
A = TypeVar("A", bound=AlternatingState)


@runtime_checkable
class Game(Protocol[S]):
    """The interface of a game module's ``GAME`` object, generic in its state type."""

    info: GameInfo

    def initial_state(self, game_map: GameMap, params: Mapping[str, Any] | None = None) -> S:
        """The position before the first turn.  ``params`` override the defaults."""

    def to_move(self, state: S) -> tuple[PlayerId, ...]:
        """Seats that must give a move now.  Empty once the game is over."""

    def legal_moves(self, state: S, player: PlayerId) -> Sequence[Any]:
        """Every legal move of ``player`` now.

        For outpost, these are per-outpost steps: its module says more.
        """

    def is_legal(self, state: S, player: PlayerId, move: Any) -> bool:
        """Whether ``move`` is a legal move of ``player`` now: the rules would take it."""

    def apply(self, state: S, moves: Mapping[PlayerId, Any]) -> S:
        """Return the next state.  ``state`` is not modified.  ``None`` is no valid answer."""

    def outcome(self, state: S) -> Outcome | None:
        """The outcome, or ``None`` while the game goes on."""

    def move_to_json(self, move: Any) -> Any:
        """A move as plain JSON data, for records and protocols."""

    def move_from_json(self, data: Any) -> Any:
        """Inverse of :meth:`move_to_json`.  Raises ``InvalidMoveError`` on bad data."""

    def summary(self, state: S) -> dict[str, Any]:
        """A JSON digest of a position, used to check that a record replays exactly."""

    def random_move(self, state: S, player: PlayerId, rng: np.random.Generator) -> Any:
        """A uniformly random legal move.  ``rng`` is a ``numpy.random.Generator``."""

    def longest_game(self, game_map: GameMap, params: Mapping[str, Any] | None = None) -> int:
        """An upper bound on the turns of a game on ``game_map``."""

    def state_to_json(self, state: S) -> dict[str, Any]:
        """The position as plain JSON data, as the JSON-lines protocol sends it."""

    def state_from_json(self, template: S, data: Mapping[str, Any]) -> S:
        """Inverse of :meth:`state_to_json`, given a state of the same game and map."""

    def turn_json(self, state: S, player: PlayerId) -> dict[str, Any]:
        """What a JSON-lines turn message says about the answer expected of ``player``."""

    def summarize_map(self, game_map: GameMap) -> dict[str, Any]:
        """The key figures of a map of this game, as ``atlas analyze`` shows them."""

    def map_analyses(self, game_map: GameMap) -> dict[str, Any]:
        """What this game's analysis home computes of a map beyond its key figures.

        They are Python values by name.  ``atlas.Analysis`` offers them as attributes.
        """

    def fairness_facts(self, game_map: GameMap) -> list[dict[str, Any]]:
        """Exact facts on how ``game_map`` treats each seat, for ``atlas fairness``."""


class GameBase(abc.ABC, Generic[S]):
    """The rules every game must give, as abstract methods, and defaults for the parts
    of :class:`Game` that most games share.

    A subclass sets :attr:`info`, a :class:`GameInfo`.  It defines the rules: the
    abstract methods below.  A class that leaves one out cannot be instantiated.  So a
    missing rule fails when the game is loaded, not when a bot first calls it.  The
    subclass overrides the rest where its game differs.
    """

    info: GameInfo

    def check_params(self, params: Mapping[str, Any] | None) -> dict[str, Any]:
        """The game's parameters: ``params`` over the defaults, each checked."""
        return self.info.check_params(params)

    @abc.abstractmethod
    def initial_state(self, game_map: GameMap, params: Mapping[str, Any] | None = None) -> S:
        """The position before the first turn.  ``params`` override the defaults."""

    @abc.abstractmethod
    def to_move(self, state: S) -> tuple[PlayerId, ...]:
        """Seats that must give a move now.  Empty once the game is over."""

    @abc.abstractmethod
    def legal_moves(self, state: S, player: PlayerId) -> Sequence[Any]:
        """Every legal move of ``player`` now."""

    @abc.abstractmethod
    def apply(self, state: S, moves: Mapping[PlayerId, Any]) -> S:
        """The next state.  ``state`` is not modified.  ``None`` is no valid answer."""

    @abc.abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """The outcome, or ``None`` while the game goes on."""

    @abc.abstractmethod
    def move_to_json(self, move: Any) -> Any:
        """A move as plain JSON data, for records and protocols."""

    @abc.abstractmethod
    def move_from_json(self, data: Any) -> Any:
        """Inverse of :meth:`move_to_json`.  Raises ``InvalidMoveError`` on bad data."""

    @abc.abstractmethod
    def summary(self, state: S) -> dict[str, Any]:
        """A JSON digest of a position, used to check that a record replays exactly."""

    def is_legal(self, state: S, player: PlayerId, move: Any) -> bool:
        """Whether ``move`` is one of :meth:`legal_moves`, compared as JSON.

        So a list and a tuple of the same cell are the same move.  A game whose legal
        moves are not listed whole overrides this.  Outpost, which lists each outpost's
        steps, does.
        """
        if move is None:
            return False
        try:
            said = self.move_to_json(move)
        except (InvalidMoveError, ValueError, TypeError):
            return False
        return any(self.move_to_json(m) == said for m in self.legal_moves(state, player))

    def random_move(self, state: S, player: PlayerId, rng: np.random.Generator) -> Any:
        """A uniformly random legal move, or ``None`` if there is none."""
        options = list(self.legal_moves(state, player))
        if not options:
            return None
        return options[int(rng.integers(len(options)))]

    def longest_game(self, game_map: GameMap, params: Mapping[str, Any] | None = None) -> int:
        """Every turn fills a cell: the number of cells bounds the turns."""
        return int(game_map.height * game_map.width) + 1

    def state_to_json(self, state: S) -> dict[str, Any]:
        """Every field of the state's dataclass.

        Boolean grids become row strings, ``#`` blocked and ``.`` free.  Other arrays
        become nested lists.
        """
        return {f.name: _to_json(getattr(state, f.name)) for f in dataclasses.fields(state)}

    def state_from_json(self, template: S, data: Mapping[str, Any]) -> S:
        """Inverse of :meth:`state_to_json`.

        Types, dtypes and the fields ``data`` leaves out come from ``template``.
        """
        state = template.copy()
        values = {
            f.name: _from_json(getattr(state, f.name), data[f.name])
            for f in dataclasses.fields(state)
            if f.name in data
        }
        return dataclasses.replace(state, **values)

    def turn_json(self, state: S, player: PlayerId) -> dict[str, Any]:
        """``{"expect": "move", "legal": [...]}``: any of the legal moves, as JSON."""
        return {
            "expect": "move",
            "legal": [self.move_to_json(m) for m in self.legal_moves(state, player)],
        }

    def summarize_map(self, game_map: GameMap) -> dict[str, Any]:
        """Size, free cells, components, articulation points and starts."""
        from ..analysis.summary import grid_summary

        return grid_summary(game_map)

    def map_analyses(self, game_map: GameMap) -> dict[str, Any]:
        """Analyses beyond :meth:`summarize_map`, by name.

        They are values too rich for JSON, such as arrays and dataclasses.  Default: none.
        """
        return {}

    def fairness_facts(self, game_map: GameMap) -> list[dict[str, Any]]:
        """Exact facts, beside the board's symmetries, on how ``game_map`` treats each
        seat.

        ``atlas fairness`` and a map page's fairness section show them.  They are a list
        of ``{"key", "label", "seats" or "value", "note"}``:

        - ``seats`` is one number per seat, seat 1 first;
        - ``value`` is one fact for the whole map;
        - ``note`` is a sentence for people.

        They must be instant: a few passes over the board.  Default: none.
        """
        return []


def _to_json(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        if value.dtype == np.bool_ and value.ndim == 2:
            return ["".join("#" if v else "." for v in row) for row in value]
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (list, tuple)):
        return [_to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _to_json(v) for k, v in value.items()}
    return value


def _from_json(like: Any, value: Any) -> Any:
    if isinstance(like, np.ndarray):
        if like.dtype == np.bool_ and like.ndim == 2 and value and isinstance(value[0], str):
            return np.array([[ch == "#" for ch in row] for row in value], dtype=np.bool_)
        return np.array(value, dtype=like.dtype)
    if isinstance(like, np.generic):
        return type(like)(value)
    if isinstance(like, tuple):
        if like and len(like) == len(value):
            return tuple(_from_json(a, b) for a, b in zip(like, value))
        return tuple(value)
    if isinstance(like, bool):
        return bool(value)
    if isinstance(like, int):
        return int(value)
    return value


def win_scores(winner: PlayerId, num_players: int = 2) -> tuple[float, ...]:
    """Scores of a game won by ``winner``: 1 for it, 0 for the others.

    >>> win_scores(1)
    (0.0, 1.0)
    """
    return tuple(1.0 if seat == winner else 0.0 for seat in range(num_players))


def begin_alternating_turn(
    state: A, moves: Mapping[PlayerId, Any], *, over: bool
) -> tuple[A, PlayerId, Any]:
    """The checks every alternating game's ``apply`` starts with.

    Returns ``(new, seat, move)``: a copy of ``state`` to play on, the seat to move and
    its move.  A ``None`` move, no valid answer, sets ``new.forfeit`` to that seat.  The
    caller then returns ``new`` as it is.  Raises ``IllegalMoveError`` when the game is
    over, or when ``moves`` is not exactly the seat to move.
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


class AlternatingGame(GameBase[A]):
    """A game whose seats move in turn.

    It gives what its ``apply`` starts with, :meth:`begin_turn`, and its winner's scores,
    :meth:`win_scores`.
    """

    def begin_turn(
        self, state: A, moves: Mapping[PlayerId, Any], *, over: bool
    ) -> tuple[A, PlayerId, Any]:
        """:func:`begin_alternating_turn`."""
        return begin_alternating_turn(state, moves, over=over)

    @staticmethod
    def win_scores(winner: PlayerId, num_players: int = 2) -> tuple[float, ...]:
        """:func:`win_scores`."""
        return win_scores(winner, num_players)

    def forfeit_outcome(self, state: A) -> Outcome | None:
        """The outcome when a seat gave no valid move, by ``state.forfeit``.  Else ``None``."""
        loser = state.forfeit
        if loser < 0:
            return None
        return Outcome(
            1 - loser,
            Reason.INVALID,
            win_scores(1 - loser),
            f"player {loser + 1} gave no valid move at turn {state.turn}",
        )
