"""Who plays: player specs, their names, and the identity a record keeps of them.

A player is written as

``NAME=cmd:COMMAND``
    a program run with ``COMMAND`` (split like a shell would, run without one), called
    ``NAME``;
``NAME=BUILTIN``
    the built-in bot ``BUILTIN``, called ``NAME`` (two settings of one bot can play);
``BUILTIN``
    a built-in bot under its own name;
``cmd:COMMAND``
    a program, named after its program file: ``cmd:./my-engine --level 3`` is
    ``my-engine``, ``cmd:python3 bots/alice.py`` is ``alice`` (an interpreter's first
    file argument is the program), never a later word.

Within a tournament every name is unique (:func:`check_unique`).  A record keeps each
seat's :class:`~atlas.sim.records.PlayerEntry`: the name, the kind, the command or the
built-in's name, and the SHA-256 of the program file when it is found, so standings key
on :attr:`PlayerEntry.identity <atlas.sim.records.PlayerEntry.identity>`, which a record
cannot take over by choosing a name.
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import BotError
from ..sim.records import PlayerEntry

__all__ = [
    "Player",
    "parse_player",
    "check_unique",
    "check_specs",
    "program_file",
    "file_digest",
    "EXTERNAL_PREFIX",
    "INTERPRETERS",
]

#: A player spec that starts with this runs a program: ``cmd:./mybot --fast``.
EXTERNAL_PREFIX = "cmd:"
#: Programs that run another file: the program of ``python3 bot.py`` is ``bot.py``.
INTERPRETERS = re.compile(
    r"^(python[0-9.]*|pypy[0-9.]*|node|nodejs|ruby|perl|php|lua"
    r"|bash|sh|dash|zsh|java|Rscript|julia|dotnet|mono|env)$"
)
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]{0,63}$")


@dataclass(frozen=True)
class Player:
    """One player of a tournament: its name and what runs it.

    Exactly one of ``builtin`` (a built-in bot's name) and ``command`` (a program's
    command line) is set.  ``cwd`` is the program's working folder (``None``: a fresh
    folder); ``time`` overrides the tournament's seconds per move for this player;
    ``limits`` (``(name, value)`` pairs of :class:`~atlas.arena.sandbox.BotLimits`
    options, e.g. ``("memory", "2G")``) and ``env`` (variables added to its minimal
    environment) say how a program runs (:mod:`atlas.arena.sandbox`).
    """

    name: str
    builtin: str | None = None
    command: str | None = None
    cwd: str | None = None
    time: float | None = None
    limits: tuple[tuple[str, str], ...] = ()
    env: tuple[tuple[str, str], ...] = ()

    def containment(self, sandbox: bool = False) -> Any:
        """The :class:`~atlas.arena.sandbox.Containment` this player's program runs in."""
        from .sandbox import BotLimits, Containment

        limits = BotLimits()
        for name, value in self.limits:
            limits = limits.with_option(name, value)
        return Containment(limits, dict(self.env), sandbox)

    @property
    def kind(self) -> str:
        return "builtin" if self.builtin is not None else "external"

    @property
    def spec(self) -> str:
        """The player as a spec string (what :func:`parse_player` reads back)."""
        inner = (
            self.builtin if self.builtin is not None else EXTERNAL_PREFIX + str(self.command)
        )
        return inner if self.builtin == self.name else f"{self.name}={inner}"

    def entry(self) -> PlayerEntry:
        """How a record names this player (the program file's digest included)."""
        if self.builtin is not None:
            return PlayerEntry(
                self.name, "builtin", None, None if self.builtin == self.name else self.builtin
            )
        path = program_file(self.command or "", self.cwd)
        return PlayerEntry(
            self.name,
            "external",
            self.command,
            None,
            file_digest(path) if path is not None else None,
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            k: v
            for k, v in (
                ("name", self.name),
                ("builtin", self.builtin),
                ("command", self.command),
                ("cwd", self.cwd),
                ("time", self.time),
            )
            if v is not None
        }
        if self.limits:
            out["limits"] = dict(self.limits)
        if self.env:
            out["env"] = dict(self.env)
        return out


