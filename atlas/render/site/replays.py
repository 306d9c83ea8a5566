"""Each game of a build drawn and published: its viewer data and charted measures
(:func:`render_replay`, cached by the record and the code version), its public record;
each map's featured game (:func:`featured_game`) and the pictures of its positions
(:func:`feature_games`); the GIFs the build publishes (:func:`publish_gifs`: the
featured games' by default, every game's or none with ``atlas build --gifs``).  Every
game page can make its GIF in the browser (``static/gif.js``)."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any

from ...errors import AtlasError
from ...jit.lazy import interpreted
from ...sim.registry import get_info
from ..images import png_bytes
from ..registry import render_of
from .cache import Cache, KeptMapping, content_key, content_key_of
from .entries import BuildContext, GameEntry, MapEntry, meta_of_row, meta_row, progress_bar
from .sources import public_json

__all__ = [
    "render_replay",
    "gif_of",
    "render_games",
    "predraw",
    "featured_game",
    "feature_games",
    "publish_gifs",
    "gif_games",
    "GIF_CHOICES",
]

#: What ``atlas build --gifs`` takes: the featured games' GIFs (the default), every
#: game's, or none.
GIF_CHOICES = ("featured", "all", "none")


def render_replay(
    record: Any, *, gif: bool = True
) -> tuple[bytes | None, dict[str, Any], dict[str, Any]]:
    """The GIF bytes (``None`` unless ``gif``), the packed viewer data and the meta
    data of one record.

    The record is verified on the way (:func:`atlas.sim.records.verify_record`): one
    that claims a position, a result or statuses its moves do not give raises
    :class:`~atlas.errors.RecordError`, and the site refuses it.

    Every turn is drawn once: the viewer shows them all, the GIF the game's sampling
    (:attr:`~atlas.sim.base.GameInfo.max_frames`).  The meta data is what pages need
    without the viewer data (see :class:`GameEntry`).
    """
    from ...sim.records import machine_free, replay_states, verify_record
    from ..frames import sample_turns
    from ..gif import record_gif_bytes
    from ..replay import record_frames
    from ..turning import score_turning_point
    from ..viewer import pack_viewer, viewer_data

    record = machine_free(record)  # a game at fixed effort: no machine's seconds shown
    states = replay_states(record)
    verify_record(record, states)  # the site publishes only what its moves give
    frames = list(record_frames(record, states, max_frames=None))
    render = render_of(record.game)
    series = render.series(record.game_map(), dict(record.params), states)
    data = None
    if gif:
        picks = sample_turns(len(frames), get_info(record.game).max_frames)
        data = record_gif_bytes(record, frames=[frames[i] for i in picks])
    viewer = pack_viewer(viewer_data(record, states, frames=frames, series=series))
    meta = {
        "turns_text": render.turns_text(record, states),
        "interest": viewer["interest"],
        "has_info": any(t.info for t in record.turns),
        "has_cpu": any(t.cpu for t in record.turns),
        "series": [
            {"name": s["name"], "phrase": s.get("phrase", s["name"]), "unit": s["unit"]}
            for s in series
        ],
    }
    names = [p.name for p in record.players]
    turning = render.turning_points(
        record.game_map(), dict(record.params), states, series, names
    )
    said = score_turning_point(record, names)
    if said is not None and all(p["turn"] != said["turn"] for p in turning):
        turning = sorted([*turning, said], key=lambda p: p["turn"])
    if turning:
        meta["turning"] = turning
    if viewer.get("overlays"):
        meta["overlays"] = list(viewer["overlays"]["names"])
    failures = render.failures(record, states)
    if failures:
        meta["failures"] = failures
    return data, viewer, meta


def gif_of(record: Any) -> bytes:
    """The GIF a site publishes of ``record``: :func:`render_replay`'s, drawing only
    the turns it shows."""
    from ...sim.records import machine_free
    from ..gif import record_gif_bytes

    return record_gif_bytes(machine_free(record))


def _render_json(
    data: Any, gif: bool
) -> tuple[bytes | None, dict[str, Any], dict[str, Any], bytes] | str:
    """Draw a record (or its JSON data, read first), or say why it is refused: its GIF
    (or None), viewer data, meta data and the public record's bytes as the site
    publishes them (:func:`_record_bytes`; their size is the meta data's
    ``record_bytes``)."""
    from ...sim.records import Record, record_from_json

    try:
        record = data if isinstance(data, Record) else record_from_json(data)
        gif_bytes, viewer, meta = render_replay(record, gif=gif)
    except (AtlasError, ValueError, KeyError, IndexError, TypeError) as exc:
        return str(exc)
    raw = _record_bytes(record)
    meta["record_bytes"] = len(raw)
    return gif_bytes, viewer, meta, raw


#: Games to draw below which a build draws them in its own process (starting workers
#: costs more than it saves).
PARALLEL_REPLAYS = 48

#: About what loading numba and a game's kernels from its cache costs, in seconds: the
#: games a build draws in its own process are drawn as plain Python when, by their
#: games' :attr:`~atlas.render.painter.GameRender.plain_draw_rate`, that takes less.
PLAIN_DRAWING_SECONDS = 0.5


def _plain_drawing(todo: Sequence[GameEntry]) -> bool:
    """Whether to draw ``todo`` with the kernels run as plain Python: numba is not
    loaded yet, and every game's drawing is light enough that all of them take less
    than loading it would (:data:`PLAIN_DRAWING_SECONDS`)."""
    from ...jit.load import numba_loaded

    if numba_loaded():
        return False
    from ...sim.registry import game_names

    known = game_names()
    seconds = 0.0
    for e in todo:
        rate = render_of(e.head.game).plain_draw_rate if e.head.game in known else None
        if rate is None:
            return False
        record = e.record  # read now or to draw: a game drawn here is read whole
        seconds += rate * len(record.turns) * len(record.map.text)
        if seconds > PLAIN_DRAWING_SECONDS:
            return False
    return True


def render_games(
    entries: list[GameEntry],
    ctx: BuildContext,
    jobs: int | None = None,
    scheduler: str | None = None,
    *,
    gifs: bool = False,
) -> list[str]:
    """Write every game's public record and attach its meta data; cached renders are
    reused (their viewer data stays in the cache until a page needs it).  Returns the
    problems.  Games to draw are drawn on the Dask ``scheduler``'s workers when one is
    given, else by ``jobs`` worker processes (default: one per core) when there are at
    least :data:`PARALLEL_REPLAYS` of them and a cache to hand their drawings back
    through; fewer are drawn in this process (a replay takes a few milliseconds per
    turn).

    With ``gifs`` (``atlas build --gifs all``) each game drawn here also gets its GIF,
    from the frames the viewer's data is drawn from, and publishes it; the GIFs of
    games drawn by an earlier build are :func:`publish_gifs`'s to find.
    """
    problems: list[str] = []
    todo: list[GameEntry] = []
    # the meta data of every game of the last build, in one cache entry: a site of many
    # games reads one file here, not one per game (each game's own entry stays the
    # reference when the index lacks it)
    # (rows of meta_row, by replay key)
    kept = KeptMapping(
        ctx.cache, "replay-metas", content_key("replay-metas", "rows", ctx.version["replay"])
    )
    index = kept.load()
    metas: dict[str, Any] = {}
    replay_key, version = content_key_of("replay"), ctx.version["replay"]
    for e in entries:
        e.replay_key = replay_key(e.digest, version)
        e._cache = ctx.cache
        row = index.get(e.replay_key)
        meta = meta_of_row(row) if row is not None else None
        part = meta is not None
        if not part:
            meta = ctx.cache.get_json("meta", e.replay_key)
        if meta is None:
            todo.append(e)
        else:
            e.meta, e.meta_part = meta, part
            _attach(e, ctx)
            if part:  # the index's own row as it is
                metas[e.replay_key] = row
            else:
                _index_meta(metas, e.replay_key, e.meta)

    def refused(e: GameEntry, why: str) -> None:
        what = f"record {e.source}" if e.source else f"game {e.ident} ({e.origin})"
        problems.append(f"{what}: refused, not published: {why}")
        e.refused = True

    workers = min(jobs or os.cpu_count() or 1, len(todo))
    if scheduler and todo:
        _render_on_dask(todo, ctx, scheduler, refused, metas, gifs)
    elif len(todo) >= PARALLEL_REPLAYS and workers > 1 and ctx.cache.root is not None:
        _render_in_workers(todo, ctx, workers, refused, metas, gifs)
    else:
        # a few games of light kernels are drawn faster as plain Python than numba loads
        plain = _plain_drawing(todo)
        for e in progress_bar(todo, "replays", ctx.progress):
            # a record read by the build was checked field by field as it was read
            with interpreted(plain):
                res = _render_json(e.record, gifs)
            if isinstance(res, str):
                refused(e, res)
                continue
            _keep_drawing(e, ctx, *res, metas)
    kept.save(metas)
    return problems


def predraw(record: Any, ctx: BuildContext) -> None:
    """Draw a game the build has just played (its viewer data and meta data, no GIF)
    into the cache, where :func:`render_games` finds it: what the build does while its
    workers play the other games (:func:`atlas.render.site.tournament.play_tournament`).
    A game whose drawing is cached already, or that cannot be drawn, is left for
    :func:`render_games` to find or refuse."""
    key = content_key(
        "replay", content_key("record", public_json(record)), ctx.version["replay"]
    )
    if ctx.cache.has("meta", key):
        return
    res = _render_json(record, False)
    if isinstance(res, str):
        return
    _, viewer, meta, _ = res
    _store_drawing(ctx, key, meta, None, viewer)


def _store_drawing(
    ctx: BuildContext, key: str, meta: dict[str, Any], gif: bytes | None, viewer: dict[str, Any]
) -> None:
    """A game's drawing into the cache: its GIF when drawn, its viewer and meta data."""
    if gif is not None:
        ctx.cache.put_bytes("gif", key, gif)
    ctx.cache.put_json("viewer", key, viewer)
    ctx.cache.put_json("meta", key, meta)


