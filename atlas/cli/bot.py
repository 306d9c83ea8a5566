"""``atlas bot GAME NAME``: a built-in bot served as a program of its game's protocol."""

from __future__ import annotations

import argparse

from . import common

__all__ = ["HELP", "DESCRIPTION", "FACTS", "add", "compiling", "run"]

#: The sub-command's line in ``atlas --help``.
HELP = "serve a built-in bot as a program on stdin/stdout"
#: What ``atlas bot --help`` says first.
DESCRIPTION = """\
Run a built-in bot as an external program of its game's protocol (docs/protocols.md; a
game from a contest speaks the contest's, so the bot can enter the official engine). The
first move is timed from the process's own start; a watchdog answers a safe move when
the bot is not ready in time.
"""


def _served_notes() -> str:
    """Each game's note on its served bots (the rules they plan by), one after another."""
    from ..bots.registry import served_note
    from ..games import game_names

    return " ".join(note for note in (served_note(g) for g in game_names()) if note)


#: Facts the help text names (:data:`atlas.cli.common.FACTS`), read from the games' bots
#: packages only when the help is shown.
FACTS = {"served_notes": _served_notes}


def add(p: argparse.ArgumentParser) -> None:
    """The arguments of ``atlas bot``."""
    p.epilog = "{served_notes}"
    common.add_game(p)
    p.add_argument("name", metavar="NAME", help="the built-in bot's name")
    common.add_seed(p, "the bot's")
    common.add_time(p, None, "seconds per move, from reading the request (default 0.9)")
    p.add_argument(
        "--first-time",
        type=common.positive_float,
        default=None,
        metavar="SECONDS",
        help="seconds for the first move, from the process's start "
        "(default 2.8: the official engine allows 3)",
    )
    common.add_compat(
        p,
        "rules the bot plans by: 'official', what the original engine does, the default "
        "where the game has it ({official_games}), or 'spec', the documented rules",
    )
    p.add_argument(
        "--seat",
        type=int,
        choices=(1, 2),
        default=None,
        help="the player number the engine gives this program, where it resolves the "
        "players' moves in turn (1 moves first); by default not known, and the bot plans "
        "by the documented simultaneous turn",
    )


def compiling(args: argparse.Namespace) -> tuple[str, float]:
    """What the first use compiles: the built-in bots' kernels (``atlas.cli``)."""
    from ..bots.registry import compile_seconds

    return f"the {args.game} bots' kernels", compile_seconds(args.game, [args.name])


def run(args: argparse.Namespace, fail: common.Fail) -> int:
    """Serve the bot on standard input and output until the game ends."""
    from ..arena.protocols import serve_builtin_bot

    common.check_bots(args.game, [args.name], fail)
    compat = args.compat
    if compat is None and common.has_official(args.game):
        compat = "official"  # the engine a served bot enters is the original
    params = common.game_params(
        argparse.Namespace(game=args.game, param=[], compat=compat), fail
    )
    return serve_builtin_bot(
        args.game,
        args.name,
        seed=args.seed,
        time_limit=args.time,
        first_move_time=args.first_time,
        params=params,
        seat=None if args.seat is None else args.seat - 1,
    )
