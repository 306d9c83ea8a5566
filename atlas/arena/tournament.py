"""Tournaments: a schedule of games, run anywhere with the same results, and standings.

A tournament is a list of :class:`GameSpec` values (:func:`schedule_games`): every map x
every pairing of bots x every seating x every seed.  Each game is a pure function of its
spec (game, map text, bots, parameters, seed, time limit), so running the list one by
one, on a local process pool or on a Dask cluster gives the same records (as long as no
bot is pressed for time).  :func:`run_games` runs them; a game that raises becomes an
error record (:func:`is_error`) instead of ending the tournament.  :func:`standings`
counts wins, draws, losses and points per bot, fits Bradley-Terry ratings
(:mod:`atlas.arena.rating`) and tabulates head-to-head results.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from ..errors import BotError, MapFormatError
from ..maps import GameMap, find_maps, format_map, parse_map, read_map
from ..sim import get_game
from ..sim.base import Outcome, Reason
from .rating import bradley_terry, pairwise_comparisons
from ..sim.records import MapRef, Record, SeatStatus, record_from_json, save_record
from .runner import bot_seed, make_player, play_game, player_entry

__all__ = [
    "GameSpec",
    "StandingRow",
    "Standings",
    "ERROR_PREFIX",
    "schedule_games",
    "seatings",
    "run_game",
    "run_games",
    "is_error",
    "standings",
    "bot_label",
    "results_json",
    "load_maps",
    "write_results",
]

#: The result detail of a game that could not be played starts with this.
ERROR_PREFIX = "error: "


@dataclass(frozen=True)
class GameSpec:
    """Everything that decides one game (picklable, hashable, plain data).

    ``params`` is canonical JSON text (sorted keys) so that specs stay hashable.
    ``depths`` gives built-in searching bots a fixed search depth, ``(name, depth)``
    pairs: they then search that deep whatever the clock says (the ladder's equal-depth
    mode, which compares evaluations apart from their speed).
    """

    game: str
    map_name: str
    map_text: str
    players: tuple[str, ...]
    seed: int = 0
    params: str = "{}"
    time_limit: float = 0.1
    depths: tuple[tuple[str, int], ...] = ()

    @property
    def params_dict(self) -> dict[str, Any]:
        return json.loads(self.params)

    @property
    def key(self) -> str:
        """A short content hash of the spec (stable across machines and runs)."""
        parts: list[Any] = [self.game, self.map_name, self.map_text, self.players, self.seed,
                            self.params, self.time_limit]
        if self.depths:
            parts.append(self.depths)
        text = json.dumps(parts)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def seatings(bots: Sequence[str], num_players: int) -> list[tuple[str, ...]]:
    """Every seating of a tournament between ``bots``, in a fixed order.

    Two seats: every pair of distinct bots in both orders.  More seats (outpost):
    every group of ``num_players`` bots (bots repeated in turn when there are fewer),
    in each of its rotations, duplicates removed.

    >>> seatings(["a", "b", "c"], 2)
    [('a', 'b'), ('b', 'a'), ('a', 'c'), ('c', 'a'), ('b', 'c'), ('c', 'b')]
    >>> seatings(["a", "b"], 4)
    [('a', 'b', 'a', 'b'), ('b', 'a', 'b', 'a')]
    """
    bots = list(bots)
    if num_players == 2:
        out = []
        for a, b in itertools.combinations(bots, 2):
            out += [(a, b), (b, a)]
        return out
    if len(bots) >= num_players:
        groups = list(itertools.combinations(bots, num_players))
    else:
        groups = [tuple(bots[i % len(bots)] for i in range(num_players))] if bots else []
    out = []
    for group in groups:
        for k in range(num_players):
            seating = tuple(group[k:] + group[:k])
            if seating not in out:
                out.append(seating)
    return out


def schedule_games(game: str, maps: Iterable[GameMap], bots: Sequence[str], seeds: int = 1,
                   params: Mapping[str, Any] | None = None, time_limit: float = 0.1,
                   depths: Mapping[str, int] | None = None) -> list[GameSpec]:
    """The games of a round robin: maps x seatings x seeds ``0 .. seeds - 1``.

    Parameters
    ----------
    game : str
        The game's name.
    maps : iterable of GameMap
        The maps (their canonical text goes into the specs).
    bots : sequence of str
        Player specs (built-in names or ``cmd:...``), distinct.
    seeds : int
        Games per map and seating.
    params : mapping, optional
        Game parameters for every game.
    time_limit : float
        Seconds per move.
    depths : mapping, optional
        Bot name -> fixed search depth (see :class:`GameSpec`).
    """
    if len(set(bots)) != len(bots):
        raise BotError(f"the bots of a tournament must be distinct, got {list(bots)}")
    n = get_game(game).info.num_players
    ptext = json.dumps(dict(params or {}), sort_keys=True)
    fixed = tuple(sorted((str(b), int(d)) for b, d in (depths or {}).items() if d > 0))
    specs = []
    for game_map in maps:
        text = format_map(game_map)
        for seating in seatings(bots, n):
            for seed in range(int(seeds)):
                specs.append(GameSpec(game, game_map.name, text, seating, seed, ptext,
                                      float(time_limit), fixed))
    return specs


# --------------------------------------------------------------------------- running


def run_game(spec: GameSpec) -> Record:
    """Play the game of ``spec``; an exception becomes an error record (:func:`is_error`)."""
    try:
        game_map = parse_map(spec.map_text, game=spec.game, name=spec.map_name)
        players: list[Any] = list(spec.players)
        depths = dict(spec.depths)
        for seat, name in enumerate(spec.players):
            if depths.get(name, 0) > 0:
                bot = make_player(spec.game, name, bot_seed(spec.seed, seat))
                bot.fixed_depth = depths[name]
                players[seat] = bot
        return play_game(spec.game, game_map, players, params=spec.params_dict,
                         seed=spec.seed, time_limit=spec.time_limit)
    except Exception as exc:
        return error_record(spec, exc)


def error_record(spec: GameSpec, exc: BaseException) -> Record:
    """The record of a game that could not be played (no turns, no points)."""
    n = len(spec.players)
    tb = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    try:
        map_ref = MapRef.from_map(parse_map(spec.map_text, game=spec.game,
                                            name=spec.map_name))
    except Exception:
        map_ref = MapRef(spec.map_name, "", spec.map_text)
    outcome = Outcome(None, Reason.DRAW.value, (0.0,) * n, f"{ERROR_PREFIX}{tb}"[:1000])
    return Record(spec.game, map_ref, spec.params_dict,
                  tuple(player_entry(p) for p in spec.players), spec.seed, (), outcome,
                  tuple(SeatStatus() for _ in range(n)), {}, ("",) * n)


def is_error(record: Record) -> bool:
    """Whether ``record`` stands for a game that could not be played."""
    return not record.turns and record.result.detail.startswith(ERROR_PREFIX)


def _run_json(spec: GameSpec) -> dict[str, Any]:
    """Worker entry point: the record as JSON data (the same transport for every executor)."""
    return run_game(spec).to_json()


def _from_json(spec: GameSpec, data: Any) -> Record:
    try:
        return record_from_json(data)
    except Exception as exc:
        return error_record(spec, exc)


def run_games(specs: Sequence[GameSpec], jobs: int | None = None, scheduler: str | None = None,
              progress: bool = True) -> list[Record]:
    """Play every game of ``specs``; the records come back in the order of ``specs``.

    Parameters
    ----------
    jobs : int, optional
        Local worker processes (default: the number of CPUs).  1 plays in this process.
    scheduler : str, optional
        Address of a running ``dask.distributed`` scheduler (``tcp://host:8786``) to
        run the games on instead; needs ``pip install 'dask[distributed]'``.
    progress : bool
        Show a progress bar on stderr.

    Notes
    -----
    Every record travels as JSON data (``Record.to_json``) and is rebuilt with
    ``record_from_json``, whatever runs it, so the three ways give equal records.  A
    game whose worker fails (an exception, a lost process) gives an error record.
    """
    from tqdm import tqdm

    specs = list(specs)
    bar = tqdm(total=len(specs), file=sys.stderr, disable=not progress, unit="game",
               dynamic_ncols=True)
    try:
        if scheduler:
            return _run_dask(specs, scheduler, bar)
        jobs = jobs or os.cpu_count() or 1
        if jobs <= 1 or len(specs) <= 1:
            out = []
            for spec in specs:
                out.append(_from_json(spec, _run_json(spec)))
                bar.update()
            return out
        return _run_pool(specs, jobs, bar)
    finally:
        bar.close()


def _run_pool(specs: list[GameSpec], jobs: int, bar: Any) -> list[Record]:
    import concurrent.futures as cf
    import multiprocessing as mp

    method = "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"
    results: list[Record | None] = [None] * len(specs)
    with cf.ProcessPoolExecutor(max_workers=min(jobs, len(specs)),
                                mp_context=mp.get_context(method)) as pool:
        futures = {pool.submit(_run_json, spec): i for i, spec in enumerate(specs)}
        for fut in cf.as_completed(futures):
            i = futures[fut]
            try:
                results[i] = _from_json(specs[i], fut.result())
            except Exception as exc:  # a worker that died
                results[i] = error_record(specs[i], exc)
            bar.update()
    return [r for r in results if r is not None]


def _run_dask(specs: list[GameSpec], address: str, bar: Any) -> list[Record]:
    try:
        from distributed import Client, as_completed
    except ImportError:  # pragma: no cover - depends on the installation
        raise RuntimeError("--scheduler needs dask.distributed: "
                           "pip install 'dask[distributed]'") from None
    results: list[Record | None] = [None] * len(specs)
    with Client(address) as client:
        futures = client.map(_run_json, specs, pure=False)
        index = {fut.key: i for i, fut in enumerate(futures)}
        for fut in as_completed(futures):
            i = index[fut.key]
            try:
                results[i] = _from_json(specs[i], fut.result())
            except Exception as exc:
                results[i] = error_record(specs[i], exc)
            bar.update()
            fut.release()
    return [r for r in results if r is not None]


# --------------------------------------------------------------------------- standings


@dataclass(frozen=True)
class StandingRow:
    """One bot's line of the standings."""

    bot: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: float = 0.0
    rating: float = 1500.0


@dataclass(frozen=True)
class Standings:
    """Standings of a tournament.

    Attributes
    ----------
    rows : tuple of StandingRow
        Best first: by rating, then points, then name.
    head_to_head : mapping
        ``head_to_head[a][b] = (wins, draws, losses)`` of bot ``a`` against bot ``b``
        (in games of more than two seats: pairwise, by score).
    errors : int
        Games that could not be played (left out of everything else).
    """

    rows: tuple[StandingRow, ...]
    head_to_head: Mapping[str, Mapping[str, tuple[int, int, int]]] = field(
        default_factory=dict)
    errors: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"rows": [vars(r) | {"rating": round(r.rating, 2)} for r in self.rows],
                "head_to_head": {a: {b: list(v) for b, v in row.items()}
                                 for a, row in self.head_to_head.items()},
                "errors": self.errors}

    def format_table(self) -> str:
        """The standings and the head-to-head table as plain text."""
        width = max([len(r.bot) for r in self.rows] + [3])
        lines = [f"{'#':>2}  {'bot':<{width}}  {'games':>5} {'W':>4} {'D':>4} {'L':>4} "
                 f"{'points':>7} {'rating':>7}"]
        for k, r in enumerate(self.rows, 1):
            lines.append(f"{k:>2}  {r.bot:<{width}}  {r.games:>5} {r.wins:>4} {r.draws:>4} "
                         f"{r.losses:>4} {r.points:>7.1f} {r.rating:>7.0f}")
        names = [r.bot for r in self.rows]
        if len(names) > 1:
            lines += ["", "head to head: wins-draws-losses of each row against the column "
                          "of that rank"]
            cells = [[("-" if a == b else "%d-%d-%d" % tuple(self.head_to_head.get(a, {}).get(
                b, (0, 0, 0)))) for b in names] for a in names]
            cw = max(len(c) for row in cells for c in row)
            lines.append(f"{'':>2}  {'':<{width}}  " + " ".join(
                f"{k:>{cw}}" for k in range(1, len(names) + 1)))
            for k, (a, row) in enumerate(zip(names, cells), 1):
                lines.append(f"{k:>2}  {a:<{width}}  " + " ".join(f"{c:>{cw}}" for c in row))
        if self.errors:
            lines.append(f"\n{self.errors} game(s) could not be played")
        return "\n".join(lines)


