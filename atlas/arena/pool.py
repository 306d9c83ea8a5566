"""A pool of worker processes that loses only the game a dead worker was playing.

``concurrent.futures.ProcessPoolExecutor`` breaks as a whole when one worker dies (a bot
that kills its parent, the kernel's out-of-memory killer): every pending game fails.
Here each worker is a process of its own with a pipe; the pool knows which job each
worker holds, so when a worker dies its job alone becomes a failure (with the signal or
exit status), a new worker takes its place, and the other jobs go on.  On an interrupt
(Ctrl-C, ``SIGTERM`` turned into ``KeyboardInterrupt``) every worker is ended, and bots
end with their worker (they are started with a parent-death signal), so no process is
left behind.
"""

from __future__ import annotations

import multiprocessing as mp
import signal
import threading
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection, wait
from typing import Any

__all__ = ["run_pool", "WorkerDied", "STOP_GRACE", "pool_context", "die_with_parent"]

#: Seconds a worker gets to end after ``SIGTERM`` before it is killed.
STOP_GRACE = 0.5
#: Seconds between looks at a pool's ``stop`` event (:func:`run_pool`).
STOP_POLL = 0.2


class WorkerDied(Exception):
    """The worker playing a job died; the message says how."""


def die_with_parent() -> None:
    """Ask the kernel for ``SIGKILL`` when this process's parent ends (Linux), so a
    worker never outlives atlas, however atlas ends."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass


def pool_context() -> Any:
    """The multiprocessing context of atlas's worker processes: a fork server where
    the system has one (else spawn), which dies with the process that started it
    (:mod:`atlas.arena._orphans`, its preload), as its workers die with it
    (:func:`die_with_parent`): a run killed with ``SIGKILL`` leaves none of them."""
    if "forkserver" not in mp.get_all_start_methods():  # pragma: no cover - not POSIX
        return mp.get_context("spawn")
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(["__main__", "atlas.arena._orphans"])
    return ctx


def _worker(conn: Connection, work: Callable[[Any], Any]) -> None:
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the pool decides when workers stop
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    while True:
        try:
            item = conn.recv()
        except (EOFError, OSError):
            return
        if item is None:
            return
        index, job = item
        try:
            result = (True, work(job))
        except BaseException as exc:  # a job that raises is data, not the end of a worker
            result = (False, f"{type(exc).__name__}: {exc}")
        try:
            conn.send((index, result))
        except (BrokenPipeError, OSError):
            return


class _Slot:
    def __init__(self, ctx: Any, work: Callable[[Any], Any]) -> None:
        parent, child = ctx.Pipe()
        self.conn = parent
        self.proc = ctx.Process(target=_worker, args=(child, work), daemon=True)
        self.proc.start()
        child.close()
        self.job: int | None = None

    def stop(self) -> None:
        try:
            self.conn.send(None)
        except (BrokenPipeError, OSError):
            pass
        self.proc.join(STOP_GRACE)
        if self.proc.is_alive():
            self.proc.terminate()
            self.proc.join(STOP_GRACE)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()
        self.conn.close()


def _how(proc: Any) -> str:
    code = proc.exitcode
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exited with status {code}"


def run_pool(
    jobs: Sequence[Any],
    work: Callable[[Any], Any],
    workers: int,
    on_result: Callable[[int, Any], None],
    on_failure: Callable[[int, str], None],
    stop: threading.Event | None = None,
) -> None:
    """Run ``work(job)`` for every job on ``workers`` processes, handed out in order.

    ``on_result(index, value)`` is called in this process as each job finishes (in the
    order they finish; the worker has its next job by then, so a slow callback keeps
    no worker waiting); ``on_failure(index, reason)`` when ``work`` raised or its
    worker died.  ``work`` must be a picklable module-level function.  With ``stop``
    (when the pool runs in a thread of its own), setting the event ends every worker
    within about a second and returns, jobs unfinished.
    """
    ctx = pool_context()
    todo = list(range(len(jobs)))[::-1]
    slots: list[_Slot] = []
    try:
        for _ in range(max(1, min(workers, len(jobs)))):
            slots.append(_Slot(ctx, work))
        busy = 0
        while todo or busy:
            if stop is not None and stop.is_set():
                return
            finished: list[tuple[bool, int, Any]] = []
            busy += _hand_out(slots, todo, jobs)
            ready = wait(
                [s.conn for s in slots] + [s.proc.sentinel for s in slots],
                timeout=None if stop is None else STOP_POLL,
            )
            for k, slot in enumerate(list(slots)):
                if slot.conn in ready:
                    try:
                        index, (ok, value) = slot.conn.recv()
                    except (EOFError, OSError):
                        index = None
                    else:
                        slot.job = None
                        busy -= 1
                        finished.append((ok, index, value))
                        continue
                if slot.proc.sentinel in ready or (slot.conn in ready and index is None):
                    slot.proc.join(STOP_GRACE)
                    if slot.proc.is_alive():
                        continue
                    if slot.job is not None:
                        busy -= 1
                        on_failure(slot.job, f"the worker playing it {_how(slot.proc)}")
                    slot.conn.close()
                    slots[k] = _Slot(ctx, work)
            busy += _hand_out(slots, todo, jobs)  # the next jobs before the callbacks
            for ok, index, value in finished:
                (on_result if ok else on_failure)(index, value)
    finally:
        _stop_all(slots)


def _hand_out(slots: list[_Slot], todo: list[int], jobs: Sequence[Any]) -> int:
    """Send the next jobs of ``todo`` (a stack) to the idle workers; how many were sent."""
    sent = 0
    for slot in slots:
        if slot.job is None and todo:
            slot.job = todo.pop()
            try:
                slot.conn.send((slot.job, jobs[slot.job]))
            except (BrokenPipeError, OSError):
                pass  # the worker died already: seen as dead when it is waited for
            sent += 1
    return sent


def _stop_all(slots: list[_Slot]) -> None:
    """End every worker at once: a polite word, then ``SIGTERM``, then ``SIGKILL``, each
    after :data:`STOP_GRACE` for all of them together (an interrupt ends within about a
    second, however many workers there are)."""
    import time

    for slot in slots:
        try:
            slot.conn.send(None)
        except (BrokenPipeError, OSError):
            pass
    for sig in (None, signal.SIGTERM, signal.SIGKILL):
        if sig is not None:
            for slot in slots:
                if slot.proc.is_alive():
                    try:
                        if sig == signal.SIGKILL:
                            slot.proc.kill()
                        else:
                            slot.proc.terminate()
                    except (OSError, ValueError):
                        pass
        end = time.monotonic() + STOP_GRACE
        for slot in slots:
            slot.proc.join(max(0.0, end - time.monotonic()))
        if not any(s.proc.is_alive() for s in slots):
            break
    for slot in slots:
        slot.conn.close()
