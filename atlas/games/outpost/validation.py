"""Validation of submitted Outpost maps: every problem, with its rule, line and cell.

A map author gets the whole list at once, not the first mistake: each problem names a
stable rule id, the line of the file where one applies, the cell (so a picture can mark
it) and a sentence that says what is wrong and what the spec asks for.

Errors make a map invalid: ``file``, ``format``, ``range``, ``duplicate``, ``count``,
``corner``, ``land-connected``, ``full-land-connected`` (and ``unreadable`` for a path
that cannot be read at all).  Warnings leave it valid: ``official-reader``,
``home-bottleneck``, ``scattered-water``.  :data:`RULES` says what each one means;
``docs/validate.md`` is the list for map authors.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from ...errors import MapFormatError
from ...fsutil import read_regular_file
from ...limits import LimitError
from ...maps.text import decode_map_bytes, split_lines
from ...maps.validation import (
    SHOWN_PER_RULE,
    Problem,
    ValidationReport,
    Validator,
    format_reports,
    reports_csv,
    unreadable_report,
)
from ...maps.validation import validate_paths as _validate_paths
from ...types import Cell, Grid
from .format import GAME
from .format import HOMES as OUTPOST_HOMES
from .format import QUARTER as OUTPOST_QUARTER
from .format import SIZE as OUTPOST_SIZE
from .format import full_water as outpost_full_water
from .format import parse_line as parse_outpost_line

__all__ = [
    "VALIDATOR",
    "OutpostValidator",
    "Problem",
    "ValidationReport",
    "reports_csv",
    "RULES",
    "ERROR_RULES",
    "WARNING_RULES",
    "OUTPOST_WATER_CELLS",
    "MAP_CELLS",
    "HOME_RADIUS",
    "MIN_BOTTLENECK_LAND",
    "SCATTERED_FRACTION",
    "MAX_VALIDATE_BYTES",
    "SHOWN_PER_RULE",
    "validate_text",
    "validate_map_file",
    "validate_paths",
    "format_reports",
]

#: Water cells of a valid quarter: one for every four land cells of its 2,500.
OUTPOST_WATER_CELLS = OUTPOST_QUARTER * OUTPOST_QUARTER // 5
#: Cells of the board of one map (what the analyses of a validation run over).
MAP_CELLS = OUTPOST_SIZE * OUTPOST_SIZE
#: "Near a home" for ``home-bottleneck``: Manhattan distance at most this (the spec's r=10).
HOME_RADIUS = 10
#: A bottleneck near a home is worth a warning when it cuts off at least this much land.
MIN_BOTTLENECK_LAND = 20
#: ``scattered-water`` fires when at least this share of water cells touch no water.
SCATTERED_FRACTION = 0.25
#: Bytes read at most from a file; an official map is about 3 KB.
MAX_VALIDATE_BYTES = 256 * 1024

ERROR_RULES = (
    "unreadable",
    "file",
    "format",
    "range",
    "duplicate",
    "count",
    "corner",
    "land-connected",
    "full-land-connected",
)
WARNING_RULES = ("official-reader", "home-bottleneck", "scattered-water")
#: Every rule id with a one-line description (the table of ``docs/validate.md``).
RULES: dict[str, str] = {
    "unreadable": "the path cannot be read: missing, no permission, or a folder without maps",
    "file": "not a map file: too large, binary or not UTF-8 text",
    "format": "a line that is not two whole numbers 'x y'",
    "range": "a coordinate outside 0..49",
    "duplicate": "the same cell listed twice",
    "count": f"not exactly {OUTPOST_WATER_CELLS} distinct water cells",
    "corner": "a corner of the 50x50 quarter is water",
    "land-connected": "the land of the quarter is not 4-connected",
    "full-land-connected": "the land of the 100x100 board is not 4-connected",
    "official-reader": "a line the official 2014 simulator's reader would crash on",
    "home-bottleneck": f"land joined through one cell within {HOME_RADIUS} steps of a home",
    "scattered-water": "a quarter or more of the water cells touch no other water cell",
}

_N = OUTPOST_QUARTER
#: The corners of the quarter in (x, y), with what they are on the full board.
_CORNERS = (
    ((0, 0), "every empire's home (the quarter's (0,0) turns into all four homes)"),
    ((_N - 1, 0), "the middle of an edge of the 100x100 board"),
    ((_N - 1, _N - 1), "the centre of the 100x100 board"),
    ((0, _N - 1), "the middle of an edge of the 100x100 board"),
)
_BOM = "\ufeff"
#: What Java's ``Integer.parseInt`` accepts: one optional sign, then decimal digits.
_JAVA_INT = re.compile(r"[+-]?\d+")


def _xy(cell: Cell) -> str:
    return f"x={cell[1]}, y={cell[0]}"


# --------------------------------------------------------------------------- lines


def _official_reader_trouble(line: str) -> str | None:
    """Why the official reader would fail on ``line`` (its CRLF already removed), or None.

    The 2014 reader (Java) reads lines with ``readLine`` (which also ends a line at a
    lone carriage return), splits each on a single space (``split(" ")``, which drops
    trailing empty fields) and parses the first two fields with ``Integer.parseInt``.
    """
    if "\r" in line:
        return "a carriage return inside the line, which the reader takes as a line break"
    fields = line.split(" ")
    while fields and fields[-1] == "":
        fields.pop()
    if len(fields) >= 2 and all(_JAVA_INT.fullmatch(f) for f in fields[:2]):
        return None
    reasons = []
    if "\t" in line:
        reasons.append("a tab")
    if "," in line:
        reasons.append("a comma")
    if line.startswith(" "):
        reasons.append("a space at the start")
    if "  " in line.rstrip(" "):
        reasons.append("two spaces in a row")
    odd = sorted({ch for ch in line if ch.isspace() and ch not in " \t"})
    if odd:
        reasons.append(
            "the whitespace character " + ", ".join(f"U+{ord(ch):04X}" for ch in odd)
        )
    return " and ".join(reasons) or "text it cannot parse as two numbers"


def _scan_lines(text: str) -> tuple[list[Problem], list[Problem], Grid, dict[Cell, int]]:
    """The line-by-line pass: errors, warnings, the water read and each cell's line."""
    errors: list[Problem] = []
    warnings: list[Problem] = []
    water = np.zeros((_N, _N), dtype=np.bool_)
    first_line: dict[Cell, int] = {}
    lines = split_lines(text)
    if lines and lines[0].startswith(_BOM):
        warnings.append(
            Problem(
                "official-reader",
                "the file starts with a byte-order mark "
                "(BOM), which the official 2014 simulator cannot read; save "
                "the file as UTF-8 without BOM",
                line=1,
            )
        )
        lines[0] = lines[0][len(_BOM) :]
    last_text = max((i for i, ln in enumerate(lines) if ln.strip()), default=-1)
    for lineno, ln in enumerate(lines, start=1):
        if not ln.strip():
            if ln == "" and lineno - 1 > last_text:
                what = "an empty line at the end (the file ends with two line breaks)"
            elif ln == "":
                what = "an empty line"
            else:
                what = "a line of nothing but whitespace"
            warnings.append(
                Problem(
                    "official-reader",
                    f"{what}: the official 2014 simulator's reader crashes on it; delete it",
                    line=lineno,
                )
            )
            continue
        try:
            x, y = parse_outpost_line(ln)
        except LimitError as exc:
            hint = (
                " (lines end with a lone carriage return: save with LF or CRLF line ends)"
                if "\r" in ln
                else ""
            )
            errors.append(Problem("format", f"{exc}{hint}", line=lineno))
            continue
        trouble = _official_reader_trouble(ln)
        if trouble is not None:
            warnings.append(
                Problem(
                    "official-reader",
                    f"the official 2014 simulator's "
                    f"reader crashes on this line ({trouble}); write it as "
                    f"'{x} {y}' with one space",
                    line=lineno,
                )
            )
        bad = [f"{name}={v}" for name, v in (("x", x), ("y", y)) if not 0 <= v < _N]
        if bad:
            errors.append(
                Problem(
                    "range",
                    f"{' and '.join(bad)} outside 0..{_N - 1}: the "
                    f"file lists the water of the {_N}x{_N} quarter only",
                    line=lineno,
                )
            )
            continue
        cell = (y, x)
        if cell in first_line:
            errors.append(
                Problem(
                    "duplicate",
                    f"cell {_xy(cell)} is listed twice: first on "
                    f"line {first_line[cell]}, again on line {lineno}",
                    line=lineno,
                    cell=cell,
                )
            )
            continue
        first_line[cell] = lineno
        water[y, x] = True
    return errors, warnings, water, first_line


