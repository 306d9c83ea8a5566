"""Nothing left behind by a killed run.

A build or a tournament killed with ``SIGKILL`` at any moment leaves at most
temporaries marked as atlas's (:class:`atlas.fsutil.Temporary`: the name
``.atlas-tmp-*`` and a marker file inside), and the next run on the same output
removes them and only them: decoys that look like atlas's temporaries but are not
(no marker, or a marker atlas did not write) are never touched, and nothing finished
is lost (a tournament's records stay byte for byte, the previous site stays whole
until the new one is in place).

Two kinds of test: kills at the worst moments, made certain by a patched step that
kills its own process (the swap of a site half done, a cache entry or a record half
written); and kills after seeded random delays, a bounded number of trials, each
checked the same way.  The runs are programs (``python -m atlas``) in a session of
their own, so the test also checks that no process of a killed run outlives it.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from atlas.cli import main
from atlas.fsutil import TEMPORARY_MARKER, TEMPORARY_PREFIX, temporary_mark
from atlas.render.site.swap import SITE_MARKER

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "sim" / "golden"
#: Tiny tron rooms: a build plays its short games in a second or two.
ROOMS = [
    "7 4\n#######\n#1    #\n#    2#\n#######\n",
    "7 5\n#######\n#1    #\n#  #  #\n#    2#\n#######\n",
    "8 5\n########\n#1     #\n# #  # #\n#     2#\n########\n",
    "6 5\n######\n#1   #\n# ## #\n#   2#\n######\n",
    "8 4\n########\n#1 #   #\n#   # 2#\n########\n",
    "7 6\n#######\n#1    #\n# # # #\n#     #\n#    2#\n#######\n",
    "9 4\n#########\n#1  #   #\n#   #  2#\n#########\n",
]
BUILD = ["build", "--maps", "maps", "--records", "recs", "--out", "site", "--games", "1"]
PLAN = """\
game = "tron"
maps = ["maps/tron/room0.txt"]
seeds = {seeds}
time = 0.05
[[bots]]
name = "random"
builtin = "random"
[[bots]]
name = "wallhugger"
builtin = "wallhugger"
[[bots]]
name = "voronoi"
builtin = "voronoi"
"""
#: Folders of a user's that look like atlas's temporaries and are not: no marker, a
#: marker atlas did not write, a link.  No run may remove them.
DECOYS = {
    ".atlas-tmp-site-userdata": {"keep.txt": "the user's"},
    ".atlas-tmp-write-notatlas": {TEMPORARY_MARKER: "not atlas's marker", "x.part": "mine"},
    ".atlas-tmp-cache-12345678": {TEMPORARY_MARKER: '{"format": "something else"}'},
}


# --------------------------------------------------------------------------- helpers


def _files(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


def _plant_decoys(folder: Path) -> None:
    for name, files in DECOYS.items():
        (folder / name).mkdir(exist_ok=True)
        for fname, text in files.items():
            (folder / name / fname).write_text(text)
    link = folder / ".atlas-tmp-site-alinkxyz"
    if not link.is_symlink():
        link.symlink_to(folder / ".atlas-tmp-site-userdata")


def _decoys_intact(folder: Path) -> None:
    for name, files in DECOYS.items():
        assert {f: (folder / name / f).read_text() for f in files} == files, name
    assert (folder / ".atlas-tmp-site-alinkxyz").is_symlink()


def _temporaries(folder: Path) -> list[Path]:
    """The folders under ``folder`` named like atlas's temporaries (decoys aside)."""
    return sorted(
        p
        for p in folder.rglob(f"{TEMPORARY_PREFIX}*")
        if p.name not in DECOYS
        and p.name != ".atlas-tmp-site-alinkxyz"
        and not any(part in DECOYS for part in p.relative_to(folder).parts[:-1])
    )


def _only_marked_temporaries(folder: Path) -> None:
    """What a killed run left: every temporary is marked as atlas's (a killed run may
    leave one); nothing else of atlas's half-done work lies anywhere."""
    for p in _temporaries(folder):
        assert temporary_mark(p) is not None, f"{p} is not marked as atlas's"
    stray = [
        p
        for p in folder.rglob("*")
        if (p.name.endswith(".part") or p.name.startswith(".tmp-"))
        and not any(part.startswith(TEMPORARY_PREFIX) for part in p.relative_to(folder).parts)
    ]
    assert stray == []


