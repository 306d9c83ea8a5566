"""The values of a replay record (:class:`Record` and its parts) and the builder that
collects one as a game is played (:class:`RecordBuilder`).

The format they stand for is described in :mod:`atlas.sim.records`; reading and writing
them is :mod:`atlas.sim.records.io`, checking them by replaying
:mod:`atlas.sim.records.verify`.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

from ...display import call, show
from ...errors import MapFormatError, RecordError
from ...limits import MAX_PV_MOVES
from ...maps import GameMap, format_map, parse_map
from ...types import JSONObject, JSONValue, PlayerId
from ..base import STATUSES, Game, Outcome, State, Status, status_of
from ..registry import get_game

__all__ = [
    "FORMAT",
    "VERSION",
    "STATUSES",
    "PLAYER_KINDS",
    "STDERR_LIMIT",
    "INFO_KEYS",
    "MapRef",
    "PlayerEntry",
    "Late",
    "TurnRecord",
    "SeatStatus",
    "Record",
    "RecordBuilder",
    "clean_info",
    "PV_KEYS",
    "clean_pv",
    "truncate_stderr",
    "utc_timestamp",
    "machine_free",
]

FORMAT = "atlas-replay"
VERSION = 1
PLAYER_KINDS = ("builtin", "external")
#: Bytes of a seat's stderr kept in a record (first and last halves).
STDERR_LIMIT = 4096
#: What a turn's ``info`` may say about a seat's move (numbers only): the search depth
#: reached, the score the bot gave its move (from its own point of view), nodes searched.
INFO_KEYS = ("depth", "score", "nodes", "mate")
#: The other keys a turn's ``info`` may hold: ``pv``, the principal variation (the moves
#: the bot expected, its own first, as JSON moves of the game, at most
#: :data:`~atlas.limits.MAX_PV_MOVES`), and ``pv_cut``, how many moves of a longer or
#: partly unreadable variation were dropped.
PV_KEYS = ("pv", "pv_cut")


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
    apart whatever they are called.  ``effort``: a built-in bot that played at a fixed
    effort per move (:attr:`atlas.bots.base.BotBase.effort`), else ``None`` (it played
    by the clock; records written before efforts load so).
    """

    name: str
    kind: str = "builtin"
    command: str | None = None
    bot: str | None = None
    digest: str | None = None
    effort: int | None = None

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
class Late:
    """An answer that came after its deadline: the seconds the seat was given
    (``limit``), and the machine's 1-minute load average and number of cores when it
    came (``None`` where the system did not say)."""

    limit: float
    load: float | None = None
    cores: int | None = None

    def to_json(self) -> JSONObject:
        out: dict[str, Any] = {"limit": self.limit}
        if self.load is not None:
            out["load"] = self.load
        if self.cores is not None:
            out["cores"] = self.cores
        return out


@dataclass(frozen=True)
class TurnRecord:
    """One turn: the JSON move of every seat that had to move, its answer time, and
    what a searching bot said about its move.

    ``moves`` maps seat -> JSON move (``None`` = no valid answer); ``times`` maps seat ->
    seconds taken to answer (wall clock); ``info`` maps seat -> ``{key: number}`` with
    keys from :data:`INFO_KEYS`, and the :data:`PV_KEYS` (``pv`` a list of JSON moves)
    when the bot reported a principal variation (only seats whose bot reported
    anything); ``cpu`` maps
    seat -> CPU seconds the answer used (the bot's thread, or the program's processes);
    ``late`` maps the seats that answered after their deadline to a :class:`Late`.
    ``cpu`` and ``late`` are optional: records written before them load without them.
    """

    moves: Mapping[PlayerId, Any]
    times: Mapping[PlayerId, float] = field(default_factory=dict)
    info: Mapping[PlayerId, Mapping[str, Any]] = field(default_factory=dict)
    cpu: Mapping[PlayerId, float] = field(default_factory=dict)
    late: Mapping[PlayerId, Late] = field(default_factory=dict)


@dataclass(frozen=True)
class SeatStatus:
    """How a seat fared: its :class:`Status`, the turn it failed (0-based index into
    ``Record.turns``) or ``None``, and a sentence."""

    status: Status = Status.OK
    turn: int | None = None
    detail: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "status", status_of(self.status))


