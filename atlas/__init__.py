"""atlas: grid-game maps turned into a browsable static website.

The public surface is small: read maps with :func:`read_map`, analyse them with the
functions in :mod:`atlas.analyze`, play them with :mod:`atlas.sim`, and draw them with
:mod:`atlas.render`.  Everything is imported on first use, so that ``atlas --help`` and
``atlas --version`` start at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import jit as _jit
from ._version import __version__

__all__ = ["AtlasError", "MapFormatError", "GameMap", "read_map", "write_map", "__version__"]

#: Public name -> the module that defines it (imported by :func:`__getattr__`).
_LAZY = {
    "AtlasError": "errors",
    "MapFormatError": "errors",
    "GameMap": "maps",
    "read_map": "maps",
    "write_map": "maps",
}

# numba's compiled cache lives in a folder keyed by the sources it was compiled from,
# chosen when numba is first imported (atlas.jit explains why).
_jit.install_numba_cache_hook()

if TYPE_CHECKING:  # pragma: no cover
    from .errors import AtlasError, MapFormatError
    from .maps import GameMap, read_map, write_map


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'atlas' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