def _run(work: Path, argv: list[str], prelude: str = "") -> subprocess.Popen[bytes]:
    """``python -m atlas ARGV`` in ``work``, in a session of its own; ``prelude`` is
    Python run first (a patch that kills the process at a chosen step)."""
    code = f"import sys\n{prelude}\nfrom atlas.cli import main\nsys.exit(main(sys.argv[1:]))\n"
    return subprocess.Popen(
        [sys.executable, "-c", code, *argv],
        cwd=work,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL the run (if it has not ended), then wait for every process of its
    session to be gone: its workers and bots must die with it."""
    try:
        os.kill(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait(60)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)  # ours to end; the test fails all the same
    raise AssertionError("processes of the killed run outlived it")


def _killed_at(proc: subprocess.Popen[bytes]) -> None:
    """Wait for a run that kills itself at a patched step; check that it did, and that
    no process of it is left."""
    try:
        proc.wait(300)
    except subprocess.TimeoutExpired:
        pass
    code = proc.returncode
    _kill(proc)
    err = proc.stderr.read().decode() if proc.stderr else ""
    assert code == -signal.SIGKILL, err


def _site_whole(site: Path) -> dict[str, bytes]:
    """The site's files, checked to be one whole site: every file its marker lists is
    there, and nothing else but the user's notes."""
    listed = json.loads((site / SITE_MARKER).read_text())["files"]
    files = _files(site)
    assert sorted(set(files) - {SITE_MARKER, "notes.txt"}) == sorted(listed)
    assert files["notes.txt"] == b"the user's notes"
    return files


def _inputs(folder: Path) -> Path:
    (folder / "maps" / "tron").mkdir(parents=True)
    (folder / "maps" / "tron" / "room0.txt").write_text(ROOMS[0])
    (folder / "recs").mkdir()
    for name in ("tron-duel-random", "isolation-knight7-random"):
        data = gzip.decompress((GOLDEN / f"{name}.json.gz").read_bytes())
        (folder / "recs" / f"{name}.json").write_bytes(data)
    return folder


@pytest.fixture
def inputs(tmp_path, monkeypatch):
    """A folder with one tiny map and two saved records; the working folder of the
    test."""
    monkeypatch.chdir(tmp_path)
    return _inputs(tmp_path)


@pytest.fixture(scope="module")
def first_build(tmp_path_factory):
    """The inputs and the site built from them (and its cache), made once."""
    folder = _inputs(tmp_path_factory.mktemp("first-build"))
    here = os.getcwd()
    os.chdir(folder)
    try:
        assert main([*BUILD, "--quiet"]) == 0
    finally:
        os.chdir(here)
    return folder


@pytest.fixture
def work(first_build, tmp_path, monkeypatch):
    """A copy of ``first_build`` with a user's file added to the site, and decoy
    folders beside it and in the cache; the working folder of the test."""
    shutil.copytree(first_build, tmp_path, symlinks=True, dirs_exist_ok=True)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "site" / "notes.txt").write_text("the user's notes")
    _plant_decoys(tmp_path)
    _plant_decoys(tmp_path / ".atlas-cache")
    return tmp_path


def _next_build_cleans_up(work: Path, n_maps: int) -> None:
    """The next build on the same output: it succeeds, publishes every map, and leaves
    no temporary of atlas's anywhere and every decoy as it was."""
    assert main([*BUILD, "--quiet"]) == 0
    files = _site_whole(work / "site")
    assert sum(1 for f in files if f.startswith("maps/tron-room")) == n_maps
    assert _temporaries(work) == []
    _decoys_intact(work)
    _decoys_intact(work / ".atlas-cache")


def _old_site_put_back(work: Path, left: Path, before: dict[str, bytes]) -> None:
    """The clean-up the next build starts with removes the killed build's temporary
    ``left`` and puts the old site back as it was (``before``); the build then goes
    through."""
    from atlas.fsutil import remove_stale_temporaries
    from atlas.render.site.swap import recover_site

    assert remove_stale_temporaries(work, "site", recover=recover_site) == [left]
    assert _files(work / "site") == before
    _next_build_cleans_up(work, 2)


# --------------------------------------------------------------------------- builds


KILL_SELF = "import os, signal\ndef die(*a, **k):\n    os.kill(os.getpid(), signal.SIGKILL)\n"


def test_a_build_killed_between_the_two_steps_of_a_swap_gets_its_old_site_back(work):
    """Where folders cannot be exchanged, the old site is moved into the temporary
    before the new one goes in; killed between, the site is missing, and the next
    build moves the old one back first (then builds and swaps as usual)."""
    before = _site_whole(work / "site")
    (work / "maps" / "tron" / "room1.txt").write_text(ROOMS[1])
    prelude = KILL_SELF + (
        "from atlas.render.site import swap\n"
        "swap.exchange = lambda a, b: False\n"
        "real = swap.os.replace\n"
        "def replace(src, dst):\n"
        "    if str(dst) == 'site':\n"
        "        die()\n"
        "    real(src, dst)\n"
        "swap.os.replace = replace\n"
    )
    _killed_at(_run(work, BUILD, prelude))
    assert not (work / "site").exists()  # the moment between the two steps
    (aside,) = [p for p in _temporaries(work) if p.parent == work]
    assert (aside / "old" / "index.html").is_file() and (aside / "site").is_dir()
    _only_marked_temporaries(work)
    # the next run on the same output puts the old site back before anything else
    _old_site_put_back(work, aside, before)


def test_a_build_killed_right_after_the_exchange_leaves_the_new_site_whole(work):
    (work / "maps" / "tron" / "room1.txt").write_text(ROOMS[1])
    prelude = KILL_SELF + (
        "from atlas.render.site import swap\n"
        "real = swap.exchange\n"
        "def exchange(a, b):\n"
        "    assert real(a, b)\n"
        "    die()\n"
        "swap.exchange = exchange\n"
    )
    _killed_at(_run(work, BUILD, prelude))
    files = _site_whole(work / "site")  # the new site, whole, in place
    assert sum(1 for f in files if f.startswith("maps/tron-room")) == 2
    (old,) = [
        p for p in _temporaries(work) if p.parent == work
    ]  # the old one went into the temporary
    assert (old / "site" / "maps" / "tron-room0.html").is_file()
    _only_marked_temporaries(work)
    _next_build_cleans_up(work, 2)


def test_a_build_killed_half_way_through_an_update_in_place_is_undone(work):
    """A big site is updated in place (the threshold lowered here): killed after a
    few of its files were moved in, the site is neither old nor new; its temporary
    holds the journal and the old files, and the next build puts them back first."""
    before = _site_whole(work / "site")
    (work / "maps" / "tron" / "room1.txt").write_text(ROOMS[1])
    prelude = KILL_SELF + (
        "from atlas.render.site import output, swap\n"
        "output.IN_PLACE_FILES = 10\n"
        "real = swap.os.replace\n"
        "moved = []\n"
        "def replace(src, dst):\n"
        "    if '.atlas-tmp-site-' in str(src) and 'replaced' not in str(src):\n"
        "        moved.append(dst)\n"
        "        if len(moved) == 4:\n"
        "            die()\n"
        "    real(src, dst)\n"
        "swap.os.replace = replace\n"
    )
    _killed_at(_run(work, BUILD, prelude))
    (left,) = [p for p in _temporaries(work) if p.parent == work]
    assert (left / "journal.json").is_file()
    assert _files(work / "site") != before  # three new files in, the marker not yet
    _only_marked_temporaries(work)
    _old_site_put_back(work, left, before)


def test_a_build_killed_while_writing_a_cache_entry(work):
    (work / "maps" / "tron" / "room1.txt").write_text(ROOMS[1])
    prelude = KILL_SELF + (
        "from atlas.render.site import cache\n"
        "real = cache.os.replace\n"
        "def replace(src, dst):\n"
        "    if '.atlas-cache' in str(dst):\n"
        "        die()\n"
        "    real(src, dst)\n"
        "cache.os.replace = replace\n"
    )
    _killed_at(_run(work, BUILD, prelude))
    (tmp,) = [p for p in _temporaries(work) if p.parent != work]
    assert tmp.parent == work / ".atlas-cache" and any(tmp.glob("*.part"))
    _only_marked_temporaries(work)
    _next_build_cleans_up(work, 2)


def test_builds_killed_at_random_moments(work):
    """Seeded random delays, a bounded number of trials: each adds a map (new analyses,
    games, replays and pages to make), starts a build, kills it; the site in place is
    then the old one or the new one, whole, and the next build leaves nothing stray."""
    rng = np.random.default_rng(25)
    t = time.monotonic()
    (work / "maps" / "tron" / "room1.txt").write_text(ROOMS[1])
    full = _run(work, BUILD)
    assert full.wait(300) == 0, full.stderr.read().decode() if full.stderr else ""
    span = time.monotonic() - t  # a build with one new map, start to end
    n_maps = 2
    for trial, delay in enumerate(rng.uniform(0.0, 1.2 * span, size=2)):
        before = _files(work / "site")
        n_maps += 1
        (work / "maps" / "tron" / f"room{n_maps - 1}.txt").write_text(ROOMS[n_maps - 1])
        proc = _run(work, BUILD)
        time.sleep(delay)
        _kill(proc)
        now = _site_whole(work / "site")  # whole, old or new
        rooms = sum(1 for f in now if f.startswith("maps/tron-room"))
        assert now == before or rooms == n_maps, (trial, delay)
        _only_marked_temporaries(work)
        _next_build_cleans_up(work, n_maps)


