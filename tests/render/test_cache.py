"""The content cache: stable keys, atomic entries, code versions per kind of result."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from atlas.render.site.cache import CODE_PARTS, Cache, code_version, content_key


def test_content_key_is_stable_and_order_free_for_dicts():
    a = content_key("game", {"b": 1, "a": [1, 2]}, b"\x00bytes")
    b = content_key("game", {"a": [1, 2], "b": 1}, b"\x00bytes")
    assert a == b and len(a) == 64
    assert content_key("game", {"a": [2, 1], "b": 1}, b"\x00bytes") != a
    # parts are delimited: moving text between parts changes the key
    assert content_key("ab", "c") != content_key("a", "bc")
    assert content_key(b"x") != content_key("x")


#: Values of every kind a key is made of, and hostile ones: the fast encoder must write
#: what json.dumps writes (True is not 1, 1.0 is not 1, a dict's int keys, a tuple).
KEY_PARTS = [
    "",
    "plain",
    'quote " backslash \\ newline \n tab \t nul \x00 del \x7f',
    "é ü ∑ 🙂 \u2028 \ud800",
    0,
    -7,
    10**40,
    True,
    False,
    None,
    1.0,
    -0.0,
    float("inf"),
    float("nan"),
    [],
    (),
    ["a", 1, None, [True, 2.5], {"b": 1, "a": "x"}],
    ("t", ("u",)),
    {},
    {"b": [1, {"d": None, "c": "é"}], "a": 1},
    {1: "int key", 2: "x"},
    {"a": object.__name__, "x": Path("p")},
]


def test_content_key_writes_each_part_as_json_dumps_does():
    from atlas.render.site.cache import _json_text

    for part in KEY_PARTS:
        expected = json.dumps(part, sort_keys=True, separators=(",", ":"), default=str)
        assert _json_text(part) == expected, part
        h = hashlib.sha256(b"j" + expected.encode("utf-8") + b"\0").hexdigest()
        assert content_key(part) == h
    assert content_key(True) != content_key(1) and content_key(1.0) != content_key(1)
    assert content_key(["a", "b"]) == content_key(("a", "b"))  # JSON has one list


def test_a_cache_entry_nested_too_deep_to_parse_is_a_miss(tmp_path):
    cache = Cache(tmp_path / "c")
    for k, raw in enumerate(
        [b"[" * 100_000, b'{"a":' * 100_000, b"[" * 50_000 + b"]" * 50_000]
    ):
        key = content_key("deep", k)
        cache.put_bytes("kind", key, raw)
        assert cache.get_json("kind", key) is None
    assert cache.hits == 0 and cache.misses == 3


def test_cache_round_trip_counts_and_damage(tmp_path):
    cache = Cache(tmp_path / "c")
    key = content_key("k")
    assert cache.get_json("kind", key) is None and cache.misses == 1
    cache.put_json("kind", key, {"x": [1, 2]})
    assert cache.get_json("kind", key) == {"x": [1, 2]} and cache.hits == 1
    cache.put_bytes("png", key, b"\x89PNG")
    assert cache.get_bytes("png", key) == b"\x89PNG"
    (tmp_path / "c" / "kind" / key[:2] / key).write_bytes(b"{torn")
    assert cache.get_json("kind", key) is None  # a damaged entry is a miss
    assert not [p for p in (tmp_path / "c").rglob(".tmp-*")]  # no temporary left behind


def test_disabled_cache_stores_nothing(tmp_path, monkeypatch):
    # Run in an empty folder: a cache that wrote anyway (to a relative path, a default
    # folder, "None/...") would leave it there.
    monkeypatch.chdir(tmp_path)
    cache = Cache(None)
    cache.put_bytes("gif", "ab" * 32, b"data")
    cache.put_json("game", "cd" * 32, {"x": 1})
    assert cache.get_bytes("gif", "ab" * 32) is None
    assert cache.get_json("game", "cd" * 32) is None
    assert (cache.hits, cache.misses) == (0, 2)
    assert list(tmp_path.iterdir()) == []


def test_code_versions_differ_by_kind():
    versions = {kind: code_version(kind) for kind in CODE_PARTS}
    assert len(set(versions.values())) == len(versions)
    assert all(len(v) == 64 for v in versions.values())


def test_editing_a_file_changes_only_the_kinds_it_decides(tmp_path, monkeypatch):
    """A copy of the package, edited file by file: each edit changes the code version
    of exactly the kinds of result that file decides (and the whole-code version)."""
    import atlas.render.site.cache as cache_module

    pkg = Path(cache_module.__file__).resolve().parents[2]
    copy = tmp_path / "atlas"
    shutil.copytree(pkg, copy, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    monkeypatch.setattr(cache_module, "__file__", str(copy / "render" / "site" / "cache.py"))
    kinds = (*CODE_PARTS, None)

    def versions() -> dict:
        code_version.cache_clear()
        return {kind: code_version(kind) for kind in kinds}

    try:
        before = versions()
        edits = {
            "games/tron/bots/wallhugger.py": {"game", None},  # a bot: games, not pictures
            "games/tron/painter.py": {"analysis", "replay", None},  # a painter: pictures
            "render/images.py": {"analysis", "replay", None},  # pictures, not games
            "arena/runner.py": {"game", None},
            "games/tron/rules.py": {"analysis", "game", "replay", None},  # the rules: all
            "games/outpost/rules/kernels.py": {"analysis", "game", "replay", None},
            "games/tron/format.py": {"analysis", "game", "replay", None},  # the format: all
            "render/site/pages.py": {None},  # how pages are written: no result
        }
        for rel, changed in edits.items():
            with (copy / rel).open("a") as fh:
                fh.write("\n# edited\n")
            after = versions()
            assert {k for k in kinds if after[k] != before[k]} == changed, rel
            before = after
    finally:
        code_version.cache_clear()  # the real package's versions again for later tests


def test_page_modules_decide_no_cached_result():
    from atlas.render.site.cache import CODE_EXCLUDED, code_files

    for kind in CODE_PARTS:
        hashed = {p.as_posix() for p in code_files(kind)}
        assert not any(h.endswith("atlas/" + rel) for rel in CODE_EXCLUDED for h in hashed)
    # what renders the replays and draws the maps is in
    assert "render/viewer.py" in {"/".join(p.parts[-2:]) for p in code_files("replay")}
    assert "site/build.py" not in {"/".join(p.parts[-2:]) for p in code_files("replay")}
    assert "site/replays.py" in {"/".join(p.parts[-2:]) for p in code_files("replay")}
    assert "sim/registry.py" in {"/".join(p.parts[-2:]) for p in code_files("analysis")}
    assert not any(p.name == "pages.py" for p in code_files("replay"))
    assert any(p.name == "pages.py" for p in code_files(None))


def test_the_collector_is_paused_in_the_block_and_left_as_it_was():
    import gc

    from atlas.render.site.cache import collector_paused

    was = gc.isenabled()
    try:
        for before in (True, False):
            (gc.enable if before else gc.disable)()
            with collector_paused():
                assert not gc.isenabled()
            assert gc.isenabled() == before
            with pytest.raises(KeyError), collector_paused():
                raise KeyError("an error in the block")
            assert gc.isenabled() == before
    finally:
        (gc.enable if was else gc.disable)()


def test_what_a_block_made_is_frozen_and_its_cycles_collected_when_the_next_begins():
    import gc
    import weakref

    from atlas.render.site import cache
    from atlas.render.site.cache import collector_paused

    class Node:
        me: object = None

    was = gc.isenabled()
    gc.enable()
    gc.unfreeze()  # what an earlier build of this process left frozen
    try:
        with collector_paused():
            node = Node()
            node.me = node  # a cycle: reference counting alone never frees it
            gone = weakref.ref(node)
            del node
        assert gc.get_freeze_count() > 0  # left out of the collector's passes
        gc.collect()
        assert gone() is not None
        with collector_paused():
            assert gone() is None  # given back and collected as the next block began
        # something else of the process froze objects first, and no block of atlas
        # left any frozen: the blocks leave that freeze alone
        cache._FROZE[0] = False
        gc.unfreeze()
        other = Node()
        other.me = other
        kept = weakref.ref(other)
        del other
        gc.freeze()
        for _ in range(2):
            with collector_paused():
                Node()
        assert kept() is not None and gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        (gc.enable if was else gc.disable)()
