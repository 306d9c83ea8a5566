"""A big site is updated in place: only the files that changed move, under a journal.

The threshold (:data:`atlas.render.site.output.IN_PLACE_FILES`) is lowered here so that
a small site takes the path a season's site takes.  The site it leaves has the bytes of
a site built afresh; a file that did not change keeps its inode and time; a failure or
a kill half-way gives the old site back; what the user put in the site is never
written over, nor anything outside it reached through a link.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
from pathlib import Path

import pytest

from atlas.cli import main
from atlas.render.site import output as output_module
from atlas.render.site import swap as swap_module
from atlas.render.site.swap import SITE_MARKER

ROOT = Path(__file__).resolve().parents[2]
DUEL = (ROOT / "maps" / "tron" / "duel.txt").read_text()
TINY = "7 4\n#######\n#1    #\n#    2#\n#######\n"
GOLDEN = ROOT / "tests" / "sim" / "golden"
ARGV = [
    "build",
    "--maps",
    "maps",
    "--out",
    "site",
    "--games",
    "0",
    "--records",
    "recs",
    "--quiet",
]


def _files(folder: Path) -> dict[str, tuple[bytes, int, int]]:
    """Every file under ``folder``: its bytes, inode and modification time."""
    out = {}
    for p in sorted(folder.rglob("*")):
        if p.is_file() and not p.is_symlink():
            st = p.stat()
            out[str(p.relative_to(folder))] = (p.read_bytes(), st.st_ino, st.st_mtime_ns)
    return out


def _bytes(folder: Path) -> dict[str, bytes]:
    return {k: v[0] for k, v in _files(folder).items()}


@pytest.fixture
def season(tmp_path, monkeypatch):
    """A site of two maps and two saved games, built by ``atlas build`` with the in-place
    threshold lowered below its size, a file of the user's added; then the maps change
    (one removed, one added), so a rebuild replaces, adds and removes files."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(output_module, "IN_PLACE_FILES", 10)
    maps = tmp_path / "maps" / "tron"
    maps.mkdir(parents=True)
    (maps / "duel.txt").write_text(DUEL)
    (maps / "tiny.txt").write_text(TINY)
    (tmp_path / "recs").mkdir()
    for name in ("tron-duel-random", "isolation-knight7-random"):
        shutil.copy(GOLDEN / f"{name}.json.gz", tmp_path / "recs")
    assert main(ARGV) == 0
    site = tmp_path / "site"
    (site / "notes.txt").write_text("the user's notes")
    (maps / "tiny.txt").unlink()
    (tmp_path / "recs" / "isolation-knight7-random.json.gz").unlink()
    (maps / "small.txt").write_text("7 5\n#######\n#1    #\n#  #  #\n#    2#\n#######\n")
    return site


def _built_afresh(tmp_path: Path) -> dict[str, bytes]:
    """The site the same inputs give built into an empty folder (the same cache)."""
    assert main([*ARGV[:4], "fresh", *ARGV[5:]]) == 0
    return _bytes(tmp_path / "fresh")


def test_an_update_in_place_leaves_the_site_a_fresh_build_makes(season, tmp_path):
    before = _files(season)
    calls = []
    real = swap_module.update_in_place

    def spy(*args, **kwargs):
        calls.append(args[4])
        return real(*args, **kwargs)

    from atlas.render.site import build as build_module

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(build_module, "update_in_place", spy)
        assert main(ARGV) == 0
    (changed,) = calls  # the in-place path was taken, with the files that changed
    assert SITE_MARKER in changed and not any(
        "duel" in f and f.endswith(".png") for f in changed
    )
    after = _files(season)
    fresh = _built_afresh(tmp_path)
    assert {k: v[0] for k, v in after.items() if k != "notes.txt"} == fresh
    assert after["notes.txt"][0] == b"the user's notes"
    # the removed map's and game's files are gone, the added map's are there
    assert not any("tiny" in k for k in after) and any("tiny" in k for k in before)
    assert not any("isolation-" in k for k in after) and any("isolation-" in k for k in before)
    assert any("small" in k for k in after)
    # a file whose bytes did not change is the same file: inode and time kept
    kept = [k for k in before if k in after and before[k][0] == after[k][0]]
    assert len(kept) > 20 and all(before[k] == after[k] for k in kept if k != SITE_MARKER)
    assert any(before[k][0] != after[k][0] for k in before if k in after)  # some changed
    # no temporary left beside the site
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".atlas-cache",
        "fresh",
        "maps",
        "recs",
        "site",
    ]


