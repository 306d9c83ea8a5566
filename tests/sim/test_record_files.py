"""Record files: the size guards at their exact boundary (plain and gzip), and
save_record's cleanup when a write fails (no temporary left, the old file kept)."""

from __future__ import annotations

import errno
import gzip
import os
from pathlib import Path

import pytest

from atlas.arena.runner import play_game
from atlas.errors import RecordError, StorageError
from atlas.fsutil import TEMPORARY_PREFIX
from atlas.limits import MAX_RECORD_BYTES
from atlas.maps import parse_map
from atlas.sim.records import io as records_module  # where load_record reads its limit
from atlas.sim.records import load_record, save_record

TRON = parse_map("7 4\n#######\n#1    #\n#    2#\n#######\n", game="tron", name="tiny")


@pytest.fixture(scope="module")
def record():
    return play_game("tron", TRON, ["random", "random"], seed=1, time_limit=5.0)


def test_a_plain_record_of_the_limit_loads_and_one_byte_more_is_refused(
    tmp_path, monkeypatch, record
):
    path = tmp_path / "game.json"
    save_record(record, path)
    size = path.stat().st_size
    monkeypatch.setattr(records_module, "MAX_RECORD_BYTES", size)
    assert load_record(path) == record
    monkeypatch.setattr(records_module, "MAX_RECORD_BYTES", size - 1)
    with pytest.raises(RecordError) as info:
        load_record(path)
    assert str(info.value) == (
        f"{path}: record is {size:,} bytes, more than atlas reads ({size - 1:,} at most)"
    )


def test_a_gzip_record_is_bounded_by_its_decompressed_size(tmp_path, monkeypatch, record):
    path = tmp_path / "game.json.gz"
    save_record(record, path)
    unpacked = len(gzip.decompress(path.read_bytes()))
    assert path.stat().st_size < unpacked  # the guard is on what it unpacks to
    monkeypatch.setattr(records_module, "MAX_RECORD_BYTES", unpacked)
    assert load_record(path) == record
    monkeypatch.setattr(records_module, "MAX_RECORD_BYTES", unpacked - 1)
    with pytest.raises(RecordError) as info:
        load_record(path)
    assert str(info.value) == (
        f"{path}: record is more than {unpacked - 1:,} bytes once decompressed"
    )


def test_a_huge_file_is_refused_by_its_size_before_it_is_read(tmp_path):
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as fh:  # sparse: no disk space, no time
        fh.truncate(MAX_RECORD_BYTES + 1)
    with pytest.raises(RecordError) as info:
        load_record(huge)
    assert str(info.value) == (
        f"{huge}: record is {MAX_RECORD_BYTES + 1:,} bytes, more than atlas reads "
        f"({MAX_RECORD_BYTES:,} at most)"
    )


@pytest.mark.parametrize("step", ["chmod", "replace"])
@pytest.mark.parametrize("name", ["game.json", "game.json.gz"])
def test_a_failed_save_leaves_the_old_record_and_no_temporary(
    tmp_path, monkeypatch, record, step, name
):
    path = tmp_path / name
    path.write_bytes(b"the previous record")
    seen = []

    def fail(target, *args):
        seen.append(Path(target))
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(records_module.os, step, fail)
    with pytest.raises(StorageError, match="No space left on device") as info:
        save_record(record, path)
    # the API's error names the folder that failed (a disk error is no traceback)
    assert info.value.folder == str(tmp_path) and info.value.errno == errno.ENOSPC
    monkeypatch.undo()
    # the failing step worked on a temporary beside the record, in a folder marked as
    # atlas's, which is gone now
    assert len(seen) == 1 and seen[0].parent.parent == tmp_path
    assert seen[0].name == name + ".part"
    assert seen[0].parent.name.startswith(TEMPORARY_PREFIX)
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]
    assert path.read_bytes() == b"the previous record"
    save_record(record, path)  # and a save that works replaces it
    assert load_record(path) == record
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_an_interrupted_save_leaves_no_temporary(tmp_path, monkeypatch, record):
    def interrupted(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(records_module.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        save_record(record, tmp_path / "game.json")
    monkeypatch.undo()
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("name", ["game.json", "game.json.gz"])
def test_a_save_that_fails_mid_write_leaves_the_old_record_and_no_temporary(
    tmp_path, monkeypatch, record, name
):
    path = tmp_path / name
    path.write_bytes(b"the previous record")
    real_fdopen = os.fdopen
    written = []

    class DiskFull:
        """The temporary's file: takes half of what it is given, then the disk is full."""

        def __init__(self, fd, mode):
            self.fh = real_fdopen(fd, mode)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.fh.close()

        def write(self, data):
            self.fh.write(data[: len(data) // 2])
            self.fh.flush()
            written.extend((p.name, p.stat().st_size) for p in tmp_path.glob("*/*.part"))
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(records_module.os, "fdopen", DiskFull)
    with pytest.raises(StorageError, match="No space left on device") as info:
        save_record(record, path)
    # the API's error names the folder that failed (a disk error is no traceback)
    assert info.value.folder == str(tmp_path) and info.value.errno == errno.ENOSPC
    monkeypatch.undo()
    # half a record had reached a temporary beside the record, which is gone now
    assert len(written) == 1 and written[0][1] > 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]
    assert path.read_bytes() == b"the previous record"