@dataclass(frozen=True, repr=False)
class Record:
    """A finished game: a replay record, with what Python does with one.

    Its fields are the record's (``game``, ``players``, ``turns``, ``result``,
    ``statuses``, ...; the format is :mod:`atlas.sim.records`).  In Jupyter a record
    shows the replay viewer: the board turn by turn with play, step and speed controls
    and the chart of the game's measures, self-contained (it still works in a notebook
    exported to HTML).  Two records are equal when they hold the same game (``created``
    aside).

    Examples
    --------
    >>> import atlas
    >>> m = atlas.read_map("5 3\\n#####\\n#1 2#\\n#####\\n", game="tron")
    >>> record = atlas.play(m, ["random", "random"], seed=1, time=0.5)
    >>> len(record.states()) == len(record.turns) + 1
    True
    """

    game: str
    map: MapRef
    params: Mapping[str, JSONValue]
    players: tuple[PlayerEntry, ...]
    seed: int
    turns: tuple[TurnRecord, ...]
    result: Outcome
    statuses: tuple[SeatStatus, ...]
    final: Mapping[str, JSONValue]
    stderr: tuple[str, ...] = ()
    created: str | None = field(default=None, compare=False)
    format: str = FORMAT
    version: int = VERSION

    __hash__ = None  # type: ignore[assignment]  # mutable mappings inside

    @property
    def num_players(self) -> int:
        """The seats of the game."""
        return len(self.players)

    @classmethod
    def of(cls, record: Record) -> Record:
        """``record`` itself (once the API's own subclass made from the record).

        .. deprecated:: 0.2
           A record is an :class:`atlas.Record` already.
        """
        from ...deprecation import warn_deprecated

        warn_deprecated("atlas.Record.of", since="0.2", instead="the record itself")
        if not isinstance(record, cls):
            from ...errors import ArgumentError

            raise ArgumentError(
                f"record: expected an atlas record, got {type(record).__name__}"
            )
        return record

    # ------------------------------------------------------------------ what Python does
    # The work is done above this layer: each method asks atlas.display for the function
    # by name (the façade provides them, as for GameMap's picture).

    def states(self) -> list[State]:
        """Every position of the game: the start, then the one after each turn.

        Raises
        ------
        RecordError
            The moves do not replay on the record's map (a damaged or forged record).
        """
        states: list[State] = call("record-states", self)
        return states

    def save(
        self, path: str | os.PathLike[str], *, public: bool = False, force: bool = False
    ) -> Path:
        """Write the record (``.json``, or gzip-compressed ``.json.gz``); returns the path.

        ``public=True`` leaves out what the bots wrote on standard error.  An existing
        file is replaced when it is an atlas record, or with ``force=True``.

        Raises
        ------
        OutputFolderError
            The file exists and is not a record atlas wrote, or its folder is missing.
        """
        out: Path = call("record-save", self, path, public=public, force=force)
        return out

    def gif(
        self, path: str | os.PathLike[str], *, force: bool = False, overlay: str | None = None
    ) -> Path:
        """Draw the game as an animated GIF (what ``atlas replay`` writes); returns the
        path.  An existing file is replaced when atlas wrote it, or with ``force=True``.
        ``overlay`` draws one of the game's GIF overlays on every frame (``atlas replay
        --overlay``: ``"voronoi"``, ...).

        Raises
        ------
        ArgumentError
            ``overlay`` is not one the game draws (the message names those it does).
        OutputFolderError
            The file exists and atlas did not write it, or its folder is missing.
        RecordError
            The moves do not replay.
        """
        out: Path = call("record-gif", self, path, force=force, overlay=overlay)
        return out

    def result_text(self) -> str:
        """One line: who won, why, after how many turns (what ``atlas play`` prints)."""
        r = self.result
        names = [p.name for p in self.players]
        if r.winner is None:
            head = f"{r.reason}"
        else:
            head = f"player {r.winner + 1} ({names[r.winner]}) wins by {r.reason}"
        scores = " ".join(f"{s:g}" for s in r.scores)
        tail = f" -- {r.detail}" if r.detail else ""
        return (
            f"{self.game} on {self.map.name}: {head} after {len(self.turns)} turns "
            f"[scores {scores}]{tail}"
        )

    def html(self) -> str:
        """The replay viewer as a whole HTML page, its script, style and the game's data
        inline: it needs no server and no network."""
        page: str = call("record-page", self)
        return page

    def _repr_html_(self) -> str | None:
        frame: str | None = show("record-html", self)
        return frame

    def __repr__(self) -> str:
        return f"<atlas.Record {self.result_text()}>"

    def game_map(self) -> GameMap:
        """Rebuild the map from the embedded text (checked against the hash)."""
        return _rebuild_map(self, None)

    def to_json(self) -> JSONObject:
        """The full record as plain JSON data, private ``stderr`` included."""
        data = self.public_json()
        data["stderr"] = list(self.stderr) or [""] * self.num_players
        return data

    def public_json(self) -> JSONObject:
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
    if t.cpu:
        out["cpu"] = {str(s): v for s, v in t.cpu.items()}
    if t.late:
        out["late"] = {str(s): v.to_json() for s, v in t.late.items()}
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


