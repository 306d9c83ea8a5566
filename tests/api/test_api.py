"""atlas's Python API: each function does what the command of the same name does, and
returns values a caller can use (and Jupyter can show)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import atlas
from atlas.cli import main
from atlas.render.viewer import read_page_json

ROOT = Path(__file__).resolve().parents[2]
MAPS = ROOT / "maps"
TRON_TEXT = "7 4\n#######\n#1    #\n#    2#\n#######\n"
#: One of each game's own maps.
GAME_MAPS = {
    "tron": MAPS / "tron" / "duel.txt",
    "isolation": MAPS / "isolation" / "knight7.txt",
    "connect5": MAPS / "connect5" / "connect4.txt",
    "outpost": MAPS / "outpost" / "fjords.txt",
}


def _cli_json(argv: list[str], capsys) -> object:
    assert main(argv) in (0, 1)
    return json.loads(capsys.readouterr().out)


@pytest.fixture
def tron_map() -> atlas.GameMap:
    return atlas.read_map(TRON_TEXT, game="tron", name="tiny")


# --------------------------------------------------------------------------- the package


def _fresh(code: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> str:
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=cwd,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("NUMBA_CACHE_DIR", "ATLAS_CACHE_DIR", "XDG_CACHE_HOME")
    }
    env["HOME"] = str(tmp_path / "home")
    env.update(extra)
    return env


def test_import_atlas_loads_nothing_heavy_and_touches_nothing(tmp_path):
    (tmp_path / "home").mkdir()
    got = json.loads(
        _fresh(
            """
            import json, os, sys
            before = dict(os.environ)
            import atlas
            print(json.dumps({
                "heavy": sorted(m for m in ("numpy", "numba", "PIL", "jinja2")
                                if m in sys.modules),
                "env": sorted(set(os.environ.items()) ^ set(before.items())),
                "api": sorted(n for n in atlas.__all__ if n in vars(atlas)),
            }))
            """,
            _env(tmp_path),
            tmp_path,
        )
    )
    assert got == {"heavy": [], "env": [], "api": ["__version__"]}
    assert list((tmp_path / "home").iterdir()) == []  # no cache folder made


def test_every_name_of_the_api_resolves_and_is_documented():
    for name in atlas.__all__:
        value = getattr(atlas, name)
        if name != "__version__":
            first = (value.__doc__ or "").strip().splitlines()[0]
            assert first.endswith("."), name
    assert set(dir(atlas)) >= set(atlas.__all__)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        atlas.nothing  # noqa: B018


def test_help_lists_the_api_with_one_line_each():
    import pydoc

    text = pydoc.render_doc(atlas, renderer=pydoc.plaintext)
    listed = {}
    for line in atlas.__doc__.splitlines():
        words = line.split(None, 1)
        if line.startswith("    ") and len(words) == 2 and words[0] in atlas.__all__:
            listed[words[0]] = words[1].strip()
    api = [n for n in atlas.__all__ if n[0].islower() and n != "__version__"]
    classes = ["GameMap", "Analysis", "ValidationReport", "Problem", "Record", "State", "Bot"]
    classes += ["Results", "Standings", "StandingRow", "FairnessReport", "FairnessReports"]
    classes += ["SeatScore", "BuildResult"]
    assert sorted(listed) == sorted(api + classes)
    for name, summary in listed.items():
        assert getattr(atlas, name).__doc__.strip().splitlines()[0] == summary, name
        assert f"{name}" in text
    assert "analyze(game_map: 'MapSource') -> 'Analysis'" in text.replace('"', "'")


def test_analyze_stays_the_function_when_its_package_is_imported():
    import importlib

    kernels = importlib.import_module("atlas.analysis.voronoi")
    from atlas.analysis.summary import grid_summary

    assert callable(atlas.analyze) and atlas.analyze.__module__ == "atlas.api.analysis"
    assert kernels.voronoi_counts and grid_summary


def test_the_analysis_package_is_importable_by_its_name_in_a_fresh_process():
    out = _fresh(
        """
        import warnings
        warnings.simplefilter("error")
        import atlas.analysis.voronoi as v
        import atlas
        print(v.__name__, callable(atlas.analyze), atlas.analyze.__module__)
        """
    )
    assert out.split() == ["atlas.analysis.voronoi", "True", "atlas.api.analysis"]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("atlas.analyze.voronoi", "atlas.analysis.voronoi"),
        ("atlas.analyze.chambers", "atlas.analysis.chambers"),
        ("atlas.analyze.outpost.influence", "atlas.games.outpost.analysis.influence"),
        ("atlas.analyze.outpost.validate", "atlas.games.outpost.validation"),
    ],
)
def test_the_old_analysis_paths_warn_and_give_the_new_modules(old, new):
    out = _fresh(
        f"""
        import importlib, sys, warnings
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            old = importlib.import_module("{old}")
        new = importlib.import_module("{new}")
        parent, _, leaf = "{old}".rpartition(".")
        print(old is new, sys.modules["{old}"] is new, getattr(sys.modules[parent], leaf) is new)
        print([str(w.message) for w in caught if w.category.__name__ == "AtlasDeprecationWarning"])
        """
    )
    same, messages = out.splitlines()
    assert same == "True True True"
    assert f"the module {old} is deprecated since atlas 0.2" in messages
    assert f"use {new}" in messages


def test_a_moved_name_warns_and_still_works(monkeypatch):
    monkeypatch.setitem(atlas._MOVED, "old_read_map", ("api", "read_map", "0.9"))
    with pytest.warns(atlas.AtlasDeprecationWarning, match="atlas.old_read_map is deprecated"):
        fn = atlas.old_read_map
    assert fn is atlas.read_map


# --------------------------------------------------------------------------- maps


def test_read_map_from_text_and_from_a_file_give_the_same_map(tmp_path, tron_map):
    path = tmp_path / "tiny.txt"
    text = atlas.write_map(tron_map, path)
    assert text == TRON_TEXT and path.read_text() == TRON_TEXT
    again = atlas.read_map(path, game="tron")
    assert again == tron_map and again.source == str(path)
    assert atlas.read_map(str(path)).starts == ((1, 1), (2, 5))  # the format tells
    assert atlas.read_map(path, name="other").name == "other"


def test_write_map_replaces_a_file_only_when_told(tmp_path, tron_map):
    path = tmp_path / "notes.txt"
    path.write_text("mine")
    with pytest.raises(atlas.OutputFolderError, match="atlas did not write it"):
        atlas.write_map(tron_map, path)
    assert path.read_text() == "mine"
    atlas.write_map(tron_map, path, force=True)
    assert path.read_text() == TRON_TEXT


def test_a_map_shows_its_picture(tron_map):
    from io import BytesIO

    from PIL import Image

    png = tron_map._repr_png_()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    with Image.open(BytesIO(png)) as image:
        w, h = image.size
    assert w > 7 and h > 4 and w * 4 == h * 7  # the map's proportions


# --------------------------------------------------------------------------- analyze


@pytest.mark.parametrize("game", sorted(GAME_MAPS))
def test_analysis_to_json_is_what_atlas_analyze_json_prints(game, capsys):
    path = GAME_MAPS[game]
    analysis = atlas.analyze(atlas.read_map(path))
    assert analysis.to_json() == _cli_json(["analyze", str(path), "--json"], capsys)
    assert analysis.components == analysis.to_json().get("components")
    assert analysis.text().splitlines()[0].startswith(f"{game} map")


def test_analysis_attributes_hold_the_figures(tron_map):
    a = atlas.analyze(tron_map)
    assert a.free_cells == 10 and a.components == 1 and a.articulation_points == []
    assert a.voronoi == {"p1": 4, "p2": 4, "tie": 0}
    assert a.parity_bound == {"p1": 8, "p2": 8}  # moves: 4 cells of each colour
    assert a.chambers == {"p1": {"fillable": 4, "count": 1}, "p2": {"fillable": 4, "count": 1}}
    assert a.influence is None and a.extras == {}
    a.chambers["p1"]["count"] = 99  # a copy: the analysis is not changed
    assert a.to_json()["chambers"]["p1"]["count"] == 1


def test_an_outpost_analysis_has_the_influence_at_the_start():
    game_map = atlas.read_map(GAME_MAPS["outpost"])
    a = atlas.analyze(game_map)
    assert a.voronoi is None and a.parity_bound is None
    owner = np.asarray(a.influence.owner)
    assert owner.shape == (100, 100)
    for seat, home in enumerate(game_map.starts):
        assert owner[home] == seat
    # r = 10 around each corner home: the cells within Manhattan distance 10 of it
    assert owner[0, 10] == 0 and owner[0, 11] == -1 and owner[99, 89] == 2
    land = int(a.influence.land.sum())
    within = sum(
        1
        for r in range(100)
        for c in range(100)
        if not game_map.blocked[r, c]
        and min(abs(r - hr) + abs(c - hc) for hr, hc in game_map.starts) <= 10
    )
    assert land == within


def test_an_analysis_shows_its_overlays(tron_map):
    html = atlas.analyze(tron_map)._repr_html_()
    # the map and its overlays: Voronoi, chambers, parity
    assert html.count("data:image/png;base64,") == 4
    assert "Voronoi" in html and "free cells" in html
    assert atlas.analyze(tron_map)._repr_png_()[:4] == b"\x89PNG"


# --------------------------------------------------------------------------- validate


def test_validate_reports_what_atlas_validate_json_lists(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("0 0\n3 4\n3 4\n")
    report = atlas.validate(bad)
    assert report.to_json() == _cli_json(["validate", str(bad), "--json"], capsys)[0]
    assert not report.valid and [p.rule for p in report.errors] == [
        "duplicate",
        "count",
        "corner",
    ]
    assert report.errors[0].line == 3 and report.errors[0].cell == (4, 3)
    from_text = atlas.validate(bad.read_text())
    assert [str(p) for p in from_text.errors] == [str(p) for p in report.errors]
    html = report._repr_html_()
    assert "invalid" in html and "duplicate" in html and "data:image/png" in html


def test_validate_of_a_good_map_and_of_a_missing_file():
    good = atlas.validate(GAME_MAPS["outpost"])
    assert good.valid and good.errors == () and good.game == "outpost"
    missing = atlas.validate("no/such/file.txt")
    assert missing.unreadable and not missing.valid and missing.errors[0].rule == "unreadable"


# --------------------------------------------------------------------------- play


def test_play_takes_names_programs_and_objects(tron_map):
    class East:
        name = "east"

        def move(self, state, player, deadline):
            return 2

    bot = f"cmd:{sys.executable} {ROOT / 'examples' / 'bots' / 'tron_bot.py'}"
    record = atlas.play(tron_map, [East(), bot], seed=2, time=5.0)
    assert [p.name for p in record.players] == ["east", "tron_bot"]
    assert [p.kind for p in record.players] == ["builtin", "external"]
    assert record.turns[0].moves[0] == 2
    assert isinstance(record, atlas.Record) and record.result.reason.value in (
        "win",
        "draw",
        "crash",
    )


def test_the_same_seed_gives_the_same_record(tron_map):
    one = atlas.play(tron_map, ["random", "random"], seed=5, time=1.0)
    two = atlas.play(tron_map, ["random", "random"], seed=5, time=1.0)
    assert one.turns and [t.moves for t in one.turns] == [t.moves for t in two.turns]
    assert one.result == two.result and one.statuses == two.statuses  # times may differ


def test_compat_official_plays_the_official_rules(tron_map):
    record = atlas.play(tron_map, ["random", "random"], compat="official", time=1.0)
    assert record.params["compat"] == "official"
    spec = atlas.play(tron_map, ["random", "random"], compat="spec", time=1.0)
    assert spec.params["compat"] != "official"


def test_a_record_saves_loads_replays_and_draws(tmp_path, tron_map):
    record = atlas.play(tron_map, ["wallhugger", "random"], seed=1, time=1.0)
    path = record.save(tmp_path / "game.json.gz")
    again = atlas.load_record(path)
    assert again == record and isinstance(again, atlas.Record)
    states = again.states()
    assert len(states) == len(record.turns) + 1
    gif = again.gif(tmp_path / "game.gif")
    assert gif.read_bytes()[:6] == b"GIF89a"
    again.gif(gif)  # atlas's own GIF is replaced
    other = tmp_path / "other.gif"
    other.write_bytes(b"not atlas's")
    with pytest.raises(atlas.OutputFolderError, match="atlas did not write it"):
        again.gif(other)
    with pytest.raises(atlas.OutputFolderError):
        record.save(other)
    assert other.read_bytes() == b"not atlas's"


def test_a_record_shows_a_self_contained_replay_viewer(tron_map):
    import html as html_module
    import re

    record = atlas.play(tron_map, ["wallhugger", "random"], seed=1, time=1.0)
    frame = record._repr_html_()
    assert frame.startswith("<iframe") and 'srcdoc="' in frame
    page = html_module.unescape(re.search(r'srcdoc="([^"]*)"', frame).group(1))
    assert page == record.html()
    assert '<script type="application/json" id="replay-data">' in page
    assert "atlas replay viewer" in page and 'id="board"' in page  # viewer.js, inline
    assert "<link" not in page and "src=" not in page  # nothing to fetch
    assert not re.search(r"https?://", page)
    data = re.search(r'id="replay-data">(.*?)</script>', page, re.S).group(1)
    assert read_page_json(data)["last"] == len(record.turns)


# --------------------------------------------------------------------------- tournament


def test_a_tournament_from_a_dict_and_from_its_file_give_the_same_results(tmp_path, capsys):
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "small.txt").write_text("connect5 5 4 3\n")
    plan = tmp_path / "plan.toml"
    plan.write_text(
        'game = "connect5"\nmaps = ["maps/*.txt"]\ntime = 0.5\n'
        '[[bots]]\nname = "random"\nbuiltin = "random"\n'
        '[[bots]]\nname = "w4"\nbuiltin = "window4"\n'
    )
    from_file = atlas.tournament(plan, jobs=1)
    as_dict = atlas.tournament(
        {
            "game": "connect5",
            "maps": [atlas.read_map("connect5 5 4 3\n", name="small")],
            "bots": ["random", "w4=window4"],
            "time": 0.5,
        },
        jobs=1,
    )
    assert as_dict.to_json() == from_file.to_json()
    cli = _cli_json(["tournament", str(plan), "--json", "--jobs", "1", "--quiet"], capsys)
    assert cli == from_file.to_json()
    rows = from_file.standings.rows
    assert [r.games for r in rows] == [2, 2] and rows[0].low <= rows[0].rating <= rows[0].high
    html = from_file._repr_html_()
    assert "95% interval" in html and "w4" in html and "Head to head" in html
    # one seat-swapped pair: the scores' interval is the pentanomial one, named
    assert "score [95%]" in html and "pentanomial: each group of seat-swapped" in html
    assert from_file.standings._repr_html_() in html


def test_a_tournament_writes_its_folder_and_refuses_a_foreign_one(tmp_path):
    plan = {
        "game": "connect5",
        "maps": [atlas.read_map("connect5 5 4 3\n", name="small")],
        "bots": ["random", "window4"],
        "time": 0.5,
    }
    out = tmp_path / "event"
    results = atlas.tournament(plan, out=out, jobs=1)
    assert results.folder == out and len(list((out / "records").iterdir())) == 2
    assert json.loads((out / "results.json").read_text()) == results.to_json() | {
        "games": json.loads((out / "results.json").read_text())["games"]
    }
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    with pytest.raises(atlas.OutputFolderError, match="atlas did not write"):
        atlas.tournament(plan, out=foreign, jobs=1)
    assert os.listdir(foreign) == ["notes.txt"]
