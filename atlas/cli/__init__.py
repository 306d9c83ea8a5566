"""The ``atlas`` command: argument parsing only; the work is done by the library.

One style for every command (``docs/cli.md``): the game is a positional word with
``choices`` wherever a command needs one (``analyze`` infers it from the map, with
``--game`` to say it); every argument has a help text; usage errors go through
``parser.error`` (exit 2); every command that plays takes ``--compat {spec,official}``;
every command that reports takes ``--json``; progress bars are drawn only on a
terminal, and ``--quiet`` silences them.

Each sub-command is one module of this package (listed in :data:`COMMANDS`): its
``HELP`` line and ``DESCRIPTION``, ``add(p)``, which adds its arguments to its parser,
optionally ``compiling(args)``, what its first use compiles and about how many seconds
that takes (:func:`atlas.jit.compile_notice` says so on a terminal, once, when numba
compiles; default :data:`COMPILING`), and ``run(args, fail)``, which runs it (``fail``
is its parser's ``error``: a usage error, exit 2) and imports what it needs when it
runs, so ``atlas --help`` and ``atlas validate`` do not pay for numba or imageio (a
module may add ``FACTS`` its help texts name).  The options several commands take, and
help texts that name facts about the games, are in :mod:`atlas.cli.common`; the CLI
names no game (they come from the registry).  After changing the parser, ``python
tools/make_cli_doc.py`` rewrites ``docs/cli.md``.

Exit status: 0 success, 1 a failed check (invalid map, trace that does not replay, a
build with broken maps under ``--strict``), 2 usage errors, unreadable input and a
folder that cannot be written (a full disk), 130 interrupted (``SIGINT``), 143
terminated (``SIGTERM``).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from .._version import __version__
from ..bots.stop import Terminated, stop_policy
from ..bots.stop import check as check_stop
from ..errors import AtlasError
from .common import (
    COMPAT_WORDS,
    FACTS,
    INTERPRET_MAX_CELLS,
    HelpFormatter,
    add_compat,
    add_game,
    add_json,
    add_params,
    add_quiet,
    add_time,
    games,
)

__all__ = [
    "main",
    "build_parser",
    "COMMANDS",
    "COMPAT_WORDS",
    "INTERPRET_MAX_CELLS",
    "add_game",
    "add_compat",
    "add_params",
    "add_json",
    "add_quiet",
    "add_time",
    "help_text",
]

#: Sub-commands in the order ``atlas --help`` lists them: name -> the module that adds
#: its parser and runs it (imported by name, as the game registry does, so a command
#: may build the whole parser, as ``completion`` does, without an import cycle).
COMMANDS: dict[str, str] = {
    "analyze": "atlas.cli.analyze",
    "validate": "atlas.cli.validate",
    "play": "atlas.cli.play",
    "tournament": "atlas.cli.tournament",
    "fairness": "atlas.cli.fairness",
    "check": "atlas.cli.check",
    "import-trace": "atlas.cli.import_trace",
    "bot": "atlas.cli.bot",
    "replay": "atlas.cli.replay",
    "build": "atlas.cli.build",
    "serve": "atlas.cli.serve",
    "completion": "atlas.cli.completion",
}


def build_parser() -> argparse.ArgumentParser:
    """The ``atlas`` parser: one sub-parser per entry of :data:`COMMANDS`."""
    parser = argparse.ArgumentParser(
        prog="atlas",
        description="Analyse, play and publish grid-game maps "
        f"({', '.join(games())}) as a static website.",
        epilog="Every command: atlas COMMAND --help.  Documentation: docs/cli.md.",
        formatter_class=HelpFormatter,
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"atlas {__version__}",
        help="print atlas's version and exit",
    )
    sub = parser.add_subparsers(
        dest="command", metavar="COMMAND", required=True, title="commands"
    )
    for name, path in COMMANDS.items():
        module = importlib.import_module(path)
        FACTS.update(getattr(module, "FACTS", {}))
        p = sub.add_parser(
            name,
            help=module.HELP,
            description=module.DESCRIPTION,
            formatter_class=HelpFormatter,
        )
        p.set_defaults(func=module.run)
        module.add(p)
    return parser


def help_text(command: str | None = None, width: int = 88) -> str:
    """What ``atlas [COMMAND] --help`` prints on a terminal ``width`` columns wide
    (``docs/cli.md`` holds these texts; ``tools/make_cli_doc.py`` writes them)."""
    import os

    parser = build_parser()
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(width)
    try:
        target = parser if command is None else _subparser(parser, command)
        return target.format_help()
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old


def _subparser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    for action in parser._subparsers._group_actions:  # type: ignore[union-attr]
        if isinstance(action, argparse._SubParsersAction):
            return action.choices[name]
    return parser  # pragma: no cover


#: What a command compiles on first use, and about how many seconds of one core that
#: takes, unless its module says better (``compiling(args)``).
COMPILING = ("atlas's kernels", 10.0)


def compiling(args: argparse.Namespace) -> tuple[str, float]:
    """What the command ``args`` name compiles on first use, and about how long it
    takes: its module's ``compiling(args)``, or :data:`COMPILING`."""
    module = importlib.import_module(COMMANDS[args.command])
    describe = getattr(module, "compiling", None)
    if describe is None:
        return COMPILING
    what, seconds = describe(args)
    return str(what), float(seconds)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``atlas`` with ``argv`` (default: the command line); return the exit status."""
    from ..games import skipped_games

    for game, why in skipped_games().items():
        print(f"atlas: warning: the installed game {game} is left out: {why}", file=sys.stderr)
    parser = build_parser()
    args = parser.parse_args(argv)
    fail = _subparser(parser, args.command).error
    from ..jit import compile_notice

    try:
        # SIGINT and SIGTERM stop every command within a poll of the searches' clock,
        # never recorded as a bot's crash (atlas.bots.stop; outside the main thread the
        # caller's handlers stay)
        with stop_policy():
            quiet = getattr(args, "quiet", False)
            terminal = not quiet and bool(getattr(sys.stderr, "isatty", lambda: False)())
            what, seconds = compiling(args) if terminal else COMPILING
            with compile_notice(what, seconds, terminal=False if quiet else None):
                status = int(args.func(args, fail) or 0)
            check_stop()  # a stop noted where it could not be raised (numba compiling)
            return status
    except AtlasError as exc:
        print(f"atlas: error: {exc}", file=sys.stderr)
        return 2
    except Terminated:
        return 143
    except KeyboardInterrupt:
        return 130