def _keep_drawing(
    e: GameEntry,
    ctx: BuildContext,
    gif: bytes | None,
    viewer: dict[str, Any],
    meta: dict[str, Any],
    raw: bytes,
    metas: dict[str, Any],
) -> None:
    """Store a game drawn in this process or sent back by a Dask worker
    (:func:`_render_json`'s drawing: its GIF when drawn, its viewer data and meta data)
    in the cache, and publish it with its public record's bytes ``raw``."""
    key = e.replay_key or ""
    _store_drawing(ctx, key, meta, gif, viewer)
    e.meta, e.viewer = meta, viewer
    _attach(e, ctx, raw)
    if gif is not None:
        _put_gif(e, ctx, gif)
    _index_meta(metas, key, meta)


def _index_meta(metas: dict[str, Any], key: str, meta: dict[str, Any]) -> None:
    """Put the row of ``meta`` (:func:`~atlas.render.site.entries.meta_row`) in the
    index ``metas`` under ``key``, when it has one."""
    row = meta_row(meta)
    if row is not None:
        metas[key] = row


def _render_in_workers(
    todo: list[GameEntry],
    ctx: BuildContext,
    workers: int,
    refused: Any,
    metas: dict[str, Any],
    gifs: bool,
) -> None:
    """Draw ``todo`` in worker processes (:func:`atlas.arena.pool.run_pool`): each
    reads its game's record (from its file, or the JSON of a game the build played),
    draws it and stores the drawing in the cache; this process writes the site."""
    from ...arena.pool import run_pool

    root = os.fspath(ctx.cache.root or "")
    jobs = [(root, e.replay_key, e.source, e.digest, _record_job(e), gifs) for e in todo]
    bar = progress_bar((), "replays", ctx.progress, total=len(todo)) if ctx.progress else None

    def done(i: int, value: Any) -> None:
        e = todo[i]
        if bar is not None:
            bar.update(1)
        if isinstance(value, str):
            refused(e, value)
            return
        meta, gif, raw = value
        e.meta = meta
        _attach(e, ctx, raw)
        if gif is not None:
            _put_gif(e, ctx, gif)
        _index_meta(metas, e.replay_key or "", meta)

    def failed(i: int, why: str) -> None:
        if bar is not None:
            bar.update(1)
        refused(todo[i], why)

    try:
        run_pool(jobs, _render_job, workers, done, failed)
    finally:
        if bar is not None:
            bar.close()


