"""Isolation against AB_Improved, the baseline agent of Udacity's isolation project.

AB_Improved, as Udacity's AI Nanodegree describes it: iterative deepening over a plain
depth-limited alpha-beta (no transposition table, no move ordering: the moves in a
fixed direction order), stopping when less than a 10 ms threshold is left; a leaf is
scored ``own legal moves - opponent's legal moves``, a won game ``+inf``, a lost one
``-inf``; the best move of the last finished depth is played.  :class:`ABImproved`
here is written from that description alone, as a numba kernel: it searches one to two
orders of magnitude more nodes than the original Python agent, so it is a *stronger*
opponent than the course's.

The protocol (Udacity's tournament): a 7 x 7 board, knight moves, both first
placements random (forced: neither bot chooses them), then the bots play from there,
150 ms a move; every position is played twice, each bot in each seat.  The games run
through atlas's own engine (:func:`atlas.arena.runner.play_game`, on a map whose starts
are the two placements), so a late or illegal answer loses as in any atlas game.

For the knight board the benchmark also labels every position by who wins it when
AB_Improved plays both seats at ``--label-time`` (default 1 s a move): a position is
*won* for the seat that wins that game and *lost* for the other.  A bot *converts* a
won position when it wins it from the winning seat and *saves* a lost one when it wins
from the losing seat.

On queen boards (default ``maps/isolation/queen8.txt``, starts in opposite corners)
the positions are the map's start followed by ``--queen-plies`` random moves (one per
seat by default), each played in both seats.

Usage::

    python benchmarks/isolation_udacity.py --board knight7 -n 20 --time 0.15
    python benchmarks/isolation_udacity.py --board knight7 -n 20 --time 0.02
    python benchmarks/isolation_udacity.py --board queen8 -n 20 --time 0.15

References
----------
Udacity, *Artificial Intelligence Nanodegree: Build a Game-Playing Agent* (project
description: the tournament protocol, ``AB_Improved`` and its ``improved_score``).
Knuth, D. E. & Moore, R. W. (1975). An analysis of alpha-beta pruning. *Artificial
Intelligence* 6(4).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numba
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from atlas.bots.search import clock, gc_paused  # noqa: E402 (after the path is set)

__all__ = ["ABImproved", "ab_search", "knight_positions", "queen_positions", "main"]

#: Udacity's agents stop searching when less than this is left (seconds).
TIMER_THRESHOLD = 0.010
#: The eight directions (queen rays, or knight jumps), in a fixed order.
KNIGHT = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))
QUEEN = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def neighbours(rows: int, cols: int, knight: bool) -> np.ndarray:
    """``nbr[cell, d]``: the cell one step (jump) in direction ``d``, or -1 off the board."""
    steps = KNIGHT if knight else QUEEN
    nbr = np.full((rows * cols, 8), -1, dtype=np.int64)
    for r in range(rows):
        for c in range(cols):
            for d, (dr, dc) in enumerate(steps):
                rr, cc = r + dr, c + dc
                if 0 <= rr < rows and 0 <= cc < cols:
                    nbr[r * cols + c, d] = rr * cols + cc
    return nbr


@numba.njit(cache=True)
def _moves(free, nbr, slide, src, out):  # pragma: no cover - compiled
    n = 0
    for d in range(8):
        c = nbr[src, d]
        while c >= 0 and free[c]:
            out[n] = c
            n += 1
            if not slide:
                break
            c = nbr[c, d]
    return n


@numba.njit(cache=True)
def _count(free, nbr, slide, src):  # pragma: no cover - compiled
    n = 0
    for d in range(8):
        c = nbr[src, d]
        while c >= 0 and free[c]:
            n += 1
            if not slide:
                break
            c = nbr[c, d]
    return n


# The two search kernels are recursive and compiled afresh in each process (about 2 s):
# numba's cache gave back a recursive kernel that crashed when called.
@numba.njit
def _alphabeta(
    free, nbr, slide, pos, mover, me, depth, alpha, beta, buf, ply, status, deadline
):  # pragma: no cover - compiled
    """Minimax value for ``me`` with alpha-beta; ``status[1]`` set once past ``deadline``."""
    status[0] += 1
    if (status[0] & 63) == 0 and clock() > deadline:
        status[1] = 1
    if status[1] != 0:
        return 0.0
    n = _moves(free, nbr, slide, pos[mover], buf[ply])
    if n == 0:
        return -np.inf if mover == me else np.inf
    if depth == 0:
        return float(_count(free, nbr, slide, pos[me]) - _count(free, nbr, slide, pos[1 - me]))
    maximising = mover == me
    best = -np.inf if maximising else np.inf
    src = pos[mover]
    for i in range(n):
        m = buf[ply, i]
        free[m] = False
        pos[mover] = m
        v = _alphabeta(
            free,
            nbr,
            slide,
            pos,
            1 - mover,
            me,
            depth - 1,
            alpha,
            beta,
            buf,
            ply + 1,
            status,
            deadline,
        )
        pos[mover] = src
        free[m] = True
        if status[1] != 0:
            return 0.0
        if maximising:
            if v > best:
                best = v
            if best >= beta:
                return best
            alpha = max(alpha, best)
        else:
            if v < best:
                best = v
            if best <= alpha:
                return best
            beta = min(beta, best)
    return best


@numba.njit
def ab_search(free, nbr, slide, pos, me, depth, buf, status, deadline):  # pragma: no cover
    """Root of one depth: the best move of ``me`` (first of equals), or -1 if aborted."""
    n = _moves(free, nbr, slide, pos[me], buf[0])
    best = -np.inf
    best_move = buf[0, 0] if n > 0 else -1
    alpha = -np.inf
    src = pos[me]
    for i in range(n):
        m = buf[0, i]
        free[m] = False
        pos[me] = m
        v = _alphabeta(
            free,
            nbr,
            slide,
            pos,
            1 - me,
            me,
            depth - 1,
            alpha,
            np.inf,
            buf,
            1,
            status,
            deadline,
        )
        pos[me] = src
        free[m] = True
        if status[1] != 0:
            return -1
        if v > best:
            best = v
            best_move = m
        alpha = max(alpha, best)
    return best_move


class ABImproved:
    """Udacity's AB_Improved baseline as an atlas bot (see the module notes).

    The first instance in a process compiles the search (about 2 s) before any move.
    """

    name = "AB_Improved"
    _compiled = False

    def __init__(self, threshold: float = TIMER_THRESHOLD) -> None:
        self.threshold = threshold
        self._nbr: dict[tuple[int, int, bool], np.ndarray] = {}
        self.last_depth = 0
        if not ABImproved._compiled:
            ABImproved._compiled = True
            for knight in (True, False):
                nbr = neighbours(3, 3, knight)
                free = np.ones(9, dtype=np.bool_)
                free[0] = free[8] = False
                ab_search(
                    free,
                    nbr,
                    not knight,
                    np.array([0, 8], dtype=np.int64),
                    0,
                    2,
                    np.zeros((11, 9), dtype=np.int64),
                    np.zeros(2, dtype=np.int64),
                    clock() + 1.0,
                )

    @gc_paused
    def move(self, state: Any, player: int, deadline: float) -> tuple[int, int]:
        """The best move of the deepest finished depth (Python's collector paused, as
        atlas's bots pause it: a full collection can take longer than the threshold)."""
        rows, cols = state.blocked.shape
        knight = state.variant == "knight"
        key = (rows, cols, knight)
        if key not in self._nbr:
            self._nbr[key] = neighbours(rows, cols, knight)
        nbr = self._nbr[key]
        free = ~state.blocked.reshape(-1)
        pos = np.array(
            [state.pos[s, 0] * cols + state.pos[s, 1] for s in (0, 1)], dtype=np.int64
        )
        buf = np.zeros((free.size + 2, free.size), dtype=np.int64)
        n = _moves(free, nbr, not knight, pos[player], buf[0])
        if n == 0:
            return (0, 0)
        best = int(buf[0, 0])
        stop = deadline - self.threshold
        status = np.zeros(2, dtype=np.int64)
        self.last_depth = 0
        for depth in range(1, int(free.sum()) + 1):
            m = ab_search(free, nbr, not knight, pos, player, depth, buf, status, stop)
            if m < 0:
                break
            best = int(m)
            self.last_depth = depth
        return (best // cols, best % cols)


def knight_positions(
    n: int, seed: int, rows: int = 7, cols: int = 7
) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """``n`` distinct random pairs of first placements (seat 0's, seat 1's)."""
    rng = np.random.default_rng(seed)
    out: list[tuple[tuple[int, int], tuple[int, int]]] = []
    while len(out) < n:
        a, b = rng.choice(rows * cols, size=2, replace=False)
        pair = ((int(a) // cols, int(a) % cols), (int(b) // cols, int(b) % cols))
        if pair not in out:
            out.append(pair)
    return out


def queen_positions(
    game_map: Any, n: int, plies: int, seed: int
) -> list[list[tuple[int, int]]]:
    """``n`` distinct openings of ``plies`` random moves from the map's start (the first
    is the start itself, no moves)."""
    from atlas.sim import get_game

    game = get_game("isolation")
    rng = np.random.default_rng(seed)
    out: list[list[tuple[int, int]]] = [[]]
    tries = 0
    while len(out) < n and tries < 100 * n:
        tries += 1
        st = game.initial_state(game_map)
        moves: list[tuple[int, int]] = []
        for _ in range(plies):
            legal = game.legal_moves(st, st.to_play)
            if not legal:
                break
            m = legal[int(rng.integers(len(legal)))]
            st = game.apply(st, {st.to_play: m})
            moves.append(m)
        if game.outcome(st) is None and moves not in out:
            out.append(moves)
    return out


def _position_map(
    base: Any, placements: Sequence[tuple[int, int]] = (), moves: Sequence[tuple[int, int]] = ()
) -> Any:
    """The map whose start is ``base`` with ``placements`` as starts and ``moves`` played
    (squares left behind blocked).  Seat 0 moves first from it, so ``moves`` must be of
    even length."""
    from atlas.maps import GameMap
    from atlas.sim import get_game

    game = get_game("isolation")
    if placements:
        base = GameMap(
            "isolation", base.name, base.blocked.copy(), tuple(placements), dict(base.meta)
        )
    st = game.initial_state(base)
    for m in moves:
        st = game.apply(st, {st.to_play: m})
    starts = tuple((int(st.pos[s, 0]), int(st.pos[s, 1])) for s in (0, 1))
    blocked = st.blocked.copy()
    for r, c in starts:
        blocked[r, c] = False
    return GameMap("isolation", base.name, blocked, starts, dict(base.meta))


def play(
    game_map: Any, bots: Sequence[Any], time_limit: float, seed: int
) -> tuple[tuple[float, float], list[float]]:
    """One game through atlas's runner: the scores and each seat's slowest move."""
    from atlas.arena.runner import play_game

    record = play_game("isolation", game_map, list(bots), seed=seed, time_limit=time_limit)
    slow = [0.0, 0.0]
    for turn in record.turns:
        for seat, sec in dict(getattr(turn, "times", {}) or {}).items():
            slow[int(seat)] = max(slow[int(seat)], float(sec))
    bad = [getattr(s, "status", "ok") for s in record.statuses]
    if any(b not in ("ok", "") for b in bad):
        print(f"    failure: {bad} ({record.result.detail})", flush=True)
    return tuple(record.result.scores), slow  # type: ignore[return-value]


def _interval(points: float, n: int) -> str:
    if n == 0:
        return "-"
    p = points / n
    half = 1.96 * math.sqrt(max(p * (1 - p), 0.25 / n) / n)
    return f"{100 * p:.1f} % [{100 * max(p - half, 0):.1f}, {100 * min(p + half, 1):.1f}]"


def main(argv: Sequence[str] | None = None) -> int:
    from atlas.bots import make_bot
    from atlas.maps import read_map

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--board", default="knight7", help="map name under maps/isolation/ or a file"
    )
    ap.add_argument("-n", type=int, default=20, help="positions")
    ap.add_argument("--time", type=float, default=0.15, help="seconds a move")
    ap.add_argument("--bot", default="strong", help="atlas isolation bot")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--label-time",
        type=float,
        default=1.0,
        help="seconds a move of the AB_Improved self-play that labels knight "
        "positions won or lost (0: no labels)",
    )
    ap.add_argument("--label-cache", help="JSON file keeping the labels between runs")
    ap.add_argument(
        "--queen-plies", type=int, default=2, help="random opening moves of the queen positions"
    )
    args = ap.parse_args(argv)

    path = ROOT / "maps" / "isolation" / f"{args.board}.txt"
    base = read_map(path if path.exists() else Path(args.board), "isolation")
    free_placement = len(base.starts) == 0
    if free_placement:
        pairs = knight_positions(args.n, args.seed, *base.blocked.shape)
        maps = [_position_map(base, placements=p) for p in pairs]
        names = [f"{p[0]} {p[1]}" for p in pairs]
    else:
        openings = queen_positions(base, args.n, args.queen_plies, args.seed)
        maps = [_position_map(base, moves=o) for o in openings]
        names = [" ".join(f"{m}" for m in o) or "start" for o in openings]
    load = " ".join(f"{x:.2f}" for x in __import__("os").getloadavg())
    print(
        f"isolation {args.board}: {args.bot} vs AB_Improved, {len(maps)} positions x 2 "
        f"seats, {args.time:g} s a move (load average {load})",
        flush=True,
    )

    labels: list[int] = []
    if free_placement and args.label_time > 0:
        known: dict[str, int] = {}
        cache = Path(args.label_cache) if args.label_cache else None
        if cache is not None and cache.exists():
            known = json.loads(cache.read_text())
        for i, m in enumerate(maps):
            key = f"{args.board} {names[i]} {args.label_time:g}"
            if key not in known:
                scores, _ = play(m, [ABImproved(), ABImproved()], args.label_time, seed=i)
                known[key] = 0 if scores[0] > scores[1] else 1
                if cache is not None:
                    cache.write_text(json.dumps(known, indent=0, sort_keys=True))
            labels.append(known[key])
    points = 0.0
    games = 0
    slow_bot = slow_ab = 0.0
    convert = [0, 0]  # won positions: wins, games
    save = [0, 0]  # lost positions: wins, games
    t0 = time.perf_counter()
    for i, m in enumerate(maps):
        row = []
        for seat in (0, 1):
            bot = make_bot("isolation", args.bot, seed=i)
            players = [bot, ABImproved()] if seat == 0 else [ABImproved(), bot]
            scores, slow = play(m, players, args.time, seed=i)
            points += scores[seat]
            games += 1
            slow_bot = max(slow_bot, slow[seat])
            slow_ab = max(slow_ab, slow[1 - seat])
            won = scores[seat] > 0.5
            row.append("W" if won else "L")
            if labels:
                tally = convert if labels[i] == seat else save
                tally[0] += won
                tally[1] += 1
        label = f", label: seat {labels[i]} wins" if labels else ""
        print(
            f"  {i:2d} {names[i]}: {args.bot} as seat 0 {row[0]}, as seat 1 {row[1]}{label}",
            flush=True,
        )
    print(f"{args.bot}: {points:g} of {games} games, {_interval(points, games)}")
    if labels:
        print(
            f"  won positions converted: {convert[0]}/{convert[1]}; "
            f"lost positions saved: {save[0]}/{save[1]} "
            f"(labels: AB_Improved self-play at {args.label_time:g} s a move)"
        )
    print(
        f"  slowest move: {args.bot} {slow_bot:.3f} s, AB_Improved {slow_ab:.3f} s; "
        f"{time.perf_counter() - t0:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
