"""What several commands share: their options, their checks, and help texts that name
facts about the registered games.

A command adds its options with the ``add_*`` helpers, so one option reads the same on
every command that takes it.  Help texts name
facts about the games as ``{NAME}`` (:data:`FACTS`: each game's parameters, the games
with the original engine's rules, ...); :class:`HelpFormatter` fills them in when a help
text is shown, from the games' own :class:`~atlas.sim.base.GameInfo` and painter modules.
So the CLI names no game, and building the parser imports none of them (``atlas
validate`` and ``atlas --help`` do not pay for every game's rules).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from ..errors import AtlasError
from ..jit import INTERPRET_MAX_CELLS
from ..limits import (
    MAX_COUNT,
    MAX_JOBS,
    MAX_SECONDS,
    MAX_SEED,
    LimitError,
    count_in_range,
    load_json,
    seconds_in_range,
    shown,
)

__all__ = [
    "Fail",
    "COMPAT_WORDS",
    "COMPAT_ALIASES",
    "INTERPRET_MAX_CELLS",
    "FACTS",
    "HelpFormatter",
    "with_facts",
    "fill_facts",
    "games",
    "add_game",
    "add_compat",
    "add_params",
    "add_flag",
    "add_map",
    "add_output",
    "add_force",
    "add_json",
    "add_quiet",
    "ANALYSIS_COMPILE_SECONDS",
    "add_time",
    "add_effort",
    "seat_efforts",
    "add_count",
    "add_seed",
    "add_bot_options",
    "positive_float",
    "load_per_core",
    "count",
    "seed",
    "progress",
    "print_json",
    "game_params",
    "compat_value",
    "check_bots",
]

#: A command's usage error: its parser's ``error`` (prints the usage, exits 2).
Fail = Callable[[str], Any]

#: ``--compat`` words, the same for every game: ``spec`` plays the documented rules
#: (each game's own default, whatever the game calls it), ``official`` what the original
#: engine does.
COMPAT_WORDS = ("spec", "official")
#: Older spellings ``--compat`` still reads.
COMPAT_ALIASES = {"fair": "spec"}


# --------------------------------------------------------------------------- game facts


def games() -> tuple[str, ...]:
    """The registered games (their names only: no game module is imported)."""
    from ..sim.registry import game_names

    return game_names()


def _param_names() -> str:
    """Each game's parameters but ``compat`` (``--compat`` sets it), as
    ``GAME: NAME, NAME; ...``."""
    from ..sim.registry import get_info

    parts = []
    for game in games():
        names = [p.name for p in get_info(game).params if p.name != "compat"]
        if names:
            parts.append(f"{game}: {', '.join(names)}")
    return "; ".join(parts)


def has_official(game: str) -> bool:
    """Whether ``game``'s rules have the original engine's variant (``--compat official``)."""
    from ..sim.registry import get_info

    compat = get_info(game).param("compat")
    return compat is not None and "official" in compat.choices


def _official_games() -> str:
    """The games whose rules have the original engine's variant (``--compat official``)."""
    return ", ".join(game for game in games() if has_official(game))


def _validating_games() -> str:
    """The titles of the games whose submitted maps atlas validates."""
    from ..maps.validation import validating_games
    from ..sim.registry import get_info

    return " and ".join(get_info(g).title for g in validating_games())


#: Facts a help text may name as ``{NAME}``, each computed when a help text is shown.
FACTS: dict[str, Callable[[], str]] = {
    "params": _param_names,
    "official_games": _official_games,
    "validating_games": _validating_games,
}


