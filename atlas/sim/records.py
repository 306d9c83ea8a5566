"""Replay records: one versioned JSON document per game, self-contained and replayable.

A :class:`Record` holds everything needed to show a game and to check it: the game, the
map (its text embedded, with its content hash), the parameters, the players, the seed,
every turn's moves and answer times, the result and why, a status per seat, and a
digest of the final position (``Game.summary``).  Replaying the moves from the map and
the parameters must reach that digest, the recorded result and the recorded statuses
(:func:`verify_record`): a record cannot claim what its moves do not give.

The format (``"format": "atlas-replay", "version": 1``)::

    {
      "format": "atlas-replay", "version": 1,
      "game": "tron",
      "map": {"name": "ring", "hash": "<sha256 of the canonical map text>",
              "text": "<the map in its file format>"},
      "params": {...},
      "players": [{"name": "random", "kind": "builtin"},
                  {"name": "mybot", "kind": "external", "command": "./mybot"}],
      "seed": 7,
      "turns": [{"moves": {"0": 2, "1": null}, "times": {"0": 0.0004, "1": 1.0},
                 "info": {"0": {"depth": 7, "score": 12.5, "nodes": 48211}}}, ...],
      "result": {"winner": 0, "reason": "timeout", "scores": [1.0, 0.0], "detail": "..."},
      "statuses": [{"status": "ok", "turn": null, "detail": ""},
                   {"status": "timeout", "turn": 3, "detail": "no answer in 1.0 s"}],
      "stderr": ["", "Traceback ..."],
      "final": {...},
      "created": "2026-11-21T23:00:00Z"
    }

Seats are 0-based everywhere; JSON object keys are the seat numbers as strings.  A move
of ``null`` is a seat that gave no valid answer (crash, timeout, garbage or an illegal
move): the game's rules say what that costs, and the seat's status says why.  A turn's
``info`` (optional, left out when empty) holds what a searching bot said about its move:
numbers such as ``depth``, ``score`` and ``nodes`` (:data:`INFO_KEYS`); records without it
load as before.  ``stderr``
is private (a bot's diagnostics may hold anything): :meth:`Record.public_json` drops it
and a record without it loads with empty texts.  ``created`` is informative only and is
kept out of equality, so the same seed gives an equal record.

Records are game-agnostic: every game-specific step goes through the game's ``GAME``
object (:mod:`atlas.sim.base`).

Reading a record (:func:`load_record`) turns any bytes into a :class:`Record` or a
:class:`~atlas.errors.RecordError` naming the file and the problem, within the limits of
:mod:`atlas.limits`: at most :data:`~atlas.limits.MAX_RECORD_BYTES` after decompression,
JSON nested at most :data:`~atlas.limits.MAX_JSON_DEPTH` deep, integers of at most
:data:`~atlas.limits.MAX_INT_DIGITS` digits.  Loading checks the form; only
:func:`verify_record` checks the content, by replaying the game.
"""

from __future__ import annotations

import gzip
import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

from ..errors import IllegalMoveError, InvalidMoveError, MapFormatError, RecordError
from ..fsutil import read_maybe_gzip, write_atomically
from ..limits import MAX_RECORD_BYTES, LimitError, load_json
from ..maps import GameMap, format_map, parse_map
from ..types import PlayerId
from .base import REASONS, STATUSES, Game, Outcome, Reason, Status, status_of
from .registry import game_names, get_game

__all__ = [
    "FORMAT",
    "VERSION",
    "STATUSES",
    "PLAYER_KINDS",
    "STDERR_LIMIT",
    "INFO_KEYS",
    "MapRef",
    "PlayerEntry",
    "TurnRecord",
    "SeatStatus",
    "Record",
    "RecordBuilder",
    "save_record",
    "is_record_file",
    "load_record",
    "record_from_json",
    "clean_info",
    "replay_states",
    "verify_record",
    "expected_result",
    "truncate_stderr",
    "utc_timestamp",
]

FORMAT = "atlas-replay"
VERSION = 1
PLAYER_KINDS = ("builtin", "external")
#: Bytes of a seat's stderr kept in a record (first and last halves).
STDERR_LIMIT = 4096
#: What a turn's ``info`` may say about a seat's move (numbers only): the search depth
#: reached, the score the bot gave its move (from its own point of view), nodes searched.
INFO_KEYS = ("depth", "score", "nodes")


