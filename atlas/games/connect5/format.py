"""Connect5's map format (an atlas format): one line, ``connect5 COLUMNS ROWS INAROW``.

Lines that start with ``;`` are comments, blank lines are skipped.  The board has no
walls and no starts; ``INAROW`` (how many in a row win) is kept in the map's ``meta``.
``docs/formats.md`` describes it for map authors.
"""

from __future__ import annotations

import numpy as np

from ...errors import MapFormatError
from ...maps import BoardFacts, GameMap, MapFormat
from ...maps.text import first_word_is, header_number, shown, split_lines, strip_comments

__all__ = ["FORMAT", "parse", "format_text", "recognise", "inarow_of"]

GAME = "connect5"
_USAGE = "'connect5 COLUMNS ROWS INAROW'"


def inarow_of(game_map: GameMap, default: int = 5) -> int:
    """The run length ``game_map``'s header asks for (its INAROW), else ``default``."""
    value = game_map.meta.get("inarow", default)
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def parse(text: str, name: str, path: str | None) -> GameMap:
    """The map in ``text`` (``path`` names it in messages and as its source)."""
    numbered = [(n, ln) for n, ln in strip_comments(split_lines(text)) if ln.strip()]
    if not numbered:
        raise MapFormatError("empty file, not a map", path=path, line=1)
    lineno, head = numbered[0]
    parts = head.split()
    if len(parts) != 4 or parts[0] != GAME:
        raise MapFormatError(f"expected {_USAGE}, got {shown(head)}", path=path, line=lineno)
    cols, rows, inarow = (
        header_number(p, what, path, lineno, _USAGE)
        for p, what in zip(parts[1:], ("COLUMNS", "ROWS", "INAROW"))
    )
    if not (1 <= cols <= 100 and 1 <= rows <= 100):
        raise MapFormatError(
            f"board {cols}x{rows} is out of range (1..100 each way)", path=path, line=lineno
        )
    if not 2 <= inarow <= max(cols, rows):
        raise MapFormatError(
            f"in-a-row {inarow} cannot be reached on a {cols}x{rows} board",
            path=path,
            line=lineno,
        )
    if len(numbered) > 1:
        n2, extra = numbered[1]
        raise MapFormatError(
            f"unexpected text after the header: {extra[:40]!r}", path=path, line=n2
        )
    blocked = np.zeros((rows, cols), dtype=np.bool_)
    return GameMap(GAME, name, blocked, (), {"inarow": inarow}, path)


def format_text(game_map: GameMap) -> str:
    """The text of ``game_map`` in this format."""
    g = game_map
    return f"{GAME} {g.width} {g.height} {inarow_of(g)}\n"


#: A file whose first meaningful line starts with the game's name is one of its maps.
recognise = first_word_is(GAME)


FORMAT = MapFormat(
    parse,
    format_text,
    recognise,
    f"'{GAME} COLUMNS ROWS INAROW'",
    BoardFacts(walls=False, starts=(0,)),  # no walls, no starts: only the size
)
