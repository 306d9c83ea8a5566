"""External bots: programs that play through stdin and stdout.

Each external bot is a subprocess spoken to over its stdin and stdout only; what it
writes to stderr is kept, truncated, for the record (private: never published raw).
Every read and write runs against the move's deadline, and every turn reads at most
:data:`MAX_TURN_BYTES` bytes.

A bot is contained (:mod:`atlas.arena.sandbox`): it runs in a folder of its own with a
minimal environment and resource limits, optionally inside ``bwrap``, under a small
supervisor (:mod:`atlas.arena._supervisor`) started in a session of its own.  The
supervisor is a child subreaper that dies with atlas (``PR_SET_PDEATHSIG``) and ends
every process the bot started; the bot dies with its supervisor.  :meth:`BotProcess.close`
always leaves no process behind: end of file; then ``SIGTERM`` to the supervisor, which
passes it on to every descendant and kills them with ``SIGKILL`` after a grace period;
then ``SIGKILL`` to the whole process group; then a watchdog kills any process still marked
with the bot's token (a descendant that outlived a killed supervisor); then the folder
is removed.  Bots still open when atlas exits are closed by an ``atexit`` handler.

A failure is raised as :class:`BotFailure` carrying a record status (``crashed``,
``timeout``, ``invalid``); the runner turns it into data.  What the bot is told and
what it answers is its game's protocol (:mod:`atlas.arena.protocols`).
"""

from __future__ import annotations

import atexit
import json
import os
import secrets
import select
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, BinaryIO

from ..bots.base import BotBase
from ..errors import BotError
from ..limits import MAX_PV_LINE
from ..maps import GameMap
from ..sim.base import Status
from .sandbox import (
    TOKEN_VARIABLE,
    Containment,
    bot_environment,
    bwrap_argv,
    bwrap_path,
    make_bot_folder,
    remove_bot_folder,
    warn_without_sandbox,
)
from .timing import ProcessTreeCPU

__all__ = [
    "BotFailure",
    "BotProcess",
    "ExternalBot",
    "MAX_TURN_BYTES",
    "FIRST_MOVE_TIME",
    "kill_marked",
    "marked_processes",
]

#: Bytes read from a bot in one turn before it is judged to flood its output.
MAX_TURN_BYTES = 64 * 1024
#: Bytes of stderr kept per bot (more is read and dropped so the bot never blocks).
STDERR_KEEP = 64 * 1024
#: Seconds at most that reading a turn's ``info`` line waits for the stderr keeper to
#: read what the bot wrote before its answer (only while bytes are pending).
INFO_WAIT = 0.01
#: Seconds allowed for an external bot's first move (start-up included), like the engine.
FIRST_MOVE_TIME = 3.0
#: Seconds a bot gets to exit by itself after end of file, then after ``SIGTERM``.
EXIT_GRACE = 0.2
#: Seconds the supervisor gets to end the bot's processes after ``SIGTERM``, beyond the
#: bot's own grace period, before atlas kills the group itself.
SUPERVISOR_GRACE = 2.0
SUPERVISOR = Path(__file__).resolve().with_name("_supervisor.py")


class BotFailure(BotError):
    """A bot gave no valid answer; ``status`` says how, ``detail`` says why."""

    def __init__(self, status: Status, detail: str) -> None:
        super().__init__(detail)
        self.status = Status(status)
        self.detail = detail


# --------------------------------------------------------------------------- the process


_OPEN: weakref.WeakSet[BotProcess] = weakref.WeakSet()


@atexit.register
def _close_all() -> None:
    """Close every bot still open when atlas exits (an exception, ``sys.exit``)."""
    for bot in list(_OPEN):
        try:
            bot.close()
        except Exception:
            pass


