"""The ``atlas`` command: argument parsing only; the work is done by the library.

One style for every command (``docs/cli.md``): the game is a positional word with
``choices`` wherever a command needs one (``analyze`` infers it from the map, with
``--game`` to say it); every argument has a help text; usage errors go through
``parser.error`` (exit 2); every command that plays takes ``--compat {spec,official}``;
every command that reports takes ``--json``; progress bars are drawn only on a
terminal, and ``--quiet`` silences them.

The parser is built from one small ``_add_<command>`` function per sub-command (listed
in :data:`COMMANDS`) and shared helpers for the options several commands take
(:func:`add_game`, :func:`add_compat`, :func:`add_params`, :func:`add_json`,
:func:`add_quiet`), so a new command or flag is one function or one call.  Each
sub-command runs one ``_cmd_*(args, fail)`` function (``fail`` is its parser's
``error``: a usage error, exit 2) that imports what it needs when it runs, so
``atlas --help`` and ``atlas validate`` do not pay for numba or imageio.  After changing
the parser, ``python tools/make_cli_doc.py`` rewrites ``docs/cli.md``.

Exit status: 0 success, 1 a failed check (invalid map, trace that does not replay, a
build with broken maps under ``--strict``), 2 usage errors and unreadable input, 130
interrupted.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from . import __version__
from .errors import AtlasError

__all__ = [
    "main",
    "build_parser",
    "COMMANDS",
    "COMPAT_WORDS",
    "add_game",
    "add_compat",
    "add_params",
    "add_json",
    "add_quiet",
    "add_time",
    "help_text",
]

#: ``--compat`` words, the same for every game: ``spec`` plays the documented rules
#: (every game's default, :data:`atlas.sim.base.SPEC`), ``official`` what the original
#: engine does.
COMPAT_WORDS = ("spec", "official")
#: Older spellings ``--compat`` still reads.
COMPAT_ALIASES = {"fair": "spec"}
#: ``analyze`` and ``validate`` run the kernels as plain Python (without importing
#: numba) up to this many cells in all: loading numba costs more than analysing maps of
#: this size without it (``benchmarks/bench_startup.py --sizes``: a fresh process took
#: 0.31 s in Python against 0.71 s compiled at 10,000 cells, and about the same at
#: 35,000; an Outpost map is 10,000 cells).
INTERPRET_MAX_CELLS = 32_000


# --------------------------------------------------------------------------- helpers


def _games() -> tuple[str, ...]:
    from .sim.registry import game_names

    return game_names()


class _Described:
    """Help text made from the games' :class:`~atlas.sim.base.GameInfo` only when help is
    printed (``%(name)s`` in an argument's help reads it from the argument), so that
    building the parser imports no game's rules."""

    def __init__(self, make: Callable[[], str]) -> None:
        self.make = make

    def __str__(self) -> str:
        return self.make()


def _described(action: argparse.Action, **texts: Callable[[], str]) -> None:
    for key, make in texts.items():
        setattr(action, key, _Described(make))


def _official_games() -> str:
    """The games whose ``compat`` offers an original engine's rules: ``tron, outpost``."""
    from .sim.registry import get_info

    return ", ".join(
        g for g in _games() if "official" in getattr(get_info(g).param("compat"), "choices", ())
    )


def _param_names() -> str:
    """Each game's parameters but ``compat``: ``tron: max_turns; ...``."""
    from .sim.registry import get_info

    parts = []
    for g in _games():
        names = [p.name for p in get_info(g).params if p.name != "compat"]
        if names:
            parts.append(f"{g}: {', '.join(names)}")
    return "; ".join(parts)


def _validated_titles() -> str:
    """The titles of the games whose submitted maps ``atlas validate`` checks."""
    from .render.games import render_of
    from .sim.registry import get_info

    return " and ".join(get_info(g).title for g in _games() if render_of(g).validates)


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number of seconds, got {text!r}"
        ) from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
    return value


