"""Built-in tron bots against an outside program, in the official 2010 engine's rules.

Every atlas bot plays every outside program on every map, in both seats, through
:func:`atlas.arena.runner.play_game` with ``compat="official"`` (atlas's engine resolves a
turn exactly as the contest's ``Tron.jar`` does).  An outside program is given as
``NAME=cmd:COMMAND``: a program already built somewhere, speaking the contest's
stdin/stdout protocol.  Nothing here builds one.

Time: both sides get the same budget per move, ``--time``, first move included (the
contest engine's longer first move is not given to either side: the outside program's
first answer may come :data:`STARTUP` seconds later, for its process to start, but its
own timer must be set to the budget).  The runner judges a built-in bot late only past
``1.25 * limit + 50 ms``; the outside program is judged by that same rule (its pipes'
deadline is extended by the same grace), so a program that thinks for 99 % of its
budget is not cut off by the round trip through its pipes.  Each side's own clock
decides how much of the budget it thinks: set the outside program's think time to the
budget (and say so when quoting a figure).

``--clock processor`` measures the budget in processor seconds instead: the atlas bot
reads the processor time of its thread (:func:`atlas.bots.search.processor_clock`), the
outside program must be built to time itself by its own processor time (for a C program,
``setitimer(ITIMER_PROF)`` in place of ``ITIMER_REAL``), and the runner's wall-clock limit
becomes :data:`PROCESSOR_WALL` times the budget, so that only a hang counts as late.
On a machine shared with other work both sides then think as long as on a quiet one:
the comparison does not depend on the load, and games may run two at a time.

``--engine jar --jar TRON_JAR`` plays the games in the contest's own engine instead
(``java -jar Tron.jar MAP CMD1 CMD2 0 LIMIT``, one game at a time), where pipes and the
JVM are real: the atlas bot enters it as ``atlas bot tron NAME --time T --first-time F``
(thinking by its wall clock from reading each board, its first answer within ``F``
seconds of its process's start), the outside program as given (build it to time itself
by the wall clock there).  ``Tron.jar`` takes whole seconds a move (``LIMIT``:
:data:`JAR_LIMIT`, its default, or the budget rounded up; a move later than that is a
crash), shows neither side's move times, and does not tell a timeout from a crash.  The
atlas bot's first answer may take the limit less :data:`JAR_FIRST_MARGIN` from its
process's start (Python's start-up and the kernels' loading included): give the
outside program a comparable first move (and say so when quoting a figure).

Prints one line per game, the score per map, then for each set of maps (the maps'
folder: the contest's and atlas's own are reported apart) and all of them, for each
atlas bot against each program: wins, draws, losses, the score ``(wins + draws / 2) /
games`` with a 95 % interval over seat-swapped pairs (each map and seed's two games, one
in each seat, is one observation: :func:`atlas.arena.paired.paired_interval`), the
games decided by a timeout or crash, and the slowest move of each side.

Usage::

    python benchmarks/tron_outside.py MAPDIR/*.txt --bots frontline \\
        --outside winner=cmd:WINNER_BUILD/MyTronBot --time 0.1
    python benchmarks/tron_outside.py maps/tron/*.txt --bots frontline voronoi \\
        --outside winner=cmd:WINNER_BUILD/MyTronBot --time 1 --jobs 2 --out games.jsonl
    python benchmarks/tron_outside.py tests/data/tron-maps/*.txt \\
        benchmarks/data/tron-maps/*.txt --bots apex --time 0.1 --clock processor \\
        --outside winner=cmd:WINNER_CPU_BUILD/MyTronBot --jobs 2 --out games.jsonl
    python benchmarks/tron_outside.py --report games.jsonl more.jsonl
    python benchmarks/tron_outside.py --compare changed.jsonl before.jsonl
    python benchmarks/tron_outside.py tests/data/tron-maps/box.txt --bots apex \\
        --engine jar --jar TRON_JAR --outside winner=cmd:WINNER_BUILD/MyTronBot --time 0.1

The core is :func:`play_vs_outside`, a plain function returning one dict per game.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

__all__ = [
    "OutsideGame",
    "GracedBot",
    "parse_outside",
    "parse_settings",
    "apply_settings",
    "Watched",
    "schedule",
    "run_game",
    "run_jar_game",
    "map_set",
    "parse_jar_output",
    "play_vs_outside",
    "summarise",
    "score_interval",
    "format_report",
    "main",
]

#: The official engine's rules.
OFFICIAL = (("compat", "official"),)
#: Seconds the outside program's first answer may take beyond the budget (its process
#: starts under atlas's supervisor: tens of milliseconds, more on a loaded machine).
STARTUP = 2.0
#: With ``--clock processor``, the runner's wall-clock limit a move, in budgets.
PROCESSOR_WALL = 30.0
#: ``Tron.jar``'s limit a move, whole seconds (its default): a Python bot's process needs
#: more than 1 s to start on a loaded machine, and a first answer later than the limit
#: is a crash.  Each side stops by its own clock well before it.
JAR_LIMIT = 3
#: In ``Tron.jar``, the seconds the atlas bot's first answer leaves of the engine's
#: limit (``--first-time`` is the limit less this, from its process's start).
JAR_FIRST_MARGIN = 0.2
#: ``Tron.jar``'s last line for each result, as the first seat's score.
JAR_RESULTS = {
    "Player One Wins!": 1.0,
    "Player Two Wins!": 0.0,
    "Players collided. Draw!": 0.5,
    "Both players crashed. Draw!": 0.5,
}


@dataclass(frozen=True)
class OutsideGame:
    """One game: an atlas bot against an outside program on a map, the bot's seat."""

    bot: str
    outside: str
    command: str
    map_path: str
    seat: int
    seed: int
    time_limit: float
    records: str | None = None
    depth: int = 0
    clock: str = "wall"
    settings: tuple[tuple[str, Any], ...] = ()
    engine: str = "atlas"
    jar: str | None = None
    opening: int = 0


