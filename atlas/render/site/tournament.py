"""The built-in tournament of ``atlas build``: plan it, warm the bots, play it.

:func:`plan_tournament` schedules each game's games
(:func:`atlas.render.site.schedule.site_schedule` with the game's
:class:`~atlas.render.painter.SitePlan`) and looks each one up in the build's cache;
at fixed effort, :func:`start_early_games` starts the workers that warm the bots and
play the games still to play, while the main process draws the maps
(:class:`EarlyGames`); by the clock, :func:`start_warm_up` makes every bot of those
games once, in worker processes, while the main process draws the maps
(:func:`warm_bots`), so numba compiles each kernel into its cache once and no timed
move pays for it, and :func:`play_tournament` then plays them with
:func:`atlas.arena.tournament.run_games`.  Either way the games go dearest first
(:func:`atlas.render.site.schedule.run_order`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...arena.warm import WARM_UP_MOVE, warm_bots
from ...errors import RecordError
from ...maps import GameMap, format_map
from ...sim.registry import game_names
from ..registry import render_of
from .cache import Cache, code_version, content_key
from .schedule import run_order, site_schedule

__all__ = [
    "SiteTournament",
    "plan_tournament",
    "warm_bots",
    "start_warm_up",
    "EarlyGames",
    "start_early_games",
    "finish_warm_up",
    "play_tournament",
    "spec_json",
    "game_key",
    "play_cached",
    "WARM_UP_MOVE",
]


@dataclass
class SiteTournament:
    """The built-in tournament of a build: its games, those already in the cache, and
    those still to play (with their cache keys and estimated costs).

    Not an organiser's plan (:class:`atlas.arena.competition.TournamentPlan`, read from
    a plan file): this is what :func:`plan_tournament` found for one build.  Its
    ``fairness`` games (indices into ``specs``) are the maps' fairness games
    (``atlas build --fairness N``), played with the rest but kept out of the
    standings; ``records`` holds every record by index once played.
    """

    specs: list[Any] = field(default_factory=list)
    done: dict[int, Any] = field(default_factory=dict)
    todo: list[tuple[int, str, Any]] = field(default_factory=list)
    cost: dict[str, float] = field(default_factory=dict)
    warm: dict[str, tuple[str, str, list[str], dict[str, Any], tuple[tuple[str, str], ...]]] = (
        field(default_factory=dict)
    )
    fairness: set[int] = field(default_factory=set)
    records: dict[int, Any] = field(default_factory=dict)


def plan_tournament(
    entries: Sequence[Any],
    *,
    games_per: int,
    cache: Cache,
    version: dict[str, str],
    bots: Mapping[str, Sequence[str]] | None,
    time_limit: float | None,
    game_filter: Sequence[str] | None,
    params: Mapping[str, Mapping[str, Any]] | None = None,
    fairness: int = 0,
    effort: int = 1,
) -> SiteTournament:
    """Schedule the tournament (:func:`~atlas.render.site.schedule.site_schedule` with
    each game's :class:`~atlas.render.painter.SitePlan`, its parameters overridden by
    ``params[game]``; none with ``games_per`` 0) and ``fairness`` groups of fairness
    games on each map (:func:`atlas.arena.fairness.fairness_specs`: the game's
    :attr:`~atlas.render.painter.SitePlan.fairness_bot` when ``bots`` has it, else the
    strongest bot, in every seat, at the tournament's time and parameters), and look
    each game up in the cache.  Built-in bots play at their default effort times ``effort``
    (:func:`atlas.bots.registry.bot_efforts`) unless ``time_limit`` asks for the clock;
    programs always play by the clock."""
    from ...arena.fairness import DEFAULT_OPENING, fairness_specs
    from ...bots import bot_names
    from ...bots.registry import bot_efforts
    from ...sim.records import record_from_json

    plan = SiteTournament()
    for game in game_names():
        if game_filter is not None and game not in game_filter:
            continue
        maps = [e.game_map for e in entries if e.game == game and e.valid]
        names = list(bots.get(game, ()) if bots is not None else bot_names(game))
        if not maps or not names:
            continue
        site = render_of(game).site_plan
        game_params = {**site.params, **(params or {}).get(game, {})}
        limit = site.time if time_limit is None else time_limit
        efforts = bot_efforts(game, effort) if time_limit is None else None
        free = {m.name: int(m.free.sum()) for m in maps}
        first = len(plan.specs)
        if games_per > 0 and len(names) >= 2:
            for spec in site_schedule(
                game,
                maps,
                names,
                top=site.top,
                top_per_map=site.top_per_map,
                time_limit=limit,
                params=game_params,
                seeds=games_per,
                gauntlet=site.gauntlet,
                efforts=efforts,
            ):
                plan.cost[spec.key] = (
                    limit
                    * max(free.get(spec.map_name, 1), 1)
                    * (1 + len(set(_names(spec)) & set(names[-site.top :])))
                )
                plan.specs.append(spec)
        judge = site.fairness_bot if site.fairness_bot in names else names[-1]
        for game_map in maps if fairness > 0 else ():
            for spec in fairness_specs(
                game_map,
                [judge],
                fairness,
                params=game_params,
                time_limit=limit,
                opening=DEFAULT_OPENING,
                efforts=efforts,
            ):
                plan.cost[spec.key] = limit * max(free.get(spec.map_name, 1), 1) * 3
                plan.fairness.add(len(plan.specs))
                plan.specs.append(spec)
        if len(plan.specs) == first:
            continue
        # the bots warm on the smallest map their games are played on, then briefly on
        # the others (another kind of board may take other kernels)
        played = {spec.map_name for spec in plan.specs[first:]}
        by_size = sorted(
            [m for m in maps if m.name in played] or maps,
            key=lambda m: (m.shape[0] * m.shape[1], m.name),
        )
        smallest = by_size[0]
        plan.warm[game] = (
            format_map(smallest),
            smallest.name,
            sorted(
                {
                    p.builtin
                    for s in plan.specs[first:]
                    for p in s.players
                    if getattr(p, "builtin", None)
                }
            ),
            game_params,
            tuple((format_map(m), m.name) for m in by_size[1:]),
        )
    for i, spec in enumerate(plan.specs):
        key = game_key(spec, version)
        data = cache.get_json("record", key)
        if data is not None:
            try:
                plan.done[i] = record_from_json(data)
                continue
            except RecordError:
                pass
        plan.todo.append((i, key, spec))
    return plan


def _names(spec: Any) -> list[str]:
    """The players' names of a game spec (its players are names or arena players)."""
    return [getattr(p, "name", p) for p in spec.players]


def start_warm_up(plan: SiteTournament, jobs: int | None) -> Any:
    """Warm the bots of every game still to play, in worker processes, while the main
    process draws the maps; returns the executor and its futures (or ``None``)."""
    import concurrent.futures as cf

    games = sorted({spec.game for _, _, spec in plan.todo})
    workers = min(jobs or os.cpu_count() or 1, len(games))
    if workers < 1:
        return None
    from ...arena.pool import die_with_parent, pool_context

    pool = cf.ProcessPoolExecutor(
        max_workers=workers, mp_context=pool_context(), initializer=die_with_parent
    )
    order = sorted(games, key=lambda g: -len(plan.warm[g][2]))
    return pool, [pool.submit(warm_bots, g, *plan.warm[g]) for g in order]


def stop_warm_up(warm: Any) -> None:
    """End the warm-up's workers at once (an interrupt, a failed build): pending jobs are
    cancelled and the workers compiling are ended (``SIGTERM``, then ``SIGKILL`` after
    :data:`~atlas.arena.pool.STOP_GRACE`), not waited for: compiling a game's kernels
    takes seconds, and an interrupted build ends within one."""
    if warm is None:
        return
    from ...arena.pool import STOP_GRACE

    pool = warm[0]
    found = getattr(pool, "_processes", None)  # the executor keeps its workers here
    processes = list(found.values()) if isinstance(found, dict) else []
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        if proc.is_alive():
            proc.terminate()
    for proc in processes:
        proc.join(STOP_GRACE)
        if proc.is_alive():
            proc.kill()
            proc.join(STOP_GRACE)


class EarlyGames:
    """The tournament of an effort build, played from the build's first second: one
    pool of local workers (:func:`atlas.arena.pool.run_pool`, in a thread of its own)
    that warms each game's bots (:func:`warm_bots`, the game dearest to compile first)
    and then plays the games (:func:`~atlas.render.site.schedule.run_order`), while
    this process reads, analyses and draws the maps.  No worker waits for another's
    warm-up, as a separate warm-up stage would make it: a game at fixed effort makes
    the same moves whenever its kernels compile, and the warm-ups come first so that
    two workers seldom compile the same kernels.

    ``results[j]`` is ``(True, record JSON)`` or ``(False, why)`` for ``todo[j]`` as
    each game ends, and ``ended`` lists the ``j`` in the order they ended; :meth:`stop`
    ends the workers (an interrupt, a failed build)."""

    def __init__(self, plan: SiteTournament, order: list[int], jobs: int) -> None:
        import threading

        from ...arena.pool import run_pool
        from ...bots.registry import compile_seconds

        games = sorted({spec.game for _, _, spec in plan.todo})
        dear = sorted(games, key=lambda g: (-compile_seconds(g, plan.warm[g][2]), g))
        warms = [("warm", g, *plan.warm[g]) for g in dear]
        self.specs = [spec for _, _, spec in plan.todo]
        self.results: dict[int, tuple[bool, Any]] = {}
        self.ended: list[int] = []
        self.error: BaseException | None = None
        self._stop = threading.Event()
        work = warms + [("game", plan.todo[j][2]) for j in order]
        n = len(warms)

        def keep(i: int, ok: bool, value: Any) -> None:
            if i >= n:
                self.results[order[i - n]] = (ok, value)
                self.ended.append(order[i - n])  # after its result: a reader finds it

        def run() -> None:
            try:
                run_pool(
                    work,
                    _early_job,
                    jobs,
                    lambda i, v: keep(i, True, v),
                    lambda i, why: keep(i, False, why),
                    stop=self._stop,
                )
            except BaseException as exc:  # told to the build when it waits
                self.error = exc

        self._thread = threading.Thread(target=run, name="atlas-games", daemon=True)
        self._thread.start()

    def wait(self, seconds: float) -> bool:
        """Wait at most ``seconds`` for the games; whether they have all ended."""
        self._thread.join(seconds)
        return not self._thread.is_alive()

    def stop(self) -> None:
        """End the workers, games unfinished, and wait for the pool's thread."""
        self._stop.set()
        self._thread.join()


def _early_job(job: tuple[Any, ...]) -> Any:
    """A job of :class:`EarlyGames` in a worker: a game's warm-up, or a game."""
    from ...arena.tournament import _run_json

    if job[0] == "warm":
        return warm_bots(*job[1:])
    return _run_json(job[1])


def start_early_games(plan: SiteTournament, jobs: int | None) -> EarlyGames | None:
    """Start playing the games still to play (:class:`EarlyGames`) on ``jobs`` local
    workers (default: one per core), or ``None`` with fewer than two workers."""
    workers = jobs or os.cpu_count() or 1
    if workers < 2 or not plan.todo:
        return None
    order = run_order([spec for _, _, spec in plan.todo], plan.cost)
    return EarlyGames(plan, order, workers)


def finish_warm_up(warm: Any) -> None:
    if warm is None:
        return
    pool, futures = warm
    for fut in futures:
        try:
            fut.result()
        except Exception:
            pass
    pool.shutdown()


def play_tournament(
    plan: SiteTournament,
    *,
    jobs: int | None,
    cache: Cache,
    progress: bool,
    problems: list[str],
    scheduler: str | None = None,
    early: EarlyGames | None = None,
    meanwhile: Callable[[Any], None] | None = None,
) -> list[Any]:
    """Records of the built-in tournament (played where the cache has none, on ``jobs``
    local workers or the Dask ``scheduler``, or by ``early``, started already), in
    schedule order.  With ``early``, ``meanwhile(record)`` is called on each game that
    ends while others still play (the build draws it then)."""
    from ...arena import tournament as tour

    done = dict(plan.done)
    todo = plan.todo
    if todo:
        if early is not None:
            played = _wait_early(early, progress, meanwhile)
        else:
            order = run_order([spec for _, _, spec in todo], plan.cost)
            todo = [todo[j] for j in order]
            played = tour.run_games(
                [spec for _, _, spec in todo], jobs=jobs, scheduler=scheduler, progress=progress
            )
        for (i, key, spec), rec in zip(todo, played):
            if tour.is_error(rec):  # not cached: the next build tries again
                problems.append(
                    f"game {spec.game} {' vs '.join(_names(spec))} on "
                    f"{spec.map_name} could not be played: "
                    f"{rec.result.detail.splitlines()[-1][:200]}"
                )
                continue
            cache.put_json("record", key, rec.to_json())
            done[i] = rec
    plan.records = done
    return [done[i] for i in sorted(done)]


def _wait_early(
    early: EarlyGames, progress: bool, meanwhile: Callable[[Any], None] | None
) -> list[Any]:
    """The records of ``early``'s games, in the order of the plan's ``todo``, once all
    have ended (a bar counts them, those ended already included).  While games are
    still playing, ``meanwhile(record)`` is called on each game that has ended (the
    build draws it), in the order they end."""
    from ...arena.tournament import _from_json, error_record, is_error
    from ...progress import progress_bar_of

    specs = early.specs
    records: dict[int, Any] = {}

    def record(j: int) -> Any:
        if j not in records:
            ok, value = early.results.get(j, (False, "the game was not played"))
            records[j] = _from_json(specs[j], value) if ok else error_record(specs[j], value)
        return records[j]

    bar = progress_bar_of(
        total=len(specs), file=sys.stderr, disable=not progress, unit="game", dynamic_ncols=True
    )
    drawn = 0  # games of early.ended handed to meanwhile
    try:
        while True:
            waiting = meanwhile is not None and drawn < len(early.ended)
            over = early.wait(0 if waiting else 0.25)
            bar.update(len(early.ended) - bar.n)
            if over:
                break
            if waiting and meanwhile is not None:
                rec = record(early.ended[drawn])
                drawn += 1
                if not is_error(rec):
                    meanwhile(rec)
    finally:
        bar.close()
    if early.error is not None:
        raise early.error
    return [record(j) for j in range(len(specs))]


def game_key(spec: Any, version: Mapping[str, str] | None = None) -> str:
    """The cache key of a game spec's record: its spec and the games' code version (the
    key :func:`plan_tournament` looks a game up by, so every command that plays through
    the build's cache shares its games)."""
    game_version = (version or {}).get("game") or code_version("game")
    return content_key("game", spec_json(spec), game_version)


def play_cached(
    specs: Sequence[Any],
    cache: Cache,
    *,
    jobs: int | None = None,
    scheduler: str | None = None,
    progress: bool = False,
    log: Any = None,
) -> list[Any]:
    """The records of ``specs``, in order: those in ``cache`` read from it, the others
    played (:func:`atlas.arena.tournament.run_games`) and stored as each ends, unless
    it failed to run (an error record is returned but not kept, so the next run tries
    again).
    ``log(message)`` hears how many games are played and how many were cached."""
    from ...arena import tournament as tour
    from ...sim.records import record_from_json

    out: list[Any] = [None] * len(specs)
    todo: list[tuple[int, str, Any]] = []
    for i, spec in enumerate(specs):
        key = game_key(spec)
        data = cache.get_json("record", key)
        if data is not None:
            try:
                out[i] = record_from_json(data)
                continue
            except RecordError:
                pass
        todo.append((i, key, spec))
    if log is not None:
        log(f"{len(todo)} games to play, {len(specs) - len(todo)} from the cache")
    if todo:

        def keep(j: int, rec: Any) -> None:  # as each game ends: an interrupt loses none
            i, key, _ = todo[j]
            out[i] = rec
            if not tour.is_error(rec):
                cache.put_json("record", key, rec.to_json())

        tour.run_games(
            [spec for _, _, spec in todo],
            jobs=jobs,
            scheduler=scheduler,
            progress=progress,
            on_record=keep,
        )
    return out


def spec_json(spec: Any) -> Any:
    """A game spec as plain JSON data (for its cache key)."""
    for name in ("to_json", "as_json"):
        if hasattr(spec, name):
            return getattr(spec, name)()
    return _dc_json(spec)


def _dc_json(obj: Any) -> Any:
    from dataclasses import fields, is_dataclass

    if isinstance(obj, GameMap):
        return {"game": obj.game, "name": obj.name, "text": format_map(obj)}
    if is_dataclass(obj):
        return {f.name: _dc_json(getattr(obj, f.name)) for f in fields(obj)}
    if isinstance(obj, dict):
        return {str(k): _dc_json(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_dc_json(v) for v in obj]
    if isinstance(obj, (str, int, float, bool)) or obj is None:
        return obj
    return repr(obj)
