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

from ...errors import AtlasError, MapFormatError, OutputFolderError, PlanError, RecordError
from ...fsutil import default_mode, read_regular_file
from ...maps import GameMap, format_map, read_map
from ...sim.registry import game_names, get_info
from ..games import render_of
from ..images import png_bytes
from .cache import Cache, code_version, content_key
from .output import MANIFEST, SiteWriter
from .pages import slugify
from .tournament import (
    SiteTournament,
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
    #: The file as the pages name it (from its folder; :func:`_shown_paths`).
    shown_path: str = ""
    #: The validation report's file in the site (``validation/SLUG.json``).
    report_file: str | None = None
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
    refused: bool = False
    #: The organiser's tournament (``atlas build --tournament DIR``) the game belongs to.
    event: str | None = None
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

    return tqdm(
        items, desc=desc, total=total, unit="", leave=False, file=sys.stderr, dynamic_ncols=True
    )


# --------------------------------------------------------------------------- maps


def _game_of(path: Path, root: Path) -> str | None:
    games = game_names()
    for part in path.relative_to(root).parts[:-1]:
        if part in games:
            return part
    return None


def load_maps(maps_dir: Path, problems: list[str] | None = None) -> list[MapEntry]:
    """Every map file under ``maps_dir``; unreadable ones carry their error.

    Entries left out of the walk (a symlink leading out of the folder, a FIFO, a
    device: :func:`atlas.maps.scan_maps`) are listed in ``problems``, never read.
    """
    from ...fsutil import read_regular_file
    from ...maps import MAX_MAP_BYTES, scan_maps

    entries: list[MapEntry] = []
    taken: set[str] = set()
    scan = scan_maps(maps_dir) if maps_dir.exists() else None
    if scan is not None and problems is not None:
        problems += [f"map {exc}" for exc in scan.problems]
    for p in scan.files if scan is not None else ():
        game = _game_of(p, maps_dir if maps_dir.is_dir() else p.parent)
        try:
            text = read_regular_file(p, MAX_MAP_BYTES, MapFormatError).decode(
                "utf-8", "replace"
            )
        except MapFormatError as exc:
            text = ""
            err: str | None = exc.reason
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


def _pictures(entry: MapEntry, out: SiteWriter, cache: Cache, version: dict[str, str]) -> None:
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


def _validate(entry: MapEntry, out: SiteWriter, cache: Cache, version: dict[str, str]) -> None:
    render = render_of(entry.game)
    key = content_key("validate", entry.game, entry.text, version["analysis"])
    report = cache.get_json("validation", key)
    if report is None:
        report = render.validate_file(entry.path)
        cache.put_json("validation", key, report)
    entry.validation = report
    pkey = content_key(
        "validation-picture", entry.game, entry.text, report, version["analysis"]
    )
    png = cache.get_bytes("png", pkey)
    if png is None:
        png = render.validation_picture(entry.text, report)
        cache.put_bytes("png", pkey, png)
    rel = f"img/maps/{entry.slug}-validation.png"
    out.put(rel, png)
    entry.images["validation"] = rel
    # the report itself, as `atlas validate --json` gives it: each submission's own file
    report_rel = f"validation/{entry.slug}.json"
    # named by the file alone: the builder's folders are not published
    out.put(
        report_rel,
        json.dumps({**report, "file": os.path.basename(entry.path)}, indent=1, sort_keys=True)
        + "\n",
    )
    entry.report_file = report_rel


# --------------------------------------------------------------------------- games


def load_records(records_dir: Path, problems: list[str]) -> list[Any]:
    """Every replay record (``*.json``, ``*.json.gz``) under ``records_dir``.

    The walk enters no symlinked folder and reads a symlinked file only when it leads
    to a regular file inside ``records_dir``; what it leaves out is listed in
    ``problems``.  Each record is loaded within the readers' limits
    (:func:`atlas.sim.records.load_record`) and checked when it is drawn.
    """
    from ...sim.records import load_record

    out = []
    top = records_dir.resolve()
    files: list[Path] = []
    for here, dirs, names in os.walk(records_dir, followlinks=False):
        dirs.sort()
        for name in sorted(names):
            if not (name.endswith(".json") or name.endswith(".json.gz")):
                continue
            p = Path(here) / name
            if p.is_symlink():
                target = p.resolve()
                if not (target.is_file() and target.is_relative_to(top)):
                    problems.append(
                        f"record {p}: left out, a link that leads out of {records_dir}"
                    )
                    continue
            elif not p.is_file():
                problems.append(f"record {p}: left out, not a regular file")
                continue
            files.append(p)
    for p in files:
        try:
            out.append(load_record(p))
        except RecordError as exc:
            problems.append(f"record {p.name}: {exc.reason}")
    return out


def _shown_paths(roots: Sequence[Path]) -> Callable[[str], str]:
    """A function that rewrites ``ROOT/...`` (as given, absolute or resolved) to
    ``NAME/...`` in a text, for each of ``roots``: a published page names a bad file
    from its folder, never by a path of the machine that built the site."""
    forms: dict[str, str] = {}
    for root in roots:
        for form in {str(root), os.path.abspath(root), str(root.resolve())}:
            if form not in ("", ".", "/"):
                forms[form.rstrip("/") + "/"] = (root.resolve().name or "maps") + "/"

    def shown(text: str) -> str:
        for form in sorted(forms, key=len, reverse=True):
            text = text.replace(form, forms[form])
        return text

    return shown


def load_event(
    folder: Path, problems: list[str], taken: Sequence[str] = ()
) -> tuple[str, list[Any]] | None:
    """The name and records of an organiser's tournament folder (``atlas tournament
    --out DIR``: ``records/``, ``results.json``, ``tournament.toml``), or None with the
    reason in ``problems``.  The name is the plan's ``name`` when it has one, else the
    folder's; a name already published gets the folder's parent as a prefix."""
    records = folder / "records"
    if not folder.is_dir():
        problems.append(f"tournament {folder}: not a folder")
        return None
    if not records.is_dir():
        problems.append(
            f"tournament {folder}: no records/ folder (publish a folder "
            "written by atlas tournament --out)"
        )
        return None
    name = folder.resolve().name or "tournament"
    plan = folder / "tournament.toml"
    if plan.is_file() and not plan.is_symlink():
        import tomllib

        try:
            data = tomllib.loads(read_regular_file(plan, 1 << 20, PlanError).decode("utf-8"))
            if isinstance(data.get("name"), str) and data["name"].strip():
                name = data["name"].strip()
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, AtlasError) as exc:
            problems.append(f"tournament {plan}: cannot read the plan: {exc}")
    if name in taken:
        name = f"{folder.resolve().parent.name}/{name}"
    recs = load_records(records, problems)
    if not recs:
        problems.append(f"tournament {folder}: no records to publish")
        return None
    return name, recs


