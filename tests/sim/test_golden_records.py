"""The same seeds give the same games: records saved before a refactoring, replayed now.

``tests/sim/golden/*.json.gz`` were written by this module (``python
tests/sim/test_golden_records.py``) before the code was reorganised into one home per
game and an arena layer.  Each is played again here with the same map, bots, parameters
and seed; the moves, the result, the statuses and the final position must be the same
(answer times are the clock's and are left out).  Bots whose play does not depend on the
clock take part: the seeded random bots, the greedy tron filler and fixed-depth searches.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"

#: (file stem, game, map file under maps/, players, params, seed, fixed depths per seat)
CASES: list[tuple[str, str, str, tuple[str, ...], dict[str, Any], int, tuple[int, ...]]] = [
    ("tron-duel-random", "tron", "tron/duel.txt", ("random", "random"), {}, 3, ()),
    (
        "tron-rooms-random-official",
        "tron",
        "tron/rooms.txt",
        ("random", "random"),
        {"compat": "official"},
        5,
        (),
    ),
    ("tron-arena-wallhugger", "tron", "tron/arena.txt", ("wallhugger", "random"), {}, 1, ()),
    (
        "tron-cross-voronoi-chambers",
        "tron",
        "tron/cross.txt",
        ("voronoi", "chambers"),
        {},
        0,
        (2, 2),
    ),
    (
        "isolation-queen8-random",
        "isolation",
        "isolation/queen8.txt",
        ("random", "random"),
        {},
        2,
        (),
    ),
    (
        "isolation-knight7-random",
        "isolation",
        "isolation/knight7.txt",
        ("random", "random"),
        {},
        4,
        (),
    ),
    (
        "connect5-standard-random",
        "connect5",
        "connect5/standard.txt",
        ("random", "random"),
        {},
        6,
        (),
    ),
    (
        "connect5-connect4-random",
        "connect5",
        "connect5/connect4.txt",
        ("random", "random"),
        {},
        7,
        (),
    ),
    ("outpost-lakes-random", "outpost", "outpost/lakes.txt", ("random",) * 4, {"T": 60}, 8, ()),
    (
        "outpost-delta-random-official",
        "outpost",
        "outpost/delta.txt",
        ("random",) * 4,
        {"T": 45, "compat": "official"},
        9,
        (),
    ),
]


def _play(case: tuple[Any, ...]) -> Any:
    from atlas.maps import read_map

    try:
        from atlas.arena.runner import bot_seed, play_game
        from atlas.bots.registry import make_bot
    except ImportError:  # the layout these records were written with
        from atlas.arena.runner import bot_seed, play_game
        from atlas.bots import make_bot
    _, game, map_file, players, params, seed, depths = case
    seats: list[Any] = list(players)
    for seat, depth in enumerate(depths):
        if depth:
            bot = make_bot(game, players[seat], bot_seed(seed, seat))
            bot.fixed_depth = depth
            seats[seat] = bot
    return play_game(
        game,
        read_map(ROOT / "maps" / map_file, game),
        seats,
        params=params or None,
        seed=seed,
        time_limit=5.0,
    )


def _essence(data: dict[str, Any]) -> dict[str, Any]:
    """What must not change: everything but answer times, stderr and the timestamp."""
    keep = {k: v for k, v in data.items() if k not in ("stderr", "created")}
    keep["turns"] = [t["moves"] for t in data["turns"]]
    return keep


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_the_same_seed_plays_the_same_game(case):
    from atlas.sim.records import load_record

    saved = load_record(GOLDEN / f"{case[0]}.json.gz")
    now = _play(case)
    assert _essence(now.to_json()) == _essence(saved.to_json())
    assert len(saved.turns) > 5


def _write_all() -> None:
    from atlas.sim.records import save_record

    GOLDEN.mkdir(exist_ok=True)
    for case in CASES:
        record = _play(case)
        save_record(record, GOLDEN / f"{case[0]}.json.gz")
        print(case[0], len(record.turns), record.result.reason)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    _write_all()
