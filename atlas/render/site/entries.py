"""What a build knows of each map and each game (:class:`MapEntry`,
:class:`GameEntry`): the stages of :mod:`atlas.render.site.build` fill them in, the
pages (:mod:`atlas.render.site.pages`) read them.

A game keeps its record's head (:class:`RecordHead`: who played, the result, the number
of turns: what lists, standings and the site index need) and loads the whole record
only when something needs its turns (its replay, its page), so a rebuild of a site of
many games holds and reads little more than their heads.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...errors import located
from ...maps import GameMap
from ...sim.base import Outcome, reason_of, status_of
from ...sim.records import MapRef, PlayerEntry, SeatStatus
from ..viewer import interest_of
from .cache import Cache, content_key
from .output import SiteWriter

__all__ = ["MapEntry", "GameEntry", "RecordHead", "TurnCount", "BuildContext", "progress_bar"]


@dataclass
class MapEntry:
    """A map as the site shows it."""

    game: str
    name: str
    slug: str
    path: str
    text: str = ""
    game_map: GameMap | None = None
    #: Why the map cannot be read, as its pages show it (``line 3: ...``).
    error: str | None = None
    #: The line of the file the error points at, when it points at one.
    error_line: int | None = None
    summary: dict[str, Any] = field(default_factory=dict)
    figures: dict[str, Any] = field(default_factory=dict)
    chambers: list[dict[str, Any]] = field(default_factory=list)
    images: dict[str, str] = field(default_factory=dict)
    validation: dict[str, Any] | None = None
    #: The file as the pages name it (from its folder:
    #: :func:`~atlas.render.site.sources.shown_paths`).
    shown_path: str = ""
    #: The validation report's file in the site (``validation/SLUG.json``).
    report_file: str | None = None
    games: list[GameEntry] = field(default_factory=list)
    featured: GameEntry | None = None
    overlays: list[tuple[str, str]] = field(default_factory=list)
    #: The map's fairness section (:func:`atlas.render.site.fairness.section_data`).
    fairness: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.game_map is not None

    @property
    def reason(self) -> str:
        """The error without its line (:attr:`error_line` holds it)."""
        text = self.error or ""
        prefix = located(None, self.error_line, "")
        if self.error_line is not None and text.startswith(prefix):
            return text[len(prefix) :]
        return text

    @property
    def valid(self) -> bool:
        return self.ok and (self.validation is None or bool(self.validation.get("valid")))

    @property
    def page(self) -> str:
        return f"maps/{self.slug}.html"


class TurnCount:
    """The turns of a :class:`RecordHead`: their number only (``len``, truth), never
    the turns themselves, which only the whole record holds."""

    __slots__ = ("n",)

    def __init__(self, n: int) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __bool__(self) -> bool:
        return self.n > 0

    def __iter__(self) -> Iterator[Any]:
        raise TypeError("a record's head counts its turns only: load the whole record")

    def __getitem__(self, i: Any) -> Any:
        raise TypeError("a record's head counts its turns only: load the whole record")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TurnCount) and other.n == self.n

    def __hash__(self) -> int:
        return hash(self.n)


@dataclass(frozen=True)
class RecordHead:
    """What lists, standings and the site index need of a record, without its turns:
    the fields of :class:`atlas.sim.records.Record` of the same names (``map.text`` is
    empty, ``turns`` a :class:`TurnCount`)."""

    game: str
    map: MapRef
    params: Mapping[str, Any]
    players: tuple[PlayerEntry, ...]
    seed: int
    turns: TurnCount
    result: Outcome
    statuses: tuple[SeatStatus, ...]

    @property
    def num_players(self) -> int:
        return len(self.players)

    @classmethod
    def of(cls, record: Any) -> RecordHead:
        """The head of a whole record."""
        return cls(
            record.game,
            MapRef(record.map.name, record.map.hash, ""),
            dict(record.params),
            tuple(record.players),
            record.seed,
            TurnCount(len(record.turns)),
            record.result,
            tuple(record.statuses),
        )

    def to_json(self) -> dict[str, Any]:
        r = self.result
        return {
            "game": self.game,
            "map": [self.map.name, self.map.hash],
            "params": dict(self.params),
            "players": [
                [p.name, p.kind, p.command, p.bot, p.digest, p.effort] for p in self.players
            ],
            "seed": self.seed,
            "turns": len(self.turns),
            "result": [r.winner, str(r.reason), list(r.scores), r.detail],
            "statuses": [[str(s.status), s.turn, s.detail] for s in self.statuses],
        }

    def to_row(self, digest: str, parts: dict[str, Any]) -> list[Any]:
        """The head as a row of the build's index of records (:meth:`from_row`):
        ``[digest, game, map, params, players, seed, turns, ends]``, where ``digest``
        is the record's content key and the map, the parameters, the players and the
        ends (result and statuses) are keys of parts put into ``parts`` (key -> JSON),
        which a season's heads share: a few maps, a pairing a part, one part for each
        result's text."""
        data = self.to_json()
        keys = []
        for kind, part in zip(ROW_PARTS, (data["map"], data["params"], data["players"])):
            keys.append(_part_key(kind, part, parts))
        ends = _part_key("e", [data["result"], data["statuses"]], parts)
        return [digest, self.game, *keys, self.seed, len(self.turns), ends]

    @classmethod
    def from_row(
        cls, row: Any, parts: Mapping[str, Any], made: dict[str, Any]
    ) -> tuple[RecordHead, str] | None:
        """The head and the content key of a row :meth:`to_row` wrote, its parts read
        from ``parts``; None when the row or a part it names is damaged (a reader then
        reads the record again).  ``made`` (a dict the caller keeps across calls) holds
        each part made already, so that a season's heads share them (they are frozen
        values)."""
        if type(row) is not list or len(row) != 8:
            return None
        digest, game, where, params, players, seed, turns, ends = row
        if not (type(digest) is type(game) is str and type(seed) is type(turns) is int):
            return None
        got = []
        for key in (where, params, players, ends):
            if type(key) is not str or len(key) != PART_KEY_LENGTH:
                return None
            part = made.get(key)
            if part is None:
                part = _make_part(key, parts.get(key), made)
                if part is None:
                    return None
                made[key] = part
            got.append(part)
        where, params, players, ends = got
        if not (
            type(where) is MapRef
            and type(params) is dict
            and type(players) is tuple
            and type(ends) is _Ends
        ):
            return None  # a part of another kind where the row names it
        # the fields set as the frozen dataclass's __init__ sets them, at half its cost
        # (a season reads 100,000 heads from its index)
        head = _new(cls)
        head.__dict__.update(
            game=game,
            map=where,
            params=params,
            players=players,
            seed=seed,
            turns=TurnCount(turns),
            result=ends[0],
            statuses=ends[1],
        )
        return head, digest


