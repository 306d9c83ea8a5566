"""Every problem a command reports names the file it came from, as the user typed its
folder (relative when typed relative), with the line where there is one.

One walk over every kind of problem: a build with bad maps (unreadable, a link out of
the folder, a FIFO, an invalid submission), damaged, lying, oversized and linked
records in ``--records`` and in a ``--tournament`` folder (and a damaged plan there),
bad plans, bad traces, bad submissions to ``atlas validate``, bad maps given to
``atlas fairness``, and the tournament
command (a bad map, a damaged record met on ``--resume``).  The inputs sit in a folder
typed relative (``in/...``) from the working folder; each message must start with the
file as typed.
"""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest

from atlas.cli import main

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "sim" / "golden"
DUEL = (ROOT / "maps" / "tron" / "duel.txt").read_text()
DAMAGED = '{"format": "atlas-replay",\n "version": 1,\n oops}\n'


def _golden(name: str) -> dict:
    return json.loads(gzip.decompress((GOLDEN / f"{name}.json.gz").read_bytes()))


def _lying() -> dict:
    """A record whose result its moves do not give."""
    data = _golden("tron-duel-random")
    winner = data["result"]["winner"]
    data["result"] = {**data["result"], "winner": 1 - winner}
    return data


def _records(folder: Path) -> None:
    """A good record and one of each bad kind in ``folder``."""
    folder.mkdir(parents=True)
    (folder / "good.json").write_text(json.dumps(_golden("tron-duel-random")))
    (folder / "sub").mkdir()
    (folder / "sub" / "damaged.json").write_text(DAMAGED)
    (folder / "lying.json").write_text(json.dumps(_lying()))
    with open(folder / "big.json", "wb") as fh:  # sparse: no disk space
        fh.truncate(33 * 1024 * 1024)
    (folder / "outside.json").symlink_to(ROOT / "README.md")
    os.mkfifo(folder / "pipe.json")


@pytest.fixture
def inputs(tmp_path, monkeypatch):
    """``in/``: maps (good and bad), records (good and bad), an organiser's tournament
    folder, a plan, a trace and submissions; the working folder is ``tmp_path``."""
    monkeypatch.chdir(tmp_path)
    top = Path("in")
    maps = top / "maps"
    (maps / "tron").mkdir(parents=True)
    (maps / "outpost").mkdir()
    (maps / "tron" / "duel.txt").write_text(DUEL)
    (maps / "tron" / "bad.txt").write_text("size 7 3\n")
    (maps / "tron" / "leak.txt").symlink_to(ROOT / "README.md")
    os.mkfifo(maps / "tron" / "pipe.txt")
    water = (ROOT / "maps" / "outpost" / "delta.txt").read_text().splitlines()
    (maps / "outpost" / "short.txt").write_text("\n".join(water[:40]) + "\n7\n")
    _records(top / "recs")
    _records(top / "ev" / "records")
    (top / "ev" / "tournament.toml").write_text('name = "spring\n')
    return top


def _build(capsys, *extra: str) -> list[str]:
    argv = ["build", "--maps", "in/maps", "--out", "site", "--games", "0", "--json", *extra]
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)["problems"]


def _one(problems: list[str], start: str) -> str:
    hits = [p for p in problems if p.startswith(start)]
    assert len(hits) == 1, (start, problems)
    return hits[0]


def test_a_build_names_each_bad_map_and_record_by_its_file_as_typed(inputs, capsys):
    problems = _build(capsys, "--records", "in/recs", "--tournament", "in/ev")
    assert "expected the size" in _one(problems, "map in/maps/tron/bad.txt:1: ")
    assert "leads out of" in _one(problems, "map in/maps/tron/leak.txt: ")
    assert "FIFO" in _one(problems, "map in/maps/tron/pipe.txt: ")
    assert "'x y'" in _one(problems, "map in/maps/outpost/short.txt:41: ")
    for folder in ("in/recs", "in/ev/records"):
        assert "not JSON" in _one(problems, f"record {folder}/sub/damaged.json:3: ")
        lying = _one(problems, f"record {folder}/lying.json: ")
        assert "refused, not published" in lying and "result.winner" in lying
        assert "more than atlas reads" in _one(problems, f"record {folder}/big.json: ")
        assert "leads out of" in _one(problems, f"record {folder}/outside.json: ")
        assert "not a regular file" in _one(problems, f"record {folder}/pipe.json: ")
    assert "not TOML" in _one(problems, "tournament plan in/ev/tournament.toml:1: ")
    # nothing else went wrong, and no problem names a game instead of its file
    assert len(problems) == 4 + 2 * 5 + 1
    assert not any(p.startswith("game ") for p in problems)


