"""Warming the bots before a game: on a first run (numba's cache empty), ``atlas play``
compiles the second seat's bot in a worker process while it compiles the first's; with
a warm cache, or one bot to compile, it starts no process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from atlas.arena import warm

ROOT = Path(__file__).resolve().parents[2]
TINY = "7 4\n#######\n#1    #\n#    2#\n#######\n"

SCRIPT = """
import sys
from atlas.arena.warm import warm_up_cold
first = warm_up_cold("tron", sys.argv[1], "tiny", ["random", "wallhugger"], {})
again = warm_up_cold("tron", sys.argv[1], "tiny", ["random", "wallhugger"], {})
print(first, again)
"""


def test_a_cold_cache_is_warmed_by_a_worker_for_the_other_seats(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["ATLAS_CACHE_DIR"] = str(tmp_path / "cache")
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, TINY],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    # the first call warmed (this process the random bot, which compiles nothing; the
    # worker wallhugger); the second found the cache filled, and started nothing
    assert done.stdout.split() == ["True", "False"]
    names = {p.name.split("-")[0] for p in (tmp_path / "cache").rglob("*.nbi")}
    assert "fill.filler_move" in names  # wallhugger's kernel, compiled by the worker


def test_nothing_is_started_for_one_bot_or_a_warm_cache(monkeypatch):
    started: list[str] = []

    class Refused:
        def __init__(self, *args, **kwargs):
            started.append("a process")
            raise AssertionError("no process is started")

    monkeypatch.setattr(warm, "_cache_is_empty", lambda: True)
    monkeypatch.setattr(
        "atlas.arena.pool.pool_context", lambda: type("C", (), {"Process": Refused})
    )
    # one built-in bot (a program and an unknown name are not warmed), or one bot twice
    assert not warm.warm_up_cold("tron", TINY, "tiny", ["wallhugger", "cmd:./bot"], {})
    assert not warm.warm_up_cold("tron", TINY, "tiny", ["wallhugger", "wallhugger"], {})
    assert not warm.warm_up_cold("tron", TINY, "tiny", ["wallhugger", "nosuchbot"], {})
    monkeypatch.setattr(warm, "_cache_is_empty", lambda: False)
    assert not warm.warm_up_cold("tron", TINY, "tiny", ["wallhugger", "voronoi"], {})
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    monkeypatch.setattr(warm, "_cache_is_empty", lambda: True)
    assert not warm.warm_up_cold("tron", TINY, "tiny", ["wallhugger", "voronoi"], {})
    assert started == []
