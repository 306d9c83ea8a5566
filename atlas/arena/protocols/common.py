"""What the served side of every protocol shares: the engine's clock, the watchdog that
answers for a bot that is not ready, and writing answers.

A program entered in the official tron engine has 3 s for its first move, counted by the
engine from the moment it started the program: the interpreter's start, atlas's imports
and the loading (or compiling) of the bot's numba kernels all come out of those 3 s.  So
the served side of ``atlas bot`` keeps the engine's clock:

* the first move's deadline counts from the process's own start (:func:`process_start`,
  read from ``/proc/self/stat``), not from the moment the first request was read;
* the bot is made (its kernels loaded or compiled) and asked for moves on a worker
  thread (:class:`ServedBot`) while the main thread keeps reading requests, so nothing
  the bot does delays the clock;
* at each deadline, a watchdog on the main thread answers a safe move of the protocol's
  own (for tron: the free neighbour with the most room) when the bot has not answered:
  while numba compiles on a cold cache, or when a search overruns.  A late answer of the
  bot is dropped; the next request is asked of the bot again.
"""

from __future__ import annotations

import math
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from queue import SimpleQueue
from typing import Any, BinaryIO, TypeVar

from ...limits import MAX_PV_LINE, MAX_PV_MOVES

__all__ = [
    "send_line",
    "process_start",
    "process_age",
    "ServedBot",
    "RequestError",
    "parse_info_line",
    "info_from_json",
    "take_report",
]

T = TypeVar("T")


def send_line(out: BinaryIO, text: str) -> None:
    """Write ``text`` (UTF-8) and flush, so the host reads the answer at once."""
    out.write(text.encode("utf-8"))
    out.flush()


def process_age(stat: str, boot_seconds: float, ticks_per_second: float) -> float:
    """Seconds since a process started, from its ``/proc/PID/stat`` line.

    Field 22 of the line is the start time in clock ticks since boot (proc(5)); the
    command name (field 2) is in parentheses and may hold spaces, so fields are counted
    after its closing parenthesis.  ``boot_seconds`` is the time since boot now
    (``CLOCK_BOOTTIME``).  Never negative.

    Examples
    --------
    >>> line = "42 (atlas bot) S " + " ".join(["0"] * 18) + " 1000 0 0"
    >>> process_age(line, 12.5, 100.0)
    2.5
    """
    fields = stat.rsplit(")", 1)[1].split()
    started = int(fields[19]) / ticks_per_second  # field 22 is the 20th after the name
    return max(0.0, boot_seconds - started)


def process_start(clock: Callable[[], float] = time.perf_counter) -> float:
    """The ``clock`` time at which this process started.

    Read from ``/proc/self/stat`` (to the clock tick, 10 ms); where there is no ``/proc``
    the time this module was imported stands in, which misses the interpreter's start.
    """
    try:
        with open("/proc/self/stat", encoding="ascii") as fh:
            stat = fh.read()
        age = process_age(
            stat, time.clock_gettime(time.CLOCK_BOOTTIME), float(os.sysconf("SC_CLK_TCK"))
        )
    except (OSError, ValueError, IndexError, AttributeError):
        return _IMPORTED
    return clock() - age


_IMPORTED = time.perf_counter()


#: The numbers an ``info`` report may give, and the longest token read as one.
_INFO_NUMBERS = ("depth", "score", "nodes", "mate")
_MAX_TOKEN = 200


def _finite(text: Any) -> float | None:
    """``text`` as a finite number of at most 30 characters, else None."""
    if isinstance(text, bool):
        return None
    if isinstance(text, (int, float)):
        v = float(text)
    elif isinstance(text, str) and len(text) <= 30:
        try:
            v = float(text)
        except ValueError:
            return None
    else:
        return None
    if v != v or v in (float("inf"), float("-inf")) or abs(v) > 1e15:
        return None
    return int(v) if v.is_integer() else v


def _moves(tokens: Any, pv_move: Callable[[Any], Any]) -> tuple[list[Any], int]:
    """The first :data:`~atlas.limits.MAX_PV_MOVES` of ``tokens`` read by ``pv_move``,
    up to the first it refuses, and how many tokens were left out."""
    moves: list[Any] = []
    for tok in tokens[:MAX_PV_MOVES]:
        if isinstance(tok, str) and len(tok) > _MAX_TOKEN:
            break
        try:
            moves.append(pv_move(tok))
        except Exception:  # a program's word: anything at all
            break
    return moves, len(tokens) - len(moves)