def map_set(path: str | Path) -> str:
    """The set a map belongs to, as reports name it: its folder, relative to the
    repository when inside it (``tests/data/tron-maps``, ``benchmarks/data/tron-maps``)."""
    folder = Path(path).resolve().parent
    try:
        return folder.relative_to(ROOT).as_posix()
    except ValueError:
        return folder.as_posix()


class Watched:
    """A built-in bot whose processor time a move (``seconds``) and search depth while
    the players touch (``depths``) are kept; with ``budget`` it thinks that many seconds
    of its thread's processor time a move, whatever the wall-clock deadline
    (:func:`atlas.bots.search.processor_clock`)."""

    def __init__(self, inner: Any, budget: float | None = None) -> None:
        self.inner = inner
        self.budget = budget
        self.name = getattr(inner, "name", "bot")
        self.seconds: list[float] = []
        self.depths: list[int] = []

    @property
    def last_info(self) -> Any:
        return getattr(self.inner, "last_info", {})

    def start(self, game_map: Any, params: Any, player: int) -> None:
        start = getattr(self.inner, "start", None)
        if start is not None:
            start(game_map, params, player)

    def move(self, state: Any, player: int, deadline: float) -> Any:
        from atlas.bots.search import processor_clock

        self.inner.last_info = {}  # a forced move says nothing
        t0 = time.thread_time()
        if self.budget is None:
            mv = self.inner.move(state, player, deadline)
        else:
            with processor_clock():
                mv = self.inner.move(state, player, time.perf_counter() + self.budget)
        self.seconds.append(time.thread_time() - t0)
        info = getattr(self.inner, "last_info", None) or {}
        if info.get("depth") and not info.get("endgame"):
            self.depths.append(int(info["depth"]))
        return mv


def _children_seconds(pid: int) -> float:
    """Processor seconds used so far by the child processes of ``pid`` (Linux ``/proc``;
    0 where it cannot be read): the outside program under its supervisor."""
    total = 0.0
    try:
        tick = os.sysconf("SC_CLK_TCK")
        kids: list[str] = []
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as fh:
                kids += fh.read().split()
        for kid in kids:
            with open(f"/proc/{kid}/stat", encoding="ascii") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
    except (OSError, ValueError, IndexError):
        return 0.0
    return total


class GracedBot:
    """An outside bot judged late by the runner's rule for built-in bots.

    The runner hands every bot ``t0 + limit`` and judges built-in bots late only past
    ``1.25 * limit`` plus :data:`atlas.arena.runner.TIME_GRACE`; an external bot's pipes
    otherwise stop reading at ``t0 + limit`` exactly.  This wrapper extends the pipes'
    deadline by that same grace, so both sides of a game are judged alike.
    """

    def __init__(self, inner: Any, name: str, first_move_time: float | None = None) -> None:
        self.inner = inner
        self.name = name
        self.command = inner.command
        self.first_move_time = first_move_time or inner.first_move_time
        self.moves = 0
        self.processor = 0.0

    def start(self, game_map: Any, params: Any, player: int) -> None:
        self.inner.start(game_map, params, player)

    def move(self, state: Any, player: int, deadline: float) -> Any:
        from atlas.arena.runner import TIME_GRACE

        budget = max(deadline - time.perf_counter(), 0.0)
        self.moves += 1
        return self.inner.move(state, player, deadline + 0.25 * budget + TIME_GRACE)

    def stderr_text(self) -> str:
        return self.inner.stderr_text()

    def close(self) -> None:
        pid = getattr(self.inner, "pid", None)
        if pid is not None:
            self.processor = _children_seconds(pid)
        self.inner.close()