# --------------------------------------------------------------------------- values


@dataclass(frozen=True)
class MapRef:
    """The map of a game: its name, the SHA-256 of its canonical text, and the text."""

    name: str
    hash: str
    text: str

    @classmethod
    def from_map(cls, game_map: GameMap) -> MapRef:
        return cls(game_map.name, game_map.content_hash, format_map(game_map))


@dataclass(frozen=True)
class PlayerEntry:
    """A seat's player, as a record names it.

    ``name`` is what people read (unique within a tournament); ``kind`` is ``builtin`` or
    ``external``; a built-in bot's registered name is ``bot`` (``None``: the same as
    ``name``); an external program has its ``command`` and, when its program file was
    found, the SHA-256 ``digest`` of that file's bytes.  :attr:`identity` tells players
    apart whatever they are called.
    """

    name: str
    kind: str = "builtin"
    command: str | None = None
    bot: str | None = None
    digest: str | None = None

    @property
    def identity(self) -> str:
        """``builtin:BOT`` for a built-in bot under its own name (``builtin:BOT=NAME``
        under another), ``external:NAME:`` and the program's digest (else its command)
        for a program.  Two records of the same player share it; a record cannot take
        another player's identity by choosing its name, and two entrants who submit the
        same program under two names stay two players."""
        if self.kind == "builtin":
            bot = self.bot or self.name
            return f"builtin:{bot}" if self.name == bot else f"builtin:{bot}={self.name}"
        return f"external:{self.name}:{self.digest or self.command or ''}"


@dataclass(frozen=True)
class TurnRecord:
    """One turn: the JSON move of every seat that had to move, its answer time, and
    what a searching bot said about its move.

    ``moves`` maps seat -> JSON move (``None`` = no valid answer); ``times`` maps seat ->
    seconds taken to answer; ``info`` maps seat -> ``{key: number}`` with keys from
    :data:`INFO_KEYS` (only seats whose bot reported anything).
    """

    moves: Mapping[PlayerId, Any]
    times: Mapping[PlayerId, float] = field(default_factory=dict)
    info: Mapping[PlayerId, Mapping[str, float]] = field(default_factory=dict)


@dataclass(frozen=True)
class SeatStatus:
    """How a seat fared: its :class:`Status`, the turn it failed (0-based index into
    ``Record.turns``) or ``None``, and a sentence."""

    status: Status = Status.OK
    turn: int | None = None
    detail: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", status_of(self.status))


@dataclass(frozen=True)
class Record:
    """A finished game, as stored in a replay record (see the module docstring)."""

    game: str
    map: MapRef
    params: Mapping[str, Any]
    players: tuple[PlayerEntry, ...]
    seed: int
    turns: tuple[TurnRecord, ...]
    result: Outcome
    statuses: tuple[SeatStatus, ...]
    final: Mapping[str, Any]
    stderr: tuple[str, ...] = ()
    created: str | None = field(default=None, compare=False)
    format: str = FORMAT
    version: int = VERSION

    @property
    def num_players(self) -> int:
        return len(self.players)

    def game_map(self) -> GameMap:
        """Rebuild the map from the embedded text (checked against the hash)."""
        return _rebuild_map(self, None)

    def to_json(self) -> dict[str, Any]:
        """The full record as plain JSON data, private ``stderr`` included."""
        data = self.public_json()
        data["stderr"] = list(self.stderr) or [""] * self.num_players
        return data

    def public_json(self) -> dict[str, Any]:
        """The record as plain JSON data without the private ``stderr`` (for the site)."""
        data: dict[str, Any] = {
            "format": self.format,
            "version": self.version,
            "game": self.game,
            "map": {"name": self.map.name, "hash": self.map.hash, "text": self.map.text},
            "params": dict(self.params),
            "players": [_player_json(p) for p in self.players],
            "seed": self.seed,
            "turns": [_turn_json(t) for t in self.turns],
            "result": {
                "winner": self.result.winner,
                "reason": self.result.reason.value,
                "scores": list(self.result.scores),
                "detail": self.result.detail,
            },
            "statuses": [
                {"status": s.status.value, "turn": s.turn, "detail": s.detail}
                for s in self.statuses
            ],
            "final": dict(self.final),
        }
        if self.created is not None:
            data["created"] = self.created
        return data


