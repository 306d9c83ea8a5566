"""The text of map files: the pieces every map format is written with.

A game's format module (:mod:`atlas.games.tron.format` ...) and the atlas grid format of
:mod:`atlas.maps` read and write maps with these: lines with or without CRLF ends,
comment lines, whole numbers of a header, a ``W H`` size checked against the limits of
:mod:`atlas.limits` before anything is allocated, a grid of characters with numbered
starts.  Every problem is a :class:`~atlas.errors.MapFormatError` naming the file, the
line and the problem.  Nothing here knows a game or builds a
:class:`~atlas.maps.GameMap`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence

import numpy as np

from ..errors import MapFormatError
from ..limits import MAX_CELLS, MAX_SIDE, LimitError, whole_number
from ..types import Cell, Grid

__all__ = [
    "TWO_INTS",
    "DIGITS",
    "decode_map_bytes",
    "split_lines",
    "strip_comments",
    "meaningful_lines",
    "shown",
    "header_number",
    "parse_size",
    "check_size",
    "parse_grid",
    "parse_header_grid",
    "format_grid",
    "first_word_is",
]

#: A line of two whole numbers (signs allowed): tron's size line, an outpost cell.
TWO_INTS = re.compile(r"^\s*-?[0-9]+\s+-?[0-9]+\s*$")
#: ASCII digits only (``str.isdigit`` takes other scripts' digits too).
DIGITS = re.compile(r"[0-9]+", re.ASCII)


def meaningful_lines(text: str) -> list[str]:
    """The lines of ``text`` that are neither blank nor ``;`` comments (what a format's
    ``recognise`` looks at)."""
    return [ln for ln in text.splitlines() if ln.strip() and not ln.startswith(";")]


def decode_map_bytes(data: bytes, path: str | os.PathLike[str] | None) -> str:
    """The text of a map file's bytes: UTF-8, a leading byte order mark dropped;
    :class:`MapFormatError` for a binary file or other encodings."""
    if b"\x00" in data:
        raise MapFormatError("binary file (contains NUL bytes), not a map", path=path)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise MapFormatError(
            f"not UTF-8 text (byte 0x{data[exc.start]:02x})", path=path, line=line
        ) from None


def split_lines(text: str) -> list[str]:
    """Split on ``\\n`` and drop a trailing ``\\r`` (CRLF files)."""
    out = text.split("\n")
    if out and out[-1] == "":
        out.pop()
    return [ln[:-1] if ln.endswith("\r") else ln for ln in out]


def strip_comments(lines: list[str]) -> list[tuple[int, str]]:
    """``(line number, line)`` of the lines that are not ``;`` comments."""
    return [(i + 1, ln) for i, ln in enumerate(lines) if not ln.startswith(";")]


def shown(text: str) -> str:
    """``text`` as a message quotes it: its ``repr``, cut to 40 characters."""
    return repr(text if len(text) <= 40 else text[:37] + "...")


def header_number(token: str, what: str, path: str | None, line: int, context: str) -> int:
    """A whole number of a header; :class:`MapFormatError` for anything else."""
    if not DIGITS.fullmatch(token):
        raise MapFormatError(
            f"expected {context}, got {shown(token)} for {what}", path=path, line=line
        )
    try:
        return whole_number(token, what)
    except LimitError as exc:
        raise MapFormatError(str(exc), path=path, line=line) from None


def parse_size(token_line: str, path: str | None, line: int, what: str) -> tuple[int, int]:
    """The two whole numbers of a size (``what`` names them in messages), within the
    limits (:func:`check_size`)."""
    parts = token_line.split()
    if len(parts) != 2:
        raise MapFormatError(
            f"expected the size '{what}' as two whole numbers, got {shown(token_line)}",
            path=path,
            line=line,
        )
    context = f"the size '{what}' as two whole numbers"
    a = header_number(parts[0], "the width", path, line, context)
    b = header_number(parts[1], "the height", path, line, context)
    check_size(a, b, path, line)
    return a, b


def check_size(width: int, height: int, path: str | None, line: int) -> None:
    """Refuse a grid beyond the limits before anything is allocated for it."""
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise MapFormatError(
            f"size {width}x{height} is out of range (1..{MAX_SIDE} each way)",
            path=path,
            line=line,
        )
    if width * height > MAX_CELLS:
        raise MapFormatError(
            f"size {width}x{height} is {width * height:,} cells, more "
            f"than atlas reads ({MAX_CELLS:,})",
            path=path,
            line=line,
        )


def parse_grid(
    rows: list[str],
    first_line: int,
    width: int,
    height: int,
    *,
    free_chars: str,
    wall: str,
    path: str | None,
    pad: bool,
    start_chars: str = "12",
) -> tuple[np.ndarray, dict[str, Cell]]:
    """The ``height`` rows of ``width`` characters from ``rows`` (the first on line
    ``first_line``): the blocked grid (``wall``) and the start cells by character.

    ``free_chars`` are free cells (the first also pads a short row when ``pad``); each
    of ``start_chars`` may appear once; anything else, a missing row or text after the
    rows is a :class:`MapFormatError`.
    """
    if len(rows) < height:
        raise MapFormatError(
            f"expected {height} rows after the size line, found {len(rows)}",
            path=path,
            line=first_line + len(rows),
        )
    # The size was checked against MAX_CELLS before we got here: this is bounded.
    codes = np.full((height, width), ord(free_chars[0]), dtype=np.uint32)
    for r in range(height):
        row = rows[r]
        if len(row) > width or (len(row) < width and not pad):
            raise MapFormatError(
                f"row has {len(row)} characters, expected {width}",
                path=path,
                line=first_line + r,
            )
        if row:
            codes[r, : len(row)] = np.frombuffer(
                row.encode("utf-32-le", "surrogatepass"), dtype="<u4"
            )
    allowed = set(free_chars) | {wall} | set(start_chars)
    bad = np.argwhere(~np.isin(codes, np.array([ord(ch) for ch in allowed], np.uint32)))
    if len(bad):
        r, c = (int(v) for v in bad[0])
        listed = "".join(sorted(allowed)).replace(" ", "space ")
        ch = chr(int(codes[r, c]))
        raise MapFormatError(
            f"unexpected character {ch!r} in column {c + 1}; allowed: {listed!r}",
            path=path,
            line=first_line + r,
        )
    blocked = codes == ord(wall)
    starts: dict[str, Cell] = {}
    for ch in start_chars:
        where = np.argwhere(codes == ord(ch))
        if len(where) > 1:
            raise MapFormatError(
                f"second start {ch!r} (the first is on line {first_line + int(where[0][0])})",
                path=path,
                line=first_line + int(where[1][0]),
            )
        if len(where):
            starts[ch] = (int(where[0][0]), int(where[0][1]))
    for extra_no, extra in enumerate(rows[height:], start=first_line + height):
        if extra.strip():
            raise MapFormatError(
                f"unexpected text after the {height} rows of the map: {extra[:40]!r}",
                path=path,
                line=extra_no,
            )
    return blocked, starts


def parse_header_grid(
    text: str, path: str | None, game: str, usage: str, start_chars: str
) -> tuple[list[str], np.ndarray, dict[str, Cell], int]:
    """An atlas grid file: ``GAME W H [WORD ...]`` then H rows of ``.#`` and starts.

    Returns the header's words after the size, the blocked grid, the starts by
    character and the header's line number.
    """
    numbered = strip_comments(split_lines(text))
    if not numbered:
        raise MapFormatError("empty file, not a map", path=path, line=1)
    lineno, head = numbered[0]
    parts = head.split()
    if len(parts) < 3 or parts[0] != game:
        raise MapFormatError(f"expected {usage!r}, got {head[:40]!r}", path=path, line=lineno)
    width, height = parse_size(" ".join(parts[1:3]), path, lineno, "W H")
    body = numbered[1:]
    rows = [ln for _, ln in body]
    first = body[0][0] if body else lineno + 1
    if any(b[0] != first + i for i, b in enumerate(body[:height])):
        raise MapFormatError(
            "comment lines are not allowed between the rows of the board", path=path, line=first
        )
    blocked, starts = parse_grid(
        rows,
        first,
        width,
        height,
        free_chars=".",
        wall="#",
        path=path,
        pad=False,
        start_chars=start_chars,
    )
    return parts[3:], blocked, starts, lineno


def format_grid(
    blocked: Grid, starts: Sequence[Cell], header: str, *, free: str, wall: str
) -> str:
    """The header line, then one row of characters per grid row: ``wall`` where
    ``blocked``, ``free`` elsewhere, the starts numbered from ``1``."""
    chars = np.where(blocked, wall, free).astype("<U1")
    for label, (r, c) in zip("123456789", starts):
        chars[r, c] = label
    return header + "\n" + "".join("".join(row) + "\n" for row in chars)


def first_word_is(word: str) -> Callable[[Sequence[str]], bool]:
    """A format's ``recognise``: a file whose first meaningful line starts with ``word``
    (the game's name, for the formats whose header names their game)."""

    def recognise(lines: Sequence[str]) -> bool:
        head = lines[0].split() if lines else []
        return bool(head) and head[0] == word

    recognise.__doc__ = f"A first line that starts with the word ``{word}``."
    return recognise
