"""Built-in tron bots against an outside program, in the official 2010 engine's rules.

Every atlas bot plays every outside program on every map, in both seats, through
:func:`atlas.arena.runner.play_game` with ``compat="official"`` (atlas's engine resolves a
turn exactly as the contest's ``Tron.jar`` does).  An outside program is given as
``NAME=cmd:COMMAND``: a program already built somewhere, speaking the contest's
stdin/stdout protocol.  Nothing here builds one.

Time: both sides get the same budget per move, ``--time``, first move included (the
contest engine's longer first move is not given to either side).  The runner judges a
built-in bot late only past ``1.25 * limit + 50 ms``; the outside program is judged by
that same rule (its pipes' deadline is extended by the same grace), so a program that
thinks for 99 % of its budget is not cut off by the round trip through its pipes.
Each side's own clock decides how much of the budget it thinks: set the outside
program's think time to the budget (and say so when quoting a figure).

Prints one line per game, the score per map, then for each atlas bot against each
program: wins, draws, losses, the score ``(wins + draws / 2) / games`` with a 95 %
interval (normal approximation over the games' scores 0, 1/2, 1), the games decided by
a timeout or crash, and the slowest move of each side.

Usage::

    python benchmarks/tron_outside.py MAPDIR/*.txt --bots frontline \\
        --outside winner=cmd:WINNER_BUILD/MyTronBot --time 0.1
    python benchmarks/tron_outside.py maps/tron/*.txt --bots frontline voronoi \\
        --outside winner=cmd:WINNER_BUILD/MyTronBot --time 1 --jobs 2 --out games.jsonl

The core is :func:`play_vs_outside`, a plain function returning one dict per game.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import sys
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

__all__ = [
    "OutsideGame",
    "GracedBot",
    "parse_outside",
    "schedule",
    "run_game",
    "play_vs_outside",
    "summarise",
    "score_interval",
    "format_report",
    "main",
]

#: The official engine's rules.
OFFICIAL = (("compat", "official"),)


@dataclass(frozen=True)
class OutsideGame:
    """One game: an atlas bot against an outside program on a map, the bot's seat."""

    bot: str
    outside: str
    command: str
    map_path: str
    seat: int
    seed: int
    time_limit: float
    records: str | None = None
    depth: int = 0


class GracedBot:
    """An outside bot judged late by the runner's rule for built-in bots.

    The runner hands every bot ``t0 + limit`` and judges built-in bots late only past
    ``1.25 * limit`` plus :data:`atlas.arena.runner.TIME_GRACE`; an external bot's pipes
    otherwise stop reading at ``t0 + limit`` exactly.  This wrapper extends the pipes'
    deadline by that same grace, so both sides of a game are judged alike.
    """

    def __init__(self, inner: Any, name: str) -> None:
        self.inner = inner
        self.name = name
        self.command = inner.command
        self.first_move_time = inner.first_move_time

    def start(self, game_map: Any, params: Any, player: int) -> None:
        self.inner.start(game_map, params, player)

    def move(self, state: Any, player: int, deadline: float) -> Any:
        from atlas.arena.runner import TIME_GRACE

        budget = max(deadline - time.perf_counter(), 0.0)
        return self.inner.move(state, player, deadline + 0.25 * budget + TIME_GRACE)

    def stderr_text(self) -> str:
        return self.inner.stderr_text()

    def close(self) -> None:
        self.inner.close()


def parse_outside(items: Sequence[str]) -> dict[str, str]:
    """``NAME=cmd:COMMAND`` items as name -> command line."""
    out: dict[str, str] = {}
    for item in items:
        name, eq, spec = item.partition("=")
        if not eq or not name or not spec.startswith("cmd:") or not spec[4:].strip():
            raise ValueError(f"outside program {item!r}: expected NAME=cmd:COMMAND")
        if name in out:
            raise ValueError(f"outside program {name!r} given twice")
        out[name] = spec[4:].strip()
    return out


def schedule(
    bots: Sequence[str],
    outside: Mapping[str, str],
    maps: Sequence[str | Path],
    time_limit: float,
    seeds: Sequence[int] = (0,),
    records: str | None = None,
    depth: int = 0,
) -> list[OutsideGame]:
    """Every atlas bot against every outside program, every map, both seats, every seed."""
    return [
        OutsideGame(b, name, cmd, str(m), seat, s, time_limit, records, depth)
        for b in bots
        for name, cmd in outside.items()
        for m in maps
        for s in seeds
        for seat in (0, 1)
    ]