def _count(minimum: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected at least {minimum}, got {value}")
        return value

    parse.__name__ = f"whole number >= {minimum}"
    return parse


def _param_pair(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    try:
        return key.strip(), json.loads(value)
    except json.JSONDecodeError:
        return key.strip(), value


def _compat_word(text: str) -> str:
    return COMPAT_ALIASES.get(text, text)


def add_game(
    p: argparse.ArgumentParser, *, positional: bool = True, help: str = "the game"
) -> None:
    """The game: a positional word (or ``--game``) limited to the registered games."""
    games = _games()
    if positional:
        p.add_argument(
            "game", choices=games, metavar="GAME", help=f"{help}: {', '.join(games)}"
        )
    else:
        p.add_argument(
            "--game",
            choices=games,
            metavar="GAME",
            default=None,
            help=f"{help}: {', '.join(games)}",
        )


def add_compat(p: argparse.ArgumentParser) -> None:
    """``--compat {spec,official}``: which rules a command that plays follows."""
    action = p.add_argument(
        "--compat",
        type=_compat_word,
        choices=COMPAT_WORDS,
        default=None,
        help="rules to play: 'spec', the documented rules (the default), or "
        "'official', what the original engine does (%(official_games)s)",
    )
    _described(action, official_games=_official_games)


def add_params(p: argparse.ArgumentParser) -> None:
    """``--param KEY=VALUE``, repeatable; the value is read as JSON when it can be."""
    action = p.add_argument(
        "--param",
        action="append",
        default=[],
        type=_param_pair,
        metavar="KEY=VALUE",
        help="a game parameter, repeatable; VALUE is read as JSON when it can "
        "be (%(param_names)s)",
    )
    _described(action, param_names=_param_names)


def add_force(p: argparse.ArgumentParser) -> None:
    """``--force``: write over an output file that atlas did not write."""
    p.add_argument(
        "--force",
        action="store_true",
        help="write over an existing output file even when atlas did not write "
        "it (atlas's own records, GIFs and PNGs are replaced anyway)",
    )


def add_json(p: argparse.ArgumentParser, what: str) -> None:
    """``--json``: the report as JSON on standard output."""
    p.add_argument("--json", action="store_true", help=f"print {what} as JSON")


def add_quiet(p: argparse.ArgumentParser) -> None:
    """``--quiet``: no progress bars and no summary lines on standard error."""
    p.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="no progress bars or progress lines (bars are drawn only on a terminal anyway)",
    )


def add_time(p: argparse.ArgumentParser, default: float | None, what: str) -> None:
    """``--time SECONDS`` per move."""
    p.add_argument(
        "--time",
        type=_positive_float,
        default=default,
        metavar="SECONDS",
        help=what + (f" (default {default:g})" if default is not None else ""),
    )


def _progress(args: argparse.Namespace) -> bool:
    """Progress bars: only on a terminal, never with ``--quiet`` or ``--json``."""
    return (
        sys.stderr.isatty()
        and not getattr(args, "quiet", False)
        and not getattr(args, "json", False)
    )


def _print_json(data: Any) -> None:
    print(json.dumps(data))


# --------------------------------------------------------------------------- commands


def _add_analyze(sub: Any) -> None:
    p = sub.add_parser(
        "analyze",
        help="analyse one map and print its key figures",
        description="Analyse one map: free cells, components, articulation "
        "points, and the figures its game adds (Voronoi counts, "
        "chambers and parity bounds of two starts; land, water "
        "and homes of a board of empires).",
    )
    p.add_argument("map", metavar="MAP", help="the map file")
    add_game(
        p, positional=False, help="the map's game, when its folder and content do not tell"
    )
    add_json(p, "the figures")
    p.add_argument("--png", metavar="FILE", help="also write the annotated picture here")
    add_force(p)
    p.set_defaults(func=_cmd_analyze)


def _add_validate(sub: Any) -> None:
    p = sub.add_parser(
        "validate",
        help="check submitted maps against the rules of docs/validate.md",
        description="Check submitted map files (or every map in folders) "
        "against the rules of docs/validate.md; every problem "
        "is named with its rule and line.  Exit 1 when a map "
        "is invalid, 2 when one cannot be read.",
    )
    action = p.add_argument(
        "paths", nargs="+", metavar="PATH", help="%(titles)s map files or folders of maps"
    )
    _described(action, titles=_validated_titles)
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print a list of reports as JSON")
    out.add_argument(
        "--csv",
        action="store_true",
        help="print one CSV row per map: file, valid, rules, first message",
    )
    p.set_defaults(func=_cmd_validate)


def _add_play(sub: Any) -> None:
    p = sub.add_parser(
        "play",
        help="play one game and print its result",
        description="Play one game between built-in bots or programs.",
    )
    add_game(p)
    p.add_argument("map", metavar="MAP", help="the map file")
    p.add_argument(
        "bots",
        nargs="+",
        metavar="BOT",
        help="one per seat: a built-in bot's name or 'cmd:<command line>' for "
        "a program speaking the game's protocol (docs/protocols.md)",
    )
    p.add_argument("--seed", type=int, default=0, help="the game's seed (default 0)")
    add_time(p, 1.0, "seconds per move")
    add_params(p)
    add_compat(p)
    p.add_argument(
        "--record", metavar="FILE", help="write the replay record here (.json or .json.gz)"
    )
    add_force(p)
    add_bot_options(p)
    add_json(p, "the result")
    p.set_defaults(func=_cmd_play)


def add_bot_options(p: argparse.ArgumentParser) -> None:
    """How external bots run (docs/security.md): sandbox, limits, environment."""
    p.add_argument(
        "--sandbox",
        action="store_true",
        help="run each external bot under bubblewrap (bwrap): own PID, mount and "
        "network namespaces, read-only system, no view of the other bots",
    )
    p.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="[SEAT:]NAME=VALUE",
        help="a bot resource limit: memory, cpu, files, processes, file-size "
        "(e.g. memory=2G, 2:cpu=60, file-size=none)",
    )
    p.add_argument(
        "--bot-env",
        action="append",
        default=[],
        metavar="[SEAT:]KEY[=VALUE]",
        help="add a variable to the bots' minimal environment (KEY alone: atlas's own value)",
    )


