"""A build on a dask.distributed cluster (127.0.0.1 only) writes the site a build on
local processes writes, byte for byte: the map analyses, the games, the fairness games
and the replays' drawings all run on the cluster's workers, and come back as data."""

from __future__ import annotations

import os
import shutil
import socket
from pathlib import Path

import distributed
import pytest

from atlas.cli import main
from atlas.render.site import analysis, replays
from atlas.render.site.build import BuildOptions, build

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        silence_logs=50,
    ) as local:
        yield local


def _maps(folder: Path) -> Path:
    for game, name in (("tron", "duel"), ("tron", "pillars"), ("isolation", "knight7")):
        (folder / game).mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / "maps" / game / f"{name}.txt", folder / game / f"{name}.txt")
    (folder / "tron" / "broken.txt").write_text("3 3\n#1#\n")  # its own error page
    return folder


def _build(tmp_path: Path, name: str, **how) -> tuple[Path, list[str]]:
    out = tmp_path / name / "site"
    result = build(
        BuildOptions(
            maps_dir=tmp_path / "maps",
            out_dir=out,
            cache_dir=tmp_path / name / "cache",
            games=1,
            fairness=1,
            bots={"tron": ["wallhugger", "voronoi"], "isolation": ["random", "phased"]},
            progress=False,
            log=lambda line: None,
            **how,
        )
    )
    return out, result.problems


def _files(site: Path) -> dict[str, bytes]:
    return {
        os.path.relpath(os.path.join(here, f), site): Path(here, f).read_bytes()
        for here, _, names in os.walk(site)
        for f in names
    }


def test_a_build_on_dask_is_the_build_on_local_processes(cluster, tmp_path, monkeypatch):
    _maps(tmp_path / "maps")
    alone, problems = _build(tmp_path, "alone", jobs=1)
    assert len(problems) == 1 and "broken.txt" in problems[0]
    # the local pool for every stage, however few its jobs
    monkeypatch.setattr(analysis, "PARALLEL_MAPS", 1)
    monkeypatch.setattr(replays, "PARALLEL_REPLAYS", 1)
    pooled, _ = _build(tmp_path, "pooled", jobs=2)
    calls: list[str] = []
    real = analysis.map_job

    def counted(item):
        calls.append(item[2])
        return real(item)

    monkeypatch.setattr(analysis, "map_job", counted)  # shipped to the workers as it is
    remote, remote_problems = _build(tmp_path, "dask", scheduler=cluster.scheduler_address)
    assert remote_problems == problems
    want = _files(alone)
    assert len([f for f in want if f.startswith("games/") and f.endswith(".html")]) >= 6
    assert _files(pooled) == want
    got = _files(remote)
    assert sorted(got) == sorted(want)
    assert [f for f in want if got[f] != want[f]] == []
    # the cluster did the work: its workers' caches are this process's, filled by it
    cache = tmp_path / "dask" / "cache"
    assert any((cache / "analysis").rglob("*")) and any((cache / "record").rglob("*"))
    assert calls == []  # map_job ran on the workers, not in this process


def test_the_command_takes_a_scheduler_and_names_one_out_of_reach(
    cluster, tmp_path, capsys, monkeypatch
):
    _maps(tmp_path / "maps")
    (tmp_path / "first").mkdir()
    monkeypatch.chdir(tmp_path / "first")  # the build's cache, .atlas-cache, is made here
    argv = ["build", "--maps", str(tmp_path / "maps"), "--games", "0", "-q"]
    out = tmp_path / "site"
    assert main([*argv, "--out", str(out), "--scheduler", cluster.scheduler_address]) == 0
    assert (out / "maps" / "tron-duel.html").is_file()
    capsys.readouterr()
    # nothing listens on this port of the loopback (a port just freed)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    lost = tmp_path / "lost"
    import dask

    (tmp_path / "second").mkdir()
    monkeypatch.chdir(tmp_path / "second")  # an empty cache: every map needs the cluster
    with dask.config.set({"distributed.comm.timeouts.connect": "2s"}):
        code = main([*argv, "--out", str(lost), "--scheduler", f"tcp://127.0.0.1:{port}"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and f"127.0.0.1:{port}" in err
    assert not lost.exists() or not any(lost.iterdir())