def bot_label(record: Record, seat: int) -> str:
    """The name of the bot in ``seat``: its built-in name, or ``cmd:<command>``."""
    p = record.players[seat]
    return f"cmd:{p.command}" if p.kind == "external" and p.command else p.name


def standings(records: Iterable[Record], bots: Sequence[str] | None = None) -> Standings:
    """Wins, draws, losses, points and Bradley-Terry ratings per bot, and head to head.

    In a two-seat game a seat wins when it is the game's winner, draws when the game has
    no winner, and loses otherwise.  In a game of more seats (Outpost) every pair of
    seats is compared by score, and each comparison counts as a win, draw or loss, as
    in the head-to-head table.  A seat's points are its score (1 / 0.5 / 0 in two-seat
    games).  Ratings are fitted on the pairwise comparisons of every game
    (:mod:`atlas.arena.rating`), so they do not depend on the order of ``records``.
    This is the one standings of atlas: ``atlas tournament``, the site and the ladder
    all use it.
    """
    tally: dict[str, list[float]] = {b: [0, 0, 0, 0, 0.0] for b in (bots or ())}
    h2h: dict[str, dict[str, list[int]]] = {}
    comparisons = []
    errors = 0
    for record in records:
        if is_error(record):
            errors += 1
            continue
        names = [bot_label(record, s) for s in range(record.num_players)]
        winner = record.result.winner
        pairwise = record.num_players > 2
        for seat, name in enumerate(names):
            t = tally.setdefault(name, [0, 0, 0, 0, 0.0])
            t[0] += 1
            if not pairwise:
                t[1 if winner == seat else 2 if winner is None else 3] += 1
            t[4] += record.result.scores[seat]
        for a, b, s in pairwise_comparisons(names, record.result.scores):
            comparisons.append((a, b, s))
            for x, y, v in ((a, b, s), (b, a, 1.0 - s)):
                col = 0 if v == 1.0 else 1 if v == 0.5 else 2
                cell = h2h.setdefault(x, {}).setdefault(y, [0, 0, 0])
                cell[col] += 1
                if pairwise:
                    tally[x][1 + col] += 1
    ratings = bradley_terry(sorted(tally), comparisons)
    rows = [StandingRow(name, int(t[0]), int(t[1]), int(t[2]), int(t[3]), float(t[4]),
                        ratings[name]) for name, t in tally.items()]
    rows.sort(key=lambda r: (-round(r.rating, 9), -r.points, r.bot))
    return Standings(tuple(rows), {a: {b: tuple(v) for b, v in sorted(row.items())}
                                   for a, row in sorted(h2h.items())}, errors)


