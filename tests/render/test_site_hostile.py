"""Issue 34 for ``atlas build``: a tournament folder whose results or plan nest tens of
thousands deep is a problem of the build and the other folders are published; a site
whose list of files is missing or damaged keeps every file atlas cannot prove it wrote;
a full or read-only disk names the folder that failed; a maps folder that does not
exist and a cache that is a file are refused before any work."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from render_helpers import play_record, random_mover

import atlas
from atlas.errors import ArgumentError, OutputFolderError, StorageError
from atlas.maps import parse_map
from atlas.render.site.build import build_site
from atlas.render.site.swap import SITE_MARKER
from atlas.sim.records import save_record

ROOT = Path(__file__).resolve().parents[2]
BOX = "7 5\n#######\n#1    #\n#     #\n#    2#\n#######\n"
DEEP = 30_000


def _event(folder: Path, players: tuple[str, str], seed: int) -> Path:
    """An organiser's tournament folder as ``atlas tournament --out`` leaves it."""
    (folder / "records").mkdir(parents=True)
    gm = parse_map(BOX, game="tron", name="box")
    rec = play_record("tron", gm, seed, players=players, chooser=random_mover("tron"))
    save_record(rec, folder / "records" / "g0.json")
    return folder


def _maps(root: Path) -> Path:
    (root / "maps" / "tron").mkdir(parents=True, exist_ok=True)
    (root / "maps" / "tron" / "box.txt").write_text(BOX)
    return root / "maps"


def _build(root: Path, out: Path, **kw):
    logs: list[str] = []
    result = build_site(
        _maps(root),
        out,
        cache_dir=root / "cache",
        progress=False,
        tournament=False,
        log=logs.append,
        **kw,
    )
    return result, logs


def test_a_deep_results_file_or_plan_does_not_stop_the_other_folders(tmp_path):
    deep_results = _event(tmp_path / "deep-results", ("ann", "bob"), 1)
    (deep_results / "results.json").write_text("[" * DEEP + "]" * DEEP)
    deep_plan = _event(tmp_path / "deep-plan", ("cat", "dan"), 2)
    (deep_plan / "tournament.toml").write_text("name = " + "[" * DEEP + "]" * DEEP)
    result, _ = _build(tmp_path, tmp_path / "site", tournaments=[deep_results, deep_plan])
    events = {g.event for g in result.games}
    assert events == {"deep-results", "deep-plan"}
    problems = "\n".join(result.problems)
    assert "results.json: cannot read the results: JSON nested 30000 deep" in problems
    assert "tournament.toml: TOML nested more than 64 deep" in problems


def _site_with_user_files(tmp_path: Path) -> Path:
    out = tmp_path / "site"
    _build(tmp_path, out)
    (out / "CNAME").write_text("maps.example.org\n")
    (out / "notes").mkdir()
    (out / "notes" / "todo.txt").write_text("mine\n")
    return out


@pytest.mark.parametrize(
    "damage",
    ["missing", "not-json", "deep", "wrong-form", "a-folder"],
)
def test_a_missing_or_damaged_list_keeps_the_users_files(tmp_path, damage):
    out = _site_with_user_files(tmp_path)
    marker = out / SITE_MARKER
    marker.unlink()
    if damage == "not-json":
        marker.write_text("{ not json")
    elif damage == "deep":
        marker.write_text('{"files":' + "[" * DEEP + "]" * DEEP + "}")
    elif damage == "wrong-form":
        marker.write_text(json.dumps({"format": "atlas-site", "files": "CNAME"}))
    elif damage == "a-folder":
        marker.mkdir()
    result, logs = _build(tmp_path, out)
    assert (out / "CNAME").read_text() == "maps.example.org\n"
    assert (out / "notes" / "todo.txt").read_text() == "mine\n"
    assert (out / "index.html").is_file()
    said = [p for p in result.problems if "not usable" in p]
    assert said and "cannot prove it wrote is kept" in said[0]
    # the next build writes a sound list, in which the user's files are not atlas's
    listed = json.loads(marker.read_text())["files"]
    assert "CNAME" not in listed and "notes/todo.txt" not in listed
    again, _ = _build(tmp_path, out)
    assert (out / "CNAME").is_file() and not [p for p in again.problems if "not usable" in p]


def test_a_sound_list_still_removes_what_atlas_wrote_and_keeps_the_rest(tmp_path):
    out = _site_with_user_files(tmp_path)
    listed = json.loads((out / SITE_MARKER).read_text())["files"]
    assert listed and "CNAME" not in listed
    result, _ = _build(tmp_path, out)
    assert (out / "CNAME").is_file() and (out / "notes" / "todo.txt").is_file()
    assert not [p for p in result.problems if "not usable" in p]


