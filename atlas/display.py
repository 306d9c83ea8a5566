"""How values of the lower layers show themselves in Jupyter, and do what needs a layer
above their own.

A :class:`~atlas.maps.GameMap` draws itself (``_repr_png_``), but drawing belongs to the
render layer, far above the maps.  So the value asks this module, at the bottom of the
layers, for the function that shows it, by a name (``"map-png"``); the top of the
package (``atlas/__init__.py``) provides those functions as dotted paths when atlas is
imported, and they are imported only when a value is first shown.  Nothing below the
top names a module above its own layer.  A record, the standings and a fairness report
are public values defined in their own layer the same way: a record replays, saves and
draws itself through functions provided here (``"record-states"``, ``"record-save"``,
``"record-gif"``, ...).
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["provide", "show", "call"]

#: Kind of display -> ``"module:function"`` that makes it.
_PROVIDERS: dict[str, str] = {}


def provide(kind: str, target: str) -> None:
    """Have :func:`show` make ``kind`` with the function ``target``
    (``"package.module:function"``, imported on first use)."""
    _PROVIDERS[kind] = target


def show(kind: str, value: Any) -> Any:
    """What the provider of ``kind`` makes of ``value``, or ``None`` when none is provided
    (Jupyter then shows the value's plain ``repr``)."""
    if kind not in _PROVIDERS:
        return None
    return call(kind, value)


def call(kind: str, *args: Any, **kwargs: Any) -> Any:
    """The provider of ``kind`` called with the arguments (a :class:`LookupError` when
    none is provided: the package's top provides them all when it is imported)."""
    target = _PROVIDERS.get(kind)
    if target is None:
        raise LookupError(f"nothing provides {kind!r} (is the atlas package imported?)")
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)(*args, **kwargs)
