"""Tournaments on a dask.distributed cluster (127.0.0.1 only): ``--scheduler`` through the
CLI gives the games a local run gives, and a game whose worker dies is an error record
while the others are played."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import distributed
import pool_jobs
import pytest

from atlas.arena import tournament
from atlas.arena.tournament import is_error, run_games, schedule_games
from atlas.cli import main
from atlas.maps import parse_map

ROOT = Path(__file__).resolve().parents[2]
C5_TEXT = "connect5 6 5 4\n"
C5 = parse_map(C5_TEXT, game="connect5", name="small")


@pytest.fixture(scope="module")
def cluster():
    import dask

    # a lost task is tried once more, then given up (the test stays bounded); a worker
    # holds one task at a time, so its death costs only the game it was playing
    config = {
        "distributed.scheduler.allowed-failures": 1,
        "distributed.scheduler.worker-saturation": 1.0,
    }
    with (
        dask.config.set(config),
        distributed.LocalCluster(
            n_workers=1,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            silence_logs=50,
        ) as local,
    ):
        yield local


def _example(name: str) -> str:
    return f"cmd:{sys.executable} {ROOT / 'examples' / 'bots' / name}"


def test_cli_scheduler_plays_the_games_a_local_run_plays(cluster, tmp_path, capsys):
    (tmp_path / "small.txt").write_text(C5_TEXT)
    argv = [
        "tournament",
        "connect5",
        "--maps",
        str(tmp_path / "small.txt"),
        "--bots",
        "random",
        _example("connect5_bot.py"),
        "--seeds",
        "2",
        "--time",
        "5",
        "--json",
        "-q",
    ]
    assert main([*argv, "--jobs", "1", "--out", str(tmp_path / "local")]) == 0
    local = json.loads(capsys.readouterr().out)
    assert (
        main([*argv, "--scheduler", cluster.scheduler_address, "--out", str(tmp_path / "dask")])
        == 0
    )
    remote = json.loads(capsys.readouterr().out)
    assert len(local["games"]) == len(remote["games"]) == 4

    def essence(results):
        return [
            (g["players"], g["seed"], g["winner"], g["reason"], g["turns"])
            for g in results["games"]
        ]

    assert essence(local) == essence(remote)
    assert local["standings"] == remote["standings"]
    assert sorted(p.name for p in (tmp_path / "dask" / "records").iterdir()) == sorted(
        p.name for p in (tmp_path / "local" / "records").iterdir()
    )


def test_a_game_whose_dask_worker_dies_is_an_error_record(cluster, monkeypatch):
    specs = schedule_games("connect5", [C5], ["random", "window4"], seeds=2, time_limit=0.5)
    assert sorted({s.seed for s in specs}) == [0, 1]
    monkeypatch.setattr(tournament, "_run_json", pool_jobs.game_or_die)
    records = run_games(specs, scheduler=cluster.scheduler_address, progress=False)
    assert len(records) == len(specs) == 4
    for spec, record in zip(specs, records):
        if spec.seed == 1:
            assert is_error(record)
            assert "the game was lost with its worker twice" in record.result.detail
            assert record.result.scores == (0.0, 0.0) and record.turns == ()
        else:
            assert not is_error(record), record.result.detail
            assert len(record.turns) > 0
