"""The records folder listed and stat-ed in a forked child while the build starts
(:func:`atlas.render.site.build.walk_ahead`): the same site, the same problems, and a
child that fails or a build that stops costs nothing but the time."""

from __future__ import annotations

import os

import pytest
from render_helpers import build_records_site, play_record

from atlas.maps import parse_map
from atlas.render.site import build as build_mod
from atlas.render.site import sources
from atlas.render.site.ahead import can_fork
from atlas.sim.records import save_record

pytestmark = pytest.mark.skipif(not can_fork(), reason="a forked child: Linux only")

SMALL = "7 5\n#######\n#1    #\n#     #\n#    2#\n#######\n"


def _inputs(tmp):
    """Maps, and a records folder with five games, a record in a subfolder, a link that
    leads out of the folder and a file that is not a record."""
    (tmp / "maps" / "tron").mkdir(parents=True)
    (tmp / "maps" / "tron" / "room.txt").write_text(SMALL)
    gm = parse_map(SMALL, game="tron", name="room")
    recs = tmp / "records"
    (recs / "week2").mkdir(parents=True)
    for seed in range(5):
        rec = play_record("tron", gm, seed=seed, players=("ann", "bob"))
        where = recs / "week2" if seed == 4 else recs
        save_record(rec, where / f"g{seed}.json")
    outside = tmp / "outside.json"
    outside.write_text("{}")
    (recs / "away.json").symlink_to(outside)
    (recs / "notes.txt").write_text("not a record")
    return tmp / "maps", recs


def _build(maps, recs, site, cache):
    files, result = build_records_site(maps, recs, site, cache)
    return files, [p.replace(os.fspath(maps.parent), "") for p in result.problems]


def _walked_in(monkeypatch, pids):
    """Count where the records folder is walked, by the child or by the games stage:
    each walk writes its process's id."""
    walk = sources.record_files

    def counted(folder):
        with open(pids, "a") as fh:
            fh.write(f"{os.getpid()}\n")
        return walk(folder)

    monkeypatch.setattr(sources, "record_files", counted)


def test_records_walked_ahead_build_the_same_site_with_the_same_problems(tmp_path, monkeypatch):
    maps, recs = _inputs(tmp_path / "in")
    monkeypatch.setattr(build_mod, "can_fork", lambda: False)
    alone, problems = _build(maps, recs, tmp_path / "alone", tmp_path / "c1")
    assert any("away.json: left out, a link that leads out of" in p for p in problems)
    assert sum(1 for rel in alone if rel.startswith("games/") and rel.endswith(".html")) == 5
    pids = tmp_path / "pids"
    _walked_in(monkeypatch, pids)
    monkeypatch.setattr(build_mod, "can_fork", lambda: True)  # beside the suite's threads
    for run in range(2):  # cold, then warm (heads from the cache's index)
        ahead, said = _build(maps, recs, tmp_path / "ahead", tmp_path / "c2")
        assert ahead == alone and said == problems, run
    walked = [int(p) for p in pids.read_text().split()]
    assert len(walked) == 2 and os.getpid() not in walked  # each time in a child


def test_a_walk_that_fails_in_the_child_is_done_by_the_build(tmp_path, monkeypatch):
    maps, recs = _inputs(tmp_path / "in")
    monkeypatch.setattr(build_mod, "can_fork", lambda: False)
    alone, problems = _build(maps, recs, tmp_path / "alone", tmp_path / "c1")
    parent = os.getpid()
    walk = sources.record_files

    def fails_in_a_child(folder):
        if os.getpid() != parent:
            raise OSError("the child's disk went away")
        return walk(folder)

    monkeypatch.setattr(build_mod, "can_fork", lambda: True)
    monkeypatch.setattr(sources, "record_files", fails_in_a_child)
    assert _build(maps, recs, tmp_path / "site", tmp_path / "c2") == (alone, problems)


def test_a_build_that_stops_ends_its_walk(tmp_path, monkeypatch):
    maps, recs = _inputs(tmp_path / "in")
    jobs = []
    start = build_mod.walk_ahead

    def kept(records_dir):
        job = start(records_dir)
        jobs.append(job)
        return job

    def broken(b):
        raise KeyboardInterrupt  # Ctrl-C while the maps are read

    monkeypatch.setattr(build_mod, "can_fork", lambda: True)
    monkeypatch.setattr(build_mod, "walk_ahead", kept)
    stages = dict(build_mod.STAGES)
    stages["maps"] = broken
    monkeypatch.setattr(build_mod, "STAGES", tuple(stages.items()))
    with pytest.raises(KeyboardInterrupt):
        _build(maps, recs, tmp_path / "site", tmp_path / "cache")
    assert len(jobs) == 1 and jobs[0] is not None
    assert not jobs[0]._proc.is_alive() and jobs[0].result() is None


@pytest.mark.parametrize(
    "junk",
    [
        None,
        3,
        ("g1.json", [[1, 2, 3, 4]], []),  # the paths not a list
        (["g1.json", "g2.json"], [[1, 2, 3, 4]], []),  # two paths, one mark
        (["g1.json"], ["1 2 3 4"], []),  # a mark that is no list
        (["g1.json"], [[1, 2, 3, 4]], [1]),  # a problem that is no text
        ([1], [[1, 2, 3, 4]], []),  # a path that is no text
    ],
)
def test_a_child_that_sends_something_else_is_walked_again(tmp_path, junk):
    assert sources.unpacked_record_files(tmp_path, junk) is None


def test_the_packed_walk_is_the_walk_links_and_problems_included(tmp_path):
    maps, recs = _inputs(tmp_path)
    (recs / "again.json").symlink_to(recs / "g0.json")  # a link inside: listed, no mark
    walk = sources.record_files(recs)
    assert [rel for _, rel, mark in walk[0] if mark is None] == ["again.json"]
    # notes.txt is not a record's name: passed over, not a problem
    assert walk[1] == [f"record {recs}/away.json: left out, a link that leads out of {recs}"]
    packed = sources.packed_record_files(recs)
    assert sources.unpacked_record_files(recs, packed) == walk
