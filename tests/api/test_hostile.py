"""Bad input through the API raises the documented atlas errors, with the messages the
command line prints: never a bare KeyError or TypeError from inside."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import atlas
from atlas.cli import main

TRON_TEXT = "7 4\n#######\n#1    #\n#    2#\n#######\n"


@pytest.fixture
def tron_map() -> atlas.GameMap:
    return atlas.read_map(TRON_TEXT, game="tron", name="tiny")


def _cli_error(argv: list[str], capsys) -> str:
    """What the command prints on standard error for a mistake (exit 2)."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    assert code == 2
    return capsys.readouterr().err


def _raises(kind: type[Exception], call, *args, **kwargs) -> str:
    with pytest.raises(atlas.AtlasError) as info:
        call(*args, **kwargs)
    assert isinstance(info.value, kind), repr(info.value)
    assert not type(info.value).__module__.startswith("builtins")
    return str(info.value)


# --------------------------------------------------------------------------- same message


def test_a_broken_map_reads_the_same_as_on_the_command_line(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("7 4\n#######\n#1    #\n")
    message = _raises(atlas.MapFormatError, atlas.read_map, bad, game="tron")
    assert f"{bad}:" in message
    assert f"atlas: error: {message}" in _cli_error(["analyze", str(bad)], capsys)


def test_an_unknown_bot_reads_the_same_as_on_the_command_line(tmp_path, tron_map, capsys):
    path = tmp_path / "tiny.txt"
    atlas.write_map(tron_map, path)
    message = _raises(atlas.BotError, atlas.play, tron_map, ["nosuch", "random"])
    assert message.startswith("unknown tron bot 'nosuch'; built-in: random")
    assert message in _cli_error(["play", "tron", str(path), "nosuch", "random"], capsys)


def test_a_bad_parameter_reads_the_same_as_on_the_command_line(tmp_path, tron_map, capsys):
    path = tmp_path / "tiny.txt"
    atlas.write_map(tron_map, path)
    message = _raises(atlas.ParamError, atlas.play, tron_map, ["random"] * 2, params={"x": 1})
    assert message == "unknown tron parameter 'x'; expected compat, max_turns"
    err = _cli_error(["play", "tron", str(path), "random", "random", "--param", "x=1"], capsys)
    assert message in err


def test_a_damaged_record_reads_the_same_as_on_the_command_line(tmp_path, capsys):
    bad = tmp_path / "game.json"
    bad.write_text(json.dumps({"format": "atlas-replay", "version": 1}))
    message = _raises(atlas.RecordError, atlas.load_record, bad)
    assert str(bad) in message
    assert f"atlas: error: {message}" in _cli_error(["replay", str(bad)], capsys)


def test_a_bad_plan_reads_the_same_as_on_the_command_line(tmp_path, capsys):
    plan = tmp_path / "plan.toml"
    plan.write_text('game = "tron"\nmaps = ["*.txt"]\ncolour = 3\nbots = []\n')
    message = _raises(atlas.PlanError, atlas.tournament, plan)
    assert message.startswith(f"{plan}:3: unknown key 'colour'")
    assert message in _cli_error(["tournament", str(plan)], capsys)
    as_dict = _raises(
        atlas.PlanError, atlas.tournament, {"game": "tron", "maps": [], "bots": [], "colour": 3}
    )
    assert as_dict == message.split(": ", 1)[1]  # the same, without the file and line


# --------------------------------------------------------------------------- every function

HOSTILE = [
    ("read_map of a number", atlas.ArgumentError, lambda m: atlas.read_map(3)),
    ("read_map of nothing", atlas.ArgumentError, lambda m: atlas.read_map("")),
    ("read_map of bytes", atlas.ArgumentError, lambda m: atlas.read_map(b"7 4\n")),
    (
        "read_map, unknown game",
        atlas.UnknownNameError,
        lambda m: atlas.read_map(TRON_TEXT, "go"),
    ),
    ("read_map, game a list", atlas.ArgumentError, lambda m: atlas.read_map(TRON_TEXT, ["t"])),
    (
        "read_map, name a number",
        atlas.ArgumentError,
        lambda m: atlas.read_map(TRON_TEXT, name=1),
    ),
    ("read_map of garbage", atlas.MapFormatError, lambda m: atlas.read_map("\x00\x01\n\xff")),
    ("read_map, missing file", atlas.MapFormatError, lambda m: atlas.read_map("no/such.txt")),
    (
        "read_map, wrong game",
        atlas.MapFormatError,
        lambda m: atlas.read_map(TRON_TEXT, "outpost"),
    ),
    ("write_map of a dict", atlas.ArgumentError, lambda m: atlas.write_map({"game": "tron"})),
    ("write_map to a number", atlas.ArgumentError, lambda m: atlas.write_map(m, 5)),
    (
        "write_map, no folder",
        atlas.OutputFolderError,
        lambda m: atlas.write_map(m, "/no/f.txt"),
    ),
    ("analyze, missing file", atlas.MapFormatError, lambda m: atlas.analyze("no/such.txt")),
    ("analyze of None", atlas.ArgumentError, lambda m: atlas.analyze(None)),
    ("analyze of garbage", atlas.MapFormatError, lambda m: atlas.analyze("\x00\x01\n\xff")),
    ("write_map, missing file", atlas.MapFormatError, lambda m: atlas.write_map("no/s.txt")),
    ("validate of a number", atlas.ArgumentError, lambda m: atlas.validate(7)),
    ("validate, tron rules", atlas.UnknownNameError, lambda m: atlas.validate("0 0\n", "tron")),
    ("validate, unknown game", atlas.UnknownNameError, lambda m: atlas.validate("0 0\n", "go")),
    ("play, bots a string", atlas.ArgumentError, lambda m: atlas.play(m, "random")),
    ("play, one bot", atlas.BotError, lambda m: atlas.play(m, ["random"])),
    ("play, bot a number", atlas.ArgumentError, lambda m: atlas.play(m, [1, "random"])),
    ("play, empty command", atlas.BotError, lambda m: atlas.play(m, ["cmd:", "random"])),
    ("play, unclosed quote", atlas.BotError, lambda m: atlas.play(m, ["cmd:a 'b", "random"])),
    ("play, time 0", atlas.ArgumentError, lambda m: atlas.play(m, ["random"] * 2, time=0)),
    (
        "play, time nan",
        atlas.ArgumentError,
        lambda m: atlas.play(m, ["random"] * 2, time=1e999 - 1e999),
    ),
    ("play, time text", atlas.ArgumentError, lambda m: atlas.play(m, ["random"] * 2, time="1")),
    (
        "play, 3 times",
        atlas.ArgumentError,
        lambda m: atlas.play(m, ["random"] * 2, time=[1, 1, 1]),
    ),
    ("play, seed text", atlas.ArgumentError, lambda m: atlas.play(m, ["random"] * 2, seed="1")),
    (
        "play, params a list",
        atlas.ArgumentError,
        lambda m: atlas.play(m, ["random"] * 2, params=[1]),
    ),
    (
        "play, bad param value",
        atlas.ParamError,
        lambda m: atlas.play(m, ["random"] * 2, params={"compat": "x"}),
    ),
    (
        "play, compat word",
        atlas.ArgumentError,
        lambda m: atlas.play(m, ["random"] * 2, compat="strict"),
    ),
    ("play of a number", atlas.ArgumentError, lambda m: atlas.play(42, ["random"] * 2)),
    (
        "play of a missing map",
        atlas.MapFormatError,
        lambda m: atlas.play("no/map.txt", ["random"] * 2),
    ),
    ("load_record of a number", atlas.ArgumentError, lambda m: atlas.load_record(3)),
    ("load_record, missing", atlas.RecordError, lambda m: atlas.load_record("no/such.json")),
    ("tournament of a list", atlas.ArgumentError, lambda m: atlas.tournament(["tron"])),
    ("tournament, missing file", atlas.PlanError, lambda m: atlas.tournament("no/plan.toml")),
    (
        "tournament, no bots",
        atlas.PlanError,
        lambda m: atlas.tournament({"game": "tron", "maps": [m]}),
    ),
    (
        "tournament, unknown game",
        atlas.PlanError,
        lambda m: atlas.tournament({"game": "go", "maps": [], "bots": []}),
    ),
    (
        "tournament, bots a dict",
        atlas.PlanError,
        lambda m: atlas.tournament({"game": "tron", "maps": [m], "bots": {"a": 1}}),
    ),
    (
        "tournament, bad bot",
        atlas.PlanError,
        lambda m: atlas.tournament({"game": "tron", "maps": [m], "bots": ["random", "nosuch"]}),
    ),
    (
        "tournament, one bot",
        atlas.PlanError,
        lambda m: atlas.tournament({"game": "tron", "maps": [m], "bots": ["random"]}),
    ),
    (
        "tournament, bad time",
        atlas.PlanError,
        lambda m: atlas.tournament(
            {"game": "tron", "maps": [m], "bots": ["random", "random"], "time": -1}
        ),
    ),
    (
        "tournament, jobs 0",
        atlas.ArgumentError,
        lambda m: atlas.tournament(
            {"game": "tron", "maps": [m], "bots": ["random", "wallhugger"]}, jobs=0
        ),
    ),
    (
        "tournament, resume alone",
        atlas.ArgumentError,
        lambda m: atlas.tournament(
            {"game": "tron", "maps": [m], "bots": ["random", "wallhugger"]}, resume=True
        ),
    ),
    ("build_site, maps a number", atlas.ArgumentError, lambda m: atlas.build_site(3)),
    ("build_site, games -1", atlas.ArgumentError, lambda m: atlas.build_site(games=-1)),
    (
        "build_site, unknown game",
        atlas.UnknownNameError,
        lambda m: atlas.build_site(game_params={"go": {}}),
    ),
    (
        "build_site, bad param",
        atlas.ParamError,
        lambda m: atlas.build_site(game_params={"tron": {"x": 1}}),
    ),
    (
        "build_site, params a list",
        atlas.ArgumentError,
        lambda m: atlas.build_site(game_params={"tron": [1]}),
    ),
    ("build_site, cache a number", atlas.ArgumentError, lambda m: atlas.build_site(cache=3)),
    ("build_site, jobs 0", atlas.ArgumentError, lambda m: atlas.build_site(jobs=0)),
    (
        "build_site, compat word",
        atlas.ArgumentError,
        lambda m: atlas.build_site(compat="strict"),
    ),
    (
        "build_site, tournaments text",
        atlas.ArgumentError,
        lambda m: atlas.build_site(tournaments="x"),
    ),
    ("fairness of a number", atlas.ArgumentError, lambda m: atlas.fairness(42)),
    ("fairness, a map a number", atlas.ArgumentError, lambda m: atlas.fairness([m, 3])),
    ("fairness of nothing", atlas.ArgumentError, lambda m: atlas.fairness("")),
    (
        "fairness, bots a string",
        atlas.ArgumentError,
        lambda m: atlas.fairness(m, bots="random"),
    ),
    ("fairness, no bots", atlas.ArgumentError, lambda m: atlas.fairness(m, bots=[])),
    ("fairness, bot a number", atlas.ArgumentError, lambda m: atlas.fairness(m, bots=[1])),
    ("fairness, empty command", atlas.BotError, lambda m: atlas.fairness(m, bots=["cmd:"])),
    ("fairness, empty bot", atlas.BotError, lambda m: atlas.fairness(m, bots=[" "])),
    ("fairness, games -1", atlas.ArgumentError, lambda m: atlas.fairness(m, games=-1)),
    ("fairness, games text", atlas.ArgumentError, lambda m: atlas.fairness(m, games="3")),
    ("fairness, opening 1.5", atlas.ArgumentError, lambda m: atlas.fairness(m, opening=1.5)),
    ("fairness, time 0", atlas.ArgumentError, lambda m: atlas.fairness(m, time=0)),
    ("fairness, compat word", atlas.ArgumentError, lambda m: atlas.fairness(m, compat="x")),
    ("fairness, params a list", atlas.ArgumentError, lambda m: atlas.fairness(m, params=[1])),
    ("fairness, jobs 0", atlas.ArgumentError, lambda m: atlas.fairness(m, jobs=0)),
    ("fairness, cache a number", atlas.ArgumentError, lambda m: atlas.fairness(m, cache=3)),
]


@pytest.mark.parametrize("what,kind,call", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_input_raises_a_documented_atlas_error(what, kind, call, tron_map):
    message = _raises(kind, call, tron_map)
    assert message and "Traceback" not in message


def test_the_argument_errors_name_the_argument_and_the_value(tron_map):
    assert _raises(atlas.ArgumentError, atlas.play, tron_map, ["random"] * 2, time=0) == (
        "time: expected a positive number, got 0"
    )
    assert _raises(atlas.ArgumentError, atlas.read_map, 3) == (
        "path_or_text: expected a file (str or path) or the text, got int 3"
    )
    assert "bots[0]" in _raises(atlas.ArgumentError, atlas.play, tron_map, [object(), "random"])


def test_build_site_refuses_a_folder_atlas_did_not_write(tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "thesis.tex").write_text("mine")
    _raises(atlas.OutputFolderError, atlas.build_site, out=out, games=0, cache=None)
    assert [p.name for p in Path(out).iterdir()] == ["thesis.tex"]


# --------------------------------------------------------------------------- fairness


def _no_games(*args, **kwargs):
    raise AssertionError("no game should be played")


def test_fairness_reports_the_other_maps_when_one_cannot_be_read(tmp_path, capsys):
    good = tmp_path / "good.txt"
    good.write_text(TRON_TEXT)
    bad = tmp_path / "bad.txt"
    bad.write_text("7 3\n#######\n#1 x 2#\n#######\n")  # a stray character, line 3
    missing = tmp_path / "missing.txt"
    reports = atlas.fairness([bad, good, missing], games=0)
    assert [r.map for r in reports] == ["good"]
    first, second = reports.problems
    assert first.startswith(f"{bad}:3:") and second.startswith(f"{missing}:")
    assert (
        main(["fairness", str(bad), str(good), str(missing), "--games", "0", "--no-cache"]) == 2
    )
    err = capsys.readouterr().err
    assert err.splitlines() == [f"atlas fairness: {first}", f"atlas fairness: {second}"]
    assert "Traceback" not in err
    text = atlas.fairness("7 3\n#######\n#1 x 2#\n#######\n", games=0)
    assert len(text) == 0 and text.problems[0].startswith("maps: ")


def test_fairness_names_a_bot_that_does_not_exist(tmp_path, tron_map, monkeypatch):
    monkeypatch.setattr("atlas.arena.tournament.run_games", _no_games)
    isolation = atlas.read_map("isolation 3 3 queen\n1..\n...\n..2\n", name="iso")
    reports = atlas.fairness([tron_map, isolation], bots=["nosuch"], games=2)
    assert len(reports) == 0
    tron_problem, iso_problem = reports.problems
    played = _raises(atlas.BotError, atlas.play, tron_map, ["nosuch", "random"])
    assert tron_problem == f"map 'tiny': {played}"
    assert iso_problem.startswith(
        "map 'iso': unknown isolation bot 'nosuch'; built-in: random, phased, strong (or cmd:"
    )
    # a tron bot is unknown to isolation only: the tron map is reported all the same
    reports = atlas.fairness([tron_map, isolation], bots=["wallhugger"], games=0)
    assert [r.map for r in reports] == ["tiny"]
    (problem,) = reports.problems
    assert problem.startswith("map 'iso': unknown isolation bot 'wallhugger'; built-in: random")
    assert "problem: map 'iso': unknown isolation bot" in repr(reports)
    too_many = atlas.fairness(tron_map, bots=["random"] * 3, games=0).problems
    assert too_many == ("map 'tiny': 3 players for the 2 seats of tron: name at most 2",)
    bad = atlas.fairness(tron_map, games=0, params={"x": 1}).problems
    assert bad == ("map 'tiny': unknown tron parameter 'x'; expected compat, max_turns",)


def test_fairness_with_games_0_gives_the_structure_alone(tron_map, monkeypatch):
    monkeypatch.setattr("atlas.arena.tournament.run_games", _no_games)
    reports = atlas.fairness(tron_map, games=0)
    assert reports.problems == ()
    (report,) = reports
    assert report.games == 0 and report.verdict == "undecided"
    assert [(s.seat, s.score, s.low, s.high) for s in report.seats] == [
        (1, None, 0.0, 1.0),
        (2, None, 0.0, 1.0),
    ]
    assert [f["key"] for f in report.structure.facts] == ["voronoi", "chambers", "parity"]
    assert report.symmetries == ("rot180",)
    assert report.to_json()["length"] is None and report.evidence.pairings == ()
