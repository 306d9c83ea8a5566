"""The validation contract: what a game that checks submitted maps offers, and what
every check returns.

A game validates its maps when its package has a ``validation`` module (the registry,
:mod:`atlas.games`, finds it by its role).  That module holds ``VALIDATOR``, a
:class:`Validator`: it checks a file or a text against the game's rules and returns a
:class:`ValidationReport` of :class:`Problem` values.  Everything that validates
(``atlas validate``, :func:`atlas.validate`, the site's validation page) goes through
:func:`validator_of` and names no game; a game that does not validate its maps gives
:class:`NoValidationError` ("tron maps have no validation rules").

:func:`validation_jobs` decides which game's rules apply to each file of the paths a
user gives (:func:`validate_paths` runs them); :func:`format_reports` and
:func:`reports_csv` are the text and CSV of reports, the same for every game.  The
picture of a report is drawn by the game's painter module
(:meth:`atlas.render.painter.GameRender.validation_picture`), far above this layer:
:meth:`ValidationReport.picture` reaches it through :mod:`atlas.display`.

Rules every validator shares: ``unreadable`` (a path that cannot be read at all: it is
missing, a folder without maps, not a regular file) is reported here, before a game is
chosen; the others are the game's own (``docs/validate.md`` lists Outpost's).
"""

from __future__ import annotations

import abc
import importlib
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..errors import ArgumentError, UnknownNameError, choices_text, located
from ..games import game_modules, game_names
from ..types import Cell, Grid, JSONObject

__all__ = [
    "Problem",
    "ValidationReport",
    "Validator",
    "NoValidationError",
    "ValidationJob",
    "UNREADABLE",
    "SHOWN_PER_RULE",
    "validating_games",
    "validator_of",
    "choose_game",
    "game_of_file",
    "validation_jobs",
    "run_jobs",
    "validate_paths",
    "unreadable_report",
    "format_reports",
    "reports_csv",
]

#: The rule of a path that cannot be read at all, the same for every game.
UNREADABLE = "unreadable"
#: Bytes read at most to tell which game a file is a map of.
_SNIFF_BYTES = 256 * 1024


@dataclass(frozen=True)
class Problem:
    """One problem of a map file.

    Attributes
    ----------
    rule : str
        The stable id of the rule broken (the game's validator lists them:
        :attr:`Validator.rules`).
    message : str
        A sentence for the map's author.
    line : int or None
        The 1-based line of the file, where one applies.
    cell : (row, col) or None
        The cell, ``[row, col]`` = ``[y, x]``, where one applies (a picture marks it).
    region : tuple of (row, col)
        Every cell of the problem when there are several (a cut-off piece of land,
        scattered water cells); empty otherwise.
    """

    rule: str
    message: str
    line: int | None = None
    cell: Cell | None = None
    region: tuple[Cell, ...] = ()

    def to_json(self) -> JSONObject:
        """``{"rule", "line", "message", "cell": [x, y] or null}`` plus ``"region"``
        (a list of ``[x, y]``) when the problem covers several cells."""
        out: JSONObject = {
            "rule": self.rule,
            "line": self.line,
            "message": self.message,
            "cell": None if self.cell is None else [self.cell[1], self.cell[0]],
        }
        if self.region:
            out["region"] = [[c, r] for r, c in self.region]
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Problem:
        """A problem from its JSON form (cells there are ``[x, y]``)."""
        cell = data.get("cell")
        line = data.get("line")
        region = data.get("region", ())
        return cls(
            str(data.get("rule", "")),
            str(data.get("message", "")),
            None if line is None else int(line),  # type: ignore[call-overload]
            None if cell is None else _cell(cell),
            tuple(_cell(c) for c in region),  # type: ignore[attr-defined]
        )

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        return f"{where}{self.message} [{self.rule}]"


def _cell(xy: object) -> Cell:
    """``[x, y]`` of a problem's JSON form as a ``(row, col)`` cell."""
    if not isinstance(xy, (list, tuple)) or len(xy) != 2:
        raise ValueError(f"a cell should be [x, y], not {xy!r:.40}")
    return int(xy[1]), int(xy[0])