_new = object.__new__

#: The length of a part's key: its kind, then 24 hex digits.
PART_KEY_LENGTH = 25

#: The kinds of a row's shared parts, before its ends (``"e"``): each part's key starts
#: with its kind (:meth:`RecordHead.to_row`).
ROW_PARTS = ("m", "a", "p")


class _Ends(tuple[Any, ...]):
    """A head's result and statuses, as one part of the index (:meth:`RecordHead.from_row`)."""


def _part_key(kind: str, part: Any, parts: dict[str, Any]) -> str:
    """The key of a part of a head's row (its kind, then a digest of its JSON, which
    tells a score of 1 from one of 1.0), the part put into ``parts`` under it."""
    key = kind + content_key("head-part", kind, part)[: PART_KEY_LENGTH - 1]
    parts[key] = part
    return key


#: The key under which :meth:`RecordHead.from_row`'s ``made`` keeps each player made
#: (by its fields), so that the pairings share their players, as the records do (no
#: part's key: those are a kind and 24 hex digits).
PLAYERS_MADE = "players"


def _make_part(key: str, data: Any, made: dict[str, Any]) -> Any:
    """The part ``data`` of the kind its ``key`` names, or None when it is not one;
    players come from ``made`` when made already (:data:`PLAYERS_MADE`)."""
    kind = key[:1]
    try:
        if kind == "m":
            name, hash_ = data
            if type(name) is type(hash_) is str:
                return MapRef(name, hash_, "")
        elif kind == "a":
            if type(data) is dict:
                return data
        elif kind == "p":
            if type(data) is list and all(type(p) is list for p in data):
                players = made.setdefault(PLAYERS_MADE, {})
                seats = []
                for p in data:
                    fields = tuple(p)
                    entry = players.get(fields)
                    if entry is None:
                        entry = players[fields] = PlayerEntry(*p)
                    seats.append(entry)
                return tuple(seats)
        elif kind == "e":
            (winner, reason, scores, detail), statuses = data
            return _Ends(
                (
                    Outcome(winner, reason_of(reason), tuple(scores), detail),
                    tuple([SeatStatus(status_of(st), turn, d) for st, turn, d in statuses]),
                )
            )
    except (KeyError, TypeError, ValueError):
        return None
    return None


