"""The supervisor of one external bot: a tiny program between atlas and the bot.

atlas starts ``python -I -S -B _supervisor.py CONFIG -- ARGV...`` for every external
bot (:mod:`atlas.arena.process`).  This file is run by path, on its own: it imports only
the standard library, never atlas.  The supervisor

1. asks the kernel for ``SIGTERM`` when atlas dies (``PR_SET_PDEATHSIG``) and becomes a
   *child subreaper* (``PR_SET_CHILD_SUBREAPER``): every process the bot starts, even
   one that calls ``setsid`` and whose parent exits, is re-parented to the supervisor
   instead of to init, so it stays in reach;
2. forks the bot: in the child, ``PR_SET_PDEATHSIG`` (``SIGKILL`` when the supervisor
   dies), the resource limits (``setrlimit``), the bot's folder as working folder, then
   ``exec`` of the bot (or of ``bwrap`` running the bot, for ``--sandbox``);
3. waits; when the bot exits, or when atlas sends ``SIGTERM`` (or dies), it sends
   ``SIGTERM`` to every descendant, waits a grace period, then sends ``SIGKILL`` to every
   descendant until none is left, removes the bot's folder (atlas does too, unless it
   died), and exits with the bot's own status (by the same signal when the bot was
   killed), so atlas reads the bot's fate from it.

CONFIG is a JSON object: ``cwd`` (the bot's working folder), ``folder`` (the bot's own
folder, removed at the end), ``limits`` (resource name ->
soft and hard limit, e.g. ``{"RLIMIT_AS": 4294967296}``), ``nproc_more`` (processes the
bot may start beyond what its user already runs, or null), ``grace`` (seconds) and
``parent`` (atlas's process id, to catch an atlas that died before step 1) and
``report`` (optional: a file descriptor on which the supervisor writes the bot's process
id, a line, once it has forked it; the bot does not inherit it), so that atlas reads
the bot's CPU time without looking through ``/proc``.
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import shutil
import signal
import stat
import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: the supervisor starts fast
    from collections.abc import Callable
    from types import FrameType
    from typing import Any

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
#: Rounds of "kill every descendant" before giving up (each round kills all it sees).
KILL_ROUNDS = 2000


class _Stop(Exception):
    """atlas asked the supervisor to end the bot (or died)."""


def _prctl(option: int, value: int) -> bool:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(option, value, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


_stopping = False


def _on_signal(signum: int, frame: FrameType | None) -> None:
    """Break the wait once: later signals only confirm the request."""
    global _stopping
    if not _stopping:
        _stopping = True
        raise _Stop()


def _note(signum: int, frame: FrameType | None) -> None:
    global _stopping
    _stopping = True


def _descendants(root: int) -> list[int]:
    """Process ids of every descendant of ``root``, read from ``/proc``."""
    children: dict[int, list[int]] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) < 2 or fields[0] in (b"Z", b"X"):
            continue
        children.setdefault(int(fields[1]), []).append(int(name))
    out, todo = [], [root]
    while todo:
        for pid in children.get(todo.pop(), ()):
            out.append(pid)
            todo.append(pid)
    return out


def _reap() -> list[tuple[int, int]]:
    """Reap every exited child; return [(pid, status)]."""
    done: list[tuple[int, int]] = []
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return done
        if pid == 0:
            return done
        done.append((pid, status))


def _signal_all(sig: int) -> list[int]:
    me = os.getpid()
    pids = _descendants(me)
    for pid in pids:
        try:
            os.kill(pid, sig)
        except OSError:
            pass
    return pids


def _end_tree(grace: float, polite: bool, bot: int | None, status: int | None) -> int | None:
    """End every descendant: SIGTERM and a grace period if ``polite``, then SIGKILL."""
    if polite:
        _signal_all(signal.SIGTERM)
        end = time.monotonic() + grace
        while time.monotonic() < end and _descendants(os.getpid()):
            for pid, st in _reap():
                if pid == bot:
                    status = st
            time.sleep(0.005)
    for _ in range(KILL_ROUNDS):
        left = _signal_all(signal.SIGKILL)
        for pid, st in _reap():
            if pid == bot:
                status = st
        if not left:
            try:
                os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
        time.sleep(0.001)
    return status


def _remove_folder(folder: str) -> None:
    """Remove the bot's folder (only a folder atlas made: ``atlas-bot-*``)."""
    if not folder or not os.path.basename(folder.rstrip("/")).startswith("atlas-bot-"):
        return
    remove_tree(folder)


