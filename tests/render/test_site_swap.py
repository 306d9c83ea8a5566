"""The site swap: a build that fails while moving the new site into place leaves the old
site whole (the user's files in it included), no temporary folder, and exits 2; where
the system exchanges folders, the swap is one step."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from atlas.cli import main
from atlas.render.site import build as build_module
from atlas.render.site import swap as swap_module

ROOT = Path(__file__).resolve().parents[2]
DUEL = (ROOT / "maps" / "tron" / "duel.txt").read_text()


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture
def old_site(tmp_path, monkeypatch):
    """A site built by ``atlas build`` (in ``tmp_path``, the working folder) with a file
    of the user's added to it; the maps now hold a second map, so a rebuild differs."""
    monkeypatch.chdir(tmp_path)
    maps = tmp_path / "maps" / "tron"
    maps.mkdir(parents=True)
    (maps / "duel.txt").write_text(DUEL)
    argv = ["build", "--maps", "maps", "--out", "site", "--games", "0", "--quiet"]
    assert main(argv) == 0
    (tmp_path / "site" / "notes.txt").write_text("the user's notes")
    (maps / "tiny.txt").write_text("7 4\n#######\n#1    #\n#    2#\n#######\n")
    return tmp_path / "site", argv


@pytest.mark.parametrize("failing", ["exchange", "new-into-place", "old-aside"])
def test_a_failed_swap_keeps_the_old_site_and_exits_2(old_site, monkeypatch, capsys, failing):
    """``exchange``: the one-step swap fails; the others: the system cannot exchange
    folders, and one of the two moves of the two-step swap fails."""
    site, argv = old_site
    before = _snapshot(site)
    assert "notes.txt" in before and "index.html" in before
    capsys.readouterr()
    real_replace = os.replace
    calls = []

    def cannot_exchange(a, b):
        if failing == "exchange":
            raise OSError(errno.EXDEV, "Invalid cross-device link")
        return False

    def replace(src, dst):
        src, dst = Path(src), Path(dst)
        if dst.name == "site" or src.name == "site":  # the swap's, not the cache's
            calls.append((src, dst))
        moving_new = src.name == "site" and dst == Path("site")
        moving_old = src == Path("site")
        if (failing == "new-into-place" and moving_new) or (
            failing == "old-aside" and moving_old
        ):
            raise OSError(errno.EXDEV, "Invalid cross-device link")
        real_replace(src, dst)

    monkeypatch.setattr(swap_module, "exchange", cannot_exchange)
    monkeypatch.setattr(build_module.os, "replace", replace)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("atlas: error:") and "Invalid cross-device link" in err
    assert "Traceback" not in err
    # the old site is back in place, byte for byte, the user's file with it
    assert _snapshot(site) == before
    assert not any("tiny" in name for name in before)
    # and nothing of the attempt is left beside it
    assert sorted(p.name for p in site.parent.iterdir()) == [".atlas-cache", "maps", "site"]
    if failing == "new-into-place":  # the old site was moved aside, then moved back
        aside, new, back = calls
        assert aside[0] == Path("site") and aside[1].name == "old"
        assert aside[1].parent.name.startswith(".atlas-tmp-site-")
        assert new[1] == Path("site") and back == (aside[1], Path("site"))
    # and once the swap works again, the rebuild goes through and keeps the user's file
    monkeypatch.undo()
    monkeypatch.chdir(site.parent)
    assert main(argv) == 0
    after = _snapshot(site)
    assert after["notes.txt"] == b"the user's notes"
    assert any("tiny" in name for name in after)


def test_the_swap_exchanges_the_folders_in_one_step(old_site, monkeypatch):
    """Where the system exchanges folders, the site is never missing: one call swaps
    the old site and the new one, and the old one goes with the build's temporary."""
    site, argv = old_site
    seen = []
    real = swap_module.exchange

    def exchange(a, b):
        seen.append((Path(a).parent.name, Path(b)))
        done = real(a, b)
        assert done  # this machine's file system can
        assert (Path(a) / "index.html").is_file() and (Path(b) / "index.html").is_file()
        return done

    monkeypatch.setattr(swap_module, "exchange", exchange)
    assert main(argv) == 0
    assert len(seen) == 1 and seen[0][0].startswith(".atlas-tmp-site-")
    assert seen[0][1] == Path("site")
    assert sorted(p.name for p in site.parent.iterdir()) == [".atlas-cache", "maps", "site"]
    assert (site / "notes.txt").read_text() == "the user's notes"
