"""Games per second with random bots, per game.

Run from the repository root::

    python benchmarks/bench_games.py            # all games, medians of 3 runs
    python benchmarks/bench_games.py --json     # one JSON document
    python benchmarks/bench_games.py --calls    # microseconds per call of the interface

The engine as the tournament drives it: ``GAME.apply`` with one
:class:`atlas.bots.random.RandomBot` per seat, until ``GAME.outcome`` is set, in this
process: no subprocesses, one core.

Each figure is the median of ``--repeats`` runs of at least ``--seconds`` seconds (CPU
time of this process); compilation is paid before timing (one game is played first).

``--calls`` times each call the runner makes instead (a state's ``copy``, ``to_move``,
``legal_moves``, ``apply``, ``outcome``, a random bot's ``move``) over the positions of
a seeded random game, best of 7 ``timeit`` runs: a game's length and the machine's other
work move games per second by up to 2x between runs on a shared machine, the best of
several timings of the same calls by a few per cent, so two checkouts compared this way
(run in each, alternating) can show a 5 % difference.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import timeit
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from atlas.bots.random import RandomBot  # noqa: E402
from atlas.maps import GameMap, find_maps, read_map  # noqa: E402
from atlas.sim import game_names, get_game  # noqa: E402

__all__ = ["python_games_per_second", "main"]


def _maps(game: str) -> list[GameMap]:
    """The benchmark maps of ``game``: tron's 15x15 and 25x25 rooms, else the first two."""
    files = find_maps(ROOT / "maps" / game)
    maps = [read_map(p, game) for p in files]
    if game == "tron":
        chosen = [m for m in maps if m.shape in ((15, 15), (25, 25))]
        by_size: dict[tuple[int, int], GameMap] = {}
        for m in chosen:
            by_size.setdefault(m.shape, m)
        return [by_size[k] for k in sorted(by_size)]
    return maps[:2]


def _play_one(game_name: str, game_map: GameMap, seed: int) -> int:
    game = get_game(game_name)
    state = game.initial_state(game_map)
    bots = [RandomBot(game_name, seed * 16 + p) for p in range(game.info.num_players)]
    turns = 0
    while game.outcome(state) is None:
        moves = {p: bots[p].move(state, p, float("inf")) for p in game.to_move(state)}
        state = game.apply(state, moves)
        turns += 1
    return turns


def python_games_per_second(
    game_name: str, game_map: GameMap, seconds: float, repeats: int
) -> dict[str, Any]:
    """Median games/s (and turns/s) of random games through the Python interface."""
    rates, turn_rates = [], []
    _play_one(game_name, game_map, 10**6)  # compile and load the kernels untimed
    seed = 0
    for _ in range(repeats):
        games = turns = 0
        start = time.process_time()
        while True:
            turns += _play_one(game_name, game_map, seed)
            seed += 1
            games += 1
            elapsed = time.process_time() - start
            if elapsed >= seconds:
                break
        rates.append(games / elapsed)
        turn_rates.append(turns / elapsed)
    return {
        "game": game_name,
        "map": game_map.name,
        "size": list(game_map.shape),
        "engine": "python",
        "games_per_s": statistics.median(rates),
        "turns_per_s": statistics.median(turn_rates),
    }


def call_times(game_name: str, game_map: GameMap, positions: int = 24) -> dict[str, Any]:
    """Microseconds per call of the game interface (best of 7 ``timeit`` runs), each call
    made once on each of up to ``positions`` positions of a seeded random game."""
    game = get_game(game_name)
    bots = [RandomBot(game_name, p) for p in range(game.info.num_players)]
    states = [game.initial_state(game_map)]
    while game.outcome(states[-1]) is None:
        state = states[-1]
        states.append(
            game.apply(
                state, {p: bots[p].move(state, p, float("inf")) for p in game.to_move(state)}
            )
        )
    step = max(1, (len(states) - 1) // positions)
    sample = [s for s in states[:-1:step] if game.to_move(s)][:positions]
    movers = [game.to_move(s)[0] for s in sample]
    moves = [{p: bots[p].move(s, p, float("inf")) for p in game.to_move(s)} for s in sample]
    calls = {
        "copy": lambda: [s.copy() for s in sample],
        "to_move": lambda: [game.to_move(s) for s in sample],
        "legal_moves": lambda: [game.legal_moves(s, p) for s, p in zip(sample, movers)],
        "apply": lambda: [game.apply(s, m) for s, m in zip(sample, moves)],
        "outcome": lambda: [game.outcome(s) for s in sample],
        "bot_move": lambda: [bots[p].move(s, p, float("inf")) for s, p in zip(sample, movers)],
    }
    row: dict[str, Any] = {"game": game_name, "map": game_map.name, "positions": len(sample)}
    for name, call in calls.items():
        call()
        number = max(1, 2000 // len(sample))
        best = min(timeit.repeat(call, number=number, repeat=7))
        row[name] = best / (number * len(sample)) * 1e6
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="per run (CPU time)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--games", nargs="+", default=None, help="games to measure")
    parser.add_argument(
        "--maps",
        nargs="+",
        default=None,
        metavar="FILE",
        help="map files to use instead of the repository's (game from the file)",
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--calls", action="store_true", help="microseconds per call of the game interface"
    )
    args = parser.parse_args(argv)
    names = args.games or list(game_names())
    chosen = [read_map(p) for p in args.maps] if args.maps else None
    rows = []
    for name in names:
        maps = [m for m in chosen if m.game == name] if chosen else _maps(name)
        for game_map in maps:
            if args.calls:
                rows.append(call_times(name, game_map))
            else:
                rows.append(python_games_per_second(name, game_map, args.seconds, args.repeats))
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    if args.calls:
        names = ("copy", "to_move", "legal_moves", "apply", "outcome", "bot_move")
        print(
            f"{'game':10} {'map':12} " + " ".join(f"{n:>11}" for n in names) + "  (us a call)"
        )
        for r in rows:
            print(f"{r['game']:10} {r['map']:12} " + " ".join(f"{r[n]:>11.2f}" for n in names))
        return 0
    print(f"{'game':10} {'map':12} {'size':7} {'games/s':>10} {'turns/s':>10}")
    for r in rows:
        size = f"{r['size'][1]}x{r['size'][0]}"
        print(
            f"{r['game']:10} {r['map']:12} {size:7} {r['games_per_s']:>10.1f} "
            f"{r['turns_per_s']:>10.0f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