def _add_tournament(sub: Any) -> None:
    p = sub.add_parser(
        "tournament",
        help="run a tournament from a plan file or flags",
        description="Play a tournament and print its standings (ratings "
        "with 95 % intervals, head to head).  Give a plan file "
        "(TOML, docs/tournaments.md) or a game and flags.  With "
        "--out every record is written as its game ends, so an "
        "interrupted tournament resumes with --resume.",
    )
    p.add_argument(
        "target",
        metavar="GAME|PLAN.toml",
        help="a tournament plan file (TOML), or the game for the flag form: "
        + ", ".join(_games()),
    )
    p.add_argument(
        "--out",
        metavar="DIR",
        help="write records/ (as each game ends), results.json and a copy of "
        "the plan here: an empty or new folder, or one atlas wrote",
    )
    p.add_argument(
        "--resume", action="store_true", help="play only the games whose records --out lacks"
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="play every game again in a folder that holds this or another "
        "tournament (only files atlas wrote are replaced)",
    )
    p.add_argument(
        "--jobs",
        type=_count(1),
        default=None,
        metavar="N",
        help="local worker processes (default: one per core)",
    )
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run the games on this dask.distributed scheduler instead",
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
    flags.add_argument(
        "--seeds",
        type=_count(1),
        default=None,
        metavar="N",
        help="replays of each pairing and seating (default 1)",
    )
    flags.add_argument(
        "--time",
        type=_positive_float,
        default=None,
        metavar="SECONDS",
        help="seconds per move (default 0.1)",
    )
    flags.add_argument(
        "--schedule",
        choices=("round-robin", "gauntlet"),
        default=None,
        help="every pairing, or the first bot against each other (default round-robin)",
    )
    add_params(flags)
    add_compat(flags)
    flags.add_argument(
        "--sandbox",
        action="store_true",
        help="run every program under bubblewrap (docs/security.md)",
    )
    flags.add_argument(
        "--limit",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a resource limit of every program: memory, cpu, files, "
        "processes, file-size (e.g. memory=2G)",
    )
    add_json(p, "the results")
    add_quiet(p)
    p.set_defaults(func=_cmd_tournament)


