"""docs/tournaments.md, end to end: a folder of bots and a TOML plan, each submission
checked, the tournament interrupted and resumed, then published with its names and
error bars."""

from __future__ import annotations

import json
import math
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from atlas.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "bots" / "tron_bot.py"
MAPS = ROOT / "maps" / "tron"

PLAN = """name = "Spring league"
game = "tron"
maps = ["maps/*.txt"]
seeds = 1
time = 1.0

[[bots]]
name = "alice"
command = "{python} bot.py"
cwd = "alice"

[[bots]]
name = "bob"
command = "{python} bot.py"
cwd = "bob"

[[bots]]
name = "house"
builtin = "wallhugger"
"""
GAMES = 2 * 6  # two maps, three players: six seatings each


def _league(tmp_path: Path) -> Path:
    league = tmp_path / "league"
    for who in ("alice", "bob"):
        (league / who).mkdir(parents=True)
        shutil.copy(EXAMPLE, league / who / "bot.py")
    (league / "maps" / "tron").mkdir(parents=True)
    for name in ("arena.txt", "duel.txt"):
        shutil.copy(MAPS / name, league / "maps" / "tron" / name)
    (league / "tournament.toml").write_text(
        PLAN.replace('"maps/*.txt"', '"maps/tron/*.txt"').format(python=sys.executable)
    )
    return league


def _records(results: Path) -> list[Path]:
    folder = results / "records"
    return sorted(folder.glob("*.json.gz")) if folder.is_dir() else []


def test_from_a_folder_of_bots_to_a_published_site(tmp_path, capsys):
    league = _league(tmp_path)
    plan = league / "tournament.toml"
    results = tmp_path / "results"

    # 1. each submission checked before the tournament
    for who in ("alice", "bob"):
        cmd = f"{who}=cmd:{sys.executable} {league / who / 'bot.py'}"
        assert (
            main(
                [
                    "check",
                    "tron",
                    cmd,
                    "--map",
                    str(league / "maps/tron/duel.txt"),
                    "--time",
                    "5",
                ]
            )
            == 0
        )
        assert "ok" in capsys.readouterr().out

    # 2. the tournament, interrupted (Ctrl-C) once its first game is kept
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "atlas",
            "tournament",
            str(plan),
            "--out",
            str(results),
            "--jobs",
            "1",
        ],
        cwd=league,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        for _ in range(6000):  # at most 120 s
            if _records(results) or proc.poll() is not None:
                break
            time.sleep(0.02)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err.decode(errors="replace")
    kept = len(_records(results))
    assert 1 <= kept < GAMES
    assert not (results / "results.json").exists()

    # 3. resumed: only the missing games are played
    assert main(["tournament", str(plan), "--out", str(results), "--resume"]) == 0
    out = capsys.readouterr()
    assert f"resuming: {kept} of {GAMES} games already played" in out.err
    assert len(_records(results)) == GAMES
    data = json.loads((results / "results.json").read_text())
    assert data["name"] == "Spring league" and len(data["games"]) == GAMES
    rows = {r["bot"]: r for r in data["standings"]["rows"]}
    assert set(rows) == {"alice", "bob", "house"}  # the same program, two entrants
    assert all(r["low"] <= r["rating"] <= r["high"] for r in rows.values())
    assert all(r["games"] == 8 for r in rows.values())

    # 4. published alone (no built-in round robin), with its own standings page
    site = tmp_path / "site"
    assert (
        main(
            [
                "build",
                "--tournament",
                str(results),
                "--games",
                "0",
                "--maps",
                str(league / "maps"),
                "--out",
                str(site),
                "--quiet",
            ]
        )
        == 0
    )
    page = (site / "tournaments" / "spring-league.html").read_text()
    for row in data["standings"]["rows"]:
        assert f">{row['bot']}</a>" in page
        # the interval results.json gives (kept there to 2 decimals, here to a unit)
        lows = {math.floor(row["low"]), math.ceil(row["low"])}
        highs = {math.floor(row["high"]), math.ceil(row["high"])}
        assert any(f"{lo} – {hi}" in page for lo in lows for hi in highs), row
    assert "95 % interval" in page and "LOS" in page
    for who in ("alice", "bob", "house"):
        bot_page = (site / "bots" / f"spring-league-tron-{who}.html").read_text()
        assert "Spring league standings" in bot_page
    assert not (site / "bots" / "tron-wallhugger.html").exists()  # not the built-in bot
    standings = (site / "standings.html").read_text()
    assert 'href="tournaments/spring-league.html#tron"' in standings
    games = sorted((site / "games").glob("*.html"))
    assert len(games) == GAMES
    assert all("download>the record" in g.read_text() for g in games)
