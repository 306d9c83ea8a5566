"""Tournaments at scale: a local pool and a Dask cluster give the same records; how fast.

Plays one tournament of 8 players x 10 maps x 2 seeds (every pairing in both seats:
1,120 tron games) twice, on ``--jobs 2`` local workers and on a two-worker Dask
``LocalCluster`` (on 127.0.0.1), checks that both give the very same games, and prints:

* games a minute for each executor;
* atlas's own cost per game, apart from the bots' thinking: the wall time of each game
  minus the answer times its record holds (starting bot processes, the protocol, the
  rules, writing the record), for the built-in bots and for the external programs.

The players are chosen so that their moves do not depend on the clock (the seeded
random bot, the greedy filler, fixed-depth searches and the example program), which is
what lets two executors agree game for game.

    python benchmarks/bench_tournament.py            # the full run (a few minutes)
    python benchmarks/bench_tournament.py --quick    # 3 maps, 1 seed
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from atlas.arena.tournament import is_error, run_games, schedule_games
from atlas.maps import find_maps, read_map
from atlas.sim.records import Record

ROOT = Path(__file__).resolve().parents[1]


def players() -> list[str]:
    example = ROOT / "examples" / "bots" / "tron_bot.py"
    return [
        "random",
        "rnd2=random",
        "rnd3=random",
        "wallhugger",
        "hugger2=wallhugger",
        "vor2=voronoi",
        "cham2=chambers",
        f"example=cmd:{sys.executable} {example}",
    ]


def essence(record: Record) -> Any:
    """A game apart from answer times."""
    return (
        [p.name for p in record.players],
        record.map.hash,
        record.seed,
        [dict(t.moves) for t in record.turns],
        record.result,
        record.statuses,
    )


def thinking(record: Record) -> float:
    """Seconds the bots of a game spent answering."""
    return sum(sum(t.times.values()) for t in record.turns)


def timed(specs: list[Any], **how: Any) -> tuple[list[Record], float]:
    t0 = time.perf_counter()
    records = run_games(specs, progress=False, **how)
    return records, time.perf_counter() - t0


def atlas_cost(specs: list[Any]) -> list[tuple[float, float, int]]:
    """Per game played one at a time here: (wall time minus the bots' answers, the
    answers, turns)."""
    out: list[tuple[float, float, int]] = []
    last = [time.perf_counter()]

    def seen(i: int, record: Record) -> None:
        now = time.perf_counter()
        out.append((now - last[0] - thinking(record), thinking(record), len(record.turns)))
        last[0] = now

    run_games(specs, jobs=1, progress=False, on_record=seen)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="3 maps and 1 seed")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    maps = [read_map(p) for p in find_maps(ROOT / "maps" / "tron")][: 3 if args.quick else 10]
    seeds = 1 if args.quick else 2
    specs = schedule_games("tron", maps, players(), seeds, None, 2.0, {"vor2": 2, "cham2": 2})
    print(f"{len(specs)} games: 8 players, {len(maps)} maps, {seeds} seed(s)", flush=True)
    local, local_s = timed(specs, jobs=args.jobs)
    print(
        f"local pool, {args.jobs} workers: {len(specs) / local_s * 60:.0f} games a minute "
        f"({local_s:.1f} s)",
        flush=True,
    )
    import distributed

    with distributed.LocalCluster(
        n_workers=args.jobs,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        silence_logs=40,
    ) as cluster:
        dask, dask_s = timed(specs, scheduler=cluster.scheduler_address)
    print(
        f"dask LocalCluster, {args.jobs} workers: {len(specs) / dask_s * 60:.0f} games a "
        f"minute ({dask_s:.1f} s)"
    )
    same = sum(essence(a) == essence(b) for a, b in zip(local, dask))
    print(
        f"identical games: {same} of {len(specs)}; errors: "
        f"{sum(is_error(r) for r in local)} local, {sum(is_error(r) for r in dask)} dask"
    )
    ext = [s for s in specs if any(p.kind == "external" for p in s.players)][:40]
    own = [s for s in specs if all(p.kind == "builtin" for p in s.players)][:40]
    print(
        "atlas's own cost per game (wall time minus the bots' answers, one game at a "
        "time, median of 40):"
    )
    for label, sample in (("with the external program", ext), ("built-in bots only", own)):
        rows = atlas_cost(sample)
        cost, think, turns = (statistics.median(x) for x in zip(*rows))
        print(
            f"  {label}: {cost * 1000:.0f} ms of atlas, {think * 1000:.0f} ms of "
            f"answers, {turns:.0f} turns"
        )
    return 0 if same == len(specs) else 1


if __name__ == "__main__":
    sys.exit(main())