def parse_outside(items: Sequence[str]) -> dict[str, str]:
    """``NAME=cmd:COMMAND`` items as name -> command line."""
    out: dict[str, str] = {}
    for item in items:
        name, eq, spec = item.partition("=")
        if not eq or not name or not spec.startswith("cmd:") or not spec[4:].strip():
            raise ValueError(f"outside program {item!r}: expected NAME=cmd:COMMAND")
        if name in out:
            raise ValueError(f"outside program {name!r} given twice")
        out[name] = spec[4:].strip()
    return out


def parse_settings(items: Sequence[str]) -> dict[str, Any]:
    """``KEY=VALUE`` items as a dict, each value read as JSON when it is (``20000``,
    ``true``, ``[1, 2]``), else kept as text."""
    out: dict[str, Any] = {}
    for item in items:
        key, eq, text = item.partition("=")
        if not eq or not key.isidentifier():
            raise ValueError(f"setting {item!r}: expected KEY=VALUE")
        try:
            out[key] = json.loads(text)
        except json.JSONDecodeError:
            out[key] = text
    return out


def apply_settings(bot: Any, name: str, settings: Mapping[str, Any]) -> Any:
    """Set ``settings`` (:func:`parse_settings`) on the built-in ``bot`` named ``name``;
    an array setting (apex's weights ``ev``) keeps its type and shape, as its kernels
    are compiled for that type.  Returns the bot."""
    import numpy as np

    for key, value in settings.items():
        if not hasattr(bot, key):
            raise ValueError(f"{name} has no setting {key!r}")
        now = getattr(bot, key)
        if isinstance(now, np.ndarray):
            value = np.asarray(value, dtype=now.dtype)
            if value.shape != now.shape:
                raise ValueError(f"{name}.{key}: expected {now.shape[0]} values")
        setattr(bot, key, value)
    return bot


def schedule(
    bots: Sequence[str],
    outside: Mapping[str, str],
    maps: Sequence[str | Path],
    time_limit: float,
    seeds: Sequence[int] = (0,),
    records: str | None = None,
    depth: int = 0,
    clock: str = "wall",
    settings: Mapping[str, Any] | None = None,
    engine: str = "atlas",
    jar: str | None = None,
    opening: int = 0,
) -> list[OutsideGame]:
    """Every atlas bot against every outside program, every map, both seats, every seed."""
    fixed = tuple(sorted((settings or {}).items()))
    return [
        OutsideGame(
            b,
            name,
            cmd,
            str(m),
            seat,
            s,
            time_limit,
            records,
            depth,
            clock,
            fixed,
            engine,
            jar,
            opening,
        )
        for b in bots
        for name, cmd in outside.items()
        for m in maps
        for s in seeds
        for seat in (0, 1)
    ]