def parse_player(text: str | Player, *, cwd: str | None = None) -> Player:
    """The :class:`Player` a spec string stands for (see the module notes).

    Raises
    ------
    BotError
        An empty command, a name that is not a plain word, or a command that does not
        split (an unclosed quote).
    """
    if isinstance(text, Player):
        return text
    spec = str(text).strip()
    name: str | None = None
    head, eq, rest = spec.partition("=")
    if eq and not head.startswith(EXTERNAL_PREFIX) and " " not in head:
        name, spec = head.strip(), rest.strip()
    if spec.startswith(EXTERNAL_PREFIX):
        command = spec[len(EXTERNAL_PREFIX) :].strip()
        if not command:
            raise BotError(f"empty command line in player {text!r}")
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise BotError(f"cannot split the command line {command!r}: {exc}") from None
        if not argv:
            raise BotError(f"empty command line in player {text!r}")
        player = Player(name or _program_name(argv), command=command, cwd=cwd)
    else:
        if not spec:
            raise BotError(f"no bot named in player {text!r}")
        player = Player(name or spec, builtin=spec)
    if not _NAME.match(player.name):
        raise BotError(
            f"bad player name {player.name!r}: letters, digits and . _ + -, "
            "at most 64, starting with a letter or digit"
        )
    return player


def _program_name(argv: list[str]) -> str:
    """The name of a program: its file's stem, or the interpreted file's stem."""
    program = argv[0]
    if INTERPRETERS.match(os.path.basename(program)):
        files = [a for a in argv[1:] if not a.startswith("-")]
        if files:
            program = files[0]
    stem = Path(program).name
    for suffix in (".py", ".js", ".rb", ".pl", ".sh", ".jar", ".exe", ".lua", ".php"):
        if stem.endswith(suffix) and len(stem) > len(suffix):
            stem = stem[: -len(suffix)]
            break
    clean = re.sub(r"[^A-Za-z0-9_.+-]", "-", stem).strip("-._+") or "program"
    return clean[:64]


def program_file(command: str, cwd: str | None = None) -> Path | None:
    """The file a command runs (the interpreted file for an interpreter), if it exists."""
    try:
        argv = shlex.split(command)
    except ValueError:
        return None
    if not argv:
        return None
    candidates = [argv[0]]
    if INTERPRETERS.match(os.path.basename(argv[0])):
        candidates = [a for a in argv[1:] if not a.startswith("-")][:1] + candidates
    base = Path(cwd) if cwd else Path.cwd()
    for c in candidates:
        p = Path(c) if os.path.isabs(c) else base / c
        if p.is_file():
            return p
    return None


def file_digest(path: str | os.PathLike[str]) -> str:
    """SHA-256 of a file's bytes, hex."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def check_unique(players: Iterable[Player]) -> list[Player]:
    """The players as a list; :class:`BotError` when two share a name."""
    out = list(players)
    seen: dict[str, Player] = {}
    for p in out:
        if p.name in seen:
            raise BotError(
                f"two players are called {p.name!r} ({seen[p.name].spec} and "
                f"{p.spec}); give them names: NAME=cmd:COMMAND or NAME=BOT"
            )
        seen[p.name] = p
    return out


def check_specs(game: str, specs: Iterable[str | Player]) -> list[Player]:
    """The players of ``specs`` (spec strings or :class:`Player` values), each naming a
    built-in bot of ``game`` or a program; ``atlas play`` and :func:`atlas.play` check
    their players with it, so a mistake reads the same in both.

    Raises
    ------
    BotError
        A spec that does not parse (:func:`parse_player`), or a built-in bot ``game``
        does not have: ``unknown tron bot 'x'; built-in: random, ... (or
        cmd:<command line>, NAME=BOT, NAME=cmd:...)``.
    """
    from ..bots.registry import bot_names

    known = bot_names(game)
    players = []
    for spec in specs:
        player = parse_player(spec)
        if player.builtin is not None and player.builtin not in known:
            raise BotError(
                f"unknown {game} bot {player.builtin!r}; built-in: {', '.join(known)} "
                f"(or {EXTERNAL_PREFIX}<command line>, NAME=BOT, NAME={EXTERNAL_PREFIX}...)"
            )
        players.append(player)
    return players
