"""One signal policy for searches and games: ``SIGINT`` and ``SIGTERM`` stop atlas
within a poll of the searches' clock, and are never taken for a bot's crash.

Python runs a signal's handler between two of its own instructions.  A search kernel
(compiled by numba) runs none for as long as it searches, except when it reads the
clock (:func:`atlas.bots.search.clock`, which calls back into Python about every few
hundred nodes); an exception raised there cannot pass through the compiled code (it
came out as ``SystemError: <built-in function perf_counter> returned a result with an
exception set``, recorded as the bot's crash, and the game went on).  So the handler of
this module, installed by :func:`stop_policy`:

* notes the request (:func:`requested`: the signal's number), which makes the searches'
  clock jump far past every deadline (:data:`CLOCK_JUMP`), so a search in progress ends
  at its next poll, as if its time were up;
* raises at once (``KeyboardInterrupt``, or :class:`Terminated` for ``SIGTERM``) when
  Python code is running, and only then: when the signal arrives while a kernel reads
  the clock, the bot's own Python code raises as soon as it reads the clock again
  (:func:`atlas.bots.search.clock_now` calls :func:`check`), and the game runner checks
  after every answer (:func:`atlas.arena.runner.play_game`).

Nor does the handler raise while numba or llvmlite code is running (numba compiling a
kernel): an exception raised in one of llvmlite's callbacks is swallowed there and
leaves numba's compiler broken (``RuntimeError: no compiled object yet``).  The request
is noted, and the code that runs the kernel once it is compiled raises it.

The game runner tells a user's interrupt from a bot that leaves (a Python object whose
``move`` raises ``SystemExit`` or ``KeyboardInterrupt``, or calls ``sys.exit``) by
:func:`requested`: the first is raised out of the runner, nothing recorded; the second
loses its game as a crash.

Only the main thread receives signals; elsewhere :func:`stop_policy` does nothing.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator
from types import FrameType
from typing import Any

__all__ = [
    "Terminated",
    "CLOCK_JUMP",
    "requested",
    "request",
    "clear",
    "check",
    "interrupt",
    "stop_policy",
    "quiet_in",
    "handler",
]

#: Seconds the searches' clock jumps forward once a stop is requested: past any
#: deadline atlas accepts (:data:`atlas.limits.MAX_SECONDS` is a day), and finite, so
#: the searches' arithmetic on clock readings stays ordinary numbers.
CLOCK_JUMP = 1e9


class Terminated(KeyboardInterrupt):
    """``SIGTERM`` reached atlas: it ends as on Ctrl-C (every bot and worker ended, every
    finished record kept), with exit status 143."""


#: The signal whose stop is under way (0: none).  A list, read by the searches' clock.
STATE = [0]
#: Code objects during which the handler notes the request but raises nothing: the
#: searches' clock, run from inside compiled code (:func:`quiet_in`).
_QUIET: set[Any] = set()
_LOCK = threading.Lock()


def requested() -> int:
    """The number of the signal that asked atlas to stop (0: none)."""
    return STATE[0]


def request(signum: int) -> None:
    """Note that ``signum`` asked atlas to stop (the first one asked is kept)."""
    if not STATE[0]:
        STATE[0] = int(signum)


def clear() -> None:
    """Forget a stop request (when the code that was stopped has ended)."""
    STATE[0] = 0


def interrupt(signum: int | None = None) -> KeyboardInterrupt:
    """The exception a stop by ``signum`` (default: the one requested) raises:
    :class:`Terminated` for ``SIGTERM``, else ``KeyboardInterrupt``."""
    signum = requested() if signum is None else signum
    return Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


def check() -> None:
    """Raise the stop's exception when a stop was requested (:func:`interrupt`)."""
    if STATE[0]:
        raise interrupt()


def quiet_in(function: Any) -> Any:
    """Mark ``function`` as one a search kernel calls from compiled code: a signal
    arriving while it runs is noted, not raised (see the module).  Returns it."""
    _QUIET.add(function.__code__)
    return function


#: Folders whose code the handler never raises in: numba's compiler and llvmlite.
_NO_RAISE_IN = tuple(f"{os.sep}{name}{os.sep}" for name in ("numba", "llvmlite"))


def _in_compiler(frame: FrameType | None) -> bool:
    """Whether ``frame`` or a frame below it runs numba's or llvmlite's code."""
    while frame is not None:
        if any(part in frame.f_code.co_filename for part in _NO_RAISE_IN):
            return True
        frame = frame.f_back
    return False


def handler(signum: int, frame: FrameType | None) -> None:
    """The signal handler of :func:`stop_policy`: note the request; raise its exception
    unless the clock of a compiled search or numba's compiler is running (``frame``)."""
    request(signum)
    if frame is not None and frame.f_code in _QUIET:
        caller = frame.f_back
        if caller is None or caller.f_code not in _PYTHON_CALLERS:
            return  # inside compiled code: the clock jumps, the search ends, Python raises
    if _in_compiler(frame):
        return  # numba is compiling: raised by the Python code that runs the kernel
    raise interrupt(signum)


#: Code objects that read the clock from Python (where raising is fine); filled by
#: :mod:`atlas.bots.search`.
_PYTHON_CALLERS: set[Any] = set()


@contextlib.contextmanager
def stop_policy(*, terminate: bool = True, only_default: bool = False) -> Iterator[None]:
    """Within this block ``SIGINT`` (and, with ``terminate``, ``SIGTERM``) follow this
    module's policy; the handlers before are restored at its end, and a stop request
    left is forgotten.

    ``only_default``: take over ``SIGINT`` only while it has Python's own handler (what
    the library does for a caller's program, whose own handlers it leaves alone), and
    ``SIGTERM`` never.  Nested blocks leave the outer one's handlers in place.  Outside
    the main thread nothing changes.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    taken: dict[signal.Signals, Any] = {}
    wanted = [signal.SIGINT] + ([signal.SIGTERM] if terminate and not only_default else [])
    with _LOCK:
        for sig in wanted:
            current = signal.getsignal(sig)
            if current is handler:
                continue
            if only_default and current is not signal.default_int_handler:
                continue
            taken[sig] = current
        outermost = bool(taken) and not any(
            signal.getsignal(s) is handler for s in (signal.SIGINT, signal.SIGTERM)
        )
        if outermost:
            clear()
        for sig in taken:
            signal.signal(sig, handler)
    try:
        yield
    finally:
        with _LOCK:
            for sig, previous in taken.items():
                signal.signal(sig, previous)
            if outermost:
                clear()
