"""Tests of atlas.cli: one style for every command, as docs/cli.md says, and packaging."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

import atlas
from atlas import cli, resources
from atlas.cli import build_parser, main
from atlas.sim.records import load_record

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
TRON_TEXT = "7 4\n#######\n#1    #\n#    2#\n#######\n"


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no sub-commands")


def _usage_error(argv: list[str], capsys) -> str:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    return capsys.readouterr().err


@pytest.fixture
def tron_map(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.txt"
    path.write_text(TRON_TEXT)
    return path


# --------------------------------------------------------------------------- the parser


def test_every_argument_of_every_command_has_help():
    parser = build_parser()
    missing = []
    for name, sub in [("atlas", parser), *_subparsers(parser).items()]:
        for action in sub._actions:
            if isinstance(action, argparse._SubParsersAction):
                continue
            if not action.help or action.help == argparse.SUPPRESS:
                missing.append(f"{name} {action.dest}")
    assert missing == []


def test_game_is_a_positional_with_choices_where_a_command_needs_one():
    from atlas.sim.registry import game_names

    subs = _subparsers(build_parser())
    for name in ("play", "bot", "check"):
        game = next(a for a in subs[name]._actions if a.dest == "game")
        assert game.option_strings == [] and tuple(game.choices) == game_names(), name
    game = next(a for a in subs["analyze"]._actions if a.dest == "game")
    assert game.option_strings == ["--game"] and tuple(game.choices) == game_names()
    # the tournament's first word is a game (the flag form) or a plan file
    target = next(a for a in subs["tournament"]._actions if a.dest == "target")
    assert target.option_strings == [] and all(g in target.help for g in game_names())


def test_tournament_refuses_a_word_that_is_neither_a_game_nor_a_plan(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["tournament", "chess"])
    assert exit_.value.code == 2
    assert "'chess' is neither a plan file nor a game" in capsys.readouterr().err


def test_compat_on_every_command_that_plays_and_json_on_every_one_that_reports():
    subs = _subparsers(build_parser())

    def options(name: str) -> set[str]:
        return {o for a in subs[name]._actions for o in a.option_strings}

    for name in ("play", "tournament", "bot", "build", "fairness"):
        compat = next(a for a in subs[name]._actions if a.dest == "compat")
        assert tuple(compat.choices) == ("spec", "official"), name
    for name in (
        "analyze",
        "validate",
        "play",
        "tournament",
        "import-trace",
        "replay",
        "build",
        "fairness",
    ):
        assert "--json" in options(name), name
    for name in ("tournament", "build", "fairness"):
        assert {"--quiet", "-q"} <= options(name), name


def _one_line(text: str) -> str:
    return " ".join(text.split())


def test_param_and_compat_help_come_from_each_game_s_info(monkeypatch):
    import dataclasses

    from atlas.sim import registry
    from atlas.sim.base import Param

    def listed(game: str) -> str:
        names = [p.name for p in registry.get_info(game).params if p.name != "compat"]
        return f"{game}: {', '.join(names)}"

    play = _one_line(cli.help_text("play"))
    games = registry.game_names()
    assert "(" + "; ".join(listed(g) for g in games) + ")" in play
    official = [g for g in games if registry.get_info(g).param("compat") is not None]
    assert f"what the original engine does ({', '.join(official)})" in play
    # a parameter a game gains is listed without touching the CLI
    real = registry.get_info
    first = games[0]

    def get_info(game: str):
        info = real(game)
        if game != first:
            return info
        return dataclasses.replace(info, params=(*info.params, Param("depth", int, 3)))

    monkeypatch.setattr(registry, "get_info", get_info)
    assert f"{listed(first)}; " in _one_line(cli.help_text("tournament"))
    assert listed(first).endswith(", depth")


def test_bot_help_says_which_rules_the_served_bots_plan_by(monkeypatch):
    """``atlas bot --help`` says plainly, from each game's bots package, which rules its
    served bots plan by (issue 27: tron's plan by the fair rules, not Tron.jar's order)
    and how --first-time fits the engine's move limit."""
    from atlas.bots import registry
    from atlas.games.tron.bots import SERVED

    text = _one_line(cli.help_text("bot"))
    assert _one_line(SERVED) in text
    assert "fair simultaneous rules" in SERVED and "one after the other" in SERVED
    assert "--first-time 0.9" in SERVED and "2.8 s" in SERVED
    # the note is the bots package's: another text shows without touching the CLI
    monkeypatch.setattr(registry, "served_note", lambda game: f"NOTE-{game}")
    text = _one_line(cli.help_text("bot"))
    assert "NOTE-tron" in text and _one_line(SERVED) not in text