@dataclass(frozen=True, eq=False)
class ValidationReport:
    """Everything the validator of a map's game found in one file.

    Attributes
    ----------
    file : str
        The file, as named by the caller (``"map"`` for text).
    errors, warnings : tuple of Problem
        Errors make the map invalid; warnings leave it valid.  In file order for line
        problems, then the whole-map ones.
    unreadable : bool
        The path could not be read at all (``errors`` says why).
    game : str or None
        The game whose rules were checked (``None`` for a path no game was chosen for:
        one that cannot be read).
    text : str or None
        The text checked, when it could be read (the picture marks its problems).
    blocked : ndarray of bool, or None
        The blocked cells (walls, water) ``[row, col]`` as the validator read them,
        where its game's validator gives them; ``None`` when the file could not be read
        as text.
    """

    file: str
    errors: tuple[Problem, ...] = ()
    warnings: tuple[Problem, ...] = ()
    unreadable: bool = False
    game: str | None = None
    text: str | None = field(default=None, repr=False)
    blocked: Grid | None = field(default=None, repr=False)

    @property
    def valid(self) -> bool:
        """True when the map breaks no rule (warnings allowed)."""
        return not self.errors and not self.unreadable

    @property
    def problems(self) -> tuple[Problem, ...]:
        """Errors then warnings."""
        return self.errors + self.warnings

    def rules(self) -> set[str]:
        """The rule ids of every problem."""
        return {p.rule for p in self.problems}

    def marked_cells(self, *, warnings: bool = True) -> list[Cell]:
        """The cells ``(row, col)`` that the problems point at, without repeats."""
        seen: dict[Cell, None] = {}
        for p in self.errors + (self.warnings if warnings else ()):
            for c in (p.cell, *p.region):
                if c is not None:
                    seen.setdefault(c, None)
        return list(seen)

    def to_json(self) -> JSONObject:
        """The report as JSON data: one entry of the list ``atlas validate --json``
        prints: ``{"file", "valid", "unreadable", "errors": [...], "warnings": [...]}``."""
        return {
            "file": self.file,
            "valid": self.valid,
            "unreadable": self.unreadable,
            "errors": [p.to_json() for p in self.errors],
            "warnings": [p.to_json() for p in self.warnings],
        }

    def picture(self) -> bytes | None:
        """The map with its problems marked, as PNG bytes, drawn by the game's render
        module (through :mod:`atlas.display`); ``None`` without the text, or when the
        game draws no picture of its reports."""
        from ..display import show

        if self.text is None or self.game is None:
            return None
        png: bytes | None = show("validation-png", self)
        return png

    def _repr_html_(self) -> str | None:
        from ..display import show

        html: str | None = show("validation-html", self)
        return html

    def __repr__(self) -> str:
        state = "unreadable" if self.unreadable else "valid" if self.valid else "invalid"
        return (
            f"<atlas.ValidationReport {self.file}: {state}, {len(self.errors)} errors, "
            f"{len(self.warnings)} warnings>"
        )


class Validator(abc.ABC):
    """The rules a game's submitted maps must follow: ``VALIDATOR`` of its ``validation``
    module.

    Attributes
    ----------
    rules : mapping
        Every rule id the validator reports, with a one-line description (the site shows
        it with each problem).
    title : str
        What map authors call the game's maps, in messages (``"a folder with no Outpost
        map files"``): the title of the game's :class:`~atlas.sim.base.GameInfo`.
    docs : str
        Where map authors read the rules (a document of atlas, ``docs/validate.md``).
    map_cells : int
        About how many cells the checks of one map run over: ``atlas validate`` runs
        the kernels as plain Python, without loading numba, up to
        :data:`atlas.cli.common.INTERPRET_MAX_CELLS` cells in all.
    """

    rules: Mapping[str, str] = {}
    title: str = ""
    docs: str = ""
    map_cells: int = 0

    @abc.abstractmethod
    def validate_text(self, text: str, name: str = "map") -> ValidationReport:
        """Check the text of a map (called ``name`` in the report) and report every
        problem."""

    @abc.abstractmethod
    def validate_file(self, path: str | os.PathLike[str]) -> ValidationReport:
        """Check a map file: :meth:`validate_text` of its text, or a report of why it
        cannot be read (never an exception for a bad file)."""


