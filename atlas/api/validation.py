"""Submitted maps checked against their game's rules: :func:`validate`.

:class:`Problem` and :class:`ValidationReport` are the validation contract's own
(:mod:`atlas.maps.validation`), the same objects every game's validator returns; the
report shows itself in Jupyter through :mod:`atlas.display` (:func:`report_png` draws
its picture).
"""

from __future__ import annotations

from ..maps.validation import Problem as Problem
from ..maps.validation import ValidationReport as ValidationReport
from ..types import StrPath
from ._check import source_of

__all__ = ["Problem", "ValidationReport", "validate", "report_png"]


def report_png(report: ValidationReport) -> bytes | None:
    """The picture of ``report``'s problems, drawn by its game's painter module
    (``None`` without the text, or when the game draws none)."""
    from ..render.registry import render_of

    if report.text is None or report.game is None:
        return None
    return render_of(report.game).validation_picture(report.text, report.to_json())


def validate(path_or_text: StrPath, game: str | None = None) -> ValidationReport:
    """Check a submitted map against its game's rules; report every problem.

    Parameters
    ----------
    path_or_text : str or path-like
        A map file, or a map's text (a ``str`` with a line break in it).
    game : str, optional
        The game whose rules apply; by default the game of the file's folder
        (``maps/GAME/...``), else the only game atlas validates maps of (Outpost), else
        the one whose map format the text is in.

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
        ``path_or_text`` is neither a path nor text, or its game cannot be told.
    UnknownNameError
        ``game`` is unknown, or its maps are not validated
        (:class:`~atlas.maps.validation.NoValidationError`: "GAME maps have no
        validation rules").

    Examples
    --------
    >>> import atlas
    >>> report = atlas.validate("0 0\\n3 4\\n3 4\\n")
    >>> report.valid, [(p.rule, p.line) for p in report.errors]
    (False, [('duplicate', 3), ('count', None), ('corner', 1)])
    """
    from dataclasses import replace

    from ..jit import interpreted
    from ..maps.validation import choose_game, game_of_file, validator_of

    path, text = source_of(path_or_text, "path_or_text")
    with interpreted():  # one map: plain Python is faster than loading numba
        if path is None:
            assert text is not None
            chosen = choose_game(game=game, text=text)
            report = validator_of(chosen).validate_text(text, "map")
        else:
            chosen = game_of_file(path, game)
            report = validator_of(chosen).validate_file(path)
    return report if report.game == chosen else replace(report, game=chosen)
