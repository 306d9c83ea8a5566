"""Tournaments: a schedule of games, run anywhere with the same results.

A tournament is a list of :class:`GameSpec` values (:func:`schedule_games`): every map x
every seating of the players (a round robin, or a gauntlet of the first player against
each other) x every seed.  Each game is a pure function of its spec (game, map text,
players, parameters, seed, time limits), so running the list one by one, on a local
pool of worker processes or on a Dask cluster gives the same records (as long as no bot
is pressed for time).  :func:`run_games` runs them and hands each record over as its
game ends; a game that raises, or whose worker dies, becomes an error record
(:func:`is_error`) instead of ending the tournament.  The standings are
:mod:`atlas.arena.standings`'.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import sys
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import replace as _replace
from functools import partial
from pathlib import Path
from typing import Any

from ..errors import MapFormatError
from ..maps import GameMap, find_maps, format_map, parse_map, read_map
from ..sim import get_game
from ..sim.base import Outcome, Reason
from ..sim.records import MapRef, Record, SeatStatus, record_from_json, save_record
from .players import Player, check_unique, parse_player
from .runner import bot_seed, make_player, play_game
from .standings import ERROR_PREFIX, StandingRow, Standings, is_error, labels_of, standings

__all__ = [
    "GameSpec",
    "StandingRow",
    "Standings",
    "ERROR_PREFIX",
    "SCHEDULES",
    "schedule_games",
    "seatings",
    "run_game",
    "run_games",
    "error_record",
    "is_error",
    "standings",
    "results_json",
    "load_maps",
    "write_results",
]

#: The kinds of schedule: every seating of every group, or the first player against each.
SCHEDULES = ("round-robin", "gauntlet")


@dataclass(frozen=True)
class GameSpec:
    """Everything that decides one game (picklable, hashable, plain data).

    ``params`` is canonical JSON text (sorted keys) so that specs stay hashable.
    ``depths`` gives built-in searching bots a fixed search depth, ``(name, depth)``
    pairs: they then search that deep whatever the clock says (the ladder's equal-depth
    mode, which compares evaluations apart from their speed).  A player's own ``time``
    overrides ``time_limit`` for its seat.  ``sandbox`` runs every program under
    ``bwrap`` where it is installed (:mod:`atlas.arena.sandbox`).  ``opening``: each
    seat's first moves that are random, drawn from the seed
    (:func:`~atlas.arena.runner.play_game`'s ``opening``; ``atlas fairness``).
    ``efforts`` gives built-in bots a fixed effort per move, ``(name, effort)`` pairs
    (:attr:`atlas.bots.base.BotBase.effort`): such a game is a function of the spec
    alone, whatever the machine; part of :attr:`key`, so the game cache keys on it.
    """

    game: str
    map_name: str
    map_text: str
    players: tuple[Player, ...]
    seed: int = 0
    params: str = "{}"
    time_limit: float = 0.1
    depths: tuple[tuple[str, int], ...] = ()
    sandbox: bool = False
    opening: int = 0
    efforts: tuple[tuple[str, int], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(parse_player(p) for p in self.players))

    @property
    def params_dict(self) -> dict[str, Any]:
        params: dict[str, Any] = json.loads(self.params)
        return params

    @property
    def seat_times(self) -> tuple[float, ...]:
        """Seconds per move of each seat."""
        return tuple(self.time_limit if p.time is None else p.time for p in self.players)

    @property
    def key(self) -> str:
        """A short content hash of the spec (stable across machines and runs)."""
        parts: list[Any] = [
            self.game,
            self.map_name,
            self.map_text,
            [p.to_json() for p in self.players],
            self.seed,
            self.params,
            self.time_limit,
        ]
        if self.depths:
            parts.append(self.depths)
        if self.sandbox:
            parts.append("sandbox")
        if self.opening:
            parts.append(["opening", self.opening])
        if self.efforts:
            parts.append(["efforts", self.efforts])
        text = json.dumps(parts, sort_keys=True)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    @property
    def label(self) -> str:
        """``map-alice-bob-s0``: the game in a few words (file names, messages)."""
        return f"{self.map_name}-{'-'.join(p.name for p in self.players)}-s{self.seed}"

    @classmethod
    def on_map(
        cls,
        game_map: GameMap,
        players: Sequence[str | Player],
        seed: int = 0,
        *,
        params: Mapping[str, Any] | None = None,
        time_limit: float = 0.1,
        depths: Mapping[str, int] | None = None,
        sandbox: bool = False,
        opening: int = 0,
        text: str | None = None,
        efforts: Mapping[str, int] | None = None,
    ) -> GameSpec:
        """The spec of one game on ``game_map``, its values made canonical: ``params`` as
        sorted JSON, ``depths`` and ``efforts`` as sorted ``(name, value)`` pairs of the
        values above 0.
        ``text`` is the map's canonical text when the caller has it already (one map
        formatted once for its many games); :func:`~atlas.maps.format_map` otherwise.

        >>> from atlas.maps import parse_map
        >>> m = parse_map("5 3\\n#####\\n#1 2#\\n#####\\n", game="tron", name="tiny")
        >>> spec = GameSpec.on_map(m, ["random", "wall"], 3, params={"b": 1, "a": 2})
        >>> spec.label, spec.params
        ('tiny-random-wall-s3', '{"a": 2, "b": 1}')
        """
        return cls(
            game_map.game,
            game_map.name,
            format_map(game_map) if text is None else text,
            tuple(players),  # type: ignore[arg-type]  # __post_init__ parses them
            int(seed),
            json.dumps(dict(params or {}), sort_keys=True),
            float(time_limit),
            tuple(sorted((str(b), int(d)) for b, d in (depths or {}).items() if d > 0)),
            sandbox,
            int(opening),
            tuple(sorted((str(b), int(e)) for b, e in (efforts or {}).items() if e > 0)),
        )


def seatings(
    bots: Sequence[Any], num_players: int, schedule: str = "round-robin"
) -> list[tuple[Any, ...]]:
    """Every seating of a tournament between ``bots``, in a fixed order.

    Round robin, two seats: every pair of distinct bots in both orders.  More seats
    (outpost): every group of ``num_players`` bots (bots repeated in turn when there are
    fewer), in each of its rotations, duplicates removed.  Gauntlet: only the groups
    that hold the first bot.

    >>> seatings(["a", "b", "c"], 2)
    [('a', 'b'), ('b', 'a'), ('a', 'c'), ('c', 'a'), ('b', 'c'), ('c', 'b')]
    >>> seatings(["a", "b", "c"], 2, "gauntlet")
    [('a', 'b'), ('b', 'a'), ('a', 'c'), ('c', 'a')]
    >>> seatings(["a", "b"], 4)
    [('a', 'b', 'a', 'b'), ('b', 'a', 'b', 'a')]
    """
    if schedule not in SCHEDULES:
        raise ValueError(
            f"unknown schedule {schedule!r}; expected one of {', '.join(SCHEDULES)}"
        )
    bots = list(bots)
    if len(bots) >= num_players:
        groups = list(itertools.combinations(bots, num_players))
    else:
        groups = [tuple(bots[i % len(bots)] for i in range(num_players))] if bots else []
    if schedule == "gauntlet" and bots:
        groups = [g for g in groups if bots[0] in g]
    out: list[tuple[Any, ...]] = []
    for group in groups:
        if num_players == 2:
            rotations = [group, group[::-1]]
        else:
            rotations = [tuple(group[k:] + group[:k]) for k in range(num_players)]
        for seating in rotations:
            if seating not in out:
                out.append(seating)
    return out


def schedule_games(
    game: str,
    maps: Iterable[GameMap],
    bots: Sequence[Any],
    seeds: int = 1,
    params: Mapping[str, Any] | None = None,
    time_limit: float = 0.1,
    depths: Mapping[str, int] | None = None,
    *,
    schedule: str = "round-robin",
    sandbox: bool = False,
    efforts: Mapping[str, int] | None = None,
) -> list[GameSpec]:
    """The games of a tournament: maps x seatings x seeds ``0 .. seeds - 1``.

    Parameters
    ----------
    game : str
        The game's name.
    maps : iterable of GameMap
        The maps (their canonical text goes into the specs).
    bots : sequence
        Players: spec strings (see :mod:`atlas.arena.players`) or :class:`Player`
        values, with distinct names.
    seeds : int
        Games per map and seating.
    params : mapping, optional
        Game parameters for every game.
    time_limit : float
        Seconds per move (a player's own ``time`` overrides it).
    depths : mapping, optional
        Player name -> fixed search depth (see :class:`GameSpec`).
    schedule : str
        ``"round-robin"`` or ``"gauntlet"`` (see :func:`seatings`).
    sandbox : bool
        Run every program under ``bwrap`` (see :class:`GameSpec`).
    efforts : mapping, optional
        Player name -> fixed effort per move (see :class:`GameSpec`).
    """
    players = check_unique(parse_player(b) for b in bots)
    n = get_game(game).info.num_players
    specs = []
    for game_map in maps:
        if game_map.game != game:
            raise ValueError(f"{game_map.name}: a {game_map.game} map in a {game} tournament")
        spec = partial(GameSpec.on_map, game_map, text=format_map(game_map), params=params)
        specs += [
            spec(
                seating,
                seed,
                time_limit=time_limit,
                depths=depths,
                sandbox=sandbox,
                efforts=efforts,
            )
            for seating in seatings(players, n, schedule)
            for seed in range(int(seeds))
        ]
    return specs


# --------------------------------------------------------------------------- running


def run_game(spec: GameSpec, objects: Mapping[str, Any] | None = None) -> Record:
    """Play the game of ``spec``; an exception becomes an error record (:func:`is_error`).

    ``objects``: bots given as Python objects (the Python API's), by the command of the
    placeholder player standing for each in the spec; they play in this process, under
    the names their games give them."""
    objects = objects or {}
    try:
        game_map = parse_map(spec.map_text, game=spec.game, name=spec.map_name)
        players: list[Any] = list(spec.players)
        depths = dict(spec.depths)
        efforts = dict(spec.efforts)
        for seat, player in enumerate(spec.players):
            given = objects.get(player.command or "")
            if given is not None:
                players[seat] = given
            elif depths.get(player.name, 0) > 0:  # run_game gives it its effort too
                bot = make_player(spec.game, player, bot_seed(spec.seed, seat))
                bot.fixed_depth = depths[player.name]
                players[seat] = bot
        record = play_game(
            spec.game,
            game_map,
            players,
            params=spec.params_dict,
            seed=spec.seed,
            time_limit=list(spec.seat_times),
            containment=[p.containment(spec.sandbox) for p in spec.players],
            opening=spec.opening,
            effort=[
                0 if p.command in objects else efforts.get(p.name, 0) for p in spec.players
            ],
        )
        entries = tuple(
            made if p.command in objects else _replace(p.entry(), effort=made.effort)
            for p, made in zip(spec.players, record.players)
        )
        if record.players != entries:  # bots made here name themselves
            record = _with_players(record, entries)
        return record
    except Exception as exc:
        return error_record(spec, exc)


def _with_players(record: Record, entries: tuple[Any, ...]) -> Record:
    from dataclasses import replace

    return replace(record, players=entries)


def error_record(spec: GameSpec, exc: BaseException | str) -> Record:
    """The record of a game that could not be played (no turns, no points)."""
    n = len(spec.players)
    text = (
        exc
        if isinstance(exc, str)
        else "".join(traceback.format_exception_only(type(exc), exc)).strip()
    )
    try:
        map_ref = MapRef.from_map(parse_map(spec.map_text, game=spec.game, name=spec.map_name))
    except Exception:
        map_ref = MapRef(spec.map_name, "", spec.map_text)
    outcome = Outcome(None, Reason.DRAW, (0.0,) * n, f"{ERROR_PREFIX}{text}"[:1000])
    return Record(
        spec.game,
        map_ref,
        spec.params_dict,
        tuple(p.entry() for p in spec.players),
        spec.seed,
        (),
        outcome,
        tuple(SeatStatus() for _ in range(n)),
        {},
        ("",) * n,
    )


def _run_json(spec: GameSpec) -> dict[str, Any]:
    """Worker entry point: the record as JSON data (the same transport for every executor)."""
    return run_game(spec).to_json()


def _from_json(spec: GameSpec, data: Any) -> Record:
    try:
        return record_from_json(data)
    except Exception as exc:
        return error_record(spec, exc)


def run_games(
    specs: Sequence[GameSpec],
    jobs: int | None = None,
    scheduler: str | None = None,
    progress: bool = True,
    on_record: Callable[[int, Record], None] | None = None,
) -> list[Record]:
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
    on_record : callable, optional
        ``on_record(index, record)`` as each game ends, in the order they end (a
        tournament writes each record then, so nothing finished is lost to an
        interruption).

    Notes
    -----
    Every record travels as JSON data (``Record.to_json``) and is rebuilt with
    ``record_from_json``, whatever runs it, so the three ways give equal records.  A
    game that raises becomes an error record; so does a game whose worker process dies
    (:mod:`atlas.arena.pool`: only that game is lost, the pool goes on); on Dask a game
    whose worker is lost is tried once more elsewhere, then recorded as an error.  A
    Dask worker may also hold games queued for it, and those count as lost with it: a
    scheduler started with ``distributed.scheduler.worker-saturation: 1.0`` gives each
    worker only what it plays, so a lost worker costs only the games it was playing.
    """
    from ..progress import progress_bar_of

    specs = list(specs)
    results: list[Record | None] = [None] * len(specs)
    bar = progress_bar_of(
        total=len(specs), file=sys.stderr, disable=not progress, unit="game", dynamic_ncols=True
    )

    def done(i: int, record: Record) -> None:
        results[i] = record
        bar.update()
        if on_record is not None:
            on_record(i, record)

    try:
        if scheduler:
            _run_dask(specs, scheduler, done)
        else:
            jobs = jobs or os.cpu_count() or 1
            if jobs <= 1 or len(specs) <= 1:
                for i, spec in enumerate(specs):
                    done(i, _from_json(spec, _run_json(spec)))
            else:
                from .pool import run_pool

                run_pool(
                    specs,
                    _run_json,
                    jobs,
                    lambda i, data: done(i, _from_json(specs[i], data)),
                    lambda i, why: done(i, error_record(specs[i], why)),
                )
    finally:
        bar.close()
    return [r for r in results if r is not None]


def _run_dask(specs: list[GameSpec], address: str, done: Callable[[int, Record], None]) -> None:
    from .executors import run_on_dask

    run_on_dask(
        specs,
        _run_json,
        address,
        lambda i, data: done(i, _from_json(specs[i], data)),
        lambda i, why: done(
            i, error_record(specs[i], f"the game was lost with its worker twice: {why}")
        ),
    )


# --------------------------------------------------------------------------- results


def results_json(
    specs: Sequence[GameSpec],
    records: Sequence[Record],
    table: Standings,
    files: Sequence[str] | None = None,
    *,
    name: str | None = None,
) -> dict[str, Any]:
    """The results document of a tournament (``results.json``); ``name``, the plan's."""
    label = labels_of(p for r in records for p in r.players)
    voided = dict(table.voided)
    games = []
    for k, (spec, rec) in enumerate(zip(specs, records)):
        entry = {
            "index": k,
            "key": spec.key,
            "map": spec.map_name,
            "players": [label.get(p.identity, p.name) for p in rec.players],
            "seed": spec.seed,
            "winner": rec.result.winner,
            "reason": rec.result.reason,
            "scores": list(rec.result.scores),
            "turns": len(rec.turns),
            "statuses": [s.status for s in rec.statuses],
            "detail": rec.result.detail,
            "error": is_error(rec),
            "voided": voided.get(k),
        }
        if files:
            entry["record"] = files[k]
        games.append(entry)
    first = specs[0] if specs else None
    players = {p.name: p.to_json() for s in specs for p in s.players}
    return {
        "format": "atlas-tournament",
        "version": 1,
        "name": name,
        "game": first.game if first else None,
        "params": first.params_dict if first else {},
        "time_limit": first.time_limit if first else None,
        "players": list(players.values()),
        "games": games,
        "void_timeouts_under_load": table.void_under_load,
        "voided": [
            {"index": k, "record": files[k] if files else None, "why": why}
            for k, why in table.voided
        ],
        "standings": table.to_json(),
    }


def record_name(spec: GameSpec, index: int) -> str:
    """The file name of a game's record in a tournament's ``records/`` folder."""
    return f"{index:05d}-{spec.label}-{spec.key[:8]}.json.gz"


def load_maps(game: str, paths: Sequence[str | os.PathLike[str]]) -> list[GameMap]:
    """The maps of ``game`` in ``paths`` (map files, or folders searched for them)."""
    maps = []
    for path in paths:
        for p in find_maps(path) if Path(path).is_dir() else [Path(path)]:
            maps.append(read_map(p, game=game))
    if not maps:
        raise MapFormatError(f"no {game} maps found in {', '.join(map(str, paths))}")
    return maps


def write_results(
    out: str | os.PathLike[str],
    specs: Sequence[GameSpec],
    records: Sequence[Record],
    table: Standings,
) -> list[str]:
    """Write every record under ``out/records/`` and ``out/results.json``; return the
    records' paths relative to ``out``."""
    folder = Path(out)
    (folder / "records").mkdir(parents=True, exist_ok=True)
    files: list[str] = []
    for k, (spec, rec) in enumerate(zip(specs, records)):
        name = f"records/{record_name(spec, k)}"
        save_record(rec, folder / name)
        files.append(name)
    data = results_json(specs, records, table, files)
    (folder / "results.json").write_text(json.dumps(data, indent=1) + "\n")
    return files