class NoValidationError(UnknownNameError):
    """A game whose maps have no validation rules was asked to validate one:
    ``maps/tron/duel.txt: tron maps have no validation rules (atlas validates the maps of
    outpost)``."""

    def __init__(self, game: str, validating: Iterable[str] = (), file: str | None = None):
        super().__init__("game that validates maps", game, validating)
        text = located(file, None, f"{game} maps have no validation rules")
        if self.known:
            text += f" (atlas validates the maps of {' and '.join(self.known)})"
        self.args = (text,)


def validating_games() -> tuple[str, ...]:
    """The registered games that validate their maps, in the registry's order (nothing
    is imported: the registry knows which games have a ``validation`` module)."""
    return tuple(g for g in game_names() if game_modules(g).validates)


def validator_of(game: str, file: str | None = None) -> Validator:
    """The :class:`Validator` of ``game``.

    Raises
    ------
    UnknownNameError
        No game of that name is registered.
    NoValidationError
        The game does not validate its maps (``file``, when given, is named in the
        message).
    """
    module = game_modules(game).validation
    if module is None:
        raise NoValidationError(game, validating_games(), file)
    validator: Validator = importlib.import_module(module).VALIDATOR
    return validator


def unreadable_report(file: str, message: str, game: str | None = None) -> ValidationReport:
    """The report of a path that cannot be read at all (rule ``unreadable``)."""
    return ValidationReport(file, (Problem(UNREADABLE, message),), (), True, game)


# --------------------------------------------------------------------------- which game


def _titles(games: Sequence[str]) -> str:
    """What map authors call the maps of ``games``: each validator's ``title``."""
    return " or ".join(validator_of(g).title or g for g in games)


def _recognised(text: str, games: Sequence[str]) -> str | None:
    """The first game of ``games`` whose map format claims ``text`` (its own format's
    ``recognise``, or the atlas grid format's ``GAME W H`` header), or ``None``."""
    from . import map_format
    from .text import DIGITS, meaningful_lines

    lines = meaningful_lines(text.lstrip("\ufeff"))
    if not lines:
        return None
    for game in games:
        fmt = map_format(game)
        if fmt is not None:
            try:
                if fmt.recognise(lines):
                    return game
            except (ValueError, IndexError):
                continue
        else:
            head = lines[0].split()
            if len(head) >= 3 and head[0] == game and DIGITS.fullmatch(head[1]):
                return game
    return None


def choose_game(
    *,
    game: str | None = None,
    folders: Sequence[str] = (),
    text: str | None = None,
    file: str | None = None,
) -> str:
    """The game whose rules apply to one map.

    In order: ``game`` when given; else the last of ``folders`` (the file's folders,
    outermost first) that names a registered game; else the only game that validates
    its maps, when there is one; else the validating game whose map format claims
    ``text``.

    Raises
    ------
    UnknownNameError
        ``game`` is not a registered game.
    NoValidationError
        The game chosen does not validate its maps (or ``text`` is a map of such a game
        and several games validate theirs); ``file`` is named in the message.
    ArgumentError
        The game cannot be told: several games validate their maps and ``text`` is
        none of theirs (say which with ``game``).
    """
    names = game_names()
    validating = validating_games()
    if game is not None:
        if not isinstance(game, str):
            raise ArgumentError(f"game: expected a game's name (str), got {game!r:.60}")
        if game not in names:
            raise UnknownNameError("game", game, names)
        if game not in validating:
            raise NoValidationError(game, validating, file)
        return game
    named = [f for f in folders if f in names]
    if named:
        if named[-1] not in validating:
            raise NoValidationError(named[-1], validating, file)
        return named[-1]
    if len(validating) == 1:
        return validating[0]
    if text is not None:
        found = _recognised(text, validating)
        if found is not None:
            return found
        other = _recognised(text, [g for g in names if g not in validating])
        if other is not None:
            raise NoValidationError(other, validating, file)
    if not validating:
        raise ArgumentError("no registered game validates its maps")
    what = "this map" if file is None else file
    raise ArgumentError(
        f"game: cannot tell which game's map {what} is; say which game's rules to "
        f"check, {choices_text(validating)}"
    )