def _render_on_dask(
    todo: list[GameEntry],
    ctx: BuildContext,
    scheduler: str,
    refused: Any,
    metas: dict[str, Any],
    gifs: bool,
) -> None:
    """Draw ``todo`` on the Dask ``scheduler``'s workers (:func:`render_data_job`):
    each gets its game's record as JSON data and sends back the drawing, which this
    process stores in the cache and publishes (a worker shares no folder with it)."""
    from ...arena.executors import run_on_dask

    def done(i: int, value: Any) -> None:
        e = todo[i]
        if isinstance(value, str):
            refused(e, value)
            return
        gif, viewer, meta, raw = value
        _keep_drawing(e, ctx, gif, viewer, meta, raw, metas)

    items = [(e.record_once().public_json(), gifs) for e in todo]
    run_on_dask(items, render_data_job, scheduler, done, lambda i, why: refused(todo[i], why))


def render_data_job(item: tuple[dict[str, Any], bool]) -> Any:
    """A remote worker's job: draw one game from its record's JSON data (with its GIF
    when asked): :func:`_render_json`'s drawing, the public record's bytes included
    (this process publishes them as they are), or why the record is refused."""
    data, gifs = item
    record = _job_record(None, "", data)
    if isinstance(record, str):
        return record
    return _render_json(record, gifs)


