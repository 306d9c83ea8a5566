"""``atlas build``: maps, analyses, a built-in tournament and saved records -> a static site.

A build is a fixed sequence of stages (:data:`STAGES`) over one :class:`BuildOptions`
value, each stage a function of the build in progress that calls plain functions from
data to data, each result cached by content:

1. ``maps``: find and read the maps (an unreadable map becomes an error page, not a
   failure: :func:`~atlas.render.site.analysis.load_maps`); validate the maps of the
   games that check submissions (:func:`~atlas.render.site.analysis.validate_maps`);
   schedule the built-in tournament, a main round between each game's strongest bots
   and a gauntlet for the simpler ones, each bot at its default effort per move (the
   same games on any machine; the clock only with ``time_limit``), as each game's
   painter module plans it (:class:`atlas.render.painter.SitePlan`,
   :func:`atlas.render.site.tournament.plan_tournament`), and start the worker
   processes: at fixed effort they warm the bots and play the games the cache lacks
   at once (:class:`~atlas.render.site.tournament.EarlyGames`), by the clock they
   only warm the bots; analyse each map and draw its pictures while they do
   (:func:`~atlas.render.site.analysis.analyse_maps`);
2. ``warm-up``: by the clock, wait for the warm-up (nothing to wait for at fixed
   effort);
3. ``games``: play the tournament's games the cache lacks (at fixed effort, wait for
   them, drawing each game that has ended meanwhile), and the maps' fairness
   games with ``--fairness N`` (:func:`~atlas.render.site.tournament.play_tournament`),
   and load the saved records given with ``--records`` and the organisers' folders
   given with ``--tournament`` (:mod:`atlas.render.site.sources`);
4. ``replays``: render each game (viewer data with every turn, the charted measures)
   and its public record (:func:`~atlas.render.site.replays.render_games`), pick each
   map's featured game (:func:`~atlas.render.site.replays.feature_games`), and publish
   the GIFs ``gifs`` asks for, the featured games' by default
   (:func:`~atlas.render.site.replays.publish_gifs`; every game page makes its own in
   the browser);
5. ``fairness``: each map's fairness report, from its structure and the build's games
   on it played in every seat (:func:`~atlas.render.site.fairness.fairness_sections`);
   the default build plays no game for it;
6. ``pages``: compute standings and write the pages (:mod:`atlas.render.site.pages`),
   then move the site into place (:mod:`atlas.render.site.swap`).

The site is written to a marked temporary folder beside the target and moved into
place at the end (:mod:`atlas.render.site.swap`), so a failed build leaves the previous
site whole, and a killed one leaves only the temporary, which the next build removes;
files that did not change are carried over as they were, times included
(:mod:`atlas.render.site.output`).  A big site (a season of thousands of games) is
updated in place instead: only the files that changed go through the temporary, under a
journal the next build undoes when a build was killed half-way.
Cached results live in ``.atlas-cache/`` keyed by the content hash of their inputs and
of the code (:func:`atlas.render.site.cache.code_version`).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...errors import ArgumentError
from ...fsutil import Temporary, default_mode, remove_stale_temporaries, writing_in
from ...types import GifChoice
from .ahead import Ahead, can_fork
from .analysis import analyse_maps, figures_of, load_maps, validate_maps
from .cache import Cache, check_cache_root, code_version, collector_paused
from .entries import BuildContext, GameEntry, MapEntry
from .fairness import fairness_sections
from .output import SiteWriter
from .pages import FAIRNESS_ORIGIN, standings_ahead
from .replays import (
    GIF_CHOICES,
    feature_games,
    featured_game,
    gif_games,
    predraw,
    publish_gifs,
    render_games,
    render_replay,
)
from .sources import (
    event_void_rule,
    game_entries,
    load_event,
    load_records,
    packed_record_files,
    shown_paths,
    unpacked_record_files,
)
from .swap import (
    SITE_MARKER,
    check_site_folder,
    in_place_files,
    mark_site,
    move_into_place,
    recover_site,
    remember_folders,
    trusted_folders,
    update_in_place,
    written_list,
)
from .tournament import (
    SiteTournament,
    finish_warm_up,
    plan_tournament,
    play_tournament,
    start_early_games,
    start_warm_up,
    stop_warm_up,
)

__all__ = [
    "BuildOptions",
    "BuildResult",
    "STAGES",
    "build",
    "build_site",
    "MapEntry",
    "GameEntry",
    "DEFAULT_GAMES",
    "SITE_MARKER",
    "check_site_folder",
    "figures_of",
    "render_replay",
    "featured_game",
]

#: Games per scheduled seating in the built-in tournament (``atlas build --games``).
DEFAULT_GAMES = 1


@dataclass(frozen=True)
class BuildOptions:
    """What to build and how: the one value every stage of a build reads.

    Attributes
    ----------
    maps_dir, out_dir : path-like
        The maps (one folder per game) and where the site goes.
    records_dir : path-like, optional
        Saved replay records to publish beside the tournament's games.
    tournaments : sequence of path-like
        Output folders of ``atlas tournament --out``
        (:func:`~atlas.render.site.sources.load_event`): each is published with its own
        standings page, its players apart from the built-in round robin's.
    jobs : int, optional
        Worker processes for the tournament (default: the tournament's default).
    games : int, optional
        Games per scheduled seating (default :data:`DEFAULT_GAMES`; 0 skips the
        tournament).
    cache_dir : path-like or None
        The content cache (``None``: no cache).
    progress : bool
        Show progress bars on the long stages.
    tournament : bool
        Play the built-in tournament.
    bots : mapping, optional
        Bots per game for the tournament, from the simplest to the strongest (default:
        every built-in bot, as its ``BOTS`` table lists them).
    time_limit : float, optional
        Seconds per move in the tournament by the clock (``atlas build --time``); by
        default built-in bots play at fixed effort (``effort``), and programs get each
        game's :attr:`SitePlan.time <atlas.render.painter.SitePlan>`.
    effort : int
        Built-in bots play at this many times their default effort per move
        (:func:`atlas.bots.registry.bot_efforts`; ``atlas build --effort``), when
        ``time_limit`` is not given: their games are then the same on any machine.
    game_filter : sequence of str, optional
        Only these games take part in the tournament.
    log : callable, optional
        Where the summary and problem lines go (default: standard error).
    params : mapping, optional
        Game parameters per game name for the tournament, over the build's own
        (``atlas build --compat``).
    fairness : int
        Fairness games per seating on each map (``atlas build --fairness N``): the
        game's strongest bot (the last of ``bots``) in every seat, at the tournament's
        time and parameters (:func:`atlas.arena.fairness.fairness_specs`).  With 0 (the
        default, which plays nothing more) each map's fairness section counts the
        tournament's own seat-swapped games alone.
    more_maps : sequence of path-like
        Further maps folders, each one folder per game, read after ``maps_dir``
        (``atlas serve A B``, ``atlas build --maps A --maps B``); a folder named twice is
        read once, and a map whose game and name another folder already has gets its
        page under a name of its own (``tron-duel-2``).
    scheduler : str, optional
        The address of a ``dask.distributed`` scheduler (``tcp://host:8786``): the map
        analyses, the games, the fairness games and the drawings of replays run on its
        workers instead of local processes (:mod:`atlas.arena.executors`); the site's
        bytes are the same.
    gifs : {"featured", "all", "none"}
        Which games get an animated GIF at build time (``atlas build --gifs``): each
        map's featured game (the default), every game, or none.  Every game page makes
        its GIF in the browser anyway (its "GIF" button).
    """

    maps_dir: str | os.PathLike[str] = "maps"
    out_dir: str | os.PathLike[str] = "site"
    records_dir: str | os.PathLike[str] | None = None
    tournaments: Sequence[str | os.PathLike[str]] = ()
    jobs: int | None = None
    games: int | None = None
    cache_dir: str | os.PathLike[str] | None = ".atlas-cache"
    progress: bool = True
    tournament: bool = True
    bots: Mapping[str, Sequence[str]] | None = None
    time_limit: float | None = None
    game_filter: Sequence[str] | None = None
    log: Callable[[str], None] | None = None
    params: Mapping[str, Mapping[str, Any]] | None = None
    fairness: int = 0
    effort: int = 1
    more_maps: Sequence[str | os.PathLike[str]] = ()
    scheduler: str | None = None
    gifs: GifChoice = "featured"

    @property
    def games_per(self) -> int:
        """Games per scheduled seating (``games``, or :data:`DEFAULT_GAMES`)."""
        return DEFAULT_GAMES if self.games is None else self.games

    @property
    def maps_dirs(self) -> list[Path]:
        """The maps folders, ``maps_dir`` first, each once (by where it really is)."""
        seen: set[str] = set()
        found = []
        for folder in (self.maps_dir, *self.more_maps):
            real = os.path.realpath(folder)
            if real not in seen:
                seen.add(real)
                found.append(Path(folder))
        return found

    @property
    def inputs(self) -> list[Path]:
        """The folders the build reads, whose paths its pages never show."""
        return [
            *self.maps_dirs,
            *([Path(self.records_dir)] if self.records_dir else []),
            *(Path(t) for t in self.tournaments),
        ]


@dataclass
class BuildResult:
    """What a build did: counts, problems, and where the site is."""

    out: Path
    maps: list[MapEntry]
    games: list[GameEntry]
    problems: list[str]
    seconds: float
    cache_hits: int = 0
    cache_misses: int = 0
    stages: dict[str, float] = field(default_factory=dict)
    files_written: int = 0
    files_kept: int = 0

    @property
    def built_anything(self) -> bool:
        return any(m.ok for m in self.maps) or bool(self.games)


@dataclass
class Build:
    """A build in progress: its options, its temporary folder, what every stage shares
    (:class:`~atlas.render.site.entries.BuildContext`), the problems found so far, and
    what the stages have made."""

    options: BuildOptions
    tmp: Path
    ctx: BuildContext
    problems: list[str] = field(default_factory=list)
    maps: list[MapEntry] = field(default_factory=list)
    plan: SiteTournament = field(default_factory=SiteTournament)
    warm: Any = None
    #: The games of an effort build, playing since the maps stage (``EarlyGames``).
    early: Any = None
    games: list[GameEntry] = field(default_factory=list)
    #: The published game of each of the plan's specs that was played, by index.
    plan_entries: dict[int, GameEntry] = field(default_factory=dict)
    #: The previous site's files and marker, when the site is updated in place
    #: (:func:`~atlas.render.site.swap.in_place_files`).
    in_place: Any = None
    #: A season's standings, worked out in a forked child from the games stage on
    #: (:func:`~atlas.render.site.pages.standings_ahead`).
    ahead: Any = None
    #: The records folder's files, listed and stat-ed in a forked child from the start
    #: (:func:`walk_ahead`).
    walk: Any = None


# --------------------------------------------------------------------------- stages


def read_maps(b: Build) -> None:
    """Read, validate and analyse the maps; schedule the tournament and start the bots'
    warm-up, which runs in worker processes while the maps are drawn."""
    o = b.options
    taken: set[str] = set()  # the pages' names, unique across the maps folders
    b.maps = [e for folder in o.maps_dirs for e in load_maps(folder, b.problems, taken)]
    b.problems += validate_maps(b.maps, b.ctx)
    if o.tournament and (o.games_per > 0 or o.fairness > 0):
        b.plan = plan_tournament(
            b.maps,
            games_per=o.games_per,
            cache=b.ctx.cache,
            version=b.ctx.version,
            bots=o.bots,
            time_limit=o.time_limit,
            game_filter=o.game_filter,
            params=o.params,
            fairness=o.fairness,
            effort=o.effort,
        )
    # on a cluster each worker compiles what it plays; here the local workers warm the
    # bots up while the maps are drawn, and at fixed effort go on to play at once
    local = o.scheduler is None and o.jobs != 1
    if b.plan.todo and local and o.time_limit is None:
        b.early = start_early_games(b.plan, o.jobs)
    elif b.plan.todo and local:
        b.warm = start_warm_up(b.plan, o.jobs)
    b.problems += analyse_maps(b.maps, b.ctx, jobs=o.jobs, scheduler=o.scheduler)


def warm_up(b: Build) -> None:
    """Wait for the bots' warm-up (their kernels compiled into numba's cache)."""
    finish_warm_up(b.warm)
    b.warm = None


def collect_games(b: Build) -> None:
    """The games to publish: the tournament's (played where the cache has none), the
    saved records', and each organiser's tournament's."""
    o = b.options
    taken: set[str] = set()
    if b.plan.specs:
        play_tournament(
            b.plan,
            jobs=o.jobs,
            scheduler=o.scheduler,
            cache=b.ctx.cache,
            progress=o.progress,
            problems=b.problems,
            early=b.early,
            meanwhile=lambda rec: predraw(rec, b.ctx),
        )
        b.early = None
        played = sorted(b.plan.records.items())
        for origin, fair in (("tournament", False), (FAIRNESS_ORIGIN, True)):
            chosen = [(i, rec) for i, rec in played if (i in b.plan.fairness) == fair]
            entries = game_entries([rec for _, rec in chosen], origin, b.maps, taken)
            b.games += entries
            b.plan_entries.update((i, e) for (i, _), e in zip(chosen, entries))
    version = b.ctx.version["replay"]
    if o.records_dir is not None:
        records_dir = Path(o.records_dir)

        def walked() -> Any:  # asked once the cache's indexes are read
            walk, b.walk = b.walk, None  # (until then, an error ends the child)
            return unpacked_record_files(records_dir, walk.result()) if walk else None

        recs = load_records(records_dir, b.problems, b.ctx.cache, version, walked)
        b.games += game_entries(recs, "imported", b.maps, taken)
    events: list[str] = []
    for folder in o.tournaments:
        event = load_event(Path(folder), b.problems, events, b.ctx.cache, version)
        if event is None:
            continue
        name, recs = event
        events.append(name)
        rule = event_void_rule(Path(folder), b.problems)
        from ...arena.timing import void_reason

        for g in game_entries(recs, "tournament " + name, b.maps, taken):
            g.event = name
            if rule is not None:
                g.voided = void_reason(g.record, rule)
            b.games.append(g)
    # a season's standings meanwhile, on the other core, while its games are drawn and
    # paged here
    b.ahead = standings_ahead(b.games, cache=b.ctx.cache)


def draw_replays(b: Build) -> None:
    """Render every game (those whose records do not replay are refused and left out),
    pick each map's featured game and publish the GIFs ``gifs`` asks for."""
    o = b.options
    b.problems += render_games(b.games, b.ctx, o.jobs, o.scheduler, gifs=o.gifs == "all")
    b.games = [g for g in b.games if not g.refused]
    for e in b.maps:
        e.games = [g for g in e.games if not g.refused]
    b.problems += feature_games(b.maps, b.ctx)
    chosen = gif_games(b.maps, b.games, o.gifs)
    b.problems += publish_gifs(chosen, b.ctx, o.jobs, o.scheduler)


def judge_fairness(b: Build) -> None:
    """Each map's fairness report: its structure (cached by the map's text) and its
    seat-swapped groups among the build's games (:mod:`atlas.render.site.fairness`)."""
    b.problems += fairness_sections(b.maps, b.plan, b.plan_entries, b.ctx)


def write_site(b: Build) -> None:
    """Write the pages, then swap the site into place."""
    from .pages import write_pages

    # the pages name the inputs from their folders, not by the builder's paths
    shown = shown_paths(b.options.inputs)
    for e in b.maps:
        e.shown_path = shown(e.path)
        if e.error:
            e.error = shown(e.error)
    # the standings' child is asked for its tables only when the pages need them, after
    # the games' pages (an error on the way ends it: :func:`build`)
    write_pages(
        b.ctx.out,
        b.maps,
        b.games,
        [shown(p) for p in b.problems],
        code=b.ctx.version["pages"],
        cache=b.ctx.cache,
        ahead=b.ahead,
    )
    b.ahead = None
    manifest = b.ctx.out.finish()  # (a season's is written by a child meanwhile)
    out = Path(b.options.out_dir)
    with writing_in(out, "the site"):
        try:
            mark_site(b.tmp, b.ctx.out.listed())
        finally:
            manifest()  # the child done before anything else, whatever happened
        if b.in_place is None:
            move_into_place(b.tmp, out, b.tmp.parent / "old")
        else:
            changed = [*b.ctx.out.changed, SITE_MARKER]
            update_in_place(b.tmp, out, b.tmp.parent, b.ctx.out.files, changed, b.in_place)
            remember_folders(b.ctx.cache, out, b.ctx.out.folders_seen())


#: The stages of a build in order, each timed under its name (:attr:`BuildResult.stages`).
STAGES: tuple[tuple[str, Callable[[Build], None]], ...] = (
    ("maps", read_maps),
    ("warm-up", warm_up),
    ("games", collect_games),
    ("replays", draw_replays),
    ("fairness", judge_fairness),
    ("pages", write_site),
)

#: The folders of a site, made before the stages write into them.
SITE_FOLDERS = (
    "img/maps",
    "img/games",
    "maps",
    "games",
    "bots",
    "static",
    "validation",
    "tournaments",
    "fairness",
)


# --------------------------------------------------------------------------- build


def walk_ahead(records_dir: str | os.PathLike[str] | None) -> Ahead | None:
    """The records folder's files (:func:`~atlas.render.site.sources.record_files`,
    packed), listed and stat-ed in a forked child (:class:`~atlas.render.site.ahead.Ahead`)
    while the build reads the previous site's lists, its caches' indexes and the maps;
    None without a records folder or ``fork`` (the games stage then walks it itself,
    as it does when the child fails)."""
    if records_dir is None or not can_fork():
        return None
    return Ahead.start(_walk_in_child, Path(records_dir))


def _walk_in_child(records_dir: Path) -> Any:
    """:func:`~atlas.render.site.sources.packed_record_files`, in the child
    :func:`walk_ahead` forks, with the cyclic collector off (its 100,000 new lists hold
    no cycles, and the collector forked on took a third longer)."""
    import gc

    gc.disable()
    return packed_record_files(records_dir)


def check_input_folders(options: BuildOptions) -> None:
    """The maps and the records the build is given exist: a folder that does not is a
    mistake in the command, not a site with nothing on it.  ``gifs`` is one of
    :data:`~atlas.render.site.replays.GIF_CHOICES`.

    Raises
    ------
    ArgumentError
        Naming the folder that does not exist (``atlas build --maps nope``), or the
        ``gifs`` value.
    """
    if options.gifs not in GIF_CHOICES:
        raise ArgumentError(
            f"gifs: expected one of {', '.join(GIF_CHOICES)}, got {options.gifs!r}"
        )
    named = [("maps", m) for m in options.maps_dirs] + [("records", options.records_dir)]
    for what, folder in named:
        if folder is None:
            continue
        p = Path(folder)
        if not p.exists():
            raise ArgumentError(f"the {what} folder {os.fspath(p)!r} does not exist")


def _marker_problem(out: Path) -> str | None:
    """Why the marker of the site at ``out`` cannot be trusted (missing or damaged), as
    a problem of the build, or None (a sound marker, or no site yet)."""
    if not out.is_dir() or out.is_symlink() or not any(out.iterdir()):
        return None
    listed, why = written_list(out)
    if listed is not None:
        return None
    return (
        f"the site's list of its files is not usable ({why}): every file of {out} "
        "that atlas cannot prove it wrote is kept"
    )


def build(options: BuildOptions) -> BuildResult:
    """Build the static site that ``options`` describe: run :data:`STAGES` in order
    in a temporary folder, which the last stage moves into place.

    Returns
    -------
    BuildResult
        Never raises for a bad map or record: they are listed in ``problems``.

    Raises
    ------
    OutputFolderError
        ``out_dir`` holds what atlas did not write, or ``cache_dir`` is not a folder
        (nothing is touched then).
    StorageError
        The site's folder failed under a write (a full disk, a read-only file
        system): names it.  (A cache that cannot be written is a cache that misses.)
    ArgumentError
        A maps folder or ``records_dir`` does not exist, or ``gifs`` is not a choice.
    """
    from .pages import pages_version

    t0 = time.perf_counter()
    out = Path(options.out_dir)
    with writing_in(out, "the site"):
        out.parent.mkdir(parents=True, exist_ok=True)
    # what killed builds of this site left: their temporaries (an old site taken aside
    # goes back first), before anything is checked or written
    remove_stale_temporaries(out.parent, out.name, recover=recover_site)
    check_site_folder(out)  # before any work: atlas writes only where it may
    check_input_folders(options)
    check_cache_root(options.cache_dir)
    walk = walk_ahead(options.records_dir)
    try:
        # a big site is updated in place (its marker read once: 200,000 names in a season)
        in_place = in_place_files(out)
        distrust = None if in_place is not None else _marker_problem(out)
        cache = Cache(options.cache_dir)
        cache.remove_stale()
        version = {kind: code_version(kind) for kind in ("analysis", "game", "replay")}
        version["pages"] = pages_version()
        stages: dict[str, float] = {}
        mark = time.perf_counter()
        with writing_in(out, "the site"):
            work = Temporary(out.parent, "site", out.name)
            tmp = work.path / "site"
            tmp.mkdir(mode=default_mode(directory=True))
            os.chmod(tmp, default_mode(directory=True))
        listed = None if in_place is None else in_place[0]
        # the folders the last build left as they are: its marker's word is taken there
        trusted = frozenset() if in_place is None else trusted_folders(cache, out, in_place[1])
        writer = SiteWriter(
            tmp, out if out.is_dir() else None, out, in_place=listed, trusted=trusted
        )
    except BaseException:
        if walk is not None:
            walk.stop()
        raise
    b = Build(options, tmp, BuildContext(writer, cache, version, options.progress))
    b.in_place = in_place
    b.walk = walk
    if distrust is not None:
        b.problems.append(distrust)
    try:
        with writing_in(out, "the site"):
            for sub in SITE_FOLDERS:
                (tmp / sub).mkdir(parents=True, exist_ok=True)
        # the collector paused (cache.collector_paused): a season's build makes
        # millions of objects and few cycles (547 unreachable after writing 2,000 pages)
        with collector_paused():
            for name, stage in STAGES:
                stage(b)
                now = time.perf_counter()
                stages[name], mark = now - mark, now
    except BaseException:
        stop_warm_up(b.warm)  # workers compiling are ended, not waited for
        if b.early is not None:
            b.early.stop()  # and so are workers playing
        for child in (b.ahead, b.walk):
            if child is not None:
                child.stop()  # and the standings' child, and the records' walk
        raise
    finally:
        work.remove()  # the old site, swapped into it, goes with it
        cache.close()
    result = BuildResult(
        out,
        b.maps,
        b.games,
        b.problems,
        time.perf_counter() - t0,
        cache.hits,
        cache.misses,
        stages,
        writer.written,
        writer.kept,
    )
    _report(result, options.log or (lambda msg: print(msg, file=sys.stderr)))
    return result


def _report(result: BuildResult, say: Callable[[str], None]) -> None:
    """The summary line of a build and one line per problem."""
    ok_maps = sum(1 for m in result.maps if m.ok)
    n = len(result.problems)
    built = f" ({n} problem{'s' if n != 1 else ''})" if n else ""
    say(
        f"atlas build{built}: {ok_maps} of {len(result.maps)} maps, {len(result.games)} "
        f"games -> {result.out}/index.html in {result.seconds:.1f} s "
        f"(cache: {result.cache_hits} hits, {result.cache_misses} misses; files: "
        f"{result.files_written} written, {result.files_kept} unchanged; "
        + ", ".join(f"{k} {v:.1f} s" for k, v in result.stages.items())
        + ")"
    )
    for p in result.problems:
        say(f"  - {p}")


def build_site(
    maps_dir: str | os.PathLike[str] = "maps",
    out_dir: str | os.PathLike[str] = "site",
    *,
    records_dir: str | os.PathLike[str] | None = None,
    tournaments: Sequence[str | os.PathLike[str]] = (),
    jobs: int | None = None,
    games: int | None = None,
    cache_dir: str | os.PathLike[str] | None = ".atlas-cache",
    progress: bool = True,
    tournament: bool = True,
    bots: Mapping[str, Sequence[str]] | None = None,
    time_limit: float | None = None,
    game_filter: Sequence[str] | None = None,
    log: Callable[[str], None] | None = None,
    params: Mapping[str, Mapping[str, Any]] | None = None,
    fairness: int = 0,
    effort: int = 1,
    more_maps: Sequence[str | os.PathLike[str]] = (),
    scheduler: str | None = None,
    gifs: GifChoice = "featured",
) -> BuildResult:
    """Build the static site from ``maps_dir`` (and ``records_dir``) into ``out_dir``:
    :func:`build` of the :class:`BuildOptions` these arguments name (each is described
    there).

    Returns
    -------
    BuildResult
        Never raises for a bad map or record: they are listed in ``problems``.

    Examples
    --------
    >>> result = build_site("maps", "site", games=0, progress=False)  # doctest: +SKIP
    """
    return build(BuildOptions(**locals()))  # the arguments are its fields, one for one
