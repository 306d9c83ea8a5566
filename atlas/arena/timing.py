"""Timing evidence: what an answer cost in CPU, how loaded the machine was when a move
came late, and what that says.

A bot that answers late is either slow (it computed all the time it took) or starved (the
machine ran more than it had cores for, and the bot waited for one).  Wall time alone
cannot tell them apart; the runner (:func:`atlas.arena.runner.play_game`) therefore
records, beside each answer's wall time, its CPU time, and for an answer past its
deadline the machine's load then (:class:`~atlas.sim.records.Late`):

* a built-in bot's CPU time is the CPU clock of the thread that asked it
  (:func:`time.thread_time`, the runner's :class:`Meters`);
* a program's CPU time is read from the operating system around the answer, for the
  program and every process it started (:class:`ProcessTreeCPU`: each process's CPU
  clock, to the nanosecond, and the clock ticks of the children it has reaped);
* the load is the 1-minute load average and the number of cores
  (:func:`machine_load`).

:func:`late_moves` reads them back from a record with a verdict per late move
(:data:`VERDICTS`), and :func:`void_reason` says whether a tournament should void a
game lost on time while the machine was loaded (``atlas tournament
--void-late-under-load``).  Every reading goes through a function the tests replace,
so no test depends on the machine's speed or load.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..sim.base import Status

__all__ = [
    "Meters",
    "machine_load",
    "process_cpu_seconds",
    "ProcessTreeCPU",
    "LateMove",
    "late_moves",
    "void_reason",
    "verdict",
    "VERDICTS",
    "BUSY_SHARE",
    "LOADED_PER_CORE",
]

#: An answer that used at least this share of its wall time in CPU was computing: a
#: slow bot.
BUSY_SHARE = 0.8
#: A machine whose 1-minute load average is above this per core had more to run than
#: cores to run it on: a bot that computed less than :data:`BUSY_SHARE` of its time
#: there may have been waiting for a core.
LOADED_PER_CORE = 1.0
#: The verdicts of :func:`late_moves`, and what each means.
VERDICTS = {
    "slow bot": "the bot computed for most of the time it took",
    "loaded machine": "the bot computed for less than that, on a machine that ran more "
    "than it had cores for: it may have been waiting for a core",
    "waiting": "the bot computed for less than that on a machine with cores to spare: it "
    "waited (for input, a lock, a sleep) or hung",
    "unknown": "the record holds no CPU time or no load for this move",
}


def machine_load() -> tuple[float, int] | None:
    """The machine's 1-minute load average and its number of cores, or ``None`` where
    the system does not say (no ``getloadavg``)."""
    try:
        load = os.getloadavg()[0]
    except (OSError, AttributeError):
        return None
    return float(load), int(os.cpu_count() or 1)


@dataclass(frozen=True)
class Meters:
    """The clocks the runner reads besides the wall clock (tests give their own).

    Attributes
    ----------
    cpu : callable
        CPU seconds of the thread that asks the bots (a built-in bot's answer is the
        difference around its move); :func:`time.thread_time` by default.
    load : callable
        ``(1-minute load average, cores)`` or ``None``, read when a move came late;
        :func:`machine_load` by default.
    """

    cpu: Callable[[], float] = time.thread_time
    load: Callable[[], tuple[float, int] | None] = field(default=lambda: machine_load())


def _cpu_clock(pid: int) -> int:
    """The id of the CPU-time clock of process ``pid`` (all its threads): Linux's
    ``MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED)``, what ``clock_getcpuclockid`` gives."""
    return ((~pid) << 3) | 2


def process_cpu_seconds(pid: int) -> float | None:
    """CPU seconds process ``pid`` has used (every thread, to the nanosecond), or
    ``None`` when it is gone or cannot be read."""
    try:
        return time.clock_gettime(_cpu_clock(pid))
    except (OSError, OverflowError, AttributeError):
        return None


def _stat_fields(pid: int) -> list[bytes] | None:
    """The fields of ``/proc/PID/stat`` after the command name (field 3 onward)."""
    try:
        fd = os.open(f"/proc/{pid}/stat", os.O_RDONLY)
        try:
            raw = os.read(fd, 4096)
        finally:
            os.close(fd)
    except OSError:
        return None
    return raw[raw.rfind(b")") + 2 :].split()


@dataclass
class ProcessTreeCPU:
    """The CPU seconds used by the processes a program started, below ``root``.

    ``root`` is the program's supervisor (:class:`atlas.arena.process.BotProcess`):
    its own CPU is atlas's, not the bot's, and is left out; every process below it is
    counted, live ones by their CPU clocks, finished ones by the clock ticks their
    parents reaped (``cutime`` and ``cstime`` of ``/proc/PID/stat``; a tick is 10 ms on
    most systems).  Finding the processes below ``root`` reads every ``/proc/PID/stat``
    of the machine (milliseconds, more on a busy machine), so it is done only when
    asked (``rescan``: the runner asks now and then) or on a first reading that does
    not know :attr:`child`; in between, the processes found last time and ``child``
    are read (microseconds each).

    Attributes
    ----------
    root : int
        The process whose descendants are counted.
    members : set of int
        The processes found below ``root`` by the last scan.
    scanned : bool
        Whether a scan has been made.
    """

    root: int
    members: set[int] = field(default_factory=set)
    scanned: bool = False
    #: The process ``root`` forked, when known without a scan (the supervisor reports
    #: it): counted whether or not a scan found it yet.
    child: int | None = None

    def scan(self) -> None:
        """Find every process below :attr:`root` (one pass over ``/proc``)."""
        children: dict[int, list[int]] = {}
        try:
            names = os.listdir("/proc")
        except OSError:
            names = []
        for name in names:
            if not name.isdigit():
                continue
            fields = _stat_fields(int(name))
            if fields is None or len(fields) < 2:
                continue
            children.setdefault(int(fields[1]), []).append(int(name))
        found: set[int] = set()
        stack = list(children.get(self.root, []))
        while stack:
            pid = stack.pop()
            if pid not in found:
                found.add(pid)
                stack.extend(children.get(pid, []))
        self.members = found
        self.scanned = True

    def seconds(self, *, rescan: bool = False) -> float | None:
        """CPU seconds used so far below :attr:`root`, or ``None`` when nothing can be
        read (no ``/proc``, or ``root`` is gone).

        Two readings around an answer must count the same processes, so only
        ``rescan`` (and the first reading) looks for new ones: the runner rescans before
        an answer, now and then.  A process that ended since is dropped: its time is
        its parent's ``cutime`` then, counted when the parent is.
        """
        if rescan or (not self.scanned and self.child is None):
            self.scan()
        root = _stat_fields(self.root)
        if root is None or len(root) < 15:
            return None
        ticks = float(os.sysconf("SC_CLK_TCK"))
        total = (int(root[13]) + int(root[14])) / ticks  # what it reaped: the bot's
        if self.child is not None:
            self.members.add(self.child)
        for pid in sorted(self.members):
            fields = _stat_fields(pid)
            if fields is None or len(fields) < 15:
                self.members.discard(pid)
                if pid == self.child:
                    self.child = None  # ended and reaped: its time is the root's now
                continue
            own = process_cpu_seconds(pid)
            if own is None:
                own = (int(fields[11]) + int(fields[12])) / ticks
            total += own + (int(fields[13]) + int(fields[14])) / ticks
        return total


# --------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class LateMove:
    """One answer that came after its deadline, read from a record.

    ``wall`` and ``cpu`` are seconds (``cpu`` ``None`` in records without CPU times);
    ``limit`` the seconds the bot was given; ``load`` and ``cores`` the machine's
    1-minute load average and cores then (``None`` when unknown); ``verdict`` one of
    :data:`VERDICTS`.
    """

    turn: int
    seat: int
    wall: float
    cpu: float | None
    limit: float
    load: float | None
    cores: int | None
    verdict: str
    timeout: bool = False

    @property
    def load_per_core(self) -> float | None:
        if self.load is None or not self.cores:
            return None
        return self.load / self.cores

    @property
    def cpu_share(self) -> float | None:
        """CPU time over wall time (above 1: several threads computed)."""
        if self.cpu is None or self.wall <= 0:
            return None
        return self.cpu / self.wall

    @property
    def text(self) -> str:
        """The move's evidence in one sentence."""
        parts = [f"answered after {self.wall:.3f} s (limit {self.limit:g} s)"]
        if self.cpu is not None:
            share = self.cpu_share
            parts.append(
                f"{self.cpu:.3f} s of CPU"
                + ("" if share is None else f" ({100 * share:.0f} % of a core)")
            )
        if self.load is not None and self.cores:
            parts.append(f"load {self.load:.2f} on {self.cores} cores")
        return f"{', '.join(parts)}: {self.verdict}"

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "seat": self.seat,
            "wall": round(self.wall, 6),
            "cpu": None if self.cpu is None else round(self.cpu, 6),
            "limit": self.limit,
            "load": self.load,
            "cores": self.cores,
            "verdict": self.verdict,
            "timeout": self.timeout,
        }