def _game_entries(
    records: list[Any], origin: str, maps: list[MapEntry], taken: set[str]
) -> list[GameEntry]:
    by_hash = {(e.game, e.game_map.content_hash): e for e in maps if e.game_map is not None}
    out = []
    for rec in records:
        digest = content_key("record", _public(rec))
        map_entry = by_hash.get((rec.game, rec.map.hash))
        mslug = map_entry.slug if map_entry else slugify(f"{rec.game}-{rec.map.name}")
        ident = slugify(f"{mslug}-{digest[:10]}", taken)
        entry = GameEntry(
            ident, rec, origin, map_entry.slug if map_entry else None, digest=digest
        )
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

    The record is verified on the way (:func:`atlas.sim.records.verify_record`): one
    that claims a position, a result or statuses its moves do not give raises
    :class:`~atlas.errors.RecordError`, and the site refuses it.

    Every turn is drawn once: the viewer shows them all, the GIF the game's sampling
    (:attr:`~atlas.sim.base.GameInfo.max_frames`).  The meta data is what pages need
    without the viewer data (see :class:`GameEntry`).
    """
    from ...sim.records import replay_states, verify_record
    from ..frames import sample_turns
    from ..gif import record_gif_bytes
    from ..replay import record_frames
    from ..viewer import pack_viewer, viewer_data

    states = replay_states(record)
    verify_record(record, states)  # the site publishes only what its moves give
    frames = list(record_frames(record, states, max_frames=None))
    render = render_of(record.game)
    series = render.series(record.game_map(), dict(record.params), states)
    picks = sample_turns(len(frames), get_info(record.game).max_frames)
    gif = record_gif_bytes(record, frames=[frames[i] for i in picks])
    viewer = pack_viewer(viewer_data(record, states, frames=frames, series=series))
    meta = {
        "interest": viewer["interest"],
        "has_info": any(t.info for t in record.turns),
        "series": [
            {"name": s["name"], "phrase": s.get("phrase", s["name"]), "unit": s["unit"]}
            for s in series
        ],
    }
    return gif, viewer, meta


def _render_json(data: dict[str, Any]) -> tuple[bytes, dict[str, Any], dict[str, Any]] | str:
    from ...sim.records import record_from_json

    try:
        return render_replay(record_from_json(data))
    except (AtlasError, ValueError, KeyError, IndexError, TypeError) as exc:
        return str(exc)


def _render_games(
    entries: list[GameEntry],
    out: SiteWriter,
    cache: Cache,
    version: dict[str, str],
    progress: bool,
) -> list[str]:
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
            problems.append(f"game {e.ident} ({e.origin}): refused, not published: {res}")
            e.refused = True
            continue
        gif, viewer, meta = res
        meta["record_bytes"] = len(_record_bytes(e.record))
        cache.put_bytes("gif", e.replay_key, gif)
        cache.put_json("viewer", e.replay_key, viewer)
        cache.put_json("meta", e.replay_key, meta)
        e.meta, e.viewer = meta, viewer
        _attach(e, out, cache, gif)
    return problems


def _attach(entry: GameEntry, out: SiteWriter, cache: Cache, gif: bytes | None = None) -> None:
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
    return (
        json.dumps(_public(record), separators=(",", ":"), ensure_ascii=False) + "\n"
    ).encode("utf-8")


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


def _overlays(entry: MapEntry, out: SiteWriter, cache: Cache, version: dict[str, str]) -> None:
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
    bots: dict[str, Sequence[str]] | None = None,
    time_limit: float | None = None,
    game_filter: Sequence[str] | None = None,
    log: Callable[[str], None] | None = None,
    params: Mapping[str, Mapping[str, Any]] | None = None,
) -> BuildResult:
    """Build the static site from ``maps_dir`` (and ``records_dir``) into ``out_dir``.

    Parameters
    ----------
    maps_dir, out_dir : path-like
    records_dir : path-like, optional
        Saved replay records to publish beside the tournament's games.
    tournaments : sequence of path-like
        Output folders of ``atlas tournament --out`` (:func:`load_event`): each is
        published with its own standings page, its players apart from the built-in
        round robin's.
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
    check_site_folder(out)  # before any work: atlas writes only where it may
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
        for sub in (
            "img/maps",
            "img/games",
            "maps",
            "games",
            "bots",
            "static",
            "validation",
            "tournaments",
        ):
            (tmp / sub).mkdir(parents=True, exist_ok=True)
        entries = load_maps(Path(maps_dir), problems)
        for e in entries:
            if e.game in game_names() and render_of(e.game).validates and e.text:
                try:
                    _validate(e, writer, cache, version)
                except (AtlasError, OSError, ValueError) as exc:
                    problems.append(f"map {e.path}: cannot validate: {exc}")
        n_games = DEFAULT_GAMES if games is None else games
        plan = (
            plan_tournament(
                entries,
                games_per=n_games,
                cache=cache,
                version=version,
                bots=bots,
                time_limit=time_limit,
                game_filter=game_filter,
                params=params,
            )
            if tournament and n_games > 0
            else SiteTournament()
        )
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
                problems.append(
                    f"map {e.path}: invalid Outpost map "
                    f"({len(e.validation.get('errors', []))} errors)"
                )
        stage("maps")
        finish_warm_up(warm)
        warm = None
        stage("warm-up")
        taken: set[str] = set()
        game_entries: list[GameEntry] = []
        if plan.specs:
            recs = play_tournament(
                plan, jobs=jobs, cache=cache, progress=progress, problems=problems
            )
            game_entries += _game_entries(recs, "tournament", entries, taken)
        if records_dir is not None:
            recs = load_records(Path(records_dir), problems)
            game_entries += _game_entries(recs, "imported", entries, taken)
        events: list[str] = []
        for folder in tournaments:
            event = load_event(Path(folder), problems, events)
            if event is None:
                continue
            name, recs = event
            events.append(name)
            for g in _game_entries(recs, "tournament " + name, entries, taken):
                g.event = name
                game_entries.append(g)
        stage("games")
        problems += _render_games(game_entries, writer, cache, version, progress)
        game_entries = [g for g in game_entries if not g.refused]
        for e in entries:
            e.games = [g for g in e.games if not g.refused]
        for e in entries:
            e.featured = featured_game(e.games)
            try:
                _overlays(e, writer, cache, version)
            except (AtlasError, ValueError) as exc:
                problems.append(f"map {e.path}: cannot draw the featured game: {exc}")
        stage("replays")
        # the pages name the inputs from their folders, not by the builder's paths
        shown = _shown_paths(
            [
                Path(maps_dir),
                *([Path(records_dir)] if records_dir else []),
                *(Path(t) for t in tournaments),
            ]
        )
        for e in entries:
            e.shown_path = shown(e.path)
            if e.error:
                e.error = shown(e.error)
        write_pages(
            writer, entries, game_entries, [shown(p) for p in problems], code=version["pages"]
        )
        writer.finish()
        _mark(tmp)
        _move_into_place(tmp, out)
        stage("pages")
    except BaseException:
        if warm is not None:
            warm[0].shutdown(cancel_futures=True)
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    result = BuildResult(
        out,
        entries,
        game_entries,
        problems,
        time.perf_counter() - t0,
        cache.hits,
        cache.misses,
        stages,
        writer.written,
        writer.kept,
    )
    ok_maps = sum(1 for m in entries if m.ok)
    built = f" ({len(problems)} problem{'s' if len(problems) != 1 else ''})" if problems else ""
    say(
        f"atlas build{built}: {ok_maps} of {len(entries)} maps, {len(game_entries)} games "
        f"-> {out}/index.html in {result.seconds:.1f} s "
        f"(cache: {cache.hits} hits, {cache.misses} misses; files: {writer.written} "
        f"written, {writer.kept} unchanged; "
        + ", ".join(f"{k} {v:.1f} s" for k, v in stages.items())
        + ")"
    )
    for p in problems:
        say(f"  - {p}")
    return result


