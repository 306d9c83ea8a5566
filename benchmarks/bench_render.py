"""Speed and size of the site build and of GIF replays (a benchmark, not a test).

Prints:

* a cold ``atlas build`` of the bundled maps (empty cache; budget 3 minutes on 2 cores;
  empty numba's cache first for the budget's conditions, see docs/development.md) and
  a warm rebuild with nothing changed (budget 15 s), with the load average before and
  after, the site's size, its largest page and its largest Outpost game page (every
  turn of a 500-turn game; budget 1.5 MB);
* GIF encoding speed for 25x25 tron frames (budget >= 200 frames/s), with and without
  drawing the frames;
* GIF sizes: a long 25x25 tron game (budget 300 KB) and a 500-turn Outpost game on a
  bundled map (budget 4 MB).

Run from the repository root: ``python benchmarks/bench_render.py [--skip-build]``.

``python benchmarks/bench_render.py --cold`` runs the README's first command instead,
``atlas build`` in a fresh process from empty caches (a new temporary folder holds the
site, atlas's game and analysis cache and, through ``ATLAS_CACHE_DIR``, numba's cache:
nothing is deleted that this run did not make), then once more warm; it prints each
build's phases (the stages of ``atlas.render.site.build.STAGES``), its wall time, the
CPU seconds of the build's whole process tree (sampled from ``/proc``: what the machine's
load does not inflate) and the load average before and after.  Budgets (issue 33, a
fresh clone on a quiet 2-core machine): cold 60 s, warm 2 s with no file written.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]

TRON25 = (
    "25 25\n"
    + "#" * 25
    + "\n"
    + "".join(
        "#"
        + "".join(
            "#"
            if (r in (8, 16) and c in range(6, 18))
            else "1"
            if (r, c) == (3, 3)
            else "2"
            if (r, c) == (21, 21)
            else " "
            for c in range(1, 24)
        )
        + "#\n"
        for r in range(1, 24)
    )
    + "#" * 25
    + "\n"
)


def _play(game: str, game_map, seed: int, params=None, chooser=None):
    from atlas.sim import get_game
    from atlas.sim.records import RecordBuilder

    g = get_game(game)
    state = g.initial_state(game_map, params)
    rng = np.random.default_rng(seed)
    names = [f"bot{i}" for i in range(g.info.num_players)]
    b = RecordBuilder(g, game_map, params, names, seed)
    while g.outcome(state) is None:
        moves = {
            p: (chooser(state, p, rng) if chooser else g.random_move(state, p, rng))
            for p in g.to_move(state)
        }
        b.add_turn(moves)
        state = g.apply(state, moves)
    return b.finish(state, g.outcome(state))


def _spiral():
    heading = {0: 1, 1: 3}

    def choose(state, seat, rng):
        from atlas.games.tron.rules import safe_moves

        safe = set(safe_moves(state, seat))
        if safe and rng.random() < 0.08:
            heading[seat] = int(sorted(safe)[int(rng.integers(len(safe)))])
            return heading[seat]
        d = heading[seat]
        left, right, back = (d + 2) % 4 + 1, d % 4 + 1, (d + 1) % 4 + 1
        for m in (d, left, right, back) if seat == 0 else (d, right, left, back):
            if m in safe:
                heading[seat] = m
                return m
        return d

    return choose


def _load() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def bench_build(jobs: int | None, keep: str | None = None) -> None:
    from atlas.render.site.build import build_site

    work = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="atlas-bench-"))
    shutil.rmtree(work / "site", ignore_errors=True)
    shutil.rmtree(work / "cache", ignore_errors=True)
    try:
        print(f"load average before the build: {_load()}")
        t = time.perf_counter()
        r = build_site(
            ROOT / "maps",
            work / "site",
            cache_dir=work / "cache",
            jobs=jobs,
            progress=False,
            log=lambda m: None,
        )
        cold = time.perf_counter() - t
        print(
            f"cold build: {cold:6.1f} s  ({sum(m.ok for m in r.maps)} maps, "
            f"{len(r.games)} games, {len(r.problems)} problems; "
            + ", ".join(f"{k} {v:.1f} s" for k, v in r.stages.items())
            + f")  budget 180 s; load average after: {_load()}"
        )
        for p in r.problems:
            print(f"  problem: {p}")
        t = time.perf_counter()
        r = build_site(
            ROOT / "maps",
            work / "site",
            cache_dir=work / "cache",
            jobs=jobs,
            progress=False,
            log=lambda m: None,
        )
        warm = time.perf_counter() - t
        print(
            f"warm build: {warm:6.1f} s  (cache {r.cache_hits} hits, {r.cache_misses} "
            f"misses; {r.files_written} files written, {r.files_kept} kept)  budget 15 s"
        )
        site = work / "site"
        files = [f for f in site.rglob("*") if f.is_file()]
        size = sum(f.stat().st_size for f in files)
        pages = [f for f in files if f.suffix == ".html"]
        big = max(pages, key=lambda f: f.stat().st_size)
        print(
            f"site size:  {size / 1e6:6.1f} MB in {len(files)} files; largest page "
            f"{big.relative_to(site)} {big.stat().st_size / 1e6:.2f} MB"
        )
        outpost = [g for g in r.games if g.record.game == "outpost"]
        if outpost:
            g = max(outpost, key=lambda g: (site / g.page).stat().st_size)
            print(
                f"largest Outpost game page: {g.page} {(site / g.page).stat().st_size / 1e6:.2f}"
                f" MB for {len(g.record.turns)} turns, every one in the viewer  "
                f"budget 1.5 MB"
            )
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)


def _tree_cpu(root: int, seen: dict[int, float]) -> None:
    """Record the CPU seconds (user + system) of ``root`` and its descendants in
    ``seen`` (pid -> the most seen: a process's last sample before it ends)."""
    import os

    tick = os.sysconf("SC_CLK_TCK")
    parent: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        parent[int(entry.name)] = int(fields[1])
        cpu[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    for pid, value in cpu.items():
        p = pid
        while p in parent and p != root:
            p = parent[p]
        if p == root:
            seen[pid] = max(seen.get(pid, 0.0), value)


def _timed_build(work: Path, env: dict[str, str]) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds of the process tree, and the summary line of one
    ``atlas build`` run in ``work``."""
    import subprocess
    import sys

    seen: dict[int, float] = {}
    t = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "atlas", "build", "--out", "site"],
        cwd=work,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    # standard error is a pipe: no progress bars, the summary line with the stages
    while proc.poll() is None:
        _tree_cpu(proc.pid, seen)
        time.sleep(0.25)
    wall = time.perf_counter() - t
    err = proc.stderr.read() if proc.stderr else ""
    if proc.returncode != 0:
        raise SystemExit(f"atlas build failed ({proc.returncode}): {err[-800:]}")
    return wall, sum(seen.values()), err


def bench_cold() -> None:
    """The README's ``atlas build`` from empty caches, then warm (see the module notes)."""
    import os

    work = Path(tempfile.mkdtemp(prefix="atlas-bench-cold-"))
    env = {
        **os.environ,
        "ATLAS_CACHE_DIR": str(work / "atlas-cache"),
        "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
    }
    env.pop("NUMBA_CACHE_DIR", None)
    try:
        for label, budget in (("cold", 60.0), ("warm", 2.0)):
            before = _load()
            wall, cpu, log = _timed_build(work, env)
            summary = next((ln for ln in log.splitlines() if "atlas build" in ln), log)
            print(
                f"{label} atlas build: {wall:6.1f} s wall, {cpu:6.1f} s CPU (all "
                f"processes)  budget {budget:.0f} s; load average {before} before, "
                f"{_load()} after",
                flush=True,
            )
            print(f"  {summary.strip()}", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def bench_gif() -> None:
    from atlas.maps import parse_map, read_map
    from atlas.render.frames import compose, legend_band
    from atlas.render.gif import encode_gif, record_gif_bytes
    from atlas.render.registry import render_of
    from atlas.render.replay import record_frames
    from atlas.sim.records import replay_states

    gm = parse_map(TRON25, game="tron", name="pillars25")
    rec = max(
        (_play("tron", gm, s, chooser=_spiral()) for s in range(8)), key=lambda r: len(r.turns)
    )
    states = replay_states(rec)
    record_gif_bytes(rec, states=states)  # warm up fonts and caches
    k = render_of("tron").cell_px(gm.shape)
    legend = legend_band(gm.width * k, [p.name for p in rec.players])
    reps = 5
    t = time.perf_counter()
    for _ in range(reps):
        images = [compose(f, k, legend=legend) for f in record_frames(rec, states)]
    t_draw = (time.perf_counter() - t) / reps
    t = time.perf_counter()
    for _ in range(reps):
        data = encode_gif(images, 120)
    t_enc = (time.perf_counter() - t) / reps
    n = len(images)
    print(f"tron 25x25: {n} frames of {images[0].shape[1]}x{images[0].shape[0]} px")
    print(f"  encode only:   {n / t_enc:7.0f} frames/s   budget >= 200")
    print(f"  draw + encode: {n / (t_draw + t_enc):7.0f} frames/s")
    print(
        f"  GIF size: {len(record_gif_bytes(rec, states=states)) / 1e3:7.1f} KB "
        f"({len(rec.turns)} turns)   budget 300 KB"
    )
    maps = sorted((ROOT / "maps" / "outpost").glob("*.txt"))
    if maps:
        om = read_map(maps[0])
        orec = _play("outpost", om, 1, params={"T": 500})
        t = time.perf_counter()
        data = record_gif_bytes(orec)
        dt = time.perf_counter() - t
        print(
            f"outpost {om.name}: {len(orec.turns)} turns -> GIF "
            f"{len(data) / 1e6:5.2f} MB in {dt:4.1f} s   budget 4 MB"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--skip-gif", action="store_true")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--keep", metavar="DIR", help="build in DIR and keep the site")
    parser.add_argument(
        "--cold",
        action="store_true",
        help="only time `atlas build` in a fresh process from empty caches, then warm",
    )
    args = parser.parse_args()
    if args.cold:
        bench_cold()
        return
    if not args.skip_gif:
        bench_gif()
    if not args.skip_build:
        bench_build(args.jobs, args.keep)


if __name__ == "__main__":
    main()
