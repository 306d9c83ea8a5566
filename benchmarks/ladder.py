"""Strength ladder: a round robin of built-in bots on a game's bundled maps.

Every pair of bots plays on every map of ``maps/<game>/``, in both seats, with fixed
seeds and a fixed time per move, through :func:`atlas.sim.runner.play_game` (the same
loop as real games, so timeouts and crashes count).  Games run in a process pool.  It
prints the standings (points and points %) and the pairwise score matrix (row bot's
points % against the column bot), and can write every result as JSON lines.

Usage::

    python benchmarks/ladder.py tron --time 0.1 --jobs 2
    python benchmarks/ladder.py tron --bots wallhugger voronoi --maps duel arena --seeds 2
    python benchmarks/ladder.py isolation --time 0.2 --out isolation-ladder.jsonl
    python benchmarks/ladder.py tron --depth 5 --bots voronoi chambers frontline
    python benchmarks/ladder.py tron --depth 5 voronoi=6 --bots voronoi frontline

``--depth N`` (tron) makes every searching bot search exactly ``N`` turns whatever the
clock says, which compares the evaluations apart from their speed; ``BOT=N`` entries
give single bots another depth (0: search by the clock).  The time per move then only
bounds the rest of their play (the separated endgame), and should be generous enough
that no fixed-depth search times out.

Generic over games: every ordered selection of distinct bots fills the seats (for two
players: every pairing in both seats); with fewer bots than seats they fill the seats in
turn, in every rotation.  A seat's points count for its bot against every other bot in
that game.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

__all__ = ["Job", "schedule", "run_job", "fixed_depth_bot", "parse_depths", "standings",
           "pair_intervals", "format_table", "main"]


@dataclass(frozen=True)
class Job:
    """One game of the ladder: map file, the bot in each seat, the seed."""

    game: str
    map_path: str
    bots: tuple[str, ...]
    seed: int
    time_limit: float
    params: tuple[tuple[str, Any], ...] = ()
    depths: tuple[tuple[str, int], ...] = ()


def schedule(game: str, bots: Sequence[str], maps: Sequence[Path], seeds: Sequence[int],
             time_limit: float, num_players: int,
             params: dict[str, Any] | None = None,
             depths: dict[str, int] | None = None) -> list[Job]:
    """Every bot pairing (all seat orders) on every map with every seed.

    ``depths`` maps bot names to a fixed search depth (:func:`fixed_depth_bot`).
    """
    jobs = []
    p = tuple(sorted((params or {}).items()))
    d = tuple(sorted((depths or {}).items()))
    if len(bots) >= num_players:
        combos = list(itertools.permutations(bots, num_players))
    else:
        # Fewer bots than seats: the bots fill the seats in turn, every rotation.
        combos = [tuple(bots[(i + r) % len(bots)] for i in range(num_players))
                  for r in range(len(bots))]
    for combo in combos:
        for m in maps:
            for s in seeds:
                jobs.append(Job(game, str(m), tuple(combo), s, time_limit, p, d))
    return jobs


def run_job(job: Job) -> dict[str, Any]:
    """Play one game; return the bots, scores, reason and timing as plain data."""
    from atlas.maps import read_map
    from atlas.arena.runner import bot_seed, play_game

    game_map = read_map(job.map_path, job.game)
    players: list[Any] = list(job.bots)
    depths = dict(job.depths)
    for seat, name in enumerate(job.bots):
        if depths.get(name, 0) > 0:
            players[seat] = fixed_depth_bot(job.game, name, bot_seed(job.seed, seat),
                                            depths[name])
    t0 = time.perf_counter()
    record = play_game(job.game, game_map, players, params=dict(job.params) or None,
                       seed=job.seed, time_limit=job.time_limit)
    elapsed = time.perf_counter() - t0
    statuses = [getattr(s, "status", "ok") for s in record.statuses]
    slowest = [0.0] * len(job.bots)
    for turn in record.turns:
        for seat, sec in dict(getattr(turn, "times", {}) or {}).items():
            slowest[int(seat)] = max(slowest[int(seat)], float(sec))
    return {"map": Path(job.map_path).stem, "bots": list(job.bots), "seed": job.seed,
            "scores": list(record.result.scores), "reason": record.result.reason,
            "detail": record.result.detail, "turns": len(record.turns),
            "statuses": statuses, "slowest_move": slowest, "seconds": round(elapsed, 3)}


def fixed_depth_bot(game: str, name: str, seed: int, depth: int) -> Any:
    """Built-in bot ``name`` searching exactly ``depth`` turns (bots with no search as is)."""
    from atlas.bots import make_bot

    bot = make_bot(game, name, seed)
    if hasattr(bot, "fixed_depth"):
        bot.fixed_depth = depth
    return bot


def parse_depths(items: Sequence[str], bots: Sequence[str], fail: Any) -> dict[str, int]:
    """``--depth`` items (``N`` for every bot, ``BOT=N`` for one) as bot -> depth > 0."""
    every = 0
    one: dict[str, int] = {}
    for item in items:
        name, eq, value = item.rpartition("=")
        try:
            n = int(value)
        except ValueError:
            fail(f"--depth {item!r}: expected N or BOT=N with N a whole number")
        if n < 0:
            fail(f"--depth {item!r}: the depth must be 0 or more")
        if not eq:
            every = n
        elif name not in bots:
            fail(f"--depth {item!r}: {name!r} is not one of the bots {', '.join(bots)}")
        else:
            one[name] = n
    depths = {b: one.get(b, every) for b in bots}
    return {b: n for b, n in depths.items() if n > 0}


Tally = dict[str, tuple[float, int]]
PairTally = dict[tuple[str, str], tuple[float, int]]


def standings(results: Sequence[dict[str, Any]], bots: Sequence[str]
              ) -> tuple[Tally, PairTally]:
    """Points and games per bot, and per ordered pair (row bot vs column bot)."""
    total = {b: (0.0, 0) for b in bots}
    pair: dict[tuple[str, str], tuple[float, int]] = {}
    for r in results:
        seats = r["bots"]
        for i, b in enumerate(seats):
            pts, n = total[b]
            total[b] = (pts + r["scores"][i], n + 1)
            for j, o in enumerate(seats):
                if i == j or o == b:
                    continue
                pts, n = pair.get((b, o), (0.0, 0))
                pair[(b, o)] = (pts + r["scores"][i], n + 1)
    return total, pair


def pair_intervals(results: Sequence[dict[str, Any]]
                   ) -> dict[tuple[str, str], tuple[float, float, float, int]]:
    """Per ordered pair: ``(low, mean, high, games)`` of the row bot's score per game.

    The interval is the mean score plus or minus 1.96 standard errors (scores 0, 0.5 or
    1 per game, clipped to [0, 1]): with 26 games it is about +-0.18 wide, so a single
    ladder tells a 65 % bot from a 50 % one only roughly.
    """
    scores: dict[tuple[str, str], list[float]] = {}
    for r in results:
        seats = r["bots"]
        for i, b in enumerate(seats):
            for j, o in enumerate(seats):
                if i != j and o != b:
                    scores.setdefault((b, o), []).append(float(r["scores"][i]))
    out = {}
    for key, xs in scores.items():
        n = len(xs)
        mean = sum(xs) / n
        var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.25
        half = 1.96 * (var / n) ** 0.5
        out[key] = (max(mean - half, 0.0), mean, min(mean + half, 1.0), n)
    return out


def format_table(results: Sequence[dict[str, Any]], bots: Sequence[str]) -> str:
    """The standings and the pairwise matrix as text."""
    total, pair = standings(results, bots)
    order = sorted(bots, key=lambda b: -(total[b][0] / max(total[b][1], 1)))
    width = max(8, *(len(b) for b in bots)) + 1
    lines = [f"{'bot':<{width}} {'games':>6} {'points':>8} {'points %':>9}"]
    for b in order:
        pts, n = total[b]
        lines.append(f"{b:<{width}} {n:>6} {pts:>8.1f} {100 * pts / max(n, 1):>8.1f}%")
    lines.append("")
    lines.append("points % of the row bot against the column bot:")
    lines.append(" " * width + "".join(f"{b:>{width}}" for b in order))
    for b in order:
        cells = []
        for o in order:
            if b == o or (b, o) not in pair:
                cells.append(f"{'-':>{width}}")
            else:
                pts, n = pair[(b, o)]
                cells.append(f"{100 * pts / n:>{width - 1}.1f}%")
        lines.append(f"{b:<{width}}" + "".join(cells))
    lines.append("")
    lines.append("each pair, row bot's points % with a 95 % interval (normal approximation "
                 "over the games' scores):")
    for (b, o), (lo, mean, hi, n) in sorted(pair_intervals(results).items()):
        if order.index(b) < order.index(o):
            lines.append(f"  {b} vs {o}: {100 * mean:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
                         f" over {n} games")
    bad = [r for r in results if any(s not in ("ok", "") for s in r["statuses"])]
    if bad:
        lines.append("")
        lines.append(f"{len(bad)} game(s) with a timeout/crash/invalid status:")
        for r in bad[:10]:
            lines.append(f"  {r['map']} {r['bots']} seed {r['seed']}: {r['statuses']} "
                         f"({r['detail']})")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    from atlas.bots import bot_names
    from atlas.maps import find_maps
    from atlas.sim import get_game

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("--bots", nargs="+", help="bots (default: every built-in but random)")
    ap.add_argument("--maps", nargs="+", help="map names or files (default: maps/<game>/*)")
    ap.add_argument("--seeds", type=int, default=1, help="seeds per pairing and map")
    ap.add_argument("--time", type=float, default=0.1, help="seconds per move")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                    help="game parameter (value parsed as JSON when possible)")
    ap.add_argument("--depth", nargs="+", default=[], metavar="N|BOT=N",
                    help="tron: every search goes exactly N turns, whatever the clock "
                         "(compares the evaluations apart from their speed); BOT=N "
                         "gives one bot another depth, 0 for its timed search")
    ap.add_argument("--out", help="write every result as JSON lines here")
    args = ap.parse_args(argv)

    info = get_game(args.game).info
    bots = args.bots or [b for b in bot_names(args.game) if b != "random"]
    folder = ROOT / "maps" / args.game
    all_maps = find_maps(folder)
    if args.maps:
        by_name = {p.stem: p for p in all_maps}
        maps = [by_name[m] if m in by_name else Path(m) for m in args.maps]
    else:
        maps = all_maps
    params: dict[str, Any] = {}
    for kv in args.param:
        key, _, value = kv.partition("=")
        try:
            params[key] = json.loads(value)
        except json.JSONDecodeError:
            params[key] = value
    depths = parse_depths(args.depth, bots, ap.error)
    if depths and args.game != "tron":
        ap.error("--depth is for the tron searches")
    jobs = schedule(args.game, bots, maps, range(args.seeds), args.time, info.num_players,
                    params, depths)
    depth = (", fixed depths " + ", ".join(f"{b} {n}" for b, n in sorted(depths.items()))
             if depths else "")
    print(f"{args.game}: {len(bots)} bots, {len(maps)} maps, {len(jobs)} games, "
          f"{args.time:g} s per move{depth}, {args.jobs} worker(s)", flush=True)
    t0 = time.perf_counter()
    results = []
    out = open(args.out, "w", encoding="utf-8") if args.out else None
    try:
        with ProcessPoolExecutor(max_workers=max(args.jobs, 1)) as pool:
            for r in pool.map(run_job, jobs, chunksize=1):
                results.append(r)
                if out is not None:
                    out.write(json.dumps(r) + "\n")
                    out.flush()
    finally:
        if out is not None:
            out.close()
    print(format_table(results, bots))
    print(f"\n{len(results)} games in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
