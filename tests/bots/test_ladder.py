"""The strength ladder (``benchmarks/ladder.py``): its ``--depth`` parsing and its run.

The ladder is a thin layer over the tournament (schedule, games, standings: tested in
``tests/arena/test_tournament.py``); here its own parts: the depth items and the report.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location(
    "atlas_ladder", ROOT / "benchmarks" / "ladder.py"
)
ladder = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ladder)


def _fail(message):
    raise ValueError(message)


def test_depths_for_every_bot_and_one_bot():
    bots = ["wallhugger", "voronoi", "frontline"]
    assert ladder.parse_depths(["5", "voronoi=6"], bots, _fail) == {
        "wallhugger": 5,
        "voronoi": 6,
        "frontline": 5,
    }
    assert ladder.parse_depths(["frontline=4"], bots, _fail) == {"frontline": 4}
    assert ladder.parse_depths(["3", "voronoi=0"], bots, _fail) == {
        "wallhugger": 3,
        "frontline": 3,
    }
    with pytest.raises(ValueError, match="'chambers' is not one of the bots"):
        ladder.parse_depths(["chambers=3"], bots, _fail)
    with pytest.raises(ValueError, match="whole number"):
        ladder.parse_depths(["deep"], bots, _fail)


def test_efforts_default_to_the_bots_own_and_the_clock_on_request():
    bots = ["wallhugger", "apex", "a200=apex", "cmd:./mybot"]
    defaults = ladder.parse_efforts("tron", [], bots, False, _fail)
    assert defaults == {"wallhugger": 1, "apex": 100, "a200": 100}  # no program
    assert ladder.parse_efforts("tron", ["a200=200"], bots, True, _fail) == {"a200": 200}
    assert ladder.parse_efforts("tron", ["50", "apex=0"], bots, False, _fail) == {
        "wallhugger": 50,
        "a200": 50,
    }
    with pytest.raises(ValueError, match="not one of the players"):
        ladder.parse_efforts("tron", ["voronoi=3"], bots, False, _fail)


def test_the_ladder_runs_and_reports_each_pair(tmp_path):
    out = tmp_path / "games.jsonl"
    run = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "ladder.py"),
            "tron",
            "--bots",
            "wallhugger",
            "random",
            "--maps",
            "duel",
            "--seeds",
            "1",
            "--time",
            "0.5",
            "--jobs",
            "1",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    assert "tron: 2 bots, 1 maps, 2 games" in run.stdout
    assert "wallhugger vs random:" in run.stdout or "random vs wallhugger:" in run.stdout
    lines = out.read_text().splitlines()
    assert len(lines) == 2 and '"map": "duel"' in lines[0]