def test_the_same_build_with_folders_typed_absolute_names_them_absolute(inputs, capsys):
    here = Path.cwd()
    recs = str(here / "in" / "recs")
    problems = _build(capsys, "--records", recs)
    assert _one(problems, f"record {recs}/sub/damaged.json:3: ")
    assert _one(problems, f"record {recs}/lying.json: ")


def test_the_site_names_the_files_from_their_folders(inputs, capsys):
    """The published list names each file from its folder (never the builder's
    machine path), the same file the console names."""
    _build(capsys, "--records", str(Path.cwd() / "in" / "recs"))
    index = (Path("site") / "index.html").read_text()
    assert "recs/sub/damaged.json:3: not JSON" in index
    assert "recs/lying.json: refused" in index
    assert str(Path.cwd()) not in index


def test_commands_name_the_file_and_line_of_bad_input(inputs, capsys):
    top = inputs
    plan = top / "plan.toml"
    bots = (
        '[[bots]]\nname = "a"\nbuiltin = "random"\n[[bots]]\nname = "b"\nbuiltin = "random"\n'
    )
    plan.write_text('game = "tron"\nmaps = ["maps/tron/duel.txt"]\nseeds = 0\n' + bots)
    cases = [
        (
            ["tournament", str(plan)],
            "in/plan.toml:3: seeds: expected a whole number at least 1 and at most 100,000",
        ),
        (["tournament", "tron", "--maps", "in/maps/tron/bad.txt"], "in/maps/tron/bad.txt:1: "),
        (
            ["play", "tron", "in/maps/tron/bad.txt", "random", "random"],
            "in/maps/tron/bad.txt:1: ",
        ),
        (["analyze", "in/maps/tron/bad.txt"], "in/maps/tron/bad.txt:1: "),
        (["replay", "in/recs/sub/damaged.json"], "in/recs/sub/damaged.json:3: not JSON"),
    ]
    (top / "t.jsonl").write_text('{"bad"\n')
    cases.append((["import-trace", "in/t.jsonl"], "in/t.jsonl:1: not a JSON line"))
    for argv, start in cases:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith(f"atlas: error: {start}") or err.startswith(
            f"atlas import-trace: {start}"
        ), (argv, err)
    # a plan whose map pattern finds a bad map names the plan's line and the map's file
    plan.write_text('game = "tron"\nmaps = ["maps/tron/*.txt"]\n' + bots)
    assert main(["tournament", str(plan)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("atlas: error: in/plan.toml:2: map 'maps/tron/*.txt': ")
    assert "in/maps/tron/bad.txt:1: " in err


def test_fairness_names_each_bad_map_by_its_file_as_typed(inputs, capsys):
    """``atlas fairness`` over a folder: the maps it cannot read are named by their
    files under the folder as typed, with the line; the good map is still reported."""
    assert main(["fairness", "in/maps/tron", "--games", "0", "--quiet"]) == 2
    captured = capsys.readouterr()
    problems = [line for line in captured.err.splitlines() if line]
    assert "expected the size" in _one(problems, "atlas fairness: in/maps/tron/bad.txt:1: ")
    assert "leads out of" in _one(problems, "atlas fairness: in/maps/tron/leak.txt: ")
    assert "FIFO" in _one(problems, "atlas fairness: in/maps/tron/pipe.txt: ")
    assert len(problems) == 3
    assert "duel" in captured.out


def test_validate_names_each_submission_and_line(inputs, capsys):
    assert main(["validate", "in/maps/outpost"]) == 1
    out = capsys.readouterr().out
    assert "in/maps/outpost/short.txt:41: error [format]" in out
    assert "in/maps/outpost/short.txt: error [count]" in out


def test_a_resumed_tournament_names_the_damaged_record_it_plays_again(inputs, capsys):
    argv = [
        "tournament",
        "tron",
        "--maps",
        "in/maps/tron/duel.txt",
        "--bots",
        "random",
        "wallhugger",
        "--time",
        "0.05",
        "--out",
        "in/T",
    ]
    assert main(argv) == 0
    records = sorted((inputs / "T" / "records").iterdir())
    records[0].write_bytes(gzip.compress(DAMAGED.encode()))
    capsys.readouterr()
    assert main([*argv, "--resume"]) == 0
    err = capsys.readouterr().err
    assert f"record in/T/records/{records[0].name}:3: not JSON" in err
    assert "played again" in err
