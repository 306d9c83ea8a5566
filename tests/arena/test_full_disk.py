"""Issue 34, disks: a tournament's ``--out`` that is read-only, or whose disk fills up
mid-run, ends with one line naming the folder (exit 2), not an ``OSError`` traceback;
the records finished before stay and ``--resume`` plays the rest.  The failures are
injected (the suite may run as root, for whom a read-only mode is no obstacle)."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

import atlas
from atlas.cli import main
from atlas.errors import AtlasError, StorageError
from atlas.fsutil import write_atomically, writing_in

BOX = "7 5\n#######\n#1    #\n#     #\n#    2#\n#######\n"


def _refuse_under(monkeypatch, folder: Path, code: int, after: int = 0) -> None:
    """Make every creation of a file or folder under ``folder`` fail with ``code`` once
    ``after`` files have been written there (each written file is one ``.part``)."""
    parts = [0]
    real_open, real_mkdir = os.open, os.mkdir
    top = os.fspath(folder)

    def under(path) -> bool:
        return os.path.abspath(os.fspath(path)).startswith(top)

    def fake_open(path, flags, *a, **kw):
        if under(path) and flags & os.O_CREAT:
            if parts[0] >= after:
                raise OSError(code, os.strerror(code), os.fspath(path))
            parts[0] += os.fspath(path).endswith(".part")
        return real_open(path, flags, *a, **kw)

    def fake_mkdir(path, *a, **kw):
        if under(path) and parts[0] >= after:
            raise OSError(code, os.strerror(code), os.fspath(path))
        return real_mkdir(path, *a, **kw)

    monkeypatch.setattr(os, "open", fake_open)
    monkeypatch.setattr(os, "mkdir", fake_mkdir)


def test_writing_in_names_the_folder_and_keeps_other_errors(tmp_path):
    with pytest.raises(StorageError) as info, writing_in(tmp_path / "site", "the site"):
        raise OSError(errno.ENOSPC, "No space left on device")
    assert str(info.value) == f"cannot write in the site {str(tmp_path / 'site')!r}: " + (
        "No space left on device"
    )
    assert isinstance(info.value, AtlasError) and info.value.errno == errno.ENOSPC
    with pytest.raises(FileNotFoundError), writing_in(tmp_path):
        raise FileNotFoundError(errno.ENOENT, "gone")


def test_write_atomically_on_a_full_disk_names_the_folder_and_leaves_nothing(
    tmp_path, monkeypatch
):
    _refuse_under(monkeypatch, tmp_path, errno.ENOSPC)
    with pytest.raises(StorageError, match=r"cannot write in '.*': No space left on device"):
        write_atomically(tmp_path / "x.json", b"{}")
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("code", [errno.EROFS, errno.ENOSPC])
def test_a_tournament_out_that_cannot_be_written_is_one_line(
    tmp_path, monkeypatch, capsys, code
):
    (tmp_path / "box.txt").write_text(BOX)
    out = tmp_path / "results"
    _refuse_under(monkeypatch, out, code)
    argv = ["tournament", "tron", "--maps", str(tmp_path / "box.txt")]
    argv += ["--bots", "random", "wallhugger", "--seeds", "2", "--time", "0.2", "--jobs", "1"]
    status = main(argv + ["--out", str(out), "--quiet"])
    err = capsys.readouterr().err
    assert status == 2
    assert f"atlas: error: cannot write in the tournament folder {str(out)!r}" in err
    assert os.strerror(code) in err and "Traceback" not in err
    with pytest.raises(StorageError):
        atlas.tournament(
            {
                "game": "tron",
                "maps": [atlas.read_map(BOX, "tron")],
                "bots": ["random", "wallhugger"],
                "time": 0.2,
            },
            out=out,
        )


def test_a_disk_that_fills_mid_tournament_keeps_the_records_and_resumes(
    tmp_path, monkeypatch, capsys
):
    (tmp_path / "box.txt").write_text(BOX)
    out = tmp_path / "results"
    argv = ["tournament", "tron", "--maps", str(tmp_path / "box.txt")]
    argv += ["--bots", "random", "wallhugger", "--seeds", "3", "--time", "0.2", "--jobs", "1"]
    # the marker and two records are written, then the disk is full
    _refuse_under(monkeypatch, out, errno.ENOSPC, after=3)
    status = main(argv + ["--out", str(out), "--quiet"])
    err = capsys.readouterr().err
    monkeypatch.undo()
    assert status == 2, err
    assert f"cannot write in {str(out / 'records')!r}: No space left on device" in err
    assert "Traceback" not in err
    kept = sorted(p.name for p in (out / "records").iterdir())
    assert len(kept) == 2 and not (out / "results.json").exists()
    status = main(argv + ["--out", str(out), "--resume", "--quiet", "--json"])
    assert status == 0
    results = json.loads((out / "results.json").read_text())
    assert len(results["games"]) == 6
    assert len(list((out / "records").iterdir())) == 6


def test_saving_a_record_on_a_full_disk_is_a_storage_error(tmp_path, monkeypatch):
    record = atlas.play(atlas.read_map(BOX, "tron"), ["random", "random"], time=0.5)
    _refuse_under(monkeypatch, tmp_path, errno.ENOSPC)
    with pytest.raises(StorageError, match="No space left on device"):
        record.save(tmp_path / "game.json")
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []
