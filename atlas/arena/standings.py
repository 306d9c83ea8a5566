"""Standings: the one table of a set of games, for ``atlas tournament``, the site and
the ladder.

Players are told apart by the identity their records keep
(:attr:`PlayerEntry.identity <atlas.sim.records.PlayerEntry.identity>`: a built-in bot's
registered name, and the name a plan gives it; an external program's name and digest),
so a record cannot join a bot's row by choosing its name; the table shows each player's
name (made unique with its kind when two identities share one).  Two-seat games are
rated with Bradley-Terry on their results, games of more seats with Plackett-Luce on
their finishing orders (:mod:`atlas.arena.rating`); every rating has a 95 % bootstrap
interval and a rank range, and each row the likelihood that it is stronger than the next.

Games played in swapped seats are not independent: the games that share a map, a seed,
the parameters and the players (a seating and its mirror image, or an Outpost group's
rotations) are drawn together in the bootstrap, as one unit, and the standings say so
(:attr:`Standings.interval`).  Adjacent rows the games cannot separate (a likelihood of
superiority under 95 %) are named (:meth:`Standings.inseparable`).

Each row also has its *score*, the share of the points it took in its comparisons (for
two seats, its points over its games), with the 95 % interval of
:func:`atlas.arena.paired.paired_interval`: the same groups are its observations (the
pentanomial model of chess engine testers for seat-swapped pairs), so a pair won once
by each seat counts as one even result, not as two independent games.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from ..sim.records import PlayerEntry, Record
from ..types import JSONObject, JSONValue
from .paired import paired_interval
from .rating import (
    BOOTSTRAP_SAMPLES,
    Spread,
    bootstrap_ratings,
    duel_fit,
    pairwise_comparisons,
    plackett_luce_fit,
    ranking_of,
)

__all__ = [
    "StandingRow",
    "Standings",
    "standings",
    "ERROR_PREFIX",
    "is_error",
    "labels_of",
    "Interval",
    "pair_key",
    "SEPARATED",
    "SCORE_METHOD",
]

#: How a row's score interval is computed when games are grouped (the construction of
#: :func:`atlas.arena.paired.paired_interval`, which the fairness report uses for seats).
SCORE_METHOD = (
    "pentanomial: each group of seat-swapped games (a pair for two seats) is one "
    "observation, its value the bot's mean score in the group; 95 % score interval "
    "(Wilson's construction) with the variance of the group values"
)

#: A row is told apart from the next when it is stronger in at least this share of the
#: bootstrap's refits (its likelihood of superiority).
SEPARATED = 0.95

#: The results of a two-seat game's seats (0 won, 1 drawn, 2 lost) by its winner.
_TWO_SEATS: dict[int | None, tuple[int, int]] = {0: (0, 2), 1: (2, 0), None: (1, 1)}

#: The result detail of a game that could not be played starts with this.
ERROR_PREFIX = "error: "


def is_error(record: Record) -> bool:
    """Whether ``record`` stands for a game that could not be played."""
    return not record.turns and record.result.detail.startswith(ERROR_PREFIX)


@dataclass(frozen=True)
class StandingRow:
    """One player's line of the standings.

    ``bot`` is the name shown, ``identity`` what tells the player apart; ``low`` and
    ``high`` bound the rating (95 % bootstrap interval), ``rank_low`` and ``rank_high``
    its rank (1 = best; the ranks of the middle 95 % of the refits); ``los_next`` is
    the likelihood that this player is stronger than the next one of the table.
    ``score`` is its share of the points of its comparisons (in ``[0, 1]``; for two
    seats, points over games) and ``score_low``, ``score_high`` its 95 % interval over
    the groups of seat-swapped games (:func:`atlas.arena.paired.paired_interval`).
    """

    bot: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: float = 0.0
    rating: float = 1500.0
    low: float = 1500.0
    high: float = 1500.0
    los_next: float | None = None
    identity: str = ""
    rank_low: int = 1
    rank_high: int = 1
    score: float = 0.5
    score_low: float = 0.0
    score_high: float = 1.0


@dataclass(frozen=True)
class Interval:
    """How the standings' intervals were computed.

    ``units`` is ``"games"`` (each game drawn with replacement on its own) or
    ``"pairs"`` (games that share a map, a seed, the parameters and the players drawn
    together: seat-swapped pairs, or an Outpost group's rotations); ``pairs`` counts
    those groups, ``singles`` the games alone in theirs; ``samples`` the refits (0: no
    bootstrap, the intervals are the ratings themselves); ``seats`` the seats a game.
    """

    units: str = "games"
    pairs: int = 0
    singles: int = 0
    samples: int = 0
    seats: int = 2

    @property
    def text(self) -> str:
        """The method in one sentence, for the table, ``results.json`` and the pages."""
        if self.samples <= 0:
            return "no intervals (no bootstrap)"
        if self.units == "games":
            n = self.singles
            return (
                f"95 % Poisson bootstrap interval: the {n} game{'s' if n != 1 else ''} drawn "
                f"with replacement one by one, {self.samples} refits"
            )
        what, how = (
            ("seat-swapped pairs", "in both seats")
            if self.seats == 2
            else ("groups of rotated seatings", "in rotated seats")
        )
        rest = (
            f", and {self.singles} other game{'s' if self.singles != 1 else ''} one by one"
            if self.singles
            else ""
        )
        return (
            f"95 % Poisson bootstrap interval over {what}: the games played {how} (same map, "
            f"seed and players) are drawn together, {self.pairs} "
            f"{'pairs' if self.seats == 2 else 'groups'}{rest}, {self.samples} refits"
        )

    @property
    def score_text(self) -> str:
        """How the scores' intervals were computed, in one sentence."""
        if self.units == "games":
            return (
                "95 % score interval (Wilson's construction) over the games, each game "
                "one observation (no games played in swapped seats were paired)"
            )
        return SCORE_METHOD

    def to_json(self) -> JSONObject:
        return {
            "score_method": self.score_text,
            "method": "bootstrap" if self.samples > 0 else "none",
            "units": self.units,
            "pairs": self.pairs,
            "singles": self.singles,
            "samples": self.samples,
            "text": self.text,
        }


@dataclass(frozen=True, repr=False)
class Standings:
    """The standings of a set of games, with 95 % intervals (a table in Jupyter).

    Its ``repr`` and :meth:`text` are the table ``atlas tournament`` prints.

    Attributes
    ----------
    rows : tuple of StandingRow
        Best first: by rating, then points, then name.
    head_to_head : mapping
        ``head_to_head[a][b] = (wins, draws, losses)`` of player ``a`` against player
        ``b`` (in games of more than two seats: pairwise, by score), by shown name.
    errors : int
        Games that could not be played (left out of everything else).
    model : str
        ``"bradley-terry"`` or ``"plackett-luce"``.
    interval : Interval
        How the intervals, rank ranges and likelihoods of superiority were computed.
    voided : tuple of (int, str)
        Games left out because they were lost on time while the machine was loaded
        (``void_under_load`` of :func:`standings`): each game's position among the
        records given, and why (:func:`atlas.arena.timing.void_reason`).
    void_under_load : float or None
        The load a core above which such games were voided (``None``: none are).
    """

    rows: tuple[StandingRow, ...]
    head_to_head: Mapping[str, Mapping[str, tuple[int, int, int]]] = field(default_factory=dict)
    errors: int = 0
    model: str = "bradley-terry"
    interval: Interval = field(default_factory=Interval)
    voided: tuple[tuple[int, str], ...] = ()
    void_under_load: float | None = None

    @classmethod
    def of(cls, table: Standings) -> Standings:
        """``table`` itself (once the API's own subclass made from the standings).

        .. deprecated:: 0.2
           Standings are :class:`atlas.Standings` already.
        """
        from ..deprecation import warn_deprecated

        warn_deprecated("atlas.Standings.of", since="0.2", instead="the standings themselves")
        return table

    def text(self) -> str:
        """The table as ``atlas tournament`` prints it."""
        return self.format_table()

    def _repr_html_(self) -> str | None:
        from ..display import show

        found: str | None = show("standings-html", self)
        return found

    def __repr__(self) -> str:
        return self.format_table()

    def row(self, name: str) -> StandingRow:
        """The row of the player shown as ``name``."""
        return next(r for r in self.rows if r.bot == name)

    def inseparable(self) -> list[tuple[str, str]]:
        """Adjacent rows the games cannot separate: ``(a, b)`` where ``a`` is stronger
        than the next row ``b`` in fewer than :data:`SEPARATED` of the refits (none
        without a bootstrap: then nothing is claimed either way)."""
        if self.interval.samples <= 0:
            return []
        return [
            (r.bot, self.rows[k + 1].bot)
            for k, r in enumerate(self.rows[:-1])
            if r.los_next is not None and r.los_next < SEPARATED
        ]

    def separation_text(self) -> list[str]:
        """One sentence per pair of :meth:`inseparable` rows."""
        out = []
        for a, b in self.inseparable():
            los = self.row(a).los_next or 0.0
            out.append(
                f"the games cannot separate {a} and {b} ({a} is stronger in "
                f"{100 * los:.0f} % of the refits)"
            )
        return out

    def to_json(self) -> JSONObject:
        """The standings as JSON data: what ``atlas tournament --json`` prints under
        ``standings``."""
        rows: list[JSONValue] = []
        for r in self.rows:
            d = dict(vars(r))
            for k in ("rating", "low", "high"):
                d[k] = round(d[k], 2)
            for k in ("score", "score_low", "score_high"):
                d[k] = round(d[k], 4)
            if d["los_next"] is not None:
                d["los_next"] = round(d["los_next"], 4)
            rows.append(d)
        return {
            "model": self.model,
            "interval": self.interval.to_json(),
            "rows": rows,
            "inseparable": [list(p) for p in self.inseparable()],
            "head_to_head": {
                a: {b: list(v) for b, v in row.items()} for a, row in self.head_to_head.items()
            },
            "errors": self.errors,
            "void_under_load": self.void_under_load,
            "voided": len(self.voided),
        }

    def format_table(self) -> str:
        """The standings and the head-to-head table as plain text."""
        width = max([len(r.bot) for r in self.rows] + [3])
        lines = [
            f"{'#':>2}  {'bot':<{width}}  {'games':>5} {'W':>4} {'D':>4} {'L':>4} "
            f"{'points':>7} {'score':>18} {'rating':>7} {'95% interval':>13} {'ranks':>5} "
            f"{'LOS':>5}"
        ]
        for k, r in enumerate(self.rows, 1):
            los = "" if r.los_next is None else f"{100 * r.los_next:4.0f}%"
            ranks = (
                f"{r.rank_low}" if r.rank_low == r.rank_high else f"{r.rank_low}-{r.rank_high}"
            )
            lines.append(
                f"{k:>2}  {r.bot:<{width}}  {r.games:>5} {r.wins:>4} {r.draws:>4} "
                f"{r.losses:>4} {r.points:>7.1f} "
                f"{f'{r.score:.3f} [{r.score_low:.2f}, {r.score_high:.2f}]':>18} {r.rating:>7.0f} "
                f"{f'[{r.low:.0f}, {r.high:.0f}]':>13} {ranks:>5} {los:>5}"
            )
        lines.append(
            f"ratings: {self.model.replace('-', '–')}, Elo scale; ranks: the ranks of the "
            "middle 95 % of the refits; LOS: likelihood that the row is stronger than the next"
        )
        lines.append(f"intervals: {self.interval.text}")
        lines.append(f"scores: {self.interval.score_text}")
        lines += [f"{t[0].upper()}{t[1:]}." for t in self.separation_text()]
        names = [r.bot for r in self.rows]
        if len(names) > 1:
            lines += [
                "",
                "head to head: wins-draws-losses of each row against the column of that rank",
            ]
            cells = [
                [
                    (
                        "-"
                        if a == b
                        else "%d-%d-%d" % tuple(self.head_to_head.get(a, {}).get(b, (0, 0, 0)))
                    )
                    for b in names
                ]
                for a in names
            ]
            cw = max(len(c) for row in cells for c in row)
            lines.append(
                f"{'':>2}  {'':<{width}}  "
                + " ".join(f"{k:>{cw}}" for k in range(1, len(names) + 1))
            )
            for k, (a, row) in enumerate(zip(names, cells), 1):
                lines.append(f"{k:>2}  {a:<{width}}  " + " ".join(f"{c:>{cw}}" for c in row))
        if self.errors:
            lines.append(f"\n{self.errors} game(s) could not be played")
        if self.voided:
            lines.append(
                f"\n{len(self.voided)} game(s) voided, lost on time while the machine's "
                f"load was above {self.void_under_load:g} a core (not counted; numbered "
                "from 0 in the order given, as a tournament's records/ files are):"
            )
            lines += [f"  {k:05d}: {why}" for k, why in self.voided]
        return "\n".join(lines)


def labels_of(entries: Iterable[PlayerEntry]) -> dict[str, str]:
    """Identity -> the name to show: the player's name, with its kind (and, for a
    program, a short digest) added where two identities share a name."""
    by_name: dict[str, list[PlayerEntry]] = {}
    seen: set[str] = set()
    for e in entries:
        if e.identity not in seen:
            seen.add(e.identity)
            by_name.setdefault(e.name, []).append(e)
    out: dict[str, str] = {}
    for name, group in by_name.items():
        if len(group) == 1:
            out[group[0].identity] = name
            continue
        for e in group:
            tag = (
                "built-in"
                if e.kind == "builtin"
                else f"program {(e.digest or e.command or '?')[:8]}"
            )
            out[e.identity] = f"{name} ({tag})"
    return out


@lru_cache(maxsize=256)
def _params_items_text(items: tuple[tuple[str, type, Any], ...]) -> str:
    return json.dumps({k: v for k, _, v in items}, sort_keys=True, default=str)


#: Parameter values :func:`_params_text` remembers the text of (by type and value: a
#: ``True`` is not a ``1``).
_SCALARS = (str, int, float, bool, type(None))


def _params_text(params: Mapping[str, Any]) -> str:
    """``params`` as JSON with sorted keys (the games of a season share a few sets of
    parameters: each is written once)."""
    items = params.items()
    if all(type(k) is str and type(v) in _SCALARS for k, v in items):
        return _params_items_text(tuple(sorted((k, type(v), v) for k, v in items)))
    return json.dumps(dict(params), sort_keys=True, default=str)


def pair_key(record: Record) -> tuple[str, int, str, tuple[str, ...]]:
    """What the games of one seat-swapped pair (or one Outpost group's rotations) share:
    the map, the seed, the parameters and the players, in any seats."""
    return _pair_key(record, [p.identity for p in record.players])


def _pair_key(
    record: Record, identities: Sequence[str], params_text: str | None = None
) -> tuple[str, int, str, tuple[str, ...]]:
    """:func:`pair_key` of ``record``, its players' identities given (and the text of
    its parameters, when the caller has it)."""
    return (
        record.map.hash,
        record.seed,
        _params_text(record.params) if params_text is None else params_text,
        tuple(sorted(identities)),
    )


def standings(
    records: Iterable[Record],
    bots: Sequence[Any] | None = None,
    *,
    samples: int | None = None,
    paired: bool = True,
    void_under_load: float | None = None,
    spread: Spread | None = None,
) -> Standings:
    """Wins, draws, losses, points and ratings per player, and head to head.

    In a two-seat game a seat wins when it is the game's winner, draws when the game has
    no winner, and loses otherwise.  In a game of more seats (Outpost) every pair of
    seats is compared by score, and each comparison counts as a win, draw or loss, as
    in the head-to-head table.  A seat's points are its score (1 / 0.5 / 0 in two-seat
    games).  Ratings are Bradley-Terry on the two-seat games' results, or Plackett-Luce
    on the finishing orders when games have more seats, with bootstrap intervals
    (:func:`atlas.arena.rating.bootstrap_ratings`, ``samples`` refits); they do not
    depend on the order of ``records``.

    Parameters
    ----------
    bots : sequence, optional
        Players to list even without a game: spec strings, :class:`Player` values or
        record entries.
    samples : int, optional
        Bootstrap refits (default :data:`~atlas.arena.rating.BOOTSTRAP_SAMPLES`; 0: the
        ratings alone, every interval a point).
    paired : bool
        Draw the games that share a map, a seed, the parameters and the players
        (:func:`pair_key`: seat-swapped pairs) together in the bootstrap (the default);
        ``False`` draws every game on its own, as if the games were independent.
    void_under_load : float, optional
        Leave out the games lost on time while the machine's 1-minute load average was
        above this many tasks a core (:func:`atlas.arena.timing.void_reason`); they are
        listed in :attr:`Standings.voided`, and their players still get a row.
    spread : callable, optional
        How the bootstrap's refits are worked out (:func:`bootstrap_ratings`'s
        ``spread``): the same standings, in less time where a caller has cores to
        spare.
    """
    from .players import parse_player
    from .timing import void_reason

    records = list(records)
    voided: list[tuple[int, str]] = []
    if void_under_load is not None:
        for k, r in enumerate(records):
            why = None if is_error(r) else void_reason(r, void_under_load)
            if why is not None:
                voided.append((k, why))
    gone = {k for k, _ in voided}
    voided_players = [p for k in sorted(gone) for p in records[k].players]
    records = [r for k, r in enumerate(records) if k not in gone]
    entries: list[PlayerEntry] = []
    for b in bots or ():
        entries.append(
            b
            if isinstance(b, PlayerEntry)
            else parse_player(b).entry()
            if isinstance(b, str)
            else b.entry()
        )
    # each player's identity once (a season's records share a few player values; each
    # is alive, in ``records`` or ``entries``, as long as ``known`` keys it by id)
    known: dict[int, str] = {}

    def ident(p: PlayerEntry) -> str:
        got = known.get(id(p))
        if got is None:
            got = known[id(p)] = p.identity
        return got

    # a canonical order, so that the bootstrap draws the same games whatever order the
    # records came in (each record's identities made once: a season has 100,000)
    good = [r for r in records if not is_error(r)]
    # a season's heads share their players' tuples: each tuple's identities made once
    # (kept with the tuple, so that its id stays its own)
    pairings: dict[int, tuple[Any, tuple[str, ...]]] = {}
    ids = []
    for r in good:
        pairing = r.players
        made = pairings.get(id(pairing))
        if made is None:
            made = pairings[id(pairing)] = (pairing, tuple([ident(p) for p in pairing]))
        ids.append(made[1])
    order_keys = [_order_key(r, i) for r, i in zip(good, ids)]
    order = sorted(range(len(good)), key=order_keys.__getitem__)
    played = [good[k] for k in order]
    played_ids = [ids[k] for k in order]
    errors = len(records) - len(played)
    entries.extend(voided_players)  # a player of voided games only still has a row
    for r in played:
        entries.extend(r.players)
    entries = list({id(e): e for e in entries}.values())  # each value once, in order
    label = labels_of(entries)
    identity_of: dict[str, str] = {}
    for e in entries:
        identity = ident(e)
        identity_of.setdefault(label[identity], identity)
    # every name a number, in order of first appearance; the games as flat arrays (a
    # season's 100,000 records are one pass in Python, the counting numpy's)
    row_names = list(identity_of)
    number = {name: k for k, name in enumerate(row_names)}
    duels: list[list[tuple[str, str, float]]] = []
    finishes = []
    multi = any(len(i) > 2 for i in played_ids)
    seat_of: list[int] = []  # each seat's player, game after game
    seat_col: list[int] = []  # 0 won, 1 drawn, 2 lost; 3 a seat of more than two
    seat_points: list[float] = []
    seen: dict[tuple[str, ...], tuple[list[str], list[int]]] = {}  # a season repeats them
    for record, identities in zip(played, played_ids):
        got = seen.get(identities)
        if got is None:
            names = [label[i] for i in identities]
            got = seen[identities] = (names, [number[n] for n in names])
        names, numbers = got
        result = record.result
        marks = result.scores
        seat_of.extend(numbers)
        seat_points.extend(marks)
        if len(names) == 2:
            seat_col.extend(_TWO_SEATS.get(result.winner, (2, 2)))
            a, b = names
            if a != b:  # :func:`pairwise_comparisons` of two seats
                sa, sb = marks
                duels.append([(a, b, 1.0 if sa > sb else 0.0 if sa < sb else 0.5)])
            else:
                duels.append([])
        else:
            winner = result.winner
            seat_col.extend(
                [
                    (0 if winner == s else 1 if winner is None else 2) if len(names) < 2 else 3
                    for s in range(len(names))
                ]
            )
            duels.append(pairwise_comparisons(names, marks))
        if multi:  # the finishing orders rate games of more seats only
            finishes.append(ranking_of(names, marks))
    k = len(row_names)
    seats = np.array(seat_of, dtype=np.int64)
    cols = np.array(seat_col, dtype=np.int64)
    results = np.bincount(seats * 4 + cols, minlength=4 * k).reshape(k, 4)
    # the points in the order of the games (numpy adds a bin's weights in turn)
    points = np.bincount(seats, np.array(seat_points, dtype=np.float64), minlength=k)
    comps_a, comps_b, comps_share, comps_game = _comparison_arrays(duels, number)
    comps_col = np.where(comps_share == 1.0, 0, np.where(comps_share == 0.5, 1, 2))
    many = np.array([len(i) > 2 for i in played_ids], dtype=bool)
    comps_pair = many[comps_game]  # a comparison of a game of more than two seats
    # head to head: each comparison counted for both sides, the second's result
    # mirrored (the cells met only: a table of thousands of players is sparse)
    cells, counts = np.unique(
        np.concatenate(
            [
                (comps_a * k + comps_b) * 3 + comps_col,
                (comps_b * k + comps_a) * 3 + 2 - comps_col,
            ]
        ),
        return_counts=True,
    )
    h2h: dict[str, dict[str, list[int]]] = {}
    for cell, count in zip(cells.tolist(), counts.tolist()):
        pair, col = divmod(cell, 3)
        x, y = divmod(pair, k)
        row = h2h.setdefault(row_names[x], {})
        cell_counts = row.get(row_names[y])
        if cell_counts is None:
            cell_counts = row[row_names[y]] = [0, 0, 0]
        cell_counts[col] = count
    # a seat among more than two counts its comparisons as wins, draws and losses
    pa, pb, pc = comps_a[comps_pair], comps_b[comps_pair], comps_col[comps_pair]
    pair_results = np.bincount(
        np.concatenate([pa * 3 + pc, pb * 3 + 2 - pc]), minlength=3 * k
    ).reshape(k, 3)
    tally = {
        name: [
            int(results[n].sum()),
            int(results[n, 0] + pair_results[n, 0]),
            int(results[n, 1] + pair_results[n, 1]),
            int(results[n, 2] + pair_results[n, 2]),
            float(points[n]),
        ]
        for name, n in number.items()
    }
    # the bootstrap's units by what they are, not by their place in the season (its
    # counts follow from the labels: games added leave the others' as they were)
    clusters: list[Any] = []
    if not paired:  # each game its own unit: copies of one game told apart by number
        copies: dict[Any, int] = {}
        for k in order:
            key = order_keys[k]
            copies[key] = copies.get(key, -1) + 1
            clusters.append((key, copies[key]))
    else:  # each parameters object's text made once (heads of a season share them)
        texts: dict[int, str] = {}
        for r, i in zip(played, played_ids):
            text = texts.get(id(r.params))
            if text is None:
                text = texts[id(r.params)] = _params_text(r.params)
            clusters.append(_pair_key(r, i, text))
    scores = _paired_scores(comps_a, comps_b, comps_share, comps_game, clusters, row_names)
    names = sorted(tally)
    refits = BOOTSTRAP_SAMPLES if samples is None else max(0, int(samples))
    if multi:
        rated = bootstrap_ratings(
            names, finishes, plackett_luce_fit, samples=refits, clusters=clusters, spread=spread
        )
    else:
        rated = bootstrap_ratings(
            names, duels, duel_fit, samples=refits, clusters=clusters, spread=spread
        )
    rows = [
        StandingRow(
            name,
            int(t[0]),
            int(t[1]),
            int(t[2]),
            int(t[3]),
            float(t[4]),
            rated.ratings[name],
            rated.low[name],
            rated.high[name],
            None,
            identity_of[name],
            rated.rank_low[name],
            rated.rank_high[name],
            *scores.get(name, (0.5, 0.0, 1.0)),
        )
        for name, t in tally.items()
    ]
    rows.sort(key=lambda r: (-round(r.rating, 9), -r.points, r.bot))
    rows = [
        StandingRow(**{**vars(r), "los_next": rated.superiority(r.bot, rows[i + 1].bot)})
        if i + 1 < len(rows)
        else r
        for i, r in enumerate(rows)
    ]
    return Standings(
        tuple(rows),
        {
            a: {b: (v[0], v[1], v[2]) for b, v in sorted(row.items())}
            for a, row in sorted(h2h.items())
        },
        errors,
        "plackett-luce" if multi else "bradley-terry",
        Interval(
            "pairs" if rated.units == "groups" else "games",
            rated.groups,
            rated.singles,
            refits if played else 0,
            max((len(i) for i in played_ids), default=2),
        ),
        tuple(voided),
        void_under_load,
    )


def _comparison_arrays(
    duels: Sequence[Sequence[tuple[str, str, float]]], number: Mapping[str, int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The comparisons of every game (``duels``) as flat arrays, in order: the first
    and the second player's numbers (``number``), the first's share of the points, and
    the game's index in ``duels``."""
    flat = [(number[a], number[b], s, g) for g, comps in enumerate(duels) for a, b, s in comps]
    arr = np.array(flat, dtype=np.float64).reshape(-1, 4)
    index = arr[:, [0, 1, 3]].astype(np.int64)
    return index[:, 0], index[:, 1], arr[:, 2], index[:, 2]


def _paired_scores(
    first: np.ndarray,
    second: np.ndarray,
    share: np.ndarray,
    game: np.ndarray,
    clusters: Sequence[Any] | None,
    names: Sequence[str],
) -> dict[str, tuple[float, float, float]]:
    """Each player's score with its 95 % interval: its share of the points of its
    comparisons (``first`` took ``share`` of the points against ``second`` in
    ``game``; :func:`_comparison_arrays`) in each group of games that share their
    ``clusters`` entry (their :func:`pair_key`; each game alone when ``clusters`` is
    None) is one observation of :func:`~atlas.arena.paired.paired_interval`, the groups
    in the order each player first played in them."""
    if clusters is None:
        group = game
    else:
        codes: dict[Any, int] = {}
        group = np.array([codes.setdefault(c, len(codes)) for c in clusters], dtype=np.int64)
        group = group[game] if len(game) else group[:0]
    # each comparison twice, once for each side, in turn: (player, group, value)
    player = np.stack([first, second], axis=1).ravel()
    value = np.stack([share, 1.0 - share], axis=1).ravel()
    groups = int(group.max()) + 1 if len(group) else 1
    keys = player * groups + np.repeat(group, 2)
    cells, first_at, inverse = np.unique(keys, return_index=True, return_inverse=True)
    # a cell's sum adds its values in turn, as they came
    totals = np.bincount(inverse, value, minlength=len(cells))
    sizes = np.bincount(inverse, minlength=len(cells))
    means = np.clip(totals / np.maximum(sizes, 1), 0.0, 1.0)
    owner = cells // groups
    # each player's cells in the order it first met them
    order = np.lexsort((first_at, owner))
    owner, means = owner[order], means[order]
    bounds = np.flatnonzero(np.diff(owner)) + 1
    out = {}
    for part_owner, part in zip(np.split(owner, bounds), np.split(means, bounds)):
        if not len(part):
            continue
        score = paired_interval(part.tolist())
        name = names[int(part_owner[0])]
        out[name] = (0.5 if score.mean is None else score.mean, score.low, score.high)
    return out


def _order_key(record: Record, identities: tuple[str, ...]) -> tuple[Any, ...]:
    r = record.result
    return (
        record.map.hash,
        record.seed,
        identities,
        r.scores,
        len(record.turns),
        -1 if r.winner is None else r.winner,
        r.reason,
        r.detail,
    )
