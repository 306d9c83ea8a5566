"""The content cache on a failed write: nothing stored, no temporary file left behind."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from atlas.fsutil import TEMPORARY_MARKER, TEMPORARY_PREFIX
from atlas.render.site import cache as cache_module
from atlas.render.site.cache import Cache, content_key


def _files(root) -> list[str]:
    return sorted(p.name for p in root.rglob("*") if p.is_file())


@pytest.mark.parametrize("failure", [OSError(errno.ENOSPC, "No space left on device"), None])
def test_a_failed_write_leaves_no_temporary_and_no_entry(tmp_path, monkeypatch, failure):
    cache = Cache(tmp_path / "c")
    key = content_key("a game")
    cache.put_bytes("gif", content_key("kept"), b"an earlier entry")
    real_replace = os.replace

    def replace(src, dst):
        # the data went to the cache's temporary, a folder marked as atlas's
        assert Path(src).parent.name.startswith(TEMPORARY_PREFIX)
        assert (Path(src).parent / TEMPORARY_MARKER).is_file()
        assert Path(src).read_bytes() == b"GIF89a..."
        if failure is None:
            raise KeyboardInterrupt
        raise failure

    monkeypatch.setattr(cache_module.os, "replace", replace)
    if failure is None:  # an interrupt propagates, the temporary is removed all the same
        with pytest.raises(KeyboardInterrupt):
            cache.put_bytes("gif", key, b"GIF89a...")
    else:  # a full disk is not the build's failure: the entry is just not stored
        cache.put_bytes("gif", key, b"GIF89a...")
    monkeypatch.setattr(cache_module.os, "replace", real_replace)
    cache.close()  # the end of a build: its temporary goes
    assert _files(tmp_path / "c") == [content_key("kept")]
    assert cache.get_bytes("gif", key) is None
    assert cache.get_bytes("gif", content_key("kept")) == b"an earlier entry"


def test_a_cache_folder_that_cannot_be_made_is_a_miss_not_an_error(tmp_path):
    (tmp_path / "c").write_text("a file where the cache folder should be")
    cache = Cache(tmp_path / "c")
    cache.put_json("analysis", content_key("m"), {"free": 3})
    assert cache.get_json("analysis", content_key("m")) is None
    assert (tmp_path / "c").read_text() == "a file where the cache folder should be"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c"]
