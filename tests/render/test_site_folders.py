"""Several maps folders: ``atlas build --maps A --maps B``, ``atlas serve A B`` and
``atlas.build_site([A, B])`` publish the maps of every folder; the editor names each
map by its folder and saves each into its own, never elsewhere."""

from __future__ import annotations

import json
import os

import pytest
from serve_helpers import GOOD, OTHER, Served, wait_until

import atlas
from atlas.cli import main
from atlas.errors import ArgumentError
from atlas.render.site.build import BuildOptions, build
from atlas.render.site.serve import root_names

THIRD = "7 4\n#######\n#1 #  #\n#    2#\n#######\n"


def _folders(tmp_path):
    a, b = tmp_path / "course", tmp_path / "mine"
    for folder, text in ((a, GOOD), (b, OTHER)):
        (folder / "tron").mkdir(parents=True)
        (folder / "tron" / "duel.txt").write_text(text)
    (b / "tron" / "extra.txt").write_text(THIRD)
    return a, b


def _pages(result):
    return {m.page: os.path.relpath(m.path, result.out.parent) for m in result.maps}


def test_a_build_publishes_the_maps_of_every_folder(tmp_path):
    a, b = _folders(tmp_path)
    result = build(
        BuildOptions(
            maps_dir=a,
            more_maps=[b, a, tmp_path / "." / "mine"],  # named twice: read once
            out_dir=tmp_path / "site",
            games=0,
            cache_dir=None,
            progress=False,
            log=lambda line: None,
        )
    )
    assert result.problems == []
    assert _pages(result) == {
        "maps/tron-duel.html": "course/tron/duel.txt",
        "maps/tron-duel-2.html": "mine/tron/duel.txt",  # the same name: a page of its own
        "maps/tron-extra.html": "mine/tron/extra.txt",
    }
    # each page shows its own map, named by its folder, not by a path of this machine
    first = (result.out / "maps" / "tron-duel.html").read_text()
    second = (result.out / "maps" / "tron-duel-2.html").read_text()
    assert "course/tron/duel.txt" in first and "mine/tron/duel.txt" in second
    assert str(tmp_path) not in first + second


def test_the_command_and_the_api_take_several_folders(tmp_path, capsys):
    a, b = _folders(tmp_path)
    out = tmp_path / "site"
    argv = ["build", "--maps", str(a), "--maps", str(b), "--out", str(out), "--games", "0"]
    assert main([*argv, "--json", "-q"]) == 0
    said = json.loads(capsys.readouterr().out)
    assert said["maps"] == 3
    assert sorted(p.name for p in (out / "maps").glob("tron-*.html")) == [
        "tron-duel-2.html",
        "tron-duel.html",
        "tron-extra.html",
    ]
    site = atlas.build_site([a, b], tmp_path / "api-site", games=0, cache=None)
    assert len(site.maps) == 3 and site.problems == []
    with pytest.raises(ArgumentError, match="empty list"):
        atlas.build_site([], tmp_path / "none", games=0, cache=None)
    with pytest.raises(ArgumentError, match=r"maps\[1\]"):
        atlas.build_site([a, 7], tmp_path / "none", games=0, cache=None)  # type: ignore[list-item]


def test_a_missing_folder_among_several_is_named_and_nothing_is_built(tmp_path, capsys):
    a, _ = _folders(tmp_path)
    out = tmp_path / "site"
    argv = ["build", "--maps", str(a), "--maps", str(tmp_path / "nope"), "--out", str(out)]
    assert main([*argv, "--games", "0", "-q"]) == 2
    err = capsys.readouterr().err
    assert "the maps folder" in err and "nope" in err and "Traceback" not in err
    assert not out.exists()


def test_the_folders_names_are_unique_and_path_safe(tmp_path):
    one = tmp_path / "x" / "maps"
    two = tmp_path / "y" / "maps"
    odd = tmp_path / "my maps!"
    assert list(root_names([one])) == [""]  # one folder: its paths are its own
    assert root_names([one, two, odd]) == {"maps": one, "maps-2": two, "my-maps": odd}


@pytest.fixture
def two(tmp_path):
    more = tmp_path / "mine"
    (more / "tron").mkdir(parents=True)
    (more / "tron" / "duel.txt").write_text(OTHER)
    s = Served(tmp_path, more=(more,))
    s.more = more
    try:
        yield s
    finally:
        s.close()


def _save(served, rel, text, **headers):
    sent = {
        "Origin": f"http://127.0.0.1:{served.port}",
        "Content-Type": "text/plain; charset=utf-8",
        **headers,
    }
    return served.request(f"/__atlas/maps/{rel}", "PUT", sent, text.encode())


def test_served_folders_each_map_edited_and_saved_in_its_own(two):
    body = two.request("/maps/tron-good.html")[2]
    assert b'href="/__atlas/edit/maps/tron/good.txt">Edit this map' in body
    body = two.request("/maps/tron-duel.html")[2]
    assert b'href="/__atlas/edit/mine/tron/duel.txt">Edit this map' in body
    status, _, page = two.request("/__atlas/edit/mine/tron/duel.txt")
    assert status == 200
    assert b'"file": "mine/tron/duel.txt", "folders": ["maps", "mine"]' in page
    assert b'"rows": ["#######", "#...#.#", "#.....#", "#######"]' in page

    assert _save(two, "mine/tron/duel.txt", GOOD)[0] == 200
    assert (two.more / "tron" / "duel.txt").read_text() == GOOD
    assert not (two.maps / "tron" / "duel.txt").exists()
    assert _save(two, "maps/tron/new.txt", THIRD)[0] == 200
    assert (two.maps / "tron" / "new.txt").read_text() == THIRD
    wait_until(lambda: two.status("/maps/tron-new.html") == 200, "the new map's page")
    # a path that names no folder of the server, or only a folder: nothing written
    for rel in ("tron/good.txt", "other/tron/x.txt", "mine", "mine/../maps/tron/x.txt"):
        assert _save(two, rel, "x")[0] in (400, 403), rel
        assert two.request(f"/__atlas/edit/{rel}")[0] in (400, 403), rel
    assert (two.maps / "tron" / "good.txt").read_text() == GOOD
    assert sorted(p.name for p in two.maps.parent.iterdir() if p.name.endswith(".txt")) == []


def test_a_new_map_picks_its_folder_in_the_editor(two):
    status, _, page = two.request("/__atlas/edit/")
    assert status == 200 and b'"file": null, "folders": ["maps", "mine"]' in page
    assert b'id="ed-folder"' in page
    # the first map of a game in the second folder: its game's folder is made there
    assert _save(two, "mine/isolation/first.txt", "x")[0] == 200
    assert (two.more / "isolation" / "first.txt").read_text() == "x"
    assert (two.more / "isolation").is_dir()
    assert not (two.maps / "isolation").exists()


def test_every_folder_is_watched(two):
    (two.more / "tron" / "later.txt").write_text(THIRD)
    wait_until(lambda: two.status("/maps/tron-later.html") == 200, "the second folder's map")
    (two.more / "tron" / "later.txt").unlink()
    wait_until(lambda: two.status("/maps/tron-later.html") == 404, "the map gone")
