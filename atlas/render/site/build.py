"""``atlas build``: maps, analyses, a built-in tournament and saved records -> a static site.

Stages (each a plain function from data to data, each result cached by content):

1. find and read the maps (an unreadable map becomes an error page, not a failure);
2. analyse each map and draw its pictures (:mod:`atlas.render.images`);
3. validate every Outpost map (:func:`atlas.analyze.validate.validate_map_file`);
4. play the built-in tournament: a main round between each game's strongest bots and a
   gauntlet for the simpler ones, at the times the ladder measures them at, as each
   game's render module plans it (:class:`atlas.render.games.base.SitePlan`,
   :func:`atlas.render.site.schedule.site_schedule`), the bots' kernels compiled in
   worker processes while the maps are drawn (:mod:`atlas.render.site.tournament`);
5. load the saved records given with ``--records`` (published like the tournament's);
6. render each game (GIF, viewer data with every turn, the charted measures), pick each
   map's featured game (:func:`featured_game`), compute standings, write the pages
   (:mod:`atlas.render.site.pages`) and each game's public record.

The site is written to a temporary folder beside the target and moved into place at
the end, so a failed build leaves the previous site whole; files that did not change
are carried over as they were, times included (:mod:`atlas.render.site.output`).
Cached results live in ``.atlas-cache/`` keyed by the content hash of their inputs and
of the code (:func:`atlas.render.site.cache.code_version`).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...errors import AtlasError, MapFormatError, RecordError
from ...fsutil import default_mode
from ...maps import GameMap, find_maps, format_map, read_map
from ...sim.registry import game_names, get_info
from ..games import render_of
from ..images import png_bytes
from .cache import Cache, code_version, content_key
from .output import SiteWriter
from .pages import slugify
from .tournament import (
    TournamentPlan,
    finish_warm_up,
    plan_tournament,
    play_tournament,
    start_warm_up,
)

__all__ = [
    "MapEntry",
    "GameEntry",
    "BuildResult",
    "build_site",
    "DEFAULT_GAMES",
    "figures_of",
    "render_replay",
    "featured_game",
]

#: Games per scheduled seating in the built-in tournament (``atlas build --games``).
DEFAULT_GAMES = 1


@dataclass
class MapEntry:
    """A map as the site shows it."""

    game: str
    name: str
    slug: str
    path: str
    text: str = ""
    game_map: GameMap | None = None
    error: str | None = None
    summary: dict[str, Any] = field(default_factory=dict)
    figures: dict[str, Any] = field(default_factory=dict)
    chambers: list[dict[str, Any]] = field(default_factory=list)
    images: dict[str, str] = field(default_factory=dict)
    validation: dict[str, Any] | None = None
    games: list[GameEntry] = field(default_factory=list)
    featured: GameEntry | None = None
    overlays: list[tuple[str, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.error is None and self.game_map is not None

    @property
    def valid(self) -> bool:
        return self.ok and (self.validation is None or bool(self.validation.get("valid")))

    @property
    def page(self) -> str:
        return f"maps/{self.slug}.html"


@dataclass
class GameEntry:
    """A played game as the site shows it.

    ``meta`` holds what the index and the map pages need without the viewer data:
    ``interest`` (:func:`atlas.render.viewer.interest`), ``has_info``, ``series``
    (the charted measures' names and units).  ``viewer`` (the packed viewer data) is
    read from the cache when the game's page is written (:meth:`viewer_data`).
    """

    ident: str
    record: Any
    origin: str = "tournament"
    map_slug: str | None = None
    gif: str | None = None
    viewer: dict[str, Any] | None = None
    digest: str = ""
    meta: dict[str, Any] = field(default_factory=dict)
    replay_key: str | None = None
    record_file: str | None = None
    record_kb: int = 0
    _cache: Any = field(default=None, repr=False, compare=False)

    @property
    def page(self) -> str:
        return f"games/{self.ident}.html"

    @property
    def has_info(self) -> bool:
        return bool(self.meta.get("has_info"))

    @property
    def drawn(self) -> bool:
        """Whether the replay could be drawn (a viewer and a GIF exist)."""
        return self.gif is not None

    def viewer_data(self) -> dict[str, Any] | None:
        """The packed viewer data (from memory or the cache)."""
        if self.viewer is None and self._cache is not None and self.replay_key:
            self.viewer = self._cache.get_json("viewer", self.replay_key)
        return self.viewer


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


def _bar(items: Iterable[Any], desc: str, progress: bool, total: int | None = None) -> Any:
    if not progress:
        return items
    from tqdm import tqdm

    return tqdm(items, desc=desc, total=total, unit="", leave=False, file=sys.stderr,
                dynamic_ncols=True)


# --------------------------------------------------------------------------- maps


def _game_of(path: Path, root: Path) -> str | None:
    games = game_names()
    for part in path.relative_to(root).parts[:-1]:
        if part in games:
            return part
    return None


def load_maps(maps_dir: Path) -> list[MapEntry]:
    """Every map file under ``maps_dir``; unreadable ones carry their error."""
    entries: list[MapEntry] = []
    taken: set[str] = set()
    files = find_maps(maps_dir) if maps_dir.exists() else []
    for p in files:
        game = _game_of(p, maps_dir if maps_dir.is_dir() else p.parent)
        try:
            text = p.read_bytes().decode("utf-8", "replace")
        except OSError as exc:
            text = ""
            err: str | None = f"cannot read file: {exc.strerror or exc}"
        else:
            err = None
        entry = MapEntry(game or "unknown", p.stem, "", str(p), text)
        if err is None:
            try:
                gm = read_map(p, game=game)
                entry.game_map, entry.game = gm, gm.game
            except MapFormatError as exc:
                entry.error = str(exc.reason if getattr(exc, "reason", None) else exc)
                if exc.line is not None:
                    entry.error = f"line {exc.line}: {entry.error}"
        else:
            entry.error = err
        entry.slug = slugify(f"{entry.game}-{entry.name}", taken)
        entries.append(entry)
    return entries


def _analysis(entry: MapEntry, cache: Cache, version: dict[str, str]) -> None:
    from ...sim.registry import summarize_map

    gm = entry.game_map
    assert gm is not None
    key = content_key("analysis", gm.game, format_map(gm), version["analysis"])
    summary = cache.get_json("analysis", key)
    if summary is None:
        summary = summarize_map(gm)
        cache.put_json("analysis", key, summary)
    entry.summary = {k: v for k, v in summary.items() if k != "chamber_tree"}
    entry.figures = figures_of(summary)
    entry.chambers = summary.get("chamber_tree", [])


def figures_of(summary: dict[str, Any]) -> dict[str, Any]:
    """The few figures a map's card and page lead with, from its summary."""
    w, h = summary["width"], summary["height"]
    fig: dict[str, Any] = {"size": f"{w}x{h}", "cells": w * h}
    if "inarow" in summary:
        fig["inarow"] = summary["inarow"]
        return fig
    if "land" in summary:
        fig["land"], fig["water"] = summary["land"], summary["water"]
    else:
        fig["free"] = summary["free_cells"]
    fig["components"] = summary["components"]
    fig["articulation_points"] = len(summary["articulation_points"])
    if "variant" in summary:
        fig["variant"] = summary["variant"]
    if "voronoi" in summary:
        v = summary["voronoi"]
        fig["voronoi"] = [v["p1"], v["p2"], v["tie"]]
    return fig


def _pictures(entry: MapEntry, out: SiteWriter, cache: Cache, version: dict[str, str]
              ) -> None:
    gm = entry.game_map
    assert gm is not None
    render = render_of(gm.game)
    for kind in render.picture_kinds(gm):
        key = content_key("picture", kind, gm.game, format_map(gm), version["analysis"])
        data = cache.get_bytes("png", key)
        if data is None:
            data = png_bytes(render.picture(gm, kind))
            cache.put_bytes("png", key, data)
        rel = f"img/maps/{entry.slug}-{kind}.png"
        out.put(rel, data)
        entry.images[kind] = rel


def _validate(entry: MapEntry, out: SiteWriter, cache: Cache, version: dict[str, str]
              ) -> None:
    render = render_of(entry.game)
    key = content_key("validate", entry.game, entry.text, version["analysis"])
    report = cache.get_json("validation", key)
    if report is None:
        report = render.validate_file(entry.path)
        cache.put_json("validation", key, report)
    entry.validation = report
    pkey = content_key("validation-picture", entry.game, entry.text, report,
                       version["analysis"])
    png = cache.get_bytes("png", pkey)
    if png is None:
        png = render.validation_picture(entry.text, report)
        cache.put_bytes("png", pkey, png)
    rel = f"img/maps/{entry.slug}-validation.png"
    out.put(rel, png)
    entry.images["validation"] = rel


# --------------------------------------------------------------------------- games


def load_records(records_dir: Path, problems: list[str]) -> list[Any]:
    """Every replay record (``*.json``, ``*.json.gz``) under ``records_dir``."""
    from ...sim.records import load_record

    out = []
    files = sorted(p for p in records_dir.rglob("*")
                   if p.is_file() and (p.name.endswith(".json") or p.name.endswith(".json.gz")))
    for p in files:
        try:
            out.append(load_record(p))
        except RecordError as exc:
            problems.append(f"record {p.name}: {exc.reason}")
    return out


def _game_entries(records: list[Any], origin: str, maps: list[MapEntry],
                  taken: set[str]) -> list[GameEntry]:
    by_hash = {(e.game, e.game_map.content_hash): e for e in maps if e.game_map is not None}
    out = []
    for rec in records:
        digest = content_key("record", _public(rec))
        map_entry = by_hash.get((rec.game, rec.map.hash))
        mslug = map_entry.slug if map_entry else slugify(f"{rec.game}-{rec.map.name}")
        ident = slugify(f"{mslug}-{digest[:10]}", taken)
        entry = GameEntry(ident, rec, origin, map_entry.slug if map_entry else None,
                          digest=digest)
        if map_entry is not None:
            map_entry.games.append(entry)
        out.append(entry)
    return out


def _public(rec: Any) -> dict[str, Any]:
    data = rec.public_json()
    data.pop("created", None)
    return data


def render_replay(record: Any) -> tuple[bytes, dict[str, Any], dict[str, Any]]:
    """The GIF bytes, the packed viewer data and the meta data of one record.

    Every turn is drawn once: the viewer shows them all, the GIF the game's sampling
    (:attr:`~atlas.sim.base.GameInfo.max_frames`).  The meta data is what pages need
    without the viewer data (see :class:`GameEntry`).
    """
    from ...sim.records import replay_states
    from ..frames import sample_turns
    from ..gif import record_gif_bytes
    from ..replay import record_frames
    from ..viewer import pack_viewer, viewer_data

    states = replay_states(record)
    frames = list(record_frames(record, states, max_frames=None))
    render = render_of(record.game)
    series = render.series(record.game_map(), dict(record.params), states)
    picks = sample_turns(len(frames), get_info(record.game).max_frames)
    gif = record_gif_bytes(record, frames=[frames[i] for i in picks])
    viewer = pack_viewer(viewer_data(record, states, frames=frames, series=series))
    meta = {"interest": viewer["interest"],
            "has_info": any(t.info for t in record.turns),
            "series": [{"name": s["name"], "phrase": s.get("phrase", s["name"]),
                        "unit": s["unit"]} for s in series]}
    return gif, viewer, meta


def _render_json(data: dict[str, Any]) -> tuple[bytes, dict[str, Any], dict[str, Any]] | str:
    from ...sim.records import record_from_json

    try:
        return render_replay(record_from_json(data))
    except (AtlasError, ValueError, KeyError, IndexError, TypeError) as exc:
        return str(exc)


def _render_games(entries: list[GameEntry], out: SiteWriter, cache: Cache,
                  version: dict[str, str], progress: bool) -> list[str]:
    """Write every game's GIF and public record and attach its meta data; cached
    renders are reused (their viewer data stays in the cache until a page needs it).
    Returns the problems.  (Rendering runs in this process: a replay takes a few
    milliseconds per turn, less than starting worker processes costs.)"""
    problems: list[str] = []
    todo: list[GameEntry] = []
    for e in entries:
        e.replay_key = content_key("replay", e.digest, version["replay"])
        e._cache = cache
        meta = cache.get_json("meta", e.replay_key)
        if meta is None:
            todo.append(e)
        else:
            e.meta = meta
            _attach(e, out, cache)
    for e in _bar(todo, "replays", progress):
        res = _render_json(e.record.public_json())
        if isinstance(res, str):
            problems.append(f"game {e.ident}: cannot render the replay: {res}")
            continue
        gif, viewer, meta = res
        meta["record_bytes"] = len(_record_bytes(e.record))
        cache.put_bytes("gif", e.replay_key, gif)
        cache.put_json("viewer", e.replay_key, viewer)
        cache.put_json("meta", e.replay_key, meta)
        e.meta, e.viewer = meta, viewer
        _attach(e, out, cache, gif)
    return problems


def _attach(entry: GameEntry, out: SiteWriter, cache: Cache, gif: bytes | None = None
            ) -> None:
    """Write the game's GIF and its public record (kept from the previous site when
    their keys did not change)."""
    key = entry.replay_key or ""
    rel = f"img/games/{entry.ident}.gif"

    def gif_bytes() -> bytes:
        data = gif if gif is not None else cache.get_bytes("gif", key)
        if data is None:
            raise AtlasError(f"the cached GIF of game {entry.ident} is missing")
        return data

    try:
        out.put(rel, gif_bytes, key=key)
    except AtlasError:
        cache.put_json("meta", key, None)  # a torn cache: render again next time
        return
    entry.gif = rel

    rec_rel = f"games/{entry.ident}.json"
    if "record_bytes" not in entry.meta:
        entry.meta["record_bytes"] = len(_record_bytes(entry.record))
    out.put(rec_rel, lambda: _record_bytes(entry.record), key=entry.digest)
    entry.record_file = rec_rel
    entry.record_kb = max(1, round(entry.meta["record_bytes"] / 1024))


def _record_bytes(record: Any) -> bytes:
    """The public record (no ``stderr``, no timestamp) as the site publishes it."""
    return (json.dumps(_public(record), separators=(",", ":"), ensure_ascii=False)
            + "\n").encode("utf-8")


def featured_game(games: Sequence[GameEntry]) -> GameEntry | None:
    """The game a map page features: the best by :func:`atlas.render.viewer.interest`.

    The rule: games every seat played out (no timeout, crash of a bot, invalid or
    illegal answer) first; among them the game whose winner came back from the furthest
    behind on the game's first charted measure (tron: Voronoi territory; isolation:
    mobility; connect5: open threats; Outpost: land), as a share of that measure's
    total; then a game with a winner over one without; then the longest; then the first
    listed.
    """
    best, best_key = None, None
    for g in games:
        if not g.drawn:
            continue
        key = tuple(g.meta.get("interest", {}).get("key", [0, 0, 0, 0]))
        if best_key is None or key > best_key:
            best, best_key = g, key
    return best


def _overlays(entry: MapEntry, out: SiteWriter, cache: Cache, version: dict[str, str]
              ) -> None:
    """Pictures of a few positions of the map's featured game, when its game draws any
    (Outpost: influence and supply lines)."""
    from ...sim.records import replay_states

    game = entry.featured
    if game is None or entry.game_map is None:
        return
    render = render_of(entry.game)
    key = content_key("overlays", game.digest, version["replay"])
    listing = cache.get_json("overlays", key)
    if listing is None:
        states = replay_states(game.record)
        pictures = render.game_pictures(entry.game_map, dict(game.record.params), states)
        listing = [caption for caption, _ in pictures]
        for i, (_, image) in enumerate(pictures):
            cache.put_bytes("png", f"{key}-{i}", png_bytes(image))
        cache.put_json("overlays", key, listing)
    for i, caption in enumerate(listing):
        data = cache.get_bytes("png", f"{key}-{i}")
        if data is None:
            continue
        rel = f"img/maps/{entry.slug}-featured-{i}.png"
        out.put(rel, data)
        entry.overlays.append((caption, rel))


# --------------------------------------------------------------------------- build


def build_site(maps_dir: str | os.PathLike[str] = "maps",
               out_dir: str | os.PathLike[str] = "site", *,
               records_dir: str | os.PathLike[str] | None = None,
               jobs: int | None = None, games: int | None = None,
               cache_dir: str | os.PathLike[str] | None = ".atlas-cache",
               progress: bool = True, tournament: bool = True,
               bots: dict[str, Sequence[str]] | None = None,
               time_limit: float | None = None,
               game_filter: Sequence[str] | None = None,
               log: Callable[[str], None] | None = None,
               params: Mapping[str, Mapping[str, Any]] | None = None) -> BuildResult:
    """Build the static site from ``maps_dir`` (and ``records_dir``) into ``out_dir``.

    Parameters
    ----------
    maps_dir, out_dir : path-like
    records_dir : path-like, optional
        Saved replay records to publish beside the tournament's games.
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
    bots : dict, optional
        Bots per game for the tournament, from the simplest to the strongest (default:
        every built-in bot, as its ``BOTS`` table lists them).
    time_limit : float, optional
        Seconds per move in the tournament (default: each game's
        :attr:`SitePlan.time <atlas.render.games.base.SitePlan>`).
    game_filter : sequence of str, optional
        Only these games take part in the tournament.
    log : callable, optional
        Where the summary and problem lines go (default: standard error).
    params : mapping, optional
        Game parameters per game name for the tournament, over the build's own
        (``atlas build --compat``).

    Returns
    -------
    BuildResult
        Never raises for a bad map or record: they are listed in ``problems``.
    """
    from .pages import pages_version, write_pages

    t0 = time.perf_counter()
    say = log or (lambda msg: print(msg, file=sys.stderr))
    out = Path(out_dir)
    cache = Cache(cache_dir)
    version = {kind: code_version(kind) for kind in ("analysis", "game", "replay")}
    version["pages"] = pages_version()
    problems: list[str] = []
    stages: dict[str, float] = {}
    mark = time.perf_counter()

    def stage(name: str) -> None:
        nonlocal mark
        now = time.perf_counter()
        stages[name] = now - mark
        mark = now

    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}-tmp-", dir=out.parent))
    os.chmod(tmp, default_mode(directory=True))
    writer = SiteWriter(tmp, out if out.is_dir() else None)
    warm = None
    try:
        for sub in ("img/maps", "img/games", "maps", "games", "bots", "static"):
            (tmp / sub).mkdir(parents=True, exist_ok=True)
        entries = load_maps(Path(maps_dir))
        for e in entries:
            if e.game in game_names() and render_of(e.game).validates and e.text:
                try:
                    _validate(e, writer, cache, version)
                except (AtlasError, OSError, ValueError) as exc:
                    problems.append(f"map {e.path}: cannot validate: {exc}")
        n_games = DEFAULT_GAMES if games is None else games
        plan = plan_tournament(entries, games_per=n_games, cache=cache, version=version,
                               bots=bots, time_limit=time_limit, game_filter=game_filter,
                               params=params) \
            if tournament and n_games > 0 else TournamentPlan()
        warm = start_warm_up(plan, jobs) if plan.todo and jobs != 1 else None
        for e in _bar(entries, "maps", progress):
            if not e.ok:
                problems.append(f"map {e.path}: {e.error}")
                continue
            try:
                _analysis(e, cache, version)
                _pictures(e, writer, cache, version)
            except (AtlasError, ValueError) as exc:
                e.error = f"analysis failed: {exc}"
                problems.append(f"map {e.path}: {e.error}")
            if e.validation is not None and not e.validation.get("valid"):
                problems.append(f"map {e.path}: invalid Outpost map "
                                f"({len(e.validation.get('errors', []))} errors)")
        stage("maps")
        finish_warm_up(warm)
        warm = None
        stage("warm-up")
        taken: set[str] = set()
        game_entries: list[GameEntry] = []
        if plan.specs:
            recs = play_tournament(plan, jobs=jobs, cache=cache, progress=progress,
                                   problems=problems)
            game_entries += _game_entries(recs, "tournament", entries, taken)
        if records_dir is not None:
            recs = load_records(Path(records_dir), problems)
            game_entries += _game_entries(recs, "imported", entries, taken)
        stage("games")
        problems += _render_games(game_entries, writer, cache, version, progress)
        for e in entries:
            e.featured = featured_game(e.games)
            try:
                _overlays(e, writer, cache, version)
            except (AtlasError, ValueError) as exc:
                problems.append(f"map {e.path}: cannot draw the featured game: {exc}")
        stage("replays")
        write_pages(writer, entries, game_entries, problems, code=version["pages"])
        writer.finish()
        _move_into_place(tmp, out)
        stage("pages")
    except BaseException:
        if warm is not None:
            warm[0].shutdown(cancel_futures=True)
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    result = BuildResult(out, entries, game_entries, problems, time.perf_counter() - t0,
                         cache.hits, cache.misses, stages, writer.written, writer.kept)
    ok_maps = sum(1 for m in entries if m.ok)
    say(f"atlas build: {ok_maps} of {len(entries)} maps, {len(game_entries)} games "
        f"-> {out}/index.html in {result.seconds:.1f} s "
        f"(cache: {cache.hits} hits, {cache.misses} misses; files: {writer.written} "
        f"written, {writer.kept} unchanged; "
        + ", ".join(f"{k} {v:.1f} s" for k, v in stages.items()) + ")")
    if problems:
        say(f"atlas build: {len(problems)} problem(s):")
        for p in problems:
            say(f"  - {p}")
    return result


def _move_into_place(tmp: Path, out: Path) -> None:
    old = None
    if out.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{out.name}-old-", dir=out.parent))
        old.rmdir()
        os.replace(out, old)
    try:
        os.replace(tmp, out)
    except OSError:
        if old is not None:
            os.replace(old, out)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
