"""A site updated in place records its folders as it left them, and the next build
takes the marker's word for the files of a folder found as recorded instead of listing
it (:func:`atlas.render.site.swap.trusted_folders`): any change to a folder, or another
build's marker, and the folder is listed again."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from atlas.cli import main
from atlas.render.site import output as output_module
from atlas.render.site import swap as swap_module
from atlas.render.site.cache import Cache
from atlas.render.site.swap import SITE_MARKER, _signature, trusted_folders

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "sim" / "golden"
ARGV = ["build", "--maps", "maps", "--out", "site", "--games", "0", "--records", "recs"]
ARGV += ["--quiet"]

pytestmark = pytest.mark.skipif(
    not swap_module.sys.platform.startswith("linux"), reason="folders recorded on Linux"
)


def _bytes(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


@pytest.fixture
def site(tmp_path, monkeypatch):
    """A site of three saved games built twice, the second time in place (the
    threshold lowered below its size): the second build recorded its folders."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(output_module, "IN_PLACE_FILES", 10)
    (tmp_path / "maps" / "tron").mkdir(parents=True)
    (tmp_path / "maps" / "tron" / "duel.txt").write_text(
        (ROOT / "maps" / "tron" / "duel.txt").read_text()
    )
    (tmp_path / "recs").mkdir()
    for name in ("tron-duel-random", "isolation-knight7-random", "outpost-lakes-random"):
        shutil.copy(GOLDEN / f"{name}.json.gz", tmp_path / "recs")
    assert main(ARGV) == 0  # a new site: swapped in whole, nothing recorded
    assert main(ARGV) == 0  # in place: its folders recorded
    return tmp_path / "site"


def _trusted(site: Path) -> frozenset[str]:
    cache = Cache(site.parent / ".atlas-cache")
    return trusted_folders(cache, site, _signature(site / SITE_MARKER))


def _fresh(tmp_path: Path) -> dict[str, bytes]:
    assert main([*ARGV[:4], "fresh", *ARGV[5:]]) == 0
    return _bytes(tmp_path / "fresh")


def test_a_folder_as_the_last_build_left_it_is_trusted_and_builds_the_same(
    site, tmp_path, monkeypatch
):
    assert {"", "games"} <= _trusted(site)
    listed = []
    real = output_module.os.scandir

    def spy(path, *args):
        listed.append(str(path))
        return real(path, *args)

    (tmp_path / "recs" / "tron-duel-random.json.gz").unlink()  # a game less
    with monkeypatch.context() as m:
        m.setattr(output_module.os, "scandir", spy)
        assert main(ARGV) == 0
    assert listed  # the spy saw the folders that were listed
    assert not any(p.endswith("/games") for p in listed)  # the marker's word, no listing
    assert _bytes(site) == _fresh(tmp_path)
    assert {"", "games"} <= _trusted(site)  # recorded again, as this build left it


def test_a_file_taken_out_of_a_trusted_folder_is_put_back(site, tmp_path):
    page = next(p for p in (site / "games").iterdir() if p.suffix == ".html")
    text = page.read_bytes()
    page.unlink()  # the folder changes: listed again
    assert "games" not in _trusted(site) and "" in _trusted(site)
    assert main(ARGV) == 0
    assert page.read_bytes() == text
    assert _bytes(site) == _fresh(tmp_path)


def test_a_folder_made_a_link_is_not_trusted(site, tmp_path):
    shutil.move(site / "games", tmp_path / "elsewhere")
    (site / "games").symlink_to(tmp_path / "elsewhere")
    assert not {"", "games"} & _trusted(site)  # the top changed too


def test_another_builds_marker_trusts_nothing(site):
    marker = site / SITE_MARKER
    marker.write_bytes(marker.read_bytes())  # rewritten: another build's, for all we know
    assert _trusted(site) == frozenset()


def test_nothing_is_recorded_before_the_clock_passes_the_folders_times(
    site, tmp_path, monkeypatch
):
    with monkeypatch.context() as m:
        m.setattr(swap_module, "RECORD_WAIT", 0.01)
        m.setattr(swap_module.time, "clock_gettime_ns", lambda clock: 0)
        assert main(ARGV) == 0  # in place, and its folders not recorded: the clock stood
    assert _trusted(site) == frozenset()


def test_a_manifest_made_by_a_child_is_the_one_made_here(site, tmp_path, monkeypatch):
    """A site updated in place with many keyed files has its manifest made by a forked
    child while the build lists its files: the same bytes, and the build writes it
    itself when the child fails."""
    import os

    monkeypatch.setattr(output_module, "AHEAD_FILES", 1)
    monkeypatch.setattr(output_module, "can_fork", lambda: True)  # beside the suite's threads
    parent, made_in = os.getpid(), tmp_path / "made-in"
    by_child = output_module._manifest_by

    def counted(writer):
        made_in.write_text(str(os.getpid()))
        return by_child(writer)

    monkeypatch.setattr(output_module, "_manifest_by", counted)
    (tmp_path / "recs" / "tron-duel-random.json.gz").unlink()  # the manifest changes
    assert main(ARGV) == 0
    assert int(made_in.read_text()) != parent
    assert _bytes(site) == _fresh(tmp_path)

    def fails(writer):
        raise OSError("the child's disk is full")

    monkeypatch.setattr(output_module, "_manifest_by", fails)
    shutil.copy(GOLDEN / "tron-duel-random.json.gz", tmp_path / "recs")
    assert main(ARGV) == 0  # written here after the child failed
    assert _bytes(site) == _fresh(tmp_path)
    monkeypatch.setattr(output_module, "_manifest_by", counted)
    made_in.unlink()
    before = (site / ".atlas-manifest.json").stat()
    assert main(ARGV) == 0  # nothing changed: the child keeps the manifest as it is
    after = (site / ".atlas-manifest.json").stat()
    assert int(made_in.read_text()) != parent
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert _bytes(site) == _fresh(tmp_path)
