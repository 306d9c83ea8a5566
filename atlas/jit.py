"""numba's ``njit``, with numba imported only when a kernel is first compiled.

Importing numba costs about half a second (a second on a loaded machine), more than
``atlas validate`` or ``atlas analyze`` of a small map needs for the whole analysis.  A
module whose kernels should not cost that at import writes::

    from ..jit import numba          # instead of: import numba

    @numba.njit(cache=True)
    def kernel(...): ...

and gets a :class:`LazyKernel`: the plain function until it is first called compiled,
then numba's dispatcher (``cache=True`` finds the same cache files as before).  Inside
other compiled code a lazy kernel is the dispatcher itself (numba asks its
``_numba_type_``; ``inline="always"`` works through ``targetoptions`` and ``py_func``).

Within :func:`interpreted`, lazy kernels run as plain Python (``kernel.py_func``):
without numba at all, which is faster for a one-shot analysis of a small map than
loading numba (``atlas analyze``, ``atlas validate``; ``benchmarks/bench_startup.py``
measures both).
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["LazyKernel", "njit", "numba", "interpreted", "is_interpreted"]

_LOCK = threading.RLock()
_STATE = threading.local()


def is_interpreted() -> bool:
    """Whether lazy kernels run as plain Python in this thread (:func:`interpreted`)."""
    return getattr(_STATE, "depth", 0) > 0


@contextlib.contextmanager
def interpreted(on: bool = True) -> Iterator[None]:
    """Within this block (in this thread), lazy kernels run as plain Python, and numba
    is not imported for them; ``on=False`` leaves them compiled (a no-op block)."""
    if not on:
        yield
        return
    import numpy as np

    _STATE.depth = getattr(_STATE, "depth", 0) + 1
    try:
        # Kernels index with uint64 arithmetic that wraps around on purpose (a step of
        # -1 is 2**64 - 1); compiled code wraps silently, numpy's scalars warn.
        with np.errstate(over="ignore"):
            yield
    finally:
        _STATE.depth -= 1


class LazyKernel:
    """A kernel compiled with ``numba.njit(**options)`` on first compiled use.

    Attributes
    ----------
    py_func : callable
        The plain Python function.
    """

    def __init__(self, func: Callable[..., Any], options: dict[str, Any]) -> None:
        self.py_func = func
        self._options = options
        self._dispatcher: Any = None
        functools.update_wrapper(self, func)

    @property
    def dispatcher(self) -> Any:
        """numba's dispatcher of the kernel (numba is imported here, once)."""
        if self._dispatcher is None:
            with _LOCK:
                if self._dispatcher is None:
                    import numba as real

                    self._dispatcher = real.njit(**self._options)(self.py_func)
        return self._dispatcher

    @property
    def compiled(self) -> bool:
        """Whether numba's dispatcher has been made (not whether it has compiled)."""
        return self._dispatcher is not None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if is_interpreted():
            return self.py_func(*args, **kwargs)
        return self.dispatcher(*args, **kwargs)

    @property
    def _numba_type_(self) -> Any:
        from numba.core import types

        return types.Dispatcher(self.dispatcher)

    @property
    def targetoptions(self) -> dict[str, Any]:
        options: dict[str, Any] = self.dispatcher.targetoptions
        return options

    def __getattr__(self, name: str) -> Any:  # signatures, inspect_types, ...
        if name.startswith("__") or name in ("_dispatcher", "_options", "py_func"):
            raise AttributeError(name)
        return getattr(self.dispatcher, name)

    def __repr__(self) -> str:
        return f"<lazy kernel {self.py_func.__module__}.{self.py_func.__qualname__}>"


def njit(*args: Any, **options: Any) -> Any:
    """``numba.njit`` made lazy: ``@njit`` or ``@njit(cache=True, ...)``."""
    if args and callable(args[0]) and len(args) == 1 and not options:
        return LazyKernel(args[0], {})
    if args:
        raise TypeError("njit takes its options as keywords (signatures are not lazy)")
    return lambda func: LazyKernel(func, options)


class _Numba:
    """The part of numba's namespace the lazy modules use: ``numba.njit``."""

    njit = staticmethod(njit)


#: Stands in for ``import numba`` in modules whose kernels load lazily.
numba = _Numba()