def run_game(job: OutsideGame) -> dict[str, Any]:
    """Play one game; its result as plain data, seen from the atlas bot."""
    from atlas.arena.protocols import external_bot
    from atlas.arena.runner import bot_seed, play_game
    from atlas.bots import make_bot
    from atlas.maps import read_map

    game_map = read_map(job.map_path, game="tron")
    other = GracedBot(external_bot("tron", job.command), job.outside)
    mine: Any = job.bot
    if job.depth > 0:
        mine = make_bot("tron", job.bot, bot_seed(job.seed, job.seat))
        if hasattr(mine, "fixed_depth"):
            mine.fixed_depth = job.depth
    players: list[Any] = [mine, other] if job.seat == 0 else [other, mine]
    t0 = time.perf_counter()
    record = play_game(
        "tron",
        game_map,
        players,
        params=dict(OFFICIAL),
        seed=job.seed,
        time_limit=job.time_limit,
        first_move_time=job.time_limit,
    )
    elapsed = time.perf_counter() - t0
    me, them = job.seat, 1 - job.seat
    slowest = [0.0, 0.0]
    for turn in record.turns:
        for seat, sec in dict(turn.times or {}).items():
            slowest[int(seat)] = max(slowest[int(seat)], float(sec))
    score = float(record.result.scores[me])
    mapname = Path(job.map_path).stem
    if job.records:
        from atlas.sim.records import save_record

        folder = Path(job.records)
        folder.mkdir(parents=True, exist_ok=True)
        save_record(
            record,
            folder / f"{job.bot}-{job.outside}-{mapname}-seat{me + 1}-seed{job.seed}.json.gz",
        )
    return {
        "bot": job.bot,
        "outside": job.outside,
        "map": mapname,
        "seat": me,
        "seed": job.seed,
        "time": job.time_limit,
        "score": score,
        "outcome": "W" if score == 1.0 else "L" if score == 0.0 else "D",
        "reason": record.result.reason,
        "detail": record.result.detail,
        "turns": len(record.turns),
        "status": record.statuses[me].status,
        "outside_status": record.statuses[them].status,
        "slowest": slowest[me],
        "outside_slowest": slowest[them],
        "seconds": round(elapsed, 3),
    }


def play_vs_outside(
    bots: Sequence[str],
    outside: Mapping[str, str],
    maps: Sequence[str | Path],
    *,
    time_limit: float = 0.1,
    seeds: Sequence[int] = (0,),
    jobs: int = 1,
    records: str | None = None,
    depth: int = 0,
    on_result: Any = None,
) -> list[dict[str, Any]]:
    """Play every atlas bot against every outside program; one result dict per game.

    Parameters
    ----------
    bots : sequence of str
        Built-in tron bots.
    outside : mapping
        Name -> command line of each outside program (the contest protocol).
    maps : sequence of paths
        Tron map files (the contest format).
    time_limit : float
        Seconds per move for both sides, first move included.
    seeds : sequence of int
        Game seeds (the built-in bots' generators).
    jobs : int
        Games played at once (1: one at a time, the fairest timing).
    records : str, optional
        Folder to save every game's replay record in.
    depth : int
        When positive, the built-in bots' searches go exactly this many turns whatever
        the clock (their ``fixed_depth``): a diagnostic that compares evaluations apart
        from speed, against an outside program limited to the same depth.
    on_result : callable, optional
        Called with each result as it arrives (in schedule order).

    Returns
    -------
    list of dict
        Per game: ``bot``, ``outside``, ``map``, ``seat`` (the atlas bot's, 0 or 1),
        ``score`` (1, 0.5, 0 for the atlas bot), ``outcome`` (W, D, L), ``reason``,
        ``turns``, ``status`` and ``outside_status`` (``ok``, ``timeout``, ...), the
        slowest move of each side (``slowest``, ``outside_slowest``) and ``seconds``.
    """
    games = schedule(bots, outside, maps, time_limit, seeds, records, depth)
    results = []
    if jobs <= 1:
        for g in games:
            r = run_game(g)
            results.append(r)
            if on_result is not None:
                on_result(r)
        return results
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for r in pool.map(run_game, games, chunksize=1):
            results.append(r)
            if on_result is not None:
                on_result(r)
    return results


def score_interval(scores: Sequence[float]) -> tuple[float, float, float]:
    """``(low, mean, high)``: the mean game score and its 95 % normal interval."""
    n = len(scores)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(scores) / n
    var = sum((x - mean) ** 2 for x in scores) / (n - 1) if n > 1 else 0.25
    half = 1.96 * math.sqrt(var / n)
    return max(mean - half, 0.0), mean, min(mean + half, 1.0)


