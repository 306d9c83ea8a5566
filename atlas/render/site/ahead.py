"""Work a build does ahead, in a forked child, while it goes on with its stages.

A season's rebuild spends a second or more on its standings (the bootstrap's refits,
pure arithmetic over the games' heads) and as long drawing and paging the games, in
one process, while the machine's other core waits.  :class:`Ahead` runs a function in a
child made by ``fork``: the child sees the build's memory as it was (the heads of
100,000 games, nothing pickled on the way in) and sends back only the result.

Nothing depends on the child: where ``fork`` is not there (not Linux), or the child
fails, is killed, or sends something else, :meth:`Ahead.result` says so (``None``) and
the build works the result out itself, the same as it would have.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["Ahead", "can_fork", "in_two", "WAIT"]

#: Seconds a build waits for a child's result before it takes the child for stuck, ends
#: it and works the result out itself (a season's standings take a few seconds).
WAIT = 600.0


def can_fork() -> bool:
    """Whether a child can be forked here: on Linux only (``fork`` on macOS is unsafe
    with the system's libraries, and Windows has none), from a process of one thread
    (a child forked beside other threads may find a lock one of them held: ``atlas
    serve`` watches and serves in threads, and works its standings out itself)."""
    return (
        sys.platform.startswith("linux")
        and "fork" in multiprocessing.get_all_start_methods()
        and threading.active_count() == 1
    )


def _child(send: Any, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
    """The child's whole work: ``fn(*args)``, sent back, or ``None`` sent when it
    fails (the parent then works it out itself; no traceback is printed here)."""
    try:
        value = fn(*args)
    except BaseException:  # the parent does the work itself, and meets the error there
        value = None
    try:
        send.send(value)
    except BaseException:  # the parent reads the closed pipe as a failure
        pass
    finally:
        send.close()


class Ahead:
    """``fn(*args)`` worked out in a forked child (see the module's notes).

    Examples
    --------
    >>> job = Ahead(sum, [1, 2, 3])
    >>> job.result()
    6
    """

    def __init__(self, fn: Callable[..., Any], *args: Any) -> None:
        ctx = multiprocessing.get_context("fork")
        self._recv, send = ctx.Pipe(duplex=False)
        # daemonic: a build that ends before it asks (an error, Ctrl-C) does not wait
        self._proc = ctx.Process(target=_child, args=(send, fn, args), daemon=True)
        self._proc.start()  # multiprocessing flushes stdout and stderr before the fork
        send.close()
        self._done = False

    @classmethod
    def start(cls, fn: Callable[..., Any], *args: Any) -> Ahead | None:
        """``Ahead(fn, *args)``, or None when the system refuses the fork (no memory,
        too many processes): the caller then does the work itself."""
        try:
            return cls(fn, *args)
        except OSError:
            return None

    def result(self, wait: float = WAIT) -> Any:
        """The child's result, or ``None`` when it failed or sent nothing within
        ``wait`` seconds (then it is ended); once."""
        if self._done:
            return None
        value = None
        try:
            if self._recv.poll(wait):  # the result, or the pipe closed by a child gone
                value = self._recv.recv()
        except (EOFError, OSError):  # the child died before it sent anything
            value = None
        finally:
            self._end(value is not None)
        return value

    def stop(self) -> None:
        """End the child without its result (the build stopped before it asked)."""
        self._end(False)

    def _end(self, answered: bool) -> None:
        """Close the pipe and reap the child: one that has answered ends by itself
        (given a second), any other is ended; once."""
        if self._done:
            return
        self._done = True
        self._recv.close()
        if answered:
            self._proc.join(timeout=1.0)
        if self._proc.is_alive():
            self._proc.terminate()
        self._proc.join()


def in_two(work: Callable[[int, int], Any], count: int) -> Any:
    """``work(0, count)`` (an array, a row for each of ``count`` parts) with its second
    half worked out by a forked child meanwhile, the rows stacked in order: a
    bootstrap's refits (:func:`atlas.arena.rating.bootstrap_ratings`'s ``spread``) on
    both cores, in the standings' child while the build waits for its tables.

    ``work`` must give the same rows for a range wherever it runs (the refits are
    functions of their numbers).  Where no child can be forked, or it fails or sends
    something else, this process works that half out itself: the same array."""
    import pickle

    import numpy as np

    half = count // 2
    if half < 1 or not can_fork():
        return work(0, count)
    # a fork of its own, not an :class:`Ahead`: the standings' child is a daemonic
    # process, which multiprocessing forbids to start one
    parent = os.getpid()
    read, write = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read)
        os.close(write)
        return work(0, count)
    if pid == 0:  # the child: its half, pickled into the pipe, and nothing else
        code = 1
        try:
            _end_with(parent)
            os.close(read)
            with os.fdopen(write, "wb") as pipe:
                pipe.write(pickle.dumps(work(half, count), protocol=pickle.HIGHEST_PROTOCOL))
            code = 0
        finally:
            os._exit(code)  # no cleanup of the parent's state, no traceback
    os.close(write)
    try:
        first = work(0, half)
        with os.fdopen(read, "rb") as pipe:
            data = pipe.read()
    except BaseException:
        os.kill(pid, signal.SIGTERM)
        raise
    finally:
        os.waitpid(pid, 0)
    try:
        rest = pickle.loads(data)
    except Exception:  # a child gone before it finished: its half done here
        rest = None
    if not (
        isinstance(rest, np.ndarray)
        and isinstance(first, np.ndarray)
        and rest.shape == (count - half, *first.shape[1:])
        and rest.dtype == first.dtype
    ):
        rest = work(half, count)
    return np.concatenate([first, rest])


def _end_with(parent: int) -> None:
    """Have the kernel end this process when its parent ends (Linux's
    ``PR_SET_PDEATHSIG``): a child of :func:`in_two` whose parent was killed (a build
    ended from outside) does not work on alone.  A parent gone already ends it now."""
    import ctypes

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # no prctl: the child ends when its work does
        pass
    if os.getppid() != parent:
        os._exit(1)
