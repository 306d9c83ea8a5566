"""A tournament as an organiser runs it: a plan file, an output folder, resumable.

A plan is written in TOML (read with the standard library's ``tomllib``)::

    game = "tron"
    maps = ["maps/*.txt"]                # globs, relative to this file
    seeds = 2                            # replays of each pairing and seating
    time = 0.1                           # seconds a move; a bot may override it
    params = { compat = "official" }
    schedule = "round-robin"             # or "gauntlet": the first bot against each other
    sandbox = true                       # programs under bwrap, where it is installed
    limits = { memory = "2G" }           # every program's limits (docs/security.md)
    void_timeouts_under_load = 1.5       # void games lost on time at a load above 1.5 a core
    [[bots]]
    name = "alice"
    command = "python3 bot.py"
    cwd = "alice"                        # relative to this file
    limits = { cpu = 600 }               # this program's own
    env = { ALICE_LEVEL = "3" }          # variables added to its environment
    [[bots]]
    name = "frontline"
    builtin = "frontline"

or given by flags (``atlas tournament GAME --maps ... --bots ...``: the same plan).
:func:`run_plan` writes into its output folder, as each game ends, ``records/`` (one
``.json.gz`` per game, written atomically), then ``results.json`` (standings with
intervals, head to head, every game, the games voided and why) and a copy of the plan.
A folder it wrote carries the marker :data:`MARKER`; ``resume=True`` plays only the
games whose records are missing, and a folder that holds anything else is refused, so
atlas never overwrites what it did not write.  ``docs/tournaments.md`` walks through it.
"""

from __future__ import annotations

import glob
import hashlib
import json
import math
import os
import re
import shutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import AtlasError, OutputFolderError, PlanError, RecordError
from ..fsutil import read_toml_file, remove_stale_temporaries, write_atomically, writing_in
from ..limits import LimitError, check_depth, count_in_range, load_json, seconds_in_range
from ..maps import GameMap, find_maps, read_map
from ..sim.records import Record, load_record, save_record
from ..sim.registry import game_modules, get_info
from .players import Player, check_unique, parse_player, program_file
from .standings import Standings, standings
from .tournament import (
    SCHEDULES,
    GameSpec,
    record_name,
    results_json,
    run_games,
    schedule_games,
)

__all__ = [
    "PlanError",
    "OutputFolderError",
    "TournamentPlan",
    "TournamentResult",
    "load_plan",
    "plan_from_data",
    "plan_from_flags",
    "run_plan",
    "describe",
    "MARKER",
]

#: The file atlas leaves in every tournament folder it writes.
MARKER = ".atlas-tournament"
#: The names atlas gives records (:func:`atlas.arena.tournament.record_name`).
_RECORD_FILE = re.compile(r"^\d{5}-.+-[0-9a-f]{8}\.json\.gz$")


@dataclass(frozen=True)
class TournamentPlan:
    """What a tournament plays: the game, its maps, players, seeds, time and schedule."""

    game: str
    maps: tuple[GameMap, ...]
    players: tuple[Player, ...]
    seeds: int = 1
    time: float = 0.1
    params: Mapping[str, Any] = field(default_factory=dict)
    schedule: str = "round-robin"
    source: str | None = None
    text: str | None = None
    sandbox: bool = False
    #: What the results and the site call the tournament (the plan's ``name``).
    name: str | None = None
    #: Void the games lost on time while the machine's 1-minute load average was above
    #: this many tasks a core (the plan's ``void_timeouts_under_load``; ``None``: never).
    #: It decides what counts, not what is played: a resumed run may change it.
    void_under_load: float | None = None

    def specs(self) -> list[GameSpec]:
        """Every game of the plan, in a fixed order."""
        return schedule_games(
            self.game,
            self.maps,
            self.players,
            self.seeds,
            self.params,
            self.time,
            schedule=self.schedule,
            sandbox=self.sandbox,
        )

    @property
    def digest(self) -> str:
        """A hash of the games the plan plays (a resumed run must play the same ones)."""
        keys = [s.key for s in self.specs()]
        return hashlib.sha256(json.dumps(keys).encode()).hexdigest()[:16]


@dataclass
class TournamentResult:
    """The games of a run (every game of the plan), their records and the standings."""

    specs: list[GameSpec]
    records: list[Record]
    table: Standings
    files: list[str] | None = None
    resumed: int = 0


# --------------------------------------------------------------------------- the plan

