"""Type aliases for the vocabulary used across atlas."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Literal, TypeAlias

import numpy as np
import numpy.typing as npt

__all__ = [
    "Grid",
    "IntGrid",
    "Cell",
    "PlayerId",
    "JSONValue",
    "JSONObject",
    "StrPath",
    "Params",
    "Compat",
    "GifChoice",
]

#: A boolean grid indexed ``[row, col]``; ``True`` means blocked (wall, water, trail).
Grid: TypeAlias = npt.NDArray[np.bool_]
#: An integer grid indexed ``[row, col]`` (distances, labels, owners).
IntGrid: TypeAlias = npt.NDArray[np.int32]
#: A cell as ``(row, col)``.
Cell: TypeAlias = tuple[int, int]
#: A seat number, 0-based.
PlayerId: TypeAlias = int

#: A value of JSON data: what ``json.loads`` gives, and what the ``to_json`` methods
#: of atlas's values return (objects as ``dict``, arrays as ``list``).
JSONValue: TypeAlias = (
    None | bool | int | float | str | list["JSONValue"] | dict[str, "JSONValue"]
)
#: A JSON object: what ``to_json`` returns.
JSONObject: TypeAlias = dict[str, JSONValue]
#: A file or a folder, as a ``str`` or a path-like object.
StrPath: TypeAlias = str | os.PathLike[str]
#: Game parameters over a game's defaults, by name (``docs/cli.md`` lists them): what
#: ``--param NAME=VALUE`` gives, the value read as JSON.
Params: TypeAlias = Mapping[str, JSONValue]
#: The rules a game is played by: ``"spec"``, the documented rules, or ``"official"``,
#: what the original engine does (the command line's ``--compat``).
Compat: TypeAlias = Literal["spec", "official"]
#: Which games a site publishes an animated GIF of at build time (``atlas build
#: --gifs``): each map's featured game, every game, or none.
GifChoice: TypeAlias = Literal["featured", "all", "none"]