#: The file atlas leaves in every site it builds: the list of the files it wrote.
SITE_MARKER = ".atlas-site.json"


def check_site_folder(out: Path) -> None:
    """Whether atlas may build a site into ``out``: a folder that does not exist, is
    empty, or carries the marker of a site atlas built.

    Raises
    ------
    OutputFolderError
        ``out`` is a file, or a folder holding what atlas did not write (nothing is
        touched then).
    """
    if not out.exists() and not out.is_symlink():
        return
    if not out.is_dir() or out.is_symlink():
        raise OutputFolderError(f"{out} is not a folder atlas may build a site in")
    if not any(out.iterdir()):
        return
    if (out / SITE_MARKER).is_file() or (out / MANIFEST).is_file():
        return
    raise OutputFolderError(
        f"{out} holds files atlas did not write; give an empty or new "
        "folder (atlas builds only into a folder it made)"
    )


def _written_files(folder: Path) -> list[str]:
    return sorted(
        str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() or p.is_symlink()
    )


def _mark(tmp: Path) -> None:
    files = _written_files(tmp)
    data = {"format": "atlas-site", "version": 1, "files": files}
    (tmp / SITE_MARKER).write_text(
        json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8"
    )


def _foreign_files(old: Path) -> list[str]:
    """Files in a site atlas built that atlas did not write there (the user's)."""
    try:
        listed = json.loads((old / SITE_MARKER).read_text(encoding="utf-8"))["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return []  # a site of an older atlas: every file is atlas's
    mine = set(listed) | {SITE_MARKER}
    return [f for f in _written_files(old) if f not in mine]


def _move_into_place(tmp: Path, out: Path) -> None:
    """Swap the new site in; the files a user added to the old site are carried over
    (never deleted), and a failure leaves the old site whole."""
    foreign = _foreign_files(out) if out.is_dir() else []
    clash = [f for f in foreign if (tmp / f).exists()]
    if clash:
        raise OutputFolderError(
            f"{out} holds files atlas did not write where the new site puts its own: "
            f"{', '.join(clash[:5])}; move them away first"
        )
    for f in foreign:
        (tmp / f).parent.mkdir(parents=True, exist_ok=True)
        if (out / f).is_symlink():
            os.symlink(os.readlink(out / f), tmp / f)
        else:
            os.link(out / f, tmp / f)  # the same file, kept when the old site goes
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