def _add_check(sub: Any) -> None:
    p = sub.add_parser(
        "check",
        help="try a submitted bot: one short game against random",
        description="Start a bot, play one short game against the random "
        "bot, show the first turns' protocol exchange and the "
        "bot's stderr, and end with a verdict: ok, or crashed / "
        "timeout / invalid / illegal with the turn.  Exit 0 when "
        "ok, 1 otherwise.",
    )
    add_game(p)
    p.add_argument(
        "bot",
        metavar="BOT",
        help="the player: cmd:COMMAND (a program), NAME=cmd:COMMAND, or a built-in bot's name",
    )
    p.add_argument(
        "--map", metavar="MAP", help="the map file (default: the game's first bundled map)"
    )
    add_time(p, 1.0, "seconds per move")
    p.add_argument("--seed", type=int, default=0, help="the game's seed (default 0)")
    add_bot_options(p)
    add_json(p, "the verdict, the exchange and the stderr")
    p.set_defaults(func=_cmd_check)


def _add_import_trace(sub: Any) -> None:
    p = sub.add_parser(
        "import-trace",
        help="replay a game recorded by the official 2014 simulator",
        description="Replay a trace of the official 2014 simulator "
        "turn by turn and, when every turn matches, write it as "
        "an atlas replay record.  Exit 1 at the first turn "
        "that differs, 2 when the trace or map cannot be read.",
    )
    p.add_argument("trace", metavar="TRACE", help="the trace file (.jsonl or .jsonl.gz)")
    p.add_argument(
        "--map",
        metavar="FILE",
        help="the map file (default: found by the name in the trace's header)",
    )
    p.add_argument("--record", metavar="OUT", help="write the atlas replay record here")
    add_force(p)
    add_json(p, "the outcome")
    p.set_defaults(func=_cmd_import_trace)


def _add_bot(sub: Any) -> None:
    p = sub.add_parser(
        "bot",
        help="serve a built-in bot as a program on stdin/stdout",
        description="Run a built-in bot as an external program of the "
        "game's protocol (the original contest's where there was "
        "one, so it can enter the official engine).  The first move is timed "
        "from the process's own start; a watchdog answers a "
        "safe move when the bot is not ready in time.",
    )
    add_game(p)
    p.add_argument("name", metavar="NAME", help="the built-in bot's name")
    p.add_argument("--seed", type=int, default=0, help="the bot's seed (default 0)")
    add_time(p, None, "seconds per move, from reading the request (default 0.9)")
    p.add_argument(
        "--first-time",
        type=_positive_float,
        default=None,
        metavar="SECONDS",
        help="seconds for the first move, from the process's start "
        "(default 2.8: the 2010 contest's engine allows 3)",
    )
    add_compat(p)
    p.set_defaults(func=_cmd_bot)


def _add_replay(sub: Any) -> None:
    p = sub.add_parser(
        "replay",
        help="draw a saved replay record as an animated GIF",
        description="Draw a replay record as an animated GIF, one frame a turn.",
    )
    p.add_argument("record", metavar="RECORD", help="the replay record (.json or .json.gz)")
    p.add_argument(
        "out",
        nargs="?",
        metavar="OUT.gif",
        help="the GIF to write (default: RECORD's name with .gif, beside it; "
        "an existing file is overwritten only when named here)",
    )
    p.add_argument(
        "--gif", metavar="FILE", dest="gif", help="the GIF to write (older spelling of OUT.gif)"
    )
    add_force(p)
    add_json(p, "what was written")
    p.set_defaults(func=_cmd_replay)