def with_facts(text: str) -> str:
    """``text`` with each ``{NAME}`` of :data:`FACTS` it holds filled in."""
    for name, fact in FACTS.items():
        token = "{" + name + "}"
        if token in text:
            text = text.replace(token, fact())
    return text


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help formatter, with the :data:`FACTS` a help text names filled in."""

    def _expand_help(self, action: argparse.Action) -> str:
        return with_facts(super()._expand_help(action))

    def _format_text(self, text: str) -> str:
        return super()._format_text(with_facts(text))


def fill_facts(parser: argparse.ArgumentParser) -> None:
    """Fill in the :data:`FACTS` of every help text of ``parser`` and its sub-commands
    (for a tool that reads the texts without formatting them, such as shtab)."""
    if parser.description:
        parser.description = with_facts(parser.description)
    for action in parser._actions:
        if isinstance(action.help, str):
            action.help = with_facts(action.help)
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._get_subactions():
                if isinstance(choice.help, str):
                    choice.help = with_facts(choice.help)
            for sub in action.choices.values():
                fill_facts(sub)


# --------------------------------------------------------------------------- options


def positive_float(text: str) -> float:
    """An argument's number of seconds: more than 0 and at most
    :data:`~atlas.limits.MAX_SECONDS` (``inf`` and ``nan`` are refused: a limit that
    cannot end)."""
    try:
        return seconds_in_range(text, "expected", MAX_SECONDS)
    except LimitError as exc:
        raise argparse.ArgumentTypeError(_without_what(exc)) from None


def load_per_core(text: str) -> float:
    """An argument's machine load a core: more than 0, at most 1,000."""
    try:
        return seconds_in_range(text, "expected", 1000.0, unit="load average a core")
    except LimitError as exc:
        raise argparse.ArgumentTypeError(_without_what(exc)) from None


def count(minimum: int, maximum: int = MAX_COUNT) -> Callable[[str], int]:
    """An argument's whole number, from ``minimum`` to ``maximum`` (checked before it is
    converted: a count of 10**23 is refused before any work)."""

    def parse(text: str) -> int:
        try:
            return count_in_range(text, "expected", minimum, maximum)
        except LimitError as exc:
            raise argparse.ArgumentTypeError(_without_what(exc)) from None

    parse.__name__ = f"whole number >= {minimum}"
    return parse


def seed(text: str) -> int:
    """An argument's seed: a whole number from 0 to :data:`~atlas.limits.MAX_SEED`."""
    return count(0, MAX_SEED)(text)


def _without_what(exc: LimitError) -> str:
    """The message of a range check made with ``what="expected"``: ``expected a whole
    number from 0 to 100,000, got '1000...'`` (argparse names the option)."""
    text = str(exc)
    return text[len("expected: ") :] if text.startswith("expected: ") else text


