"""A game installed as its own distribution joins atlas through an entry point.

The toy game (``tests/sim/toygame/``) is copied beside a ``dist-info`` folder whose
``entry_points.txt`` names it in the group ``atlas.games``, the way pip installs a
distribution.  Fresh processes with that folder on their path then play it, build its
site and read its maps through the API, with no call to ``register_game`` and no edit
to atlas.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from atlas.games import ENTRY_POINT_GROUP

ROOT = Path(__file__).resolve().parents[2]
TOY = Path(__file__).resolve().parent / "toygame"
BOARD = "tictactoe 3\n...\n...\n...\n"

pytestmark = pytest.mark.slow


def install(site: Path, entry: str = "tictactoe = toygame", package: bool = True) -> Path:
    """A folder laid out as pip lays out an installed distribution of the toy game."""
    site.mkdir(parents=True, exist_ok=True)
    if package:
        shutil.copytree(TOY, site / "toygame", ignore=shutil.ignore_patterns("__pycache__"))
    info = site / "atlas_toygame-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: atlas-toygame\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{entry}\n")
    return site


def run(site: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(ROOT)])
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return install(tmp_path / "site-packages")


def test_an_installed_game_is_played_and_published_by_the_commands(site, tmp_path):
    maps = tmp_path / "maps" / "tictactoe"
    maps.mkdir(parents=True)
    (maps / "board.txt").write_text(BOARD)
    played = run(
        site,
        *("-m", "atlas", "play", "tictactoe", str(maps / "board.txt"), "first", "random"),
        *("--json", "--record", str(tmp_path / "game.json")),
        cwd=tmp_path,
    )
    assert played.returncode == 0, played.stderr
    result = json.loads(played.stdout)
    assert result["reason"] in ("win", "draw") and result["statuses"] == ["ok", "ok"]
    record = json.loads((tmp_path / "game.json").read_text())
    assert record["game"] == "tictactoe" and record["turns"][0]["moves"] == {"0": [0, 0]}

    built = run(
        site,
        *("-m", "atlas", "build", "--maps", str(tmp_path / "maps")),
        *("--out", str(tmp_path / "out"), "--games", "1", "--jobs", "1"),
        cwd=tmp_path,
    )
    assert built.returncode == 0, built.stderr
    index = (tmp_path / "out" / "index.html").read_text()
    assert "Tic-tac-toe" in index
    assert "first" in (tmp_path / "out" / "standings.html").read_text()


def test_an_installed_game_is_found_by_the_api(site, tmp_path):
    (tmp_path / "board.txt").write_text(BOARD)
    script = (
        "import atlas\n"
        "from atlas.games import game_names\n"
        "gm = atlas.read_map('board.txt')\n"
        "rec = atlas.play(gm, ['first', 'first'], seed=1)\n"
        "print(game_names()[-1], gm.game, rec.result.reason)\n"
    )
    done = run(site, "-c", script, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    # "first" takes the first free cell: seat 0 ends with the diagonal (0,2) (1,1) (2,0)
    assert done.stdout.split() == ["tictactoe", "tictactoe", "win"]


def test_an_installed_game_cannot_take_a_built_in_game_s_name(tmp_path):
    site = install(tmp_path / "site-packages", entry="tron = toygame")
    script = "from atlas.games import game_modules\nprint(game_modules('tron').package)\n"
    done = run(site, "-c", script, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "atlas.games.tron"


def test_an_entry_point_to_a_missing_package_is_a_clear_error(tmp_path):
    site = install(tmp_path / "site-packages", entry="ghost = no_such_package", package=False)
    (tmp_path / "board.txt").write_text("ghost 2 2\n..\n..\n")
    done = run(site, "-m", "atlas", "play", "ghost", "board.txt", "a", "b", cwd=tmp_path)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert "ghost: its package no_such_package cannot be found" in done.stderr
    assert "the distribution atlas-toygame" in done.stderr
    # the rest of atlas goes on without it, and says so
    listed = run(site, "-m", "atlas", "play", "--help", cwd=tmp_path)
    assert listed.returncode == 0 and "tron" in listed.stdout and "ghost" not in listed.stdout
    assert "warning: the installed game ghost is left out" in listed.stderr
