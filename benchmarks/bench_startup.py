"""Start-up of the atlas command: each command's first use (cold) and later uses (warm).

    python benchmarks/bench_startup.py [--runs 7]

Every command is first run once with an empty numba cache (a new temporary folder as
``ATLAS_CACHE_DIR``: numba compiles what the command uses, as on a fresh install; the
command's time and CPU time are printed as "cold"), then ``--runs`` times more with that
cache, each in a fresh interpreter (``python -m atlas ...``, this checkout first on the
path): the median wall time and the median CPU time of the process (user + system: what
the machine's load does not inflate) are printed as "warm".  Also, for ``atlas bot tron
frontline``, the time from ``Popen`` to its first answer.  Targets: ``validate`` and
``analyze --json`` under 0.5 s warm (issue 14); the first ``atlas play tron ... apex
voronoi --time 0.1`` at most 15 s cold (issue 25); the first strong game of each game,
its strongest bot at its default effort, at most 8 s cold (issue 33).  ``--only WORD``
runs the commands whose label contains WORD.

``--sizes 50 100 200 300`` also times the analysis of square tron maps of those sides
(random walls, two starts) in fresh processes, once as plain Python and once compiled
(numba loaded from its warm cache): where the two cross is where ``atlas analyze``
switches (``atlas.cli.common.INTERPRET_MAX_CELLS``).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
ENV.pop("NUMBA_CACHE_DIR", None)  # atlas chooses it under ATLAS_CACHE_DIR

COMMANDS = [
    ("python -c pass (the interpreter alone)", ["-c", "pass"]),
    ("atlas --version", ["-m", "atlas", "--version"]),
    ("atlas --help", ["-m", "atlas", "--help"]),
    (
        "atlas validate maps/outpost/delta.txt",
        ["-m", "atlas", "validate", "maps/outpost/delta.txt"],
    ),
    (
        "atlas analyze maps/tron/arena.txt --json",
        ["-m", "atlas", "analyze", "maps/tron/arena.txt", "--json"],
    ),
    (
        "atlas analyze maps/tron/labyrinth.txt --json",
        ["-m", "atlas", "analyze", "maps/tron/labyrinth.txt", "--json"],
    ),
    (
        "atlas analyze maps/outpost/delta.txt --json",
        ["-m", "atlas", "analyze", "maps/outpost/delta.txt", "--json"],
    ),
    (
        "atlas analyze maps/isolation/queen8.txt --json",
        ["-m", "atlas", "analyze", "maps/isolation/queen8.txt", "--json"],
    ),
    (
        "atlas analyze maps/connect5/standard.txt --json",
        ["-m", "atlas", "analyze", "maps/connect5/standard.txt", "--json"],
    ),
    (
        "atlas play tron maps/tron/duel.txt apex voronoi --time 0.1",
        [
            "-m",
            "atlas",
            "play",
            "tron",
            "maps/tron/duel.txt",
            "apex",
            "voronoi",
            "--time",
            "0.1",
        ],
    ),
    (
        "atlas play isolation maps/isolation/queen8.txt strong phased --time 0.1",
        [
            *("-m", "atlas", "play", "isolation", "maps/isolation/queen8.txt"),
            *("strong", "phased", "--time", "0.1"),
        ],
    ),
    (
        "atlas play connect5 maps/connect5/standard.txt strong window4 --time 0.1",
        [
            *("-m", "atlas", "play", "connect5", "maps/connect5/standard.txt"),
            *("strong", "window4", "--time", "0.1"),
        ],
    ),
    (
        "atlas play outpost maps/outpost/delta.txt planner balanced --time 0.1",
        [
            *("-m", "atlas", "play", "outpost", "maps/outpost/delta.txt"),
            *("planner", "balanced", "--time", "0.1"),
        ],
    ),
    # the first strong game of each game (issue 33, target 8 s cold): its strongest bot
    # at its default effort, the whole game included
    (
        "first strong game: atlas play tron maps/tron/duel.txt apex voronoi",
        ["-m", "atlas", "play", "tron", "maps/tron/duel.txt", "apex", "voronoi"],
    ),
    (
        "first strong game: atlas play isolation maps/isolation/queen8.txt strong phased",
        ["-m", "atlas", "play", "isolation", "maps/isolation/queen8.txt", "strong", "phased"],
    ),
    (
        "first strong game: atlas play connect5 maps/connect5/standard.txt strong window4",
        [
            *("-m", "atlas", "play", "connect5", "maps/connect5/standard.txt"),
            *("strong", "window4"),
        ],
    ),
    (
        "first strong game: atlas play outpost maps/outpost/delta.txt planner x4",
        [
            *("-m", "atlas", "play", "outpost", "maps/outpost/delta.txt"),
            *("planner",) * 4,
        ],
    ),
]

BOARD = b"7 4\n#######\n#1    #\n#    2#\n#######\n"

SIZED = """
import sys
from atlas.jit import interpreted
from atlas.maps import read_map
from atlas.sim.registry import summarize_map
with interpreted(sys.argv[2] == "python"):
    summarize_map(read_map(sys.argv[1], game="tron"))
