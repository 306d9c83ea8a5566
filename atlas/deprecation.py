"""Deprecations: how a name of atlas's public API changes without breaking its callers.

The names at the top of the package (``atlas.read_map``, ``atlas.analyze``, ...: the
list is :data:`atlas.__all__`) are the stable surface.  One of them is renamed, moved or
given other arguments only after a release in which the old form still works and says,
with an :class:`AtlasDeprecationWarning`, what replaces it and since when.  The helpers
here say it the same way everywhere:

* :func:`warn_deprecated` -- the warning itself, from inside the old code path;
* :func:`deprecated` -- a decorator for a function that is going away;
* :data:`atlas.__init__`'s ``_MOVED`` table -- a top-level name that moved: reading
  ``atlas.OLD`` warns, then returns the new object;
* :func:`moved_module` -- a module that moved: importing the old path warns, then gives
  the new module itself; :func:`moved_package` -- the same for a package whose modules
  keep old paths of their own.

Everything below the top-level names (``atlas.maps``, ``atlas.sim.records``, ...) may
move between releases without a warning.
"""

from __future__ import annotations

import functools
import importlib
import sys
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = [
    "AtlasDeprecationWarning",
    "warn_deprecated",
    "deprecated",
    "deprecation_text",
    "moved_module",
    "moved_package",
]

F = TypeVar("F", bound=Callable[..., Any])


class AtlasDeprecationWarning(DeprecationWarning):
    """A name or an argument of atlas's public API that will go away.

    A subclass of :class:`DeprecationWarning`: Python shows it for code run as
    ``__main__`` (a script, a notebook cell) and in test runs, and filters can single
    out atlas's own (``warnings.simplefilter("error", AtlasDeprecationWarning)``).
    """


def deprecation_text(what: str, *, since: str, instead: str | None = None) -> str:
    """The sentence of a deprecation warning.

    Examples
    --------
    >>> deprecation_text("atlas.old_name", since="0.9", instead="atlas.new_name")
    'atlas.old_name is deprecated since atlas 0.9 and will be removed; use atlas.new_name'
    """
    text = f"{what} is deprecated since atlas {since} and will be removed"
    return text + (f"; use {instead}" if instead else "")


def warn_deprecated(
    what: str, *, since: str, instead: str | None = None, stacklevel: int = 2
) -> None:
    """Warn that ``what`` is deprecated (an :class:`AtlasDeprecationWarning`).

    Parameters
    ----------
    what : str
        The deprecated name or form, as a caller writes it (``"atlas.old_name"``,
        ``"play(..., time_limit=)"``).
    since : str
        The atlas version that deprecated it.
    instead : str, optional
        What to use instead.
    stacklevel : int
        As for :func:`warnings.warn`: 2 points at the caller of the function that
        warns.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_deprecated("f(x=)", since="0.9", instead="f(y=)")
    >>> str(caught[0].message)
    'f(x=) is deprecated since atlas 0.9 and will be removed; use f(y=)'
    """
    warnings.warn(
        deprecation_text(what, since=since, instead=instead),
        AtlasDeprecationWarning,
        stacklevel=stacklevel + 1,
    )


def deprecated(*, since: str, instead: str | None = None) -> Callable[[F], F]:
    """Mark a function as deprecated: each call warns, then runs it.

    Examples
    --------
    >>> @deprecated(since="0.9", instead="atlas.analyze")
    ... def old_analyze(x):
    ...     return x
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     old_analyze(3)
    3
    >>> caught[0].category.__name__
    'AtlasDeprecationWarning'
    """

    def wrap(func: F) -> F:
        what = f"{func.__module__}.{func.__qualname__}"

        @functools.wraps(func)
        def run(*args: Any, **kwargs: Any) -> Any:
            warn_deprecated(what, since=since, instead=instead)
            return func(*args, **kwargs)

        note = f"\n\n.. deprecated:: {since}\n   Use {instead} instead.\n" if instead else ""
        run.__doc__ = (func.__doc__ or "") + note
        return run  # type: ignore[return-value]

    return wrap


def moved_module(old: str, new: str, *, since: str) -> None:
    """Make the module being imported as ``old`` the module ``new``, with a warning.

    Call it from the module left at the old path.  Python's import then hands the caller
    the new module itself, so the old path and the new one share every object.

    Examples
    --------
    A file ``atlas/analyze/voronoi.py`` holds only::

        moved_module(__name__, "atlas.analysis.voronoi", since="0.2")
    """
    module = importlib.import_module(new)
    # 3: past this function, the shim module's body and importlib's frames that
    # Python hides from warnings, to the caller's import statement
    warn_deprecated(f"the module {old}", since=since, instead=new, stacklevel=3)
    sys.modules[old] = module


def moved_package(old: str, new: str, *, since: str) -> Callable[[str], Any]:
    """Warn that the package ``old`` moved to ``new``; its ``__getattr__``.

    The package at the old path stays a package of its own, so that its modules (each
    calling :func:`moved_module`) are found under it.  A name read from it is read from
    the new package, or is the new package's module of that name.

    Examples
    --------
    A file ``atlas/analyze/__init__.py`` holds only::

        __getattr__ = moved_package(__name__, "atlas.analysis", since="0.2")
    """
    target = importlib.import_module(new)
    warn_deprecated(f"the module {old}", since=since, instead=new, stacklevel=3)

    def getattr_(name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            return getattr(target, name)
        except AttributeError:
            pass
        try:
            return importlib.import_module(f"{old}.{name}")
        except ModuleNotFoundError:
            raise AttributeError(f"module {old!r} has no attribute {name!r}") from None

    return getattr_