def remove_tree(folder: str) -> None:
    """Remove ``folder`` and all a bot left in it, read-only folders included (not a
    link to a folder; :func:`atlas.arena.sandbox.remove_bot_folder` calls it too)."""

    def unlock(func: Callable[[str], object], path: str, exc: object) -> None:
        try:
            os.chmod(os.path.dirname(path), stat.S_IRWXU)
            os.chmod(path, stat.S_IRWXU)
            func(path)
        except OSError:
            pass

    if os.path.isdir(folder) and not os.path.islink(folder):
        shutil.rmtree(folder, onerror=unlock)


def _set_limits(limits: dict[str, int], nproc_more: int | None) -> None:
    for name, value in limits.items():
        which = getattr(resource, name, None)
        if which is None:
            continue
        # CPU: SIGXCPU at the soft limit says why; SIGKILL a second later if ignored
        _set_limit(which, value, 1 if name == "RLIMIT_CPU" else 0)
    if nproc_more is not None and hasattr(resource, "RLIMIT_NPROC"):
        _set_limit(resource.RLIMIT_NPROC, _tasks_of(os.getuid()) + int(nproc_more))


def _set_limit(which: int, value: int, headroom: int = 0) -> None:
    """Soft limit ``value``, hard limit ``value + headroom`` (never above the current
    hard limit, which an unprivileged process cannot raise)."""
    soft, hard = resource.getrlimit(which)
    top = value + headroom
    if hard != resource.RLIM_INFINITY:
        value, top = min(value, hard), min(top, hard)
    try:
        resource.setrlimit(which, (value, top))
    except (ValueError, OSError):
        resource.setrlimit(which, (value, hard))


def _tasks_of(uid: int) -> int:
    """Processes and threads of ``uid`` now (``RLIMIT_NPROC`` counts them all)."""
    total = 0
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/status", "rb") as fh:
                lines = fh.read().split(b"\n")
        except OSError:
            continue
        fields = dict(ln.split(b":", 1) for ln in lines if b":" in ln)
        try:
            if int(fields[b"Uid"].split()[0]) == uid:
                total += int(fields[b"Threads"])
        except (KeyError, ValueError, IndexError):
            continue
    return total


def _run_bot(config: dict[str, Any], argv: list[str]) -> None:
    """In the forked child: become the bot.  Never returns."""
    try:
        if config.get("report") is not None:
            os.close(int(config["report"]))  # atlas's, not the bot's
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGPIPE):
            signal.signal(sig, signal.SIG_DFL)
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != config["supervisor"]:
            os._exit(1)  # the supervisor is already gone
        os.chdir(config["cwd"])
        _set_limits(config["limits"], config.get("nproc_more"))
        os.execvp(argv[0], argv)
    except OSError as exc:
        os.write(2, f"atlas: cannot start {argv[0]!r}: {exc.strerror or exc}\n".encode())
        os._exit(127)
    except BaseException as exc:  # never let the child run on as a second supervisor
        os.write(2, f"atlas: cannot start {argv[0]!r}: {exc}\n".encode())
        os._exit(127)


def main(args: list[str]) -> int:
    config = json.loads(args[0])
    argv = args[2:] if len(args) > 1 and args[1] == "--" else args[1:]
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, _on_signal)
    config["supervisor"] = os.getpid()
    grace = float(config.get("grace", 0.2))
    bot: int | None = None
    status: int | None = None
    try:
        try:
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            _prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
            _prctl(PR_SET_CHILD_SUBREAPER, 1)
            if os.getppid() != config.get("parent", os.getppid()):
                raise _Stop()  # atlas died before it could be watched
            bot = os.fork()
            if bot == 0:
                _run_bot(config, argv)
            if config.get("report") is not None:
                try:
                    os.write(int(config["report"]), f"{bot}\n".encode())
                    os.close(int(config["report"]))
                except OSError:
                    pass
            # Hand the pipes to the bot alone, so atlas sees end of file when it exits.
            null = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(null, fd)
            os.close(null)
            while status is None:
                pid, st = os.waitpid(-1, 0)
                if pid == bot:
                    status = st
        finally:
            for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
                signal.signal(sig, _note)
    except (_Stop, ChildProcessError):
        pass
    status = _end_tree(grace, _stopping, bot, status)
    _remove_folder(config.get("folder", ""))
    if status is None:
        return 1
    if os.WIFSIGNALED(status):
        code = os.WTERMSIG(status)
        try:
            signal.signal(code, signal.SIG_DFL)  # (SIGKILL has no handler to reset)
        except (OSError, ValueError):
            pass
        os.kill(os.getpid(), code)
        time.sleep(1)
        return 128 + code
    return os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
