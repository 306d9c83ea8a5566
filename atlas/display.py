"""How values of the lower layers show themselves in Jupyter.

A :class:`~atlas.maps.GameMap` draws itself (``_repr_png_``), but drawing belongs to the
render layer, far above the maps.  So the value asks this module, at the bottom of the
layers, for the function that shows it, by a name (``"map-png"``); the top of the
package (``atlas/__init__.py``) provides those functions as dotted paths when atlas is
imported, and they are imported only when a value is first shown.  Nothing below the
top names a module above its own layer.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["provide", "show"]

#: Kind of display -> ``"module:function"`` that makes it.
_PROVIDERS: dict[str, str] = {}


def provide(kind: str, target: str) -> None:
    """Have :func:`show` make ``kind`` with the function ``target``
    (``"package.module:function"``, imported on first use)."""
    _PROVIDERS[kind] = target


def show(kind: str, value: Any) -> Any:
    """What the provider of ``kind`` makes of ``value``, or ``None`` when none is provided
    (Jupyter then shows the value's plain ``repr``)."""
    target = _PROVIDERS.get(kind)
    if target is None:
        return None
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)(value)
