"""Maps: :func:`read_map` and :func:`write_map`, from files or text."""

from __future__ import annotations

import os
from typing import TypeAlias

from ..errors import ArgumentError
from ..maps import GameMap
from ..types import StrPath
from ._check import game_map_of, game_name, path_of, read_source, short, source_of

__all__ = ["read_map", "write_map", "GameMap", "MapSource"]

#: How every API function takes a map: a :class:`GameMap`, a map file (a ``str`` or a
#: path-like), or a map's text (a ``str`` with a line break in it).
MapSource: TypeAlias = GameMap | str | os.PathLike[str]


def read_map(
    path_or_text: StrPath, game: str | None = None, *, name: str | None = None
) -> GameMap:
    """Read a map from a file, or from its text.

    Parameters
    ----------
    path_or_text : str or path-like
        A map file, or the text of a map (a ``str`` with a line break in it).  The
        formats are those of ``docs/formats.md``.
    game : str, optional
        The map's game.  By default a file's folder (``maps/GAME/...``) or the text
        itself tells.
    name : str, optional
        The map's name; by default the file's name without its extension, or ``"map"``
        for text.

    Returns
    -------
    GameMap
        The map: its game, name, ``blocked`` grid indexed ``[row, col]``, start cells and
        settings.  In Jupyter it shows its picture.

    Raises
    ------
    MapFormatError
        The file cannot be read, or the text is not a map: the message names the file,
        the line and the problem (what ``atlas analyze`` prints).
    UnknownNameError
        ``game`` is not a game atlas knows.
    ArgumentError
        ``path_or_text`` is neither a path nor text.

    See Also
    --------
    write_map : the text of a map, or a map written to a file.

    Examples
    --------
    >>> import atlas
    >>> m = atlas.read_map("5 3\\n#####\\n#1 2#\\n#####\\n", game="tron", name="tiny")
    >>> m
    GameMap(game='tron', name='tiny', size=5x3, starts=((1, 1), (1, 3)))
    >>> int(m.free.sum())
    3
    """
    if game is not None:
        game = game_name(game)
    if name is not None and not isinstance(name, str):
        raise ArgumentError(f"name: expected a str, got {short(name)}")
    path, text = source_of(path_or_text, "path_or_text")
    return read_source(path, text, game=game, name=name)


def write_map(game_map: MapSource, path: StrPath | None = None, *, force: bool = False) -> str:
    """The text of a map in its game's format, written to a file when given.

    Parameters
    ----------
    game_map : GameMap, str or path-like
        The map: a :class:`GameMap`, a map file or a map's text (as :func:`read_map`
        reads them).
    path : str or path-like, optional
        The file to write.  An existing file is replaced only with ``force=True`` (the
        command line's ``--force``): atlas never writes over a file it was not asked to.
    force : bool
        Replace an existing file.

    Returns
    -------
    str
        The text (the same as written), which :func:`read_map` reads back to an equal
        map.

    Raises
    ------
    OutputFolderError
        ``path`` exists and ``force`` is not given, or its folder is missing or not
        writable.
    ArgumentError
        ``game_map`` is not a map.
    MapFormatError
        ``game_map`` names a file, or is text, that is not a map.

    Examples
    --------
    >>> import atlas
    >>> m = atlas.read_map("5 3\\n#####\\n#1 2#\\n#####\\n", game="tron")
    >>> print(atlas.write_map(m), end="")
    5 3
    #####
    #1 2#
    #####
    """
    from ..fsutil import check_output_path, write_atomically
    from ..maps import format_map

    text = format_map(game_map_of(game_map))
    if path is not None:
        out = check_output_path(path_of(path, "path"), ours=lambda p: False, force=force)
        write_atomically(out, text.encode("utf-8"))
    return text