#: What the build's index of every game's meta data keeps: what picks each map's
#: featured game and sizes its record for its page's link.  The rest, which only the
#: pages written (the game's own, and the sentence on a featured game) need, is in the
#: game's own cache entry (:meth:`GameEntry.whole_meta`): a season's index of whole
#: meta data was 75 MB of JSON, read by every build, and 29 MB with the charts' names
#: and the timing flags.
INDEXED_META = ("interest", "record_bytes")


def meta_row(meta: Mapping[str, Any]) -> list[Any] | None:
    """What the index of every game's meta data keeps of ``meta`` (:data:`INDEXED_META`)
    as a row of five values: ``[clean, comeback, decisive, turns, record_bytes]``
    (a season's 100,000 rows read in a quarter of the time of as many small objects);
    None when ``meta`` lacks them (the game's own cache entry then stands alone).

    >>> meta = {"interest": {"clean": True, "comeback": 0.25, "decisive": True,
    ...     "turns": 9, "key": [1, 0.25, 1, 9]}, "record_bytes": 700, "series": []}
    >>> meta_row(meta)
    [True, 0.25, True, 9, 700]
    >>> meta_of_row(meta_row(meta)) == {k: meta[k] for k in INDEXED_META}
    True
    """
    it = meta.get("interest")
    size = meta.get("record_bytes")
    if not isinstance(it, dict) or type(size) is not int:
        return None
    row: list[Any] = [it.get(k) for k in ("clean", "comeback", "decisive", "turns")]
    row.append(size)
    again = meta_of_row(row)
    return row if again is not None and again["interest"] == it else None


def meta_of_row(row: Any) -> dict[str, Any] | None:
    """The meta data a row of :func:`meta_row` keeps (``interest`` whole, its ``key``
    made again, and ``record_bytes``); None for a row that is not one (a damaged
    index: the game's own cache entry is read instead)."""
    if type(row) is not list or len(row) != 5:
        return None
    clean, comeback, decisive, turns, size = row
    if not (
        type(clean) is bool
        and type(decisive) is bool
        and type(comeback) in (float, int)
        and type(turns) is int
        and type(size) is int
    ):
        return None
    return {"interest": interest_of(clean, comeback, decisive, turns), "record_bytes": size}