def _record_job(e: GameEntry) -> dict[str, Any] | None:
    """What a worker reads ``e``'s record from: ``None`` for a record file it loads
    itself, else the record's JSON (a game the build played)."""
    return None if e.source is not None and e.loader is not None else e.record.public_json()


def _job_record(source: str | None, digest: str, data: dict[str, Any] | None) -> Any:
    """A worker's record (see :func:`_record_job`), or why it cannot be read."""
    from ...sim.records import load_record, record_from_json

    try:
        if data is None:
            assert source is not None
            record = load_record(source)
            if content_key("record", public_json(record)) != digest:
                return "the file changed while the site was built"
            return record
        return record_from_json(data)
    except AtlasError as exc:
        return str(exc)


def _render_job(
    job: tuple[str, str, str | None, str, dict[str, Any] | None, bool],
) -> Any:
    """A worker's job: draw one game (with its GIF when asked), store the drawing in
    the cache at ``root``, and return its meta data, GIF and public record's bytes
    (:func:`_record_bytes`, which the site publishes: made here, not again by the
    build's own process), or why the record is refused."""

    root, key, source, digest, data, gifs = job
    record = _job_record(source, digest, data)
    if isinstance(record, str):
        return record
    res = _render_json(record, gifs)
    if isinstance(res, str):
        return res
    gif, viewer, meta, raw = res
    cache = _worker_cache(root)
    if gif is not None:
        cache.put_bytes("gif", key, gif)
    cache.put_json("viewer", key, viewer)
    cache.put_json("meta", key, meta)
    return meta, gif, raw


#: This process's :class:`~atlas.render.site.cache.Cache` for each root its jobs store
#: drawings in (:func:`_worker_cache`).
_WORKER_CACHES: dict[str, Cache] = {}


