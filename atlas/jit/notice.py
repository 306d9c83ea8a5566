"""Saying that kernels are being compiled: one line on a terminal, the first time numba
compiles a kernel within a :func:`compile_notice` block."""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterator
from typing import Any

__all__ = ["CompileNotice", "compile_notice", "listen"]

_LOCK = threading.Lock()
#: The notices of the open :func:`compile_notice` blocks.
_OPEN: list[CompileNotice] = []
#: The listener :func:`listen` registered with numba (one a process).
_LISTENER: list[Any] = []


class CompileNotice:
    """One line on ``stream`` the first time numba compiles a kernel in this process
    (loading one from the cache says nothing): ``compiling WHAT (first use, about N s)
    ...``.  Made by :func:`compile_notice`; ``shown`` says whether the line was written.
    """

    def __init__(self, what: str, seconds: float, stream: Any) -> None:
        self.what = what
        self.seconds = seconds
        self.stream = stream
        self.shown = False

    @property
    def line(self) -> str:
        """The line it writes."""
        about = f"about {max(1, round(self.seconds)):d} s"
        return f"atlas: compiling {self.what} (first use, {about}) ..."

    def show(self) -> None:
        """Write the line, unless it was written already."""
        with _LOCK:
            if self.shown:
                return
            self.shown = True
        try:
            print(self.line, file=self.stream, flush=True)
        except (OSError, ValueError):  # a closed terminal: nothing to tell
            pass


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, OSError, ValueError):
        return False


def _show_open() -> None:
    with _LOCK:
        notices = list(_OPEN)
    for notice in notices:
        notice.show()


def listen(event: Any) -> None:
    """Have every open notice shown when numba starts compiling a kernel: registers one
    listener for ``numba:compile`` with ``event`` (``numba.core.event``), once.  Called
    by :func:`atlas.jit.load.load_numba` when it imports numba."""
    with _LOCK:
        if _LISTENER:
            return

        class _Listener(event.Listener):  # type: ignore[misc]
            def on_start(self, ev: Any) -> None:
                _show_open()

            def on_end(self, ev: Any) -> None:
                pass

        listener = _Listener()
        event.register("numba:compile", listener)
        _LISTENER.append(listener)


@contextlib.contextmanager
def compile_notice(
    what: str, seconds: float, stream: Any = None, *, terminal: bool | None = None
) -> Iterator[CompileNotice | None]:
    """Within this block, the first kernel numba compiles (not one it loads from its
    cache) writes one line to ``stream`` (default standard error) saying that ``what``
    is being compiled and about how many ``seconds`` it takes; only when ``stream`` is
    a terminal (``terminal`` overrides the check), and at most once.

    numba is not imported for it: atlas's kernels import numba when first compiled
    (:func:`atlas.jit.load.load_numba`), which starts the listening, so a command that
    turns out to compile nothing pays nothing.  Yields the :class:`CompileNotice`, or
    ``None`` when nothing is to be said (not a terminal).

    Examples
    --------
    >>> import io
    >>> with compile_notice("the tron bots' kernels", 20, io.StringIO()) as notice:
    ...     pass  # not a terminal: nothing is said
    >>> notice is None
    True
    """
    stream = sys.stderr if stream is None else stream
    if not (_is_terminal(stream) if terminal is None else terminal):
        yield None
        return
    notice = CompileNotice(what, seconds, stream)
    with _LOCK:
        _OPEN.append(notice)
    try:
        yield notice
    finally:
        with _LOCK:
            _OPEN.remove(notice)
