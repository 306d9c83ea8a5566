"""Speed of the analysis kernels against networkx and the plain-C reference figures.

For each kernel (articulation points, components, BFS, two-source Voronoi) and map class
(tron 15x15 and 25x25 from ``tests/data/tron-maps``, outpost 100x100 from
``tests/data/outpost-maps``, synthetic 200x200 and 1000x1000 grids with 20 % walls
from a seeded generator) this prints, all measured in the same run (CPU time, median of
the repeats, summed over the maps of a class):

* ``kern ns/cell``: the numba kernel called from a compiled loop (what bots pay), per free
  cell, next to the C figure of ``benchmarks/data/perf-reference.md`` and the ratio;
* ``call us``: the public function called from Python (validation, padding, result);
* ``nx us`` and ``build us``: networkx on a prebuilt graph, and building that graph;
* ``nx/call`` and ``(nx+b)/call``: how many times faster atlas is, without and with the
  graph build.

Then the time to import atlas and analyse one map in a fresh process with a warm numba
cache.  Run ``python benchmarks/bench_kernels.py --quick`` for a short pass.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import networkx as nx
import numba
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from atlas.analysis.articulation import articulation_kernel, articulation_points  # noqa: E402
from atlas.analysis.components import components_kernel, label_components  # noqa: E402
from atlas.analysis.distances import bfs_distances, bfs_kernel  # noqa: E402
from atlas.analysis.grid import flat_index, new_buffers, pad_free  # noqa: E402
from atlas.analysis.voronoi import voronoi_counts, voronoi_kernel  # noqa: E402
from atlas.maps import read_map  # noqa: E402

CONTEST_DATA = REPO / "tests" / "data"
KERNELS = ("articulation", "components", "bfs", "voronoi")
#: Column order of the C table in perf-reference.md.
C_COLUMNS = {"articulation": 0, "components": 1, "bfs": 2, "voronoi": 3}
CLASSES = ("tron15", "tron25", "outpost100", "synth200", "synth1000")
C_ROW_NAMES = {
    "tron15": "tron 15",
    "tron25": "tron 25",
    "outpost100": "outpost 100",
    "synth200": "synthetic 200",
    "synth1000": "synthetic 1000",
}


@dataclass
class Case:
    """One map of a class: its free grid and two start cells."""

    name: str
    free: np.ndarray
    a: tuple[int, int]
    b: tuple[int, int]


# --------------------------------------------------------------------------- inputs


def load_classes(names: tuple[str, ...], seed: int) -> dict[str, list[Case]]:
    out: dict[str, list[Case]] = {}
    tron = sorted((CONTEST_DATA / "tron-maps").glob("*.txt"))
    for cls in names:
        cases: list[Case] = []
        if cls.startswith("tron"):
            side = 15 if cls == "tron15" else 25
            for p in tron:
                gm = read_map(p, game="tron")
                if max(gm.shape) <= 16 if side == 15 else min(gm.shape) >= 20:
                    cases.append(Case(gm.name, gm.free, gm.starts[0], gm.starts[1]))
        elif cls == "outpost100":
            for p in sorted((CONTEST_DATA / "outpost-maps").glob("*.txt")):
                gm = read_map(p, game="outpost")
                cases.append(Case(gm.name, gm.free, gm.starts[0], gm.starts[2]))
        else:
            n = int(cls[5:])
            rng = np.random.default_rng(seed)
            free = rng.random((n, n)) >= 0.20
            free[0, 0] = free[n - 1, n - 1] = True
            cases.append(Case(f"{n}x{n}", free, (0, 0), (n - 1, n - 1)))
        if cases:
            out[cls] = cases
    return out


def c_reference() -> dict[tuple[str, str], float]:
    """The plain-C ns/cell table of ``benchmarks/data/perf-reference.md``."""
    path = Path(__file__).resolve().parent / "data" / "perf-reference.md"
    if not path.is_file():
        return {}
    text = path.read_text(encoding="utf-8")
    start = text.find("plain C")
    table = text[start : text.find("\n## ", start)] if start >= 0 else ""
    out = {}
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5:
            continue
        label = re.sub(r"[×x].*", "", cells[0]).strip()
        for cls, row in C_ROW_NAMES.items():
            if label == row:
                for kernel, col in C_COLUMNS.items():
                    try:
                        out[(kernel, cls)] = float(cells[1 + col])
                    except ValueError:
                        pass
    return out


# --------------------------------------------------------------------------- timing


def cpu_median(
    fn: Callable[[int], object], repeats: int, min_time: float = 0.05, max_inner: int = 200_000
) -> float:
    """Median CPU seconds of one ``fn(1)``-equivalent; ``fn(k)`` runs ``k`` times."""
    t = time.process_time()
    fn(1)
    once = max(time.process_time() - t, 1e-7)
    inner = int(min(max_inner, max(1, min_time / once)))
    samples = []
    for _ in range(repeats):
        t = time.process_time()
        fn(inner)
        samples.append((time.process_time() - t) / inner)
    return statistics.median(samples)


# Not cached on purpose: numba's cache would keep the kernels inlined at the time of the
# first run even after they change (it only watches this file).
@numba.njit
def _loop_articulation(flat, stride, bufs, is_cut, reps):  # pragma: no cover - compiled
    s = 0
    for _ in range(reps):
        s += articulation_kernel(flat, stride, bufs[0], bufs[1], bufs[2], is_cut)
    return s


@numba.njit
def _loop_components(flat, stride, bufs, reps):  # pragma: no cover - compiled
    s = 0
    for _ in range(reps):
        s += components_kernel(flat, stride, bufs[0], bufs[1])
    return s


@numba.njit
def _loop_bfs(flat, stride, src, bufs, reps):  # pragma: no cover - compiled
    s = 0
    for _ in range(reps):
        s += bfs_kernel(flat, stride, src, bufs[0], bufs[1])
    return s


@numba.njit
def _loop_voronoi(flat, stride, a, b, bufs, reps):  # pragma: no cover - compiled
    s = 0
    for _ in range(reps):
        n1, n2, tie = voronoi_kernel(flat, stride, a, b, bufs[0], bufs[1], bufs[2])
        s += n1 + n2 + tie
    return s


def kernel_runner(kernel: str, case: Case) -> Callable[[int], object]:
    flat, stride = pad_free(case.free)
    bufs = new_buffers(len(flat), 3)
    a, b = flat_index(case.a, stride), flat_index(case.b, stride)
    if kernel == "articulation":
        is_cut = np.zeros(len(flat), np.uint8)
        return lambda k: _loop_articulation(flat, stride, bufs, is_cut, k)
    if kernel == "components":
        return lambda k: _loop_components(flat, stride, bufs, k)
    if kernel == "bfs":
        src = np.array([a], dtype=np.int64)
        return lambda k: _loop_bfs(flat, stride, src, bufs, k)
    return lambda k: _loop_voronoi(flat, stride, a, b, bufs, k)


def repeat(fn: Callable[[], object]) -> Callable[[int], object]:
    def run(k: int) -> None:
        for _ in range(k):
            fn()

    return run


def api_runner(kernel: str, case: Case) -> Callable[[int], object]:
    free, a, b = case.free, case.a, case.b
    return repeat(
        {
            "articulation": lambda: articulation_points(free),
            "components": lambda: label_components(free),
            "bfs": lambda: bfs_distances(free, [a]),
            "voronoi": lambda: voronoi_counts(free, a, b),
        }[kernel]
    )


def nx_graph(free: np.ndarray) -> nx.Graph:
    g = nx.grid_2d_graph(*free.shape)
    g.remove_nodes_from(map(tuple, np.argwhere(~free).tolist()))
    return g


def nx_voronoi(g: nx.Graph, a: tuple[int, int], b: tuple[int, int]) -> dict[str, int]:
    def lengths(src, wall):
        edges = list(g.edges(wall))
        g.remove_node(wall)
        try:
            return nx.single_source_shortest_path_length(g, src)
        finally:
            g.add_edges_from(edges)

    da, db = lengths(a, b), lengths(b, a)
    out = {"p1": 0, "p2": 0, "tie": 0}
    for cell in da.keys() | db.keys():
        if cell in (a, b):
            continue
        x, y = da.get(cell), db.get(cell)
        key = (
            "p1"
            if y is None or (x is not None and x < y)
            else "p2"
            if x is None or y < x
            else "tie"
        )
        out[key] += 1
    return out


def nx_runner(kernel: str, g: nx.Graph, case: Case) -> Callable[[int], object]:
    a, b = case.a, case.b
    return repeat(
        {
            "articulation": lambda: list(nx.articulation_points(g)),
            "components": lambda: list(nx.connected_components(g)),
            "bfs": lambda: nx.single_source_shortest_path_length(g, a),
            "voronoi": lambda: nx_voronoi(g, a, b),
        }[kernel]
    )


# --------------------------------------------------------------------------- live C

#: A plain-C BFS on the same padded flat grid, compiled at run time with ``--calibrate``:
#: the machine is shared, so the C figures of perf-reference.md (measured once) can be
#: compared with the C speed of *this* run.
C_BFS = r"""
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static long bfs(const unsigned char *f, long s, long n, long src, int *dist, int *q) {
    for (long i = 0; i < n; i++) dist[i] = -1;
    dist[src] = 0; q[0] = (int)src; long h = 0, t = 1;
    while (h < t) {
        long v = q[h++]; int d = dist[v] + 1; long w;
        w = v - s; if (f[w] && dist[w] == -1) { dist[w] = d; q[t++] = (int)w; }
        w = v + 1; if (f[w] && dist[w] == -1) { dist[w] = d; q[t++] = (int)w; }
        w = v + s; if (f[w] && dist[w] == -1) { dist[w] = d; q[t++] = (int)w; }
        w = v - 1; if (f[w] && dist[w] == -1) { dist[w] = d; q[t++] = (int)w; }
    }
    return t;
}
int main(int argc, char **argv) {
    long n = atol(argv[2]), s = atol(argv[3]), src = atol(argv[4]), reps = atol(argv[5]);
    unsigned char *f = malloc(n); int *dist = malloc(n * 4), *q = malloc(n * 4);
    FILE *fp = fopen(argv[1], "rb"); if (!fp || fread(f, 1, n, fp) != (size_t)n) return 2;
    fclose(fp);
    double best[7]; long total = 0;
    for (int r = 0; r < 7; r++) {
        struct timespec a, b;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
        for (long k = 0; k < reps; k++) total += bfs(f, s, n, src, dist, q);
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
        best[r] = ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / reps;
    }
    for (int i = 0; i < 7; i++) for (int j = i + 1; j < 7; j++)
        if (best[j] < best[i]) { double x = best[i]; best[i] = best[j]; best[j] = x; }
    printf("%f %ld\n", best[3], total);
    return 0;
}
"""


def live_c_bfs(cases: list[Case], workdir: Path) -> float | None:
    """CPU ns per call of the C BFS above, summed over ``cases``; None without a compiler."""
    exe = workdir / "bfs_c"
    if not exe.exists():
        src = workdir / "bfs.c"
        src.write_text(C_BFS)
        try:
            subprocess.run(
                ["cc", "-O2", "-o", str(exe), str(src)], check=True, capture_output=True
            )
        except (OSError, subprocess.CalledProcessError):
            return None
    total = 0.0
    for i, case in enumerate(cases):
        flat, stride = pad_free(case.free)
        grid = workdir / f"grid{i}.bin"
        grid.write_bytes(flat.tobytes())
        reps = max(1, int(2e6 // max(1, int(case.free.sum()))))
        out = subprocess.run(
            [
                str(exe),
                str(grid),
                str(len(flat)),
                str(stride),
                str(flat_index(case.a, stride)),
                str(reps),
            ],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()
        total += float(out[0])
    return total


# --------------------------------------------------------------------------- report


def import_and_analyse(map_path: Path, runs: int) -> dict[str, float]:
    """Fresh-process times for ``import atlas`` + ``summarize_map`` (warm numba cache)."""
    code = (
        "import time; t0 = time.perf_counter()\n"
        "from atlas.maps import read_map\n"
        "from atlas.sim.registry import summarize_map\n"
        "t1 = time.perf_counter()\n"
        f"summarize_map(read_map({str(map_path)!r}))\n"
        "t2 = time.perf_counter(); print(t1 - t0, t2 - t1)\n"
    )
    subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, check=True, capture_output=True
    )  # warm the cache
    walls, imports, analyses = [], [], []
    for _ in range(runs):
        t = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-c", code], cwd=REPO, check=True, capture_output=True, text=True
        ).stdout.split()
        walls.append(time.perf_counter() - t)
        imports.append(float(out[0]))
        analyses.append(float(out[1]))
    return {
        "process_s": statistics.median(walls),
        "import_s": statistics.median(imports),
        "analyse_s": statistics.median(analyses),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--quick", action="store_true", help="small classes only (no 1000x1000), fewer repeats"
    )
    ap.add_argument("--classes", nargs="+", choices=CLASSES, help="map classes to run")
    ap.add_argument("--kernels", nargs="+", choices=KERNELS, default=list(KERNELS))
    ap.add_argument("--repeats", type=int, default=None, help="repeats per timing")
    ap.add_argument("--no-networkx", action="store_true", help="skip the networkx side")
    ap.add_argument("--seed", type=int, default=2010, help="seed of the synthetic grids")
    ap.add_argument(
        "--calibrate",
        action="store_true",
        help="also compile and time a plain-C BFS (needs cc) on the same grids",
    )
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = ap.parse_args(argv)
    classes = tuple(args.classes or (CLASSES[:4] if args.quick else CLASSES))
    repeats = args.repeats or (3 if args.quick else 5)
    cref = c_reference()
    data = load_classes(classes, args.seed)
    rows = []
    head = (
        f"{'kernel':<13}{'class':<11}{'cells':>8}{'kern ns/cell':>13}{'C ns/cell':>10}"
        f"{'xC':>6}{'call us':>11}{'nx us':>12}{'build us':>12}{'nx/call':>9}"
        f"{'(nx+b)/call':>12}"
    )
    print(head)
    print("-" * len(head))
    for cls, cases in data.items():
        cells = int(sum(int(c.free.sum()) for c in cases))
        big = cls == "synth1000"
        graphs = [] if args.no_networkx else [nx_graph(c.free) for c in cases]
        build = None
        if graphs:
            build = sum(
                cpu_median(
                    repeat(lambda c=c: nx_graph(c.free)),
                    1 if big else repeats,
                    min_time=0.0 if big else 0.05,
                )
                for c in cases
            )
        for kernel in args.kernels:
            kern = sum(cpu_median(kernel_runner(kernel, c), repeats) for c in cases)
            call = sum(cpu_median(api_runner(kernel, c), repeats) for c in cases)
            nxt = None
            if graphs:
                nxt = sum(
                    cpu_median(
                        nx_runner(kernel, g, c),
                        1 if big else repeats,
                        min_time=0.0 if big else 0.05,
                    )
                    for g, c in zip(graphs, cases)
                )
            ns = kern * 1e9 / cells
            c_ns = cref.get((kernel, cls))
            row = {
                "kernel": kernel,
                "class": cls,
                "maps": len(cases),
                "free_cells": cells,
                "kernel_ns_per_cell": ns,
                "c_ns_per_cell": c_ns,
                "ratio_to_c": None if c_ns is None else ns / c_ns,
                "call_us": call * 1e6,
                "nx_us": None if nxt is None else nxt * 1e6,
                "nx_build_us": None if build is None else build * 1e6,
            }
            rows.append(row)

            def fmt(x, spec):
                return format(x, spec) if x is not None else "-"

            print(
                f"{kernel:<13}{cls:<11}{cells:>8}{ns:>13.2f}{fmt(c_ns, '>10.1f')}"
                f"{fmt(row['ratio_to_c'], '>6.2f')}{call * 1e6:>11.1f}"
                f"{fmt(row['nx_us'], '>12.0f')}{fmt(row['nx_build_us'], '>12.0f')}"
                f"{fmt(None if nxt is None else nxt / call, '>9.0f')}"
                f"{fmt(None if nxt is None else (nxt + build) / call, '>12.0f')}"
            )
    print(
        "\nkern: kernel from a compiled loop (no Python between calls); call: the public "
        "function from Python;\nnx: networkx on a prebuilt graph; times are CPU time, "
        f"median of {repeats} repeats, summed over a class's maps."
    )
    calibration = {}
    if args.calibrate:
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            print("\nlive C BFS on the same grids (this machine, now) vs perf-reference.md:")
            for cls, cases in data.items():
                ns = live_c_bfs(cases, Path(tmp))
                if ns is None:
                    print("  no C compiler (cc) found")
                    break
                cells = sum(int(c.free.sum()) for c in cases)
                live = ns / cells
                ref = cref.get(("bfs", cls))
                ours = (
                    next(
                        r["kernel_ns_per_cell"]
                        for r in rows
                        if r["class"] == cls and r["kernel"] == "bfs"
                    )
                    if "bfs" in args.kernels
                    else None
                )
                calibration[cls] = {"c_bfs_ns_per_cell_now": live, "c_bfs_reference": ref}
                print(
                    f"  {cls:<11} C BFS now {live:6.2f} ns/cell, reference "
                    f"{ref if ref is not None else '-'}, machine factor "
                    f"{live / ref if ref else float('nan'):.2f}"
                    + (f"; atlas BFS / C BFS now = {ours / live:.2f}" if ours else "")
                )
    one = sorted((CONTEST_DATA / "tron-maps").glob("*.txt"))[:1]
    if one:
        fresh = import_and_analyse(one[0], 3 if args.quick else 5)
        print(
            f"\nfresh process, warm numba cache, analyse {one[0].name}: "
            f"process {fresh['process_s'] * 1e3:.0f} ms (import atlas "
            f"{fresh['import_s'] * 1e3:.0f} ms + summarize_map "
            f"{fresh['analyse_s'] * 1e3:.0f} ms)"
        )
    else:
        fresh = {}
    if args.json:
        Path(args.json).write_text(
            json.dumps({"rows": rows, "fresh": fresh, "calibration": calibration}, indent=2)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
