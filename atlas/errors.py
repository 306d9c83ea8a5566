"""One error family for atlas.

Every error atlas raises on purpose is an :class:`AtlasError`.  Errors about bad input
(a map file, a record, a move) also subclass :class:`ValueError`.  Messages that point
into a file are built by :func:`located` so the same mistake reads the same everywhere:
``maps/tron/ring.txt:3: row has 14 characters, expected 15``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

__all__ = [
    "AtlasError",
    "MapFormatError",
    "RecordError",
    "PlanError",
    "OutputFolderError",
    "StorageError",
    "PathError",
    "IllegalMoveError",
    "InvalidMoveError",
    "BotError",
    "ParamError",
    "UnknownNameError",
    "ArgumentError",
    "MOVE_DATA_ERRORS",
    "located",
    "choices_text",
]


def located(path: str | os.PathLike[str] | None, line: int | None, message: str) -> str:
    """Return ``"path:line: message"``, leaving out the parts that are unknown."""
    where = ""
    if path is not None:
        where = os.fspath(path)
        if line is not None:
            where += f":{line}"
        where += ": "
    elif line is not None:
        where = f"line {line}: "
    return where + message


class AtlasError(Exception):
    """Base class of every error atlas raises on purpose."""


class _LocatedError(AtlasError, ValueError):
    """A bad-input error that knows the file and line it comes from."""

    def __init__(
        self,
        message: str,
        *,
        path: str | os.PathLike[str] | None = None,
        line: int | None = None,
    ) -> None:
        self.path = None if path is None else os.fspath(path)
        self.line = line
        self.reason = message
        super().__init__(located(path, line, message))


class MapFormatError(_LocatedError):
    """A map file that cannot be read: names the file, the line and the problem."""


class RecordError(_LocatedError):
    """A replay record that is damaged, foreign, or does not replay."""


class PlanError(_LocatedError):
    """A tournament plan file that cannot be used: names the file, the line and the key."""


class OutputFolderError(AtlasError):
    """An output folder or file atlas may not write (it holds what atlas did not write)."""


class StorageError(OutputFolderError):
    """A folder atlas was writing in failed under it: a full disk, a read-only file
    system, a quota, an I/O error.  The message names the folder (a build's site and its
    cache may be on different disks) and the system's reason; ``folder`` is that folder
    and ``errno`` the system's error number (``None`` when unknown)."""

    def __init__(self, message: str, *, folder: str | None = None, errno: int | None = None):
        self.folder = folder
        self.errno = errno
        super().__init__(message)


class PathError(AtlasError, ValueError):
    """A path that cannot name a file at all (a NUL byte in it, a character the file
    system's encoding cannot write); the message names what was given."""


class InvalidMoveError(AtlasError, ValueError):
    """A move that cannot be parsed (bad syntax, wrong type)."""


class IllegalMoveError(AtlasError, ValueError):
    """A well-formed move that the rules do not allow in this position."""


#: What a game's rules may raise on a move made up by data (a record, a bot's answer):
#: :class:`InvalidMoveError` and :class:`IllegalMoveError` are theirs; the others come
#: from moves of the wrong shape (a list where a number goes, a number too large for an
#: array index).
MOVE_DATA_ERRORS: tuple[type[Exception], ...] = (
    InvalidMoveError,
    IllegalMoveError,
    ValueError,
    TypeError,
    KeyError,
    IndexError,
    OverflowError,
)


class BotError(AtlasError):
    """A bot that cannot be started or named (unknown name, bad command line)."""


class ParamError(AtlasError, ValueError):
    """A game parameter that is unknown, of the wrong type or out of range.

    Raised by :meth:`atlas.sim.base.GameInfo.check_params` for every game, so the same
    mistake reads the same everywhere: ``tron parameter compat should be one of fair,
    official, got 'strict'``.
    """


class UnknownNameError(AtlasError, LookupError):
    """A game, bot or map asked for by a name that atlas does not know.

    ``kind`` is ``"game"``, ``"bot"`` or ``"map"``; ``name`` the name asked for;
    ``known`` the names that would have been accepted.
    """

    def __init__(
        self, kind: str, name: str, known: Iterable[str] = (), where: str = ""
    ) -> None:
        self.kind = kind
        self.name = name
        self.known = tuple(known)
        text = f"unknown {where + ' ' if where else ''}{kind} {name!r}"
        if self.known:
            text += f"; expected {choices_text(self.known)}"
        else:
            text += f"; there is no {where + ' ' if where else ''}{kind} to choose from"
        super().__init__(text)

    def __str__(self) -> str:
        return str(self.args[0])


class ArgumentError(AtlasError, ValueError):
    """An argument of an atlas function that is of the wrong kind or out of range.

    The Python API's counterpart of a command-line usage error: the message names the
    argument and the value given, ``time: expected a positive number of seconds, got
    0``.
    """


def choices_text(names: Iterable[str]) -> str:
    """``"one of a, b, c"`` (or ``"a"`` when there is only one) for error messages."""
    names = [str(n) for n in names]
    return names[0] if len(names) == 1 else "one of " + ", ".join(names)