def verdict(wall: float, cpu: float | None, load: float | None, cores: int | None) -> str:
    """The verdict of :func:`late_moves` on one late answer (one of :data:`VERDICTS`).

    Examples
    --------
    >>> verdict(0.5, 0.48, 0.3, 2)     # computed through its time, machine idle
    'slow bot'
    >>> verdict(0.5, 0.1, 6.0, 2)      # little CPU, three tasks a core
    'loaded machine'
    >>> verdict(3.0, 0.0, 0.5, 2)      # no CPU, cores to spare: it hung
    'waiting'
    """
    if cpu is None:
        return "unknown"
    share = cpu / wall if wall > 0 else 1.0
    if share >= BUSY_SHARE:
        return "slow bot"
    if load is None or not cores:
        return "unknown"
    return "loaded machine" if load / cores > LOADED_PER_CORE else "waiting"


def late_moves(record: Any) -> list[LateMove]:
    """Every answer of ``record`` that came after its deadline, with its verdict.

    Notes
    -----
    The rule, per late answer (:func:`verdict`): CPU time at least :data:`BUSY_SHARE`
    (80 %) of the wall time is a ``slow bot`` (it computed through its time); less, on
    a machine whose load was above :data:`LOADED_PER_CORE` (one task a core), a
    ``loaded machine``; less, with cores to spare, ``waiting``.  On a loaded machine a
    bot that was starved of a core and one that waited for something else look the
    same (little CPU): the verdict says the machine was loaded, not that the bot was
    innocent.  The load is the 1-minute average, which lags and counts the game's own
    processes: a figure of the moment's neighbourhood, not of the instant.  On a loaded
    machine, built-in bots that compute without pause get a small share of a core over
    a late answer: ``docs/tournaments.md`` gives the measured figures.  A timeout is the
    seat's failing answer (its status says ``timeout`` at that turn).
    """
    out: list[LateMove] = []
    for turn, t in enumerate(record.turns):
        for seat, late in sorted(t.late.items()):
            wall = float(t.times.get(seat, late.limit))
            cpu = t.cpu.get(seat)
            st = record.statuses[seat] if seat < len(record.statuses) else None
            out.append(
                LateMove(
                    turn,
                    seat,
                    wall,
                    cpu,
                    late.limit,
                    late.load,
                    late.cores,
                    verdict(wall, cpu, late.load, late.cores),
                    st is not None and st.status is Status.TIMEOUT and st.turn == turn,
                )
            )
    return out


def void_reason(record: Any, per_core: float) -> str | None:
    """Why a tournament voids ``record`` when games lost on time under a load above
    ``per_core`` a core are voided, or ``None`` when it counts.

    A game is voided when a seat timed out (status ``timeout``) and the machine's
    1-minute load average at that answer was above ``per_core`` times its cores,
    whatever the seat's verdict: a machine that busy slows a computing bot too, so the
    game says little either way.  A timeout without a load reading (an older record) is
    not voided.
    """
    names = [p.name for p in record.players]
    for late in late_moves(record):
        if not late.timeout or late.load_per_core is None:
            continue
        if late.load_per_core > per_core:
            return (
                f"seat {late.seat + 1} ({names[late.seat]}) lost on time at turn "
                f"{late.turn} while the machine's load was {late.load:.2f} on "
                f"{late.cores} cores ({late.load_per_core:.2f} a core, above {per_core:g})"
                + (
                    ""
                    if late.cpu is None
                    else f"; it used {late.cpu:.3f} s of CPU in {late.wall:.3f} s"
                )
            )
    return None
