"""Outpost engine speed: turns per second with 4 players at 1, 10, 20, 40, 80 outposts.

Each empire's outposts are spread over random land cells of its own quarter of the
board (so that most keep their supply lines), the position is settled once, and then
``GAME.apply`` is timed from that same position with fresh random legal moves (every
outpost stays or steps, uniformly; the moves are drawn before the clock starts, as the
official figures exclude the players).  The median of several blocks is reported with
its ratio to the official 2014 simulator's turn rate (``outpost-official.md``: engine
only, 4 players).  Like the official figures, the clock is the process's CPU time
(``time.process_time``), so other load on a shared machine counts less.

Usage::

    python benchmarks/bench_outpost.py [--map map1] [--blocks 7] [--turns 200] [--seed 1]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from atlas.games.outpost.rules.game import GAME, with_outposts  # noqa: E402
from atlas.maps import read_map  # noqa: E402

__all__ = ["OFFICIAL_TURNS_PER_S", "position", "bench", "main"]

#: Official simulator, engine only, 4 players: outposts per player -> turns per second
#: (low, high) as measured in ``outpost-official.md``.
OFFICIAL_TURNS_PER_S = {1: (155, 220), 10: (89, 89), 20: (38, 38), 40: (19, 19), 80: (7, 7)}


def position(game_map, n: int, rng: np.random.Generator, compat: str = "spec"):
    """A settled position with about ``n`` outposts per empire in its own quarter."""
    state = GAME.initial_state(game_map, {"compat": compat})
    h, w = game_map.shape
    land = ~game_map.blocked
    lists = []
    for hr, hc in game_map.starts:
        rows = slice(0, h // 2) if hr < h // 2 else slice(h // 2, h)
        cols = slice(0, w // 2) if hc < w // 2 else slice(w // 2, w)
        cells = np.argwhere(land[rows, cols]) + (rows.start, cols.start)
        pick = (
            cells[rng.choice(len(cells), n - 1, replace=False)]
            if n > 1
            else np.zeros((0, 2), np.int64)
        )
        lists.append(np.vstack([[hr, hc], pick]))
    return with_outposts(state, lists)


def bench(
    game_map,
    n: int,
    *,
    blocks: int = 7,
    turns: int = 200,
    seed: int = 1,
) -> tuple[float, list[int]]:
    """Median turns per second over ``blocks`` blocks of ``turns`` applies."""
    rng = np.random.default_rng(seed)
    state = position(game_map, n, rng)
    counts = [len(a) for a in state.outposts]
    moves = [{s: GAME.random_move(state, s, rng) for s in range(4)} for _ in range(turns)]
    GAME.apply(state, moves[0])  # compile / warm up
    rates = []
    for _ in range(blocks):
        t0 = time.process_time()
        for m in moves:
            GAME.apply(state, m)
        rates.append(turns / max(time.process_time() - t0, 1e-9))
    return statistics.median(rates), counts


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--map", default="map1")
    ap.add_argument("--blocks", type=int, default=7)
    ap.add_argument("--turns", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    maps = ROOT / ".." / "shared" / "data" / "outpost-maps"
    path = maps / f"{args.map}.txt"
    if not path.is_file():
        path = ROOT / "maps" / "outpost" / f"{args.map}.txt"
    game_map = read_map(path, game="outpost")
    print(
        f"outpost engine, map {game_map.name}, 4 players, r=10, median of {args.blocks} "
        f"blocks of {args.turns} turns"
    )
    print(
        f"{'outposts/player':>15} {'alive':>15} {'turns/s':>10} {'us/turn':>9} "
        f"{'official t/s':>13} {'ratio':>11}"
    )
    for n, (lo, hi) in OFFICIAL_TURNS_PER_S.items():
        rate, counts = bench(game_map, n, blocks=args.blocks, turns=args.turns, seed=args.seed)
        ref = f"{lo}" if lo == hi else f"{lo}-{hi}"
        ratio = f"{rate / hi:.0f}x" if lo == hi else f"{rate / hi:.0f}-{rate / lo:.0f}x"
        print(
            f"{n:>15} {str(counts):>15} {rate:>10.0f} {1e6 / rate:>9.1f} {ref:>13} {ratio:>11}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
