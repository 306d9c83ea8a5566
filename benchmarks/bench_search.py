"""Search speed of the built-in bots: nodes per second, and the depth reached.

Run from the repository root::

    python benchmarks/bench_search.py                 # 0.5 s per move, 3 repeats
    python benchmarks/bench_search.py --time 1.0 --games tron
    python benchmarks/bench_search.py --json

For every searching bot and every position, the bot is asked for a move with ``--time``
seconds, through ``bot.move`` (as in a game: the bot keeps its own safety margin), and
the nodes it reports are divided by the wall time the call took.  Positions: each
bundled map's start (isolation: after the placements on a free-placement board) and a
middle-game position reached by ``--plies`` seeded random moves of every seat (tron:
wall-hugger moves, since random cycles crash at once; connect5: the middle game only,
its first move being the centre column without a search).  Each figure is the median of
``--repeats`` calls; the kernels are loaded before timing.

What a node is differs by bot: the tron searches count the frames where the bot picks
its own move (one per turn of the game tree, the opponent's replies not counted), the
isolation and connect5 searches count every node of the negamax.  The connect5 seed bot
(``window4``) searches to a fixed depth and reports no node count.  Far from its
opponent, ``chambers`` spends half its time on the search and the rest on rollouts
(noted in the output): its rate there is the search's nodes over the whole move.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from atlas.bots import make_bot  # noqa: E402
from atlas.maps import find_maps, read_map  # noqa: E402
from atlas.sim import get_game  # noqa: E402

__all__ = ["SEARCH_BOTS", "positions", "measure", "main"]

#: The bots that search, by game.
SEARCH_BOTS = {
    "tron": ("voronoi", "chambers", "frontline"),
    "isolation": ("phased", "strong"),
    "connect5": ("strong",),
}


def _nodes(bot: Any) -> tuple[int, int | None]:
    """Nodes and depth of the bot's last move (tron bots: ``last_info``)."""
    info = getattr(bot, "last_info", None)
    if isinstance(info, dict) and "nodes" in info:
        return int(info.get("nodes", 0)), info.get("depth")
    # None: the move was not searched (a tron bot filling its own room, say)
    return int(getattr(bot, "last_nodes", None) or 0), getattr(bot, "last_depth", None)


def positions(game: str, plies: int, seed: int) -> list[tuple[str, Any, Any]]:
    """``(label, map, state)``: each bundled map's start and a middle-game position."""
    g = get_game(game)
    out = []
    for path in find_maps(ROOT / "maps" / game):
        game_map = read_map(path, game)
        state = g.initial_state(game_map)
        rng = np.random.default_rng(seed)
        filler = make_bot("tron", "wallhugger", seed=seed) if game == "tron" else None
        # Free placement: place both pieces first, the start is the position after it.
        while game == "isolation" and g.outcome(state) is None and (state.pos < 0).any():
            state = g.apply(state, {p: g.random_move(state, p, rng) for p in g.to_move(state)})
        if game != "connect5":  # connect5's first move is the centre, not searched
            out.append((f"{path.stem} start", game_map, state))
        mid = state
        for _ in range(plies):
            if g.outcome(mid) is not None:
                break
            movers = g.to_move(mid)
            if filler is not None:
                moves = {
                    p: filler.move(mid.copy(), p, time.perf_counter() + 1.0) for p in movers
                }
            else:
                moves = {p: g.random_move(mid, p, rng) for p in movers}
            nxt = g.apply(mid, moves)
            if g.outcome(nxt) is not None:
                break
            mid = nxt
        if mid is not state:
            out.append((f"{path.stem} ply {plies}", game_map, mid))
    return out


def measure(
    game: str, bot_name: str, game_map: Any, state: Any, seconds: float, repeats: int
) -> dict[str, Any]:
    """Median nodes per second (and depth) of ``bot_name`` thinking on ``state``."""
    g = get_game(game)
    player = g.to_move(state)[0]
    bot = make_bot(game, bot_name, seed=1)
    if hasattr(bot, "start"):
        bot.start(game_map, {}, player)
    rates, depths, nodes, notes = [], [], [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        bot.move(state.copy(), player, t0 + seconds)
        spent = time.perf_counter() - t0
        n, d = _nodes(bot)
        nodes.append(n)
        rates.append(n / spent if spent > 0 else 0.0)
        depths.append(d)
        info = getattr(bot, "last_info", None)
        if isinstance(info, dict) and "rollout" in info:
            notes.append(f"then {info.get('rollouts', 0)} rollouts")
    return {
        "nodes_per_s": statistics.median(rates),
        "nodes": statistics.median(nodes),
        "depth": depths[len(depths) // 2],
        "note": notes[-1] if notes else "",
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", nargs="+", default=list(SEARCH_BOTS), choices=list(SEARCH_BOTS))
    ap.add_argument("--time", type=float, default=0.5, help="seconds per move")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--plies", type=int, default=12, help="moves to the middle-game position")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", action="store_true", help="print one JSON document")
    args = ap.parse_args(argv)

    rows = []
    for game in args.games:
        for label, game_map, state in positions(game, args.plies, args.seed):
            for bot_name in SEARCH_BOTS[game]:
                r = measure(game, bot_name, game_map, state, args.time, args.repeats)
                rows.append({"game": game, "position": label, "bot": bot_name, **r})
                if not args.json:
                    print(
                        f"{game:<10} {label:<18} {bot_name:<10} "
                        f"{r['nodes_per_s']:>12,.0f} nodes/s  depth {r['depth']}"
                        f"{'  (' + r['note'] + ')' if r['note'] else ''}",
                        flush=True,
                    )
    if args.json:
        print(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
