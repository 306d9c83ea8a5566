"""A/B of a tron bot's variant against the bot as it is, at a fixed effort per move.

A change to a search is first measured here: the variant (the built-in bot with
attributes set, ``--set KEY=VALUE``) plays the bot with other attributes (``--base``,
none by default) on every map, in both seats, at each effort given.  At fixed effort a
game is a pure function of the map, the bots, their efforts, the seed and the rules
(:func:`atlas.bots.search.effort_clock`), so the result is the same on any machine under
any load, and two runs give the same games: only what wins here goes on to games
against outside programs by the clock (``benchmarks/tron_outside.py``).

The games follow the official 2010 engine's rules by default (``--compat official``,
the rules of the games against the 2010 winner).  Each map, effort and seed gives one
pair of games, one in each seat; the score is the variant's, with a 95 % interval over
the pairs (:func:`atlas.arena.paired.paired_interval`), and the pairs it won and lost
are counted apart: most pairs of two close variants are the same two games.

Usage::

    python benchmarks/tron_ab.py tests/data/tron-maps/*.txt benchmarks/data/tron-maps/*.txt \\
        --set models_order=true --base models_order=false --effort 500 1000 2000 --jobs 2
    python benchmarks/tron_ab.py MAPS... --set tie_break=false --effort 1000 --out ab.jsonl
    python benchmarks/tron_ab.py MAPS... --set "ev=[55, 150, 1, 1, 1000000]"  # apex's weights
    python benchmarks/tron_ab.py --report ab.jsonl

The core is :func:`play_pair`, a plain function returning the pair's two results.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for _path in (ROOT, ROOT / "benchmarks"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from tron_outside import apply_settings, map_set, pair_values, parse_settings  # noqa: E402

__all__ = ["play_pair", "report", "main"]


def _bot(name: str, settings: Mapping[str, Any], seed: int) -> Any:
    from atlas.bots import make_bot

    return apply_settings(make_bot("tron", name, seed), name, settings)


def play_pair(
    bot: str,
    variant: Mapping[str, Any],
    base: Mapping[str, Any],
    map_path: str,
    effort: int,
    seed: int = 0,
    compat: str = "official",
    opening: int = 0,
) -> list[dict[str, Any]]:
    """The variant against the base on one map at ``effort``, once in each seat: each
    game's result seen from the variant (``score`` 1, 1/2 or 0).  With ``opening``
    each seat's first moves are random, drawn from ``seed`` (alike in both games)."""
    from atlas.arena.runner import bot_seed, play_game
    from atlas.maps import read_map

    game_map = read_map(map_path, game="tron")
    out = []
    for seat in (0, 1):
        mine = _bot(bot, variant, bot_seed(seed, seat))
        theirs = _bot(bot, base, bot_seed(seed, 1 - seat))
        players = [mine, theirs] if seat == 0 else [theirs, mine]
        record = play_game(
            "tron",
            game_map,
            players,
            params={"compat": compat},
            seed=seed,
            effort=effort,
            opening=opening,
        )
        out.append(
            {
                "map": Path(map_path).stem,
                "maps": map_set(map_path),
                "effort": effort,
                "seed": seed,
                "seat": seat,
                "score": float(record.result.scores[seat]),
                "turns": len(record.turns),
                "detail": record.result.detail,
            }
        )
    return out


def _pair_job(args: tuple) -> list[dict[str, Any]]:
    return play_pair(*args)


def report(results: Sequence[Mapping[str, Any]]) -> list[str]:
    """Lines of the variant's score per set of maps and over all, with intervals (a
    pair: one map, effort and seed, both seats; :func:`tron_outside.pair_values`)."""
    from atlas.arena.paired import paired_interval

    lines = []
    for name in sorted({str(r["maps"]) for r in results}) + ["all"]:
        chosen = [r for r in results if name in ("all", r["maps"])]
        values = [
            v
            for effort in sorted({r["effort"] for r in chosen})
            for v in pair_values([dict(r) for r in chosen if r["effort"] == effort])
        ]
        s = paired_interval(values)
        won = sum(v > 0.5 for v in values)
        lost = sum(v < 0.5 for v in values)
        lines.append(
            f"{name}: {100 * (s.mean or 0):.1f} % [{100 * s.low:.1f}, {100 * s.high:.1f}] "
            f"over {len(values)} seat-swapped pairs ({2 * len(values)} games): "
            f"{won} pairs better, {lost} worse, {len(values) - won - lost} even"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("maps", nargs="*", help="tron map files")
    ap.add_argument("--bot", default="apex", help="the built-in bot (default apex)")
    ap.add_argument("--set", nargs="*", default=[], metavar="KEY=VALUE", help="the variant")
    ap.add_argument("--base", nargs="*", default=[], metavar="KEY=VALUE", help="the base")
    ap.add_argument("--effort", nargs="+", type=int, default=[1000], help="efforts a move")
    ap.add_argument("--seeds", type=int, default=1, help="seeds per map and effort")
    ap.add_argument(
        "--opening", type=int, default=0, help="random first moves a seat, from the seed"
    )
    ap.add_argument("--compat", default="official", choices=("official", "spec"))
    ap.add_argument("--jobs", type=int, default=1, help="pairs played at once")
    ap.add_argument("--out", help="write every game as JSON lines here")
    ap.add_argument("--report", nargs="+", metavar="JSONL", help="play nothing: report these")
    args = ap.parse_args(argv)
    if args.report:
        results = [
            json.loads(line)
            for path in args.report
            for line in Path(path).read_text().splitlines()
            if line.strip()
        ]
        print("\n".join(report(results)))
        return 0
    if not args.maps:
        ap.error("no maps")
    try:
        variant, base = parse_settings(args.set), parse_settings(args.base)
    except ValueError as exc:
        ap.error(str(exc))
    jobs = [
        (args.bot, variant, base, str(m), e, s, args.compat, args.opening)
        for e in args.effort
        for m in args.maps
        for s in range(args.seeds)
    ]
    print(f"{args.bot} {variant} against {base}, {args.compat} rules: {len(jobs)} pairs")
    results: list[dict[str, Any]] = []
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(open(args.out, "w", encoding="utf-8")) if args.out else None
        pool = stack.enter_context(ProcessPoolExecutor(max(1, args.jobs)))
        for pair in pool.map(_pair_job, jobs):
            results += pair
            a, b = pair
            print(
                f"  {a['map']:<16} effort {a['effort']:<6} seed {a['seed']}: "
                f"{a['score']:g} | {b['score']:g}  ({a['turns']}, {b['turns']} turns)",
                flush=True,
            )
            if out is not None:
                out.write("".join(json.dumps(r) + "\n" for r in pair))
                out.flush()
    print("\n".join(report(results)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
