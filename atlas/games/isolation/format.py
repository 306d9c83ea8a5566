"""Isolation's map format (an atlas format).

``isolation W H [queen|knight]`` then H rows of W characters: ``.`` free, ``#`` blocked,
``1`` and ``2`` the starts.  A board with neither ``1`` nor ``2`` is a free-placement
board (each player places its piece as its first move).  Lines that start with ``;``
are comments.  ``docs/formats.md`` describes it for map authors.
"""

from __future__ import annotations

from ...errors import MapFormatError
from ...maps import BoardFacts, GameMap, MapFormat
from ...maps.text import first_word_is, format_grid, parse_header_grid

__all__ = ["FORMAT", "VARIANTS", "parse", "format_text", "recognise"]

GAME = "isolation"
#: How a piece moves: the header's last word.
VARIANTS = ("queen", "knight")
_USAGE = "isolation W H [queen|knight]"


def parse(text: str, name: str, path: str | None) -> GameMap:
    """The map in ``text`` (``path`` names it in messages and as its source)."""
    words, blocked, starts, lineno = parse_header_grid(text, path, GAME, _USAGE, "12")
    if len(words) > 1:
        raise MapFormatError(
            f"expected '{_USAGE}', got extra words {' '.join(words)[:40]!r}",
            path=path,
            line=lineno,
        )
    variant = words[0] if words else "queen"
    if variant not in VARIANTS:
        raise MapFormatError(
            f"unknown variant {variant!r}; expected queen or knight", path=path, line=lineno
        )
    if len(starts) == 1:
        missing = "2" if "1" in starts else "1"
        raise MapFormatError(
            f"start {missing!r} is missing: give both starts, or neither "
            "for a free-placement board",
            path=path,
        )
    start_cells = (starts["1"], starts["2"]) if starts else ()
    return GameMap(GAME, name, blocked, start_cells, {"variant": variant}, path)


def format_text(game_map: GameMap) -> str:
    """The text of ``game_map`` in this format."""
    g = game_map
    header = f"{GAME} {g.width} {g.height} {g.meta.get('variant', 'queen')}"
    return format_grid(g.blocked, g.starts, header, free=".", wall="#")


#: A file whose first meaningful line starts with the game's name is one of its maps.
recognise = first_word_is(GAME)


FORMAT = MapFormat(
    parse,
    format_text,
    recognise,
    f"'{GAME} W H'",
    BoardFacts(blocked="blocked", starts=(0, 2)),  # both starts, or free placement
)
