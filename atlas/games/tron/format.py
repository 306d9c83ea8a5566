"""Tron's map format (the official 2010 format).

``W H`` then H rows of W characters: ``#`` wall, space free, ``1`` and ``2`` the
starts.  Rows shorter than W (an editor stripped trailing spaces) are padded with free
cells; CRLF line ends are accepted.  ``docs/formats.md`` describes it for map authors.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...errors import MapFormatError
from ...maps import BoardFacts, GameMap, MapFormat
from ...maps.text import TWO_INTS, format_grid, parse_grid, parse_size, split_lines

__all__ = ["FORMAT", "parse", "format_text", "recognise"]

GAME = "tron"


def parse(text: str, name: str, path: str | None) -> GameMap:
    """The map in ``text`` (``path`` names it in messages and as its source)."""
    lines = split_lines(text)
    if not lines:
        raise MapFormatError("empty file, not a map", path=path, line=1)
    width, height = parse_size(lines[0], path, 1, "W H")
    blocked, starts = parse_grid(
        lines[1:], 2, width, height, free_chars=" ", wall="#", path=path, pad=True
    )
    for ch in "12":
        if ch not in starts:
            raise MapFormatError(f"no start '{ch}' on the map", path=path)
    return GameMap(GAME, name, blocked, (starts["1"], starts["2"]), {}, path)


def format_text(game_map: GameMap) -> str:
    """The text of ``game_map`` in this format."""
    g = game_map
    return format_grid(g.blocked, g.starts, f"{g.width} {g.height}", free=" ", wall="#")


def recognise(lines: Sequence[str]) -> bool:
    """A first line of two whole numbers not followed by another (that is Outpost's)."""
    return bool(TWO_INTS.match(lines[0])) and not (len(lines) > 1 and TWO_INTS.match(lines[1]))


FORMAT = MapFormat(parse, format_text, recognise, "'W H' (tron)", BoardFacts(starts=(2,)))