def _turn_json(t: TurnRecord) -> dict[str, Any]:
    out: dict[str, Any] = {
        "moves": {str(s): m for s, m in t.moves.items()},
        "times": {str(s): v for s, v in t.times.items()},
    }
    if t.info:
        out["info"] = {str(s): dict(v) for s, v in t.info.items()}
    return out


def clean_info(info: Any) -> dict[str, float]:
    """The :data:`INFO_KEYS` of a bot's report that are finite numbers (``depth`` and
    ``nodes`` as whole numbers); anything else is left out.

    Examples
    --------
    >>> clean_info({"depth": 7, "value": 3.5, "nodes": 120.0, "scores": [1, 2]})
    {'depth': 7, 'nodes': 120}
    >>> clean_info({"score": float("inf")})
    {}
    """
    if not isinstance(info, Mapping):
        return {}
    out: dict[str, float] = {}
    for key in INFO_KEYS:
        v = info.get(key)
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            try:
                v = cast(Any, v).item()  # numpy scalars (a bot's report: anything at all)
            except AttributeError:
                continue
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                continue
        if not math.isfinite(v):
            continue
        out[key] = (
            int(v)
            if key != "score"
            else (int(v) if float(v).is_integer() else round(float(v), 4))
        )
    return out


def _player_json(p: PlayerEntry) -> dict[str, Any]:
    out: dict[str, Any] = {"name": p.name, "kind": p.kind}
    for key in ("command", "bot", "digest"):
        if getattr(p, key) is not None:
            out[key] = getattr(p, key)
    return out