# --------------------------------------------------------------------------- CLI


def results_json(specs: Sequence[GameSpec], records: Sequence[Record],
                 table: Standings, files: Sequence[str] | None = None) -> dict[str, Any]:
    """The results document of a tournament (``results.json``)."""
    games = []
    for k, (spec, rec) in enumerate(zip(specs, records)):
        entry = {"index": k, "key": spec.key, "map": spec.map_name,
                 "players": list(spec.players), "seed": spec.seed,
                 "winner": rec.result.winner, "reason": rec.result.reason,
                 "scores": list(rec.result.scores), "turns": len(rec.turns),
                 "statuses": [s.status for s in rec.statuses], "detail": rec.result.detail,
                 "error": is_error(rec)}
        if files:
            entry["record"] = files[k]
        games.append(entry)
    first = specs[0] if specs else None
    return {"format": "atlas-tournament", "version": 1,
            "game": first.game if first else None,
            "params": first.params_dict if first else {},
            "time_limit": first.time_limit if first else None,
            "games": games, "standings": table.to_json()}


def load_maps(game: str, paths: Sequence[str | os.PathLike[str]]) -> list[GameMap]:
    """The maps of ``game`` in ``paths`` (map files, or folders searched for them)."""
    maps = []
    for path in paths:
        for p in find_maps(path) if Path(path).is_dir() else [Path(path)]:
            maps.append(read_map(p, game=game))
    if not maps:
        raise MapFormatError(f"no {game} maps found in {', '.join(paths)}")
    return maps


def write_results(out: str | os.PathLike[str], specs: Sequence[GameSpec],
                  records: Sequence[Record], table: Standings) -> list[str]:
    """Write every record under ``out/records/`` and ``out/results.json``; return the
    records' paths relative to ``out``."""
    folder = Path(out)
    (folder / "records").mkdir(parents=True, exist_ok=True)
    files: list[str] = []
    for k, (spec, rec) in enumerate(zip(specs, records)):
        name = f"records/{k:05d}-{spec.map_name}-s{spec.seed}.json.gz"
        save_record(rec, folder / name)
        files.append(name)
    data = results_json(specs, records, table, files)
    (folder / "results.json").write_text(json.dumps(data, indent=1) + "\n")
    return files
