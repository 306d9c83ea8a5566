"""Time safety: every built-in bot's slowest moves with a CPU hog running beside it.

Every built-in bot of every game (:data:`atlas.bots.BOTS`) plays games against copies
of itself through atlas's runner (:func:`atlas.arena.runner.play_game`) on the game's
bundled maps, at each time limit, until it has made its share of ``--moves`` (1,000)
moves at that limit (all seats count), while one busy-loop process started by this benchmark keeps a
core
busy (``--no-hog`` to leave it out).  The hog ends by itself after ``--hog-seconds`` and
is killed when the benchmark ends, however it ends.

The limits are the site's by the clock (each game's ``SitePlan.time``: tron 0.1 s,
isolation and connect5 0.05 s; the site plays at fixed effort unless asked for the
clock) and the ladder's (0.1 s); outpost games
are cut to ``T = 50`` turns so that a game gives 200 moves.  Per bot and limit it prints
the moves timed, the slowest move, the number past the raw limit and the number past
the runner's judgement of a built-in bot (``1.25 x limit + 50 ms``), and the processor
time of the bot's own thread (``time.process_time``) for the slowest move, the largest
of any move and the number of moves whose processor time alone passed the limit: a
move late on the wall but short on the processor waited for a core, which no bot can
prevent on a machine with more busy processes than cores.  A bot's first move of each
game (which the runner allows to compile kernels) is counted apart and its slowest
printed in the last column.

Usage::

    python benchmarks/time_safety.py                       # every game, every bot
    python benchmarks/time_safety.py --games isolation connect5 --moves 500
    python benchmarks/time_safety.py --bots strong --limits 0.02 --no-hog
    python benchmarks/time_safety.py --games tron --bots apex --limits 0.1 --compat official
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

__all__ = ["start_hog", "time_bot", "main"]

#: The ladder's default time a move (``benchmarks/ladder.py``).
LADDER_TIME = 0.1
#: Outpost games of this benchmark (turns): 4 empires x 50 turns = 200 moves a game.
OUTPOST_TURNS = 50
#: Python code of the hog: a busy loop that ends by itself after argv[1] seconds.
_HOG = (
    "import sys, time\nend = time.monotonic() + float(sys.argv[1])\n"
    "while time.monotonic() < end:\n    pass\n"
)


def start_hog(seconds: float) -> subprocess.Popen:
    """Start one busy-loop process that stops by itself after ``seconds``."""
    return subprocess.Popen(
        [sys.executable, "-c", _HOG, str(seconds)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


class TimedBot:
    """A bot that notes the processor time of each of its moves (``cpu``), as against
    the wall time the runner measures: a move far longer on the wall than on the
    processor waited for a core."""

    def __init__(self, bot: Any) -> None:
        self._bot = bot
        self.cpu: list[float] = []

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._bot, attr)

    def move(self, state: Any, player: int, deadline: float) -> Any:
        t0 = time.process_time()
        try:
            return self._bot.move(state, player, deadline)
        finally:
            self.cpu.append(time.process_time() - t0)


def time_bot(
    game: str,
    name: str,
    limit: float,
    moves: int,
    maps: Sequence[Path],
    params: dict[str, Any] | None,
) -> dict[str, Any]:
    """Play ``name`` against itself until it made ``moves`` timed moves at ``limit``.

    Returns the moves timed, the slowest of them (wall time, as the runner measures)
    and the processor time of that move, the most processor time of a move, how many
    took longer than ``limit`` and than the runner's judgement (on the wall, and in
    processor time), the slowest first move and the games played.
    """
    from atlas.arena.runner import TIME_GRACE, bot_seed, play_game
    from atlas.bots import make_bot
    from atlas.maps import read_map
    from atlas.sim import get_game

    n_seats = get_game(game).info.num_players
    judge = 1.25 * limit + TIME_GRACE
    times: list[float] = []
    cpus: list[float] = []
    first = 0.0
    games = 0
    while len(times) < moves and games < 10 * moves:
        path = maps[games % len(maps)]
        bots = [TimedBot(make_bot(game, name, bot_seed(games, s))) for s in range(n_seats)]
        record = play_game(
            game, read_map(path, game), bots, params=params, seed=games, time_limit=limit
        )
        games += 1
        seen: set[int] = set()
        asked = [0] * n_seats
        for turn in record.turns:
            for seat, sec in dict(getattr(turn, "times", {}) or {}).items():
                seat = int(seat)
                cpu = bots[seat].cpu[asked[seat]] if asked[seat] < len(bots[seat].cpu) else 0.0
                asked[seat] += 1
                if seat not in seen:
                    seen.add(seat)
                    first = max(first, float(sec))
                else:
                    times.append(float(sec))
                    cpus.append(cpu)
        bad = [getattr(s, "status", "ok") for s in record.statuses]
        if any(b not in ("ok", "") for b in bad):
            print(
                f"    {game} {name} {path.stem} seed {games - 1}: {bad} "
                f"({record.result.detail})",
                flush=True,
            )
    worst = max(range(len(times)), key=times.__getitem__, default=-1)
    return {
        "moves": len(times),
        "slowest": times[worst] if worst >= 0 else 0.0,
        "slowest_cpu": cpus[worst] if worst >= 0 else 0.0,
        "max_cpu": max(cpus, default=0.0),
        "late": sum(t > limit for t in times),
        "judged_late": sum(t > judge for t in times),
        "cpu_late": sum(t > limit for t in cpus),
        "first": first,
        "games": games,
        "judge": judge,
    }


def main(argv: Sequence[str] | None = None) -> int:
    from atlas.bots import bot_names
    from atlas.maps import find_maps
    from atlas.render.registry import render_of

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", nargs="+", default=["tron", "isolation", "connect5", "outpost"])
    ap.add_argument("--bots", nargs="+", help="only these bot names")
    ap.add_argument(
        "--limits",
        nargs="+",
        type=float,
        help="seconds a move (default: the site's and the ladder's)",
    )
    ap.add_argument(
        "--moves",
        type=int,
        default=1000,
        help="timed moves per bot, shared among its limits (first moves of "
        "each game not counted)",
    )
    ap.add_argument(
        "--compat",
        choices=("spec", "official"),
        default="spec",
        help="the rules played, where a game has the original engine's (tron's official "
        "order: apex searches it)",
    )
    ap.add_argument("--no-hog", action="store_true", help="no CPU hog beside the bots")
    ap.add_argument(
        "--hog-seconds",
        type=float,
        default=3600.0,
        help="the hog stops by itself after this many seconds",
    )
    args = ap.parse_args(argv)

    hog = None if args.no_hog else start_hog(args.hog_seconds)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"time safety: {args.moves} timed moves per bot over its limits, "
        f"{'one CPU hog beside' if hog else 'no hog'} (load average {load}, "
        f"{os.cpu_count()} cores)",
        flush=True,
    )
    print(
        f"{'game':<10}{'bot':<12}{'limit':>7}{'judged':>8}{'moves':>7}{'games':>6}"
        f"{'slowest':>9}{'its cpu':>8}{'max cpu':>8}{'>limit':>7}{'>judged':>8}"
        f"{'cpu>limit':>10}{'1st move':>9}",
        flush=True,
    )
    t0 = time.perf_counter()
    worst = 0
    try:
        for game in args.games:
            limits = args.limits or sorted({render_of(game).site_plan.time, LADDER_TIME})
            maps = find_maps(ROOT / "maps" / game)
            params: dict[str, Any] = {"T": OUTPOST_TURNS} if game == "outpost" else {}
            if args.compat == "official" and game == "tron":
                params["compat"] = "official"
            for name in bot_names(game):
                if args.bots and name not in args.bots:
                    continue
                share = -(-args.moves // len(limits))
                for limit in limits:
                    r = time_bot(game, name, limit, share, maps, params)
                    worst += r["judged_late"]
                    print(
                        f"{game:<10}{name:<12}{limit:>7.3f}{r['judge']:>8.3f}"
                        f"{r['moves']:>7}{r['games']:>6}{r['slowest']:>9.3f}"
                        f"{r['slowest_cpu']:>8.3f}{r['max_cpu']:>8.3f}{r['late']:>7}"
                        f"{r['judged_late']:>8}{r['cpu_late']:>10}{r['first']:>9.3f}",
                        flush=True,
                    )
    finally:
        if hog is not None:
            hog.kill()
            hog.wait()
    print(
        f"{worst} move(s) past the runner's judgement; {time.perf_counter() - t0:.0f} s",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
