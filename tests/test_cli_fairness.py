"""``atlas fairness``: its JSON, its text, bad input as one line, and the games' cache.

Games are played in this process (``--jobs 1``) on the injected clock (``tick_clock``)."""

from __future__ import annotations

import json
from pathlib import Path

from atlas.cli import main

ROOT = Path(__file__).resolve().parents[1]
LOPSIDED = "12 5\n############\n#1     #  2#\n#      #   #\n#      #   #\n############\n"
SHAFT = "3 6\n###\n#2#\n# #\n# #\n#1#\n###\n"


def _maps(tmp_path: Path) -> tuple[Path, Path, Path]:
    one = tmp_path / "lopsided.txt"
    one.write_text(LOPSIDED)
    shaft = tmp_path / "shaft.txt"
    shaft.write_text(SHAFT)
    bad = tmp_path / "broken.txt"
    bad.write_text("7 3\n#######\n#1 x 2#\n#######\n")  # a stray character, line 3
    return one, shaft, bad


def test_json_one_object_per_map_and_a_bad_map_is_one_line(tmp_path, capsys, tick_clock):
    one, shaft, bad = _maps(tmp_path)
    cache = tmp_path / "cache"
    argv = [
        "fairness",
        str(one),
        str(bad),
        str(shaft),
        "--bots",
        "wallhugger",
        "--games",
        "6",
        "--opening",
        "0",
        "--jobs",
        "1",
        "--compat",
        "official",
        "--cache",
        str(cache),
        "--json",
    ]
    assert main(argv) == 2
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert [r["map"] for r in out] == ["lopsided", "shaft"]
    lines = [ln for ln in captured.err.splitlines() if ln.strip()]
    assert len(lines) == 1 and f"{bad}:3:" in lines[0] and "Traceback" not in captured.err
    lop, sh = out
    for r in out:
        assert {
            "map",
            "game",
            "symmetries",
            "seats",
            "draws",
            "games",
            "verdict",
            "method",
        } <= set(r)
        for s in r["seats"]:
            assert 0 <= s["low"] <= s["score"] <= s["high"] <= 1
    assert lop["symmetries"] == [] and lop["verdict"] == "favours seat 1"
    assert [s["seat"] for s in lop["seats"]] == [1, 2] and lop["games"] == 6
    assert sh["symmetries"] == ["rot180", "flip-ud"] and sh["verdict"] == "favours seat 1"
    assert sh["params"]["compat"] == "official" and sh["draws"] == 0
    assert "pentanomial" in sh["method"]
    # a rerun plays nothing new: every game comes from the cache
    argv[argv.index("--json")] = "--quiet"
    argv.remove("--quiet")
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert "0 games to play, 12 from the cache" in captured.err
    assert "verdict          favours seat 1 (6 games)" in captured.out


def test_games_0_reports_the_structure_alone(tmp_path, capsys):
    one, shaft, _ = _maps(tmp_path)
    assert main(["fairness", str(shaft), "--games", "0", "--no-cache", "--json"]) == 0
    (r,) = json.loads(capsys.readouterr().out)
    assert r["games"] == 0 and r["verdict"] == "undecided"
    assert [f["key"] for f in r["facts"]] == ["voronoi", "chambers", "parity"]
    assert [f["seats"] for f in r["facts"]][0] == [1, 1]
    assert r["seats"] == [
        {"seat": 1, "score": None, "low": 0.0, "high": 1.0, "wins": 0},
        {"seat": 2, "score": None, "low": 0.0, "high": 1.0, "wins": 0},
    ]
    assert main(["fairness", str(one), "--games", "0", "--no-cache"]) == 0
    text = capsys.readouterr().out
    assert "symmetries       none" in text and "verdict          undecided (0 games)" in text


def test_bad_players_and_rules_are_problem_lines(tmp_path, capsys):
    one, _, _ = _maps(tmp_path)
    isolation = tmp_path / "iso.txt"
    isolation.write_text("isolation 3 3 queen\n1..\n...\n..2\n")
    code = main(
        ["fairness", str(one), str(isolation), "--games", "0", "--no-cache", "--bots", "nobot"]
    )
    err = capsys.readouterr().err
    assert code == 2 and err.count("unknown") == 2 and "Traceback" not in err