def _param_pair(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {shown(text)}")
    try:  # within the readers' limits: nesting, digits, no NaN
        return key.strip(), load_json(value)
    except LimitError as exc:
        raise argparse.ArgumentTypeError(f"{shown(key.strip())}: {exc}") from None
    except (json.JSONDecodeError, UnicodeError):
        return key.strip(), value


def _compat_word(text: str) -> str:
    return COMPAT_ALIASES.get(text, text)


def add_game(
    p: argparse.ArgumentParser, *, positional: bool = True, help: str = "the game"
) -> None:
    """The game: a positional word (or ``--game``) limited to the registered games."""
    names = games()
    if positional:
        p.add_argument(
            "game", choices=names, metavar="GAME", help=f"{help}: {', '.join(names)}"
        )
    else:
        p.add_argument(
            "--game",
            choices=names,
            metavar="GAME",
            default=None,
            help=f"{help}: {', '.join(names)}",
        )


def add_compat(
    p: argparse.ArgumentParser | argparse._ArgumentGroup, help: str | None = None
) -> None:
    """``--compat {spec,official}``: which rules a command that plays follows."""
    p.add_argument(
        "--compat",
        type=_compat_word,
        choices=COMPAT_WORDS,
        default=None,
        help=help
        or "rules to play: 'spec', the documented rules (the default), or "
        "'official', what the original engine does ({official_games})",
    )


def add_params(p: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """``--param KEY=VALUE``, repeatable; the value is read as JSON when it can be."""
    p.add_argument(
        "--param",
        action="append",
        default=[],
        type=_param_pair,
        metavar="KEY=VALUE",
        help="a game parameter, repeatable; VALUE is read as JSON when it can be ({params})",
    )


def add_flag(
    p: argparse.ArgumentParser | argparse._ArgumentGroup, *flags: str, help: str
) -> None:
    """An option that is off unless given (``--force``, ``--json``, ...)."""
    p.add_argument(*flags, action="store_true", help=help)


def add_map(
    p: argparse.ArgumentParser, *, default: str | None = None, metavar: str = "MAP"
) -> None:
    """The map file a command reads: ``MAP``, or ``--map`` when it has a ``default``."""
    if default is None:
        p.add_argument("map", metavar=metavar, help="the map file")
    else:
        p.add_argument("--map", metavar=metavar, help=f"the map file (default: {default})")


def add_output(p: argparse.ArgumentParser, flag: str, metavar: str, what: str) -> None:
    """A file the command writes (``flag``), and ``--force`` (:func:`add_force`)."""
    p.add_argument(flag, metavar=metavar, help=what)
    add_force(p)


def add_force(p: argparse.ArgumentParser) -> None:
    """``--force``: write over an output file that atlas did not write."""
    add_flag(
        p,
        "--force",
        help="write over an existing output file even when atlas did not write "
        "it (atlas's own records, GIFs and PNGs are replaced anyway)",
    )


def add_json(p: argparse.ArgumentParser, what: str) -> None:
    """``--json``: the report as JSON on standard output."""
    add_flag(p, "--json", help=f"print {what} as JSON")


def add_quiet(p: argparse.ArgumentParser) -> None:
    """``--quiet``: no progress bars and no summary lines on standard error."""
    add_flag(
        p,
        "-q",
        "--quiet",
        help="no progress bars or progress lines (bars are drawn only on a terminal anyway)",
    )


def add_time(
    p: argparse.ArgumentParser | argparse._ArgumentGroup, default: float | None, what: str
) -> None:
    """``--time SECONDS`` per move."""
    p.add_argument(
        "--time",
        type=positive_float,
        default=default,
        metavar="SECONDS",
        help=what + (f" (default {default:g})" if default is not None else ""),
    )


def add_effort(p: argparse.ArgumentParser | argparse._ArgumentGroup, what: str) -> None:
    """``--effort N [N ...]``: built-in bots' fixed effort per move, one for every seat
    or one per seat (:attr:`atlas.bots.base.BotBase.effort`)."""
    p.add_argument("--effort", type=count(1), nargs="+", default=None, metavar="N", help=what)


def seat_efforts(
    game: str, bots: list[str], effort: list[int] | None, timed: bool, fail: Fail
) -> list[int]:
    """Each seat's effort: ``effort`` (one for all seats or one per seat), else each
    built-in bot's default effort (:func:`atlas.bots.registry.bot_effort`; 0 for a
    program), else, with ``timed`` (``--time`` given), 0: every seat by the clock."""
    from ..bots.registry import bot_effort

    if effort is not None:
        if len(effort) not in (1, len(bots)):
            fail(f"--effort: one value for every seat or one per seat ({len(bots)})")
        return list(effort) * len(bots) if len(effort) == 1 else list(effort)
    if timed:
        return [0] * len(bots)
    return [bot_effort(game, b) for b in bots]


def add_count(
    p: argparse.ArgumentParser | argparse._ArgumentGroup,
    flag: str,
    minimum: int,
    what: str,
    maximum: int | None = None,
) -> None:
    """``flag N``: a whole number from ``minimum`` to ``maximum`` (default ``None``;
    the maximum is :data:`~atlas.limits.MAX_JOBS` for ``--jobs``, else
    :data:`~atlas.limits.MAX_COUNT`: ``docs/security.md`` lists them)."""
    if maximum is None:
        maximum = MAX_JOBS if flag == "--jobs" else MAX_COUNT
    p.add_argument(flag, type=count(minimum, maximum), default=None, metavar="N", help=what)


def add_workers(p: argparse.ArgumentParser) -> None:
    """``--jobs N`` local worker processes, or ``--scheduler ADDRESS`` of a Dask cluster."""
    add_count(p, "--jobs", 1, "local worker processes (default: one per core)")
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run the games on this dask.distributed scheduler instead",
    )


def _cache_folder(text: str) -> str:
    """``--cache DIR``: a folder, or a path where one can be made (a file is refused)."""
    from ..render.site.cache import check_cache_root

    try:
        check_cache_root(text)
    except AtlasError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def add_cache(p: argparse.ArgumentParser, whose: str) -> None:
    """``--cache DIR`` (default ``.atlas-cache``, the build's) and ``--no-cache``."""
    p.add_argument(
        "--cache",
        metavar="DIR",
        type=_cache_folder,
        default=".atlas-cache",
        help=f"{whose} cache, shared with atlas build (default: .atlas-cache)",
    )
    add_flag(p, "--no-cache", help="play every game, keep none")


def add_seed(p: argparse.ArgumentParser, whose: str) -> None:
    """``--seed N``: the seed of a game or a bot (default 0)."""
    p.add_argument(
        "--seed", type=seed, default=0, metavar="N", help=f"{whose} seed (default 0)"
    )


def add_bot_options(p: argparse.ArgumentParser) -> None:
    """How external bots run (docs/security.md): sandbox, limits, environment."""
    add_flag(
        p,
        "--sandbox",
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


#: About how many seconds of one core numba takes to compile the analyses' kernels from
#: an empty cache (``atlas analyze`` of a large map, the maps of ``atlas build``).
ANALYSIS_COMPILE_SECONDS = 8.0


def progress(args: argparse.Namespace) -> bool:
    """Progress bars: only on a terminal, never with ``--quiet`` or ``--json``."""
    return (
        sys.stderr.isatty()
        and not getattr(args, "quiet", False)
        and not getattr(args, "json", False)
    )


def print_json(data: Any) -> None:
    """``data`` as one JSON document on standard output."""
    print(json.dumps(data))


# --------------------------------------------------------------------------- checks


def game_params(args: argparse.Namespace, fail: Fail) -> dict[str, Any]:
    """The game parameters of ``--param`` and ``--compat`` (usage errors through ``fail``)."""
    params = dict(args.param or [])
    if getattr(args, "compat", None) is not None:
        params["compat"] = compat_value(args.game, args.compat, fail)
    return params


def compat_value(game: str, word: str, fail: Callable[[str], NoReturn]) -> Any:
    """The value of ``game``'s ``compat`` parameter that ``word`` names."""
    from ..sim.registry import get_info

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


def check_bots(game: str, specs: Sequence[str], fail: Fail) -> None:
    """Every player spec names a built-in bot of ``game`` or a program (usage errors
    through ``fail``); see :func:`atlas.arena.players.check_specs`."""
    from ..arena.players import check_specs

    try:
        check_specs(game, specs)
    except AtlasError as exc:
        fail(str(exc))


def add_site_inputs(p: argparse.ArgumentParser, tournament_help: str) -> None:
    """``--out``, ``--records`` and ``--tournament``: where a site goes and what else
    it publishes (``atlas build``, ``atlas serve``)."""
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
        help=tournament_help,
    )


def add_effort_or_time(p: argparse.ArgumentParser, program_time: float) -> None:
    """``--time`` and ``--effort`` of commands that play fairness games (``atlas
    fairness``, ``atlas validate --fairness``): built-in bots at their effort by
    default, the clock when ``--time`` is given."""
    add_time(
        p,
        None,
        f"seconds per move by the clock, for built-in bots too (default: built-in bots "
        f"play at fixed effort, programs get {program_time:g} s a move)",
    )
    add_count(
        p,
        "--effort",
        1,
        "built-in bots play at N times their default effort per move (default 1; docs/bots.md)",
    )
