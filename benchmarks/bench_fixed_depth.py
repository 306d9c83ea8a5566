"""Search speed at fixed depth: nodes per CPU second on the pinned positions.

The searches of ``tests/bots/test_search_pins.py`` run to a fixed depth on positions of
``tests/bots/search_pins.json``, so the work (the node count) is the same in any tree
whose searches choose the same way; only its speed differs.  Run it in two checkouts
(before and after a change), alternating, and compare the nodes per second: unlike a
search on a clock (``bench_search.py``), the figure does not depend on how deep the
machine's speed let the search go.  The clock is the process's CPU time, best of
``--repeats``.

Usage::

    python benchmarks/bench_fixed_depth.py [--kinds knight,queen,...] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for extra in (ROOT, ROOT / "tests" / "bots"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

import test_search_pins as pins_module  # noqa: E402

from atlas.bots import make_bot  # noqa: E402

NEVER = 1e9
#: kind -> (game, map, plies, bot, depth) positions of the pins file.
CASES: dict[str, list[tuple[str, str, int, str, int]]] = {
    "knight": [
        ("isolation", "knight7", 1, "strong", 6),
        ("isolation", "knight7", 8, "strong", 16),
    ],
    "queen": [
        ("isolation", "queen8", 2, "strong", 7),
        ("isolation", "queen8", 16, "strong", 8),
    ],
    "iso-arrays": [
        ("isolation", "cross9", 14, "strong", 8),
        ("isolation", "queen8", 16, "strong-arrays", 7),
        ("isolation", "knight9", 10, "strong", 9),
    ],
    "phased": [
        ("isolation", "queen8", 2, "phased", 6),
        ("isolation", "cross9", 14, "phased", 7),
        ("isolation", "knight7", 8, "phased", 12),
    ],
    "c5-bits": [
        ("connect5", "standard", 10, "strong", 9),
        ("connect5", "connect4", 4, "strong", 10),
    ],
    "c5-arrays": [
        ("connect5", "standard", 10, "strong-arrays", 7),
        ("connect5", "big10x7", 12, "strong-arrays", 7),
    ],
    "apex": [("tron", "rooms", 6, "apex", 8), ("tron", "cross", 8, "apex", 8)],
    "frontline": [("tron", "rooms", 6, "frontline", 7), ("tron", "cross", 8, "frontline", 7)],
    "voronoi": [("tron", "rooms", 6, "voronoi", 7), ("tron", "pillars", 10, "voronoi", 8)],
    "chambers": [("tron", "rooms", 6, "chambers", 7), ("tron", "cross", 8, "chambers", 7)],
}


def _entry(pins: dict[str, Any], game: str, name: str, plies: int) -> dict[str, Any]:
    return next(e for e in pins[game] if e["map"] == name and e["plies"] == plies)


def _runner(game: str, entry: dict[str, Any], name: str, depth: int) -> Callable[[], int]:
    """One search of ``name`` to ``depth`` on ``entry``'s position; returns its nodes."""
    if game == "isolation":
        bot = make_bot("isolation", name.partition("-")[0], seed=1)
        bot.max_depth = depth
        bot.arrays = name == "strong-arrays"
        st = pins_module._isolation_state(entry)

        def run_isolation() -> int:
            if hasattr(bot, "tt_key"):
                bot.tt_key[:] = 0
            bot.move(st, st.to_play, time.perf_counter() + NEVER)
            return int(bot.last_nodes)

        return run_isolation
    if game == "connect5":
        st = pins_module._connect5_state(entry)
        bot = make_bot("connect5", "strong", seed=1)
        bot.max_depth = depth
        bot._warm = True

        def run_connect5() -> int:
            if bot.tt is not None:
                bot.tt[:] = 0
            if bot.tt_bits is not None:
                bot.tt_bits[:] = -1
            bot._choose(st, st.to_play, time.perf_counter() + NEVER, name == "strong")
            return int(bot.last_nodes)

        return run_connect5
    bot = make_bot("tron", name, seed=1)
    bot.fixed_depth = depth
    st = pins_module._tron_state(entry)

    def run_tron() -> int:
        bot.move(st, 0, time.perf_counter() + NEVER)
        return int(bot.last_info["nodes"])

    return run_tron


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kinds", default=",".join(CASES), help="comma-separated")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    pins = json.loads((ROOT / "tests" / "bots" / "search_pins.json").read_text())
    print(f"{'search':<11} {'nodes':>9} {'CPU ms':>9} {'nodes/s':>12}   ({ROOT.name})")
    for kind in args.kinds.split(","):
        runs = [_runner(g, _entry(pins, g, m, p), b, d) for g, m, p, b, d in CASES[kind]]
        nodes = sum(r() for r in runs)  # also compiles / loads the kernels
        best = float("inf")
        for _ in range(args.repeats):
            t = time.process_time()
            for r in runs:
                r()
            best = min(best, time.process_time() - t)
        print(f"{kind:<11} {nodes:>9} {best * 1000:9.1f} {nodes / best:12,.0f}", flush=True)


if __name__ == "__main__":
    main()
