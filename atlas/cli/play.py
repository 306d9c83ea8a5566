"""``atlas play GAME MAP BOT...``: one game between built-in bots or programs."""

from __future__ import annotations

import argparse
import sys

from . import common

__all__ = ["HELP", "DESCRIPTION", "add", "compiling", "run"]

#: The sub-command's line in ``atlas --help``.
HELP = "play one game and print its result"
#: What ``atlas play --help`` says first.
DESCRIPTION = """Play one game between built-in bots or programs."""


def add(p: argparse.ArgumentParser) -> None:
    """The arguments of ``atlas play``."""
    common.add_game(p)
    common.add_map(p)
    p.add_argument(
        "bots",
        nargs="+",
        metavar="BOT",
        help="one per seat: a built-in bot's name or 'cmd:<command line>' for "
        "a program speaking the game's protocol (docs/protocols.md)",
    )
    common.add_seed(p, "the game's")
    common.add_time(
        p,
        None,
        "seconds per move by the clock, for built-in bots too (default: built-in bots "
        "play at their default effort, programs get 1 s a move)",
    )
    common.add_effort(
        p,
        "built-in bots' fixed effort per move, one for every seat or one per seat "
        "(default: each bot's own, docs/bots.md): the same moves on any machine",
    )
    common.add_params(p)
    common.add_compat(p)
    common.add_output(p, "--record", "FILE", "write the replay record here (.json or .json.gz)")
    common.add_bot_options(p)
    common.add_json(p, "the result")


def compiling(args: argparse.Namespace) -> tuple[str, float]:
    """What the first use compiles: the built-in bots' kernels (``atlas.cli``)."""
    from ..bots.registry import compile_seconds

    return f"the {args.game} bots' kernels", compile_seconds(args.game, list(args.bots))


def run(args: argparse.Namespace, fail: common.Fail) -> int:
    """Play the game, print its result (write its record with ``--record``)."""
    from ..arena.runner import format_result, play_game
    from ..arena.sandbox import containments, sandbox_note
    from ..fsutil import check_output_path
    from ..maps import read_map
    from ..sim.base import Status
    from ..sim.records import is_record_file, save_record
    from ..sim.registry import get_info

    params = common.game_params(args, fail)
    common.check_bots(args.game, args.bots, fail)
    seats = get_info(args.game).num_players
    if len(args.bots) != seats:  # said now, not after the bots' kernels compile
        fail(f"{args.game} is played by {seats} bots, got {len(args.bots)}")
    efforts = common.seat_efforts(
        args.game, list(args.bots), args.effort, args.time is not None, fail
    )
    if args.record:  # before the game is played
        check_output_path(args.record, ours=is_record_file, force=args.force)
    bot_runs = containments(
        seats,
        sandbox=args.sandbox,
        limits=args.limit,
        env=args.bot_env,
    )
    if args.sandbox and sandbox_note() is not None:
        print(f"atlas: {sandbox_note()}", file=sys.stderr)
    game_map = read_map(args.map, game=args.game)
    # a first run (numba's cache empty): the seats' bots compile on both cores at once
    from ..arena.warm import warm_up_cold
    from ..maps import format_map

    warm_up_cold(args.game, format_map(game_map), game_map.name, list(args.bots), params)
    record = play_game(
        args.game,
        game_map,
        list(args.bots),
        params=params,
        seed=args.seed,
        time_limit=args.time if args.time is not None else 1.0,
        containment=bot_runs,
        effort=efforts,
    )
    if args.record:
        save_record(record, args.record)
    if args.json:
        r = record.result
        common.print_json(
            {
                "winner": r.winner,
                "reason": r.reason,
                "turns": len(record.turns),
                "scores": list(r.scores),
                "detail": r.detail,
                "statuses": [s.status for s in record.statuses],
                "record": args.record,
            }
        )
    else:
        print(format_result(record))
        for seat, s in enumerate(record.statuses):
            if s.status != Status.OK:
                print(
                    f"  player {seat + 1}: {s.status} at turn {s.turn}: {s.detail}",
                    file=sys.stderr,
                )
    return 0
