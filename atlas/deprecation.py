"""Deprecations: how a name of atlas's public API changes without breaking its callers.

The names at the top of the package (``atlas.read_map``, ``atlas.analyze``, ...: the
list is :data:`atlas.__all__`) are the stable surface.  One of them is renamed, moved or
given other arguments only after a release in which the old form still works and says,
with an :class:`AtlasDeprecationWarning`, what replaces it and since when.  The helpers
here say it the same way everywhere:

* :func:`warn_deprecated` -- the warning itself, from inside the old code path;
* :func:`deprecated` -- a decorator for a function that is going away;
* :data:`atlas.__init__`'s ``_MOVED`` table -- a top-level name that moved: reading
  ``atlas.OLD`` warns, then returns the new object.

Everything below the top-level names (``atlas.maps``, ``atlas.sim.records``, ...) may
move between releases without a warning.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["AtlasDeprecationWarning", "warn_deprecated", "deprecated", "deprecation_text"]

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