def parse_info_line(text: str, pv_move: Callable[[str], Any]) -> dict[str, Any]:
    """What an external program reported on its ``info`` line (``docs/protocols.md``).

    ``info depth 7 score -12.5 nodes 48211 pv 3 4 3``: words in pairs (``depth``,
    ``score``, ``nodes`` and a finite number; other pairs ignored), then ``pv`` and the
    moves to the end of the line, each read by ``pv_move`` (the protocol's move token;
    it raises on a bad one).  Returns ``depth``, ``score``, ``nodes`` as numbers,
    ``pv`` as game moves (at most :data:`~atlas.limits.MAX_PV_MOVES`, up to the first
    unreadable one) and ``pv_cut``, the moves left out.  Total on any text: what is not
    understood is left out.

    Examples
    --------
    >>> parse_info_line("info depth 5 score 1e999 nodes 12 pv 1 2 x 3", int)
    {'depth': 5, 'nodes': 12, 'pv': [1, 2], 'pv_cut': 2}
    """
    out: dict[str, Any] = {}
    if len(text) > MAX_PV_LINE:
        return {"pv_cut": 1}
    words = text.split()
    if not words or words[0] != "info":
        return out
    i = 1
    while i < len(words):
        key = words[i]
        if key == "pv":
            moves, cut = _moves(words[i + 1 :], pv_move)
            if moves:
                out["pv"] = moves
            if cut:
                out["pv_cut"] = cut
            break
        if key in _INFO_NUMBERS and i + 1 < len(words):
            v = _finite(words[i + 1])
            if v is not None:
                out[key] = v
        i += 2
    return out


def info_line(said: Mapping[str, Any], token: Callable[[Any], str]) -> str:
    """The ``info`` line of a report (:func:`atlas.arena.reports.bot_info`'s form),
    which :func:`parse_info_line` reads back; its ``pv`` moves written by ``token`` up
    to the first it cannot write, and left out when the line would pass
    :data:`~atlas.limits.MAX_PV_LINE` bytes.  ``""`` for a report of nothing.

    Examples
    --------
    >>> info_line({"depth": 9, "score": 999991, "nodes": 41, "mate": 9, "pv": [3, 4]}, str)
    'info depth 9 score 999991 nodes 41 mate 9 pv 3 4'
    >>> parse_info_line(info_line({"score": -2.5, "pv": [1]}, str), int)
    {'score': -2.5, 'pv': [1]}
    """
    words = ["info"]
    for key in _INFO_NUMBERS:
        v = said.get(key)
        if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
            words += [key, str(int(v)) if float(v).is_integer() else repr(float(v))]
    moves: list[str] = []
    for m in said.get("pv") or ():
        try:
            t = token(m)
        except Exception:  # a move the protocol cannot write ends the line
            break
        if not t or any(ch.isspace() for ch in t):
            break
        moves.append(t)
    head = " ".join(words)
    line = head + (" pv " + " ".join(moves) if moves else "")
    if len(line) > MAX_PV_LINE:
        line = head
    return line if len(words) > 1 or moves else ""


def info_from_json(data: Any, pv_move: Callable[[Any], Any]) -> dict[str, Any]:
    """The ``info`` object of a JSON answer, read as :func:`parse_info_line` reads a
    line: ``{"depth": 7, "score": -12.5, "nodes": 48211, "pv": [MOVE, ...]}``."""
    out: dict[str, Any] = {}
    if not isinstance(data, dict):
        return out
    for key in _INFO_NUMBERS:
        v = _finite(data.get(key))
        if v is not None:
            out[key] = v
    pv = data.get("pv")
    if isinstance(pv, list):
        moves, cut = _moves(pv, pv_move)
        if moves:
            out["pv"] = moves
        if cut:
            out["pv_cut"] = cut
    elif pv is not None:
        out["pv_cut"] = 1
    return out


def take_report(
    bot: Any, pv_move: Callable[[str], Any], answer: dict[str, Any] | None = None
) -> dict[str, Any]:
    """What the external ``bot`` reported about the move it just answered: ``answer``
    (an ``info`` object read with :func:`info_from_json`), else its stderr ``info``
    line (:meth:`~atlas.arena.process.BotProcess.take_info`,
    :func:`parse_info_line`).  A line too long to keep counts as one move cut."""
    take = getattr(bot.process, "take_info", None)  # None: no process, or no stderr
    line, dropped = (None, False) if take is None else take()
    if answer:
        return answer
    out = {} if line is None else parse_info_line(line, pv_move)
    if dropped and not out:
        out["pv_cut"] = 1
    return out


