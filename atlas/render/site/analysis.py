"""The maps of a build: read them (:func:`load_maps`), validate those whose game
checks submissions, analyse and draw each (:func:`analyse_maps`).  Each result is
cached by the map's text and the code version."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ...errors import AtlasError, MapFormatError, located
from ...maps import format_map, read_map
from ...maps.validation import validating_games, validator_of
from ...sim.registry import game_names, get_info
from ..images import png_bytes
from ..registry import render_of
from .cache import content_key
from .entries import BuildContext, MapEntry, progress_bar
from .pages import slugify

__all__ = ["load_maps", "validate_maps", "analyse_maps", "figures_of"]


def _game_of(path: Path, root: Path) -> str | None:
    games = game_names()
    for part in path.relative_to(root).parts[:-1]:
        if part in games:
            return part
    return None


def load_maps(
    maps_dir: Path, problems: list[str] | None = None, taken: set[str] | None = None
) -> list[MapEntry]:
    """Every map file under ``maps_dir``; unreadable ones carry their error.  Their
    pages' names (``slug``) are unique within ``taken`` (the names other maps folders
    of the build took), which they join.

    Entries left out of the walk (a symlink leading out of the folder, a FIFO, a
    device: :func:`atlas.maps.scan_maps`) are listed in ``problems``, never read.
    """
    from ...fsutil import read_regular_file
    from ...maps import MAX_MAP_BYTES, scan_maps

    entries: list[MapEntry] = []
    taken = set() if taken is None else taken
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
                entry.error = exc.reason
                entry.error_line = exc.line
                if exc.line is not None:  # the pages show the line before the reason
                    entry.error = f"line {exc.line}: {exc.reason}"
        else:
            entry.error = err
        entry.slug = slugify(f"{entry.game}-{entry.name}", taken)
        entries.append(entry)
    return entries


def validate_maps(maps: list[MapEntry], ctx: BuildContext) -> list[str]:
    """Validate each map whose game checks submitted maps (its ``validation`` module,
    :func:`atlas.maps.validation.validator_of`): its report, its picture (by the game's
    painter module) and the report's own file in the site.  Returns the problems."""
    problems: list[str] = []
    validating = validating_games()
    for e in maps:
        if e.game in validating and e.text:
            try:
                _validate(e, ctx)
            except (AtlasError, OSError, ValueError) as exc:
                problems.append(f"map {e.path}: cannot validate: {exc}")
    return problems


#: Maps to analyse below which a build analyses them in its own process, unless a Dask
#: scheduler is given (starting workers costs more than it saves).
PARALLEL_MAPS = 24


def analyse_maps(
    maps: list[MapEntry],
    ctx: BuildContext,
    *,
    jobs: int | None = 1,
    scheduler: str | None = None,
) -> list[str]:
    """Analyse and draw each map that could be read (its summary, figures and
    pictures).  Returns the problems: maps that could not be read or analysed, and
    maps that failed their validation.

    The maps whose analysis or pictures the cache lacks are worked out on the Dask
    scheduler at ``scheduler`` when one is given, or on ``jobs`` local worker processes
    when there are at least :data:`PARALLEL_MAPS` of them (:func:`map_job`, through
    :func:`atlas.arena.executors.run_jobs`); else in this process.  Whatever works them
    out, this process stores them and writes the site's files, so the bytes are the
    same."""
    problems: list[str] = []
    made: dict[int, tuple[dict[str, Any], dict[str, bytes]]] = {}
    # the cache is looked at only when the maps may go elsewhere (a few maps are
    # worked out here, as each is drawn)
    farm = scheduler or (len(maps) >= PARALLEL_MAPS and (jobs or os.cpu_count() or 1) > 1)
    todo = [i for i, e in enumerate(maps) if e.ok and _missing(e, ctx)] if farm else []
    workers = min(jobs or os.cpu_count() or 1, len(todo))
    if todo and (scheduler or (len(todo) >= PARALLEL_MAPS and workers > 1)):
        from ...arena.executors import run_jobs

        items = [_map_item(maps[i], ctx) for i in todo]

        def failed(j: int, why: str) -> None:
            e = maps[todo[j]]
            e.error = f"analysis failed: {why}"

        def done(j: int, value: Any) -> None:
            made[todo[j]] = value

        run_jobs(items, map_job, done, failed, jobs=workers, scheduler=scheduler)
    for i, e in enumerate(progress_bar(maps, "maps", ctx.progress)):
        if not e.ok:  # a map that does not read, or whose worker's job failed
            problems.append("map " + located(e.path, e.error_line, e.reason))
            continue
        try:
            _analysis(e, ctx, made.get(i))
            _pictures(e, ctx, made.get(i))
        except (AtlasError, ValueError) as exc:
            e.error = f"analysis failed: {exc}"
            problems.append(f"map {e.path}: {e.error}")
        if e.validation is not None and not e.validation.get("valid"):
            problems.append(
                f"map {e.path}: invalid {get_info(e.game).title} map "
                f"({len(e.validation.get('errors', []))} errors)"
            )
    return problems