def _resolve_words(
    argv: Sequence[str], env: Mapping[str, str], base: str | None = None
) -> list[str]:
    """``argv`` with the program found on the bot's ``PATH`` and every word that names
    an existing file or folder relative to ``base`` (atlas's working folder by default)
    made absolute: the bot runs in a folder of its own."""
    out = list(argv)
    prog = out[0]
    here = base if base is not None else os.getcwd()
    if os.sep in prog:
        if not os.path.isabs(prog):
            out[0] = os.path.join(here, prog)
    else:
        found = shutil.which(prog, path=env.get("PATH"))
        if found is None:
            raise BotFailure(
                Status.CRASHED, f"cannot start {prog!r}: no such program on the bot's PATH"
            )
        out[0] = os.path.abspath(found)
    if not os.path.isfile(out[0]):
        raise BotFailure(Status.CRASHED, f"cannot start {prog!r}: no such file")
    if not os.access(out[0], os.X_OK):
        raise BotFailure(
            Status.CRASHED,
            f"cannot start {prog!r}: not executable (give "
            "its interpreter, e.g. 'python bot.py')",
        )
    for k in range(1, len(out)):
        word = out[k]
        if (
            word
            and not word.startswith("-")
            and not os.path.isabs(word)
            and os.path.exists(os.path.join(here, word))
        ):
            out[k] = os.path.normpath(os.path.join(here, word))
    return out