class RequestError(ValueError):
    """The host's request cannot be used (a state that does not read, no game started):
    :meth:`ServedBot.ask` says so in one line, without a traceback, and answers with
    its fallback."""


class ServedBot:
    """A bot served to a host: made and asked on a worker thread, timed by a watchdog.

    Parameters
    ----------
    make : callable
        Makes the bot (loading or compiling its kernels); run on the worker thread at
        once, so the main thread can read requests meanwhile.
    first_deadline : float
        ``clock`` time by which the first answer is due (the process's start plus the
        first move's allowance).
    move_time : float
        Seconds for every later answer, from the moment its request was read.
    clock : callable
        The clock deadlines are read on (``time.perf_counter``).
    name : str
        The bot's name (GTP ``name`` answers ``atlas-NAME``).

    Notes
    -----
    One worker thread runs every job in order (making the bot, ``start``, moves), so the
    bot is never called from two threads.  A daemon thread: a bot still compiling when
    the host closes the pipe does not keep the process alive.
    """

    def __init__(
        self,
        make: Callable[[], Any],
        *,
        first_deadline: float,
        move_time: float,
        clock: Callable[[], float] = time.perf_counter,
        name: str = "bot",
    ) -> None:
        self.name = name
        self.first_deadline = first_deadline
        self.move_time = move_time
        self.clock = clock
        self.first = True
        #: Answers the watchdog gave instead of the bot.
        self.fallbacks = 0
        #: Whether the last answer was the bot's own (its report then belongs to it).
        self.answered = False
        #: Where :meth:`report` writes the bot's ``info`` lines (standard error).
        self.err: Any = None
        self._jobs: SimpleQueue[tuple[Future[Any], Callable[[], Any]] | None] = SimpleQueue()
        self._thread = threading.Thread(target=self._work, name="atlas-served-bot", daemon=True)
        self._thread.start()
        self._bot: Future[Any] = self._submit(make)

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            future, fn = job
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn())
            except BaseException as exc:  # handed to whoever waits for it
                future.set_exception(exc)

    def _submit(self, fn: Callable[[], T]) -> Future[T]:
        future: Future[T] = Future()
        self._jobs.put((future, fn))
        return future

    def deadline(self, read_at: float) -> float:
        """When the answer to a request read at ``read_at`` is due."""
        return self.first_deadline if self.first else read_at + self.move_time

    def tell(self, fn: Callable[[Any], Any]) -> None:
        """Run ``fn(bot)`` on the worker, in order, without waiting (``start``)."""
        bot = self._bot
        self._submit(lambda: fn(bot.result()))

    def ask(
        self, fn: Callable[[Any, float], T], deadline: float, fallback: Callable[[], T]
    ) -> T:
        """``fn(bot, deadline)`` if the worker has it by ``deadline``, else ``fallback()``.

        An exception of the bot is printed to standard error and answered with the
        fallback too: the host gets a move either way.
        """
        bot = self._bot
        future = self._submit(lambda: fn(bot.result(), deadline))
        self.first = False
        self.answered = False
        try:
            answer = future.result(timeout=max(0.0, deadline - self.clock()))
            self.answered = True
            return answer
        except FutureTimeout:
            pass
        except RequestError as exc:  # the host's mistake, not the bot's: one line
            print(f"atlas bot: {exc}", file=sys.stderr, flush=True)
        except Exception:  # the bot's own failure: report it, answer all the same
            traceback.print_exc(file=sys.stderr)
        self.fallbacks += 1
        return fallback()

    def report(self, token: Callable[[Any], str]) -> None:
        """Write what the bot said of the move it just answered as an ``info`` line on
        standard error (``docs/protocols.md``), before the answer is sent: its depth,
        score, nodes, ``mate`` and principal variation, each move of which ``token``
        writes in the protocol's form.  Nothing when the watchdog answered (the bot is
        still thinking: its figures are not this move's) or the bot says nothing."""
        if not self.answered:
            return
        from ..reports import bot_info  # as the game runner reads a bot's report

        try:
            line = info_line(bot_info(self._bot.result()), token)
        except Exception:  # a report is never worth an answer
            return
        if line:
            err = self.err if self.err is not None else sys.stderr
            try:
                err.write(line + "\n")
                err.flush()
            except (OSError, ValueError):
                pass

    def close(self) -> None:
        """Close the bot when it is made; stop the worker after its queued jobs."""
        self.tell(lambda bot: bot.close())
        self._jobs.put(None)
