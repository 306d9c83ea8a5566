"""External bots: programs that play through stdin and stdout.

Each external bot is a subprocess started in a session of its own (its own process
group), spoken to over its stdin and stdout only; what it writes to stderr is kept,
truncated, for the record (private: never published raw).  Every read and write runs
against the move's deadline, every turn reads at most :data:`MAX_TURN_BYTES` bytes, and
:meth:`BotProcess.close` always leaves no process behind (end of file, then ``SIGTERM``
then ``SIGKILL`` to the whole process group).

A failure is raised as :class:`BotFailure` carrying a record status (``crashed``,
``timeout``, ``invalid``); the runner turns it into data.  What the bot is told and
what it answers is its game's protocol (:mod:`atlas.arena.protocols`).
"""

from __future__ import annotations

import os
import select
import shlex
import signal
import subprocess
import threading
import time
from typing import Any, BinaryIO, Mapping, Sequence


from ..errors import BotError
from ..maps import GameMap
from ..sim.base import Status

__all__ = ["BotFailure", "BotProcess", "ExternalBot", "MAX_TURN_BYTES", "FIRST_MOVE_TIME"]

#: Bytes read from a bot in one turn before it is judged to flood its output.
MAX_TURN_BYTES = 64 * 1024
#: Bytes of stderr kept per bot (more is read and dropped so the bot never blocks).
STDERR_KEEP = 64 * 1024
#: Seconds allowed for an external bot's first move (start-up included), like the engine.
FIRST_MOVE_TIME = 3.0
#: Seconds a bot gets to exit by itself after end of file, then after ``SIGTERM``.
EXIT_GRACE = 0.2


class BotFailure(BotError):
    """A bot gave no valid answer; ``status`` says how, ``detail`` says why."""

    def __init__(self, status: Status, detail: str) -> None:
        super().__init__(detail)
        self.status = Status(status)
        self.detail = detail


# --------------------------------------------------------------------------- the process


class BotProcess:
    """A child process with deadline-bounded pipes and a bounded stderr keeper.

    Parameters
    ----------
    argv : sequence of str
        The command, run without a shell in a new session (its own process group).
    max_turn_bytes : int
        Cap on the bytes :meth:`read_answer` consumes in one call.
    cwd : path-like, optional
        The folder the program runs in.
    """

    def __init__(self, argv: Sequence[str], *, max_turn_bytes: int = MAX_TURN_BYTES,
                 cwd: str | None = None) -> None:
        if not argv:
            raise BotFailure(Status.CRASHED, "empty command line")
        try:
            self.proc = subprocess.Popen(list(argv), stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         bufsize=0, close_fds=True, start_new_session=True,
                                         cwd=cwd)
        except OSError as exc:
            raise BotFailure(Status.CRASHED, f"cannot start {argv[0]!r}: "
                                        f"{exc.strerror or exc}") from None
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
        self._err_thread = threading.Thread(target=self._keep_stderr, daemon=True)
        self._err_thread.start()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def _keep_stderr(self) -> None:
        stream: BinaryIO = self.proc.stderr  # type: ignore[assignment]
        try:
            while chunk := stream.read(4096):
                self._err_total += len(chunk)
                room = STDERR_KEEP - len(self._err)
                if room > 0:
                    self._err += chunk[:room]
        except (OSError, ValueError):
            pass

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
                    view = view[os.write(self._in, view):]
            except BlockingIOError:
                continue
            except (BrokenPipeError, OSError):
                raise BotFailure(Status.CRASHED, self._exit_detail("closed its input")) from None

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
        without an answer), ``crashed`` (the process exited).
        """
        seen = 0
        while True:
            value, used = parse(self.buffer)
            seen += used
            del self.buffer[:used]
            if value is not None:
                return value
            if seen + len(self.buffer) > self.max_turn_bytes:
                raise BotFailure(Status.INVALID, f"flooded its output: more than "
                                            f"{self.max_turn_bytes} bytes without {what}")
            if self._eof:
                raise BotFailure(Status.CRASHED, self._exit_detail("exited"))
            if not self._fill(deadline):
                if seen or self.buffer:
                    raise BotFailure(Status.INVALID, f"wrote {seen + len(self.buffer)} bytes but "
                                                f"no {what} in time")
                raise BotFailure(Status.TIMEOUT, f"no {what} in time")

    def _exit_detail(self, what: str) -> str:
        try:
            code = self.proc.wait(timeout=0.05)
        except subprocess.TimeoutExpired:
            return what
        if code < 0:
            try:
                return f"{what}: killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"{what}: killed by signal {-code}"
        return f"{what} with status {code}"

    def close(self) -> None:
        """End the bot: end of file, then ``SIGTERM``, then ``SIGKILL`` to its group."""
        proc = self.proc
        try:
            proc.stdin.close()  # type: ignore[union-attr]
        except OSError:
            pass
        try:
            proc.wait(timeout=EXIT_GRACE)
        except subprocess.TimeoutExpired:
            _signal_group(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=EXIT_GRACE)
            except subprocess.TimeoutExpired:
                pass
        _signal_group(proc.pid, signal.SIGKILL)  # the leader and anything it started
        proc.wait()
        self._err_thread.join(timeout=1.0)
        for stream in (proc.stdout, proc.stderr):
            try:
                stream.close()  # type: ignore[union-attr]
            except OSError:
                pass


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


# --------------------------------------------------------------------------- bots


class ExternalBot:
    """A bot that is a program; subclasses speak one protocol.

    The process starts in :meth:`start`; everything it is told happens inside
    :meth:`move`, against the deadline.  ``first_move_time`` is the allowance the
    runner gives the first move (start-up included).
    """

    protocol = ""

    def __init__(self, game: str, command: str | Sequence[str], *, name: str | None = None,
                 first_move_time: float = FIRST_MOVE_TIME,
                 max_turn_bytes: int = MAX_TURN_BYTES, cwd: str | None = None) -> None:
        self.game = game
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        self.command = command if isinstance(command, str) else shlex.join(self.argv)
        self.name = name or (os.path.basename(self.argv[0]) if self.argv else "external")
        self.first_move_time = first_move_time
        self.max_turn_bytes = max_turn_bytes
        self.cwd = cwd
        self.process: BotProcess | None = None
        self.game_map: GameMap | None = None
        self.params: dict[str, Any] = {}
        self.player = 0

    def start(self, game_map: GameMap, params: Mapping[str, Any] | None, player: int) -> None:
        self.game_map, self.params, self.player = game_map, dict(params or {}), player
        self.process = BotProcess(self.argv, max_turn_bytes=self.max_turn_bytes,
                                  cwd=self.cwd)

    def _proc(self) -> BotProcess:
        if self.process is None:
            raise BotFailure(Status.CRASHED, "the bot was not started")
        return self.process

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def stderr_text(self) -> str:
        return "" if self.process is None else self.process.stderr_text()

    def close(self) -> None:
        if self.process is not None:
            self.process.close()

    def move(self, state: Any, player: int, deadline: float) -> Any:
        raise NotImplementedError
