"""Lazy kernels: numba's ``njit``, compiled on first compiled use, or run as Python.

A module with kernels writes ``from ..jit import numba`` (never ``import numba``) and
decorates them with ``@numba.njit(...)``; each is a :class:`LazyKernel`.  Any other
name of that ``numba`` (``numba.objmode``, ``numba.types``, ...) is numba's own, loaded
through :func:`atlas.jit.load.load_numba` on first use.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable, Iterator
from typing import Any

from .load import LOCK, load_numba, make_dispatcher

__all__ = [
    "LazyKernel",
    "LazyIntrinsic",
    "njit",
    "intrinsic",
    "built",
    "kernel_named",
    "numba",
    "interpreted",
    "is_interpreted",
    "INTERPRET_MAX_CELLS",
]

_STATE = threading.local()
#: The kernels made by builders (:func:`built`), by name.
_BUILT: dict[str, LazyKernel] = {}

#: ``atlas analyze`` and ``atlas validate`` (and :func:`atlas.analyze` and
#: :func:`atlas.validate`) run the kernels as plain Python (without importing numba) up
#: to this many cells in all: loading numba costs more than analysing maps of this size
#: without it (``benchmarks/bench_startup.py --sizes`` measures both; a validated map is
#: 10,000 cells).
INTERPRET_MAX_CELLS = 32_000


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
    name : str
        ``module.qualified_name`` of a module's kernel, or the name a builder gave it
        (:func:`built`): what the kernel pickles as.
    """

    def __init__(
        self, func: Callable[..., Any], options: dict[str, Any], name: str | None = None
    ) -> None:
        self.py_func = func
        self._options = options
        self._dispatcher: Any = None
        functools.update_wrapper(self, func)
        self.name = name if name is not None else f"{func.__module__}.{func.__qualname__}"

    def __reduce__(self) -> tuple[Callable[[str], LazyKernel], tuple[str]]:
        """Pickled as its name, the same in every process (see :mod:`atlas.jit`)."""
        return kernel_named, (self.name,)

    @property
    def dispatcher(self) -> Any:
        """numba's dispatcher of the kernel (numba is loaded here, once)."""
        if self._dispatcher is None:
            with LOCK:
                if self._dispatcher is None:
                    self._dispatcher = make_dispatcher(self.py_func, self._options)
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
        return load_numba().core.types.Dispatcher(self.dispatcher)

    @property
    def targetoptions(self) -> dict[str, Any]:
        options: dict[str, Any] = self.dispatcher.targetoptions
        return options

    def __getattr__(self, name: str) -> Any:  # signatures, inspect_types, ...
        if name.startswith("__") or name in ("_dispatcher", "_options", "py_func", "name"):
            raise AttributeError(name)
        return getattr(self.dispatcher, name)

    def __repr__(self) -> str:
        return f"<lazy kernel {self.py_func.__module__}.{self.py_func.__qualname__}>"


class LazyIntrinsic:
    """``numba.extending.intrinsic(func)``, made when compiled code first types it.

    Compiled code only can call it (as with numba's own intrinsics).
    """

    def __init__(self, func: Callable[..., Any]) -> None:
        self.py_func = func
        self._intrinsic: Any = None
        functools.update_wrapper(self, func)
        self.name = f"{func.__module__}.{func.__qualname__}"

    @property
    def intrinsic(self) -> Any:
        """numba's intrinsic (numba is loaded here, once)."""
        if self._intrinsic is None:
            with LOCK:
                if self._intrinsic is None:
                    self._intrinsic = load_numba().extending.intrinsic(self.py_func)
        return self._intrinsic

    @property
    def _numba_type_(self) -> Any:
        # the function type numba registered for the intrinsic (its typing template),
        # which the typing context knows once it has read the registry again
        intrinsic = self.intrinsic
        context = load_numba().core.registry.cpu_target.typing_context
        context.refresh()
        return context.resolve_value_type(intrinsic)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{self.name} is an intrinsic: compiled code only")

    def __repr__(self) -> str:
        return f"<lazy intrinsic {self.name}>"


def njit(*args: Any, **options: Any) -> Any:
    """``numba.njit`` made lazy: ``@njit`` or ``@njit(cache=True, ...)``."""
    if args and callable(args[0]) and len(args) == 1 and not options:
        return LazyKernel(args[0], {})
    if args:
        raise TypeError("njit takes its options as keywords (signatures are not lazy)")
    return lambda func: LazyKernel(func, options)


def intrinsic(func: Callable[..., Any]) -> LazyIntrinsic:
    """``numba.extending.intrinsic`` made lazy (without options)."""
    return LazyIntrinsic(func)


def built(func: Callable[..., Any], name: str, **options: Any) -> LazyKernel:
    """The kernel of ``func``, an inner function a kernel builder made, named ``name``.

    ``name`` must be unique in the process and the same in every process (a builder
    derives it from the names of the kernels it was given); the kernel pickles as it.
    A builder whose inner function calls itself (a recursive search) assigns the result
    to the name the inner function calls, so that the closure holds the kernel.

    Raises
    ------
    ValueError
        Another kernel was built under ``name``.
    """
    with LOCK:
        if name in _BUILT:
            raise ValueError(f"a kernel named {name!r} was built already")
        kernel = _BUILT[name] = LazyKernel(func, options, name)
    return kernel


def kernel_named(name: str) -> LazyKernel:
    """The kernel called ``name`` (:attr:`LazyKernel.name`): one a builder made, or a
    module's own, imported."""
    import importlib

    hit = _BUILT.get(name)
    if hit is not None:
        return hit
    module, _, attr = name.rpartition(".")
    found = importlib.import_module(module)
    for part in attr.split("."):
        found = getattr(found, part)
    if not isinstance(found, LazyKernel):
        raise ValueError(f"{name!r} is not a kernel")
    return found


class _Numba:
    """Stands in for ``import numba`` in atlas's kernel modules.

    ``njit`` and ``intrinsic`` are lazy (:func:`njit`, :func:`intrinsic`).  Any other
    name (``objmode``, ``types``, ``prange``, ... used inside kernels) is numba's own:
    reading it loads numba (:func:`atlas.jit.load.load_numba`).  Compiled code sees this
    object as the numba module.
    """

    njit = staticmethod(njit)
    intrinsic = staticmethod(intrinsic)

    @property
    def _numba_type_(self) -> Any:
        numba = load_numba()
        return numba.core.types.Module(numba)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(load_numba(), name)

    def __repr__(self) -> str:
        return "<atlas.jit.numba: numba, loaded on first use>"


#: Stands in for ``import numba`` in every module of atlas with kernels.
numba = _Numba()
