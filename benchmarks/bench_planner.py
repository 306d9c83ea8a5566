"""Outpost ``planner`` speed: its time a move in a whole game, and its target choice.

Plays one game on a bundled map with the four built-in Outpost bots at their default
efforts (``atlas.bots.registry.bot_efforts``: the same moves on any machine) and prints
the planner's median and mean time a move (wall clock, the game's own record).  Every
call of the planner's target choice in that game is kept, and then timed again apart:
``greedy_targets`` (the gain field counted once, then kept up to date pick by pick)
against ``lazy_greedy`` below, Minoux's lazy greedy that the planner used before
(a max-heap of stale gains, the best counted again until it is up to date), on the
same inputs.  Both must
choose the same targets: the script says so, or stops.  One candidate step in 50 that
the planner scored is kept too, and scored again apart: the ownership brought up to date
in the step's box (as the planner does) against counted anew; the same score, or it
stops.  Medians of several repeats,
with the load average beside them; compile first (the warm-up game is not timed).

Usage::

    python benchmarks/bench_planner.py [--map delta] [--repeats 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from atlas.games.outpost.bots.plan_kernels import _diamond, diamond_gain  # noqa: E402
from atlas.jit import numba  # noqa: E402  (atlas's numba, its cache folder)


@numba.njit(cache=True)
def _sift_down(keys, idx, size, i):  # pragma: no cover - compiled
    """Max-heap order: the larger key first, then the smaller candidate index."""
    while True:
        top = i
        for child in (2 * i + 1, 2 * i + 2):
            if child < size and (
                keys[child] > keys[top] or (keys[child] == keys[top] and idx[child] < idx[top])
            ):
                top = child
        if top == i:
            return
        keys[i], keys[top] = keys[top], keys[i]
        idx[i], idx[top] = idx[top], idx[i]
        i = top


@numba.njit(cache=True)
def lazy_greedy(
    board_flat, stride, r, value, elim, won, cand, bonus, k, min_gain, out
):  # pragma: no cover - compiled
    """The planner's target choice before this stop: Minoux's lazy greedy on a max-heap
    of the last counted gains; the top is counted again while stale, and taken once
    its gain is up to date (ties to the earlier candidate)."""
    m = cand.shape[0]
    keys = np.empty(m, np.float64)
    idx = np.empty(m, np.int64)
    for i in range(m):
        keys[i] = diamond_gain(board_flat, stride, r, value, elim, won, cand[i]) + bonus[i]
        idx[i] = i
    for i in range(m // 2 - 1, -1, -1):
        _sift_down(keys, idx, m, i)
    stamp = np.zeros(m, np.int64)
    size = m
    taken = 0
    while taken < k and size > 0:
        i = idx[0]
        if keys[0] < min_gain:
            break
        if stamp[i] == taken:
            out[taken] = i
            taken += 1
            _diamond(board_flat, stride, r, value, elim, won, cand[i], True)  # won
            size -= 1
            keys[0] = keys[size]
            idx[0] = idx[size]
        else:
            keys[0] = diamond_gain(board_flat, stride, r, value, elim, won, cand[i]) + bonus[i]
            stamp[i] = taken
        _sift_down(keys, idx, size, 0)
    return taken


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--map", default="delta", help="a map of maps/outpost (default delta)")
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()

    import atlas.games.outpost.bots.planner as planner_module
    from atlas.arena.runner import play_game
    from atlas.bots.registry import bot_efforts
    from atlas.games.outpost.bots.plan_kernels import greedy_targets
    from atlas.maps import read_map

    calls: list[tuple] = []
    real = planner_module.greedy_from

    def kept(field, *rest):  # the planner's calls: their inputs, before they change
        calls.append(tuple(a.copy() if isinstance(a, np.ndarray) else a for a in rest))
        return real(field, *rest)

    steps: list[tuple] = []  # one in STEP_SAMPLE of the candidate steps scored
    seen = [0]
    real_score = planner_module.evaluate_moved

    def kept_step(board, weighing, cells, *rest):
        if rest[6] >= 0:  # j: a step from the position held
            seen[0] += 1
            if seen[0] % STEP_SAMPLE == 0:
                copied = tuple(a.copy() if isinstance(a, np.ndarray) else a for a in weighing)
                steps.append((board, copied, cells.copy(), *rest[:8]))
        return real_score(board, weighing, cells, *rest)

    game_map = read_map(ROOT / "maps" / "outpost" / f"{args.map}.txt", game="outpost")
    names = ["greedy", "balanced", "defender", "planner"]
    efforts = bot_efforts("outpost")
    play_game("outpost", game_map, names, params={"T": 20}, effort=[efforts[n] for n in names])
    print(f"load average {os.getloadavg()[0]:.2f} before the game", flush=True)
    planner_module.greedy_from = kept
    planner_module.evaluate_moved = kept_step
    try:
        record = play_game("outpost", game_map, names, effort=[efforts[n] for n in names])
    finally:
        planner_module.greedy_from = real
        planner_module.evaluate_moved = real_score
    seat = names.index("planner")
    times = [t.times[seat] for t in record.turns if seat in t.times]
    print(
        f"{args.map}: {len(record.turns)} turns; planner at effort {efforts['planner']}: "
        f"median {1e3 * statistics.median(times):.1f} ms a move, mean "
        f"{1e3 * statistics.mean(times):.1f} ms, {sum(times):.1f} s in all"
    )
    # the calls again, apart: both ways on the same inputs, the same targets
    sample = calls[:: max(1, len(calls) // 200)]

    def both(c: tuple) -> tuple[float, float]:
        """Each way once on the inputs of call ``c``: its seconds; stops if they differ."""
        board_flat, stride, r, value, elim, won, cand, bonus, k, min_gain, out = c
        head = (board_flat, stride, r, value, elim)
        a, b = out.copy(), out.copy()
        t = time.perf_counter()
        got_a = greedy_targets(*head, won.copy(), cand, bonus, k, min_gain, a)
        t_new = time.perf_counter() - t
        t = time.perf_counter()
        got_b = lazy_greedy(*head, won.copy(), cand, bonus, k, min_gain, b)
        t_old = time.perf_counter() - t
        if got_a != got_b or not np.array_equal(a[:got_a], b[:got_b]):
            raise SystemExit("the two greedy choices differ: the new one is wrong")
        return t_new, t_old

    for c in sample[:3]:  # compile both
        both(c)
    new_t, old_t = [], []
    for _ in range(args.repeats):
        pairs = [both(c) for c in sample]
        new_t.append(sum(p[0] for p in pairs) / len(sample))
        old_t.append(sum(p[1] for p in pairs) / len(sample))
    new, old = statistics.median(new_t), statistics.median(old_t)
    sizes = [len(c[6]) for c in sample]
    picks = [int(c[8]) for c in sample]
    print(
        f"target choice, {len(sample)} of the game's {len(calls)} calls "
        f"({statistics.median(sizes):.0f} candidates, {statistics.median(picks):.0f} targets "
        f"at the median), the same targets both ways:"
    )
    print(
        f"  gain field kept up to date: {1e3 * new:6.2f} ms a call (median of {args.repeats})"
    )
    print(f"  lazy greedy (before):       {1e3 * old:6.2f} ms a call   ratio {old / new:4.1f}x")
    step_t, anew_t = [], []
    for _ in range(args.repeats):
        timed = [score_both(s, real_score) for s in steps]
        step_t.append(sum(t[0] for t in timed) / len(timed))
        anew_t.append(sum(t[1] for t in timed) / len(timed))
    step, anew = statistics.median(step_t), statistics.median(anew_t)
    print(
        f"a candidate step's score, {len(steps)} of the game's {seen[0]}, the same score "
        f"both ways:"
    )
    print(f"  ownership in the step's box: {1e6 * step:6.1f} us a score")
    print(
        f"  ownership counted anew:      {1e6 * anew:6.1f} us a score   ratio {anew / step:4.2f}x"
    )
    print(f"load average {os.getloadavg()[0]:.2f} after")


#: One candidate step in this many is kept for timing apart.
STEP_SAMPLE = 50


def score_both(step: tuple, score: object) -> tuple[float, float]:
    """A kept step's score ten times with the ownership brought up to date in its box
    (held: its position before the step), then ten times counted anew: the seconds a
    score each way; stops if the two scores differ."""
    board, weighing, cells, emps, starts, fields, slot, a, progress, j, src = step
    boxes = np.zeros((1, 4), np.int64)
    got = np.zeros(2, np.int64)
    before = cells.copy()
    before[j] = src
    args = (board, weighing)
    tail = (emps, starts, fields, slot, a, progress)
    score(*args, before, *tail, -1, -1, boxes, got, False)  # the ownership held
    t = time.perf_counter()
    for _ in range(10):
        in_box = score(*args, cells, *tail, j, src, boxes, got, False)
    t_box = (time.perf_counter() - t) / 10
    t = time.perf_counter()
    for _ in range(10):
        counted = score(*args, cells, *tail, -1, -1, boxes, got, False)
    t_anew = (time.perf_counter() - t) / 10
    if in_box != counted:
        raise SystemExit("a step's score in its box differs from the score counted anew")
    return t_box, t_anew


if __name__ == "__main__":
    main()