def run_game(job: OutsideGame) -> dict[str, Any]:
    """Play one game; its result as plain data, seen from the atlas bot."""
    if job.engine == "jar":
        return run_jar_game(job)
    from atlas.arena.protocols import external_bot
    from atlas.arena.runner import bot_seed, play_game
    from atlas.bots import make_bot
    from atlas.maps import read_map

    game_map = read_map(job.map_path, game="tron")
    processor = job.clock == "processor"
    wall = job.time_limit * PROCESSOR_WALL if processor else job.time_limit
    other = GracedBot(external_bot("tron", job.command), job.outside, wall + STARTUP)
    bot = make_bot("tron", job.bot, bot_seed(job.seed, job.seat))
    if job.depth > 0 and hasattr(bot, "fixed_depth"):
        bot.fixed_depth = job.depth
    apply_settings(bot, job.bot, dict(job.settings))
    mine = Watched(bot, job.time_limit if processor else None)
    players: list[Any] = [mine, other] if job.seat == 0 else [other, mine]
    t0 = time.perf_counter()
    # The built-in bot's first move has the budget (the runner allows it to load its
    # kernels), the outside program's its own first_move_time (process start-up).
    record = play_game(
        "tron",
        game_map,
        players,
        params=dict(OFFICIAL),
        seed=job.seed,
        time_limit=wall,
        first_move_time=None,
        opening=job.opening,
    )
    elapsed = time.perf_counter() - t0
    me, them = job.seat, 1 - job.seat
    slowest = [0.0, 0.0]
    for turn in record.turns:
        for seat, sec in dict(turn.times or {}).items():
            slowest[int(seat)] = max(slowest[int(seat)], float(sec))
    score = float(record.result.scores[me])
    depths = mine.depths
    mapname = Path(job.map_path).stem
    if job.records:
        from atlas.sim.records import save_record

        folder = Path(job.records)
        folder.mkdir(parents=True, exist_ok=True)
        save_record(
            record,
            folder / f"{job.bot}-{job.outside}-{mapname}-seat{me + 1}-seed{job.seed}.json.gz",
        )
    return {
        "bot": job.bot,
        "outside": job.outside,
        "map": mapname,
        "maps": map_set(job.map_path),
        "engine": job.engine,
        "seat": me,
        "seed": job.seed,
        "time": job.time_limit,
        "score": score,
        "outcome": "W" if score == 1.0 else "L" if score == 0.0 else "D",
        "reason": record.result.reason,
        "detail": record.result.detail,
        "turns": len(record.turns),
        "status": record.statuses[me].status,
        "outside_status": record.statuses[them].status,
        "slowest": slowest[me],
        "outside_slowest": slowest[them],
        "seconds": round(elapsed, 3),
        "depth": round(sum(depths) / len(depths), 2) if depths else 0.0,
        "processor": round(max(mine.seconds), 4) if mine.seconds else None,
        "processor_mean": (
            round(sum(mine.seconds) / len(mine.seconds), 4) if mine.seconds else None
        ),
        "outside_processor_mean": (
            round(other.processor / other.moves, 4) if other.moves and other.processor else None
        ),
    }


def parse_jar_output(text: str) -> tuple[float, int, str]:
    """``Tron.jar``'s printed game: the first seat's score, the turns played (boards
    printed: each starts with the map's ``W H`` line) and the result line."""
    lines = text.splitlines()
    result = next((ln.strip() for ln in reversed(lines) if ln.strip() in JAR_RESULTS), None)
    if result is None:
        tail = " | ".join(ln for ln in lines[-3:] if ln.strip())
        raise ValueError(f"Tron.jar printed no result line (last lines: {tail!r})")
    header = lines[0].strip() if lines else ""
    turns = sum(ln.strip() == header for ln in lines) if header else 0
    return JAR_RESULTS[result], turns, result