@pytest.mark.parametrize("at", [1, 5, "marker"])
def test_a_failure_half_way_puts_the_old_files_back(season, tmp_path, monkeypatch, capsys, at):
    """The update fails on its ``at``-th move (or on the marker, its last): the old
    site is back byte for byte, the user's file with it, and the command exits 2."""
    before = _bytes(season)
    real = os.replace
    moves = []

    def replace(src, dst):
        src, dst = Path(src), Path(dst)
        if src.parts[-2:-1] != ("replaced",) and ".atlas-tmp-site-" in str(src):
            moves.append(dst)
            if (at == "marker" and dst.name == SITE_MARKER) or len(moves) == at:
                raise OSError(errno.EIO, "Input/output error")
        real(src, dst)

    capsys.readouterr()
    with monkeypatch.context() as mp:
        mp.setattr(swap_module.os, "replace", replace)
        assert main(ARGV) == 2
    err = capsys.readouterr().err
    assert "Input/output error" in err and "Traceback" not in err
    assert _bytes(season) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".atlas-cache",
        "maps",
        "recs",
        "site",
    ]
    assert main(ARGV) == 0  # and the next build goes through
    assert {k: v for k, v in _bytes(season).items() if k != "notes.txt"} == _built_afresh(
        tmp_path
    )


def test_the_users_file_where_the_site_puts_its_own_stops_the_update(season, tmp_path):
    """A file of the user's at a path the new site writes, or a link in place of one of
    the site's folders: the build refuses, names it, and changes nothing (nothing is
    written through the link)."""
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.move(season / "maps", outside / "maps")
    (season / "maps").symlink_to(outside / "maps")
    listed = set(_bytes(outside))
    before = _bytes(season)
    assert main(ARGV) == 2
    assert _bytes(season) == before and set(_bytes(outside)) == listed
    (season / "maps").unlink()
    shutil.move(outside / "maps", season / "maps")
    # a file of the user's named as a page the new site adds
    (season / "maps" / "tron-small.html").write_text("the user's page")
    before = _bytes(season)
    assert main(ARGV) == 2
    assert _bytes(season) == before


def test_another_build_that_changed_the_site_meanwhile_stops_this_one(
    season, tmp_path, monkeypatch, capsys
):
    """Two builds of one site at once: the one that puts its files in place second
    finds the site's marker replaced since it began, and stops with nothing changed."""
    from atlas.render.site import build as build_module

    real = build_module.write_site

    def meanwhile(b):
        marker = season / SITE_MARKER
        data = marker.read_bytes()
        marker.unlink()
        marker.write_bytes(data)  # another build's marker: another file
        real(b)

    stages = tuple(
        (name, meanwhile if name == "pages" else stage) for name, stage in build_module.STAGES
    )
    monkeypatch.setattr(build_module, "STAGES", stages)
    capsys.readouterr()
    before = _bytes(season)
    assert main(ARGV) == 2
    assert "another build changed the site" in capsys.readouterr().err
    assert _bytes(season) == before


@pytest.mark.parametrize("how", ["dot-dot", "through a link"])
def test_a_marker_naming_files_outside_the_site_removes_nothing_there(season, tmp_path, how):
    """The site's list of its files says which files an update may take out: one that
    names a file outside the site (``../``, or through a link a user put in the site)
    takes out nothing outside it."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "victim.html").write_text("the user's")
    marker = season / SITE_MARKER
    data = json.loads(marker.read_text())
    if how == "dot-dot":
        data["files"].append("../outside/victim.html")
    else:
        (season / "gone").symlink_to(outside)
        data["files"].append("gone/victim.html")
    marker.write_text(json.dumps(data))
    assert main(ARGV) == 0
    assert (outside / "victim.html").read_text() == "the user's"
    assert (season / "index.html").is_file()