"""


def square_map(side: int, folder: Path) -> Path:
    """A ``side`` x ``side`` tron map with 15 % random walls and two starts."""
    import numpy as np

    rng = np.random.default_rng(side)
    walls = rng.random((side, side)) < 0.15
    rows = [["#" if w else " " for w in row] for row in walls]
    rows[0][0], rows[-1][-1] = "1", "2"
    path = folder / f"square{side}.txt"
    path.write_text(f"{side} {side}\n" + "".join("".join(r) + "\n" for r in rows))
    return path


def run_once(args: list[str], cache: str | None = None) -> tuple[float, float]:
    """Wall and CPU seconds of one fresh ``python ARGS`` process (``cache``: its
    ``ATLAS_CACHE_DIR``)."""
    env = ENV if cache is None else {**ENV, "ATLAS_CACHE_DIR": cache}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed: {done.stderr.decode()[-400:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def bot_first_answer(cache: str) -> float:
    """Seconds from Popen to the first answer of ``atlas bot tron frontline``."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "atlas", "bot", "tron", "frontline"],
        cwd=ROOT,
        env={**ENV, "ATLAS_CACHE_DIR": cache},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(BOARD)
    proc.stdin.flush()
    proc.stdout.readline()
    elapsed = time.perf_counter() - t0
    proc.stdin.close()
    proc.wait(timeout=120)
    return elapsed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7, help="fresh processes per command")
    ap.add_argument(
        "--sizes",
        type=int,
        nargs="*",
        default=[],
        metavar="SIDE",
        help="also time the analysis of SIDE x SIDE maps, Python vs compiled",
    )
    ap.add_argument("--only", default="", metavar="WORD", help="commands whose label has WORD")
    args = ap.parse_args(argv)
    import tempfile

    print(
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; cold: the first "
        f"run, empty numba cache; warm: median of {args.runs} fresh processes"
    )
    print(f"{'command':72} {'cold s':>7} {'cpu s':>7} {'warm s':>7} {'cpu s':>7} {'load':>5}")
    with tempfile.TemporaryDirectory(prefix="atlas-startup-") as caches:
        for n, (label, cmd) in enumerate(COMMANDS):
            if args.only not in label:
                continue
            cache = str(Path(caches) / str(n))  # empty: this command's first use
            load = os.getloadavg()[0]
            cold = run_once(cmd, cache)
            times = [run_once(cmd, cache) for _ in range(args.runs)]
            wall = statistics.median(t[0] for t in times)
            cpu = statistics.median(t[1] for t in times)
            print(
                f"{label:72} {cold[0]:7.2f} {cold[1]:7.2f} {wall:7.3f} {cpu:7.3f} {load:5.1f}",
                flush=True,
            )
        if args.only in "atlas bot tron frontline: Popen to first answer":
            cache = str(Path(caches) / "bot")
            first = bot_first_answer(cache)
            answers = [bot_first_answer(cache) for _ in range(max(3, args.runs // 2))]
            print(
                f"{'atlas bot tron frontline: Popen to first answer':72} {first:7.2f} "
                f"{'':7} {statistics.median(answers):7.3f}"
            )
    if args.sizes:
        import tempfile

        print(
            f"\n{'analysis of a square map, fresh process':40} {'python s':>9} "
            f"{'compiled s':>10}  (cpu s)"
        )
        with tempfile.TemporaryDirectory() as tmp:
            for side in args.sizes:
                path = str(square_map(side, Path(tmp)))
                cpu = {}
                for how in ("python", "compiled"):
                    cmd = ["-c", SIZED, path, how]
                    run_once(cmd)
                    cpu[how] = statistics.median(
                        run_once(cmd)[1] for _ in range(max(3, args.runs // 2))
                    )
                pad = max(0, 24 - 2 * len(str(side)) - len(str(side * side)))
                print(
                    f"{side} x {side} ({side * side} cells){'':{pad}} "
                    f"{cpu['python']:9.3f} {cpu['compiled']:10.3f}",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
