"""``atlas build``: maps, analyses, a built-in tournament and saved records -> a static site.

Stages (each a plain function from data to data, each result cached by content):

1. find and read the maps (an unreadable map becomes an error page, not a failure);
2. analyse each map and draw its pictures (:mod:`atlas.render.images`);
3. validate every Outpost map (:func:`atlas.analyze.validate.validate_map_file`);
4. play the built-in tournament: every built-in bot of a game against every other on
   each of its (valid) maps, in both seats (Outpost: rotated seatings), with short
   per-move times (:data:`TOURNAMENT_TIME`) and, for Outpost, a shorter game
   (:data:`OUTPOST_BUILD_PARAMS`);
5. load the saved records given with ``--records`` (published like the tournament's);
6. render a GIF per game, compute standings, write the pages (:mod:`atlas.render.site.pages`).

The site is written to a temporary folder beside the target and moved into place at
the end, so a failed build leaves the previous site whole.  Cached results live in
``.atlas-cache/`` keyed by the content hash of their inputs and of the code
(:func:`atlas.render.site.cache.code_version`).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from ...errors import AtlasError, MapFormatError, RecordError
from ...fsutil import default_mode
from ...maps import GameMap, find_maps, format_map, read_map
from ...sim.registry import game_names, get_info
from ..games import render_of
from ..images import png_bytes
from .cache import Cache, code_version, content_key
from .pages import slugify

__all__ = [
    "MapEntry",
    "GameEntry",
    "BuildResult",
    "build_site",
    "TOURNAMENT_TIME",
    "BUILD_PARAMS",
    "DEFAULT_GAMES",
    "figures_of",
    "render_replay",
]

#: Seconds per move in the built-in tournament, by game (short: the cold build of the
#: bundled maps has a 3-minute budget on 2 cores).
#: Outpost's bots need about 0.1 s for a useful answer; its games are few and short.
#: A game not named here gets :data:`DEFAULT_TOURNAMENT_TIME`.
TOURNAMENT_TIME = {"tron": 0.01, "isolation": 0.02, "connect5": 0.02, "outpost": 0.1}
DEFAULT_TOURNAMENT_TIME = 0.05
#: Game parameters of the built-in tournament, by game: Outpost games are shorter than
#: the spec's T.
BUILD_PARAMS: dict[str, dict[str, Any]] = {"outpost": {"T": 200}}
#: Games per pairing, seating and map in the built-in tournament.
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
    games: list["GameEntry"] = field(default_factory=list)

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
    """A played game as the site shows it."""

    ident: str
    record: Any
    origin: str = "tournament"
    map_slug: str | None = None
    gif: str | None = None
    viewer: dict[str, Any] | None = None

    @property
    def page(self) -> str:
        return f"games/{self.ident}.html"


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


def _pictures(entry: MapEntry, out: Path, cache: Cache, version: dict[str, str]) -> None:
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
        (out / rel).write_bytes(data)
        entry.images[kind] = rel


def _validate(entry: MapEntry, out: Path, cache: Cache, version: dict[str, str]) -> None:
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
    (out / rel).write_bytes(png)
    entry.images["validation"] = rel


# --------------------------------------------------------------------------- games


def _tournament(entries: list[MapEntry], *, games_per: int, jobs: int | None,
                cache: Cache, version: dict[str, str], progress: bool,
                bots: dict[str, Sequence[str]] | None, time_limit: float | None,
                game_filter: Sequence[str] | None, problems: list[str],
                params: Mapping[str, Mapping[str, Any]] | None = None) -> list[Any]:
    """Records of the built-in tournament (cached game by game)."""
    from ...bots import bot_names
    from ...arena import tournament as tour
    from ...sim.records import record_from_json

    records: list[Any] = []
    todo: list[tuple[str, Any]] = []
    for game in game_names():
        if game_filter is not None and game not in game_filter:
            continue
        maps = [e.game_map for e in entries if e.game == game and e.valid]
        names = list(bots.get(game, ()) if bots is not None else bot_names(game))
        if not maps or len(names) < 2:
            continue
        game_params = {**BUILD_PARAMS.get(game, {}), **(params or {}).get(game, {})}
        limit = TOURNAMENT_TIME.get(game, DEFAULT_TOURNAMENT_TIME) if time_limit is None \
            else time_limit
        specs = tour.schedule_games(game, maps, names, games_per, game_params, limit)
        for spec in specs:
            key = content_key("game", _spec_json(spec), version["game"])
            data = cache.get_json("record", key)
            if data is not None:
                try:
                    records.append(record_from_json(data))
                    continue
                except RecordError:
                    pass
            todo.append((key, spec))
    if todo:
        done = tour.run_games([s for _, s in todo], jobs=jobs,
                              progress=progress)
        for (key, spec), rec in zip(todo, done):
            if tour.is_error(rec):  # not cached: the next build tries again
                problems.append(f"game {spec.game} {' vs '.join(spec.players)} on "
                                f"{spec.map_name} could not be played: "
                                f"{rec.result.detail.splitlines()[-1][:200]}")
                continue
            cache.put_json("record", key, rec.to_json())
            records.append(rec)
    return records


def _spec_json(spec: Any) -> Any:
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
        digest = content_key("record", _public(rec))[:10]
        map_entry = by_hash.get((rec.game, rec.map.hash))
        mslug = map_entry.slug if map_entry else slugify(f"{rec.game}-{rec.map.name}")
        ident = slugify(f"{mslug}-{digest}", taken)
        entry = GameEntry(ident, rec, origin, map_entry.slug if map_entry else None)
        if map_entry is not None:
            map_entry.games.append(entry)
        out.append(entry)
    return out


def _public(rec: Any) -> dict[str, Any]:
    data = rec.public_json()
    data.pop("created", None)
    return data


def render_replay(record: Any) -> tuple[bytes, dict[str, Any]]:
    """The GIF bytes and the viewer data of one record (a worker's job)."""
    from ...sim.records import replay_states
    from ..replay import record_frames
    from ..gif import record_gif_bytes
    from ..viewer import viewer_data

    limit = get_info(record.game).max_frames
    frames = list(record_frames(record, replay_states(record), max_frames=limit))
    return record_gif_bytes(record, frames=frames), viewer_data(record, frames=frames)


def _render_json(data: dict[str, Any]) -> tuple[bytes, dict[str, Any]] | str:
    from ...sim.records import record_from_json

    try:
        return render_replay(record_from_json(data))
    except (AtlasError, ValueError, KeyError, IndexError, TypeError) as exc:
        return str(exc)


def _render_games(entries: list[GameEntry], out: Path, cache: Cache,
                  version: dict[str, str], progress: bool) -> list[str]:
    """Write every game's GIF and attach its viewer data; cached ones are reused.
    Returns the problems.  (Rendering runs in this process: a replay takes a few
    milliseconds per turn, less than starting worker processes costs.)"""
    problems: list[str] = []
    todo: list[tuple[GameEntry, str]] = []
    for e in entries:
        key = content_key("gif", _public(e.record), version["replay"])
        gif = cache.get_bytes("gif", key)
        viewer = cache.get_json("viewer", key) if gif is not None else None
        if gif is None or viewer is None:
            todo.append((e, key))
        else:
            _attach(e, out, gif, viewer)
    for e, key in _bar(todo, "replays", progress):
        res = _render_json(e.record.public_json())
        if isinstance(res, str):
            problems.append(f"game {e.ident}: cannot render the replay: {res}")
            continue
        gif, viewer = res
        cache.put_bytes("gif", key, gif)
        cache.put_json("viewer", key, viewer)
        _attach(e, out, gif, viewer)
    return problems


def _attach(entry: GameEntry, out: Path, gif: bytes, viewer: dict[str, Any]) -> None:
    rel = f"img/games/{entry.ident}.gif"
    (out / rel).write_bytes(gif)
    entry.gif = rel
    entry.viewer = viewer


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
        Games per pairing, seating and map (default :data:`DEFAULT_GAMES`; 0 skips
        the tournament).
    cache_dir : path-like or None
        The content cache (``None``: no cache).
    progress : bool
        Show progress bars on the long stages.
    tournament : bool
        Play the built-in tournament.
    bots : dict, optional
        Bots per game for the tournament (default: every built-in bot).
    time_limit : float, optional
        Seconds per move in the tournament (default :data:`TOURNAMENT_TIME`).
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
    from .pages import write_pages

    t0 = time.perf_counter()
    say = log or (lambda msg: print(msg, file=sys.stderr))
    out = Path(out_dir)
    cache = Cache(cache_dir)
    version = {kind: code_version(kind) for kind in ("analysis", "game", "replay")}
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
    try:
        for sub in ("img/maps", "img/games", "maps", "games", "bots", "static"):
            (tmp / sub).mkdir(parents=True, exist_ok=True)
        entries = load_maps(Path(maps_dir))
        for e in _bar(entries, "maps", progress):
            if e.game in game_names() and render_of(e.game).validates and e.text:
                try:
                    _validate(e, tmp, cache, version)
                except (AtlasError, OSError, ValueError) as exc:
                    problems.append(f"map {e.path}: cannot validate: {exc}")
            if not e.ok:
                problems.append(f"map {e.path}: {e.error}")
                continue
            try:
                _analysis(e, cache, version)
                _pictures(e, tmp, cache, version)
            except (AtlasError, ValueError) as exc:
                e.error = f"analysis failed: {exc}"
                problems.append(f"map {e.path}: {e.error}")
            if e.validation is not None and not e.validation.get("valid"):
                problems.append(f"map {e.path}: invalid Outpost map "
                                f"({len(e.validation.get('errors', []))} errors)")
        stage("maps")
        taken: set[str] = set()
        game_entries: list[GameEntry] = []
        n_games = DEFAULT_GAMES if games is None else games
        if tournament and n_games > 0:
            recs = _tournament(entries, games_per=n_games, jobs=jobs, cache=cache,
                               version=version, progress=progress, bots=bots,
                               time_limit=time_limit, game_filter=game_filter,
                               problems=problems, params=params)
            game_entries += _game_entries(recs, "tournament", entries, taken)
        if records_dir is not None:
            recs = load_records(Path(records_dir), problems)
            game_entries += _game_entries(recs, "imported", entries, taken)
        stage("games")
        problems += _render_games(game_entries, tmp, cache, version, progress)
        stage("replays")
        write_pages(tmp, entries, game_entries, problems)
        _move_into_place(tmp, out)
        stage("pages")
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    result = BuildResult(out, entries, game_entries, problems, time.perf_counter() - t0,
                         cache.hits, cache.misses, stages)
    ok_maps = sum(1 for m in entries if m.ok)
    say(f"atlas build: {ok_maps} of {len(entries)} maps, {len(game_entries)} games "
        f"-> {out}/index.html in {result.seconds:.1f} s "
        f"(cache: {cache.hits} hits, {cache.misses} misses; "
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
