"""Maps: :class:`GameMap`, reading and writing map files, and finding them in folders.

A map is a :class:`GameMap`: the game, a name, a boolean ``blocked`` grid indexed
``[row, col]`` (walls or water; nothing on a board without walls), the start cells as
``(row, col)`` and a little metadata.  File formats speak of ``x, y`` (x to the right, y
downward); each game's format converts them and nothing else does.

Formats (``docs/formats.md`` describes each one for map authors):

a game's own format
    A game that has one registers its format module with the game
    (``register_game(..., maps="atlas.maps.NAME")``, :mod:`atlas.games`); the module's
    ``FORMAT`` is a :class:`MapFormat`: how to parse, write and recognise its maps.
    This module imports it on first use, by the dotted path the registry holds, and
    names no game itself.
the atlas grid format (every other game)
    ``GAME W H [WORD ...]`` then H rows of W characters: ``.`` free, ``#`` blocked, the
    digits ``1`` to ``9`` the starts (numbered from 1, none missing).  The words after
    the size are kept as the map's ``options``.  This is how a registered game keeps
    its maps without a format of its own.

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
import importlib
import os
import re
import stat
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

import numpy as np

from ..errors import MapFormatError
from ..fsutil import file_kind, read_regular_file
from ..games import game_modules, game_names
from ..types import Cell, Grid
from .text import DIGITS, decode_map_bytes, format_grid, meaningful_lines, parse_header_grid

__all__ = [
    "GAME_NAME",
    "GameMap",
    "MapFormat",
    "BoardFacts",
    "map_format",
    "board_facts",
    "read_map",
    "parse_map",
    "write_map",
    "format_map",
    "find_maps",
    "scan_maps",
    "MapScan",
    "MAX_MAP_BYTES",
]

#: What a game's name may look like (it names folders, files and pages).
GAME_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,39}$")

#: Files larger than this are refused before they are read (maps are small).
MAX_MAP_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True, eq=False)
class GameMap:
    """A map of one game.

    Parameters
    ----------
    game : str
        The game's name (a registered game, or any name in :data:`GAME_NAME`'s form).
    name : str
        The map's name (the file name without its extension).
    blocked : ndarray of bool, shape (rows, cols)
        ``True`` for walls or water.  Read-only.
    starts : tuple of (row, col)
        The start cells, one per player; empty on a board without starts (or where
        players place their pieces themselves).
    meta : mapping
        Game-specific settings from the file (a variant, how many in a row win, the
        grid format's ``options``).
    source : str or None
        The file the map was read from, if any.
    """

    game: str
    name: str
    blocked: Grid
    starts: tuple[Cell, ...] = ()
    meta: Mapping[str, object] = field(default_factory=dict)
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

    def _repr_png_(self) -> bytes | None:
        """The map's picture as PNG bytes, for Jupyter: drawn by its game's render
        module (through :mod:`atlas.display`; ``None`` when nothing can draw it)."""
        from ..display import show

        png: bytes | None = show("map-png", self)
        return png


# --------------------------------------------------------------------------- formats


@dataclass(frozen=True)
class BoardFacts:
    """What a map of a format may hold, as an editor needs to know it (``atlas serve``'s
    map editor reads these; nothing here names a game).

    Attributes
    ----------
    blocked, free : str
        What a blocked and a free cell are called (``"wall"``/``"free"``,
        ``"water"``/``"land"``).
    walls : bool
        Whether a cell may be blocked at all (a board without walls: False).
    starts : tuple of int, or None
        How many starts a map may have (``(0, 2)``: none, or two); ``None``: as many as
        the game has seats.
    fixed_starts : tuple of (row, col)
        Starts the format sets itself (an editor shows them, does not move them).
    size : (rows, cols) or None
        The one size the format's boards have; ``None``: any size.
    symmetry : str or None
        A symmetry of :mod:`atlas.analysis.symmetry` every map of the format has by
        construction (a four-fold turn: ``"rot90"``); ``None``: no such promise.
    """

    blocked: str = "wall"
    free: str = "free"
    walls: bool = True
    starts: tuple[int, ...] | None = None
    fixed_starts: tuple[Cell, ...] = ()
    size: tuple[int, int] | None = None
    symmetry: str | None = None


@dataclass(frozen=True)
class MapFormat:
    """A game's own map file format: what its format module's ``FORMAT`` holds.

    Attributes
    ----------
    parse : callable
        ``parse(text, name, path) -> GameMap``: the map in ``text``; ``path`` (a str or
        ``None``) names the file in messages and becomes the map's ``source``.  Any
        problem is a :class:`MapFormatError` naming the line.
    format : callable
        ``format(game_map) -> str``: the text of a map, which ``parse`` reads back to
        the same map.
    recognise : callable
        ``recognise(lines) -> bool``: whether a file whose game is not given is one of
        this format's, from its lines that are neither blank nor ``;`` comments (at least
        one).  Formats are asked in the registry's order, before the atlas grid format's
        ``GAME W H``; a format should claim only what no other format reads.
    first_line : str
        How a file of this format starts, for the message that says a file's game cannot
        be told: ``"'W H' (tron)"``.
    board : BoardFacts
        What its maps may hold (their cells' names, starts, size, symmetry).
    """

    parse: Callable[[str, str, str | None], GameMap]
    format: Callable[[GameMap], str]
    recognise: Callable[[Sequence[str]], bool]
    first_line: str
    board: BoardFacts = field(default_factory=BoardFacts)


def map_format(game: str) -> MapFormat | None:
    """The format the registered game ``game`` keeps its maps in, or ``None`` when it
    has none of its own (or is not registered): its maps use the atlas grid format."""
    if game not in game_names():
        return None
    module = game_modules(game).format
    if module is None:
        return None
    fmt: MapFormat = importlib.import_module(module).FORMAT
    return fmt


def board_facts(game: str) -> BoardFacts:
    """What a map of ``game`` may hold (:class:`BoardFacts`): its format's, or the atlas
    grid format's (walls, any size, a start per seat)."""
    fmt = map_format(game)
    return BoardFacts() if fmt is None else fmt.board


def _formats() -> list[tuple[str, MapFormat]]:
    """Every registered game's own format, in the registry's order."""
    out = []
    for game in game_names():
        fmt = map_format(game)
        if fmt is not None:
            out.append((game, fmt))
    return out


# --------------------------------------------------------------------------- reading


def read_map(path: str | os.PathLike[str], game: str | None = None) -> GameMap:
    """Read a map file.

    Parameters
    ----------
    path : path-like
        The file.
    game : str, optional
        The game; when omitted it is taken from the parent folder's name when that is a
        registered game (``maps/GAME/...``) or, failing that, from the file's content.

    Raises
    ------
    MapFormatError
        The file cannot be read or is not a map; the message names the file, the line and
        the problem.
    """
    p = Path(path)
    data = read_regular_file(p, MAX_MAP_BYTES, MapFormatError, what="map file")
    text = decode_map_bytes(data, p)
    if game is None and p.parent.name in game_names():
        game = p.parent.name
    return parse_map(text, game=game, name=p.stem, path=p)


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
    fmt = map_format(game)
    if fmt is None:
        return _parse_grid_map(text, name, source, game)
    return fmt.parse(text, name, source)


def _sniff_game(text: str, path: str | os.PathLike[str] | None) -> str:
    lines = meaningful_lines(text)
    if not lines:
        raise MapFormatError("empty file, not a map", path=path, line=1)
    formats = _formats()
    for game, fmt in formats:
        if fmt.recognise(lines):
            return game
    head = lines[0].split()
    if (
        len(head) >= 3
        and GAME_NAME.match(head[0])
        and DIGITS.fullmatch(head[1])
        and DIGITS.fullmatch(head[2])
    ):
        return head[0]
    firsts = [fmt.first_line for _, fmt in formats] + ["'GAME W H'"]
    raise MapFormatError(
        "cannot tell which game this map is for: the first line should be "
        f"{', '.join(firsts[:-1])} or {firsts[-1]}, "
        f"got {lines[0][:40]!r}",
        path=path,
        line=1,
    )


def _parse_grid_map(text: str, name: str, path: str | None, game: str) -> GameMap:
    words, blocked, starts, _ = parse_header_grid(
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


# --------------------------------------------------------------------------- writing


def format_map(game_map: GameMap) -> str:
    """Return the text of ``game_map`` in its game's file format."""
    g = game_map
    fmt = map_format(g.game)
    if fmt is not None:
        return fmt.format(g)
    options = g.meta.get("options", ())
    extra = [str(o) for o in options] if isinstance(options, (list, tuple)) else []
    words = " ".join([g.game, str(g.width), str(g.height), *extra])
    return format_grid(g.blocked, g.starts, words, free=".", wall="#")


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
