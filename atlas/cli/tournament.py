"""``atlas tournament GAME|PLAN.toml``: a tournament from a plan file or flags, its standings."""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from . import common

__all__ = ["HELP", "DESCRIPTION", "add", "run"]

#: The sub-command's line in ``atlas --help``.
HELP = "run a tournament from a plan file or flags"
#: What ``atlas tournament --help`` says first.
DESCRIPTION = """\
Play a tournament and print its standings (ratings with 95 % intervals, head to head).
Give a plan file (TOML, docs/tournaments.md) or a game and flags. With --out every
record is written as its game ends, so an interrupted tournament resumes with --resume.
"""


def add(p: argparse.ArgumentParser) -> None:
    """The arguments of ``atlas tournament``."""
    p.add_argument(
        "target",
        metavar="GAME|PLAN.toml",
        help="a tournament plan file (TOML), or the game for the flag form: "
        + ", ".join(common.games()),
    )
    p.add_argument(
        "--out",
        metavar="DIR",
        help="write records/ (as each game ends), results.json and a copy of "
        "the plan here: an empty or new folder, or one atlas wrote",
    )
    common.add_flag(p, "--resume", help="play only the games whose records --out lacks")
    common.add_flag(
        p,
        "--force",
        help="play every game again in a folder that holds this or another "
        "tournament (only files atlas wrote are replaced)",
    )
    common.add_workers(p)
    p.add_argument(
        "--void-late-under-load",
        type=common.load_per_core,
        default=None,
        metavar="LOAD",
        help="void the games lost on time while the machine's 1-minute load average "
        "was above LOAD a core (listed with why, not counted; overrides the plan's "
        "void_timeouts_under_load)",
    )
    flags = p.add_argument_group("the flag form (a plan file says these itself)")
    flags.add_argument(
        "--maps",
        nargs="+",
        metavar="MAP",
        help="map files or folders (default: atlas's own maps of the game)",
    )
    flags.add_argument(
        "--bots",
        nargs="+",
        metavar="BOT",
        help="players: NAME=cmd:COMMAND, NAME=BUILTIN, a built-in bot's "
        "name or cmd:COMMAND (default: every built-in bot)",
    )
    common.add_count(flags, "--seeds", 1, "replays of each pairing and seating (default 1)")
    common.add_time(flags, None, "seconds per move (default 0.1)")
    flags.add_argument(
        "--schedule",
        choices=("round-robin", "gauntlet"),
        default=None,
        help="every pairing, or the first bot against each other (default round-robin)",
    )
    common.add_params(flags)
    common.add_compat(flags)
    common.add_flag(
        flags, "--sandbox", help="run every program under bubblewrap (docs/security.md)"
    )
    flags.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a resource limit of every program: memory, cpu, files, "
        "processes, file-size (e.g. memory=2G)",
    )
    common.add_json(p, "the results")
    common.add_quiet(p)


def run(args: argparse.Namespace, fail: common.Fail) -> int:
    """Exit 0 when the tournament was played (its games' failures are data), 2 when the
    plan or the output folder cannot be used, 130 when interrupted (every finished
    record kept)."""
    from ..arena.competition import describe, load_plan, plan_from_flags, run_plan
    from ..arena.tournament import results_json
    from ..bots.registry import bot_names
    from ..resources import maps_dir

    target = args.target
    flag_names = ("maps", "bots", "seeds", "time", "schedule")
    if target.endswith(".toml") or (Path(target).is_file() and target not in common.games()):
        given = (
            [f"--{n}" for n in flag_names if getattr(args, n)]
            + [f"--{n}" for n in ("param", "limit") if getattr(args, n)]
            + (["--compat"] if args.compat else [])
            + (["--sandbox"] if args.sandbox else [])
        )
        if given:
            fail(f"{', '.join(given)}: the plan file says these itself")
        plan = load_plan(target)
    elif target in common.games():
        args.game = target
        params = common.game_params(args, fail)
        if args.bots:
            common.check_bots(target, args.bots, fail)
        limits = []
        for text in args.limit:
            name, sep, value = text.partition("=")
            if not sep:
                fail(f"--limit expects NAME=VALUE, got {text!r}")
            limits.append((name.strip(), value.strip()))
        plan = plan_from_flags(
            target,
            args.maps or [maps_dir() / target],
            list(args.bots or bot_names(target)),
            args.seeds or 1,
            args.time or 0.1,
            params,
            args.schedule or "round-robin",
            sandbox=args.sandbox,
            limits=limits,
        )
    else:
        fail(
            f"argument GAME|PLAN.toml: {target!r} is neither a plan file nor a game "
            f"({', '.join(common.games())})"
        )
    if args.void_late_under_load is not None:
        plan = replace(plan, void_under_load=args.void_late_under_load)
    if args.resume and not args.out:
        fail("--resume needs --out DIR, the folder of the tournament to finish")
    if not args.quiet and not args.json:
        print(describe(plan), file=sys.stderr, flush=True)
    result = run_plan(
        plan,
        args.out,
        resume=args.resume,
        force=args.force,
        jobs=args.jobs,
        scheduler=args.scheduler,
        progress=common.progress(args),
        log=None if args.quiet else (lambda m: print(m, file=sys.stderr)),
    )
    if args.json:
        common.print_json(
            results_json(result.specs, result.records, result.table, result.files)
        )
    else:
        print(result.table.format_table())
        if args.out:
            print(f"records and results.json in {args.out}", file=sys.stderr)
    return 0
