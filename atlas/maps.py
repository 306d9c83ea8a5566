"""Maps of the four games, and the only place their file formats live.

A map is a :class:`GameMap`: the game, a name, a boolean ``blocked`` grid indexed
``[row, col]`` (walls for tron and isolation, water for outpost, nothing for connect5),
the start cells as ``(row, col)`` and a little metadata.  The file formats speak of
``x, y`` (x to the right, y downward); they are converted here and nowhere else.

Formats (see ``docs/formats.md``):

tron (official 2010 format)
    ``W H`` then H rows of W characters: ``#`` wall, space free, ``1`` and ``2`` the
    starts.  Rows shorter than W (an editor stripped trailing spaces) are padded with
    free cells; CRLF line ends are accepted.
outpost (official 2014 format)
    One ``x y`` line per water cell of the 50x50 quarter (500 of them on a valid map).
    The 100x100 board holds water at (x,y), (99-y,x), (99-x,99-y), (y,99-x).  Homes are
    the corners: player 0 at x=0,y=0, 1 at x=99,y=0, 2 at x=99,y=99, 3 at x=0,y=99.
isolation (atlas format)
    ``isolation W H [queen|knight]`` then H rows of W characters: ``.`` free, ``#``
    blocked, ``1`` and ``2`` the starts.  A board with neither ``1`` nor ``2`` is a
    free-placement board (each player places its piece as its first move).
connect5 (atlas format)
    ``connect5 COLUMNS ROWS INAROW``.
any other game (atlas grid format)
    ``GAME W H [WORD ...]`` then H rows of W characters: ``.`` free, ``#`` blocked, the
    digits ``1`` to ``9`` the starts (numbered from 1, none missing).  The words after
    the size are kept as the map's ``options``.  This is how a game registered with
    :func:`atlas.sim.registry.register_game` keeps its maps without a format of its own.

Lines that start with ``;`` are comments in the atlas formats.

Every reader here turns any bytes into a map or a :class:`MapFormatError` naming the
file, the line and the problem, within the limits of :mod:`atlas.limits`: at most
:data:`MAX_MAP_BYTES` read, at most :data:`~atlas.limits.MAX_CELLS` cells (checked on the
header, before a grid is allocated), numbers of at most
:data:`~atlas.limits.MAX_INT_DIGITS` ASCII digits.  :func:`scan_maps` lists the maps of a
folder without following symlinks that lead out of it and without opening anything but
regular files.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np

from .errors import MapFormatError
from .fsutil import file_kind, read_regular_file
from .limits import MAX_CELLS, MAX_SIDE, LimitError, whole_number
from .types import Cell, Grid

__all__ = [
    "GAMES",
    "GAME_NAME",
    "GameMap",
    "OUTPOST_SIZE",
    "OUTPOST_QUARTER",
    "OUTPOST_HOMES",
    "read_map",
    "parse_map",
    "write_map",
    "format_map",
    "outpost_quarter_cells",
    "outpost_line_xy",
    "outpost_full_water",
    "find_maps",
    "scan_maps",
    "MapScan",
    "MAX_MAP_BYTES",
    "parse_outpost_line",
]

#: The games whose maps have a format of their own; any other game uses the grid format.
GAMES = ("tron", "isolation", "connect5", "outpost")
#: What a game's name may look like (it names folders, files and pages).
GAME_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")

OUTPOST_SIZE = 100
OUTPOST_QUARTER = 50
#: Homes in ``[row, col]``, seats 0..3 clockwise from the top-left.
OUTPOST_HOMES: tuple[Cell, ...] = ((0, 0), (0, 99), (99, 99), (99, 0))

#: Files larger than this are refused before they are read (maps are small).
MAX_MAP_BYTES = 4 * 1024 * 1024

ISOLATION_VARIANTS = ("queen", "knight")


@dataclass(frozen=True, eq=False)
class GameMap:
    """A map of one of the four games.

    Parameters
    ----------
    game : str
        ``"tron"``, ``"isolation"``, ``"connect5"``, ``"outpost"`` or a registered game.
    name : str
        The map's name (the file name without its extension).
    blocked : ndarray of bool, shape (rows, cols)
        ``True`` for walls (tron, isolation) or water (outpost).  Read-only.
    starts : tuple of (row, col)
        The start cells, one per player; empty for connect5 and for free placement.
    meta : mapping
        Game-specific settings: ``variant`` for isolation, ``inarow`` for connect5.
    source : str or None
        The file the map was read from, if any.
    """

    game: str
    name: str
    blocked: Grid
    starts: tuple[Cell, ...] = ()
    meta: Mapping[str, Any] = field(default_factory=dict)
    source: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.game, str) or not GAME_NAME.match(self.game):
            raise ValueError(
                f"bad game name {self.game!r}: lower-case letters, digits, "
                "'-' and '_', starting with a letter"
            )
        blocked = np.array(self.blocked, dtype=np.bool_, copy=True)
        if blocked.ndim != 2:
            raise ValueError(f"blocked must be a 2-D grid, got shape {blocked.shape}")
        blocked.setflags(write=False)
        object.__setattr__(self, "blocked", blocked)
        object.__setattr__(self, "starts", tuple((int(r), int(c)) for r, c in self.starts))
        object.__setattr__(self, "meta", MappingProxyType(dict(self.meta)))

    @property
    def height(self) -> int:
        """Number of rows."""
        return int(self.blocked.shape[0])

    @property
    def width(self) -> int:
        """Number of columns."""
        return int(self.blocked.shape[1])

    @property
    def shape(self) -> tuple[int, int]:
        return (self.height, self.width)

    @property
    def free(self) -> Grid:
        """The complement of ``blocked`` (land for outpost)."""
        return ~self.blocked

    @property
    def content_hash(self) -> str:
        """SHA-256 of the canonical text of the map (its format), hex."""
        return hashlib.sha256(format_map(self).encode("utf-8")).hexdigest()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameMap):
            return NotImplemented
        return (
            self.game == other.game
            and self.name == other.name
            and self.starts == other.starts
            and dict(self.meta) == dict(other.meta)
            and self.blocked.shape == other.blocked.shape
            and bool(np.array_equal(self.blocked, other.blocked))
        )

    def __hash__(self) -> int:
        return hash((self.game, self.name, self.content_hash))

    def __repr__(self) -> str:
        return (
            f"GameMap(game={self.game!r}, name={self.name!r}, "
            f"size={self.width}x{self.height}, starts={self.starts})"
        )


# --------------------------------------------------------------------------- reading


def read_map(path: str | os.PathLike[str], game: str | None = None) -> GameMap:
    """Read a map file.

    Parameters
    ----------
    path : path-like
        The file.
    game : str, optional
        The game; when omitted it is taken from the parent folder's name
        (``maps/tron/...``) or, failing that, from the file's content.

    Raises
    ------
    MapFormatError
        The file cannot be read or is not a map; the message names the file, the line and
        the problem.
    """
    p = Path(path)
    data = read_regular_file(p, MAX_MAP_BYTES, MapFormatError, what="map file")
    text = _decode(data, p)
    if game is None and p.parent.name in GAMES:
        game = p.parent.name
    return parse_map(text, game=game, name=p.stem, path=p)


def _decode(data: bytes, path: Path | None) -> str:
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


def parse_map(
    text: str,
    *,
    game: str | None = None,
    name: str = "map",
    path: str | os.PathLike[str] | None = None,
) -> GameMap:
    """Parse the text of a map; see :func:`read_map`.

    ``path`` is used in error messages and recorded as the map's source.
    """
    if game is None:
        game = _sniff_game(text, path)
    if not isinstance(game, str) or not GAME_NAME.match(game):
        raise MapFormatError(f"bad game name {game!r}", path=path)
    source = None if path is None else os.fspath(path)
    parser = {
        "tron": _parse_tron,
        "outpost": _parse_outpost,
        "isolation": _parse_isolation,
        "connect5": _parse_connect5,
    }.get(game)
    if parser is None:
        return _parse_grid_map(text, name, source, game)
    return parser(text, name, source)


_TWO_INTS = re.compile(r"^\s*-?[0-9]+\s+-?[0-9]+\s*$")
_DIGITS = re.compile(r"[0-9]+", re.ASCII)


def _sniff_game(text: str, path: str | os.PathLike[str] | None) -> str:
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith(";")]
    if not lines:
        raise MapFormatError("empty file, not a map", path=path, line=1)
    head = lines[0].split()
    if head and head[0] in ("isolation", "connect5"):
        return head[0]
    if (
        len(head) >= 3
        and GAME_NAME.match(head[0])
        and _DIGITS.fullmatch(head[1])
        and _DIGITS.fullmatch(head[2])
    ):
        return head[0]
    if _TWO_INTS.match(lines[0]):
        if len(lines) > 1 and _TWO_INTS.match(lines[1]):
            return "outpost"
        return "tron"
    raise MapFormatError(
        "cannot tell which game this map is for: the first line should be "
        "'W H' (tron), 'x y' (outpost), 'isolation W H', "
        "'connect5 COLUMNS ROWS INAROW' or 'GAME W H', "
        f"got {lines[0][:40]!r}",
        path=path,
        line=1,
    )


def _lines(text: str) -> list[str]:
    """Split on ``\\n`` and drop a trailing ``\\r`` (CRLF files)."""
    out = text.split("\n")
    if out and out[-1] == "":
        out.pop()
    return [ln[:-1] if ln.endswith("\r") else ln for ln in out]


def _number(token: str, what: str, path: str | None, line: int, context: str) -> int:
    """A whole number of a header; :class:`MapFormatError` for anything else."""
    if not _DIGITS.fullmatch(token):
        raise MapFormatError(
            f"expected {context}, got {_shown(token)} for {what}", path=path, line=line
        )
    try:
        return whole_number(token, what)
    except LimitError as exc:
        raise MapFormatError(str(exc), path=path, line=line) from None


def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


def _parse_size(token_line: str, path: str | None, line: int, what: str) -> tuple[int, int]:
    parts = token_line.split()
    if len(parts) != 2:
        raise MapFormatError(
            f"expected the size '{what}' as two whole numbers, got {_shown(token_line)}",
            path=path,
            line=line,
        )
    context = f"the size '{what}' as two whole numbers"
    a = _number(parts[0], "the width", path, line, context)
    b = _number(parts[1], "the height", path, line, context)
    _check_size(a, b, path, line)
    return a, b


def _check_size(width: int, height: int, path: str | None, line: int) -> None:
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


def _parse_grid(
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
        shown = "".join(sorted(allowed)).replace(" ", "space ")
        ch = chr(int(codes[r, c]))
        raise MapFormatError(
            f"unexpected character {ch!r} in column {c + 1}; allowed: {shown!r}",
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


def _parse_tron(text: str, name: str, path: str | None) -> GameMap:
    lines = _lines(text)
    if not lines:
        raise MapFormatError("empty file, not a map", path=path, line=1)
    width, height = _parse_size(lines[0], path, 1, "W H")
    blocked, starts = _parse_grid(
        lines[1:], 2, width, height, free_chars=" ", wall="#", path=path, pad=True
    )
    for ch in "12":
        if ch not in starts:
            raise MapFormatError(f"no start '{ch}' on the map", path=path)
    return GameMap("tron", name, blocked, (starts["1"], starts["2"]), {}, path)


def _strip_comments(lines: list[str]) -> list[tuple[int, str]]:
    return [(i + 1, ln) for i, ln in enumerate(lines) if not ln.startswith(";")]


def _parse_header_grid(
    text: str, path: str | None, game: str, usage: str, start_chars: str
) -> tuple[list[str], np.ndarray, dict[str, Cell], int]:
    """An atlas grid file: ``GAME W H [WORD ...]`` then H rows of ``.#`` and starts.

    Returns the header's words after the size, the blocked grid, the starts by
    character and the header's line number.
    """
    numbered = _strip_comments(_lines(text))
    if not numbered:
        raise MapFormatError("empty file, not a map", path=path, line=1)
    lineno, head = numbered[0]
    parts = head.split()
    if len(parts) < 3 or parts[0] != game:
        raise MapFormatError(f"expected {usage!r}, got {head[:40]!r}", path=path, line=lineno)
    width, height = _parse_size(" ".join(parts[1:3]), path, lineno, "W H")
    body = numbered[1:]
    rows = [ln for _, ln in body]
    first = body[0][0] if body else lineno + 1
    if any(b[0] != first + i for i, b in enumerate(body[:height])):
        raise MapFormatError(
            "comment lines are not allowed between the rows of the board", path=path, line=first
        )
    blocked, starts = _parse_grid(
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


def _parse_isolation(text: str, name: str, path: str | None) -> GameMap:
    words, blocked, starts, lineno = _parse_header_grid(
        text, path, "isolation", "isolation W H [queen|knight]", "12"
    )
    if len(words) > 1:
        raise MapFormatError(
            f"expected 'isolation W H [queen|knight]', got extra words "
            f"{' '.join(words)[:40]!r}",
            path=path,
            line=lineno,
        )
    variant = words[0] if words else "queen"
    if variant not in ISOLATION_VARIANTS:
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
    return GameMap("isolation", name, blocked, start_cells, {"variant": variant}, path)


def _parse_grid_map(text: str, name: str, path: str | None, game: str) -> GameMap:
    words, blocked, starts, _ = _parse_header_grid(
        text, path, game, f"{game} W H [WORD ...]", "123456789"
    )
    labels = sorted(starts)
    if labels != [str(k) for k in range(1, len(labels) + 1)]:
        raise MapFormatError(
            f"starts should be numbered from 1 with none missing, got {', '.join(labels)}",
            path=path,
        )
    meta = {"options": tuple(words)} if words else {}
    return GameMap(game, name, blocked, tuple(starts[k] for k in labels), meta, path)


def _parse_connect5(text: str, name: str, path: str | None) -> GameMap:
    numbered = [(n, ln) for n, ln in _strip_comments(_lines(text)) if ln.strip()]
    if not numbered:
        raise MapFormatError("empty file, not a map", path=path, line=1)
    lineno, head = numbered[0]
    parts = head.split()
    usage = "'connect5 COLUMNS ROWS INAROW'"
    if len(parts) != 4 or parts[0] != "connect5":
        raise MapFormatError(f"expected {usage}, got {_shown(head)}", path=path, line=lineno)
    cols, rows, inarow = (
        _number(p, what, path, lineno, usage)
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
    return GameMap("connect5", name, blocked, (), {"inarow": inarow}, path)


def parse_outpost_line(line: str) -> tuple[int, int]:
    """The two whole numbers ``x y`` of one outpost map line.

    Lenient about whitespace and commas between the numbers; no range check.  Raises
    :class:`~atlas.limits.LimitError` saying what is wrong (not two whole numbers, or a
    number of more than :data:`~atlas.limits.MAX_INT_DIGITS` digits).
    """
    parts = line.replace(",", " ").split()
    usage = f"expected two whole numbers 'x y', got {_shown(line)}"
    if len(parts) != 2:
        raise LimitError(usage)
    try:
        return whole_number(parts[0], "x"), whole_number(parts[1], "y")
    except LimitError as exc:
        if "digits" in str(exc):
            raise LimitError(f"{usage}: {exc}") from None
        raise LimitError(usage) from None


def outpost_line_xy(line: str) -> tuple[int, int] | None:
    """The two whole numbers ``x y`` of one outpost map line, or None if it holds other text.

    See :func:`parse_outpost_line`, which says why a line is refused.
    """
    try:
        return parse_outpost_line(line)
    except LimitError:
        return None


def outpost_quarter_cells(text: str, path: str | None = None) -> list[tuple[int, int, int]]:
    """Parse the lines of an outpost map into ``(line, x, y)`` triples.

    Lenient about whitespace (the validator reports what the official reader would not
    accept); strict about everything else: each non-blank line must hold two integers
    in 0..49.
    """
    cells = []
    for lineno, ln in enumerate(_lines(text), start=1):
        if not ln.strip():
            continue
        try:
            x, y = parse_outpost_line(ln)
        except LimitError as exc:
            raise MapFormatError(str(exc), path=path, line=lineno) from None
        if not (0 <= x < OUTPOST_QUARTER and 0 <= y < OUTPOST_QUARTER):
            raise MapFormatError(
                f"cell ({x}, {y}) is outside the 50x50 quarter (0..49 each way)",
                path=path,
                line=lineno,
            )
        cells.append((lineno, x, y))
    return cells


def outpost_full_water(quarter: np.ndarray) -> Grid:
    """Replicate a 50x50 quarter (``[row, col]`` = ``[y, x]``) to the 100x100 board.

    Water at (x, y) is also water at (99-y, x), (99-x, 99-y) and (y, 99-x).
    """
    q = np.asarray(quarter, dtype=np.bool_)
    n = OUTPOST_SIZE
    full = np.zeros((n, n), dtype=np.bool_)
    ys, xs = np.nonzero(q)
    for fx, fy in ((xs, ys), (n - 1 - ys, xs), (n - 1 - xs, n - 1 - ys), (ys, n - 1 - xs)):
        full[fy, fx] = True
    return full


def _parse_outpost(text: str, name: str, path: str | None) -> GameMap:
    cells = outpost_quarter_cells(text, path)
    if not cells:
        raise MapFormatError(
            "no water cells: an outpost map lists 500 lines 'x y'", path=path, line=1
        )
    quarter = np.zeros((OUTPOST_QUARTER, OUTPOST_QUARTER), dtype=np.bool_)
    for _, x, y in cells:
        quarter[y, x] = True
    return GameMap("outpost", name, outpost_full_water(quarter), OUTPOST_HOMES, {}, path)


# --------------------------------------------------------------------------- writing


def format_map(game_map: GameMap) -> str:
    """Return the text of ``game_map`` in its game's file format."""
    g = game_map
    if g.game == "tron":
        return _format_grid(g, f"{g.width} {g.height}", free=" ", wall="#")
    if g.game == "isolation":
        return _format_grid(
            g,
            f"isolation {g.width} {g.height} {g.meta.get('variant', 'queen')}",
            free=".",
            wall="#",
        )
    if g.game == "connect5":
        return f"connect5 {g.width} {g.height} {int(g.meta.get('inarow', 5))}\n"
    if g.game != "outpost":
        words = " ".join([g.game, str(g.width), str(g.height), *g.meta.get("options", ())])
        return _format_grid(g, words, free=".", wall="#")
    quarter = g.blocked[:OUTPOST_QUARTER, :OUTPOST_QUARTER]
    ys, xs = np.nonzero(quarter)
    order = np.lexsort((ys, xs))
    return "".join(f"{int(xs[i])} {int(ys[i])}\n" for i in order)


