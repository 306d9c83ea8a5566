"""``atlas fairness MAP...``: is each map fair to its seats?  Exact facts and played
evidence (:func:`atlas.arena.fairness.fairness_report`)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from . import common

__all__ = ["HELP", "DESCRIPTION", "add", "run"]

#: The sub-command's line in ``atlas --help``.
HELP = "report whether maps favour a seat: symmetries and played evidence"
#: What ``atlas fairness --help`` says first.
DESCRIPTION = """\
For each map: the board's symmetries that carry each start onto another seat's, the
game's own exact facts, and N games per seating between the strongest built-in bot (or
the players named) in every rotation of the seats, each seat's score with a 95 %
interval over the seat-swapped groups (pentanomial), and a verdict: 'favours seat K',
'balanced' or 'undecided' (docs/fairness.md). Games are cached like the build's: a rerun
plays nothing new. Exit 2 when a map cannot be read or played (the others are reported).
"""


def add(p: argparse.ArgumentParser) -> None:
    """The arguments of ``atlas fairness``."""
    from ..arena.fairness import DEFAULT_GAMES, DEFAULT_OPENING, DEFAULT_TIME

    p.add_argument(
        "maps", nargs="+", metavar="MAP", help="map files, or folders searched for them"
    )
    p.add_argument(
        "--bots",
        nargs="+",
        metavar="BOT",
        help="one player per seat at most, repeated over the seats: a built-in bot's "
        "name, cmd:COMMAND, NAME=BOT or NAME=cmd:COMMAND (default: the game's "
        "strongest built-in bot in every seat)",
    )
    common.add_count(
        p,
        "--games",
        0,
        f"games per seating, each a new seed (default {DEFAULT_GAMES}; 0: the exact "
        "facts alone)",
    )
    common.add_effort_or_time(p, DEFAULT_TIME)
    common.add_count(
        p,
        "--opening",
        0,
        f"random moves each seat opens with, drawn from the game's seed (default "
        f"{DEFAULT_OPENING}; 0: the bots play every move)",
    )
    common.add_workers(p)
    common.add_params(p)
    common.add_compat(p)
    common.add_cache(p, "the games'")
    common.add_json(p, "a list of reports, one object per map,")
    common.add_quiet(p)


def run(args: argparse.Namespace, fail: common.Fail) -> int:
    """Exit 0 when every map was reported, 2 when one could not be read or played."""
    from ..arena.fairness import map_files
    from ..render.site.cache import Cache

    for spec in args.bots or ():
        if not spec.strip():
            fail("--bots: an empty player")
    say = (lambda msg: None) if args.quiet or args.json else _say
    cache = Cache(None if args.no_cache else args.cache)
    problems: list[str] = []
    maps = map_files(args.maps, problems)
    try:
        reports = _reports(args, maps, cache, problems, say)
    except (OSError, RuntimeError, TimeoutError) as exc:  # a scheduler out of reach
        print(f"atlas fairness: error: the games could not be run: {exc}", file=sys.stderr)
        return 2
    for problem in problems:
        print(f"atlas fairness: {problem}", file=sys.stderr)
    if args.json:
        common.print_json([r.to_json() for r in reports])
    else:
        print("\n\n".join(r.format_text() for r in reports))
    return 2 if problems else 0


def _reports(
    args: argparse.Namespace, maps: list[Any], cache: Any, problems: list[str], say: Any
) -> list[Any]:
    """The reports of ``maps`` as the options ask, their games through ``cache``."""
    from ..arena.fairness import DEFAULT_GAMES, DEFAULT_OPENING, DEFAULT_TIME, fairness_report
    from ..render.site.tournament import play_cached

    return fairness_report(
        maps,
        bots=args.bots,
        games=DEFAULT_GAMES if args.games is None else args.games,
        time_limit=DEFAULT_TIME if args.time is None else args.time,
        effort=0 if args.time is not None else (args.effort or 1),
        params=dict(args.param or []),
        compat=args.compat,
        opening=DEFAULT_OPENING if args.opening is None else args.opening,
        play=lambda specs: play_cached(
            specs,
            cache,
            jobs=args.jobs,
            scheduler=args.scheduler,
            progress=common.progress(args),
            log=say,
        ),
        problems=problems,
    )


def _say(message: str) -> None:
    print(f"atlas fairness: {message}", file=sys.stderr, flush=True)
