"""numba itself: the one place atlas imports it (:func:`load_numba`), and the dispatcher
atlas's kernels are compiled by."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

__all__ = ["LOCK", "load_numba", "make_dispatcher", "dispatcher_class"]

#: Held while numba is loaded and while a kernel's dispatcher is made.
LOCK = threading.RLock()

_NUMBA: Any = None
_DISPATCHER: Any = None


def load_numba() -> Any:
    """The numba module, imported on the first call.

    Before importing it, the call chooses numba's cache folder
    (:func:`atlas.jit.cache.numba_cache_folder` sets ``NUMBA_CACHE_DIR``, which numba
    reads once, on import); after, it starts the listener that says a kernel is being
    compiled (:func:`atlas.jit.notice.listen`).  numba loaded earlier by someone else
    gets the folder through its configuration.
    """
    global _NUMBA
    if _NUMBA is None:
        with LOCK:
            if _NUMBA is None:
                from .cache import numba_cache_folder
                from .notice import listen

                numba_cache_folder()
                import numba
                import numba.core.event
                import numba.core.registry
                import numba.core.types
                import numba.extending

                listen(numba.core.event)
                _NUMBA = numba
    return _NUMBA


def dispatcher_class() -> Any:
    """numba's CPU dispatcher, compiling one version per type for calls from compiled
    code: a constant argument (``f(grid, 0, True)``) would otherwise be typed as its
    literal value (``Literal[int](0)``), and each call site with other constants would
    compile the kernel again (the tron bots' chamber walk was compiled ten times)."""
    global _DISPATCHER
    if _DISPATCHER is None:
        numba = load_numba()
        unliteral = numba.core.types.unliteral
        base: Any = numba.core.registry.CPUDispatcher

        class Dispatcher(base):  # type: ignore[misc]
            def get_call_template(self, args: Any, kws: Any) -> Any:
                args = tuple(unliteral(a) for a in args)
                kws = {k: unliteral(v) for k, v in kws.items()}
                return super().get_call_template(args, kws)

        _DISPATCHER = Dispatcher
    return _DISPATCHER


def make_dispatcher(func: Callable[..., Any], options: dict[str, Any]) -> Any:
    """``numba.njit(**options)(func)``, as :func:`dispatcher_class`."""
    targetoptions = dict(options)
    cache = targetoptions.pop("cache", False)
    local_types = targetoptions.pop("locals", {})
    targetoptions.setdefault("boundscheck", None)
    targetoptions["nopython"] = True
    dispatcher = dispatcher_class()(
        py_func=func, locals=dict(local_types), targetoptions=targetoptions
    )
    if cache:
        dispatcher.enable_caching()
    return dispatcher
