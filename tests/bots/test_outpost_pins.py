"""The Outpost bots plan as they did: the same steps and disbands on seeded positions.

``outpost_pins.json`` (next to this module) holds, for positions reached by seeded
random turns on small boards and on ``maps/outpost/delta.txt``, the moves each Outpost
bot answered with no clock to stop it, for every empire, and its disband choice when a
season asks for one.  The figures were computed by atlas at commit 6156980, before the
bots' kernels were fed NamedTuples of arrays (:class:`atlas.games.outpost.rules.kernels.Position`);
any change to what a bot scores changes a move here.

``python tests/bots/test_outpost_pins.py`` writes the file again (only to pin a
deliberate change of play).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

PINS = Path(__file__).resolve().parent / "outpost_pins.json"
ROOT = Path(__file__).resolve().parents[2]
BOTS = ("greedy", "balanced", "defender", "planner")
#: (map: "small-SEED" or a file under maps/outpost, params, turns of random play, seed)
CASES = [
    ("small-0", {"r": 3, "L": 6, "W": 2, "T": 60}, 12, 1),
    ("small-0", {"r": 2, "L": 6, "W": 2, "T": 60}, 25, 2),
    ("small-3", {"r": 3, "L": 4, "W": 3, "T": 60}, 38, 3),
    ("delta", {"T": 60}, 15, 4),
]
NEVER = 1e9


def _small_map(seed: int) -> Any:
    from atlas.maps import GameMap

    rng = np.random.default_rng(seed)
    quarter = np.zeros((12, 12), bool)
    for _ in range(4):
        r, c = rng.integers(2, 10, 2)
        quarter[r - 1 : r + 2, c - 1 : c + 1] = True
    quarter[:2, :2] = False
    water = np.zeros((24, 24), bool)
    water[:12, :12] = quarter
    for _ in range(3):
        water |= np.rot90(water)
    return GameMap("outpost", f"small-{seed}", water)


def position(index: int) -> Any:
    """The position of case ``index``: seeded random turns from the start."""
    from atlas.maps import read_map
    from atlas.sim import get_game

    name, params, turns, seed = CASES[index]
    if name.startswith("small-"):
        game_map = _small_map(int(name.split("-")[1]))
    else:
        game_map = read_map(ROOT / "maps" / "outpost" / f"{name}.txt", "outpost")
    game = get_game("outpost")
    state = game.initial_state(game_map, params)
    rng = np.random.default_rng(seed)
    for _ in range(turns):
        moves = {p: game.random_move(state, p, rng) for p in game.to_move(state)}
        nxt = game.apply(state, moves)
        if game.outcome(nxt) is not None:
            break
        state = nxt
    return state


def _plain(move: Any) -> Any:
    if isinstance(move, (int, np.integer)):
        return int(move)
    return [[int(i), [int(r), int(c)]] for i, (r, c) in move]


def answers(index: int, bot_name: str) -> dict[str, Any]:
    """The bot's moves for every empire, and its disband choice for every empire with
    two outposts or more."""
    from atlas.bots import make_bot

    state = position(index)
    out: dict[str, Any] = {}
    for player in range(4):
        bot = make_bot("outpost", bot_name, seed=5)
        out[f"move{player}"] = _plain(
            bot.move(state.copy(), player, time.perf_counter() + NEVER)
        )
        if state.num_outposts(player) >= 2:
            pending = state.copy()
            pending.pending = tuple(p == player for p in range(4))
            choice = bot.move(pending, player, time.perf_counter() + NEVER)
            out[f"disband{player}"] = _plain(choice)
    return out


_PINNED = json.loads(PINS.read_text()) if PINS.exists() else {}


@pytest.mark.parametrize("bot_name", BOTS)
@pytest.mark.parametrize("index", range(len(CASES)))
def test_outpost_bot_answers_as_pinned(index, bot_name):
    assert answers(index, bot_name) == _PINNED[f"{index}"][bot_name]


def test_pins_have_moves_and_disbands():
    moved = sum(
        1 for case in _PINNED.values() for bot in case.values() for k, v in bot.items() if v
    )
    disbands = sum(
        1 for case in _PINNED.values() for bot in case.values() for k in bot if "disband" in k
    )
    assert moved >= 40 and disbands >= 16


def _write() -> None:  # pragma: no cover - run by hand
    out = {f"{i}": {b: answers(i, b) for b in BOTS} for i in range(len(CASES))}
    PINS.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":  # pragma: no cover
    sys.path.insert(0, str(ROOT))
    _write()
