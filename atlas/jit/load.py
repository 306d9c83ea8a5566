"""numba itself: the one place atlas imports it (:func:`load_numba`), and the dispatcher
atlas's kernels are compiled by."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

__all__ = ["LOCK", "load_numba", "numba_loaded", "make_dispatcher", "dispatcher_class"]

#: Held while numba is loaded and while a kernel's dispatcher is made.
LOCK = threading.RLock()

_NUMBA: Any = None
_DISPATCHER: Any = None


def numba_loaded() -> bool:
    """Whether :func:`load_numba` has loaded numba in this process (a kernel used
    compiled since)."""
    return _NUMBA is not None


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
        cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
        if cache_file is not None:  # numba's own layout; another keeps numba's saves
            cache_file.__class__ = locked_cache_file_class()
    return dispatcher


_LOCKED: Any = None
#: The file beside numba's cached kernels that their saves lock (:func:`locked_save`).
SAVE_LOCK = ".atlas-save.lock"


def locked_cache_file_class() -> Any:
    """numba's index-and-data cache file, with :func:`locked_save` as its ``save``.

    numba's own ``save`` reads a kernel's index, numbers a new compiled version after
    the ones listed and writes the index, then the data, with no lock.  Two processes
    compiling two versions of one kernel at once (two games' searches built from one
    builder, :func:`atlas.jit.built`) both take the same number: one version's entry is
    lost and its data file holds the other's code, which a third process then loads
    for it, silently (a build's isolation games changed from one cold build to the
    next).  Saves under one lock, reading the index anew, never share a number."""
    global _LOCKED
    if _LOCKED is None:
        base = load_numba().core.caching.IndexDataCacheFile

        class LockedCacheFile(base):  # type: ignore[misc, valid-type]
            save = locked_save

        _LOCKED = LockedCacheFile
    return _LOCKED


def locked_save(self: Any, key: Any, data: Any) -> None:
    """Save a compiled version of a kernel in numba's cache, under an exclusive lock of
    the cache folder (``fcntl.flock`` of :data:`SAVE_LOCK`, where the system has it):
    the index is read anew under the lock, a new version takes the first number no
    entry uses, and its data is written before the index names it (a reader never
    finds an entry whose data is not there)."""
    import itertools
    import os

    fcntl: Any
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: numba's own save
        fcntl = None
    folder = self._cache_path
    lock = None
    try:
        if fcntl is not None:
            try:
                lock = open(os.path.join(folder, SAVE_LOCK), "a+b")  # noqa: SIM115
                fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
            except OSError:  # a folder that takes no lock file: numba's order, unlocked
                if lock is not None:
                    lock.close()
                lock = None
        overloads = self._load_index()
        name = overloads.get(key)
        if name is not None:  # the same version compiled again: its file, rewritten
            self._save_data(name, data)
            return
        taken = set(overloads.values())
        name = next(
            self._data_name(i) for i in itertools.count(1) if self._data_name(i) not in taken
        )
        self._save_data(name, data)
        overloads[key] = name
        self._save_index(overloads)
    finally:
        if lock is not None:
            lock.close()  # closing releases the lock