def _sniff_text(path: Path) -> str | None:
    """The text of ``path`` for telling its game, or ``None`` when it cannot be read."""
    from ..fsutil import read_regular_file
    from .text import decode_map_bytes

    try:
        return decode_map_bytes(read_regular_file(path, _SNIFF_BYTES, ValueError), None)
    except (ValueError, OSError):
        return None


def game_of_file(
    path: str | os.PathLike[str], game: str | None = None, folders: Sequence[str] | None = None
) -> str:
    """The game whose rules check the file ``path``: :func:`choose_game` with its folders
    (by default the one it is in) and, when that does not tell, its text."""
    p = Path(path)
    if folders is None:
        folders = (p.absolute().parent.name,)
    text = None
    names = game_names()
    if game is None and not [f for f in folders if f in names] and len(validating_games()) > 1:
        text = _sniff_text(p)
    return choose_game(game=game, folders=folders, text=text, file=os.fspath(path))


@dataclass(frozen=True)
class ValidationJob:
    """One file of the paths given to :func:`validation_jobs`: the game whose rules
    check it, or the report it already has (a path that cannot be read)."""

    file: Path
    game: str | None
    report: ValidationReport | None = None


def validation_jobs(
    paths: Iterable[str | os.PathLike[str]], game: str | None = None
) -> list[ValidationJob]:
    """Which game's rules check each file of ``paths``, in the order given.

    Files are checked as they are named; folders are walked for every ``*.txt`` file
    (:func:`atlas.maps.scan_maps`: a symlink that leads out of the folder is not
    followed, a FIFO or device not opened, each reported ``unreadable``).  Inside a
    folder, files under a subfolder named after a game other than ``game`` (without
    ``game``: after a game that does not validate its maps) are skipped, so
    ``atlas validate maps`` checks only the maps of the games that validate theirs.  A
    missing path, or a folder without any map to check, gives an ``unreadable`` report;
    a file named twice is checked once.  The game of each file is
    :func:`choose_game`'s (the folders it is under, from the folder given, count).

    Raises
    ------
    UnknownNameError, NoValidationError, ArgumentError
        As :func:`choose_game`, before any file is checked.
    """
    from . import scan_maps

    names = set(game_names())
    validating = validating_games()
    jobs: list[ValidationJob] = []
    seen: set[Path] = set()

    def skipped(parts: Sequence[str]) -> bool:
        others = names - ({game} if game is not None else set(validating))
        return bool(set(parts) & others)

    def add(f: Path, folders: Sequence[str]) -> None:
        key = f.resolve()
        if key not in seen:
            seen.add(key)
            jobs.append(ValidationJob(f, game_of_file(f, game, folders)))

    for path in paths:
        p = Path(path)
        if p.is_dir():
            own = p.resolve().name
            if game is None and own in names and own not in validating:
                raise NoValidationError(own, validating, os.fspath(path))  # maps/tron
            scan = scan_maps(p)
            files = [f for f in scan.files if not skipped(f.relative_to(p).parts[:-1])]
            left_out = [
                e
                for e in scan.problems
                if e.path is not None and not skipped(Path(e.path).relative_to(p).parts[:-1])
            ]
            for e in left_out:
                jobs.append(
                    ValidationJob(
                        Path(e.path or ""), None, unreadable_report(e.path or "", e.reason)
                    )
                )
            if not files and not left_out:
                whose = [game] if game is not None else list(validating)
                message = f"a folder with no {_titles(whose)} map files (*.txt) in it"
                jobs.append(ValidationJob(p, None, unreadable_report(os.fspath(path), message)))
                continue
            for f in files:
                add(f, (own, *f.relative_to(p).parts[:-1]))
        elif p.exists() or p.is_symlink():
            add(p, (p.absolute().parent.name,))
        else:
            jobs.append(
                ValidationJob(
                    p, None, unreadable_report(os.fspath(path), "no such file or folder")
                )
            )
    return jobs