# --------------------------------------------------------------------------- tournaments


TOURNAMENT = ["tournament", "plan.toml", "--out", "T", "--jobs", "1", "--quiet"]


def _records(work: Path) -> dict[str, bytes]:
    folder = work / "T" / "records"
    return (
        {p.name: p.read_bytes() for p in sorted(folder.glob("*.json.gz"))}
        if folder.is_dir()
        else {}
    )


def _next_tournament_cleans_up(
    work: Path, kept: dict[str, bytes], n_games: int, decoys: bool = True
) -> None:
    """The next run (``--resume``) on the same folder: it keeps every finished record
    as it was, plays the rest, and leaves no temporary of atlas's."""
    assert main([*TOURNAMENT, "--resume"]) == 0
    after = _records(work)
    assert len(after) == n_games
    assert {k: after[k] for k in kept} == kept
    assert _temporaries(work / "T") == []
    if decoys:
        _decoys_intact(work / "T" / "records")
    results = json.loads((work / "T" / "results.json").read_text())
    assert len(results["games"]) == n_games


def test_a_tournament_killed_while_writing_a_record(inputs):
    work = inputs
    (work / "plan.toml").write_text(PLAN.format(seeds=1))
    (work / "T" / "records").mkdir(parents=True)
    _plant_decoys(work / "T" / "records")
    prelude = KILL_SELF + (
        "from atlas import fsutil\n"
        "real, seen = fsutil.os.replace, []\n"
        "def replace(src, dst):\n"
        "    if str(dst).endswith('.json.gz'):\n"
        "        seen.append(dst)\n"
        "        if len(seen) == 3:\n"
        "            die()\n"
        "    real(src, dst)\n"
        "fsutil.os.replace = replace\n"
    )
    # a folder holding only the user's decoys is not atlas's: refused, untouched
    assert main(TOURNAMENT) == 2
    _decoys_intact(work / "T" / "records")
    (work / "T" / ".atlas-tournament").write_text("{}")  # as if atlas had begun it
    _killed_at(_run(work, [*TOURNAMENT, "--force"], prelude))
    kept = _records(work)
    assert len(kept) == 2
    (tmp,) = _temporaries(work / "T")
    assert tmp.parent.name == "records" and any(tmp.glob("*.json.gz.part"))
    _only_marked_temporaries(work / "T")
    _next_tournament_cleans_up(work, kept, 6)


def test_tournaments_killed_at_random_moments(inputs):
    """Seeded random delays, a bounded number of trials: each starts the tournament
    afresh and kills it (and every other trial kills the resumed run too); every
    record in the folder is whole after each kill, and the next run keeps them all and
    leaves nothing stray."""
    from atlas.sim.records import load_record

    work = inputs
    rng = np.random.default_rng(2025)
    (work / "plan.toml").write_text(PLAN.format(seeds=1))
    t = time.monotonic()
    whole = _run(work, TOURNAMENT)
    assert whole.wait(300) == 0, whole.stderr.read().decode() if whole.stderr else ""
    span = time.monotonic() - t
    for trial in range(2):
        shutil.rmtree(work / "T")
        runs = [TOURNAMENT] + ([[*TOURNAMENT, "--resume"]] if trial % 2 else [])
        kept: dict[str, bytes] = {}
        for argv in runs:
            proc = _run(work, argv)
            time.sleep(rng.uniform(0.0, 1.2 * span))
            _kill(proc)
            now = _records(work)
            assert {k: now[k] for k in kept} == kept  # what was finished stays
            for name in now:  # and every record there is whole
                load_record(work / "T" / "records" / name)
            kept = now
            if (work / "T").exists():
                _only_marked_temporaries(work / "T")
        decoys = (work / "T" / "records").is_dir()  # a folder atlas had begun
        if decoys:
            _plant_decoys(work / "T" / "records")
        _next_tournament_cleans_up(work, kept, 6, decoys)