# --------------------------------------------------------------------------- the map


def _pieces(land: Grid) -> tuple[np.ndarray, list[np.ndarray], int]:
    """Label the land; return the labels, each piece's flat cells and the main piece.

    The main piece is the one holding the home ``[0, 0]`` when that is land, else the
    largest (the first in row-major order among equals).
    """
    from ...analysis.components import label_components

    labels, _ = label_components(land)
    labels = np.asarray(labels)
    flat = labels.ravel()
    land_idx = np.flatnonzero(land.ravel())
    if land_idx.size == 0:
        return labels, [], -1
    # Pieces ordered by their first cell in row-major order, whatever the label numbering.
    _, first, inverse = np.unique(flat[land_idx], return_index=True, return_inverse=True)
    by_piece = np.split(
        land_idx[np.argsort(inverse, kind="stable")], np.cumsum(np.bincount(inverse))[:-1]
    )
    groups = [by_piece[k] for k in np.argsort(first)]
    if land.ravel()[0]:
        main = 0  # the piece holding cell 0 is the first in row-major order
    else:
        sizes = [g.size for g in groups]
        main = int(np.argmax(sizes))
    return labels, groups, main


def _land_connected(water: Grid) -> list[Problem]:
    land = ~water
    _, groups, main = _pieces(land)
    out = []
    home = "the home at x=0, y=0" if land[0, 0] else "the largest piece of land"
    for k, g in enumerate(groups):
        if k == main:
            continue
        cells = tuple((int(i) // _N, int(i) % _N) for i in g)
        size = "a single land cell" if g.size == 1 else f"a piece of {g.size} land cells"
        out.append(
            Problem(
                "land-connected",
                f"land at {_xy(cells[0])} is cut off: {size} "
                f"that no orthogonal path over land joins to {home}; the spec "
                "asks that water never partition the quarter",
                cell=cells[0],
                region=cells,
            )
        )
    return out


def _to_quarter(rows: np.ndarray, cols: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The quarter cell ``[row, col]`` each full-board cell is a rotated copy of."""
    n, m = OUTPOST_SIZE - 1, _N
    x, y = cols.copy(), rows.copy()
    qx, qy = x.copy(), y.copy()
    tr = (x >= m) & (y < m)  # (X, Y) = (99 - y, x)
    qx[tr], qy[tr] = y[tr], n - x[tr]
    br = (x >= m) & (y >= m)  # (X, Y) = (99 - x, 99 - y)
    qx[br], qy[br] = n - x[br], n - y[br]
    bl = (x < m) & (y >= m)  # (X, Y) = (y, 99 - x)
    qx[bl], qy[bl] = n - y[bl], x[bl]
    return qy, qx


def _full_land_connected(full_land: Grid) -> list[Problem]:
    _, groups, main = _pieces(full_land)
    home = "the home at x=0, y=0" if full_land[0, 0] else "the largest piece of land"
    orbits: dict[tuple[Cell, ...], list[np.ndarray]] = {}
    for k, g in enumerate(groups):
        if k == main:
            continue
        qr, qc = _to_quarter(g // OUTPOST_SIZE, g % OUTPOST_SIZE)
        key = tuple(sorted(set(zip(qr.tolist(), qc.tolist()))))
        orbits.setdefault(key, []).append(g)
    out = []
    for key, members in orbits.items():
        g = members[0]
        r, c = int(g[0]) // OUTPOST_SIZE, int(g[0]) % OUTPOST_SIZE
        qr, qc = _to_quarter(np.array([r]), np.array([c]))
        cell = (int(qr[0]), int(qc[0]))
        copies = (
            f"{len(members)} pieces (rotated copies) of {g.size} land cells each"
            if len(members) > 1
            else f"a piece of {g.size} land cells"
        )
        homes = [
            f"x={hc}, y={hr}"
            for hr, hc in OUTPOST_HOMES[1:]
            if any(hr * OUTPOST_SIZE + hc in set(m.tolist()) for m in members)
        ]
        if homes:
            msg = (
                f"on the 100x100 board the land falls apart into rotated copies: the "
                f"home{'s' if len(homes) > 1 else ''} at {' and '.join(homes)} cannot "
                f"reach {home} over land ({copies}, starting at x={c}, y={r}, a copy "
                f"of {_xy(cell)} of this file)"
            )
        else:
            msg = (
                f"on the 100x100 board, land at x={c}, y={r} (a copy of {_xy(cell)} of "
                f"this file) is cut off from {home}: {copies} that no orthogonal path "
                "over land reaches"
            )
        out.append(Problem("full-land-connected", msg, cell=cell, region=key))
    return out


def _home_bottlenecks(full_land: Grid) -> list[Problem]:
    """Articulation points of the board's land within HOME_RADIUS of the home [0, 0].

    The four homes are rotated copies of each other, so one home speaks for all.
    """
    from ...analysis.articulation import articulation_points
    from ...analysis.components import label_components

    out = []
    near = sorted(
        (int(r), int(c)) for r, c in articulation_points(full_land) if 0 < r + c <= HOME_RADIUS
    )
    for r, c in near:
        cut = full_land.copy()
        cut[r, c] = False
        labels, _ = label_components(cut)
        labels = np.asarray(labels)
        sides: dict[int, int] = {}
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < OUTPOST_SIZE and 0 <= cc < OUTPOST_SIZE and cut[rr, cc]:
                lab = int(labels[rr, cc])
                sides[lab] = int(np.count_nonzero(labels[cut] == lab))
        if len(sides) < 2:
            continue
        big = max(sides, key=lambda k: sides[k])
        home_side = cut[0, 0] and int(labels[0, 0]) in sides and int(labels[0, 0]) != big
        cut_off = sum(v for k, v in sides.items() if k != big)
        steps = r + c
        if home_side:
            msg = (
                f"the home at x=0, y=0 reaches the rest of the land only through the "
                f"single land cell {_xy((r, c))}, {steps} steps away: an enemy outpost "
                "near it can cut every supply line"
            )
        elif cut_off >= MIN_BOTTLENECK_LAND:
            msg = (
                f"{cut_off} land cells reach the rest of the board only through the "
                f"single land cell {_xy((r, c))}, {steps} steps from the home at x=0, y=0"
            )
        else:
            continue
        out.append(Problem("home-bottleneck", msg, cell=(r, c)))
    return out


def _scattered_water(water: Grid) -> list[Problem]:
    full = outpost_full_water(water)
    pad = np.pad(full, 1)
    touching = pad[:-2, 1:-1] | pad[2:, 1:-1] | pad[1:-1, :-2] | pad[1:-1, 2:]
    lonely = water & ~touching[:_N, :_N]
    n_water, n_lonely = int(water.sum()), int(lonely.sum())
    if n_water == 0 or n_lonely < SCATTERED_FRACTION * n_water:
        return []
    cells = tuple((int(r), int(c)) for r, c in zip(*np.nonzero(lonely)))
    return [
        Problem(
            "scattered-water",
            f"{n_lonely} of the {n_water} water cells touch no "
            "other water cell: the spec expects water 'somewhat contiguous, forming "
            "lakes and rivers', not scattered noise",
            region=cells,
        )
    ]


def _check_water(
    water: Grid, first_line: dict[Cell, int]
) -> tuple[list[Problem], list[Problem]]:
    errors: list[Problem] = []
    n = int(water.sum())
    if n != OUTPOST_WATER_CELLS:
        fix = (
            f"remove {n - OUTPOST_WATER_CELLS}"
            if n > OUTPOST_WATER_CELLS
            else f"add {OUTPOST_WATER_CELLS - n}"
        )
        errors.append(
            Problem(
                "count",
                f"the quarter has {n} distinct water cells; the spec "
                f"asks for exactly {OUTPOST_WATER_CELLS} (one water cell for "
                f"every four land cells): {fix}",
            )
        )
    for (x, y), what in _CORNERS:
        if water[y, x]:
            errors.append(
                Problem(
                    "corner",
                    f"the corner x={x}, y={y} is water; the spec "
                    f"requires all four corners of the quarter to be land "
                    f"(this one is {what})",
                    line=first_line.get((y, x)),
                    cell=(y, x),
                )
            )
    errors += _land_connected(water)
    full_land = ~outpost_full_water(water)
    errors += _full_land_connected(full_land)
    warnings = _home_bottlenecks(full_land) + _scattered_water(water)
    return errors, warnings


def validate_text(text: str, name: str = "map") -> ValidationReport:
    """Validate the text of an Outpost map and report every problem.

    Parameters
    ----------
    text : str
        The file's text (a leading byte-order mark is reported, then ignored).
    name : str
        What to call the file in the report.

    Returns
    -------
    ValidationReport
        ``valid`` when no rule is broken; errors and warnings otherwise.

    Notes
    -----
    One pass over the lines collects ``format``, ``range``, ``duplicate`` and
    ``official-reader`` problems without stopping; the cells read are then checked as a
    whole: ``count``, ``corner``, 4-connectivity of the quarter's land and of the 100x100
    board's land (component labelling, O(cells)), and the design hints
    (articulation points, O(cells), then one labelling per bottleneck near a home).

    References
    ----------
    "Project 4: Outpost", COMS 4444 (Columbia University), fall 2014 (500 water cells,
    land 4:1, corners land, water never partitions the quarter), and the official
    simulator's reader as described in ``tests/data/outpost-official.md``.

    Examples
    --------
    >>> report = validate_text("0 0\\n3 4\\n3 4\\n", "tiny.txt")
    >>> [(p.rule, p.line) for p in report.errors]
    [('duplicate', 3), ('count', None), ('corner', 1)]
    """
    errors, warnings, water, first_line = _scan_lines(text)
    more_errors, more_warnings = _check_water(water, first_line)
    water.setflags(write=False)
    return ValidationReport(
        name,
        tuple(errors + more_errors),
        tuple(warnings + more_warnings),
        game=GAME,
        text=text,
        blocked=water,
    )


def _unreadable(name: str, message: str) -> ValidationReport:
    return unreadable_report(name, message, GAME)


def _not_a_map(name: str, message: str, line: int | None = None) -> ValidationReport:
    return ValidationReport(name, (Problem("file", message, line=line),), game=GAME)


class _ReadProblem(Exception):
    """What :func:`~atlas.fsutil.read_regular_file` found wrong, kept as data."""

    def __init__(self, message: str, path: object = None) -> None:
        super().__init__(message)
        self.message = message
        self.too_large = "bytes" in message and "more than" in message


def validate_map_file(path: str | os.PathLike[str]) -> ValidationReport:
    """Validate one Outpost map file; see :func:`validate_text`.

    At most :data:`MAX_VALIDATE_BYTES` are read, so a huge file does not slow the
    check; a binary or non-UTF-8 file is reported under the rule ``file``.  A path that
    cannot be opened, or is not a regular file (a FIFO or a device is never opened for
    reading, so it cannot hang the check), gives an ``unreadable`` report.
    """
    p = Path(path)
    name = os.fspath(path)
    try:
        data = read_regular_file(p, MAX_VALIDATE_BYTES, _ReadProblem)
    except _ReadProblem as exc:
        if exc.too_large:
            return _not_a_map(
                name, f"{exc.message}; an Outpost map is about 3 KB (500 short lines)"
            )
        return _unreadable(name, exc.message)
    try:
        text = decode_map_bytes(data, None)
    except MapFormatError as exc:
        return _not_a_map(name, exc.reason, exc.line)
    if data.startswith(_BOM.encode("utf-8")):
        text = _BOM + text
    return validate_text(text, name)


def validate_paths(paths: Iterable[str | os.PathLike[str]]) -> list[ValidationReport]:
    """Validate files, and every ``*.txt`` file under folders, in the order given, as
    Outpost maps (:func:`atlas.maps.validation.validate_paths` with the game given).

    Inside a folder, files under a subfolder named after another game (``tron``,
    ``isolation``, ``connect5``) are skipped, so ``atlas validate maps`` checks only
    ``maps/outpost``.  A missing path, or a folder without any Outpost map, gives an
    ``unreadable`` report; a file named twice is validated once.  Inside a folder, a
    symlink that leads out of it is not followed and a FIFO or device is not opened:
    each gives an ``unreadable`` report (see :func:`atlas.maps.scan_maps`).
    """
    return _validate_paths(paths, GAME)


class OutpostValidator(Validator):
    """The rules of :data:`RULES`, checked by :func:`validate_text`."""

    rules = RULES
    title = "Outpost"
    docs = "docs/validate.md"
    map_cells = MAP_CELLS

    def validate_text(self, text: str, name: str = "map") -> ValidationReport:
        return validate_text(text, name)

    def validate_file(self, path: str | os.PathLike[str]) -> ValidationReport:
        return validate_map_file(path)


#: The validator ``atlas validate`` and the site find through the registry.
VALIDATOR = OutpostValidator()