def run_jar_game(job: OutsideGame) -> dict[str, Any]:
    """Play one game in the contest's ``Tron.jar`` (``job.jar``); its result as plain
    data, seen from the atlas bot, which enters as ``atlas bot tron NAME``."""
    from atlas.arena.runner import bot_seed

    if not job.jar:
        raise ValueError("the jar engine needs --jar TRON_JAR")
    limit = max(JAR_LIMIT, math.ceil(job.time_limit))
    first = max(limit - JAR_FIRST_MARGIN, job.time_limit)
    mine = (
        f"{sys.executable} -m atlas bot tron {job.bot} --seed {bot_seed(job.seed, job.seat)} "
        f"--time {job.time_limit:g} --first-time {first:g} --seat {job.seat + 1}"
    )
    cmds = [mine, job.command] if job.seat == 0 else [job.command, mine]
    game_map = Path(job.map_path).resolve()
    w, h = (int(v) for v in game_map.read_text().split("\n", 1)[0].split())
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # the bot of this checkout
    t0 = time.perf_counter()
    proc = subprocess.run(
        ["java", "-jar", job.jar, str(game_map), *cmds, "0", str(limit)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60 + 2 * limit * w * h,  # every cell filled at the limit: a hang
        check=False,
    )
    elapsed = time.perf_counter() - t0
    first_seat, turns, line = parse_jar_output(proc.stdout)
    score = first_seat if job.seat == 0 else 1.0 - first_seat
    reason = "draw" if score == 0.5 else "crash"
    return {
        "bot": job.bot,
        "outside": job.outside,
        "map": Path(job.map_path).stem,
        "maps": map_set(job.map_path),
        "engine": "jar",
        "seat": job.seat,
        "seed": job.seed,
        "time": job.time_limit,
        "score": score,
        "outcome": "W" if score == 1.0 else "L" if score == 0.0 else "D",
        "reason": reason,
        "detail": line,
        "turns": turns,
        "status": "ok",
        "outside_status": "ok",
        "slowest": 0.0,
        "outside_slowest": 0.0,
        "seconds": round(elapsed, 3),
    }


def play_vs_outside(
    bots: Sequence[str],
    outside: Mapping[str, str],
    maps: Sequence[str | Path],
    *,
    time_limit: float = 0.1,
    seeds: Sequence[int] = (0,),
    jobs: int = 1,
    records: str | None = None,
    depth: int = 0,
    on_result: Any = None,
    clock: str = "wall",
    settings: Mapping[str, Any] | None = None,
    engine: str = "atlas",
    jar: str | None = None,
    opening: int = 0,
) -> list[dict[str, Any]]:
    """Play every atlas bot against every outside program; one result dict per game.

    Parameters
    ----------
    bots : sequence of str
        Built-in tron bots.
    outside : mapping
        Name -> command line of each outside program (the contest protocol).
    maps : sequence of paths
        Tron map files (the contest format).
    time_limit : float
        Seconds per move for both sides, first move included.
    seeds : sequence of int
        Game seeds (the built-in bots' generators).
    jobs : int
        Games played at once (1: one at a time, the fairest timing).
    records : str, optional
        Folder to save every game's replay record in.
    depth : int
        When positive, the built-in bots' searches go exactly this many turns whatever
        the clock (their ``fixed_depth``): a diagnostic that compares evaluations apart
        from speed, against an outside program limited to the same depth.
    on_result : callable, optional
        Called with each result as it arrives (in schedule order).
    clock : {"wall", "processor"}
        What ``time_limit`` counts: wall-clock seconds, or processor seconds (the
        outside program must time itself by its processor time; see the module's
        docstring).
    settings : mapping, optional
        Attributes set on every built-in bot before it plays (a variant of a bot:
        ``{"node_limit": 20000}``).
    engine : {"atlas", "jar"}
        atlas's engine with the official rules, or the contest's ``Tron.jar`` (at
        ``jar``; one game at a time whatever ``jobs`` says).
    jar : str, optional
        The path of ``Tron.jar`` (``engine="jar"``).
    opening : int
        Each seat's first ``opening`` moves are random legal moves, drawn from the seed
        and the seat (:func:`atlas.arena.runner.play_game`): the two games of a pair
        open alike, and each seed gives other games (without it, seeds of a processor
        clock mostly replay one game).  atlas's engine only.

    Returns
    -------
    list of dict
        Per game: ``bot``, ``outside``, ``map``, ``maps`` (its set: :func:`map_set`),
        ``engine``, ``seat`` (the atlas bot's, 0 or 1),
        ``score`` (1, 0.5, 0 for the atlas bot), ``outcome`` (W, D, L), ``reason``,
        ``turns``, ``status`` and ``outside_status`` (``ok``, ``timeout``, ...), the
        slowest move of each side (``slowest``, ``outside_slowest``) and ``seconds``.
    """
    games = schedule(
        bots,
        outside,
        maps,
        time_limit,
        seeds,
        records,
        depth,
        clock,
        settings,
        engine,
        jar,
        opening,
    )
    results = []
    if jobs <= 1 or engine == "jar":
        for g in games:
            r = run_game(g)
            results.append(r)
            if on_result is not None:
                on_result(r)
        return results
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for r in pool.map(run_game, games, chunksize=1):
            results.append(r)
            if on_result is not None:
                on_result(r)
    return results


def score_interval(scores: Sequence[float]) -> tuple[float, float, float]:
    """``(low, mean, high)``: the mean game score and its 95 % normal interval."""
    n = len(scores)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(scores) / n
    var = sum((x - mean) ** 2 for x in scores) / (n - 1) if n > 1 else 0.25
    half = 1.96 * math.sqrt(var / n)
    return max(mean - half, 0.0), mean, min(mean + half, 1.0)


def pair_key(result: dict[str, Any]) -> tuple[str, str, int]:
    """The seat-swapped group a game belongs to: its set of maps, map and seed."""
    return (result.get("maps", ""), result["map"], int(result["seed"]))


def pair_values(results: Sequence[dict[str, Any]]) -> list[float]:
    """The mean score of each group of seat-swapped games (same map and seed): a pair
    when both seats were played, one game when a seat is missing."""
    groups: dict[tuple[str, str, int], list[float]] = {}
    for r in results:
        groups.setdefault(pair_key(r), []).append(float(r["score"]))
    return [sum(v) / len(v) for _, v in sorted(groups.items())]


def compare_runs(
    first: Sequence[dict[str, Any]], second: Sequence[dict[str, Any]]
) -> list[str]:
    """Two runs of the same games (a change against the code before it, each against
    the same outside program) compared pair by pair: for each set of maps and for all
    of them, each run's score over the seat-swapped pairs both played in both seats,
    the difference (first minus second) with a 95 % normal interval over those pairs
    (the mean of the pairs' differences, plus or minus 1.96 of their standard
    deviations over the square root of their number: most pairs are the same games
    in both runs, and a bound on the variance would take the interval for their
    spread), and how many pairs went better, worse or the same.  A pair is one map and
    seed; a pair one run lacks is left out."""
    from atlas.arena.paired import Z95

    def pairs(results: Sequence[dict[str, Any]]) -> dict[tuple[str, str, int], float]:
        seats: dict[tuple[str, str, int], dict[int, float]] = {}
        for r in results:
            seats.setdefault(pair_key(r), {})[int(r["seat"])] = float(r["score"])
        return {k: (v[0] + v[1]) / 2 for k, v in seats.items() if set(v) == {0, 1}}

    a, b = pairs(first), pairs(second)
    both = sorted(set(a) & set(b))
    sets = sorted({k[0] for k in both})
    lines = []
    for name in [*sets, None] if len(sets) > 1 else sets:
        keys = [k for k in both if name is None or k[0] == name]
        diffs = [a[k] - b[k] for k in keys]
        n = len(diffs)
        mean = sum(diffs) / n
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 1.0
        half = Z95 * sd / math.sqrt(n)
        mean_a = 100 * sum(a[k] for k in keys) / n
        mean_b = 100 * sum(b[k] for k in keys) / n
        lines.append(
            f"{'on ' + name if name is not None else 'on all the maps'}: {n} pairs, "
            f"first {mean_a:.1f} %, second {mean_b:.1f} %, first - second "
            f"{100 * mean:+.1f} points [95 % interval {100 * max(mean - half, -1.0):+.1f}, "
            f"{100 * min(mean + half, 1.0):+.1f}]; pairs "
            f"better {sum(d > 0 for d in diffs)}, worse {sum(d < 0 for d in diffs)}, "
            f"the same {sum(d == 0 for d in diffs)}"
        )
    return lines or ["no pair played in both seats in both runs"]


def summarise(results: Sequence[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    """Per (bot, outside program): W/D/L, score with interval, failures, slowest moves.

    ``low``, ``mean``, ``high``: the score with the 95 % normal interval over the games;
    ``pairs``, ``pair_low``, ``pair_high``: the interval over seat-swapped pairs
    (:func:`pair_values`, :func:`atlas.arena.paired.paired_interval`), the one to quote
    (the two games of a pair share the map's bias to a seat).  Also the score over the
    games where neither side timed out or crashed (``clean_*``): on a loaded machine a
    move can come late on either side.
    """
    from atlas.arena.paired import paired_interval

    out: dict[tuple[str, str], dict[str, Any]] = {}
    for r in results:
        s = out.setdefault(
            (r["bot"], r["outside"]),
            {
                "W": 0,
                "D": 0,
                "L": 0,
                "scores": [],
                "failures": 0,
                "outside_failures": 0,
                "slowest": 0.0,
                "outside_slowest": 0.0,
                "collided": 0,
            },
        )
        s[r["outcome"]] += 1
        s["scores"].append(r["score"])
        s["failures"] += r["status"] != "ok"
        s["outside_failures"] += r["outside_status"] != "ok"
        s["slowest"] = max(s["slowest"], r["slowest"])
        s["outside_slowest"] = max(s["outside_slowest"], r["outside_slowest"])
        s["collided"] += "collided" in (r["detail"] or "")
    for (bot, other), s in out.items():
        s["low"], s["mean"], s["high"] = score_interval(s["scores"])
        s["games"] = len(s.pop("scores"))
        mine = [r for r in results if r["bot"] == bot and r["outside"] == other]
        paired = paired_interval(pair_values(mine))
        s["pairs"], s["pair_low"], s["pair_high"] = paired.groups, paired.low, paired.high
        clean = [
            r["score"]
            for r in results
            if r["bot"] == bot
            and r["outside"] == other
            and r["status"] == "ok"
            and r["outside_status"] == "ok"
        ]
        s["clean_games"] = len(clean)
        s["clean_low"], s["clean_mean"], s["clean_high"] = score_interval(clean)
    return out


def format_game(r: dict[str, Any]) -> str:
    """One game as a line."""
    if r.get("engine") == "jar":  # Tron.jar shows no move times
        return (
            f"{r['bot']:>10} vs {r['outside']:<8} {r['map']:<14} seat {r['seat'] + 1} "
            f"{r['outcome']} {r['turns']:>4} turns  Tron.jar: {r['detail']}  "
            f"{r['seconds']:.0f} s"
        )
    fail = (
        ""
        if r["status"] == "ok" and r["outside_status"] == "ok"
        else f"  [{r['status']}/{r['outside_status']}: {r['detail']}]"
    )
    return (
        f"{r['bot']:>10} vs {r['outside']:<8} {r['map']:<14} seat {r['seat'] + 1} "
        f"{r['outcome']} {r['reason']:<8} {r['turns']:>4} turns  slowest "
        f"{r['slowest']:.3f}/{r['outside_slowest']:.3f} s{_processor(r)}  depth "
        f"{r.get('depth', 0):.1f}{fail}"
    )


def _processor(r: dict[str, Any]) -> str:
    """The processor seconds a move of each side, when measured."""
    if r.get("processor_mean") is None:
        return ""
    theirs = r.get("outside_processor_mean")
    return (
        f"  processor {r['processor_mean']:.3f} (most {r['processor']:.3f})/"
        + (f"{theirs:.3f}" if theirs is not None else "?")
        + " s"
    )


def format_report(results: Sequence[dict[str, Any]]) -> str:
    """Per-map tables and the summary of every (bot, outside program) pair, for each set
    of maps apart and for all of them."""
    lines = []
    sets = sorted({r.get("maps", "") for r in results})
    for bot, other in sorted({(r["bot"], r["outside"]) for r in results}):
        rs = [r for r in results if r["bot"] == bot and r["outside"] == other]
        for name in sets:
            here_set = [r for r in rs if r.get("maps", "") == name]
            if not here_set:
                continue
            lines.append(
                f"{bot} against {other} on {name or 'the maps'}, per map "
                f"(seat 1 | seat 2 outcomes, {bot}'s points):"
            )
            for m in sorted({r["map"] for r in here_set}):
                here = [r for r in here_set if r["map"] == m]
                seat = {0: "", 1: ""}
                for r in here:
                    seat[r["seat"]] += r["outcome"]
                pts = sum(r["score"] for r in here)
                lines.append(f"  {m:<14} {seat[0]:>4} | {seat[1]:<4} {pts:4.1f} / {len(here)}")
    for name in [*sets, None] if len(sets) > 1 else sets:
        subset = [r for r in results if name is None or r.get("maps", "") == name]
        lines.append("")
        lines.append(f"on {name or 'the maps'}:" if name is not None else "on all the maps:")
        lines += _summary_lines(subset)
    return "\n".join(lines)


def _summary_lines(results: Sequence[dict[str, Any]]) -> list[str]:
    """The summary of every (bot, outside program) pair in ``results``."""
    lines = []
    jar = all(r.get("engine") == "jar" for r in results)
    for (bot, other), s in sorted(summarise(results).items()):
        timing = (
            "Tron.jar shows no move times and counts a timeout as a crash"
            if jar
            else f"timeouts/crashes {s['failures']} (theirs {s['outside_failures']}); "
            f"slowest move {s['slowest']:.3f} s (theirs {s['outside_slowest']:.3f} s)"
        )
        lines.append(
            f"{bot} vs {other}: {s['W']} wins, {s['D']} draws ({s['collided']} head-on), "
            f"{s['L']} losses in {s['games']} games = {100 * s['mean']:.1f} % "
            f"[95 % interval {100 * s['pair_low']:.1f}, {100 * s['pair_high']:.1f} over "
            f"{s['pairs']} seat-swapped pairs]; {timing}"
        )
        if s["clean_games"] < s["games"]:
            lines.append(
                f"  without the {s['games'] - s['clean_games']} game(s) with a timeout or "
                f"crash: {100 * s['clean_mean']:.1f} % [{100 * s['clean_low']:.1f}, "
                f"{100 * s['clean_high']:.1f}] in {s['clean_games']} games "
                "(normal interval over the games)"
            )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("maps", nargs="*", help="tron map files (contest format)")
    ap.add_argument("--bots", nargs="+", default=["frontline"], help="built-in tron bots")
    ap.add_argument(
        "--outside",
        nargs="+",
        default=[],
        metavar="NAME=cmd:COMMAND",
        help="outside programs, e.g. winner=cmd:WINNER_BUILD/MyTronBot",
    )
    ap.add_argument(
        "--time",
        type=float,
        default=0.1,
        help="seconds per move for both sides, first move included",
    )
    ap.add_argument("--seeds", type=int, default=1, help="seeds per map and seat")
    ap.add_argument(
        "--first-seed",
        type=int,
        default=0,
        help="the first seed (default 0): runs with other seeds add games to a sample",
    )
    ap.add_argument("--jobs", type=int, default=1, help="games played at once")
    ap.add_argument(
        "--depth",
        type=int,
        default=0,
        help="built-in searches go exactly N turns whatever the clock "
        "(a diagnostic; the outside program should be limited alike)",
    )
    ap.add_argument(
        "--opening",
        type=int,
        default=0,
        help="each seat's first N moves random, drawn from the seed (alike in a pair): "
        "seeds then give other games (atlas's engine)",
    )
    ap.add_argument(
        "--clock",
        choices=("wall", "processor"),
        default="wall",
        help="what --time counts: wall-clock seconds (default) or processor seconds "
        "(the outside program must time itself by its processor time)",
    )
    ap.add_argument(
        "--set",
        nargs="+",
        default=[],
        metavar="KEY=VALUE",
        help="attributes set on the built-in bots (a variant: node_limit=20000)",
    )
    ap.add_argument(
        "--engine",
        choices=("atlas", "jar"),
        default="atlas",
        help="atlas's engine with the official rules (default), or the contest's "
        "Tron.jar (--jar; one game at a time, wall clock)",
    )
    ap.add_argument("--jar", metavar="TRON_JAR", help="the contest's Tron.jar")
    ap.add_argument("--records", help="save every game's replay record in this folder")
    ap.add_argument("--out", help="write every result as JSON lines here")
    ap.add_argument(
        "--report",
        nargs="+",
        metavar="JSONL",
        help="play nothing: report the games of these --out files together",
    )
    ap.add_argument(
        "--compare",
        nargs=2,
        metavar=("FIRST", "SECOND"),
        help="play nothing: compare two --out files pair by pair (a change, then the "
        "code before it)",
    )
    args = ap.parse_args(argv)
    if args.compare:
        runs = []
        for name in args.compare:
            with open(name, encoding="utf-8") as fh:
                runs.append([json.loads(line) for line in fh if line.strip()])
        print("\n".join(compare_runs(*runs)))
        return 0
    if args.report:
        results = []
        for name in args.report:
            with open(name, encoding="utf-8") as fh:
                results += [json.loads(line) for line in fh if line.strip()]
        print(format_report(results))
        return 0
    if not args.maps or not args.outside:
        ap.error("give map files and --outside (or --report)")
    if args.engine == "jar":
        if not args.jar or not Path(args.jar).is_file():
            ap.error("--engine jar needs --jar TRON_JAR, an existing file")
        if args.clock != "wall" or args.depth or args.set or args.records or args.opening:
            ap.error(
                "--engine jar plays by the wall clock, without --depth, --set, --records, "
                "--opening"
            )
    try:
        outside = parse_outside(args.outside)
    except ValueError as exc:
        ap.error(str(exc))
    try:
        settings = parse_settings(args.set)
    except ValueError as exc:
        ap.error(str(exc))
    from atlas.bots import bot_names

    unknown = [b for b in args.bots if b not in bot_names("tron")]
    if unknown:
        ap.error(
            f"unknown tron bot(s) {', '.join(unknown)}; built-in: "
            f"{', '.join(bot_names('tron'))}"
        )
    n = len(args.bots) * len(outside) * len(args.maps) * 2 * args.seeds
    depth = f", built-in searches {args.depth} turns deep" if args.depth else ""
    unit = "processor s" if args.clock == "processor" else "s"
    extra = f", settings {settings}" if settings else ""
    if args.opening:
        extra += f", each seat's first {args.opening} moves random (seeded, alike in a pair)"
    print(
        f"tron, official rules ({'Tron.jar' if args.engine == 'jar' else 'atlas engine'}): "
        f"{n} games, {args.time:g} {unit} a move for both sides"
        f"{depth}{extra}, {args.jobs} at a time; load average "
        + " ".join(f"{x:.1f}" for x in os.getloadavg()),
        flush=True,
    )
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(open(args.out, "w", encoding="utf-8")) if args.out else None

        def show(r: dict[str, Any]) -> None:
            print(format_game(r), flush=True)
            if out is not None:
                out.write(json.dumps(r) + "\n")
                out.flush()

        t0 = time.perf_counter()
        results = play_vs_outside(
            args.bots,
            outside,
            args.maps,
            time_limit=args.time,
            seeds=range(args.first_seed, args.first_seed + args.seeds),
            jobs=args.jobs,
            records=args.records,
            depth=args.depth,
            on_result=show,
            clock=args.clock,
            settings=settings,
            engine=args.engine,
            jar=args.jar,
            opening=args.opening,
        )
    print()
    print(format_report(results))
    print(
        f"\n{len(results)} games in {time.perf_counter() - t0:.0f} s; load average "
        + " ".join(f"{x:.1f}" for x in os.getloadavg())
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
