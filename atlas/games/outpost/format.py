"""Outpost's map format (the official 2014 format), and the board it describes.

One ``x y`` line per water cell of the 50x50 quarter (500 of them on a valid map).
The 100x100 board holds water at (x,y), (99-y,x), (99-x,99-y), (y,99-x).  Homes are
the corners: player 0 at x=0,y=0, 1 at x=99,y=0, 2 at x=99,y=99, 3 at x=0,y=99.
The reader is lenient about whitespace and blank lines (the validator,
:mod:`atlas.games.outpost.validation`, reports what the official reader would not
accept); every other line must hold two whole numbers in 0..49.
``docs/formats.md`` describes it for map authors.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...errors import MapFormatError
from ...limits import LimitError, whole_number
from ...maps import BoardFacts, GameMap, MapFormat
from ...maps.text import TWO_INTS, shown, split_lines
from ...types import Cell, Grid

__all__ = [
    "FORMAT",
    "SIZE",
    "QUARTER",
    "HOMES",
    "parse",
    "format_text",
    "recognise",
    "parse_line",
    "line_xy",
    "quarter_cells",
    "full_water",
]

GAME = "outpost"
#: Rows and columns of the board.
SIZE = 100
#: Rows and columns of the quarter a map file lists.
QUARTER = 50
#: Homes in ``[row, col]``, seats 0..3 clockwise from the top-left.
HOMES: tuple[Cell, ...] = ((0, 0), (0, 99), (99, 99), (99, 0))


def parse_line(line: str) -> tuple[int, int]:
    """The two whole numbers ``x y`` of one map line.

    Lenient about whitespace and commas between the numbers; no range check.  Raises
    :class:`~atlas.limits.LimitError` saying what is wrong (not two whole numbers, or a
    number of more than :data:`~atlas.limits.MAX_INT_DIGITS` digits).
    """
    parts = line.replace(",", " ").split()
    usage = f"expected two whole numbers 'x y', got {shown(line)}"
    if len(parts) != 2:
        raise LimitError(usage)
    try:
        return whole_number(parts[0], "x"), whole_number(parts[1], "y")
    except LimitError as exc:
        if "digits" in str(exc):
            raise LimitError(f"{usage}: {exc}") from None
        raise LimitError(usage) from None


def line_xy(line: str) -> tuple[int, int] | None:
    """The two whole numbers ``x y`` of one map line, or None if it holds other text.

    See :func:`parse_line`, which says why a line is refused.
    """
    try:
        return parse_line(line)
    except LimitError:
        return None


def quarter_cells(text: str, path: str | None = None) -> list[tuple[int, int, int]]:
    """Parse the lines of a map into ``(line, x, y)`` triples.

    Lenient about whitespace (the validator reports what the official reader would not
    accept); strict about everything else: each non-blank line must hold two integers
    in 0..49.
    """
    cells = []
    for lineno, ln in enumerate(split_lines(text), start=1):
        if not ln.strip():
            continue
        try:
            x, y = parse_line(ln)
        except LimitError as exc:
            raise MapFormatError(str(exc), path=path, line=lineno) from None
        if not (0 <= x < QUARTER and 0 <= y < QUARTER):
            raise MapFormatError(
                f"cell ({x}, {y}) is outside the 50x50 quarter (0..49 each way)",
                path=path,
                line=lineno,
            )
        cells.append((lineno, x, y))
    return cells


def full_water(quarter: np.ndarray) -> Grid:
    """Replicate a 50x50 quarter (``[row, col]`` = ``[y, x]``) to the 100x100 board.

    Water at (x, y) is also water at (99-y, x), (99-x, 99-y) and (y, 99-x).
    """
    q = np.asarray(quarter, dtype=np.bool_)
    n = SIZE
    full = np.zeros((n, n), dtype=np.bool_)
    ys, xs = np.nonzero(q)
    for fx, fy in ((xs, ys), (n - 1 - ys, xs), (n - 1 - xs, n - 1 - ys), (ys, n - 1 - xs)):
        full[fy, fx] = True
    return full


def parse(text: str, name: str, path: str | None) -> GameMap:
    """The map in ``text`` (``path`` names it in messages and as its source)."""
    cells = quarter_cells(text, path)
    if not cells:
        raise MapFormatError(
            "no water cells: an outpost map lists 500 lines 'x y'", path=path, line=1
        )
    quarter = np.zeros((QUARTER, QUARTER), dtype=np.bool_)
    for _, x, y in cells:
        quarter[y, x] = True
    return GameMap(GAME, name, full_water(quarter), HOMES, {}, path)


def format_text(game_map: GameMap) -> str:
    """The text of ``game_map`` in this format: its quarter's water, by x then y."""
    quarter = game_map.blocked[:QUARTER, :QUARTER]
    ys, xs = np.nonzero(quarter)
    order = np.lexsort((ys, xs))
    return "".join(f"{int(xs[i])} {int(ys[i])}\n" for i in order)


def recognise(lines: Sequence[str]) -> bool:
    """The first two lines each two whole numbers."""
    return len(lines) > 1 and bool(TWO_INTS.match(lines[0]) and TWO_INTS.match(lines[1]))


#: Water and land; the four homes fixed; one size; the quarter turned four times.
BOARD = BoardFacts(
    blocked="water",
    free="land",
    starts=(len(HOMES),),
    fixed_starts=HOMES,
    size=(SIZE, SIZE),
    symmetry="rot90",
)

FORMAT = MapFormat(parse, format_text, recognise, "'x y' (outpost)", BOARD)
