"""The content cache: stable keys, atomic entries, code versions per kind of result."""

from __future__ import annotations

from atlas.render.site.cache import CODE_PARTS, Cache, code_version, content_key


def test_content_key_is_stable_and_order_free_for_dicts():
    a = content_key("game", {"b": 1, "a": [1, 2]}, b"\x00bytes")
    b = content_key("game", {"a": [1, 2], "b": 1}, b"\x00bytes")
    assert a == b and len(a) == 64
    assert content_key("game", {"a": [2, 1], "b": 1}, b"\x00bytes") != a
    # parts are delimited: moving text between parts changes the key
    assert content_key("ab", "c") != content_key("a", "bc")
    assert content_key(b"x") != content_key("x")


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


def test_disabled_cache_stores_nothing(tmp_path):
    cache = Cache(None)
    cache.put_bytes("gif", "ab" * 32, b"data")
    assert cache.get_bytes("gif", "ab" * 32) is None
    assert list(tmp_path.iterdir()) == []


def test_code_versions_differ_by_kind():
    versions = {kind: code_version(kind) for kind in CODE_PARTS}
    assert len(set(versions.values())) == len(versions)
    assert all(len(v) == 64 for v in versions.values())
    assert code_version("game") == code_version("game")


def test_page_modules_decide_no_cached_result():
    from atlas.render.site.cache import CODE_EXCLUDED, code_files

    for kind in CODE_PARTS:
        hashed = {p.as_posix() for p in code_files(kind)}
        assert not any(h.endswith("atlas/" + rel) for rel in CODE_EXCLUDED for h in hashed)
    # what renders the replays and draws the maps is in
    assert "render/viewer.py" in {"/".join(p.parts[-2:]) for p in code_files("replay")}
    assert "site/build.py" in {"/".join(p.parts[-2:]) for p in code_files("replay")}
    assert "sim/registry.py" in {"/".join(p.parts[-2:]) for p in code_files("analysis")}
    assert not any(p.name == "pages.py" for p in code_files("replay"))
    assert any(p.name == "pages.py" for p in code_files(None))