def _format_grid(g: GameMap, header: str, *, free: str, wall: str) -> str:
    chars = np.where(g.blocked, wall, free).astype("<U1")
    for label, (r, c) in zip("123456789", g.starts):
        chars[r, c] = label
    return header + "\n" + "".join("".join(row) + "\n" for row in chars)


def write_map(game_map: GameMap, path: str | os.PathLike[str]) -> None:
    """Write ``game_map`` to ``path`` in its game's file format."""
    Path(path).write_text(format_map(game_map), encoding="utf-8", newline="\n")


@dataclass(frozen=True)
class MapScan:
    """What :func:`scan_maps` found in a folder.

    Attributes
    ----------
    files : tuple of Path
        The map files to read: regular ``*.txt`` files, and symlinks to regular files
        inside the folder.
    problems : tuple of MapFormatError
        One per ``*.txt`` entry left out, naming it and why: a symlink that leads out of
        the folder or nowhere, a FIFO, a device.  Nothing of these was opened.
    """

    files: tuple[Path, ...]
    problems: tuple[MapFormatError, ...]


def scan_maps(folder: str | os.PathLike[str]) -> MapScan:
    """The map files (``*.txt``) under ``folder``, sorted, and the entries left out.

    Symlinked folders are not entered; a symlinked file is kept only when it resolves
    to a regular file inside ``folder`` (what it points at could otherwise be any file
    of the machine, and its lines end up on a published page).  A ``folder`` that is a
    file is returned as the only map.

    Notes
    -----
    A walk with :func:`os.walk` (``followlinks=False``), one ``lstat`` per entry.
    """
    root = Path(folder)
    if not root.is_dir():
        return MapScan((root,) if os.path.lexists(root) else (), ())
    top = root.resolve()
    files: list[Path] = []
    problems: list[MapFormatError] = []
    for here, dirs, names in os.walk(root, followlinks=False):
        base = Path(here)
        entries = [n for n in names if n.endswith(".txt")]
        entries += [d for d in dirs if os.path.islink(base / d)]
        for name in entries:
            p = base / name
            why = _why_not_a_map_entry(p, top)
            if why is None:
                files.append(p)
            elif why:
                problems.append(MapFormatError(why, path=p))
    files.sort()
    problems.sort(key=lambda e: e.path or "")
    return MapScan(tuple(files), tuple(problems))


