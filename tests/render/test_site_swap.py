"""The site swap: a build that fails while moving the new site into place leaves the old
site whole (the user's files in it included), no temporary folder, and exits 2."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from atlas.cli import main
from atlas.render.site import build as build_module

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


@pytest.mark.parametrize("failing", ["new-into-place", "old-aside"])
def test_a_failed_swap_keeps_the_old_site_and_exits_2(old_site, monkeypatch, capsys, failing):
    site, argv = old_site
    before = _snapshot(site)
    assert "notes.txt" in before and "index.html" in before
    capsys.readouterr()
    real_replace = os.replace
    calls = []

    def replace(src, dst):
        if Path(dst).name.startswith((".site-", "site")):  # the swap's, not the cache's
            calls.append((Path(src).name, Path(dst).name))
        moving_new = Path(src).name.startswith(".site-tmp-") and Path(dst) == Path("site")
        moving_old = Path(src) == Path("site")
        if (failing == "new-into-place" and moving_new) or (
            failing == "old-aside" and moving_old
        ):
            raise OSError(errno.EXDEV, "Invalid cross-device link")
        real_replace(src, dst)

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
        aside, back = calls[0], calls[-1]
        assert aside[0] == "site" and aside[1].startswith(".site-old-")
        assert back == (aside[1], "site") and len(calls) == 3
    # and once the swap works again, the rebuild goes through and keeps the user's file
    monkeypatch.setattr(build_module.os, "replace", real_replace)
    assert main(argv) == 0
    after = _snapshot(site)
    assert after["notes.txt"] == b"the user's notes"
    assert any("tiny" in name for name in after)