def test_the_cli_names_no_game():
    """Every game the CLI speaks of comes from the registry: no text of atlas/cli/ (help
    texts, messages, docstrings) names a game."""
    import ast
    import re

    from atlas.sim.registry import game_names

    word = re.compile(rf"\b({'|'.join(game_names())})\b", re.IGNORECASE)
    found = []
    for path in sorted((ROOT / "atlas" / "cli").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            text = node.value if isinstance(node, ast.Constant) else None
            if isinstance(text, str) and word.search(text):
                found.append(f"{path.name}:{getattr(node, 'lineno', 0)}: {text[:60]!r}")
    assert found == []
    # and yet the help names them, from the registry and each game's info
    text = cli.help_text(None) + "".join(cli.help_text(c) for c in cli.COMMANDS)
    assert {m.lower() for m in word.findall(text)} == set(game_names())


def test_docs_cli_md_matches_help():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import make_cli_doc
    finally:
        sys.path.remove(str(ROOT / "tools"))
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert make_cli_doc.MARKER in text
    generated = text.split(make_cli_doc.MARKER, 1)[1]
    assert make_cli_doc.MARKER + generated == make_cli_doc.reference(), (
        "docs/cli.md is out of date: run python tools/make_cli_doc.py"
    )
    for name in cli.COMMANDS:  # and the table at the top names every command
        assert f"`atlas {name}" in text.split(make_cli_doc.MARKER, 1)[0], name


# --------------------------------------------------------------------------- usage errors


@pytest.mark.parametrize(
    "argv, words",
    [
        (["play", "tron", "MAP", "random", "random", "--param", "foo"], "KEY=VALUE"),
        (["play", "tron", "MAP", "random", "random", "--param", "=3"], "KEY=VALUE"),
        (["play", "trn", "MAP", "random", "random"], "invalid choice: 'trn'"),
        (["tournament", "chess"], "'chess' is neither a plan file nor a game"),
        (["bot", "tron"], "required: NAME"),
        (["analyze", "MAP", "--game", "tronn"], "invalid choice: 'tronn'"),
        (["play", "tron", "MAP", "random", "random", "--time", "0"], "positive"),
        (["play", "tron", "MAP", "random", "random", "--time", "soon"], "number of seconds"),
        (["tournament", "tron", "--seeds", "0"], "at least 1"),
        (["build", "--games", "-1"], "at least 0"),
        (["play", "tron", "MAP", "random", "random", "--compat", "loose"], "invalid choice"),
        (["completion", "fish"], "invalid choice"),
        ([], "required: COMMAND"),
    ],
)
def test_usage_errors_exit_2_with_the_command_s_usage(argv, words, capsys):
    err = _usage_error(argv, capsys)
    assert words in err
    assert err.startswith("usage: atlas")


def test_unknown_bot_and_compat_without_variant_are_usage_errors(tron_map, capsys):
    err = _usage_error(["play", "tron", str(tron_map), "random", "rando"], capsys)
    assert "usage: atlas play" in err and "unknown tron bot 'rando'" in err
    assert "frontline" in err  # the built-in names are listed
    err = _usage_error(["bot", "isolation", "nosuch"], capsys)
    assert "unknown isolation bot 'nosuch'" in err
    c5 = tron_map.with_name("c5.txt")
    c5.write_text("connect5 7 6 4\n")
    err = _usage_error(
        ["play", "connect5", str(c5), "random", "random", "--compat", "official"], capsys
    )
    assert "connect5 has one set of rules" in err


def test_version(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.strip() == f"atlas {atlas.__version__}"


def test_python_dash_m_atlas_runs_the_command():
    done = subprocess.run(
        [sys.executable, "-m", "atlas", "--version"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0 and done.stdout.strip() == f"atlas {atlas.__version__}"


def test_bad_input_exits_2_without_a_traceback(tmp_path, capsys):
    missing = tmp_path / "missing.txt"
    assert main(["analyze", str(missing)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("atlas: error:") and "missing.txt" in err
    assert "Traceback" not in err


def test_interrupt_exits_130(monkeypatch, tron_map):
    def interrupted(args, fail):
        raise KeyboardInterrupt

    parser = build_parser
    monkeypatch.setattr(cli, "build_parser", lambda: _with_func(parser(), interrupted))
    assert main(["analyze", str(tron_map)]) == 130


def _with_func(parser: argparse.ArgumentParser, func) -> argparse.ArgumentParser:
    _subparsers(parser)["analyze"].set_defaults(func=func)
    return parser


# --------------------------------------------------------------------------- --compat


@pytest.mark.parametrize(
    "game, text, word, stored",
    [
        ("tron", TRON_TEXT, "spec", "spec"),  # every game calls the documented rules spec
        ("tron", TRON_TEXT, "fair", "spec"),  # tron's older word is still read
        ("tron", TRON_TEXT, "official", "official"),
        ("outpost", "10 10\n11 10\n", "spec", "spec"),
        ("outpost", "10 10\n11 10\n", "official", "official"),
    ],
)
def test_compat_is_one_vocabulary_for_every_game(tmp_path, capsys, game, text, word, stored):
    path = tmp_path / "m.txt"
    path.write_text(text)
    record = tmp_path / "game.json"
    argv = [
        "play",
        game,
        str(path),
        *(["random"] * (2 if game == "tron" else 4)),
        "--compat",
        word,
        "--record",
        str(record),
        "--json",
        "--time",
        "5",
    ]
    if game == "outpost":
        argv += ["--param", "T=3"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["record"] == str(record) and out["turns"] >= 1
    assert load_record(record).params["compat"] == stored


def test_param_values_are_read_as_json(tmp_path, capsys):
    path = tmp_path / "m.txt"
    path.write_text("10 10\n11 10\n")
    record = tmp_path / "game.json"
    assert (
        main(
            [
                "play",
                "outpost",
                str(path),
                "random",
                "random",
                "random",
                "random",
                "--param",
                "T=4",
                "--param",
                "r=7",
                "--record",
                str(record),
                "--time",
                "5",
            ]
        )
        == 0
    )
    params = load_record(record).params
    assert params["T"] == 4 and params["r"] == 7
    assert len(load_record(record).turns) == 4


# --------------------------------------------------------------------------- reports


def _tron_record(tmp_path: Path, tron_map: Path, capsys) -> Path:
    record = tmp_path / "game.json.gz"
    assert (
        main(
            [
                "play",
                "tron",
                str(tron_map),
                "random",
                "random",
                "--record",
                str(record),
                "--time",
                "5",
            ]
        )
        == 0
    )
    capsys.readouterr()
    return record


def test_replay_writes_beside_the_record_by_default_and_never_over_a_file(
    tmp_path, tron_map, capsys
):
    record = _tron_record(tmp_path, tron_map, capsys)
    assert main(["replay", str(record), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    gif = tmp_path / "game.gif"
    assert out["gif"] == str(gif) and gif.read_bytes()[:6] == b"GIF89a"
    assert out["bytes"] == gif.stat().st_size and out["turns"] >= 1
    gif.write_bytes(b"mine")  # a file atlas did not write this time: left alone
    err = _usage_error(["replay", str(record)], capsys)
    assert "already exists" in err and gif.read_bytes() == b"mine"
    # named explicitly it is still the user's file: only --force replaces it
    assert main(["replay", str(record), str(gif)]) == 2
    err = capsys.readouterr().err
    assert "atlas did not write it; --force replaces it" in err and str(gif) in err
    assert gif.read_bytes() == b"mine"
    assert main(["replay", str(record), str(gif), "--force"]) == 0
    assert gif.read_bytes()[:6] == b"GIF89a"
    # a GIF atlas wrote is replaced without asking, as OUT.gif or with the older --gif
    assert main(["replay", str(record), str(gif)]) == 0
    other = tmp_path / "other.gif"
    assert main(["replay", str(record), "--gif", str(other)]) == 0
    assert other.read_bytes()[:6] == b"GIF89a"
    err = _usage_error(["replay", str(record), str(gif), "--gif", str(other)], capsys)
    assert "two outputs" in err


def test_import_trace_json(tmp_path, capsys):
    trace = min((DATA / "outpost-traces").glob("*.jsonl.gz"), key=lambda p: p.stat().st_size)
    out_record = tmp_path / "trace.json.gz"
    assert (
        main(
            [
                "import-trace",
                str(trace),
                "--map",
                str(DATA / "outpost-maps" / "mapblob.txt")
                if "mapblob" in trace.name
                else str(DATA / "outpost-maps" / (trace.name.split("_")[1] + ".txt")),
                "--record",
                str(out_record),
                "--json",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["replayed"] is True and out["record"] == str(out_record)
    assert out["turns"] == len(load_record(out_record).turns) > 0
    assert main(["import-trace", str(tmp_path / "missing.jsonl"), "--json"]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["replayed"] is False and "missing.jsonl" in out["error"]


def test_build_json_and_quiet(tmp_path, capsys):
    maps = tmp_path / "maps" / "tron"
    maps.mkdir(parents=True)
    (maps / "tiny.txt").write_text(TRON_TEXT)
    site = tmp_path / "site"
    assert (
        main(
            [
                "build",
                "--maps",
                str(maps.parent),
                "--out",
                str(site),
                "--games",
                "0",
                "--quiet",
                "--json",
            ]
        )
        == 0
    )
    captured = capsys.readouterr()
    assert captured.err == ""  # quiet: no bars, no summary
    out = json.loads(captured.out)
    assert out["out"] == str(site) and (site / "index.html").is_file()
    assert (out["maps"], out["maps_ok"], out["games"], out["exit"]) == (1, 1, 0, 0)
    assert main(["build", "--maps", str(maps.parent), "--out", str(site), "--games", "0"]) == 0
    assert "atlas build: 1 of 1 maps" in capsys.readouterr().err


def test_progress_bars_only_on_a_terminal(monkeypatch):
    from atlas.cli.common import progress

    class Tty:
        def __init__(self, tty: bool) -> None:
            self.tty = tty

        def isatty(self) -> bool:
            return self.tty

    args = argparse.Namespace(quiet=False, json=False)
    monkeypatch.setattr(sys, "stderr", Tty(False))
    assert progress(args) is False
    monkeypatch.setattr(sys, "stderr", Tty(True))
    assert progress(args) is True
    assert progress(argparse.Namespace(quiet=True, json=False)) is False
    assert progress(argparse.Namespace(quiet=False, json=True)) is False


def test_tournament_reads_atlas_s_own_maps_by_default(monkeypatch, capsys, tmp_path):
    seen = {}
    from atlas.arena import tournament

    real = tournament.load_maps

    def load_maps(game, paths):
        seen["paths"] = [Path(p) for p in paths]
        return real(
            game,
            [DATA / "tron-maps" / sorted(p.name for p in (DATA / "tron-maps").iterdir())[0]],
        )

    monkeypatch.setattr(tournament, "load_maps", load_maps)
    monkeypatch.setattr(tournament, "run_games", lambda specs, **kw: [])
    assert main(["tournament", "tron", "--bots", "random", "wallhugger", "--json"]) == 0
    assert seen["paths"] == [resources.maps_dir() / "tron"]
    assert json.loads(capsys.readouterr().out) is not None


def test_shell_completion_names_every_command(capsys):
    assert main(["completion", "bash"]) == 0
    script = capsys.readouterr().out
    for name in cli.COMMANDS:
        assert name in script
    assert "--compat" in script and "official" in script


# --------------------------------------------------------------------------- resources


def test_resources_find_the_source_tree_s_folders():
    assert resources.templates_dir() == ROOT / "templates"
    assert resources.maps_dir() == ROOT / "maps"
    assert (resources.templates_dir() / "static" / "viewer.js").is_file()


def test_resources_prefer_the_wheel_s_package_data(tmp_path, monkeypatch):
    package = tmp_path / "site-packages" / "atlas"
    (package / "_data" / "templates").mkdir(parents=True)
    (package / "_data" / "templates" / "base.html").write_text("x")
    (tmp_path / "site-packages" / "templates").mkdir()  # someone else's: never ours
    monkeypatch.setattr(resources.resources, "files", lambda name: package)
    assert resources.templates_dir() == package / "_data" / "templates"
    with pytest.raises(FileNotFoundError, match="maps/ folder is missing"):
        resources.maps_dir()


def test_player_specs_of_every_form_are_accepted_and_bad_ones_refused(tron_map, capsys):
    record = tron_map.with_name("named.json")
    assert (
        main(
            [
                "play",
                "tron",
                str(tron_map),
                "me=random",
                "random",
                "--record",
                str(record),
                "--time",
                "5",
            ]
        )
        == 0
    )
    assert [p.name for p in load_record(record).players] == ["me", "random"]
    err = _usage_error(["play", "tron", str(tron_map), "me=rando", "random"], capsys)
    assert "unknown tron bot 'rando'" in err
    err = _usage_error(["play", "tron", str(tron_map), "cmd:", "random"], capsys)
    assert "empty command line" in err


def test_a_wrong_number_of_bots_is_said_before_any_kernel_compiles(monkeypatch, capsys):
    import atlas.arena.warm as warm

    def compiling(*args, **kwargs):  # pragma: no cover - the bug this test guards
        raise AssertionError("the bots were warmed before the seats were counted")

    monkeypatch.setattr(warm, "warm_up_cold", compiling)
    delta = str(resources.maps_dir() / "outpost" / "delta.txt")
    err = _usage_error(["play", "outpost", delta, "planner", "balanced"], capsys)
    assert "outpost is played by 4 bots, got 2" in err
    err = _usage_error(
        ["play", "outpost", delta, *["greedy"] * 4, "--effort", "1", "2"], capsys
    )
    assert "effort" in err