def clean_pv(pv: Any, to_json: Any, cut: Any = 0) -> dict[str, Any]:
    """A bot's principal variation as a turn's ``info`` keeps it (:data:`PV_KEYS`).

    ``pv`` is a sequence of game moves, ``to_json`` the game's ``move_to_json``.  The
    variation ends at the first move ``to_json`` refuses (or that is not plain JSON),
    and after :data:`~atlas.limits.MAX_PV_MOVES` moves; ``pv_cut`` counts the moves
    dropped, on top of ``cut`` (those an external program's reader dropped already).
    Returns ``{}`` when there is no variation and nothing was cut.

    Examples
    --------
    >>> clean_pv([1, 2, "x", 4], lambda m: int(m))
    {'pv': [1, 2], 'pv_cut': 2}
    """
    if isinstance(cut, bool) or not isinstance(cut, int) or cut < 0:
        cut = 0
    if pv is None or isinstance(pv, (str, bytes)) or not isinstance(pv, Sequence):
        return {"pv_cut": cut} if cut else {}
    moves: list[Any] = []
    for m in pv[:MAX_PV_MOVES]:
        try:
            j = _plain(to_json(m))
            json.dumps(j, allow_nan=False)
        except Exception:  # a bot's move that is not one of the game's: the line ends
            break
        if j is None:
            break
        moves.append(j)
    cut += len(pv) - len(moves)
    out: dict[str, Any] = {}
    if moves:
        out["pv"] = moves
    if cut:
        out["pv_cut"] = int(cut)
    return out


def machine_free(record: Record) -> Record:
    """``record`` without what the machine, not the game, decided for its seats played at
    fixed effort (:attr:`PlayerEntry.effort`): their answers' seconds, CPU seconds and
    late entries.  A game at fixed effort is a function of its map, players, efforts,
    seed and rules; what a site publishes of it is then the same on any machine.
    Records whose seats all play by the clock come back as they are."""
    fixed = {seat for seat, p in enumerate(record.players) if p.effort}
    if not fixed:
        return record

    def keep(values: Mapping[PlayerId, Any]) -> dict[PlayerId, Any]:
        return {s: v for s, v in values.items() if s not in fixed}

    turns = tuple(
        replace(t, times=keep(t.times), cpu=keep(t.cpu), late=keep(t.late))
        for t in record.turns
    )
    return replace(record, turns=turns)


def _player_json(p: PlayerEntry) -> dict[str, Any]:
    out: dict[str, Any] = {"name": p.name, "kind": p.kind}
    for key in ("command", "bot", "digest", "effort"):
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
    effort = p.get("effort")
    return PlayerEntry(
        str(p["name"]),
        str(p.get("kind", "builtin")),
        command,
        p.get("bot"),
        p.get("digest"),
        None if effort is None else int(effort),
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
        cpu: Mapping[PlayerId, float] | None = None,
        late: Mapping[PlayerId, Late] | None = None,
    ) -> None:
        """Record one turn's moves (game moves, ``None`` = no valid answer), times,
        what bots said about their moves (kept through :func:`clean_info`), the CPU
        seconds of each answer and the late answers' :class:`Late` readings."""
        to_json = self.game.move_to_json
        jm = {
            int(s): (None if m is None else _plain(to_json(m)))
            for s, m in sorted(moves.items())
        }
        jt = {int(s): float(t) for s, t in sorted((times or {}).items())}
        ji: dict[int, dict[str, Any]] = {}
        for s, raw in sorted((info or {}).items()):
            said: dict[str, Any] = dict(clean_info(raw))
            if isinstance(raw, Mapping):
                said.update(clean_pv(raw.get("pv"), to_json, raw.get("pv_cut", 0)))
            if said:
                ji[int(s)] = said
        jc = {
            int(s): round(max(0.0, float(c)), 6)
            for s, c in sorted((cpu or {}).items())
            if math.isfinite(c)
        }
        jl = {int(s): v for s, v in sorted((late or {}).items())}
        self.turns.append(TurnRecord(jm, jt, ji, jc, jl))

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


@lru_cache(maxsize=64)
def _parsed_map(game: str, name: str, text: str) -> tuple[GameMap, str]:
    """A record's embedded map and its hash: parsed once for the many records (and the
    many calls of one record's :meth:`Record.game_map`) that embed the same map; a
    :class:`GameMap` is immutable, so one copy serves them all."""
    game_map = parse_map(text, game=game, name=name)
    return game_map, game_map.content_hash


def _rebuild_map(record: Record, path: str | os.PathLike[str] | None) -> GameMap:
    try:
        game_map, digest = _parsed_map(record.game, record.map.name, record.map.text)
    except MapFormatError as exc:
        raise RecordError(f"the embedded map does not parse: {exc}", path=path) from None
    if digest != record.map.hash:
        raise RecordError(
            f"map hash mismatch: the embedded map {record.map.name!r} hashes to "
            f"{digest[:12]}..., the record says "
            f"{record.map.hash[:12]}...",
            path=path,
        )
    return game_map


def _short(value: Any) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