@dataclass
class GameEntry:
    """A played game as the site shows it.

    ``head`` is what lists and standings read (:class:`RecordHead`); :attr:`record`,
    the whole record, is loaded when first asked for (``loader``) unless it was given.
    ``meta`` holds what the index and the lists need without the viewer data:
    ``interest`` (:func:`atlas.render.viewer.interest`) and ``record_bytes``; and,
    once :meth:`whole_meta` has read them for a page written, ``has_info``,
    ``has_cpu``, ``series`` (the charted measures' names and units), ``turns_text``,
    ``turning``, ``overlays`` and ``failures`` (a game drawn by this build has them
    all).  ``viewer`` (the packed viewer data) is read from the
    cache when the game's page is written (:meth:`viewer_data`).
    """

    ident: str
    head: RecordHead
    origin: str = "tournament"
    map_slug: str | None = None
    gif: str | None = None
    viewer: dict[str, Any] | None = None
    digest: str = ""
    #: Derived from the drawing (``replay_key``), whole or the index's part: not
    #: compared.
    meta: dict[str, Any] = field(default_factory=dict, compare=False)
    replay_key: str | None = None
    record_file: str | None = None
    record_kb: int = 0
    refused: bool = False
    #: The organiser's tournament (``atlas build --tournament DIR``) the game belongs to.
    event: str | None = None
    #: Why the tournament voided the game (lost on time while the machine was loaded:
    #: :func:`atlas.arena.timing.void_reason`), or ``None`` when it counts.
    voided: str | None = None
    #: The record's file as the user named it (``--records DIR`` or a tournament's
    #: folder as given, then the file's path in it); None for a game the build played.
    source: str | None = None
    loader: Callable[[], Any] | None = field(default=None, repr=False, compare=False)
    _record: Any = field(default=None, repr=False, compare=False)
    _cache: Any = field(default=None, repr=False, compare=False)
    #: Whether ``meta`` is the index's part alone (:data:`INDEXED_META`), the rest in
    #: the game's own cache entry (:meth:`whole_meta`).
    meta_part: bool = field(default=False, repr=False, compare=False)

    def whole_meta(self) -> dict[str, Any]:
        """``meta`` with what only the pages written need (``series``, ``has_cpu``,
        ``turning``, ``turns_text``, ``overlays``, ``failures``...), read from the game's
        own cache entry when ``meta`` came from the build's index of every game (a
        season's index holds only :data:`INDEXED_META`)."""
        if self.meta_part and self._cache is not None and self.replay_key:
            whole = self._cache.get_json("meta", self.replay_key)
            if isinstance(whole, dict):
                self.meta = {**whole, **self.meta}
        self.meta_part = False
        return self.meta

    def part_meta(self) -> None:
        """Let go of what :meth:`whole_meta` read (a big site's pages are written one
        at a time; the index's part stays)."""
        self.meta = {k: self.meta[k] for k in INDEXED_META if k in self.meta}
        self.meta_part = True

    @property
    def record(self) -> Any:
        """The whole record (:class:`atlas.sim.records.Record`), loaded on first use."""
        if self._record is None:
            if self.loader is None:
                raise ValueError(f"game {self.ident}: no record to load")
            self._record = self.loader()
        return self._record

    def record_once(self) -> Any:
        """The whole record, without keeping it when it had to be loaded (a site of
        many saved games reads each where it is needed, not all of them at once)."""
        if self._record is not None or self.loader is None:
            return self.record
        return self.loader()

    def forget_record(self) -> None:
        """Let the whole record go (it is loaded again if asked for), when it can be."""
        if self.loader is not None:
            self._record = None

    @property
    def page(self) -> str:
        return f"games/{self.ident}.html"

    @property
    def has_info(self) -> bool:
        return bool(self.meta.get("has_info"))

    @property
    def has_cpu(self) -> bool:
        """Whether the record keeps its answers' CPU times (records made before they
        were recorded do not)."""
        return bool(self.meta.get("has_cpu"))

    @property
    def drawn(self) -> bool:
        """Whether the replay could be drawn (its viewer data exists; a GIF only when
        the build publishes it: ``atlas build --gifs``)."""
        return bool(self.meta) and not self.refused

    def viewer_data(self) -> dict[str, Any] | None:
        """The packed viewer data (from memory or the cache)."""
        if self.viewer is None and self._cache is not None and self.replay_key:
            self.viewer = self._cache.get_json("viewer", self.replay_key)
        return self.viewer


@dataclass
class BuildContext:
    """What the stages of one build share: the site being written, the content cache,
    the code versions their keys hold, and whether to draw progress bars."""

    out: SiteWriter
    cache: Cache
    version: dict[str, str]
    progress: bool = False


def progress_bar(
    items: Iterable[Any], desc: str, progress: bool, total: int | None = None
) -> Any:
    """``items``, with a progress bar on standard error when ``progress``."""
    if not progress:
        return items
    from ...progress import progress_bar_of

    return progress_bar_of(
        items, desc=desc, total=total, unit="", leave=False, file=sys.stderr, dynamic_ncols=True
    )