def test_a_maps_folder_that_does_not_exist_is_refused_naming_it(tmp_path):
    with pytest.raises(ArgumentError, match=r"the maps folder '.*nowhere' does not exist"):
        build_site(tmp_path / "nowhere", tmp_path / "site", progress=False, log=print)
    assert not (tmp_path / "site").exists()
    r = subprocess.run(
        [sys.executable, "-m", "atlas", "build", "--maps", str(tmp_path / "nowhere")]
        + ["--out", str(tmp_path / "site"), "--games", "0", "--quiet"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert r.returncode == 2, r.stderr
    assert "nowhere' does not exist" in r.stderr and "Traceback" not in r.stderr


def test_a_cache_that_is_a_file_is_refused_naming_it(tmp_path):
    cache = tmp_path / "cache-file"
    cache.write_text("not a folder\n")
    with pytest.raises(OutputFolderError, match=r"the cache '.*cache-file' is not a folder"):
        build_site(_maps(tmp_path), tmp_path / "site", cache_dir=cache, progress=False)
    assert cache.read_text() == "not a folder\n"
    r = subprocess.run(
        [sys.executable, "-m", "atlas", "fairness", str(tmp_path / "maps" / "tron" / "box.txt")]
        + ["--games", "0", "--cache", str(cache)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert r.returncode == 2, r.stderr
    assert "--cache: the cache" in r.stderr
    assert "cache-file' is not a folder" in r.stderr and "Traceback" not in r.stderr
    gm = atlas.read_map(BOX, "tron")
    with pytest.raises(OutputFolderError, match="cache-file' is not a folder"):
        atlas.fairness(gm, games=0, cache=cache)


def test_a_full_disk_names_the_site_and_leaves_the_old_site_whole(tmp_path, monkeypatch):
    out = tmp_path / "site"
    _build(tmp_path, out)
    before = sorted(p.relative_to(out) for p in out.rglob("*"))
    real_open = open

    def full(file, mode="r", *a, **kw):
        if "w" in str(mode) and os.fspath(file).endswith(".html"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_open(file, mode, *a, **kw)

    import builtins

    monkeypatch.setattr(builtins, "open", full)
    (tmp_path / "maps" / "tron" / "box2.txt").write_text(BOX)  # a new page to write
    with pytest.raises(StorageError) as info:
        _build(tmp_path, out)
    monkeypatch.undo()
    assert f"cannot write in the site {str(out)!r}: No space left on device" in str(info.value)
    assert info.value.errno == errno.ENOSPC and info.value.folder == str(out)
    assert sorted(p.relative_to(out) for p in out.rglob("*")) == before
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".atlas-tmp-")]


def _spin(seconds: float, started: str) -> float:
    import time

    Path(started).touch()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
    return seconds


def test_an_interrupted_warm_up_ends_its_workers_without_waiting(tmp_path):
    import concurrent.futures as cf
    import time

    from atlas.arena.pool import pool_context
    from atlas.render.site.tournament import stop_warm_up

    pool = cf.ProcessPoolExecutor(max_workers=2, mp_context=pool_context())
    started = tmp_path / "started"
    futures = [pool.submit(_spin, 60.0, str(started)) for _ in range(3)]
    deadline = time.monotonic() + 60
    while not started.exists() and time.monotonic() < deadline:  # a worker is spinning
        time.sleep(0.05)
    assert started.exists()
    procs = list(pool._processes.values())
    t0 = time.monotonic()
    stop_warm_up((pool, futures))
    assert time.monotonic() - t0 < 20  # not the 60 s the workers were asked to spin
    assert not any(p.is_alive() for p in procs)


def test_with_both_lists_damaged_a_users_file_where_atlas_writes_is_not_replaced(tmp_path):
    out = _site_with_user_files(tmp_path)
    (out / SITE_MARKER).write_text("damaged")
    (out / ".atlas-manifest.json").write_text("damaged too")
    index = (out / "index.html").read_bytes()
    with pytest.raises(OutputFolderError, match="holds files atlas did not write"):
        _build(tmp_path, out)
    assert (out / "index.html").read_bytes() == index  # nothing proven, nothing replaced
    assert (out / "CNAME").is_file()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".atlas-tmp-")]


def test_a_build_interrupted_while_its_games_play_ends_their_pool(tmp_path, monkeypatch):
    """At fixed effort the games start with the build and play in a thread while the
    maps are drawn (``EarlyGames``): an interrupt then ends the pool, workers and
    thread, and the old site stays."""
    import threading
    import time

    import atlas.render.site.build as site_build

    def interrupted(*args, **kwargs):
        pool = [t for t in threading.enumerate() if t.name == "atlas-games"]
        assert pool  # the games were playing already
        raise KeyboardInterrupt

    monkeypatch.setattr(site_build, "analyse_maps", interrupted)
    out = tmp_path / "site"
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        build_site(
            _maps(tmp_path),
            out,
            cache_dir=tmp_path / "cache",
            progress=False,
            jobs=2,
            games=2,
            bots={"tron": ["random", "wallhugger", "chambers"]},
        )
    assert time.monotonic() - t0 < 30
    assert not [t for t in threading.enumerate() if t.name == "atlas-games"]
    assert not out.exists()  # nothing half-built was moved into place