def test_validate_adds_each_valid_map_s_fairness_to_the_report_the_csv_and_the_text(
    tmp_path, capsys
):
    outpost = ROOT / "tests" / "data" / "outpost-maps"
    argv = ["validate", str(outpost / "map1.txt"), str(outpost / "map0.txt"), "--fairness", "0"]
    assert main([*argv, "--json"]) == 1  # map0 breaks a rule
    valid, invalid = json.loads(capsys.readouterr().out)
    assert valid["valid"] and not invalid["valid"] and invalid["fairness"] is None
    f = valid["fairness"]
    assert f["symmetries"] == ["rot90", "rot180"] and f["seat_classes"] == [[1, 2, 3, 4]]
    assert [x["value"] for x in f["facts"] if x["key"] == "quarters"] == [True]
    assert f["games"] == 0 and len(f["seats"]) == 4
    assert main([*argv, "--csv"]) == 1
    rows = capsys.readouterr().out.splitlines()
    assert (
        rows[0]
        == "file,valid,rules,first message,fairness,fairness games,symmetries,seat scores"
    )
    assert rows[1].endswith(",yes,,,undecided,0,rot90;rot180,")
    assert rows[2].endswith(",,,,")  # an invalid map has no fairness report
    assert main(argv) == 1
    text = capsys.readouterr().out
    assert "map1.txt: valid\n    symmetries       rot90, rot180" in text
    assert "quarters rotate  yes" in text
    # without --fairness the report is as it was
    assert main(["validate", str(outpost / "map1.txt"), "--csv"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "file,valid,rules,first message"


def test_folders_are_searched_and_games_that_cannot_run_are_one_line(
    tmp_path, capsys, monkeypatch
):
    one, shaft, bad = _maps(tmp_path)
    bad.unlink()
    assert main(["fairness", str(tmp_path), "--games", "0", "--no-cache", "--json"]) == 0
    assert [r["map"] for r in json.loads(capsys.readouterr().out)] == ["lopsided", "shaft"]
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["fairness", str(empty), "--games", "0", "--no-cache"]) == 2
    assert "a folder with no map files" in capsys.readouterr().err

    def unreachable(*args, **kwargs):
        raise OSError("Timed out trying to connect to tcp://127.0.0.1:9")

    monkeypatch.setattr("atlas.arena.tournament.run_games", unreachable)
    code = main(["fairness", str(shaft), "--games", "1", "--no-cache", "--scheduler", "x"])
    err = capsys.readouterr().err
    assert code == 2 and "the games could not be run: Timed out" in err
    assert "Traceback" not in err


def test_validate_keeps_its_fairness_games_in_the_cache_unless_told_not_to(
    tmp_path, capsys, monkeypatch
):
    """The cache that ``atlas validate --fairness`` hands to the games' player (the games
    themselves are not played here: an Outpost game takes a minute)."""
    import atlas.render.site.tournament as site_tournament

    given: list[tuple[object, int]] = []

    def play_cached(specs, cache, **kwargs):
        given.append((cache.root, len(specs)))
        return []

    monkeypatch.setattr(site_tournament, "play_cached", play_cached)
    outpost = ROOT / "tests" / "data" / "outpost-maps" / "map1.txt"
    argv = ["validate", str(outpost), "--fairness", "2", "--jobs", "1", "--json"]
    assert main([*argv, "--cache", str(tmp_path / "kept")]) == 0
    assert main([*argv, "--cache", str(tmp_path / "skipped"), "--no-cache"]) == 0
    assert main(argv) == 0
    capsys.readouterr()
    # the strongest bot in the four seats: one distinct seating, two seeds
    assert given == [(tmp_path / "kept", 2), (None, 2), (Path(".atlas-cache"), 2)]


def test_validate_plays_its_fairness_games_at_effort_unless_given_a_time(
    tmp_path, capsys, monkeypatch
):
    """As ``atlas fairness`` does: the built-in bots play at their effort (the games'
    specs say it, so the cache keys on it), and by the clock only with ``--time``."""
    import atlas.render.site.tournament as site_tournament

    seen: list[tuple[tuple[tuple[str, int], ...], float]] = []

    def play_cached(specs, cache, **kwargs):
        seen.extend((s.efforts, s.time_limit) for s in specs)
        return []

    monkeypatch.setattr(site_tournament, "play_cached", play_cached)
    outpost = ROOT / "tests" / "data" / "outpost-maps" / "map1.txt"
    argv = ["validate", str(outpost), "--fairness", "1", "--jobs", "1", "--json", "--no-cache"]
    assert main(argv) == 0
    assert main([*argv, "--effort", "3"]) == 0
    assert main([*argv, "--time", "0.5"]) == 0
    capsys.readouterr()
    default, tripled, timed = seen
    assert default[0] and all(e > 0 for _, e in default[0])
    assert [3 * e for _, e in default[0]] == [e for _, e in tripled[0]]
    assert timed == ((), 0.5)
