"""Standings: the one table of a set of games, for ``atlas tournament``, the site and
the ladder.

Players are told apart by the identity their records keep
(:attr:`PlayerEntry.identity <atlas.sim.records.PlayerEntry.identity>`: a built-in bot's
registered name, and the name a plan gives it; an external program's name and digest),
so a record cannot join a bot's row by choosing its name; the table shows each player's
name (made unique with its kind when two identities share one).  Two-seat games are
rated with Bradley-Terry on their results, games of more seats with Plackett-Luce on
their finishing orders (:mod:`atlas.arena.rating`); every rating has a 95 % bootstrap
interval and each row the likelihood that it is stronger than the next.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..sim.records import PlayerEntry, Record
from .rating import (
    bootstrap_ratings,
    bradley_terry,
    pairwise_comparisons,
    plackett_luce,
    ranking_of,
)

__all__ = ["StandingRow", "Standings", "standings", "ERROR_PREFIX", "is_error", "labels_of"]

#: The result detail of a game that could not be played starts with this.
ERROR_PREFIX = "error: "


def is_error(record: Record) -> bool:
    """Whether ``record`` stands for a game that could not be played."""
    return not record.turns and record.result.detail.startswith(ERROR_PREFIX)


@dataclass(frozen=True)
class StandingRow:
    """One player's line of the standings.

    ``bot`` is the name shown, ``identity`` what tells the player apart; ``low`` and
    ``high`` bound the rating (95 % bootstrap interval); ``los_next`` is the likelihood
    that this player is stronger than the next one of the table.
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


@dataclass(frozen=True)
class Standings:
    """Standings of a set of games.

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
    """

    rows: tuple[StandingRow, ...]
    head_to_head: Mapping[str, Mapping[str, tuple[int, int, int]]] = field(default_factory=dict)
    errors: int = 0
    model: str = "bradley-terry"

    def row(self, name: str) -> StandingRow:
        """The row of the player shown as ``name``."""
        return next(r for r in self.rows if r.bot == name)

    def to_json(self) -> dict[str, Any]:
        rows = []
        for r in self.rows:
            d = dict(vars(r))
            for k in ("rating", "low", "high"):
                d[k] = round(d[k], 2)
            if d["los_next"] is not None:
                d["los_next"] = round(d["los_next"], 4)
            rows.append(d)
        return {
            "model": self.model,
            "rows": rows,
            "head_to_head": {
                a: {b: list(v) for b, v in row.items()} for a, row in self.head_to_head.items()
            },
            "errors": self.errors,
        }

    def format_table(self) -> str:
        """The standings and the head-to-head table as plain text."""
        width = max([len(r.bot) for r in self.rows] + [3])
        lines = [
            f"{'#':>2}  {'bot':<{width}}  {'games':>5} {'W':>4} {'D':>4} {'L':>4} "
            f"{'points':>7} {'rating':>7} {'95% interval':>13} {'LOS':>5}"
        ]
        for k, r in enumerate(self.rows, 1):
            los = "" if r.los_next is None else f"{100 * r.los_next:4.0f}%"
            lines.append(
                f"{k:>2}  {r.bot:<{width}}  {r.games:>5} {r.wins:>4} {r.draws:>4} "
                f"{r.losses:>4} {r.points:>7.1f} {r.rating:>7.0f} "
                f"{f'[{r.low:.0f}, {r.high:.0f}]':>13} {los:>5}"
            )
        lines.append(
            f"ratings: {self.model.replace('-', '–')}, Elo scale; LOS: likelihood "
            "that the row is stronger than the next"
        )
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


def standings(
    records: Iterable[Record], bots: Sequence[Any] | None = None, *, samples: int | None = None
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
    """
    from .players import parse_player

    records = list(records)
    entries: list[PlayerEntry] = []
    for b in bots or ():
        entries.append(
            b
            if isinstance(b, PlayerEntry)
            else parse_player(b).entry()
            if isinstance(b, str)
            else b.entry()
        )
    # a canonical order, so that the bootstrap draws the same games whatever order the
    # records came in
    played = sorted((r for r in records if not is_error(r)), key=_order_key)
    errors = len(records) - len(played)
    for r in played:
        entries.extend(r.players)
    label = labels_of(entries)
    tally: dict[str, list[float]] = {}
    identity_of: dict[str, str] = {}
    for e in entries:
        tally.setdefault(label[e.identity], [0, 0, 0, 0, 0.0])
        identity_of[label[e.identity]] = e.identity
    h2h: dict[str, dict[str, list[int]]] = {}
    duels: list[list[tuple[str, str, float]]] = []
    finishes = []
    multi = any(r.num_players > 2 for r in played)
    for record in played:
        names = [label[p.identity] for p in record.players]
        winner = record.result.winner
        pairwise = record.num_players > 2
        for seat, name in enumerate(names):
            t = tally[name]
            t[0] += 1
            if not pairwise:
                t[1 if winner == seat else 2 if winner is None else 3] += 1
            t[4] += record.result.scores[seat]
        comps = pairwise_comparisons(names, record.result.scores)
        duels.append(comps)
        finishes.append(ranking_of(names, record.result.scores))
        for a, b, s in comps:
            for x, y, v in ((a, b, s), (b, a, 1.0 - s)):
                col = 0 if v == 1.0 else 1 if v == 0.5 else 2
                cell = h2h.setdefault(x, {}).setdefault(y, [0, 0, 0])
                cell[col] += 1
                if pairwise:
                    tally[x][1 + col] += 1
    names = sorted(tally)
    extra = {} if samples is None else {"samples": samples}
    if multi:
        rated = bootstrap_ratings(names, finishes, plackett_luce, **extra)
    else:
        rated = bootstrap_ratings(names, duels, _fit_duels, **extra)
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
    )


def _fit_duels(
    names: Sequence[str], games: Sequence[list[tuple[str, str, float]]]
) -> dict[str, float]:
    return bradley_terry(names, [c for game in games for c in game])


def _order_key(record: Record) -> tuple[Any, ...]:
    r = record.result
    return (
        record.map.hash,
        record.seed,
        tuple(p.identity for p in record.players),
        r.scores,
        len(record.turns),
        -1 if r.winner is None else r.winner,
        r.reason,
        r.detail,
    )