def utc_timestamp() -> str:
    """The current UTC time as ``2026-11-21T23:00:00Z`` (for ``Record.created``)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def truncate_stderr(text: str, limit: int = STDERR_LIMIT) -> str:
    """Keep at most ``limit`` bytes of ``text`` (UTF-8): its first and last halves.

    The cut is marked with ``[... N bytes cut ...]``.
    """
    raw = text.encode("utf-8", "replace")
    if len(raw) <= limit:
        return text
    half = limit // 2
    head = raw[:half].decode("utf-8", "ignore")
    tail = raw[len(raw) - half :].decode("utf-8", "ignore")
    return f"{head}\n[... {len(raw) - 2 * half} bytes cut ...]\n{tail}"


# --------------------------------------------------------------------------- builder


def _plain(data: Any) -> Any:
    """``data`` as it reads back from JSON (tuples become lists), so records compare equal
    before and after a file round trip."""
    if isinstance(data, (str, int, float, bool)) or data is None:
        return data
    return json.loads(json.dumps(data))


def _resolve_game(game: str | Game[Any]) -> Game[Any]:
    if isinstance(game, str):
        return get_game(game)
    return game


def _as_player(p: PlayerEntry | Mapping[str, Any] | str) -> PlayerEntry:
    if isinstance(p, PlayerEntry):
        return p
    if isinstance(p, str):
        return PlayerEntry(p)
    command = p.get("command")
    if command is not None and not isinstance(command, str):
        command = " ".join(str(c) for c in command)
    return PlayerEntry(
        str(p["name"]), str(p.get("kind", "builtin")), command, p.get("bot"), p.get("digest")
    )


class RecordBuilder:
    """Collect a game as it is played, then :meth:`finish` it into a :class:`Record`.

    Parameters
    ----------
    game : str or Game
        The game's name or its ``GAME`` object.
    game_map : GameMap
        The map; its canonical text is embedded in the record.
    params : mapping or None
        The game parameters; merged over ``info.default_params`` so the record holds
        every parameter the game was played with.
    players : sequence
        One per seat: a :class:`PlayerEntry`, a mapping ``{name, kind, command}`` or a
        built-in bot's name.
    seed : int
        The game's seed.

    Notes
    -----
    :meth:`add_turn` takes the game's own moves (``None`` for a seat without a valid
    answer) and stores them through ``GAME.move_to_json``.
    """

    def __init__(
        self,
        game: str | Game[Any],
        game_map: GameMap,
        params: Mapping[str, Any] | None,
        players: Sequence[PlayerEntry | Mapping[str, Any] | str],
        seed: int,
    ) -> None:
        self.game = _resolve_game(game)
        self.map = game_map
        merged = dict(self.game.info.default_params)
        merged.update(params or {})
        self.params = json.loads(json.dumps(merged))  # plain JSON, detached
        self.players = tuple(_as_player(p) for p in players)
        if len(self.players) != self.game.info.num_players:
            raise ValueError(
                f"{self.game.info.name} has {self.game.info.num_players} seats, "
                f"got {len(self.players)} players"
            )
        self.seed = int(seed)
        self.turns: list[TurnRecord] = []
        n = len(self.players)
        self.statuses: list[SeatStatus] = [SeatStatus() for _ in range(n)]
        self.stderr: list[str] = [""] * n

    def add_turn(
        self,
        moves: Mapping[PlayerId, Any],
        times: Mapping[PlayerId, float] | None = None,
        info: Mapping[PlayerId, Mapping[str, Any]] | None = None,
    ) -> None:
        """Record one turn's moves (game moves, ``None`` = no valid answer), times, and
        what bots said about their moves (kept through :func:`clean_info`)."""
        to_json = self.game.move_to_json
        jm = {
            int(s): (None if m is None else _plain(to_json(m)))
            for s, m in sorted(moves.items())
        }
        jt = {int(s): float(t) for s, t in sorted((times or {}).items())}
        ji = {
            int(s): said for s, raw in sorted((info or {}).items()) if (said := clean_info(raw))
        }
        self.turns.append(TurnRecord(jm, jt, ji))

    def set_status(
        self, seat: PlayerId, status: Status | str, turn: int | None = None, detail: str = ""
    ) -> None:
        """Set how ``seat`` fared (a :class:`Status` or its word)."""
        state = status_of(status)
        self.statuses[seat] = SeatStatus(state, None if turn is None else int(turn), detail)

    def set_stderr(self, seat: PlayerId, text: str) -> None:
        """Keep (at most :data:`STDERR_LIMIT` bytes of) what ``seat`` wrote to stderr."""
        self.stderr[seat] = truncate_stderr(text)

    def finish(
        self, final_state: Any, outcome: Outcome, *, created: str | None = None
    ) -> Record:
        """The record of the finished game ending in ``final_state`` with ``outcome``.

        ``created`` is an informative timestamp (e.g. :func:`utc_timestamp`); it is left
        out by default so that the same game always gives the same bytes.
        """
        result = Outcome(
            None if outcome.winner is None else int(outcome.winner),
            outcome.reason,
            tuple(float(s) for s in outcome.scores),
            outcome.detail,
        )
        return Record(
            self.game.info.name,
            MapRef.from_map(self.map),
            self.params,
            self.players,
            self.seed,
            tuple(self.turns),
            result,
            tuple(self.statuses),
            _plain(self.game.summary(final_state)),
            tuple(self.stderr),
            created,
        )


# --------------------------------------------------------------------------- JSON -> Record


class _Checker:
    """Typed field access that raises :class:`RecordError` naming the file and field."""

    def __init__(self, path: str | os.PathLike[str] | None) -> None:
        self.path = path

    def fail(self, message: str) -> RecordError:
        return RecordError(message, path=self.path)

    def get(
        self,
        obj: Mapping[str, Any],
        key: str,
        types: type | tuple[type, ...],
        where: str,
        *,
        optional: bool = False,
        default: Any = None,
    ) -> Any:
        if key not in obj:
            if optional:
                return default
            raise self.fail(f"missing field {where}{key!r}")
        value = obj[key]
        if not isinstance(value, types) or (
            isinstance(value, bool) and bool not in _tuple(types)
        ):
            names = " or ".join(t.__name__ for t in _tuple(types))
            raise self.fail(
                f"field {where}{key!r} should be {names}, "
                f"got {type(value).__name__} {_short(value)}"
            )
        return value


def _tuple(types: type | tuple[type, ...]) -> tuple[type, ...]:
    return types if isinstance(types, tuple) else (types,)


def _short(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _seat_key(ck: _Checker, key: str, n: int, where: str) -> int:
    if not (key in _SEAT_WORDS and int(key) < n):
        raise ck.fail(f"{where} has seat {_short(key)}; seats are 0..{n - 1}")
    return int(key)


#: The seat keys of a record's JSON objects ("0", "1", ...: no signs, spaces or "01").
_SEAT_WORDS = frozenset(str(k) for k in range(64))


def _number(value: Any) -> bool:
    return (
        isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    )


def record_from_json(data: Any, path: str | os.PathLike[str] | None = None) -> Record:
    """Build a :class:`Record` from JSON data, checking every field.

    Raises
    ------
    RecordError
        Foreign or damaged data; the message names ``path`` and the offending field.
    """
    ck = _Checker(path)
    if not isinstance(data, dict):
        raise ck.fail(
            f"not a replay record: the document is a {type(data).__name__}, not a JSON object"
        )
    fmt = data.get("format")
    if fmt != FORMAT:
        raise ck.fail(f"not a replay record: format is {_short(fmt)}, expected {FORMAT!r}")
    version = data.get("version")
    if version != VERSION or isinstance(version, bool):
        raise ck.fail(
            f"unsupported record version {_short(version)}; this atlas reads version {VERSION}"
        )
    game = ck.get(data, "game", str, "")
    if game not in game_names():
        raise ck.fail(f"unknown game {game!r}; expected one of {', '.join(game_names())}")
    m = ck.get(data, "map", dict, "")
    map_ref = MapRef(
        ck.get(m, "name", str, "map."),
        ck.get(m, "hash", str, "map."),
        ck.get(m, "text", str, "map."),
    )
    params = get_game(game).info.canonical_params(ck.get(data, "params", dict, ""))
    players = []
    for i, p in enumerate(ck.get(data, "players", list, "")):
        where = f"players[{i}]."
        if not isinstance(p, dict):
            raise ck.fail(f"players[{i}] should be an object, got {_short(p)}")
        kind = ck.get(p, "kind", str, where)
        if kind not in PLAYER_KINDS:
            raise ck.fail(f"field {where}'kind' is {kind!r}; expected builtin or external")
        players.append(
            PlayerEntry(
                ck.get(p, "name", str, where),
                kind,
                *(
                    ck.get(p, key, (str, type(None)), where, optional=True)
                    for key in ("command", "bot", "digest")
                ),
            )
        )
    n = len(players)
    seats = get_game(game).info.num_players
    if n != seats:
        raise ck.fail(f"the record has {n} players; {game} is played by {seats}")
    seed = ck.get(data, "seed", int, "")
    turns = []
    for i, t in enumerate(ck.get(data, "turns", list, "")):
        where = f"turns[{i}]."
        if not isinstance(t, dict):
            raise ck.fail(f"turns[{i}] should be an object, got {_short(t)}")
        moves = {
            _seat_key(ck, k, n, f"{where}moves"): v
            for k, v in ck.get(t, "moves", dict, where).items()
        }
        times = {}
        for k, v in ck.get(t, "times", dict, where, optional=True, default={}).items():
            if not _number(v):
                raise ck.fail(
                    f"{where}times[{k!r}] should be a number of seconds, got {_short(v)}"
                )
            times[_seat_key(ck, k, n, f"{where}times")] = float(v)
        info = {}
        for k, v in ck.get(t, "info", dict, where, optional=True, default={}).items():
            seat = _seat_key(ck, k, n, f"{where}info")
            if not isinstance(v, dict) or not all(
                key in INFO_KEYS and _number(x) for key, x in v.items()
            ):
                raise ck.fail(
                    f"{where}info[{k!r}] should be an object of numbers named "
                    f"{', '.join(INFO_KEYS)}, got {_short(v)}"
                )
            info[seat] = dict(v)
        turns.append(
            TurnRecord(
                dict(sorted(moves.items())),
                dict(sorted(times.items())),
                dict(sorted(info.items())),
            )
        )
    r = ck.get(data, "result", dict, "")
    winner = ck.get(r, "winner", (int, type(None)), "result.")
    if winner is not None and not 0 <= winner < n:
        raise ck.fail(f"result.winner is seat {winner}; seats are 0..{n - 1}")
    reason = ck.get(r, "reason", str, "result.")
    if reason not in REASONS:
        raise ck.fail(f"result.reason is {reason!r}; expected one of {', '.join(REASONS)}")
    scores = ck.get(r, "scores", list, "result.")
    if len(scores) != n or not all(_number(s) for s in scores):
        raise ck.fail(f"result.scores should be {n} numbers, got {_short(scores)}")
    result = Outcome(
        winner,
        Reason(reason),
        tuple(float(s) for s in scores),
        ck.get(r, "detail", str, "result.", optional=True, default=""),
    )
    statuses = []
    raw_statuses = ck.get(data, "statuses", list, "")
    if len(raw_statuses) != n:
        raise ck.fail(f"statuses has {len(raw_statuses)} entries for {n} players")
    for i, s in enumerate(raw_statuses):
        where = f"statuses[{i}]."
        if not isinstance(s, dict):
            raise ck.fail(f"statuses[{i}] should be an object, got {_short(s)}")
        status = ck.get(s, "status", str, where)
        if status not in STATUSES:
            raise ck.fail(f"{where}status is {status!r}; expected one of {', '.join(STATUSES)}")
        turn = ck.get(s, "turn", (int, type(None)), where)
        if turn is not None and not 0 <= turn < max(1, len(turns)):
            raise ck.fail(f"{where}turn is {turn}; the record has {len(turns)} turns")
        statuses.append(
            SeatStatus(
                Status(status), turn, ck.get(s, "detail", str, where, optional=True, default="")
            )
        )
    stderr = ck.get(data, "stderr", list, "", optional=True, default=[""] * n)
    if len(stderr) != n or not all(isinstance(e, str) for e in stderr):
        raise ck.fail(f"stderr should be {n} strings")
    final = ck.get(data, "final", dict, "")
    created = ck.get(data, "created", (str, type(None)), "", optional=True)
    record = Record(
        game,
        map_ref,
        params,
        tuple(players),
        seed,
        tuple(turns),
        result,
        tuple(statuses),
        final,
        tuple(stderr),
        created,
    )
    _rebuild_map(record, path)  # refuses a map that does not parse or match its hash
    return record


def _rebuild_map(record: Record, path: str | os.PathLike[str] | None) -> GameMap:
    try:
        game_map = parse_map(record.map.text, game=record.game, name=record.map.name)
    except MapFormatError as exc:
        raise RecordError(f"the embedded map does not parse: {exc}", path=path) from None
    if game_map.content_hash != record.map.hash:
        raise RecordError(
            f"map hash mismatch: the embedded map {record.map.name!r} hashes to "
            f"{game_map.content_hash[:12]}..., the record says "
            f"{record.map.hash[:12]}...",
            path=path,
        )
    return game_map


# --------------------------------------------------------------------------- files


def is_record_file(path: str | os.PathLike[str]) -> bool:
    """Whether the file at ``path`` is an atlas replay record (judged by its first bytes:
    a file atlas may write over)."""
    from ..fsutil import starts_with

    return starts_with(Path(path), (b'"format":"atlas-replay"', b'"format": "atlas-replay"'))


def save_record(record: Record, path: str | os.PathLike[str], *, public: bool = False) -> None:
    """Write ``record`` to ``path`` (gzip-compressed when it ends in ``.gz``).

    ``public=True`` leaves out the private ``stderr``.  The file is written to a
    temporary name and moved into place, so a reader never sees half a record; the
    same record always gives the same bytes (gzip ``mtime`` is 0).
    """
    p = Path(path)
    data = record.public_json() if public else record.to_json()
    raw = (json.dumps(data, separators=(",", ":"), ensure_ascii=False) + "\n").encode("utf-8")
    if p.name.endswith(".gz"):
        raw = gzip.compress(raw, compresslevel=6, mtime=0)
    write_atomically(p, raw)


def load_record(path: str | os.PathLike[str]) -> Record:
    """Read a record written by :func:`save_record` (``.json`` or ``.json.gz``).

    Raises
    ------
    RecordError
        The file cannot be read, is not gzip/JSON, is not an atlas replay record of a
        version this atlas reads, lacks a field or has one of the wrong type, or its
        embedded map does not match its hash.  The message names the file.
    """
    p = Path(path)
    raw, gzipped = read_maybe_gzip(p, MAX_RECORD_BYTES, RecordError, what="record")
    if not gzipped and p.name.endswith(".gz"):
        raise RecordError("not gzip data, although the name ends in .gz", path=p)
    data = _load_json(raw, p)
    return record_from_json(data, p)


def _load_json(raw: bytes, path: Path) -> Any:
    """The JSON document ``raw`` of the file ``path``, within the limits."""
    try:
        return load_json(raw)
    except UnicodeDecodeError as exc:
        raise RecordError(
            f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})", path=path
        ) from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"not JSON: {exc.msg}", path=path, line=exc.lineno) from None
    except LimitError as exc:
        raise RecordError(str(exc), path=path) from None


# --------------------------------------------------------------------------- replay


def replay_states(record: Record) -> list[Any]:
    """The initial state and the state after each turn of ``record``.

    The map is rebuilt from the embedded text and the game started with the recorded
    parameters; each turn's JSON moves are decoded with ``GAME.move_from_json`` and
    applied with ``GAME.apply``.

    Raises
    ------
    RecordError
        A turn names other seats than those to move, a move does not parse or is not
        allowed, or moves go on after the game ended.

    Notes
    -----
    Cost: one ``apply`` per turn plus a copy of each state (they are all returned).
    """
    game = _resolve_game(record.game)
    game_map = _rebuild_map(record, None)
    try:
        state = game.initial_state(game_map, dict(record.params))
    except _BAD_DATA as exc:
        raise RecordError(
            f"cannot start {record.game} with the recorded parameters "
            f"{_short(dict(record.params))}: {exc}"
        ) from None
    states = [state]
    for i, turn in enumerate(record.turns):
        expected = tuple(game.to_move(state))
        if tuple(sorted(turn.moves)) != tuple(sorted(expected)):
            if not expected:
                raise RecordError(f"turn {i}: moves recorded after the game ended")
            raise RecordError(
                f"turn {i}: moves for seats {sorted(turn.moves)}, but seats "
                f"{sorted(expected)} were to move"
            )
        moves = {}
        for seat, data in turn.moves.items():
            try:
                moves[seat] = None if data is None else game.move_from_json(data)
            except _BAD_DATA as exc:
                raise RecordError(f"turn {i}: seat {seat}: {_why(exc)}") from None
        try:
            state = game.apply(state, moves)
        except _BAD_DATA as exc:
            raise RecordError(f"turn {i}: {_why(exc)}") from None
        states.append(state)
    return states


#: What a game's rules may raise on data a record makes up: ``InvalidMoveError`` and
#: ``IllegalMoveError`` are theirs; the others come from moves of the wrong shape
#: (a list where a number goes, a number too large for an array index).
_BAD_DATA = (
    InvalidMoveError,
    IllegalMoveError,
    ValueError,
    TypeError,
    KeyError,
    IndexError,
    OverflowError,
)


def _why(exc: BaseException) -> str:
    if isinstance(exc, (InvalidMoveError, IllegalMoveError)):
        return str(exc)
    return f"the move cannot be played ({type(exc).__name__}: {str(exc)[:80]})"


def expected_result(outcome: Outcome, statuses: Sequence[SeatStatus]) -> Outcome:
    """The result a record states for a game the rules ended with ``outcome``.

    The rules' winner and scores, and their reason, except in a two-seat game whose
    loser failed: then the reason names the failure (``timeout``, ``crash``,
    ``invalid``, ``illegal``), as :func:`atlas.arena.runner.play_game` writes it.
    ``detail`` is kept: it is a sentence for people, not a claim that is checked.
    """
    n = len(statuses)
    if n != 2 or outcome.winner is None:
        return outcome
    lost = statuses[1 - outcome.winner].status
    if lost is Status.OK:
        return outcome
    return Outcome(outcome.winner, lost.reason, outcome.scores, outcome.detail)


def _accepted_reasons(outcome: Outcome, statuses: Sequence[SeatStatus]) -> tuple[Reason, ...]:
    """The reasons a record may give: :func:`expected_result`'s, or the rules' own when
    the two differ (a record built without the runner keeps the rules' word)."""
    return tuple(dict.fromkeys((expected_result(outcome, statuses).reason, outcome.reason)))


def verify_record(record: Record, states: Sequence[Any] | None = None) -> None:
    """Check that ``record`` is what its moves give: position, result and statuses.

    ``states`` are the record's :func:`replay_states` when the caller has them already
    (the site replays each record once, to draw it and to check it).

    The moves are replayed from the embedded map and the recorded parameters
    (:func:`replay_states`), then every claim of the record is checked against the
    replay:

    - ``final``: the final position's ``GAME.summary``;
    - the game is over after the last turn (a record cannot stop early);
    - ``result``: the winner and the scores the rules give, and their reason or, when
      the loser of a two-seat game failed, the failure's (:func:`expected_result`; a
      record made without the runner may keep the rules' word);
    - ``statuses``: a seat is ``ok`` exactly when it never gave a null move; a seat
      that failed (crashed, timed out, answered nonsense or an illegal move) shows a
      null move, and its first null move comes at the status's ``turn`` or, when it
      failed before its turn came (a bot that could not start), at its first turn
      after it.

    What cannot be checked is left alone: ``detail`` texts, answer times, which of the
    failures a null move was (a timeout and a crash look the same in the moves), the
    players' names and the private ``stderr``.

    Raises
    ------
    RecordError
        The replay fails, or a claim differs from the replay; the message names the
        first claim that does not hold.
    """
    game = _resolve_game(record.game)
    final = (replay_states(record) if states is None else states)[-1]
    got = json.loads(json.dumps(game.summary(final)))
    want = json.loads(json.dumps(dict(record.final)))
    if got != want:
        keys = sorted(set(got) | set(want))
        diff = next((k for k in keys if got.get(k) != want.get(k)), "?")
        raise RecordError(
            f"the record does not replay: after {len(record.turns)} turns the "
            f"final position differs at {diff!r} (replayed "
            f"{_short(got.get(diff))}, recorded {_short(want.get(diff))})"
        )
    outcome = game.outcome(final)
    if outcome is None:
        raise RecordError(
            f"the record stops after {len(record.turns)} turns, before the game is over"
        )
    _verify_statuses(record)
    expect = expected_result(outcome, record.statuses)
    claimed = record.result
    for what, mine, theirs in (
        ("winner", expect.winner, claimed.winner),
        ("scores", [float(v) for v in expect.scores], [float(v) for v in claimed.scores]),
    ):
        if mine != theirs:
            raise RecordError(
                f"the record claims result.{what} {_short(theirs)}, but its "
                f"moves give {_short(mine)}"
            )
    reasons = _accepted_reasons(outcome, record.statuses)
    if claimed.reason not in reasons:
        raise RecordError(
            f"the record claims result.reason {claimed.reason.value!r}, but its "
            f"moves give {' or '.join(repr(r.value) for r in reasons)}"
        )


def _verify_statuses(record: Record) -> None:
    for seat, st in enumerate(record.statuses):
        nulls = [
            i for i, t in enumerate(record.turns) if seat in t.moves and t.moves[seat] is None
        ]
        where = f"statuses[{seat}]"
        if st.status is Status.OK:
            if nulls:
                raise RecordError(
                    f"{where} is 'ok', but seat {seat} gave no valid move "
                    f"(null) at turn {nulls[0]}"
                )
            if st.turn is not None:
                raise RecordError(f"{where} is 'ok' but names a turn ({st.turn})")
            continue
        claim = f"{where} says {st.status.value!r} at turn {st.turn}"
        if not nulls:
            raise RecordError(f"{claim}, but seat {seat} gave a move on every turn")
        if st.turn is None or st.turn > nulls[0]:
            raise RecordError(f"{claim}, but its first null move is at turn {nulls[0]}")
        for i in range(st.turn, nulls[0]):
            if record.turns[i].moves.get(seat) is not None:
                raise RecordError(
                    f"{claim}, but seat {seat} moved at turn {i} and its "
                    f"first null move is at turn {nulls[0]}"
                )
