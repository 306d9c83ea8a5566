"""atlas: grid-game maps turned into a browsable static website.

The public surface is small: read maps with :func:`read_map`, analyse them with the
functions in :mod:`atlas.analyze`, play them with :mod:`atlas.sim`, and draw them with
:mod:`atlas.render`.  Heavy modules are imported on first use.
"""

from __future__ import annotations

from .errors import AtlasError, MapFormatError
from .maps import GameMap, read_map, write_map

__all__ = ["AtlasError", "MapFormatError", "GameMap", "read_map", "write_map", "__version__"]

__version__ = "0.1.0"
