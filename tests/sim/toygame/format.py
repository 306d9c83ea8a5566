"""Tic-tac-toe's own map format: ``tictactoe N`` (N in a row wins), then the board.

::

    ; lines that start with ';' are comments
    tictactoe 3
    ...
    .#.
    ...

The rows give the board's size: ``.`` a free cell, ``#`` a blocked one, every row as
long as the first.  No starts: the players mark cells.
"""

from __future__ import annotations

from collections.abc import Sequence

from atlas.errors import MapFormatError
from atlas.maps import GameMap, MapFormat
from atlas.maps.text import (
    check_size,
    format_grid,
    header_number,
    parse_grid,
    shown,
    split_lines,
    strip_comments,
)

GAME = "tictactoe"
_USAGE = "'tictactoe N' (N in a row wins)"


def parse(text: str, name: str, path: str | None) -> GameMap:
    numbered = strip_comments(split_lines(text))
    while numbered and not numbered[-1][1].strip():
        numbered.pop()
    if not numbered:
        raise MapFormatError("empty file, not a map", path=path, line=1)
    lineno, head = numbered[0]
    parts = head.split()
    if len(parts) != 2 or parts[0] != GAME:
        raise MapFormatError(f"expected {_USAGE}, got {shown(head)}", path=path, line=lineno)
    inarow = header_number(parts[1], "N", path, lineno, _USAGE)
    rows = [ln for _, ln in numbered[1:]]
    if not rows:
        raise MapFormatError("no board after the header", path=path, line=lineno + 1)
    height, width = len(rows), len(rows[0])
    check_size(width, height, path, lineno + 1)
    if not 2 <= inarow <= max(width, height):
        raise MapFormatError(
            f"{inarow} in a row cannot be made on a {width}x{height} board",
            path=path,
            line=lineno,
        )
    blocked, _ = parse_grid(
        rows,
        numbered[1][0],
        width,
        height,
        free_chars=".",
        wall="#",
        path=path,
        pad=False,
        start_chars="",
    )
    return GameMap(GAME, name, blocked, (), {"inarow": inarow}, path)


def format_text(game_map: GameMap) -> str:
    header = f"{GAME} {int(game_map.meta.get('inarow', 3))}"
    return format_grid(game_map.blocked, (), header, free=".", wall="#")


def recognise(lines: Sequence[str]) -> bool:
    head = lines[0].split()
    return len(head) == 2 and head[0] == GAME


FORMAT = MapFormat(parse, format_text, recognise, f"'{GAME} N'")
