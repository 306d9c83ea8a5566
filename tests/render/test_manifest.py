"""The site's manifest of keyed files: its form, the earlier form, and the sorted list
of files the marker takes from the writer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from atlas.render.site.output import (
    MANIFEST,
    SiteWriter,
    manifest_keys,
    manifest_text,
)
from atlas.render.site.swap import SITE_MARKER, _manifest_keys, mark_site


def _never() -> bytes:
    raise AssertionError("a file kept by its key was made again")


def _previous(tmp_path: Path, manifest: str, files: dict[str, bytes]) -> Path:
    prev = tmp_path / "site"
    for rel, data in files.items():
        (prev / rel).parent.mkdir(parents=True, exist_ok=True)
        (prev / rel).write_bytes(data)
    (prev / MANIFEST).write_text(manifest)
    return prev


@pytest.mark.parametrize("form", ["earlier", "paths and keys"])
def test_a_file_listed_under_its_key_is_kept_without_being_made(tmp_path, form):
    files = {"games/g1.json.gz": b"one", "games/g2.json.gz": b"two"}
    keys = {"games/g1.json.gz": "k1", "games/g2.json.gz": "k2"}
    if form == "earlier":  # what atlas wrote before: an object of paths to keys
        text = json.dumps(keys)
    else:
        text = manifest_text(list(keys), list(keys.values()))
    prev = _previous(tmp_path, text, files)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    w = SiteWriter(tmp, prev)
    assert w.old_keys == keys
    w.put("games/g1.json.gz", _never, key="k1")
    w.put("games/g2.json.gz", b"two!", key="k2 changed")  # a new key: written
    w.finish()
    assert w.kept == 1 and (tmp / "games/g1.json.gz").read_bytes() == b"one"
    assert (tmp / "games/g2.json.gz").read_bytes() == b"two!"
    data = json.loads((tmp / MANIFEST).read_text())
    assert data == {
        "format": "atlas-manifest",
        "version": 2,
        "paths": ["games/g1.json.gz", "games/g2.json.gz"],
        "keys": ["k1", "k2 changed"],
    }
    assert _manifest_keys(tmp) == frozenset(keys)


@pytest.mark.parametrize(
    "damaged",
    [
        {"format": "atlas-manifest", "version": 2, "paths": ["a", "b"], "keys": ["k1"]},
        {"format": "atlas-manifest", "version": 2, "paths": ["a"], "keys": [1]},
        {"format": "atlas-manifest", "version": 2, "paths": "a", "keys": ["k1"]},
        {"format": "atlas-manifest", "version": 2, "paths": [["a"]], "keys": ["k1"]},
        ["a", "k1"],
    ],
)
def test_a_damaged_manifest_keeps_nothing_by_key(tmp_path, damaged):
    prev = _previous(tmp_path, json.dumps(damaged), {"a": b"old"})
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    assert manifest_keys(damaged) is None
    assert _manifest_keys(prev) is None
    w = SiteWriter(tmp, prev)
    assert w.old_keys == {}
    made = []
    w.put("a", lambda: made.append(1) or b"new", key="k1")
    assert made == [1] and (tmp / "a").read_bytes() == b"new"


def test_the_marker_lists_every_file_put_once_and_sorted(tmp_path):
    prev = _previous(
        tmp_path,
        manifest_text(["games/b.html", "games/d.html"], ["kb", "kd"]),
        {"games/b.html": b"b", "games/d.html": b"d"},
    )
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    w = SiteWriter(tmp, prev)
    w.put("index.html", b"i")
    w.put("games/d.html", _never, key="kd")
    w.put("games/c.html", b"c", key="kc")
    w.put("games/b.html", _never, key="kb")
    w.put("index.html", b"i")  # put twice: listed once
    w.put("a.css", b"a")
    w.finish()
    want = [MANIFEST, "a.css", "games/b.html", "games/c.html", "games/d.html", "index.html"]
    assert w.listed() == sorted(want)
    mark_site(tmp, w.files)  # unsorted, with a file put twice
    assert json.loads((tmp / SITE_MARKER).read_text())["files"] == sorted(want)