_TOP = {
    "name": str,
    "game": str,
    "maps": list,
    "seeds": int,
    "time": (int, float),
    "params": dict,
    "schedule": str,
    "sandbox": bool,
    "limits": dict,
    "env": dict,
    "void_timeouts_under_load": (int, float),
    "bots": list,
}
_BOT = {
    "name": str,
    "command": str,
    "builtin": str,
    "cwd": str,
    "time": (int, float),
    "limits": dict,
    "env": dict,
}


def _line_of(text: str, key: str, table: str | None = None, nth: int = 0) -> int | None:
    """The line of ``key = ...`` at the top level, or in the ``nth`` ``[[table]]``."""
    lines = text.splitlines()
    start, end = 0, len(lines)
    header = re.compile(r"^\s*\[")
    if table is not None:
        heads = [i for i, ln in enumerate(lines) if re.match(rf"^\s*\[\[\s*{table}\s*\]\]", ln)]
        if nth >= len(heads):
            return None
        start = heads[nth] + 1
        end = next((i for i in range(start, len(lines)) if header.match(lines[i])), len(lines))
        if key == "":
            return heads[nth] + 1
    else:
        end = next((i for i, ln in enumerate(lines) if header.match(ln)), len(lines))
    pattern = re.compile(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*=")
    for i in range(start, end):
        if pattern.match(lines[i]):
            return i + 1
    return None


def _fail(
    path: str | None,
    text: str,
    message: str,
    key: str = "",
    table: str | None = None,
    nth: int = 0,
) -> PlanError:
    return PlanError(message, path=path, line=_line_of(text, key, table, nth) if text else None)


def _typed(
    path: str | None,
    text: str,
    data: Mapping[str, Any],
    schema: Mapping[str, Any],
    where: str,
    table: str | None = None,
    nth: int = 0,
) -> None:
    for key, value in data.items():
        if key not in schema:
            known = ", ".join(schema)
            raise _fail(
                path, text, f"unknown key {where}{key!r}; the keys are {known}", key, table, nth
            )
        want = schema[key]
        if not isinstance(value, want) or (
            isinstance(value, bool)
            and want is not bool
            and bool not in (want if isinstance(want, tuple) else (want,))
        ):
            names = " or ".join(
                t.__name__ for t in (want if isinstance(want, tuple) else (want,))
            )
            raise _fail(
                path,
                text,
                f"{where}{key} should be {names}, got "
                f"{type(value).__name__} {str(value)[:40]!r}",
                key,
                table,
                nth,
            )


def load_plan(path: str | os.PathLike[str]) -> TournamentPlan:
    """Read a tournament plan (TOML); paths in it are relative to the file.

    Raises
    ------
    PlanError
        The file cannot be read or parsed, a key is unknown or of the wrong type, a
        value is out of range, a map pattern matches nothing, or a player cannot be
        run; the message names the file, the line and the key.
    """
    p = Path(path)
    # within the readers' limits: a regular file, 1 MiB, nesting (a RecursionError of
    # the TOML parser is a PlanError naming the file)
    data, text = read_toml_file(p, PlanError)
    return plan_from_data(data, p.parent, source=str(p), text=text)


def plan_from_data(
    data: Mapping[str, Any],
    base: str | os.PathLike[str],
    *,
    source: str | None = None,
    text: str = "",
) -> TournamentPlan:
    """The plan of a plan file's data (:func:`load_plan` after reading the TOML; the
    Python API's plan given as a dict): the same keys, checked the same way.  Map
    patterns and programs' folders are relative to ``base``; ``source`` and ``text``,
    the file and its text when there is one, name the line of a mistake.  A ``maps``
    entry may also be a :class:`~atlas.maps.GameMap` of the plan's game.

    Raises
    ------
    PlanError
        As :func:`load_plan` (without a line when there is no file).
    """
    p = source
    src = source
    try:  # a dict given to the API may nest as deep as it likes; a file was checked
        check_depth(data, "the plan")
    except LimitError as exc:
        raise PlanError(str(exc), path=p) from None
    _typed(src, text, data, _TOP, "")
    for key in ("game", "maps", "bots"):
        if key not in data:
            raise PlanError(f"missing key {key!r}", path=p)
    game = data["game"]
    try:
        game_modules(game)
    except AtlasError as exc:
        raise _fail(src, text, str(exc), "game") from None
    base = Path(base)
    maps = _plan_maps(src, text, game, data["maps"], base)
    bots = data["bots"]
    players = []
    common_limits = _pairs(src, text, data.get("limits", {}), "limits", None, 0, True)
    common_env = _pairs(src, text, data.get("env", {}), "env", None, 0, False)
    for i, b in enumerate(bots):
        if not isinstance(b, dict):
            raise _fail(src, text, f"bots[{i}] should be a table ([[bots]])", "bots")
        _typed(src, text, b, _BOT, f"bots[{i}].", "bots", i)
        if "name" not in b:
            raise _fail(src, text, f"bots[{i}] has no name", "", "bots", i)
        if ("command" in b) == ("builtin" in b):
            raise _fail(
                src,
                text,
                f"bots[{i}] ({b['name']}) needs exactly one of 'command' and 'builtin'",
                "name",
                "bots",
                i,
            )
        cwd = str((base / b["cwd"]).resolve()) if "cwd" in b else str(base.resolve())
        spec = (
            f"{b['name']}=cmd:{b['command']}"
            if "command" in b
            else f"{b['name']}={b['builtin']}"
        )
        try:
            player = parse_player(spec, cwd=cwd if "command" in b else None)
        except AtlasError as exc:
            raise _fail(src, text, f"bots[{i}]: {exc}", "name", "bots", i) from None
        if "time" in b:
            try:
                seconds_in_range(b["time"], f"bots[{i}].time")
            except LimitError as exc:
                raise _fail(src, text, str(exc), "time", "bots", i) from None
        limits = dict(common_limits)
        limits.update(_pairs(src, text, b.get("limits", {}), "limits", "bots", i, True))
        env = dict(common_env)
        env.update(_pairs(src, text, b.get("env", {}), "env", "bots", i, False))
        player = Player(
            player.name,
            player.builtin,
            player.command,
            player.cwd,
            float(b["time"]) if "time" in b else None,
            tuple(sorted(limits.items())),
            tuple(sorted(env.items())),
        )
        players.append(player)
    try:  # finite ranges, checked before any game is scheduled (docs/security.md)
        seeds = count_in_range(data.get("seeds", 1), "seeds", 1)
    except LimitError as exc:
        raise _fail(src, text, str(exc), "seeds") from None
    try:
        time_limit = seconds_in_range(data.get("time", 0.1), "time")
    except LimitError as exc:
        raise _fail(src, text, str(exc), "time") from None
    schedule = data.get("schedule", "round-robin")
    if schedule not in SCHEDULES:
        raise _fail(
            src,
            text,
            f"schedule should be one of {', '.join(SCHEDULES)}, got {schedule!r}",
            "schedule",
        )
    params = dict(data.get("params", {}))
    try:
        get_info(game).check_params(params)
    except AtlasError as exc:
        raise _fail(src, text, str(exc), "params") from None
    name = data.get("name")
    if name is not None and not name.strip():
        raise _fail(src, text, "name should not be empty", "name")
    void = data.get("void_timeouts_under_load")
    if void is not None and not (math.isfinite(void) and void > 0):
        raise _fail(
            src,
            text,
            f"void_timeouts_under_load should be a load a core above 0, got {void!r}",
            "void_timeouts_under_load",
        )
    plan = _checked(
        TournamentPlan(
            game,
            tuple(maps),
            tuple(players),
            seeds,
            time_limit,
            params,
            schedule,
            src,
            text or None,
            bool(data.get("sandbox", False)),
            name.strip() if name else None,
            None if void is None else float(void),
        ),
        src,
        text,
    )
    return plan


def _pairs(
    src: str | None,
    text: str,
    table: Mapping[str, Any],
    key: str,
    where: str | None,
    nth: int,
    limits: bool,
) -> dict[str, str]:
    """A ``limits`` or ``env`` table as text pairs, each checked."""
    from .sandbox import BotLimits

    out: dict[str, str] = {}
    for name, value in table.items():
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise _fail(
                src,
                text,
                f"{key}.{name} should be a word or a whole number, got {value!r}",
                key,
                where,
                nth,
            )
        if limits:
            try:
                BotLimits().with_option(name, str(value))
            except AtlasError as exc:
                raise _fail(src, text, str(exc), key, where, nth) from None
        elif not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise _fail(src, text, f"env: {name!r} is not a variable name", key, where, nth)
        out[name] = str(value)
    return out


def _plan_maps(
    src: str | None, text: str, game: str, patterns: list[Any], base: Path
) -> list[GameMap]:
    maps: list[GameMap] = []
    for pattern in patterns:
        if isinstance(pattern, GameMap) and pattern.game == game:
            maps.append(pattern)
            continue
        if not isinstance(pattern, str):
            raise _fail(src, text, f"maps should hold strings, got {pattern!r}", "maps")
        full = pattern if os.path.isabs(pattern) else str(base / pattern)
        hits = sorted(glob.glob(full)) if glob.has_magic(full) else [full]
        files: list[Path] = []
        for h in hits:
            hp = Path(h)
            if hp.is_dir():
                files += find_maps(hp)
            elif hp.is_file():
                files.append(hp)
        if not files:
            raise _fail(src, text, f"no map matches {pattern!r}", "maps")
        for f in files:
            try:
                maps.append(read_map(f, game=game))
            except AtlasError as exc:
                raise PlanError(
                    f"map {pattern!r}: {exc}", path=src, line=_line_of(text, "maps")
                ) from None
    return maps


def _checked(plan: TournamentPlan, src: str | None, text: str) -> TournamentPlan:
    """Check every player before anything is played: unique names, known built-in
    bots, programs that exist."""
    from ..bots.registry import bot_names

    for key, check in (
        ("seeds", lambda: count_in_range(plan.seeds, "seeds", 1)),
        ("time", lambda: seconds_in_range(plan.time, "time")),
    ):
        try:  # finite ranges, before any game is scheduled (the flag form too)
            check()
        except LimitError as exc:
            raise _fail(src, text, str(exc), key) from None
    try:
        check_unique(plan.players)
    except AtlasError as exc:
        if src is None:
            raise
        raise _fail(src, text, str(exc), "name", "bots") from None
    known = bot_names(plan.game)
    for i, p in enumerate(plan.players):
        if p.builtin is not None and p.builtin not in known:
            raise _fail(
                src,
                text,
                f"{p.name}: {plan.game} has no built-in bot "
                f"{p.builtin!r}; built-in bots: {', '.join(known)}",
                "builtin",
                "bots",
                i,
            )
        if (
            p.command is not None
            and program_file(p.command, p.cwd) is None
            and shutil.which(p.command.split()[0]) is None
        ):
            raise _fail(
                src,
                text,
                f"{p.name}: cannot find the program of "
                f"{p.command!r} (in {p.cwd or 'the current folder'})",
                "command",
                "bots",
                i,
            )
    if len(plan.players) < 2:
        raise _fail(src, text, "a tournament needs at least two players", "bots")
    return plan


def plan_from_flags(
    game: str,
    maps: Sequence[str | os.PathLike[str]],
    bots: Sequence[str],
    seeds: int = 1,
    time: float = 0.1,
    params: Mapping[str, Any] | None = None,
    schedule: str = "round-robin",
    *,
    sandbox: bool = False,
    limits: Sequence[tuple[str, str]] = (),
    void_under_load: float | None = None,
) -> TournamentPlan:
    """The plan of ``atlas tournament GAME --maps ... --bots ...`` (the flag form);
    ``limits`` apply to every program; ``void_under_load`` is
    :attr:`TournamentPlan.void_under_load`."""
    from .sandbox import BotLimits
    from .tournament import load_maps

    for name, value in limits:
        BotLimits().with_option(name, value)
    players = tuple(
        Player(p.name, p.builtin, p.command, p.cwd, p.time, tuple(limits))
        for p in (parse_player(b) for b in bots)
    )
    return _checked(
        TournamentPlan(
            game,
            tuple(load_maps(game, maps)),
            players,
            seeds,
            float(time),
            dict(params or {}),
            schedule,
            None,
            None,
            sandbox,
            None,
            void_under_load,
        ),
        None,
        "",
    )


# --------------------------------------------------------------------------- running


def _prepare_folder(out: Path, plan: TournamentPlan, resume: bool, force: bool) -> None:
    """Check that ``out`` is atlas's to write, and mark it.

    An absent or empty folder is taken; a folder with atlas's marker is resumed (same
    plan) or, with ``force``, its records are replaced; anything else is refused.
    """
    marker = out / MARKER
    if out.exists() and not out.is_dir():
        raise OutputFolderError(f"{out} is a file, not a folder")
    if out.is_dir():  # what a killed run of atlas left here, and nothing else
        remove_stale_temporaries(out)
        if (out / "records").is_dir() and not (out / "records").is_symlink():
            remove_stale_temporaries(out / "records")
    if out.is_dir() and any(out.iterdir()):
        if not marker.is_file():
            raise OutputFolderError(
                f"{out} holds files atlas did not write; give an empty or new folder"
            )
        try:
            mine = load_json(marker.read_bytes())
        except (OSError, ValueError):  # LimitError is a ValueError: nested too deep
            mine = {}
        if not isinstance(mine, dict):
            mine = {}
        if mine.get("plan") != plan.digest and not force:
            raise OutputFolderError(
                f"{out} holds another tournament (other games); give a new folder, or "
                "--force to replace the records atlas wrote there"
            )
        if not resume and not force:
            raise OutputFolderError(
                f"{out} already holds this tournament; --resume plays the games that are "
                "missing, --force plays them all again"
            )
    with writing_in(out, "the tournament folder"):  # read-only, full: said, named
        out.mkdir(parents=True, exist_ok=True)
        # the marker first: a run killed after it leaves a folder the next run knows
        _atomic_text(
            marker,
            json.dumps({"format": "atlas-tournament-folder", "version": 1, "plan": plan.digest})
            + "\n",
        )
        (out / "records").mkdir(exist_ok=True)
    if force and not resume:
        for old in (out / "records").iterdir():  # only what atlas wrote there
            if _RECORD_FILE.match(old.name) and old.is_file():
                old.unlink()


def _atomic_text(path: Path, text: str) -> None:
    write_atomically(path, text.encode("utf-8"))


def _existing(
    out: Path, specs: list[GameSpec], log: Callable[[str], None] | None = None
) -> dict[int, Record]:
    """The records already in ``out/records`` for ``specs``; a damaged one is played
    again, and ``log`` is told which file it was and why (``out`` as given)."""
    found: dict[int, Record] = {}
    for i, spec in enumerate(specs):
        path = out / "records" / record_name(spec, i)
        if path.is_file():
            try:
                found[i] = load_record(path)
            except RecordError as exc:
                if log is not None:
                    log(f"record {exc}; the game is played again")
    return found


def run_plan(
    plan: TournamentPlan,
    out: str | os.PathLike[str] | None = None,
    *,
    resume: bool = False,
    force: bool = False,
    jobs: int | None = None,
    scheduler: str | None = None,
    progress: bool = False,
    log: Callable[[str], None] | None = None,
) -> TournamentResult:
    """Play ``plan``; with ``out``, write each record as its game ends, then the results.

    Raises
    ------
    OutputFolderError
        ``out`` holds what atlas did not write, or another tournament (nothing is
        touched then).
    StorageError
        ``out`` cannot be written (read-only, a full disk): names the folder; the
        records written before stay, and ``resume`` plays the rest.
    """
    specs = plan.specs()
    folder = None if out is None else Path(out)
    done: dict[int, Record] = {}
    if folder is not None:
        _prepare_folder(folder, plan, resume, force)
        if resume:
            done = _existing(folder, specs, log)
    todo = [i for i in range(len(specs)) if i not in done]
    if log is not None and done:
        log(f"resuming: {len(done)} of {len(specs)} games already played")

    def keep(k: int, record: Record) -> None:
        i = todo[k]
        done[i] = record
        if folder is not None:
            save_record(record, folder / "records" / record_name(specs[i], i))

    run_games(
        [specs[i] for i in todo],
        jobs=jobs,
        scheduler=scheduler,
        progress=progress,
        on_record=keep,
    )
    records = [done[i] for i in range(len(specs))]
    table = standings(records, plan.players, void_under_load=plan.void_under_load)
    files = None
    if folder is not None:
        files = [f"records/{record_name(s, i)}" for i, s in enumerate(specs)]
        _atomic_text(
            folder / "results.json",
            json.dumps(results_json(specs, records, table, files, name=plan.name), indent=1)
            + "\n",
        )
        if plan.text is not None:
            _atomic_text(folder / "tournament.toml", plan.text)
    return TournamentResult(specs, records, table, files, len(specs) - len(todo))


def describe(plan: TournamentPlan) -> str:
    """One line: the game, the numbers of games, maps, players and seeds."""
    n = len(plan.specs())
    void = (
        ""
        if plan.void_under_load is None
        else f", games lost on time at a load above {plan.void_under_load:g} a core voided"
    )
    return (
        f"{plan.game}: {n} games on {len(plan.maps)} map(s), {len(plan.players)} "
        f"players, {plan.seeds} seed(s), {plan.time:g} s per move, {plan.schedule}{void}"
    )