def _why_not_a_map_entry(p: Path, top: Path) -> str | None:
    """None for a map to read, "" for an entry to skip silently, else the problem."""
    try:
        st = os.lstat(p)
    except OSError as exc:
        return f"cannot read: {exc.strerror or exc}"
    if stat.S_ISLNK(st.st_mode):
        try:
            target = p.resolve(strict=True)
        except (OSError, RuntimeError):
            return "a symlink that leads nowhere (or into a loop), not followed"
        if target != top and top not in target.parents:
            return "a symlink that leads out of the maps folder, not followed"
        try:
            st = os.stat(target)
        except OSError as exc:
            return f"cannot read: {exc.strerror or exc}"
        if stat.S_ISDIR(st.st_mode):
            return ""  # a folder inside the folder: its maps are found there
    if stat.S_ISDIR(st.st_mode):
        return ""
    if not stat.S_ISREG(st.st_mode):
        return f"not a regular file: {file_kind(st.st_mode)}, not opened"
    return None


def find_maps(folder: str | os.PathLike[str]) -> list[Path]:
    """All map files under ``folder`` (``*.txt``), sorted by game folder then name.

    The files of :func:`scan_maps`: symlinks out of the folder and anything but
    regular files are left out (:func:`scan_maps` says which and why).
    """
    return list(scan_maps(folder).files)