def _add_build(sub: Any) -> None:
    p = sub.add_parser(
        "build",
        help="build the static site",
        description="Analyse every map, play the built-in tournament, draw "
        "every replay and write the site.  The site is built "
        "aside and moved into place: a failed build leaves the "
        "old one.",
    )
    p.add_argument(
        "--maps",
        default=None,
        metavar="DIR",
        help="the maps, one folder per game (default: atlas's own maps)",
    )
    p.add_argument(
        "--out", default="site", metavar="DIR", help="where the site goes (default: site)"
    )
    p.add_argument("--records", metavar="DIR", help="also publish these saved replay records")
    p.add_argument(
        "--tournament",
        metavar="DIR",
        action="append",
        default=[],
        dest="tournaments",
        help="also publish an organiser's tournament: a folder written by "
        "atlas tournament --out, with its own standings page (repeatable; "
        "with --games 0, without the built-in round robin)",
    )
    p.add_argument(
        "--jobs",
        type=_count(1),
        default=None,
        metavar="N",
        help="worker processes for the tournament (default: one per core)",
    )
    p.add_argument(
        "--games",
        type=_count(0),
        default=None,
        metavar="N",
        help="games per pairing, seating and map (0: no tournament)",
    )
    add_compat(p)
    p.add_argument(
        "--strict", action="store_true", help="exit 1 when any map or record is broken"
    )
    add_json(p, "a summary of the build")
    add_quiet(p)
    p.set_defaults(func=_cmd_build)


def _add_completion(sub: Any) -> None:
    p = sub.add_parser(
        "completion",
        help="print a shell completion script",
        description="Print a completion script for atlas (needs the "
        "'completion' extra: pip install "
        "'atlas-gridgames[completion]').  Bash: "
        "atlas completion bash > ~/.local/share/bash-completion/"
        "completions/atlas",
    )
    p.add_argument(
        "shell",
        choices=("bash", "zsh", "tcsh"),
        metavar="SHELL",
        help="the shell: bash, zsh or tcsh",
    )
    p.set_defaults(func=_cmd_completion)


#: Sub-commands in the order ``atlas --help`` lists them: name -> the function that
#: adds its parser.
COMMANDS: dict[str, Callable[[Any], None]] = {
    "analyze": _add_analyze,
    "validate": _add_validate,
    "play": _add_play,
    "tournament": _add_tournament,
    "check": _add_check,
    "import-trace": _add_import_trace,
    "bot": _add_bot,
    "replay": _add_replay,
    "build": _add_build,
    "completion": _add_completion,
}


