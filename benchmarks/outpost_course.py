"""Outpost bots against the 2014 course's players: mean score over every seat rotation.

Each atlas bot plays games of four: itself and three course players (a *set*), once in
every rotation of the seats, on every map given, ``T = 200``, ``r = 10``, ``L = 20``,
``W = 5``, a time limit per move (1 s by default).  A bot's score in a game is the
fraction of the three others it beats (1 first of four, 0 last, 0.5 average; ties count
one half: :attr:`atlas.sim.base.Outcome.scores`).  Games where a course player failed
(crash, timeout, bad answer) are reported and left out of the mean, as in the issue's
table.

The course players are the groups' final Java players of the public 2014 course
repository, compiled outside atlas, and run behind a small JSON-lines wrapper (an
atlas external bot: ``python3 COURSE_BOT CLASSES GROUP``); neither is part of atlas, so
both are arguments.

Usage::

    python benchmarks/outpost_course.py --classes DIR --course-bot PATH \\
        --bots planner balanced MAP [MAP ...]
    python benchmarks/outpost_course.py --classes DIR --course-bot PATH \\
        --rank group1 group2 group3 group4 --games 6 MAP [MAP ...]

``--rank`` plays a short round among course players only (each game four groups drawn
so that every group plays about equally often, a seeded draw) and prints their mean
scores: how the strongest three are picked for ``--sets``.

Prints one line per game (map, set, rotation, the bot's score, its cells and outposts
at the end, the failures) and then the table: bot, mean score, games, games dropped
(a course player crashed), the mean per map, and the bot's mean cells and outposts at
the end.  A bot may be given as ``NAME[key=value,...]`` to change fields of its
``config`` (the planner's ablations: ``planner[defend=0]``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

__all__ = ["DEFAULT_SETS", "course_command", "schedule", "play_one", "table", "main"]

#: The opponents of issue 19's first measurement.
DEFAULT_SETS = (("group2", "group5", "group8"), ("group3", "group6", "group1"))
#: The parameters of the course's growth games.
PARAMS = {"r": 10, "L": 20, "W": 5}


def course_command(python: str, course_bot: str, classes: str, group: str) -> str:
    """The atlas player spec of one course player."""
    return f"cmd:{python} {course_bot} {classes} {group}"


def schedule(
    bots: Sequence[str],
    maps: Sequence[str],
    sets: Sequence[Sequence[str]],
    rotations: Sequence[int],
) -> list[dict[str, Any]]:
    """Every game: one per bot, map, set and rotation (the bot in seat ``-rot mod 4``)."""
    games = []
    for bot in bots:
        for m in maps:
            for s in sets:
                for rot in rotations:
                    seats = [bot] + list(s)
                    seats = seats[rot:] + seats[:rot]
                    games.append(
                        {
                            "bot": bot,
                            "map": m,
                            "set": list(s),
                            "rot": rot,
                            "seats": seats,
                            "me": (4 - rot) % 4,
                        }
                    )
    return games


def rank_schedule(
    groups: Sequence[str], maps: Sequence[str], games: int, seed: int
) -> list[dict[str, Any]]:
    """``games`` games per map among the course ``groups``, four a game: each game seats
    the four groups that have played least so far (ties by a seeded draw), in a seeded
    order."""
    import numpy as np

    rng = np.random.default_rng(seed)
    played = {g: 0 for g in groups}
    out = []
    for m in maps:
        for _ in range(games):
            noise = rng.random(len(groups))
            pick = sorted(groups, key=lambda g: (played[g], noise[list(groups).index(g)]))[:4]
            seats = [pick[i] for i in rng.permutation(4)]
            for g in seats:
                played[g] += 1
            out.append(
                {"bot": None, "map": m, "set": seats, "rot": 0, "seats": seats, "me": None}
            )
    return out


def make_variant(spec: str) -> Any:
    """A built-in bot from ``NAME`` or ``NAME[key=value,...]``: the keys replace fields
    of the bot's ``config`` dataclass (``planner[defend=0,passes=1]``), for ablations.
    Other specs (``cmd:...``) are returned as they are."""
    if "[" not in spec or spec.startswith("cmd:"):
        return spec
    import dataclasses

    from atlas.bots import make_bot

    name, _, rest = spec.partition("[")
    bot = make_bot("outpost", name)
    changes: dict[str, Any] = {}
    for item in filter(None, rest.rstrip("]").split(",")):
        key, _, text = item.partition("=")
        old = getattr(bot.config, key.strip())
        if isinstance(old, bool):
            changes[key.strip()] = text.strip().lower() in ("1", "true", "yes", "on")
        elif isinstance(old, tuple):
            changes[key.strip()] = tuple(float(v) for v in text.split("/") if v)
        else:
            changes[key.strip()] = type(old)(text)
    bot.config = dataclasses.replace(bot.config, **changes)
    bot.name = spec
    return bot


def play_one(
    game: dict[str, Any],
    course: dict[str, str],
    turns: int,
    limit: float,
) -> dict[str, Any]:
    """Play one scheduled game; the result as plain data."""
    from atlas.arena.runner import play_game
    from atlas.maps import read_map

    players = [
        make_variant(p)
        if p == game["bot"]
        else course_command(course["python"], course["bot"], course["classes"], p)
        for p in game["seats"]
    ]
    params = dict(PARAMS, T=turns)
    t0 = time.perf_counter()
    rec = play_game(
        "outpost",
        read_map(game["map"], game="outpost"),
        players,
        params=params,
        time_limit=limit,
    )
    final = rec.final
    cells = [int(a) + int(b) for a, b in zip(final["land"], final["water"])]
    times = [max((t.times.get(s, 0.0) for t in rec.turns), default=0.0) for s in range(4)]
    return dict(
        game,
        scores=list(rec.result.scores),
        statuses=[s.status for s in rec.statuses],
        cells=cells,
        outposts=[len(o) for o in final["outposts"]],
        max_time=times,
        seconds=round(time.perf_counter() - t0, 1),
    )


def _line(res: dict[str, Any]) -> str:
    me = res["me"]
    name = Path(res["map"]).stem
    if me is None:
        return (
            f"{name} {' '.join(res['set'])} scores "
            f"{' '.join(f'{s:.2f}' for s in res['scores'])} cells {res['cells']} "
            f"outposts {res['outposts']} {res['statuses']} {res['seconds']} s"
        )
    return (
        f"{res['bot']} {name} {'/'.join(res['set'])} rot {res['rot']} score "
        f"{res['scores'][me]:.2f} cells {res['cells'][me]} of {res['cells']} outposts "
        f"{res['outposts'][me]} of {res['outposts']} slowest {res['max_time'][me]:.3f} s "
        f"{res['statuses']} {res['seconds']} s"
    )


def dropped(res: dict[str, Any]) -> bool:
    """A course player failed in this game (it is left out of the mean)."""
    return any(st != "ok" for i, st in enumerate(res["statuses"]) if i != res["me"])


def table(results: Sequence[dict[str, Any]]) -> str:
    """The markdown table: bot, mean score, games, dropped; then the mean per map."""
    bots = list(dict.fromkeys(r["bot"] for r in results))
    maps = list(dict.fromkeys(Path(r["map"]).stem for r in results))
    head = (
        "| atlas bot | mean score | games | crashes dropped | "
        + " | ".join(maps)
        + " | cells | outposts |"
    )
    lines = [head, "|---|---:|---:|---:|" + "---:|" * (len(maps) + 2)]
    for b in bots:
        mine = [r for r in results if r["bot"] == b]
        kept = [r["scores"][r["me"]] for r in mine if not dropped(r)]
        per = []
        for m in maps:
            k = [
                r["scores"][r["me"]]
                for r in mine
                if Path(r["map"]).stem == m and not dropped(r)
            ]
            per.append(f"{statistics.fmean(k):.2f}" if k else "-")
        mean = f"{statistics.fmean(kept):.3f}" if kept else "-"
        ok = [r for r in mine if not dropped(r)]
        cells = f"{statistics.fmean(r['cells'][r['me']] for r in ok):.0f}" if ok else "-"
        outs = f"{statistics.fmean(r['outposts'][r['me']] for r in ok):.1f}" if ok else "-"
        lines.append(
            f"| `{b}` | {mean} | {len(kept)} | {len(mine) - len(kept)} | "
            + " | ".join(per)
            + f" | {cells} | {outs} |"
        )
    return "\n".join(lines)


def rank_table(results: Sequence[dict[str, Any]]) -> str:
    """Mean score of every course group over the games it played without failing."""
    by: dict[str, list[float]] = {}
    fails: dict[str, int] = {}
    for r in results:
        for seat, g in enumerate(r["seats"]):
            if r["statuses"][seat] == "ok":
                by.setdefault(g, []).append(r["scores"][seat])
            else:
                fails[g] = fails.get(g, 0) + 1
    rows = sorted(by, key=lambda g: -statistics.fmean(by[g]))
    lines = ["| course player | mean score | games | failed |", "|---|---:|---:|---:|"]
    for g in rows:
        lines.append(
            f"| {g} | {statistics.fmean(by[g]):.3f} | {len(by[g])} | {fails.get(g, 0)} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("maps", nargs="+", help="Outpost map files")
    ap.add_argument(
        "--classes",
        required=True,
        help="folder of the compiled course players (built outside the repository)",
    )
    ap.add_argument(
        "--course-bot", required=True, help="the JSON-lines wrapper that runs one course player"
    )
    ap.add_argument("--python", default="python3", help="interpreter for the wrapper")
    ap.add_argument(
        "--bots",
        nargs="+",
        default=["planner"],
        help="atlas bots: built-in names or cmd:COMMAND",
    )
    ap.add_argument(
        "--sets",
        nargs="+",
        default=[" ".join(s) for s in DEFAULT_SETS],
        help="opponent sets, each three groups in one argument",
    )
    ap.add_argument("--rotations", type=int, nargs="+", default=[0, 1, 2, 3])
    ap.add_argument("--turns", type=int, default=200)
    ap.add_argument("--time", type=float, default=1.0, help="seconds per move")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument(
        "--rank",
        nargs="+",
        metavar="GROUP",
        help="play a round among these course players instead",
    )
    ap.add_argument("--games", type=int, default=6, help="--rank: games per map")
    ap.add_argument("--seed", type=int, default=1, help="--rank: the draw of the seats")
    ap.add_argument("--json", metavar="FILE", help="also write every game's result here")
    args = ap.parse_args(argv)
    course = {
        "python": args.python,
        "bot": str(Path(args.course_bot).resolve()),
        "classes": str(Path(args.classes).resolve()),
    }
    if args.rank:
        games = rank_schedule(args.rank, args.maps, args.games, args.seed)
    else:
        sets = [s.replace(",", " ").split() for s in args.sets]
        if any(len(s) != 3 for s in sets):
            ap.error("each --sets entry names three course players")
        games = schedule(args.bots, args.maps, sets, args.rotations)
    results = []
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            futs = [pool.submit(play_one, g, course, args.turns, args.time) for g in games]
            for f in futs:
                results.append(f.result())
                print(_line(results[-1]), flush=True)
    else:
        for g in games:
            results.append(play_one(g, course, args.turns, args.time))
            print(_line(results[-1]), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results))
    print()
    print(rank_table(results) if args.rank else table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
