"""atlas writes only where it may: never over what it did not write, nothing lost."""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

import pytest
from render_helpers import play_record

from atlas.cli import main
from atlas.maps import parse_map
from atlas.render.site.build import SITE_MARKER, build_site
from atlas.sim.base import Outcome
from atlas.sim.records import load_record, save_record

ROOT = Path(__file__).resolve().parents[2]
DUEL = (ROOT / "maps" / "tron" / "duel.txt").read_text()


def _maps(tmp_path: Path) -> Path:
    folder = tmp_path / "maps" / "tron"
    folder.mkdir(parents=True)
    (folder / "duel.txt").write_text(DUEL)
    return tmp_path / "maps"


def _build(maps: Path, out: Path, **kw):
    return build_site(
        maps, out, games=0, cache_dir=None, progress=False, log=lambda m: None, **kw
    )


def test_a_folder_holding_the_users_files_is_refused_and_left_alone(tmp_path, capsys):
    maps = _maps(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("my notes")
    assert main(["build", "--maps", str(maps), "--out", str(out), "--games", "0"]) == 2
    assert "holds files atlas did not write" in capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
    assert (out / "notes.txt").read_text() == "my notes"
    # a file where the folder should be
    (tmp_path / "file").write_text("x")
    assert (
        main(["build", "--maps", str(maps), "--out", str(tmp_path / "file"), "--games", "0"])
        == 2
    )
    assert (tmp_path / "file").read_text() == "x"


def test_a_rebuild_keeps_what_the_user_added_to_a_site(tmp_path):
    maps = _maps(tmp_path)
    out = tmp_path / "site"
    _build(maps, out)
    marker = json.loads((out / SITE_MARKER).read_text())
    assert "index.html" in marker["files"] and SITE_MARKER not in marker["files"]
    (out / "notes.txt").write_text("mine")
    (out / "img" / "logo.txt").write_text("also mine")
    _build(maps, out)
    assert (out / "notes.txt").read_text() == "mine"
    assert (out / "img" / "logo.txt").read_text() == "also mine"
    assert (out / "index.html").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["maps", "site"]  # no leftovers
    # a file of the user's where the new site puts its own: refused, the old site whole
    (out / "robots.txt").write_text("user")
    os.unlink(out / "index.html")
    (out / "index.html").write_text("the user's index")
    marker = json.loads((out / SITE_MARKER).read_text())
    marker["files"].remove("index.html")
    (out / SITE_MARKER).write_text(json.dumps(marker))
    from atlas.errors import OutputFolderError

    with pytest.raises(OutputFolderError, match="index.html"):
        _build(maps, out)
    assert (out / "index.html").read_text() == "the user's index"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["maps", "site"]


def test_links_out_of_the_maps_folder_and_fifos_are_reported_not_read(tmp_path):
    maps = _maps(tmp_path)
    secret = tmp_path / "secret.txt"
    secret.write_text("20 3\n" + "#" * 20 + "\n#1  password    2  #\n" + "#" * 20 + "\n")
    os.symlink(secret, maps / "tron" / "leak.txt")
    os.mkfifo(maps / "tron" / "pipe.txt")
    result = _build(maps, tmp_path / "site")
    assert [m.name for m in result.maps] == ["duel"]
    assert any("leak.txt" in p and "leads out" in p for p in result.problems)
    assert any("pipe.txt" in p and "FIFO" in p for p in result.problems)
    for page in (tmp_path / "site").rglob("*.html"):
        assert "password" not in page.read_text()


def test_a_record_that_lies_is_refused_and_the_rest_is_published(tmp_path, capsys):
    maps = _maps(tmp_path)
    records = tmp_path / "records"
    records.mkdir()
    gm = parse_map(DUEL, game="tron", name="duel")
    good = play_record("tron", gm, seed=1)
    save_record(good, records / "good.json.gz")
    claimed = Outcome(
        1 - (good.result.winner or 0),
        "crash",
        good.result.scores[::-1],
        "a claim its moves do not give",
    )
    save_record(dataclasses.replace(good, result=claimed), records / "liar.json.gz")
    outside = tmp_path / "elsewhere.json.gz"
    save_record(good, outside)
    os.symlink(outside, records / "link.json.gz")
    assert (
        main(
            [
                "build",
                "--maps",
                str(maps),
                "--out",
                str(tmp_path / "site"),
                "--games",
                "0",
                "--records",
                str(records),
            ]
        )
        == 0
    )
    err = capsys.readouterr().err
    assert "atlas build (2 problems): " in err
    assert "refused, not published" in err and "result.winner" in err
    assert "link.json.gz: left out" in err
    pages = list((tmp_path / "site" / "games").glob("*.html"))
    assert len(pages) == 1


@pytest.mark.parametrize("kind", ["record", "gif", "png"])
def test_output_files_atlas_did_not_write_are_kept_unless_forced(tmp_path, capsys, kind):
    maps = _maps(tmp_path)
    mine = tmp_path / f"mine.{ {'record': 'json', 'gif': 'gif', 'png': 'png'}[kind] }"
    mine.write_text("the user's own file")
    rec = tmp_path / "game.json"
    save_record(play_record("tron", parse_map(DUEL, game="tron"), seed=2), rec)
    if kind == "record":
        argv = [
            "play",
            "tron",
            str(maps / "tron" / "duel.txt"),
            "random",
            "random",
            "--record",
            str(mine),
        ]
    elif kind == "gif":
        argv = ["replay", str(rec), str(mine)]
    else:
        argv = ["analyze", str(maps / "tron" / "duel.txt"), "--png", str(mine)]
    assert main(argv) == 2
    assert "atlas did not write it; --force replaces it" in capsys.readouterr().err
    assert mine.read_text() == "the user's own file"
    assert main(argv + ["--force"]) == 0
    assert mine.read_bytes() != b"the user's own file"
    assert main(argv) == 0  # atlas's own file: written over without --force
    if kind == "record":
        load_record(mine)


def test_an_output_in_a_missing_folder_fails_before_the_game(tmp_path, capsys):
    maps = _maps(tmp_path)
    assert (
        main(
            [
                "play",
                "tron",
                str(maps / "tron" / "duel.txt"),
                "random",
                "random",
                "--record",
                str(tmp_path / "no" / "x.json"),
            ]
        )
        == 2
    )
    assert "does not exist" in capsys.readouterr().err


def test_pages_name_bad_files_from_their_folder_not_by_the_builders_paths(tmp_path):
    maps = _maps(tmp_path)
    (maps / "outpost").mkdir(exist_ok=True)
    (maps / "outpost" / "bad.txt").write_text("garbage\n1 2\n")
    (maps / "tron" / "broken.txt").write_text("3 3\n#1#\n")
    out = tmp_path / "site"
    result = _build(maps.resolve(), out)
    assert any(str(maps.resolve()) in p for p in result.problems)  # the console: in full
    leaked = [
        p.name
        for p in out.rglob("*")
        if p.is_file() and str(tmp_path) in p.read_bytes().decode("utf-8", "replace")
    ]
    assert leaked == []
    page = next(out.glob("maps/*broken*.html")).read_text()
    assert f"{maps.name}/tron/broken.txt:" in page