def build_parser() -> argparse.ArgumentParser:
    """The ``atlas`` parser: one sub-parser per entry of :data:`COMMANDS`."""
    parser = argparse.ArgumentParser(
        prog="atlas",
        description=f"Analyse, play and publish grid-game maps ({', '.join(_games())}) "
        "as a static website.",
        epilog="Every command: atlas COMMAND --help.  Documentation: docs/cli.md.",
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
    for add in COMMANDS.values():
        add(sub)
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


# --------------------------------------------------------------------------- checks


def _params(args: argparse.Namespace, fail: Callable[[str], Any]) -> dict[str, Any]:
    """The game parameters of ``--param`` and ``--compat`` (usage errors through ``fail``)."""
    params = dict(args.param or [])
    if getattr(args, "compat", None) is not None:
        params["compat"] = _compat_value(args.game, args.compat, fail)
    return params


def _compat_value(game: str, word: str, fail: Callable[[str], NoReturn]) -> Any:
    """The value of ``game``'s ``compat`` parameter that ``word`` names."""
    from .sim.registry import get_info

    compat = get_info(game).param("compat")
    if compat is None:
        if word == "spec":
            return None
        fail(f"--compat {word}: {game} has one set of rules, no 'official' variant")
    if word == "spec":
        return compat.default
    if word not in compat.choices:  # pragma: no cover - every compat offers official
        fail(f"--compat {word}: {game} offers {', '.join(compat.choices)}")
    return word


def _check_bots(game: str, specs: Sequence[str], fail: Callable[[str], Any]) -> None:
    """Every player spec names a built-in bot of ``game`` or a program (usage errors
    through ``fail``); see :mod:`atlas.arena.players` for the forms."""
    from .arena.players import EXTERNAL_PREFIX, parse_player
    from .bots.registry import bot_names

    known = bot_names(game)
    for spec in specs:
        try:
            player = parse_player(spec)
        except AtlasError as exc:
            fail(str(exc))
            return  # pragma: no cover - fail exits
        if player.builtin is not None and player.builtin not in known:
            fail(
                f"unknown {game} bot {player.builtin!r}; built-in: {', '.join(known)} "
                f"(or {EXTERNAL_PREFIX}<command line>, NAME=BOT, NAME={EXTERNAL_PREFIX}...)"
            )


# --------------------------------------------------------------------------- runners


def _cmd_analyze(args: argparse.Namespace, fail: Callable[[str], Any]) -> int:
    from .analyze.summary import format_summary
    from .jit import interpreted
    from .maps import read_map
    from .sim.registry import summarize_map

    if args.png:
        from .fsutil import check_output_path
        from .render.images import is_atlas_png

        check_output_path(args.png, ours=is_atlas_png, force=args.force)
    game_map = read_map(args.map, game=args.game)
    with interpreted(game_map.width * game_map.height <= INTERPRET_MAX_CELLS):
        summary = summarize_map(game_map)
    if args.png:
        from .fsutil import write_atomically
        from .render.games import render_of
        from .render.images import png_bytes

        render = render_of(game_map.game)
        write_atomically(args.png, png_bytes(render.picture(game_map, render.png_kind)))
    if args.json:
        _print_json(summary)
    else:
        print(format_summary(summary))
    return 0


def _cmd_validate(args: argparse.Namespace, fail: Callable[[str], Any]) -> int:
    from .analyze.outpost.validate import MAP_CELLS, format_reports, reports_csv, validate_paths
    from .jit import interpreted
    from .maps import find_maps

    files = sum(len(find_maps(p)) if Path(p).is_dir() else 1 for p in args.paths)
    with interpreted(files * MAP_CELLS <= INTERPRET_MAX_CELLS):
        reports = validate_paths(args.paths)
    if args.json:
        print(json.dumps([r.to_json() for r in reports], indent=2))
    elif args.csv:
        print(reports_csv(reports), end="")
    else:
        print(format_reports(reports))
    if any(r.unreadable for r in reports):
        return 2
    return 0 if all(r.valid for r in reports) else 1


def _cmd_play(args: argparse.Namespace, fail: Callable[[str], Any]) -> int:
    from .arena.runner import format_result, play_game
    from .arena.sandbox import containments, sandbox_note
    from .fsutil import check_output_path
    from .maps import read_map
    from .sim.base import Status
    from .sim.records import is_record_file, save_record
    from .sim.registry import get_info

    params = _params(args, fail)
    _check_bots(args.game, args.bots, fail)
    if args.record:  # before the game is played
        check_output_path(args.record, ours=is_record_file, force=args.force)
    bot_runs = containments(
        get_info(args.game).num_players,
        sandbox=args.sandbox,
        limits=args.limit,
        env=args.bot_env,
    )
    if args.sandbox and sandbox_note() is not None:
        print(f"atlas: {sandbox_note()}", file=sys.stderr)
    game_map = read_map(args.map, game=args.game)
    record = play_game(
        args.game,
        game_map,
        list(args.bots),
        params=params,
        seed=args.seed,
        time_limit=args.time,
        containment=bot_runs,
    )
    if args.record:
        save_record(record, args.record)
    if args.json:
        r = record.result
        _print_json(
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


def _cmd_tournament(args: argparse.Namespace, fail: Callable[[str], Any]) -> int:
    """Exit 0 when the tournament was played (its games' failures are data), 2 when the
    plan or the output folder cannot be used, 130 when interrupted (every finished
    record kept)."""
    from .arena.competition import describe, load_plan, plan_from_flags, run_plan
    from .arena.tournament import results_json
    from .bots.registry import bot_names
    from .resources import maps_dir

    target = args.target
    flag_names = ("maps", "bots", "seeds", "time", "schedule")
    if target.endswith(".toml") or (Path(target).is_file() and target not in _games()):
        given = (
            [f"--{n}" for n in flag_names if getattr(args, n)]
            + [f"--{n}" for n in ("param", "limit") if getattr(args, n)]
            + (["--compat"] if args.compat else [])
            + (["--sandbox"] if args.sandbox else [])
        )
        if given:
            fail(f"{', '.join(given)}: the plan file says these itself")
        plan = load_plan(target)
    elif target in _games():
        args.game = target
        params = _params(args, fail)
        if args.bots:
            _check_bots(target, args.bots, fail)
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
            f"({', '.join(_games())})"
        )
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
        progress=_progress(args),
        log=None if args.quiet else (lambda m: print(m, file=sys.stderr)),
    )
    if args.json:
        _print_json(results_json(result.specs, result.records, result.table, result.files))
    else:
        print(result.table.format_table())
        if args.out:
            print(f"records and results.json in {args.out}", file=sys.stderr)
    return 0