def run_jobs(jobs: Iterable[ValidationJob]) -> list[ValidationReport]:
    """The report of each job: its game's :meth:`Validator.validate_file`, or the report
    it already has."""
    out = []
    for job in jobs:
        if job.report is not None:
            out.append(job.report)
            continue
        assert job.game is not None
        report = validator_of(job.game).validate_file(job.file)
        out.append(report if report.game == job.game else replace(report, game=job.game))
    return out


def validate_paths(
    paths: Iterable[str | os.PathLike[str]], game: str | None = None
) -> list[ValidationReport]:
    """Check files, and every ``*.txt`` file under folders, each against the rules of
    its game (:func:`validation_jobs`)."""
    return run_jobs(validation_jobs(paths, game))


# --------------------------------------------------------------------------- text


#: Problems of one rule shown per file by :func:`format_reports` (``--json`` has all).
SHOWN_PER_RULE = 12


def reports_csv(
    reports: Sequence[ValidationReport],
    extra: Sequence[tuple[str, Sequence[str]]] = (),
) -> str:
    """One CSV row per report, under a header: ``file``, ``valid`` (``yes``, ``no`` or
    ``unreadable``), ``rules`` (the rules broken, errors first, ``;``-separated) and
    ``first message`` (``line N: message`` of the first error, else of the first
    warning), for a spreadsheet of submissions (``atlas validate DIR --csv``).

    ``extra`` adds columns after those: ``(header, one value per report)`` each (the
    fairness of ``atlas validate --fairness N``)."""
    import csv
    import io

    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    out.writerow(["file", "valid", "rules", "first message", *(h for h, _ in extra)])
    for k, rep in enumerate(reports):
        valid = "unreadable" if rep.unreadable else "yes" if rep.valid else "no"
        rules: list[str] = []
        for p in (*rep.errors, *rep.warnings):
            if p.rule not in rules:
                rules.append(p.rule)
        first = next(iter((*rep.errors, *rep.warnings)), None)
        message = (
            ""
            if first is None
            else (f"line {first.line}: " if first.line else "") + first.message
        )
        out.writerow([rep.file, valid, ";".join(rules), message, *(v[k] for _, v in extra)])
    return buf.getvalue()


def format_reports(reports: Sequence[ValidationReport]) -> str:
    """Human-readable text of ``reports``: ``file:line: error [rule] message`` lines.

    At most :data:`SHOWN_PER_RULE` problems of each rule are shown per file, then a
    count of the rest; the last line sums up.
    """
    out: list[str] = []
    for rep in reports:
        if rep.unreadable:
            status = "unreadable"
        elif rep.valid:
            status = "valid" + (
                f" ({_plural(len(rep.warnings), 'warning')})" if rep.warnings else ""
            )
        else:
            status = (
                f"invalid ({_plural(len(rep.errors), 'error')}"
                + (f", {_plural(len(rep.warnings), 'warning')}" if rep.warnings else "")
                + ")"
            )
        out.append(f"{rep.file}: {status}")
        for kind, problems in (("error", rep.errors), ("warning", rep.warnings)):
            shown: dict[str, int] = {}
            for p in problems:
                shown[p.rule] = shown.get(p.rule, 0) + 1
                if shown[p.rule] <= SHOWN_PER_RULE:
                    out.append(
                        "  " + located(rep.file, p.line, f"{kind} [{p.rule}] {p.message}")
                    )
            for rule, count in shown.items():
                if count > SHOWN_PER_RULE:
                    out.append(
                        f"  ... and {count - SHOWN_PER_RULE} more [{rule}] "
                        f"{kind}s (--json lists them all)"
                    )
    n_valid = sum(r.valid for r in reports)
    n_unread = sum(r.unreadable for r in reports)
    n_invalid = len(reports) - n_valid - n_unread
    summary = f"{_plural(len(reports), 'file')}: {n_valid} valid, {n_invalid} invalid"
    if n_unread:
        summary += f", {n_unread} unreadable"
    out.append(summary)
    return "\n".join(out)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")