class BotProcess:
    """A contained child process with deadline-bounded pipes and a bounded stderr keeper.

    Parameters
    ----------
    argv : sequence of str
        The command, run without a shell, in the bot's own folder; the program is looked
        up on the bot's ``PATH`` and words naming existing paths relative to atlas's
        working folder are made absolute.
    max_turn_bytes : int
        Cap on the bytes :meth:`read_answer` consumes in one call.
    cwd : path-like, optional
        The folder the program runs in (a player's own folder, named by the
        tournament's plan); by default the bot's new folder.  Relative words of the
        command are resolved against it.  In the sandbox it is read-only.
    containment : Containment, optional
        Limits, extra environment and sandbox (:mod:`atlas.arena.sandbox`); the
        defaults when omitted.

    Attributes
    ----------
    folder : Path
        The bot's own new folder: its working folder unless ``cwd`` is given, its
        ``HOME`` and ``TMPDIR`` always (removed by :meth:`close`).
    token : str
        The value of ``ATLAS_BOT`` in the bot's environment (the watchdog's mark).
    sandboxed : bool
        Whether the bot runs under ``bwrap``.
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        max_turn_bytes: int = MAX_TURN_BYTES,
        cwd: str | os.PathLike[str] | None = None,
        containment: Containment | None = None,
    ) -> None:
        if not argv:
            raise BotFailure(Status.CRASHED, "empty command line")
        self.containment = containment = containment or Containment()
        self.token = secrets.token_hex(12)
        self.folder = make_bot_folder()
        self.closed = False
        try:
            env = bot_environment(self.folder, containment.env, self.token)
            workdir = os.path.abspath(cwd) if cwd is not None else os.fspath(self.folder)
            if cwd is not None and not os.path.isdir(workdir):
                raise BotFailure(
                    Status.CRASHED,
                    f"cannot start {argv[0]!r}: its folder {os.fspath(cwd)!r} does not exist",
                )
            words = _resolve_words(argv, env, base=workdir if cwd is not None else None)
            bwrap = bwrap_path() if containment.sandbox else None
            if containment.sandbox and bwrap is None:
                warn_without_sandbox()
            self.sandboxed = bwrap is not None
            if bwrap is not None:
                words = bwrap_argv(
                    bwrap,
                    self.folder,
                    words,
                    visible=words,
                    workdir=None if cwd is None else workdir,
                )
            report_r, report_w = os.pipe()  # the supervisor tells the bot's pid here
            config = {
                "cwd": workdir,
                "folder": os.fspath(self.folder),
                "limits": containment.limits.rlimits(),
                "nproc_more": containment.limits.processes,
                "grace": containment.grace,
                "parent": os.getpid(),
                "report": report_w,
            }
            cmd = [
                sys.executable,
                "-I",
                "-S",
                "-B",
                os.fspath(SUPERVISOR),
                json.dumps(config),
                "--",
                *words,
            ]
            try:
                self.proc = subprocess.Popen(
                    cmd,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    bufsize=0,
                    close_fds=True,
                    pass_fds=(report_w,),
                    start_new_session=True,
                    env=env,
                    cwd=self.folder,
                )
            except BaseException:
                os.close(report_r)
                raise
            finally:
                os.close(report_w)
        except OSError as exc:
            remove_bot_folder(self.folder)
            raise BotFailure(
                Status.CRASHED, f"cannot start {argv[0]!r}: {exc.strerror or exc}"
            ) from None
        except BaseException:
            remove_bot_folder(self.folder)
            raise
        _OPEN.add(self)
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        self._in = self.proc.stdin.fileno()
        self._out = self.proc.stdout.fileno()
        os.set_blocking(self._in, False)
        os.set_blocking(self._out, False)
        self.max_turn_bytes = max_turn_bytes
        self.buffer = bytearray()
        self._eof = False
        self._err = bytearray()
        self._err_total = 0
        # the "info" line of a turn (docs/protocols.md), read from stderr under the lock
        self._err_lock = threading.Lock()
        self._err_line = bytearray()
        self._err_long = False  # the line under way passed MAX_PV_LINE: skipped
        self._info: str | None = None
        self._info_dropped = False
        self._err_fd: int | None = self.proc.stderr.fileno()
        self._err_thread = threading.Thread(target=self._keep_stderr, daemon=True)
        self._err_thread.start()
        os.set_blocking(report_r, False)
        self._report: int | None = report_r
        self._report_text = b""
        self._reads = 0
        # the supervisor reports the bot's pid: no first look through /proc is needed
        self._cpu = ProcessTreeCPU(self.proc.pid, scanned=True)

    @property
    def pid(self) -> int:
        """The supervisor's process id (also the bot's process group and session)."""
        return self.proc.pid

    def cpu_seconds(self, *, rescan: bool = False) -> float | None:
        """CPU seconds the bot's processes have used so far (every process below the
        supervisor; :class:`~atlas.arena.timing.ProcessTreeCPU`), or ``None`` when the
        system does not say.

        The supervisor reports the process it forked (the bot, or ``bwrap``), so the
        bot is counted from its first answer without a look through ``/proc``;
        ``rescan`` looks for the processes the bot started (milliseconds).  A
        sandboxed bot runs below ``bwrap``: its first two readings always look.
        """
        if self.closed:
            return None
        self._read_report()
        self._reads += 1
        return self._cpu.seconds(rescan=rescan or (self.sandboxed and self._reads <= 2))

    def _read_report(self) -> None:
        """Take the bot's process id from the supervisor's report, once it is there."""
        if self._report is None:
            return
        try:
            chunk = os.read(self._report, 64)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        self._report_text += chunk
        if chunk and not self._report_text.endswith(b"\n"):
            return
        os.close(self._report)
        self._report = None
        text = self._report_text.strip()
        if text.isdigit():
            self._cpu.child = int(text)

    def _keep_stderr(self) -> None:
        stream: BinaryIO = self.proc.stderr  # type: ignore[assignment]
        try:
            fd = stream.fileno()
            while True:
                # read under the lock only once data is there: take_info can then tell
                # "all read" (nothing pending while it holds the lock) from "being read"
                if not _wait(fd, select.POLLIN, 3600.0):
                    continue
                with self._err_lock:
                    chunk = stream.read(4096)
                    if not chunk:
                        return
                    self._err_total += len(chunk)
                    room = STDERR_KEEP - len(self._err)
                    if room > 0:
                        self._err += chunk[:room]
                    self._lines(chunk)
        except (OSError, ValueError):
            pass

    def _lines(self, chunk: bytes) -> None:
        """Find the complete lines of ``chunk`` that start with ``info `` (at most
        :data:`~atlas.limits.MAX_PV_LINE` bytes; a longer one is dropped, noted)."""
        parts = chunk.split(b"\n")
        for i, part in enumerate(parts):
            if not self._err_long:
                self._err_line += part
                if len(self._err_line) > MAX_PV_LINE:
                    if self._err_line.lstrip().startswith(b"info"):
                        self._info_dropped = True
                    self._err_line.clear()
                    self._err_long = True
            if i == len(parts) - 1:
                break  # the line goes on in the next chunk
            if not self._err_long:
                line = bytes(self._err_line).strip()
                if line.startswith(b"info ") or line == b"info":
                    self._info = line.decode("utf-8", "replace")
            self._err_line.clear()
            self._err_long = False

    def take_info(self, wait: float = INFO_WAIT) -> tuple[str | None, bool]:
        """The last ``info`` line the bot wrote to stderr since the last call, and
        whether a longer one than :data:`~atlas.limits.MAX_PV_LINE` was dropped.

        A bot writes its line before its answer, so the line is in the pipe by the
        time the answer is read; this waits (at most ``wait`` seconds) until the
        stderr keeper has read everything pending.
        """
        end = time.perf_counter() + wait
        fd = self._err_fd
        while True:
            with self._err_lock:
                pending = fd is not None and _wait(fd, select.POLLIN, 0.0)
                if not pending or time.perf_counter() >= end:
                    info, dropped = self._info, self._info_dropped
                    self._info, self._info_dropped = None, False
                    return info, dropped
            time.sleep(0.0002)

    def stderr_text(self) -> str:
        """What the bot wrote to stderr so far (the first :data:`STDERR_KEEP` bytes)."""
        text = bytes(self._err).decode("utf-8", "replace")
        text = "".join(ch for ch in text if ch in "\n\t" or ch.isprintable())
        dropped = self._err_total - len(self._err)
        return text + (f"\n[... {dropped} more bytes dropped ...]" if dropped > 0 else "")

    def write(self, data: bytes, deadline: float) -> None:
        """Write all of ``data`` before ``deadline`` or raise :class:`BotFailure`."""
        view = memoryview(data)
        while view:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise BotFailure(Status.TIMEOUT, "did not read its input in time")
            try:
                if _wait(self._in, select.POLLOUT, left):
                    view = view[os.write(self._in, view) :]
            except BlockingIOError:
                continue
            except (BrokenPipeError, OSError):
                raise BotFailure(
                    Status.CRASHED, self._exit_detail("closed its input")
                ) from None

    def _fill(self, deadline: float) -> bool:
        """Read more bytes into the buffer; False when the deadline passed first."""
        left = deadline - time.perf_counter()
        if left <= 0:
            return False
        if not _wait(self._out, select.POLLIN, left):
            return False
        try:
            chunk = os.read(self._out, 65536)
        except BlockingIOError:
            return True
        except OSError:
            chunk = b""
        if not chunk:
            self._eof = True
            raise BotFailure(Status.CRASHED, self._exit_detail("exited"))
        self.buffer += chunk
        return True

    def read_answer(self, parse: Any, deadline: float, what: str) -> Any:
        """Consume bytes until ``parse(buffer)`` finds an answer.

        ``parse`` returns ``(value, consumed)`` with ``value`` None while incomplete;
        ``consumed`` bytes are dropped from the buffer either way.  Raises
        :class:`BotFailure`: ``timeout`` (nothing usable in time; ``invalid`` if bytes
        came but none made an answer), ``invalid`` (more than ``max_turn_bytes``
        without an answer), ``crashed`` (the process exited).  Blank bytes alone (the
        end of the line of the last answer) are no answer: nothing more in time is a
        ``timeout``, as for a bot that wrote nothing.
        """
        seen = 0
        wrote = False  # anything but blanks
        while True:
            value, used = parse(self.buffer)
            seen += used
            wrote = wrote or bool(bytes(self.buffer[:used]).strip())
            del self.buffer[:used]
            if value is not None:
                return value
            if seen + len(self.buffer) > self.max_turn_bytes:
                raise BotFailure(
                    Status.INVALID,
                    f"flooded its output: more than {self.max_turn_bytes} bytes without {what}",
                )
            if self._eof:
                raise BotFailure(Status.CRASHED, self._exit_detail("exited"))
            if not self._fill(deadline):
                if wrote or bytes(self.buffer).strip():
                    raise BotFailure(
                        Status.INVALID,
                        f"wrote {seen + len(self.buffer)} bytes but no {what} in time",
                    )
                raise BotFailure(Status.TIMEOUT, f"no {what} in time")

    def _exit_detail(self, what: str) -> str:
        try:  # the supervisor ends the bot's other processes first, then mirrors its fate
            code = self.proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return what
        if code < 0:
            try:
                return f"{what}: killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"{what}: killed by signal {-code}"
        return f"{what} with status {code}"

    def close(self) -> None:
        """End the bot and everything it started, then remove its folder.

        End of file; after :data:`EXIT_GRACE` seconds ``SIGTERM`` to the supervisor
        (which ends the bot's processes, politely then with ``SIGKILL``); then
        ``SIGKILL`` to the process group; then the watchdog (:func:`kill_marked`); then
        the folder is removed.  Closing twice does nothing.
        """
        if self.closed:
            return
        self.closed = True
        proc = self.proc
        try:
            proc.stdin.close()  # type: ignore[union-attr]
        except OSError:
            pass
        try:
            proc.wait(timeout=EXIT_GRACE)
        except subprocess.TimeoutExpired:
            _signal(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=self.containment.grace + SUPERVISOR_GRACE)
            except subprocess.TimeoutExpired:
                pass
        _signal_group(proc.pid, signal.SIGKILL)  # the leader and anything it started
        proc.wait()
        kill_marked(self.token)
        self._err_thread.join(timeout=1.0)
        self._err_fd = None
        for stream in (proc.stdout, proc.stderr):
            try:
                stream.close()  # type: ignore[union-attr]
            except OSError:
                pass
        if self._report is not None:
            os.close(self._report)
            self._report = None
        remove_bot_folder(self.folder)
        _OPEN.discard(self)


def _wait(fd: int, event: int, seconds: float) -> bool:
    """Whether ``fd`` is ready for ``event`` (or hung up) within ``seconds``."""
    poller = select.poll()
    poller.register(fd, event)
    return bool(poller.poll(max(0, int(seconds * 1000 + 0.999))))


def _signal_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def marked_processes(token: str) -> list[int]:
    """Process ids whose environment carries ``ATLAS_BOT=token`` (zombies left out).

    Only processes of atlas's own user can be read; a bot that empties the environment
    of the processes it starts escapes this mark (not the supervisor, nor the sandbox).
    """
    needle = f"{TOKEN_VARIABLE}={token}".encode()
    me = os.getpid()
    out: list[int] = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return out
    for name in names:
        if not name.isdigit() or int(name) == me:
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as fh:
                env = fh.read()
            with open(f"/proc/{name}/stat", "rb") as fh:
                st = fh.read()
        except OSError:
            continue
        if needle not in env.split(b"\0"):
            continue
        if st[st.rfind(b")") + 2 :][:1] in (b"Z", b"X"):
            continue
        out.append(int(name))
    return out


def kill_marked(token: str, rounds: int = 20) -> int:
    """The watchdog: ``SIGKILL`` every process marked with ``token``; return how many.

    A bot that kills its own supervisor (``kill -9 $PPID``) dies with it, but what it
    started is re-parented to init; its environment still carries the mark.
    """
    killed: set[int] = set()
    for _ in range(rounds):
        pids = marked_processes(token)
        if not pids:
            break
        for pid in pids:
            _signal(pid, signal.SIGKILL)
        killed.update(pids)
        time.sleep(0.01)
    return len(killed)


# --------------------------------------------------------------------------- bots


class ExternalBot(BotBase):
    """A bot that is a program; subclasses speak one protocol.

    The process starts in :meth:`start`; everything it is told happens inside
    :meth:`move` (each protocol's own), against the deadline.  ``first_move_time`` is
    the allowance the runner gives the first move (start-up included).
    """

    protocol = ""

    def __init__(
        self,
        game: str,
        command: str | Sequence[str],
        *,
        name: str | None = None,
        first_move_time: float = FIRST_MOVE_TIME,
        max_turn_bytes: int = MAX_TURN_BYTES,
        cwd: str | None = None,
        containment: Containment | None = None,
    ) -> None:
        self.game = game
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        self.command = command if isinstance(command, str) else shlex.join(self.argv)
        self.name = name or (os.path.basename(self.argv[0]) if self.argv else "external")
        self.first_move_time = first_move_time
        self.max_turn_bytes = max_turn_bytes
        self.cwd = cwd
        self.containment = containment
        self.process: BotProcess | None = None
        self.game_map: GameMap | None = None
        self.params: dict[str, Any] = {}
        self.player = 0

    def start(self, game_map: GameMap, params: Mapping[str, Any] | None, player: int) -> None:
        self.game_map, self.params, self.player = game_map, dict(params or {}), player
        self.process = BotProcess(
            self.argv,
            max_turn_bytes=self.max_turn_bytes,
            cwd=self.cwd,
            containment=self.containment,
        )

    def _proc(self) -> BotProcess:
        if self.process is None:
            raise BotFailure(Status.CRASHED, "the bot was not started")
        return self.process

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def stderr_text(self) -> str:
        return "" if self.process is None else self.process.stderr_text()

    def cpu_seconds(self, *, rescan: bool = False) -> float | None:
        return None if self.process is None else self.process.cpu_seconds(rescan=rescan)

    def close(self) -> None:
        if self.process is not None:
            self.process.close()