def _cmd_check(args: argparse.Namespace, fail: Callable[[str], Any]) -> int:
    from .arena.check import check_bot
    from .arena.sandbox import containments
    from .maps import find_maps, read_map
    from .resources import maps_dir

    _check_bots(args.game, [args.bot], fail)
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
        _print_json(report.to_json())
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


def _cmd_import_trace(args: argparse.Namespace, fail: Callable[[str], Any]) -> int:
    """Exit 0 when the trace replays exactly (and the record is written), 1 when it does
    not (the first differing turn, seat and field are printed), 2 when the trace or its
    map cannot be read."""
    from .errors import MapFormatError
    from .fsutil import check_output_path
    from .sim.outpost.traces import (
        TraceError,
        TraceMismatchError,
        find_trace_map,
        read_trace,
        read_trace_map,
        trace_to_record,
    )
    from .sim.records import is_record_file, save_record

    if args.record:  # before the trace is replayed
        check_output_path(args.record, ours=is_record_file, force=args.force)

    def failed(code: int, exc: Exception) -> int:
        if args.json:
            _print_json(
                {"trace": args.trace, "replayed": False, "error": str(exc), "record": None}
            )
        print(f"atlas import-trace: {exc}", file=sys.stderr)
        return code

    try:
        trace = read_trace(args.trace)
        map_path = Path(args.map) if args.map else find_trace_map(trace)
        game_map = read_trace_map(map_path)
    except (TraceError, MapFormatError) as exc:
        return failed(2, exc)
    try:
        record = trace_to_record(trace, game_map)
    except TraceMismatchError as exc:
        return failed(1, exc)
    except TraceError as exc:
        return failed(2, exc)
    if args.record:
        save_record(record, args.record)
    fin = record.final
    if args.json:
        _print_json(
            {
                "trace": args.trace,
                "replayed": True,
                "turns": len(trace.turns),
                "map": game_map.name,
                "map_file": str(map_path),
                "params": {"r": trace.r, "L": trace.L, "W": trace.W},
                "land": fin["land"],
                "water": fin["water"],
                "record": args.record,
            }
        )
        return 0
    print(
        f"{args.trace}: {len(trace.turns)} turns replayed exactly on {game_map.name} "
        f"(r={trace.r} L={trace.L} W={trace.W}); land {fin['land']}, "
        f"water {fin['water']}"
    )
    if args.record:
        print(f"record written to {args.record}")
    return 0


def _cmd_bot(args: argparse.Namespace, fail: Callable[[str], Any]) -> int:
    from .arena.protocols import serve_builtin_bot

    _check_bots(args.game, [args.name], fail)
    params = _params(argparse.Namespace(game=args.game, param=[], compat=args.compat), fail)
    return serve_builtin_bot(
        args.game,
        args.name,
        seed=args.seed,
        time_limit=args.time,
        first_move_time=args.first_time,
        params=params,
    )