def summarise(results: Sequence[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    """Per (bot, outside program): W/D/L, score with interval, failures, slowest moves.

    Also the score over the games where neither side timed out or crashed
    (``clean_*``): on a loaded machine a move can come late on either side.
    """
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for r in results:
        s = out.setdefault(
            (r["bot"], r["outside"]),
            {
                "W": 0,
                "D": 0,
                "L": 0,
                "scores": [],
                "failures": 0,
                "outside_failures": 0,
                "slowest": 0.0,
                "outside_slowest": 0.0,
                "collided": 0,
            },
        )
        s[r["outcome"]] += 1
        s["scores"].append(r["score"])
        s["failures"] += r["status"] != "ok"
        s["outside_failures"] += r["outside_status"] != "ok"
        s["slowest"] = max(s["slowest"], r["slowest"])
        s["outside_slowest"] = max(s["outside_slowest"], r["outside_slowest"])
        s["collided"] += "collided" in (r["detail"] or "")
    for (bot, other), s in out.items():
        s["low"], s["mean"], s["high"] = score_interval(s["scores"])
        s["games"] = len(s.pop("scores"))
        clean = [
            r["score"]
            for r in results
            if r["bot"] == bot
            and r["outside"] == other
            and r["status"] == "ok"
            and r["outside_status"] == "ok"
        ]
        s["clean_games"] = len(clean)
        s["clean_low"], s["clean_mean"], s["clean_high"] = score_interval(clean)
    return out


def format_game(r: dict[str, Any]) -> str:
    """One game as a line."""
    fail = (
        ""
        if r["status"] == "ok" and r["outside_status"] == "ok"
        else f"  [{r['status']}/{r['outside_status']}: {r['detail']}]"
    )
    return (
        f"{r['bot']:>10} vs {r['outside']:<8} {r['map']:<14} seat {r['seat'] + 1} "
        f"{r['outcome']} {r['reason']:<8} {r['turns']:>4} turns  slowest "
        f"{r['slowest']:.3f}/{r['outside_slowest']:.3f} s{fail}"
    )


def format_report(results: Sequence[dict[str, Any]]) -> str:
    """Per-map table and the summary of every (bot, outside program) pair."""
    lines = []
    pairs = sorted({(r["bot"], r["outside"]) for r in results})
    for bot, other in pairs:
        rs = [r for r in results if r["bot"] == bot and r["outside"] == other]
        lines.append(
            f"{bot} against {other}, per map (seat 1 | seat 2 outcomes, {bot}'s points):"
        )
        for m in sorted({r["map"] for r in rs}):
            here = [r for r in rs if r["map"] == m]
            seat = {0: "", 1: ""}
            for r in here:
                seat[r["seat"]] += r["outcome"]
            pts = sum(r["score"] for r in here)
            lines.append(f"  {m:<14} {seat[0]:>3} | {seat[1]:<3} {pts:4.1f} / {len(here)}")
    lines.append("")
    for (bot, other), s in sorted(summarise(results).items()):
        lines.append(
            f"{bot} vs {other}: {s['W']} wins, {s['D']} draws ({s['collided']} head-on), "
            f"{s['L']} losses in {s['games']} games = {100 * s['mean']:.1f} % "
            f"[95 % interval {100 * s['low']:.1f}, {100 * s['high']:.1f}]; "
            f"timeouts/crashes {s['failures']} (theirs {s['outside_failures']}); "
            f"slowest move {s['slowest']:.3f} s (theirs {s['outside_slowest']:.3f} s)"
        )
        if s["clean_games"] < s["games"]:
            lines.append(
                f"  without the {s['games'] - s['clean_games']} game(s) with a timeout or "
                f"crash: {100 * s['clean_mean']:.1f} % [{100 * s['clean_low']:.1f}, "
                f"{100 * s['clean_high']:.1f}] in {s['clean_games']} games"
            )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("maps", nargs="+", help="tron map files (contest format)")
    ap.add_argument("--bots", nargs="+", default=["frontline"], help="built-in tron bots")
    ap.add_argument(
        "--outside",
        nargs="+",
        required=True,
        metavar="NAME=cmd:COMMAND",
        help="outside programs, e.g. winner=cmd:WINNER_BUILD/MyTronBot",
    )
    ap.add_argument(
        "--time",
        type=float,
        default=0.1,
        help="seconds per move for both sides, first move included",
    )
    ap.add_argument("--seeds", type=int, default=1, help="seeds per map and seat")
    ap.add_argument("--jobs", type=int, default=1, help="games played at once")
    ap.add_argument(
        "--depth",
        type=int,
        default=0,
        help="built-in searches go exactly N turns whatever the clock "
        "(a diagnostic; the outside program should be limited alike)",
    )
    ap.add_argument("--records", help="save every game's replay record in this folder")
    ap.add_argument("--out", help="write every result as JSON lines here")
    args = ap.parse_args(argv)
    try:
        outside = parse_outside(args.outside)
    except ValueError as exc:
        ap.error(str(exc))
    from atlas.bots import bot_names

    unknown = [b for b in args.bots if b not in bot_names("tron")]
    if unknown:
        ap.error(
            f"unknown tron bot(s) {', '.join(unknown)}; built-in: "
            f"{', '.join(bot_names('tron'))}"
        )
    n = len(args.bots) * len(outside) * len(args.maps) * 2 * args.seeds
    depth = f", built-in searches {args.depth} turns deep" if args.depth else ""
    print(
        f"tron, official rules: {n} games, {args.time:g} s a move for both sides{depth}, "
        f"{args.jobs} at a time",
        flush=True,
    )
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(open(args.out, "w", encoding="utf-8")) if args.out else None

        def show(r: dict[str, Any]) -> None:
            print(format_game(r), flush=True)
            if out is not None:
                out.write(json.dumps(r) + "\n")
                out.flush()

        t0 = time.perf_counter()
        results = play_vs_outside(
            args.bots,
            outside,
            args.maps,
            time_limit=args.time,
            seeds=range(args.seeds),
            jobs=args.jobs,
            records=args.records,
            depth=args.depth,
            on_result=show,
        )
    print()
    print(format_report(results))
    print(f"\n{len(results)} games in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