def _worker_cache(root: str) -> Cache:
    """The cache at ``root`` for this process's jobs, made once: its marked temporary
    folder (:class:`~atlas.fsutil.Temporary`) serves every game the process draws, where
    a cache a job made and removed a folder for each game (a season's build draws
    100,000).  The folder goes when the process ends: a pool's worker runs
    multiprocessing's finalizers then (:func:`multiprocessing.util.Finalize`), and one
    killed leaves it unlocked, for the next build's :meth:`Cache.remove_stale`."""
    from multiprocessing import util

    cache = _WORKER_CACHES.get(root)
    if cache is None:
        cache = _WORKER_CACHES[root] = Cache(root)
        util.Finalize(cache, cache.close, exitpriority=0)
    return cache


def _attach(entry: GameEntry, ctx: BuildContext, raw: bytes | None = None) -> None:
    """Write the game's public record (kept from the previous site when its key did not
    change): ``raw``, its bytes (:func:`_record_bytes`) when the caller made them."""
    rec_rel = f"games/{entry.ident}.json.gz"
    if raw is None and "record_bytes" not in entry.meta:
        raw = _record_bytes(entry.record_once())
    if raw is not None:
        entry.meta["record_bytes"] = len(raw)
    data = raw if raw is not None else (lambda: _record_bytes(entry.record_once()))
    ctx.out.put(rec_rel, data, key=entry.digest)
    entry.record_file = rec_rel
    entry.record_kb = max(1, round(entry.meta["record_bytes"] / 1024))


def _gif_rel(entry: GameEntry) -> str:
    return f"img/games/{entry.ident}.gif"


def _put_gif(entry: GameEntry, ctx: BuildContext, data: bytes | Any) -> None:
    """Publish the game's GIF: ``data``, its bytes or a function making them (not
    called when the previous site holds the GIF under the same key)."""
    rel = _gif_rel(entry)
    ctx.out.put(rel, data, key=entry.replay_key)
    entry.gif = rel


def gif_games(
    maps: Sequence[MapEntry], games: Sequence[GameEntry], which: str
) -> list[GameEntry]:
    """The games whose GIF a build publishes (``atlas build --gifs``): ``"featured"``,
    each map's featured game (:func:`featured_game`); ``"all"``, every game drawn;
    ``"none"``, none.  In the order of ``games``.

    Raises
    ------
    ValueError
        ``which`` is none of :data:`GIF_CHOICES`.
    """
    if which not in GIF_CHOICES:
        raise ValueError(f"gifs: expected one of {', '.join(GIF_CHOICES)}, got {which!r}")
    if which == "none":
        return []
    if which == "all":
        return [g for g in games if g.drawn]
    featured = {id(m.featured) for m in maps if m.featured is not None}
    return [g for g in games if id(g) in featured and g.drawn]


def publish_gifs(
    chosen: Sequence[GameEntry],
    ctx: BuildContext,
    jobs: int | None = None,
    scheduler: str | None = None,
) -> list[str]:
    """Publish the GIFs of ``chosen`` (:func:`gif_games`) that :func:`render_games`
    did not: each kept from the previous site by its key, or read from the cache, or
    drawn (on the Dask ``scheduler``'s workers when one is given, else by ``jobs``
    worker processes when there are :data:`PARALLEL_REPLAYS` of them).  Returns the
    problems."""
    problems: list[str] = []
    todo: list[GameEntry] = []
    for e in chosen:
        if e.gif is not None or e.replay_key is None:
            continue
        if ctx.out.old_keys.get(_gif_rel(e)) == e.replay_key:
            # the previous site has it: kept without being read (or made, if it went)
            _put_gif(e, ctx, lambda e=e: _cached_gif(e, ctx))
            continue
        data = ctx.cache.get_bytes("gif", e.replay_key)
        if data is None:
            todo.append(e)
        else:
            _put_gif(e, ctx, data)
    workers = min(jobs or os.cpu_count() or 1, len(todo))
    if todo and (scheduler or (len(todo) >= PARALLEL_REPLAYS and workers > 1)):
        from ...arena.executors import run_jobs

        # a Dask worker shares no folder with this process: it gets the record's data
        items = [
            (None, e.digest, e.record_once().public_json())
            if scheduler
            else (e.source, e.digest, _record_job(e))
            for e in todo
        ]
        bar = progress_bar((), "GIFs", ctx.progress, total=len(todo)) if ctx.progress else None

        def done(i: int, value: Any) -> None:
            if bar is not None:
                bar.update(1)
            if isinstance(value, str):
                failed(i, value)
                return
            ctx.cache.put_bytes("gif", todo[i].replay_key or "", value)
            _put_gif(todo[i], ctx, value)

        def failed(i: int, why: str) -> None:
            if bar is not None:
                bar.update(1)
            problems.append(f"game {todo[i].ident}: no GIF: {why}")

        try:
            run_jobs(items, _gif_job, done, failed, jobs=workers, scheduler=scheduler)
        finally:
            if bar is not None:
                bar.close()
    else:
        for e in progress_bar(todo, "GIFs", ctx.progress):
            try:
                data = gif_of(e.record)
            except (AtlasError, ValueError, KeyError, IndexError, TypeError) as exc:
                problems.append(f"game {e.ident}: no GIF: {exc}")
                continue
            ctx.cache.put_bytes("gif", e.replay_key or "", data)
            _put_gif(e, ctx, data)
    return problems


