"""The worker pool loses only the game a dead worker played; an interrupted tournament
keeps every finished record and leaves no process behind."""

from __future__ import annotations

import gzip
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pool_jobs

from atlas.arena.pool import run_pool

ROOT = Path(__file__).resolve().parents[2]
#: A small tournament: 3 bots, one map, 2 seeds: 12 games of a few seconds each.
GAMES = [
    "isolation",
    "--maps",
    str(ROOT / "maps" / "isolation" / "queen8.txt"),
    "--bots",
    "random",
    "phased",
    "strong",
    "--seeds",
    "2",
    "--time",
    "0.1",
    "--jobs",
    "2",
]


def test_a_dead_worker_costs_only_its_job_and_is_replaced():
    done, failed = {}, {}
    run_pool(list(range(9)), pool_jobs.square_or_die, 2, done.__setitem__, failed.__setitem__)
    assert done == {n: n * n for n in range(9) if n not in (3, 5)}
    assert set(failed) == {3, 5}
    assert "killed by SIGKILL" in failed[3]
    assert "ValueError: job five refuses" in failed[5]


def _processes_with(token: str) -> list[int]:
    """Live processes whose environment holds ``token``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            env = Path(f"/proc/{entry}/environ").read_bytes()
            state = Path(f"/proc/{entry}/stat").read_text().split(") ", 1)[1][:1]
        except OSError:
            continue
        if token.encode() in env and state != "Z":
            found.append(int(entry))
    return found


def _start_tournament(tmp_path: Path, token: str) -> tuple[subprocess.Popen, Path]:
    out = tmp_path / "cup"
    env = dict(os.environ, ATLAS_TEST_TOKEN=token, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-m", "atlas", "tournament", *GAMES, "--out", str(out), "-q"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    return proc, out


def _wait_for_records(out: Path, proc: subprocess.Popen, n: int) -> list[Path]:
    for _ in range(1200):  # at most 120 s
        files = (
            sorted((out / "records").glob("*.json.gz")) if (out / "records").is_dir() else []
        )
        if len(files) >= n or proc.poll() is not None:
            return files
        time.sleep(0.1)
    return files


def _interrupted(tmp_path: Path, sig: int, code: int, resume: bool) -> None:
    token = uuid.uuid4().hex
    proc, out = _start_tournament(tmp_path, token)
    try:
        before = _wait_for_records(out, proc, 2)
        assert proc.poll() is None and len(before) >= 2
        proc.send_signal(sig)
        t0 = time.monotonic()
        proc.wait(timeout=30)
        ended = time.monotonic() - t0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == code, proc.stderr.read().decode()[-2000:]
    assert ended < 2.0 + 1.0 * (os.getloadavg()[0] > 4)  # within 2 s (3 on a busy box)
    kept = sorted((out / "records").glob("*.json.gz"))
    assert set(before) <= set(kept)
    for f in kept:  # every record written whole (atomically)
        assert b'"atlas-replay"' in gzip.decompress(f.read_bytes())
    for _ in range(50):  # workers end at once; give the kernel a moment to reap them
        if not _processes_with(token):
            break
        time.sleep(0.1)
    assert _processes_with(token) == []
    if not resume:
        return
    # --resume plays only what is missing and finishes the tournament
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "atlas",
            "tournament",
            *GAMES,
            "--out",
            str(out),
            "--resume",
            "--json",
        ],
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert len(list((out / "records").glob("*.json.gz"))) == 12
    assert "resuming:" not in done.stdout  # the JSON only on stdout
    assert (out / "results.json").is_file()


def test_ctrl_c_exits_130_keeps_the_records_and_leaves_no_process(tmp_path):
    _interrupted(tmp_path, signal.SIGINT, 130, resume=True)


def test_sigterm_exits_143_keeps_the_records_and_leaves_no_process(tmp_path):
    _interrupted(tmp_path, signal.SIGTERM, 143, resume=False)


def test_a_pool_in_a_thread_stops_when_told_and_ends_its_workers(tmp_path):
    """The build plays its games in a thread (``atlas.render.site.tournament.EarlyGames``):
    told to stop, the pool ends its workers mid-job and returns, the jobs unfinished."""
    import threading

    started = tmp_path / "started"
    stop = threading.Event()
    done, failed = {}, {}
    jobs = [(60.0, str(started))] * 4
    thread = threading.Thread(
        target=run_pool,
        args=(jobs, pool_jobs.spin, 2, done.__setitem__, failed.__setitem__),
        kwargs={"stop": stop},
    )
    thread.start()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # until a worker is spinning
        if started.exists() and started.read_text():
            break
        time.sleep(0.05)
    assert started.read_text()
    t0 = time.monotonic()
    stop.set()
    thread.join(30)
    assert not thread.is_alive()
    assert time.monotonic() - t0 < 20  # not the 60 s each job spins
    assert done == {} and failed == {}
    pid = int(started.read_text())
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1][:1]
    except OSError:
        state = "gone"
    assert state in ("gone", "Z")  # the spinning worker was ended