def _keys(entry: MapEntry, ctx: BuildContext) -> tuple[str, dict[str, str]]:
    """The cache keys of a map's analysis and of each of its pictures."""
    gm = entry.game_map
    assert gm is not None
    text, version = format_map(gm), ctx.version["analysis"]
    pictures = {
        kind: content_key("picture", kind, gm.game, text, version)
        for kind in render_of(gm.game).picture_kinds(gm)
    }
    return content_key("analysis", gm.game, text, version), pictures


def _missing(entry: MapEntry, ctx: BuildContext) -> bool:
    """Whether the cache lacks the map's analysis or one of its pictures."""
    summary_key, pictures = _keys(entry, ctx)
    return not ctx.cache.has("analysis", summary_key) or not all(
        ctx.cache.has("png", key) for key in pictures.values()
    )


def _map_item(entry: MapEntry, ctx: BuildContext) -> tuple[str, str, str]:
    """What a worker needs to analyse a map: its game, its text and its name."""
    gm = entry.game_map
    assert gm is not None
    return gm.game, format_map(gm), gm.name


def map_job(item: tuple[str, str, str]) -> tuple[dict[str, Any], dict[str, bytes]]:
    """A worker's job: the summary of a map (``game``, ``text``, ``name``) and the PNG
    bytes of each of its pictures, as :func:`analyse_maps` stores them."""
    from ...maps import parse_map
    from ...sim.registry import summarize_map

    game, text, name = item
    gm = parse_map(text, game=game, name=name)
    render = render_of(game)
    pictures = {kind: png_bytes(render.picture(gm, kind)) for kind in render.picture_kinds(gm)}
    return summarize_map(gm), pictures


def _analysis(
    entry: MapEntry, ctx: BuildContext, made: tuple[dict[str, Any], Any] | None = None
) -> None:
    from ...sim.registry import summarize_map

    gm = entry.game_map
    assert gm is not None
    key = content_key("analysis", gm.game, format_map(gm), ctx.version["analysis"])
    summary: dict[str, Any] | None
    if made is not None:  # worked out by a worker
        summary = made[0]
        ctx.cache.put_json("analysis", key, summary)
    else:
        summary = ctx.cache.get_json("analysis", key)
    if summary is None:
        summary = summarize_map(gm)
        ctx.cache.put_json("analysis", key, summary)
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


def _pictures(
    entry: MapEntry, ctx: BuildContext, made: tuple[Any, dict[str, bytes]] | None = None
) -> None:
    gm = entry.game_map
    assert gm is not None
    render = render_of(gm.game)
    for kind in render.picture_kinds(gm):
        key = content_key("picture", kind, gm.game, format_map(gm), ctx.version["analysis"])
        data = made[1].get(kind) if made is not None else None
        if data is not None:
            ctx.cache.put_bytes("png", key, data)
        else:
            data = ctx.cache.get_bytes("png", key)
        if data is None:
            data = png_bytes(render.picture(gm, kind))
            ctx.cache.put_bytes("png", key, data)
        rel = f"img/maps/{entry.slug}-{kind}.png"
        ctx.out.put(rel, data)
        entry.images[kind] = rel


def _validate(entry: MapEntry, ctx: BuildContext) -> None:
    key = content_key("validate", entry.game, entry.text, ctx.version["analysis"])
    report = ctx.cache.get_json("validation", key)
    if report is None:
        report = validator_of(entry.game).validate_file(entry.path).to_json()
        ctx.cache.put_json("validation", key, report)
    entry.validation = report
    pkey = content_key(
        "validation-picture", entry.game, entry.text, report, ctx.version["analysis"]
    )
    png = ctx.cache.get_bytes("png", pkey)
    if png is None:
        png = render_of(entry.game).validation_picture(entry.text, report)
        if png is not None:
            ctx.cache.put_bytes("png", pkey, png)
    if png is not None:
        rel = f"img/maps/{entry.slug}-validation.png"
        ctx.out.put(rel, png)
        entry.images["validation"] = rel
    # the report itself, as `atlas validate --json` gives it: each submission's own file
    report_rel = f"validation/{entry.slug}.json"
    # named by the file alone: the builder's folders are not published
    ctx.out.put(
        report_rel,
        json.dumps({**report, "file": os.path.basename(entry.path)}, indent=1, sort_keys=True)
        + "\n",
    )
    entry.report_file = report_rel
