"""Is a map fair to its seats?  Exact facts and played evidence (``atlas fairness``).

A fairness report (:class:`FairnessReport`) has two parts:

**Structure**, exact and instant (:func:`structure`): the symmetries of the board that
carry the walls onto themselves and each start onto another seat's start
(:func:`atlas.analysis.symmetry.board_symmetries`), the classes of seats they relate,
and the facts the game itself gives (``GAME.fairness_facts``: tron's Voronoi balance
and chamber and parity bounds, whether Outpost's quarters rotate).

**Evidence**, played (:func:`evidence`): games between the same players in every
rotation of their seats (both seatings of a two-player pairing, the four rotations of
an Outpost table; one seating when one bot sits everywhere), ``N`` groups of them
(:func:`fairness_specs`), the group's games sharing a seed.  Each seat's score is the
mean over the groups of its mean score in the group, with a 95 % interval computed
over the groups, not the games (:mod:`atlas.arena.paired`: the pentanomial model of
chess engine testers).  Each seat's first moves may be random (``opening``, drawn from
the seed, the same in every game of a group), so that deterministic bots do not play
the same game for every seed.

**The verdict** (:func:`verdict_of`, the rule :data:`RULE`): ``favours seat K`` when seat
K's interval lies above an even share of the points, ``balanced`` when every seat's
interval lies within :data:`MARGIN` (5 points) of it, ``undecided`` otherwise; always
with the number of games behind it.

Games run as a tournament's do (:func:`atlas.arena.tournament.run_games`: the local
pool or Dask); a caller passes ``play`` to look games up in a cache first (the CLI and
the site use the build's cache, so a rerun plays nothing new).
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from ..analysis.symmetry import board_symmetries, seat_classes
from ..errors import AtlasError
from ..maps import GameMap, format_map, read_map
from ..sim import get_game
from ..sim.records import Record
from ..types import JSONObject, JSONValue
from .paired import METHOD, paired_interval
from .players import Player, parse_player
from .standings import is_error
from .tournament import GameSpec

__all__ = [
    "DEFAULT_GAMES",
    "DEFAULT_OPENING",
    "DEFAULT_TIME",
    "MARGIN",
    "RULE",
    "SeatScore",
    "Structure",
    "Pairing",
    "pairing_text",
    "Evidence",
    "FairnessReport",
    "structure",
    "default_players",
    "seat_rotations",
    "fairness_specs",
    "group_games",
    "evidence",
    "verdict_of",
    "map_fairness",
    "map_files",
    "fairness_report",
]

#: Groups of games per map (``atlas fairness --games``): games per seating.
DEFAULT_GAMES = 10
#: Random moves each seat opens with (``--opening``).
DEFAULT_OPENING = 2
#: Seconds per move (``--time``).
DEFAULT_TIME = 0.1
#: How far from an even share every seat's interval may reach for ``balanced``.
MARGIN = 0.05
#: The verdict rule, as reports state it.
RULE = (
    "'favours seat K' when seat K's 95 % interval lies wholly above an even share; "
    "'balanced' when every seat's interval lies within 5 points of an even share; "
    "otherwise 'undecided'"
)

#: A function that plays game specs and returns their records, in order.
Play = Callable[[Sequence[GameSpec]], Sequence[Record]]


@dataclass(frozen=True)
class SeatScore:
    """One seat's share of the points, with its 95 % interval.

    Attributes
    ----------
    seat : int
        The seat, 1-based (as players are numbered).
    score : float or None
        The seat's mean score, in ``[0, 1]`` (``None`` with no games).
    low, high : float
        The 95 % interval over the groups (``0`` and ``1`` with no games).
    wins : int
        Games the seat won outright.
    """

    seat: int
    score: float | None
    low: float
    high: float
    wins: int = 0

    def to_json(self) -> JSONObject:
        return {
            "seat": self.seat,
            "score": None if self.score is None else round(self.score, 4),
            "low": round(self.low, 4),
            "high": round(self.high, 4),
            "wins": self.wins,
        }


@dataclass(frozen=True)
class Structure:
    """The exact part of a report: what the board itself says.

    Attributes
    ----------
    symmetries : tuple of str
        Those of :data:`atlas.analysis.symmetry.SYMMETRIES` that carry the walls onto
        themselves and each start onto another seat's start.
    seat_classes : tuple of tuple of int
        Seats (1-based) that the board's symmetries carry onto each other.
    facts : tuple of dict
        The game's own facts (``GAME.fairness_facts``).
    notes : tuple of str
        Sentences on what the structure cannot settle (turn order).
    """

    symmetries: tuple[str, ...] = ()
    seat_classes: tuple[tuple[int, ...], ...] = ()
    facts: tuple[dict[str, Any], ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def seats_alike(self) -> bool:
        """Whether the board's symmetries relate every seat to every other."""
        return len(self.seat_classes) == 1 and len(self.seat_classes[0]) > 1

    def to_json(self) -> JSONObject:
        return {
            "symmetries": list(self.symmetries),
            "seat_classes": [list(c) for c in self.seat_classes],
            "facts": [dict(f) for f in self.facts],
            "notes": list(self.notes),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Structure:
        """Inverse of :meth:`to_json` (a cached structure)."""
        return cls(
            tuple(str(x) for x in data["symmetries"]),
            tuple(tuple(int(s) for s in c) for c in data["seat_classes"]),
            tuple(dict(f) for f in data["facts"]),
            tuple(str(x) for x in data["notes"]),
        )


@dataclass(frozen=True)
class Pairing:
    """Games of one seating class (the players in their first rotation) at one setting.

    Attributes
    ----------
    players : tuple of str
        The players' names, seat 1 first, in the group's first game.
    groups : int
        Groups of this pairing counted.
    time_limit : float
        Seconds per move.
    opening : int
        Random moves each seat opened with.
    size : int
        Games in each of its groups (the distinct rotations of its seating).
    efforts : tuple of (str, int)
        The players that played at a fixed effort per move, not by the clock.
    """

    players: tuple[str, ...]
    groups: int
    time_limit: float
    opening: int
    size: int = 1
    efforts: tuple[tuple[str, int], ...] = ()

    def to_json(self) -> JSONObject:
        return {
            "seats": list(self.players),
            "groups": self.groups,
            "group_size": self.size,
            "time": self.time_limit,
            "opening": self.opening,
            **({"efforts": [list(e) for e in self.efforts]} if self.efforts else {}),
        }


@dataclass(frozen=True)
class Evidence:
    """The played part of a report.

    Attributes
    ----------
    seats : tuple of SeatScore
    even : float
        An even share of the points (the mean of each game's total over the seats).
    games, groups : int
        Games counted, and the groups of seat-swapped games they form.
    group_size : int
        Games in a group (the distinct rotations of the seating), when every group has
        as many; 0 when they differ (pairs of two bots beside games of one bot).
    draws : int
        Counted games without a winner.
    length : tuple of (median, shortest, longest) turns, or None
    left_out : int
        Games played but not counted: failed to run, or their group is incomplete.
    distinct : int
        Counted games that differ in their moves (the rest repeat one of them).
    pairings : tuple of Pairing
        The players of each seating class, at each time and opening, and its groups.
    verdict : str
    favoured : tuple of int
        Seats (1-based) whose interval lies above an even share.
    games_of : tuple of tuple of str
        Each group's games, by the caller's ids (the site's game pages), when given.
    """

    seats: tuple[SeatScore, ...]
    even: float
    games: int = 0
    groups: int = 0
    group_size: int = 0
    draws: int = 0
    length: tuple[float, int, int] | None = None
    left_out: int = 0
    distinct: int = 0
    pairings: tuple[Pairing, ...] = ()
    verdict: str = "undecided"
    favoured: tuple[int, ...] = ()
    games_of: tuple[tuple[str, ...], ...] = ()

    @property
    def draw_rate(self) -> float | None:
        return self.draws / self.games if self.games else None


@dataclass(frozen=True, repr=False)
class FairnessReport:
    """A map's fairness report: symmetries, each seat's score, the verdict.

    Made by :func:`map_fairness` (:func:`atlas.fairness` gives one per map): ``game``,
    ``map``, ``path``, ``shape``, ``structure`` (``symmetries``, ``seat_classes``, the
    game's exact ``facts``), ``evidence`` (``seats``: each seat's score with its 95 %
    interval, ``draws``, ``games``, ``length``, ...), ``verdict``, ``method`` and
    ``rule``.  :meth:`to_json` is one object of ``atlas fairness --json``,
    :meth:`text` what it prints otherwise; in Jupyter a report is a table.
    """

    game: str
    map: str
    path: str | None
    shape: tuple[int, int]
    structure: Structure
    evidence: Evidence
    time_limit: float | None = None
    opening: int = 0
    params: Mapping[str, JSONValue] = field(default_factory=dict)
    method: str = METHOD
    rule: str = RULE

    @property
    def verdict(self) -> str:
        """``"favours seat K"``, ``"balanced"`` or ``"undecided"`` (``docs/fairness.md``)."""
        return self.evidence.verdict

    @classmethod
    def of(cls, report: FairnessReport) -> FairnessReport:
        """``report`` itself (once the API's own subclass made from the report).

        .. deprecated:: 0.2
           A report is an :class:`atlas.FairnessReport` already.
        """
        from ..deprecation import warn_deprecated

        warn_deprecated("atlas.FairnessReport.of", since="0.2", instead="the report itself")
        return report

    @property
    def symmetries(self) -> tuple[str, ...]:
        """The board's symmetries that carry each start onto another seat's start."""
        return self.structure.symmetries

    @property
    def seats(self) -> tuple[SeatScore, ...]:
        """Each seat's score with its 95 % interval (``score`` ``None`` with no games)."""
        return self.evidence.seats

    @property
    def games(self) -> int:
        """Games counted (0: the structure alone)."""
        return self.evidence.games

    def text(self) -> str:
        """The report as ``atlas fairness`` prints it."""
        return self.format_text()

    def _summary(self) -> str:
        """One line: ``tron map 'shaft': favours seat 1 (2 games); symmetries rot180;
        seat 1 1.00 [0.34, 1.00], seat 2 ...``."""
        seats = ", ".join(
            f"seat {s.seat} -"
            if s.score is None
            else f"seat {s.seat} {s.score:.2f} [{s.low:.2f}, {s.high:.2f}]"
            for s in self.evidence.seats
        )
        return (
            f"{self.game} map {self.map!r}: {self.verdict} ({self.evidence.games} games); "
            f"symmetries {', '.join(self.structure.symmetries) or 'none'}; {seats}"
        )

    def _repr_html_(self) -> str | None:
        from ..display import show

        found: str | None = show("fairness-html", [self])
        return found

    def __repr__(self) -> str:
        return f"<atlas.FairnessReport {self._summary()}>"

    def to_json(self) -> JSONObject:
        """The report as JSON data: ``map``, ``game``, ``symmetries``, ``seats`` (``{seat,
        score, low, high, wins}``), ``draws``, ``games``, ``verdict``, ``method`` and
        the rest (see ``docs/fairness.md``)."""
        s, e = self.structure, self.evidence
        return {
            "map": self.map,
            "game": self.game,
            "path": self.path,
            "width": self.shape[1],
            "height": self.shape[0],
            "symmetries": list(s.symmetries),
            "seat_classes": [list(c) for c in s.seat_classes],
            "facts": [dict(f) for f in s.facts],
            "notes": list(s.notes),
            "seats": [x.to_json() for x in e.seats],
            "even": round(e.even, 4),
            "games": e.games,
            "groups": e.groups,
            "group_size": e.group_size,
            "draws": e.draws,
            "draw_rate": None if e.draw_rate is None else round(e.draw_rate, 4),
            "length": None
            if e.length is None
            else {"median": e.length[0], "min": e.length[1], "max": e.length[2]},
            "distinct": e.distinct,
            "left_out": e.left_out,
            "players": [p.to_json() for p in e.pairings],
            "time": self.time_limit,
            "opening": self.opening,
            "params": dict(self.params),
            "verdict": e.verdict,
            "favoured": list(e.favoured),
            "method": self.method,
            "rule": self.rule,
        }

    def format_text(self) -> str:
        """A few aligned lines for people."""
        s, e = self.structure, self.evidence
        where = f" ({self.path})" if self.path else ""
        lines = [f'{self.game} map "{self.map}"{where}, {self.shape[1]} x {self.shape[0]}']

        def row(label: str, text: str) -> None:
            lines.append(f"  {label:<16} {text}")

        alike = ""
        if s.seat_classes:
            alike = (
                "  (seats alike: "
                + "; ".join(" = ".join(str(x) for x in c) for c in s.seat_classes)
                + ")"
            )
        row("symmetries", (", ".join(s.symmetries) or "none") + alike)
        for f in s.facts:
            if "seats" in f:
                vals = ", ".join(f"seat {i + 1} {v}" for i, v in enumerate(f["seats"]))
            else:
                vals = (
                    "yes"
                    if f.get("value") is True
                    else "no"
                    if f.get("value") is False
                    else str(f.get("value"))
                )
            row(
                str(f.get("label", f.get("key", ""))),
                vals + (f"  ({f['note']})" if f.get("note") else ""),
            )
        for note in s.notes:
            row("note", note)
        if e.games == 0:
            row("played", "no games" + (f" ({e.left_out} left out)" if e.left_out else ""))
        else:
            if e.group_size == 0:
                grouped = f"{e.groups} groups of seat-swapped games"
            elif e.group_size == 1:
                grouped = "each its own group"
            else:
                unit = "pairs" if e.group_size == 2 else f"groups of {e.group_size}"
                grouped = f"{e.groups} {unit}"
            rules = f", {self.params['compat']} rules" if "compat" in self.params else ""
            row("played", f"{e.games} games ({grouped}){rules}")
            for p in e.pairings:
                row("", pairing_text(p))
            for x in e.seats:
                assert x.score is not None
                row(
                    f"seat {x.seat}",
                    f"{x.score:.3f}  [{x.low:.3f}, {x.high:.3f}]  {x.wins} won",
                )
            row("draws", f"{e.draws} ({100 * (e.draw_rate or 0):.0f} %)")
            if e.length is not None:
                med, lo, hi = e.length
                row("length", f"median {med:g} turns, {lo}-{hi}")
            if e.distinct < e.games:
                k = e.games - e.distinct
                verb = "game repeats" if k == 1 else "games repeat"
                row("repeats", f"{k} {verb} another move for move")
            if e.left_out:
                row("left out", f"{e.left_out} games (failed, or their group incomplete)")
        row("verdict", f"{e.verdict} ({e.games} games)")
        return "\n".join(lines)


# --------------------------------------------------------------------------- structure


def structure(game_map: GameMap) -> Structure:
    """The exact part of a map's report: its symmetries, seat classes and the game's
    own facts (instant: a few passes over the board)."""
    info = get_game(game_map.game).info
    syms = board_symmetries(game_map.blocked, game_map.starts)
    classes = tuple(
        tuple(s + 1 for s in c) for c in seat_classes(game_map.blocked, game_map.starts)
    )
    facts = tuple(get_game(game_map.game).fairness_facts(game_map))
    notes = []
    if not info.simultaneous:
        notes.append(
            "the seats take turns, seat 1 first: no symmetry of the board evens out "
            "moving first"
        )
    if not game_map.starts:
        notes.append("the map has no start cells: the seats differ by turn order alone")
        classes = ()
    return Structure(tuple(syms), classes, facts, tuple(notes))


# --------------------------------------------------------------------------- games


def default_players(game: str) -> list[str]:
    """The strongest built-in bot of ``game`` (the last of its ``BOTS`` table), which
    plays every seat."""
    from ..bots.registry import bot_names

    return bot_names(game)[-1:]


def seat_rotations(players: Sequence[Any], num_players: int) -> list[tuple[Any, ...]]:
    """The distinct rotations of the seating that repeats ``players`` over
    ``num_players`` seats, in order.

    >>> seat_rotations(["a", "b"], 2)
    [('a', 'b'), ('b', 'a')]
    >>> seat_rotations(["a"], 2)
    [('a', 'a')]
    >>> seat_rotations(["a", "b"], 4)
    [('a', 'b', 'a', 'b'), ('b', 'a', 'b', 'a')]
    """
    if not players:
        raise ValueError("no players")
    if len(players) > num_players:
        raise ValueError(f"{len(players)} players for {num_players} seats")
    seating = tuple(players[i % len(players)] for i in range(num_players))
    out: list[tuple[Any, ...]] = []
    for k in range(num_players):
        rot = seating[k:] + seating[:k]
        if rot not in out:
            out.append(rot)
    return out


def fairness_specs(
    game_map: GameMap,
    players: Sequence[str | Player],
    games: int,
    *,
    params: Mapping[str, Any] | None = None,
    time_limit: float = DEFAULT_TIME,
    opening: int = DEFAULT_OPENING,
    depths: Mapping[str, int] | None = None,
    sandbox: bool = False,
    efforts: Mapping[str, int] | None = None,
) -> list[GameSpec]:
    """The games of a map's played evidence: ``games`` groups, group ``g`` every
    distinct rotation of the players' seating (:func:`seat_rotations`) with seed ``g``.

    Parameters
    ----------
    game_map : GameMap
    players : sequence of str or Player
        One to ``num_players`` players (spec strings or values), repeated over the
        seats; one player plays itself.
    games : int
        Groups (games per seating).
    params, time_limit, depths, sandbox, efforts
        As :class:`~atlas.arena.tournament.GameSpec` takes them.
    opening : int
        Random moves each seat opens with (:func:`atlas.arena.runner.play_game`).
    """
    n = get_game(game_map.game).info.num_players
    parsed = [parse_player(p) for p in players]
    spec = partial(
        GameSpec.on_map,
        game_map,
        text=format_map(game_map),
        params=params,
        depths=depths,
        efforts=efforts,
    )
    return [
        spec(seating, seed, time_limit=time_limit, sandbox=sandbox, opening=opening)
        for seed in range(int(games))
        for seating in seat_rotations(parsed, n)
    ]


def _group_key(spec: GameSpec) -> tuple[Any, ...]:
    """What the games of one group share: everything but the seating's rotation."""
    n = len(spec.players)
    names = [repr(p) for p in spec.players]
    canon = min(tuple(names[k:] + names[:k]) for k in range(n))
    return (
        spec.game,
        spec.map_text,
        spec.params,
        spec.time_limit,
        spec.depths,
        spec.sandbox,
        spec.opening,
        spec.seed,
        canon,
        spec.efforts,
    )


def group_games(
    played: Sequence[tuple[GameSpec, Record]],
) -> tuple[list[list[tuple[GameSpec, Record]]], int]:
    """The complete groups of seat-swapped games among ``played``, and how many games
    are left out.

    A group is the games of one seed, map, parameters and players in every distinct
    rotation of their seating (a pair for two seats).  A game that failed to run
    (:func:`~atlas.arena.standings.is_error`) leaves its group incomplete; a game met
    twice (one spec) counts once.  Each group lists its games in rotation order.
    """
    buckets: dict[tuple[Any, ...], dict[tuple[Any, ...], tuple[GameSpec, Record]]] = {}
    seen: set[str] = set()
    left = 0
    for spec, rec in played:
        if spec.key in seen:
            continue
        seen.add(spec.key)
        if is_error(rec):
            left += 1
            continue
        buckets.setdefault(_group_key(spec), {})[tuple(spec.players)] = (spec, rec)
    groups = []
    for games in buckets.values():
        first = next(iter(games))
        want = seat_rotations(list(first), len(first))
        if all(r in games for r in want):
            groups.append([games[r] for r in want])
            left += len(games) - len(want)
        else:
            left += len(games)
    return groups, left


def verdict_of(
    seats: Sequence[SeatScore], even: float, margin: float = MARGIN
) -> tuple[str, tuple[int, ...]]:
    """The verdict of :data:`RULE` and the seats whose interval lies above ``even``.

    >>> verdict_of([SeatScore(1, 0.7, 0.6, 0.8), SeatScore(2, 0.3, 0.2, 0.4)], 0.5)
    ('favours seat 1', (1,))
    >>> verdict_of([SeatScore(1, 0.5, 0.46, 0.54), SeatScore(2, 0.5, 0.46, 0.54)], 0.5)
    ('balanced', ())
    >>> verdict_of([SeatScore(1, 0.5, 0.4, 0.6), SeatScore(2, 0.5, 0.4, 0.6)], 0.5)
    ('undecided', ())
    """
    above = [s for s in seats if s.score is not None and s.low > even]
    if above:
        best = max(above, key=lambda s: (s.low, -s.seat))
        return f"favours seat {best.seat}", tuple(s.seat for s in above)
    eps = 1e-12
    if seats and all(
        s.score is not None and s.low >= even - margin - eps and s.high <= even + margin + eps
        for s in seats
    ):
        return "balanced", ()
    return "undecided", ()


def _moves_key(rec: Record) -> str:
    """The players and every move of a game: equal for games that repeat each other."""
    import json

    moves = [sorted((int(k), v) for k, v in t.moves.items()) for t in rec.turns]
    return json.dumps([[p.identity for p in rec.players], moves], default=str)


def evidence(
    groups: Sequence[Sequence[tuple[GameSpec, Record]]],
    num_players: int,
    *,
    left_out: int = 0,
    ids: Mapping[str, str] | None = None,
) -> Evidence:
    """Each seat's score with its interval, the draws, the games' lengths and the
    verdict, over complete ``groups`` (:func:`group_games`).

    ``ids`` maps a spec's key to the caller's id of its game (the site's game page), to
    list each group's games in :attr:`Evidence.games_of`.
    """
    games = [rec for g in groups for _, rec in g]
    n = num_players
    seats = []
    for seat in range(n):
        values = [sum(rec.result.scores[seat] for _, rec in g) / len(g) for g in groups]
        values = [min(1.0, max(0.0, v)) for v in values]
        ps = paired_interval(values)
        wins = sum(1 for rec in games if rec.result.winner == seat)
        seats.append(SeatScore(seat + 1, ps.mean, ps.low, ps.high, wins))
    even = statistics.fmean(sum(rec.result.scores) / n for rec in games) if games else 1.0 / n
    verdict, favoured = verdict_of(seats, even) if games else ("undecided", ())
    turns = [len(rec.turns) for rec in games]
    length = (float(statistics.median(turns)), min(turns), max(turns)) if turns else None
    pairings: dict[tuple[Any, ...], int] = {}
    for g in groups:
        first = g[0][0]
        key = (
            tuple(p.name for p in first.players),
            first.time_limit,
            first.opening,
            len(g),
            first.efforts,
        )
        pairings[key] = pairings.get(key, 0) + 1
    games_of: tuple[tuple[str, ...], ...] = ()
    if ids is not None:
        games_of = tuple(tuple(ids.get(spec.key, "") for spec, _ in g) for g in groups)
    return Evidence(
        tuple(seats),
        even,
        len(games),
        len(groups),
        len(groups[0]) if groups and len({len(g) for g in groups}) == 1 else 0,
        sum(1 for rec in games if rec.result.winner is None),
        length,
        left_out,
        len({_moves_key(rec) for rec in games}),
        tuple(Pairing(k[0], v, k[1], k[2], k[3], k[4]) for k, v in pairings.items()),
        verdict,
        favoured,
        games_of,
    )


def map_fairness(
    game_map: GameMap,
    played: Sequence[tuple[GameSpec, Record]] = (),
    *,
    time_limit: float | None = None,
    opening: int = 0,
    params: Mapping[str, Any] | None = None,
    ids: Mapping[str, str] | None = None,
    known: Structure | None = None,
) -> FairnessReport:
    """The fairness report of ``game_map`` from games already played on it (``played``:
    their specs and records; those not in a complete group are left out); ``known``,
    its structure when already known (:func:`structure` otherwise)."""
    n = get_game(game_map.game).info.num_players
    groups, left = group_games(played)
    ev = evidence(groups, n, left_out=left, ids=ids)
    return FairnessReport(
        game_map.game,
        game_map.name,
        None if game_map.source is None else str(game_map.source),
        (int(game_map.blocked.shape[0]), int(game_map.blocked.shape[1])),
        structure(game_map) if known is None else known,
        ev,
        time_limit,
        opening,
        dict(params or {}),
    )


def pairing_text(p: Pairing) -> str:
    """``12 pairs voronoi vs chambers, 0.1 s a move, first 2 moves random``.

    >>> pairing_text(Pairing(("a", "a"), 3, 0.1, 0, 1))
    '3 games a vs a, 0.1 s a move'
    >>> pairing_text(Pairing(("a", "b"), 1, 0.05, 2, 2))
    '1 pair a vs b, 0.05 s a move, first 2 moves random'
    >>> pairing_text(Pairing(("a", "a"), 2, 0.1, 0, 1, (("a", 40),)))
    '2 games a vs a, effort 40 a move'
    """
    unit = "pair" if p.size == 2 else "game" if p.size == 1 else f"group of {p.size}"
    opening = f", first {p.opening} moves random" if p.opening else ""
    if p.groups != 1:
        unit = unit.replace("group of", "groups of") if p.size > 2 else unit + "s"
    if p.efforts and {name for name, _ in p.efforts} >= set(p.players):
        levels = sorted({e for _, e in p.efforts})
        how = "effort " + "/".join(str(e) for e in levels) + " a move"
    elif p.efforts:
        fixed = ", ".join(f"{name} effort {e}" for name, e in p.efforts)
        how = f"{p.time_limit:g} s a move, {fixed}"
    else:
        how = f"{p.time_limit:g} s a move"
    return f"{p.groups} {unit} {' vs '.join(p.players)}, {how}{opening}"


def _compat_shown(game: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """``params`` with the effective ``compat`` word added when the game has one."""
    shown = dict(params)
    compat = get_game(game).info.param("compat")
    if compat is not None:
        shown["compat"] = compat.canonical(shown.get("compat", compat.default))
    return shown


def _efforts(game: str, players: Sequence[str | Player], scale: int) -> dict[str, int]:
    """Player name -> ``scale`` times its built-in bot's default effort (none for
    programs, none at all when ``scale`` is 0)."""
    from ..bots.registry import bot_efforts

    if scale <= 0:
        return {}
    table = bot_efforts(game, scale)
    out = {}
    for p in players:
        player = parse_player(p)
        if player.builtin is not None and player.builtin in table:
            out[player.name] = table[player.builtin]
    return out


def fairness_report(
    maps: Sequence[GameMap | str | os.PathLike[str]],
    *,
    bots: Sequence[str | Player] | None = None,
    games: int = DEFAULT_GAMES,
    time_limit: float = DEFAULT_TIME,
    params: Mapping[str, Any] | None = None,
    compat: str | None = None,
    opening: int = DEFAULT_OPENING,
    depths: Mapping[str, int] | None = None,
    jobs: int | None = None,
    scheduler: str | None = None,
    progress: bool = False,
    play: Play | None = None,
    problems: list[str] | None = None,
    effort: int = 0,
) -> list[FairnessReport]:
    """The fairness report of each map: its structure, and ``games`` groups of games
    played between ``bots`` in every rotation of their seats.

    Parameters
    ----------
    maps : sequence of GameMap or path
        Maps, or map files (read with :func:`atlas.maps.read_map`).
    bots : sequence of str or Player, optional
        One player per seat at most (built-in names, ``cmd:`` programs, ``NAME=...``),
        repeated over the seats (default: each game's strongest built-in bot,
        :func:`default_players`, in every seat).
    games : int
        Groups per map, that is games per seating (0: the structure alone).
    time_limit : float
        Seconds per move (of every seat by the clock; with ``effort``, of programs).
    params : mapping, optional
        Game parameters, the same for every map.
    effort : int
        When positive, built-in bots play at this many times their default effort per
        move (:func:`atlas.bots.registry.bot_efforts`), the same games on any machine;
        0 (the default here; ``atlas fairness`` gives 1 unless ``--time``): the clock.
    compat : str, optional
        ``"spec"`` (the documented rules) or ``"official"`` (the original engine's),
        for each map's game that has the parameter ``compat``; a game without it plays
        its one set of rules (``"official"`` is then a problem of that map).
    opening : int
        Random moves each seat opens with, drawn from the group's seed.
    depths : mapping, optional
        Player name -> fixed search depth (tests and the ladder: no clock).
    jobs, scheduler, progress
        How the games run (:func:`atlas.arena.tournament.run_games`).
    play : callable, optional
        ``play(specs) -> records`` in order, instead of running them all (a cache).
    problems : list of str, optional
        Where a map that cannot be read or played goes, as one line naming the file
        (and line); without it the first such error is raised.

    Returns
    -------
    list of FairnessReport
        One per map that could be read, in order.

    Raises
    ------
    AtlasError
        A map that cannot be read or played (a bad parameter, an unknown bot), unless
        ``problems`` is given.
    """
    from .tournament import run_games

    todo: list[tuple[GameMap, list[GameSpec], dict[str, Any]]] = []
    for item in maps:
        try:
            game_map = item if isinstance(item, GameMap) else read_map(Path(item))
            game = get_game(game_map.game)
            given = _with_compat(game_map.game, params, compat)
            checked = game.info.check_params(given)
            names = list(bots) if bots else default_players(game_map.game)
            _check_players(game_map.game, names, game.info.num_players)
            specs = fairness_specs(
                game_map,
                names,
                games,
                params=given,
                time_limit=time_limit,
                opening=opening,
                depths=depths,
                efforts=_efforts(game_map.game, names, effort),
            )
            game.initial_state(game_map, checked)  # a map its game cannot start on
        except (AtlasError, ValueError) as exc:
            if problems is None:
                raise
            where = item if not isinstance(item, GameMap) else item.source
            if where is None:  # a map read from text: named by its name
                where = f"map {item.name!r}" if isinstance(item, GameMap) else "map"
            text = str(exc)
            problems.append(text if str(where) in text else f"{where}: {text}")
            continue
        todo.append((game_map, specs, _compat_shown(game_map.game, given)))
    every = [s for _, specs, _ in todo for s in specs]
    if play is None:

        def play(specs: Sequence[GameSpec]) -> Sequence[Record]:
            return run_games(specs, jobs=jobs, scheduler=scheduler, progress=progress)

    records = list(play(every)) if every else []
    by_key = {s.key: r for s, r in zip(every, records)}
    out = []
    for game_map, specs, shown in todo:
        played = [(s, by_key[s.key]) for s in specs if s.key in by_key]
        out.append(
            map_fairness(game_map, played, time_limit=time_limit, opening=opening, params=shown)
        )
    return out


def map_files(given: Sequence[str | os.PathLike[str]], problems: list[str]) -> list[Path]:
    """The map files named in ``given``: a file as it is, a folder by the map files
    found under it (:func:`atlas.maps.scan_maps`: what its walk leaves out, a link out
    of the folder or a FIFO, is a line in ``problems``, as in a build); a folder with
    none is a line too (``atlas fairness`` and :func:`atlas.fairness` read their maps so)."""
    from ..maps import scan_maps

    out: list[Path] = []
    for item in given:
        path = Path(item)
        if path.is_dir():
            scan = scan_maps(item)
            found = list(scan.files)
            problems += [str(exc) for exc in scan.problems]
        else:
            found = [path]
        if not found:
            problems.append(f"{item}: a folder with no map files (*.txt) in it")
        out += found
    return out


def _with_compat(
    game: str, params: Mapping[str, Any] | None, compat: str | None
) -> dict[str, Any]:
    """``params`` with ``compat`` set as ``game`` spells it (:class:`ParamError` when
    the game has no such rules)."""
    from ..errors import ParamError
    from ..sim.base import SPEC

    out = dict(params or {})
    if compat is None:
        return out
    param = get_game(game).info.param("compat")
    if param is None:
        if compat != SPEC:
            raise ParamError(f"{game} has one set of rules, no {compat!r} variant")
        return out
    out["compat"] = param.default if compat == SPEC else param.canonical(compat)
    return out


def _check_players(game: str, names: Sequence[str | Player], seats: int) -> None:
    """At most ``seats`` players, each a program or a built-in bot of ``game``
    (:func:`~atlas.arena.players.check_specs`: the message ``atlas play`` prints)."""
    from ..errors import BotError
    from .players import check_specs

    if len(names) > seats:
        raise BotError(
            f"{len(names)} players for the {seats} seats of {game}: name at most {seats}"
        )
    check_specs(game, names)
