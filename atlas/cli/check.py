"""``atlas check GAME BOT``: a submitted bot tried in one short game against random."""

from __future__ import annotations

import argparse

from . import common

__all__ = ["HELP", "DESCRIPTION", "add", "run"]

#: The sub-command's line in ``atlas --help``.
HELP = "try a submitted bot: one short game against random"
#: What ``atlas check --help`` says first.
DESCRIPTION = """\
Start a bot, play one short game against the random bot, show the first turns' protocol
exchange and the bot's stderr, and end with a verdict: ok, or crashed / timeout /
invalid / illegal with the turn. Exit 0 when ok, 1 otherwise.
"""


def add(p: argparse.ArgumentParser) -> None:
    """The arguments of ``atlas check``."""
    common.add_game(p)
    p.add_argument(
        "bot",
        metavar="BOT",
        help="the player: cmd:COMMAND (a program), NAME=cmd:COMMAND, or a built-in bot's name",
    )
    common.add_map(p, default="the game's first bundled map")
    common.add_time(p, 1.0, "seconds per move")
    common.add_seed(p, "the game's")
    common.add_bot_options(p)
    common.add_json(p, "the verdict, the exchange and the stderr")


def run(args: argparse.Namespace, fail: common.Fail) -> int:
    from ..arena.check import check_bot
    from ..arena.sandbox import containments
    from ..maps import find_maps, read_map
    from ..resources import maps_dir

    common.check_bots(args.game, [args.bot], fail)
    if args.map:
        game_map = read_map(args.map, game=args.game)
    else:
        bundled = find_maps(maps_dir() / args.game)
        if not bundled:
            fail(f"atlas has no map of {args.game}; give one with --map")
        game_map = read_map(bundled[0], game=args.game)
    run = containments(1, sandbox=args.sandbox, limits=args.limit, env=args.bot_env)[0]
    report = check_bot(
        args.game, args.bot, game_map, time_limit=args.time, seed=args.seed, containment=run
    )
    if args.json:
        common.print_json(report.to_json())
        return 0 if report.ok else 1
    print(f"{args.game} on {game_map.name}: {len(report.record.turns)} turns against random")
    for direction, text in report.transcript:
        arrow = "atlas ->" if direction == "sent" else "bot   <-"
        for k, line in enumerate(text.strip("\n").split("\n")):
            print(f"  {arrow if k == 0 else '        '} {line}")
    if report.stderr.strip():
        print("its stderr:")
        for line in report.stderr.rstrip().splitlines()[-40:]:
            print(f"  | {line}")
    print(f"verdict: {report.verdict}")
    return 0 if report.ok else 1