def _replay_out(args: argparse.Namespace, fail: Callable[[str], Any]) -> Path:
    if args.out and args.gif and args.out != args.gif:
        fail(f"two outputs given: {args.out!r} and --gif {args.gif!r}")
    from .fsutil import check_output_path
    from .render.gif import is_atlas_gif

    named = args.out or args.gif
    if named:
        return check_output_path(named, ours=is_atlas_gif, force=args.force)
    src = Path(args.record)
    stem = src.name
    for suffix in (".gz", ".json"):
        stem = stem[: -len(suffix)] if stem.endswith(suffix) else stem
    out = src.with_name(stem + ".gif")
    if out.exists() and not is_atlas_gif(out) and not args.force:
        fail(
            f"{out} already exists and atlas did not write it; name another OUT.gif, or --force"
        )
    return check_output_path(out, ours=is_atlas_gif, force=True)


def _cmd_replay(args: argparse.Namespace, fail: Callable[[str], Any]) -> int:
    from .render.gif import write_gif
    from .sim.records import load_record

    out = _replay_out(args, fail)
    record = load_record(args.record)
    write_gif(record, out)
    if args.json:
        _print_json(
            {
                "record": args.record,
                "gif": str(out),
                "turns": len(record.turns),
                "bytes": out.stat().st_size,
            }
        )
    else:
        print(f"{args.record}: {len(record.turns)} turns -> {out}")
    return 0


def _cmd_build(args: argparse.Namespace, fail: Callable[[str], Any]) -> int:
    """Exit 0 when a site was built (1 when nothing could be, or when ``--strict`` and
    any map or record is broken)."""
    from .render.site.build import build_site
    from .resources import maps_dir

    params = None
    if args.compat is not None:
        from .sim.registry import game_names, get_info

        params = {
            game: {"compat": _compat_value(game, args.compat, fail)}
            for game in game_names()
            if get_info(game).param("compat") is not None
        }
    try:
        result = build_site(
            args.maps if args.maps is not None else maps_dir(),
            args.out,
            records_dir=args.records,
            tournaments=args.tournaments,
            jobs=args.jobs,
            games=args.games,
            progress=_progress(args),
            params=params,
            log=(lambda msg: None) if args.quiet else None,
        )
    except OSError as exc:
        print(f"atlas: error: {exc}", file=sys.stderr)
        return 2
    code = 0
    if not result.built_anything:
        print("atlas build: nothing could be built", file=sys.stderr)
        code = 1
    elif args.strict and result.problems:
        code = 1
    if args.json:
        _print_json(
            {
                "out": str(result.out),
                "index": str(result.out / "index.html"),
                "maps": len(result.maps),
                "maps_ok": sum(1 for m in result.maps if m.ok),
                "games": len(result.games),
                "problems": list(result.problems),
                "seconds": round(result.seconds, 3),
                "cache": {"hits": result.cache_hits, "misses": result.cache_misses},
                "exit": code,
            }
        )
    return code


def _cmd_completion(args: argparse.Namespace, fail: Callable[[str], Any]) -> int:
    try:
        import shtab
    except ImportError:
        fail("shell completion needs shtab: pip install 'atlas-gridgames[completion]'")
        return 2  # pragma: no cover - fail exits
    print(shtab.complete(build_parser(), shell=args.shell))
    return 0


class Terminated(KeyboardInterrupt):
    """``SIGTERM`` reached atlas: it ends as on Ctrl-C (every bot and worker ended, every
    finished record kept), with exit status 143."""


def _on_sigterm(signum: int, frame: Any) -> None:
    raise Terminated()


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``atlas`` with ``argv`` (default: the command line); return the exit status."""
    import signal
    import threading

    parser = build_parser()
    args = parser.parse_args(argv)
    fail = _subparser(parser, args.command).error
    if threading.current_thread() is threading.main_thread():
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    else:  # pragma: no cover - atlas called from a thread: signals stay the caller's
        previous = None
    try:
        return int(args.func(args, fail) or 0)
    except AtlasError as exc:
        print(f"atlas: error: {exc}", file=sys.stderr)
        return 2
    except Terminated:
        return 143
    except KeyboardInterrupt:
        return 130
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":
    sys.exit(main())
