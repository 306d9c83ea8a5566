"""The content cache on a failed write: nothing stored, no temporary file left behind;
and a worker's drawings stored through one temporary folder, gone when the worker ends."""

from __future__ import annotations

import errno
import gzip
import json
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


def _temporaries(root: Path) -> list[str]:
    return sorted(p.name for p in root.iterdir() if p.name.startswith(TEMPORARY_PREFIX))


def _tiny_games(n: int) -> list[dict]:
    from atlas.arena.runner import play_game
    from atlas.maps import parse_map

    box = parse_map("6 5\n######\n#1  2#\n#    #\n#    #\n######\n", game="tron", name="box")
    return [
        play_game("tron", box, ["random", "random"], seed=s, time_limit=5.0).public_json()
        for s in range(n)
    ]


def test_a_process_draws_its_games_through_one_temporary_folder(tmp_path):
    # the cache of a worker's drawings is made once a process: every game it stores goes
    # through one marked temporary folder, not a folder made and removed for each game
    from atlas.render.site.replays import _worker_cache

    root = str(tmp_path / "c")
    cache = _worker_cache(root)
    assert _worker_cache(root) is cache
    for i in range(3):
        cache.put_json("meta", content_key("game", i), {"turns": i})
    assert len(_temporaries(tmp_path / "c")) == 1
    assert [Cache(root).get_json("meta", content_key("game", i)) for i in range(3)] == [
        {"turns": 0},
        {"turns": 1},
        {"turns": 2},
    ]
    cache.close()  # what the process's finalizer does when it ends
    assert _temporaries(tmp_path / "c") == []


def test_a_worker_that_drew_games_leaves_no_temporary_when_the_pool_ends(tmp_path):
    # games drawn in a pool's worker (as a build draws its replays): each drawing stored,
    # and the worker's temporary folder gone with the worker
    from atlas.arena.pool import run_pool
    from atlas.render.site.replays import _render_job

    root = tmp_path / "c"
    jobs = []
    for data in _tiny_games(3):
        digest = content_key("record", data)
        jobs.append((str(root), content_key("replay", digest), None, digest, data, False))
    done: dict[int, object] = {}
    failed: dict[int, str] = {}
    run_pool(jobs, _render_job, 1, done.__setitem__, failed.__setitem__)
    assert failed == {} and sorted(done) == [0, 1, 2]
    for i, job in enumerate(jobs):
        meta, gif, raw = done[i]
        assert gif is None
        assert Cache(root).get_json("meta", job[1]) == meta
        assert Cache(root).get_json("viewer", job[1]) is not None
        # the public record the site publishes comes back made: the game's own JSON
        assert meta["record_bytes"] == len(raw)
        assert json.loads(gzip.decompress(raw)) == job[4]
    assert _temporaries(root) == []
