"""The one colour table every picture, GIF and page of atlas draws from.

Pictures are built as grids of *palette indices* (``uint8``) and turned into RGB by a
single table lookup (``PALETTE[grid]``), so a map, a GIF frame and the in-page viewer
show the same colours, and a GIF can carry one stable global palette.

Player colours follow the Okabe–Ito palette, chosen to stay distinguishable for the
common forms of colour blindness; every picture also marks seats by *shape* (seat 0 a
circle, 1 a square, 2 a triangle, 3 a diamond) and the site labels them by name.

References
----------
.. [1] M. Okabe and K. Ito, "Color Universal Design (CUD): how to make figures and
   presentations that are friendly to colorblind people", 2008.
.. [2] A. Sloane (a1k0n), "Google AI Challenge post-mortem", 2010: the winner's light
   red / light blue / white Voronoi shading.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = [
    "OKABE_ITO",
    "PLAYER_HEX",
    "PLAYER_SHAPES",
    "PALETTE",
    "PALETTE_HEX",
    "BACKGROUND",
    "TEXT",
    "WALL",
    "FREE",
    "GRID_LINE",
    "PLAYER",
    "PLAYER_TINT",
    "PLAYER_DARK",
    "TIE",
    "DISPUTED",
    "WATER",
    "LAND",
    "MARK",
    "CAPTION_BG",
    "BOARD",
    "ERROR",
    "WARNING",
    "MUTED",
    "CHAMBER_BASE",
    "CHAMBER_COUNT",
    "PLAYER_TRAIL",
    "TEXT_RAMP",
    "PLAYER_WATER",
    "TRANSPARENT",
    "chamber_index",
    "to_rgb",
    "hex_to_rgb",
]

#: The eight Okabe–Ito colours by name.
OKABE_ITO = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky_blue": "#56B4E9",
    "bluish_green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish_purple": "#CC79A7",
}

#: Seat colours, seat 0 first: red-ish and blue for the two-player games as in the
#: post-mortem's Voronoi pictures, then green and purple for Outpost's empires 2 and 3.
PLAYER_HEX = ("#D55E00", "#0072B2", "#009E73", "#CC79A7")
#: Seat shapes (drawn on heads, pieces, outposts and in legends).
PLAYER_SHAPES = ("circle", "square", "triangle", "diamond")


def hex_to_rgb(code: str) -> tuple[int, int, int]:
    """``"#D55E00"`` -> ``(213, 94, 0)``."""
    code = code.lstrip("#")
    return (int(code[0:2], 16), int(code[2:4], 16), int(code[4:6], 16))


def _mix(code: str, weight: float, other: str = "#FFFFFF") -> str:
    a, b = np.array(hex_to_rgb(code)), np.array(hex_to_rgb(other))
    r, g, bl = np.rint(a * weight + b * (1 - weight)).astype(int)
    return f"#{r:02X}{g:02X}{bl:02X}"


# Named palette indices ------------------------------------------------------------
BACKGROUND = 0
TEXT = 1
WALL = 2
FREE = 3
GRID_LINE = 4
PLAYER = (5, 6, 7, 8)
PLAYER_TINT = (9, 10, 11, 12)
PLAYER_DARK = (13, 14, 15, 16)
TIE = 17
DISPUTED = 18
WATER = 19
LAND = 20
MARK = 21
CAPTION_BG = 22
BOARD = 23
ERROR = 24
WARNING = 25
MUTED = 26
CHAMBER_BASE = 32
CHAMBER_COUNT = 12
PLAYER_TRAIL = (44, 45, 46, 47)
#: Eight shades from the caption background (0) to the text colour (7), for
#: anti-aliased text inside the fixed GIF palette.
TEXT_RAMP = tuple(range(48, 56))
#: Water controlled by an empire (Outpost).
PLAYER_WATER = (56, 57, 58, 59)
#: Reserved for GIF frame differences: "unchanged since the previous frame".
TRANSPARENT = 63

_CHAMBER_HEX = (
    "#F3D9A4",
    "#BFE3D0",
    "#D9CCEA",
    "#F6C9C0",
    "#C8DDF0",
    "#E8E3A8",
    "#F2CFE3",
    "#CFE8B8",
    "#E6D3C0",
    "#B9E0E6",
    "#E3C6A8",
    "#D6D6F0",
)

_entries: dict[int, str] = {
    BACKGROUND: "#FFFFFF",
    TEXT: "#1F2328",
    WALL: "#3B3F45",
    FREE: "#FFFFFF",
    GRID_LINE: "#E4E6EA",
    TIE: "#FFFFFF",
    DISPUTED: "#A7A9AC",
    WATER: "#3E6C8E",
    LAND: "#F3EFE4",
    MARK: "#111111",
    CAPTION_BG: "#F4F5F7",
    BOARD: "#B4BFCC",
    ERROR: "#E8000B",
    WARNING: "#F0B400",
    MUTED: "#6B7280",
}
for _seat, _code in enumerate(PLAYER_HEX):
    _entries[PLAYER[_seat]] = _code
    _entries[PLAYER_TINT[_seat]] = _mix(_code, 0.32)
    _entries[PLAYER_DARK[_seat]] = _mix(_code, 0.7, "#000000")
    _entries[PLAYER_TRAIL[_seat]] = _mix(_code, 0.62)
    _entries[PLAYER_WATER[_seat]] = _mix(_code, 0.45, "#3E6C8E")
for _i in range(len(TEXT_RAMP)):
    _entries[TEXT_RAMP[_i]] = _mix("#1F2328", _i / (len(TEXT_RAMP) - 1), "#F4F5F7")
for _i, _code in enumerate(_CHAMBER_HEX):
    _entries[CHAMBER_BASE + _i] = _code

#: Hex code per palette index (unused indices are white).
PALETTE_HEX: tuple[str, ...] = tuple(_entries.get(i, "#FFFFFF") for i in range(64))
#: ``(64, 3)`` uint8 RGB table: ``PALETTE[index_grid]`` is the picture.
PALETTE: npt.NDArray[np.uint8] = np.array([hex_to_rgb(h) for h in PALETTE_HEX], dtype=np.uint8)
PALETTE.setflags(write=False)


def chamber_index(label: int) -> int:
    """Palette index of the tint for chamber number ``label`` (cycles after 12)."""
    return CHAMBER_BASE + int(label) % CHAMBER_COUNT


def to_rgb(index_grid: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """Turn a grid of palette indices into an ``(..., 3)`` RGB array by one lookup."""
    return PALETTE[np.asarray(index_grid, dtype=np.uint8)]
