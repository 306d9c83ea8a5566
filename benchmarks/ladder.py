"""Strength ladder: a round robin of bots on a game's maps, with intervals per pair.

The schedule, the games and the standings are ``atlas tournament``'s own
(:mod:`atlas.arena.tournament`): every map x every seating x every seed, played through
the same runner as real games (so timeouts and crashes count), run in a process pool.
On top of the standings it prints each pair's score with a 95 % interval, the slowest
answer of each bot and the games where a bot failed, and can write every game's result
as JSON lines.

Usage::

    python benchmarks/ladder.py tron --time 0.1 --jobs 2
    python benchmarks/ladder.py tron --bots wallhugger voronoi --maps duel arena --seeds 2
    python benchmarks/ladder.py isolation --time 0.2 --out isolation-ladder.jsonl
    python benchmarks/ladder.py tron --depth 5 --bots voronoi chambers frontline
    python benchmarks/ladder.py tron --depth 5 voronoi=6 --bots voronoi frontline
    python benchmarks/ladder.py tron --effort 400 --bots apex frontline
    python benchmarks/ladder.py tron --time 0.1 --effort apex200=200 --bots apex apex200=apex

Built-in bots play at their default effort per move (``atlas.bots.registry.bot_efforts``:
the same games on any machine) unless ``--time`` is given, which puts every bot on the
clock; ``--effort N`` gives every built-in bot effort ``N``, ``--effort NAME=N`` one
player (a bot under another name, ``NAME=BOT``, plays beside itself: effort against the
clock is how ``docs/bots.md`` calibrates the efforts).

``--depth N`` (tron) makes every searching bot search exactly ``N`` turns whatever the
clock says, which compares the evaluations apart from their speed; ``BOT=N`` entries
give single bots another depth (0: search by the clock).  The time per move then only
bounds the rest of their play (the separated endgame), and should be generous enough
that no fixed-depth search times out.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from atlas.arena.players import parse_player
from atlas.arena.rating import score_interval
from atlas.arena.tournament import (
    Standings,
    is_error,
    load_maps,
    run_games,
    schedule_games,
    standings,
)
from atlas.bots.registry import bot_efforts, bot_names
from atlas.maps import find_maps
from atlas.resources import maps_dir
from atlas.sim.records import Record

__all__ = ["parse_depths", "parse_efforts", "slowest_answers", "format_ladder", "main"]


def parse_levels(
    flag: str,
    items: Sequence[str],
    names: Sequence[str],
    fail: Callable[[str], Any],
    who: str = "player",
) -> tuple[int | None, dict[str, int]]:
    """``flag``'s items, ``N`` for every one of ``names`` or ``NAME=N`` for one, as (the
    level for every one or ``None``, name -> level): ``--depth`` and ``--effort`` alike.
    ``who`` is what the names are, for the messages."""
    word, key = flag.lstrip("-"), who.upper()
    every: int | None = None
    one: dict[str, int] = {}
    for item in items:
        name, eq, value = item.rpartition("=")
        try:
            n = int(value)
        except ValueError:
            fail(f"{flag} {item!r}: expected N or {key}=N with N a whole number")
            continue
        if n < 0:
            fail(f"{flag} {item!r}: the {word} must be 0 or more")
        if not eq:
            every = n
        elif name not in names:
            fail(f"{flag} {item!r}: {name!r} is not one of the {who}s {', '.join(names)}")
        else:
            one[name] = n
    return every, one


def parse_depths(
    items: Sequence[str], bots: Sequence[str], fail: Callable[[str], Any]
) -> dict[str, int]:
    """``--depth`` items (``N`` for every bot, ``BOT=N`` for one) as bot -> depth > 0."""
    every, one = parse_levels("--depth", items, bots, fail, "bot")
    depths = {b: one.get(b, every or 0) for b in bots}
    return {b: n for b, n in depths.items() if n > 0}


def parse_efforts(
    game: str,
    items: Sequence[str],
    bots: Sequence[str],
    timed: bool,
    fail: Callable[[str], Any],
) -> dict[str, int]:
    """Player name -> effort from ``--effort`` items (``N`` for every built-in bot,
    ``NAME=N`` for one); the built-in bots' defaults when no item names them and the
    clock was not asked for (``timed``); 0 drops a player to the clock."""
    players = [parse_player(b) for b in bots]
    table = bot_efforts(game)
    every, one = parse_levels("--effort", items, [p.name for p in players], fail)
    out: dict[str, int] = {}
    for p in players:
        if p.builtin is None:  # a program: the clock
            continue
        if p.name in one:
            n = one[p.name]
        elif every is not None:
            n = every
        else:
            n = 0 if timed else table.get(p.builtin, 0)
        if n > 0:
            out[p.name] = n
    return out


def slowest_answers(records: Sequence[Record]) -> dict[str, float]:
    """The slowest answer of each bot over ``records``, in seconds."""
    out: dict[str, float] = {}
    for rec in records:
        for turn in rec.turns:
            for seat, sec in turn.times.items():
                name = rec.players[int(seat)].name
                out[name] = max(out.get(name, 0.0), float(sec))
    return out


def format_ladder(table: Standings, records: Sequence[Record]) -> str:
    """The standings, each pair's score with its interval, slow answers and failures."""
    lines = [
        table.format_table(),
        "",
        "each pair, the row bot's score per game with a 95 % interval:",
    ]
    order = [r.bot for r in table.rows]
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            w, d, lost = table.head_to_head.get(a, {}).get(b, (0, 0, 0))
            if w + d + lost == 0:
                continue
            lo, mean, hi = score_interval(w, d, lost)
            lines.append(
                f"  {a} vs {b}: {100 * mean:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
                f" over {w + d + lost} games ({w}-{d}-{lost})"
            )
    slow = slowest_answers(records)
    lines += [
        "",
        "slowest answer: " + ", ".join(f"{b} {slow[b]:.3f} s" for b in order if b in slow),
    ]
    bad = [r for r in records if not is_error(r) and any(s.status != "ok" for s in r.statuses)]
    if bad:
        lines += ["", f"{len(bad)} game(s) where a bot failed:"]
        for r in bad[:10]:
            lines.append(
                f"  {r.map.name} {[p.name for p in r.players]} seed {r.seed}: "
                f"{[s.status for s in r.statuses]} ({r.result.detail})"
            )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", help="the game")
    ap.add_argument(
        "--bots",
        nargs="+",
        help="bots: built-in names or cmd:COMMAND (default: every built-in but random)",
    )
    ap.add_argument(
        "--maps",
        nargs="+",
        help="map names of maps/GAME, or map files and folders (default: maps/GAME)",
    )
    ap.add_argument("--seeds", type=int, default=1, help="games per pairing, seating, map")
    ap.add_argument(
        "--time",
        type=float,
        default=None,
        help="seconds per move by the clock (default: built-in bots at their default "
        "effort, programs 0.1 s)",
    )
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="game parameter (value parsed as JSON when possible)",
    )
    ap.add_argument(
        "--depth",
        nargs="+",
        default=[],
        metavar="N|BOT=N",
        help="tron: every search goes exactly N turns, whatever the clock "
        "(compares the evaluations apart from their speed); BOT=N "
        "gives one bot another depth, 0 for its timed search",
    )
    ap.add_argument(
        "--effort",
        nargs="+",
        default=[],
        metavar="N|NAME=N",
        help="built-in bots' fixed effort per move (polls of their search's clock, "
        "docs/bots.md): N for every one, NAME=N for one player, 0 for the clock",
    )
    ap.add_argument("--out", help="write every game's result as JSON lines here")
    args = ap.parse_args(argv)

    bots = args.bots or [b for b in bot_names(args.game) if b != "random"]
    folder = maps_dir() / args.game
    by_name = {p.stem: p for p in find_maps(folder)} if folder.is_dir() else {}
    paths = [by_name.get(m, m) for m in args.maps] if args.maps else [folder]
    maps = load_maps(args.game, paths)
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
    efforts = parse_efforts(args.game, args.effort, bots, args.time is not None, ap.error)
    limit = 0.1 if args.time is None else args.time
    specs = schedule_games(
        args.game, maps, bots, args.seeds, params, limit, depths, efforts=efforts
    )
    depth = (
        ", fixed depths " + ", ".join(f"{b} {n}" for b, n in sorted(depths.items()))
        if depths
        else ""
    )
    effort = (
        ", efforts " + ", ".join(f"{b} {n}" for b, n in sorted(efforts.items()))
        if efforts
        else ""
    )
    print(
        f"{args.game}: {len(bots)} bots, {len(maps)} maps, {len(specs)} games, "
        f"{limit:g} s per move by the clock{effort}{depth}, {args.jobs} worker(s)",
        flush=True,
    )
    t0 = time.perf_counter()
    records = run_games(specs, jobs=args.jobs, progress=sys.stderr.isatty())
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            for rec in records:
                r = rec.result
                out.write(
                    json.dumps(
                        {
                            "map": rec.map.name,
                            "bots": [p.name for p in rec.players],
                            "seed": rec.seed,
                            "scores": list(r.scores),
                            "reason": r.reason,
                            "detail": r.detail,
                            "turns": len(rec.turns),
                            "statuses": [s.status for s in rec.statuses],
                        }
                    )
                    + "\n"
                )
    print(format_ladder(standings(records, bots), records))
    print(f"\n{len(records)} games in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
