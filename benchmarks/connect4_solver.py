"""Connect Four against a perfect solver: how often atlas's bot keeps the game's value.

Generates ``N`` random Connect Four positions (seeded; a disc count drawn uniformly from
``--discs LO HI``, then that many uniformly random drops; positions where the game is
over or the side to move can win at once are drawn again), asks an outside perfect
solver for the score of every column, asks atlas's bot for its move at ``--time``
seconds, and prints:

* the share of moves that are **optimal** (the best score: the fastest win, the
  slowest loss, or a draw where nothing better exists);
* the share that **keep the value**: a win stays a win, a draw stays a draw; in a lost
  position every move keeps it;
* both with a 95 % Wilson interval, per value of the position, the positions where the
  value was lost (as move strings), and the slowest move.

The oracle is any program that reads one position a line as a string of columns
``1``-``7`` (the moves from the empty board) and answers the line followed by seven
scores, one per column, in the solver's convention (positive: the side to move wins,
larger is faster; negative: it loses; 0: a draw; ``-1000``: a full column); Pascal Pons's
solver with its ``-a`` flag answers so.  It is built outside this repository and passed
with ``--solver``; it is slow at few discs without its opening book (seconds to
minutes a position), so its answers are kept in a JSON cache (``--cache``) and reused
by later runs on the same positions.

Usage::

    python benchmarks/connect4_solver.py --solver PATH/c4solver -n 100 \
        --discs 4 10 --time 0.5 --cache c4-cache.json
    python benchmarks/connect4_solver.py --solver PATH/c4solver -n 40 \
        --discs 12 20 --seed 2 --cache c4-cache.json
    python benchmarks/connect4_solver.py ... --solve-only   # fill the cache, no bot

References
----------
Pons, P. (2019). *Solving Connect 4: how to build a perfect AI* (the solver's score
convention).  Wilson, E. B. (1927). Probable inference, the law of succession, and
statistical inference. *JASA* 22(158).
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

__all__ = ["random_positions", "state_of", "wilson", "judge", "solve", "main"]

#: The solver's score for a full column.
FULL = -1000
COLS, ROWS = 7, 6


def _wins_at_once(moves: str) -> bool:
    """Whether the side to move in ``moves`` has a winning drop."""
    from atlas.games.connect5.rules import is_winning_drop

    st = state_of(moves)
    for c in range(COLS):
        if st.heights[c] < ROWS:
            row = ROWS - 1 - int(st.heights[c])
            st.board[row, c] = st.to_play + 1
            won = is_winning_drop(st.board, row, c, 4)
            st.board[row, c] = 0
            if won:
                return True
    return False


def state_of(moves: str) -> Any:
    """The atlas Connect Four state after ``moves`` (columns ``1``-``7``)."""
    from atlas.maps import read_map
    from atlas.sim import get_game

    game = get_game("connect5")
    st = game.initial_state(read_map(ROOT / "maps" / "connect5" / "connect4.txt", "connect5"))
    for ch in moves:
        st = game.apply(st, {st.to_play: int(ch) - 1})
    return st


def random_positions(n: int, lo: int, hi: int, seed: int) -> list[str]:
    """``n`` distinct random positions with ``lo``-``hi`` discs, none decided.

    Each disc count is drawn uniformly, then each drop uniformly among the open columns;
    a position whose game is over, or where the side to move can win at once, is drawn
    again.
    """
    from atlas.sim import get_game

    game = get_game("connect5")
    rng = np.random.default_rng(seed)
    out: list[str] = []
    seen: set[str] = set()
    tries = 0
    while len(out) < n:
        tries += 1
        if tries > 100 * n + 1000:
            raise RuntimeError(f"could not draw {n} positions with {lo}-{hi} discs")
        discs = int(rng.integers(lo, hi + 1))
        st = state_of("")
        moves = ""
        for _ in range(discs):
            if game.outcome(st) is not None:
                break
            open_cols = [c for c in range(COLS) if st.heights[c] < ROWS]
            c = int(rng.choice(open_cols))
            st = game.apply(st, {st.to_play: c})
            moves += str(c + 1)
        if game.outcome(st) is not None or moves in seen or _wins_at_once(moves):
            continue
        seen.add(moves)
        out.append(moves)
    return out


def solve(
    solver: str,
    positions: Sequence[str],
    cache: dict[str, list[int]],
    save: Callable[[], None],
    timeout: float,
) -> None:
    """Fill ``cache[moves]`` with the solver's seven scores for every position missing.

    One solver process per position (so a slow one can be given up after ``timeout``
    seconds without losing the others); ``save`` is called after each answer.
    """
    todo = [p for p in positions if p not in cache]
    for i, p in enumerate(todo, 1):
        t0 = time.perf_counter()
        try:
            out = subprocess.run(
                [solver, "-a"],
                input=p + "\n",
                capture_output=True,
                text=True,
                timeout=timeout,
                check=False,
            ).stdout.split()
        except subprocess.TimeoutExpired:
            print(f"  solver: {p} gave up after {timeout:g} s", flush=True)
            continue
        if len(out) != COLS + 1 or out[0] != p:
            print(f"  solver: no analysis of {p}: {' '.join(out)!r}", flush=True)
            continue
        cache[p] = [int(x) for x in out[1:]]
        save()
        print(
            f"  solved {i}/{len(todo)} {p} {cache[p]} in {time.perf_counter() - t0:.1f} s",
            flush=True,
        )


def judge(scores: Sequence[int], move: int) -> tuple[int, bool, bool]:
    """``(value, optimal, kept)`` of playing column ``move`` (0-based) given the scores.

    ``value`` is the sign of the best score (1 win, 0 draw, -1 loss for the side to move).
    """
    legal = [s for s in scores if s != FULL]
    best = max(legal)
    value = (best > 0) - (best < 0)
    s = scores[move]
    if s == FULL:
        return value, False, False
    got = (s > 0) - (s < 0)
    return value, s == best, got == value or value < 0


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a share ``k / n``."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def _share(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k}/{n} = {100 * k / max(n, 1):.1f} % [{100 * lo:.1f}, {100 * hi:.1f}]"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--solver",
        default="",
        help="path of the built solver (answers seven scores a line, as "
        "Pons's c4solver -a), built outside the repository",
    )
    ap.add_argument("-n", type=int, default=40, help="positions")
    ap.add_argument("--discs", type=int, nargs=2, default=(4, 10), metavar=("LO", "HI"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time", type=float, default=0.5, help="seconds a move")
    ap.add_argument("--bot", default="strong", help="atlas connect5 bot")
    ap.add_argument("--cache", help="JSON file keeping the solver's answers")
    ap.add_argument(
        "--solver-timeout",
        type=float,
        default=3600.0,
        help="seconds the solver may take for one position",
    )
    ap.add_argument("--solve-only", action="store_true", help="fill the cache, play nothing")
    ap.add_argument(
        "--no-solve", action="store_true", help="judge only the positions already in the cache"
    )
    args = ap.parse_args(argv)

    positions = random_positions(args.n, args.discs[0], args.discs[1], args.seed)
    cache: dict[str, list[int]] = {}
    cache_path = Path(args.cache) if args.cache else None
    if cache_path is not None and cache_path.exists():
        cache = json.loads(cache_path.read_text())

    def save() -> None:
        if cache_path is not None:
            tmp = cache_path.with_suffix(".tmp")
            tmp.write_text(json.dumps(cache, sort_keys=True))
            tmp.replace(cache_path)

    if not args.no_solve:
        solve(args.solver, positions, cache, save, args.solver_timeout)
    if args.solve_only:
        return 0

    from atlas.bots import make_bot
    from atlas.maps import read_map

    game_map = read_map(ROOT / "maps" / "connect5" / "connect4.txt", "connect5")
    kept = optimal = n = 0
    by_value: dict[int, list[int]] = {1: [0, 0, 0], 0: [0, 0, 0], -1: [0, 0, 0]}
    lost: list[str] = []
    by_discs: dict[int, list[int]] = {}
    slowest = (0.0, "")
    for i, p in enumerate(positions):
        if p not in cache:
            continue
        st = state_of(p)
        bot = make_bot("connect5", args.bot, seed=i)
        start = getattr(bot, "start", None)
        if start is not None:
            start(game_map, {}, st.to_play)
        t0 = time.perf_counter()
        move = int(bot.move(st.copy(), st.to_play, t0 + args.time))
        sec = time.perf_counter() - t0
        if sec > slowest[0]:
            slowest = (sec, p)
        value, opt, keep = judge(cache[p], move)
        n += 1
        kept += keep
        optimal += opt
        for row in (by_value[value], by_discs.setdefault(len(p), [0, 0, 0])):
            row[0] += 1
            row[1] += opt
            row[2] += keep
        if not keep:
            lost.append(f"{p} (played {move + 1}, scores {cache[p]})")
    print(
        f"Connect Four, {args.bot} at {args.time:g} s a move, {n} random positions with "
        f"{args.discs[0]}-{args.discs[1]} discs (seed {args.seed})"
    )
    print(f"  optimal move:    {_share(optimal, n)}")
    print(f"  keeps the value: {_share(kept, n)}")
    for value, name in ((1, "won"), (0, "drawn"), (-1, "lost")):
        m, o, k = by_value[value]
        print(f"  {name:>5} positions: {m:3d}, optimal {o}, value kept {k}")
    print(
        "  by discs played: "
        + ", ".join(
            f"{d}: {k}/{m} kept, {o} optimal" for d, (m, o, k) in sorted(by_discs.items())
        )
    )
    print(f"  slowest move: {slowest[0]:.3f} s ({slowest[1]})")
    for line in lost:
        print(f"  value lost: {line}")
    missing = len(positions) - n
    if missing:
        print(f"  {missing} position(s) left out: the solver gave no answer")
    return 0


if __name__ == "__main__":
    sys.exit(main())