def _cached_gif(e: GameEntry, ctx: BuildContext) -> bytes:
    """The GIF of ``e`` from the cache, or drawn again."""
    data = ctx.cache.get_bytes("gif", e.replay_key or "")
    if data is None:
        data = gif_of(e.record)
        ctx.cache.put_bytes("gif", e.replay_key or "", data)
    return data


def _gif_job(job: tuple[str | None, str, dict[str, Any] | None]) -> Any:
    """A worker's job: one game's GIF (or why it cannot be drawn)."""
    record = _job_record(*job)
    if isinstance(record, str):
        return record
    try:
        return gif_of(record)
    except (AtlasError, ValueError, KeyError, IndexError, TypeError) as exc:
        return str(exc)


def _record_bytes(record: Any) -> bytes:
    """The public record (no ``stderr``, no timestamp) as the site publishes it: its
    JSON, gzipped (a record of many turns shrinks five to ten times; ``atlas replay`` and
    :func:`atlas.sim.records.load_record` read it as it is).  The gzip header holds no
    time and no name, so the bytes are the record's alone."""
    import gzip

    text = json.dumps(public_json(record), separators=(",", ":"), ensure_ascii=False) + "\n"
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)


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


def feature_games(maps: list[MapEntry], ctx: BuildContext) -> list[str]:
    """Pick each map's featured game (:func:`featured_game`) and draw pictures of a few
    of its positions (:meth:`~atlas.render.painter.GameRender.game_pictures`).
    Returns the problems."""
    problems: list[str] = []
    for e in maps:
        e.featured = featured_game(e.games)
        try:
            _featured_pictures(e, ctx)
        except (AtlasError, ValueError) as exc:
            problems.append(f"map {e.path}: cannot draw the featured game: {exc}")
    return problems


def _featured_pictures(entry: MapEntry, ctx: BuildContext) -> None:
    """Pictures of a few positions of the map's featured game, when its game draws any
    (influence and supply lines, say)."""
    from ...sim.records import replay_states

    game = entry.featured
    if game is None or entry.game_map is None:
        return
    render = render_of(entry.game)
    key = content_key("overlays", game.digest, ctx.version["replay"])
    listing = ctx.cache.get_json("overlays", key)
    if listing is None:
        states = replay_states(game.record)
        pictures = render.game_pictures(entry.game_map, dict(game.record.params), states)
        listing = [caption for caption, _ in pictures]
        for i, (_, image) in enumerate(pictures):
            ctx.cache.put_bytes("png", f"{key}-{i}", png_bytes(image))
        ctx.cache.put_json("overlays", key, listing)
    for i, caption in enumerate(listing):
        data = ctx.cache.get_bytes("png", f"{key}-{i}")
        if data is None:
            continue
        rel = f"img/maps/{entry.slug}-featured-{i}.png"
        ctx.out.put(rel, data)
        entry.overlays.append((caption, rel))
