"""Submitted maps checked against their game's rules: :func:`validate`."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import ArgumentError
from ..types import Cell
from ._check import short, source_of

__all__ = ["Problem", "ValidationReport", "validate"]

#: Bytes of a file read for the report's picture (a submitted map is a few KB).
_PICTURE_BYTES = 256 * 1024


@dataclass(frozen=True)
class Problem:
    """One problem of a map file.

    Attributes
    ----------
    rule : str
        The stable id of the rule broken (``docs/validate.md`` lists them).
    message : str
        A sentence for the map's author.
    line : int or None
        The line of the file, where one applies.
    cell : (row, col) or None
        The cell, where one applies.
    region : tuple of (row, col)
        Every cell of the problem when there are several.
    """

    rule: str
    message: str
    line: int | None = None
    cell: Cell | None = None
    region: tuple[Cell, ...] = ()

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Problem:
        """A problem from its JSON form (cells there are ``[x, y]``)."""
        cell = data.get("cell")
        return cls(
            str(data.get("rule", "")),
            str(data.get("message", "")),
            data.get("line"),
            None if cell is None else (int(cell[1]), int(cell[0])),
            tuple((int(y), int(x)) for x, y in data.get("region", ())),
        )

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        return f"{where}{self.message} [{self.rule}]"


@dataclass(frozen=True, eq=False)
class ValidationReport:
    """Everything the validator of a map's game found in one file.

    Attributes
    ----------
    file : str
        The file, as named by the caller (``"map"`` for text).
    game : str
        The game whose rules were checked.
    errors, warnings : tuple of Problem
        Errors make the map invalid; warnings leave it valid.
    unreadable : bool
        The file could not be read at all (``errors`` says why).
    text : str or None
        The text checked, when it could be read (the picture marks its problems).
    """

    file: str
    game: str
    errors: tuple[Problem, ...]
    warnings: tuple[Problem, ...]
    unreadable: bool = False
    text: str | None = field(default=None, repr=False)
    _json: Mapping[str, Any] = field(default_factory=dict, repr=False)

    @property
    def valid(self) -> bool:
        """True when the map breaks no rule (warnings allowed)."""
        return not self.errors and not self.unreadable

    def to_json(self) -> dict[str, Any]:
        """The report as JSON data: one entry of the list ``atlas validate --json``
        prints (``file``, ``valid``, ``unreadable``, ``errors``, ``warnings``)."""
        return copy.deepcopy(dict(self._json))

    def picture(self) -> bytes | None:
        """The map with its problems marked, as PNG bytes (``None`` without the text)."""
        from ..render.registry import validator_of

        if self.text is None:
            return None
        return validator_of(self.game).validation_picture(self.text, self.to_json())

    def _repr_html_(self) -> str:
        from .display import report_html

        return report_html(self)

    def __repr__(self) -> str:
        state = "unreadable" if self.unreadable else "valid" if self.valid else "invalid"
        return (
            f"<atlas.ValidationReport {self.file}: {state}, {len(self.errors)} errors, "
            f"{len(self.warnings)} warnings>"
        )


def _validating_game(game: str | None, path: Any) -> str:
    from ..errors import UnknownNameError
    from ..games import game_names
    from ..render.registry import render_of, validator_of

    validating = [g for g in game_names() if render_of(g).validates]
    if game is not None:
        if not isinstance(game, str):
            raise ArgumentError(f"game: expected a game's name (str), got {short(game)}")
        if game not in game_names():
            raise UnknownNameError("game", game, game_names())
        validator_of(game)  # UnknownNameError naming the games that validate
        return game
    if path is not None and path.parent.name in validating:
        return str(path.parent.name)
    if len(validating) == 1:
        return validating[0]
    raise ArgumentError(
        "game: say which game's rules to check, one of " + ", ".join(validating)
    )


def validate(path_or_text: Any, game: str | None = None) -> ValidationReport:
    """Check a submitted map against its game's rules; report every problem.

    Parameters
    ----------
    path_or_text : str or path-like
        A map file, or a map's text (a ``str`` with a line break in it).
    game : str, optional
        The game whose rules apply; by default the only game atlas validates maps of
        (Outpost), or the file's folder (``maps/GAME/...``).

    Returns
    -------
    ValidationReport
        ``valid``, ``errors`` and ``warnings`` (each a :class:`Problem` with its rule,
        line and cell), and :meth:`~ValidationReport.to_json`, the report
        ``atlas validate --json`` prints.  A file that cannot be read gives a report
        with ``unreadable`` set, as on the command line.  In Jupyter it shows its
        problems and a picture of them.

    Raises
    ------
    ArgumentError
        ``path_or_text`` is neither a path nor text.
    UnknownNameError
        ``game`` is unknown, or its maps are not validated.

    Examples
    --------
    >>> import atlas
    >>> report = atlas.validate("0 0\\n3 4\\n3 4\\n")
    >>> report.valid, [(p.rule, p.line) for p in report.errors]
    (False, [('duplicate', 3), ('count', None), ('corner', 1)])
    """
    from ..fsutil import read_regular_file
    from ..jit import interpreted
    from ..render.registry import validator_of

    path, text = source_of(path_or_text, "path_or_text")
    name = "map" if path is None else str(path)
    chosen = _validating_game(game, path)
    validator = validator_of(chosen)
    with interpreted():  # one map: plain Python is faster than loading numba
        if text is not None:
            data = validator.validate_text(text, name)
        else:
            data = validator.validate_file(name)
            try:
                raw = read_regular_file(path or name, _PICTURE_BYTES, ValueError)
                text = raw.decode("utf-8")
            except (ValueError, UnicodeDecodeError, TypeError):
                text = None
    return ValidationReport(
        str(data.get("file", name)),
        chosen,
        tuple(Problem.from_json(p) for p in data.get("errors", ())),
        tuple(Problem.from_json(p) for p in data.get("warnings", ())),
        bool(data.get("unreadable", False)),
        None if data.get("unreadable") else text,
        data,
    )
