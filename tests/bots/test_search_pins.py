"""The searching bots choose as they did: the same move, nodes and score at a fixed depth.

``search_pins.json`` (next to this module) holds positions of isolation, connect5 and
tron as text, and what each searching bot answered on them at a fixed depth with no
clock to stop it: the move, the nodes it counted, its score and the depth it finished.
The figures were computed by atlas at commit 6156980, before the searches shared one
alpha-beta kernel (:mod:`atlas.bots.search`), one Hopcroft-Tarjan walk and one chamber
walk (:mod:`atlas.analysis.biconnected`); any change to what a search visits or values
changes a node count or a score here.

``python tests/bots/test_search_pins.py`` writes the file again from seeded random
games (only to pin a deliberate change of play, never to make a refactoring pass).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

PINS = Path(__file__).resolve().parent / "search_pins.json"
ROOT = Path(__file__).resolve().parents[2]
#: A deadline no search reaches: the depth alone stops it.
NEVER = 1e9


def _isolation_state(entry: dict[str, Any]) -> SimpleNamespace:
    grid = np.array([list(r) for r in entry["rows"]])
    pos = np.full((2, 2), -1, np.int32)
    for p in (0, 1):
        found = np.argwhere(grid == str(p))
        if len(found):
            pos[p] = found[0]
    return SimpleNamespace(
        blocked=grid != ".",
        pos=pos,
        variant=entry["variant"],
        to_play=entry["to_play"],
        turn=0,
    )


def _connect5_state(entry: dict[str, Any]) -> SimpleNamespace:
    board = np.array([[".xo".index(ch) for ch in row] for row in entry["rows"]], np.int8)
    heights = (board != 0).sum(axis=0).astype(np.int32)
    return SimpleNamespace(
        board=board, heights=heights, inarow=entry["inarow"], to_play=entry["to_play"], turn=0
    )


def _tron_state(entry: dict[str, Any]) -> SimpleNamespace:
    grid = np.array([list(r) for r in entry["rows"]])
    heads = np.array([np.argwhere(grid == str(p + 1))[0] for p in (0, 1)], np.int32)
    return SimpleNamespace(blocked=grid != " ", heads=heads, turn=0)


def answer(game: str, entry: dict[str, Any], label: str) -> list[Any]:
    """What the bot of ``label`` (``bot@depth``, ``bot@depth/seat`` for tron) answers."""
    from atlas.bots import make_bot

    name, _, rest = label.partition("@")
    if game == "isolation":
        bot = make_bot("isolation", name.partition("-")[0], seed=1)
        bot.max_depth = int(rest)
        bot.arrays = name == "strong-arrays"  # queen boards on arrays, not bitboards
        state = _isolation_state(entry)
        move = bot.move(state, state.to_play, time.perf_counter() + NEVER)
        return [list(map(int, move)), bot.last_nodes, bot.last_score, bot.last_depth]
    if game == "connect5":
        state = _connect5_state(entry)
        if name == "window4":
            w4 = make_bot("connect5", "window4", seed=1)
            return [
                int(x) for x in w4.values(state, state.to_play, time.perf_counter() + NEVER)
            ]
        bot = make_bot("connect5", "strong", seed=1)
        bot.max_depth = int(rest)
        bits = name == "strong"
        move = bot._choose(state, state.to_play, time.perf_counter() + NEVER, bits)
        return [int(move), bot.last_nodes, bot.last_score, bot.last_depth]
    depth, _, seat = rest.partition("/")
    bot = make_bot("tron", name, seed=1)
    bot.fixed_depth = int(depth)
    move = bot.move(_tron_state(entry), int(seat), time.perf_counter() + NEVER)
    info = bot.last_info
    return [int(move), int(info["nodes"]), float(info["value"]), int(info["depth"])]


def _cases() -> list[tuple[str, int, str]]:
    if not PINS.exists():
        return []
    pins = json.loads(PINS.read_text())
    return [
        (game, i, label)
        for game, entries in pins.items()
        for i, entry in enumerate(entries)
        for label in entry["results"]
    ]


_PINNED = json.loads(PINS.read_text()) if PINS.exists() else {}


@pytest.mark.parametrize(
    "game,index,label",
    _cases(),
    ids=[
        f"{g}-{_PINNED[g][i]['map']}-{_PINNED[g][i]['plies']}-{lab}" for g, i, lab in _cases()
    ],
)
def test_search_answers_as_pinned(game, index, label):
    entry = _PINNED[game][index]
    assert answer(game, entry, label) == entry["results"][label]


def test_pins_cover_every_search():
    """Every search kernel is pinned: the bitboard and array searches of both games, the
    seed bots, and the four tron searches (whose evaluations walk the chambers)."""
    labels = {
        lab.split("@")[0]
        for entries in _PINNED.values()
        for e in entries
        for lab in e["results"]
    }
    assert labels == {
        "phased",
        "strong",
        "strong-arrays",
        "window4",
        "voronoi",
        "chambers",
        "frontline",
        "apex",
    }
    variants = {e["variant"] for e in _PINNED["isolation"]}
    sizes = {len(e["rows"]) * len(e["rows"][0]) for e in _PINNED["isolation"]}
    assert variants == {"queen", "knight"} and max(sizes) > 64 and min(sizes) <= 64
    bits = {len(e["rows"][0]) * (len(e["rows"]) + 1) for e in _PINNED["connect5"]}
    assert min(bits) <= 64 < max(bits)


# --------------------------------------------------------------------------- writer


def _play(game: str, state: Any, plies: int, rng: np.random.Generator) -> Any:
    from atlas.sim import get_game

    g = get_game(game)
    for _ in range(plies):
        nxt = g.apply(state, {p: g.random_move(state, p, rng) for p in g.to_move(state)})
        if g.outcome(nxt) is not None:
            return None
        state = nxt
    return state


def _isolation_rows(st: Any) -> list[str]:
    rows = []
    for r in range(st.blocked.shape[0]):
        row = ""
        for c in range(st.blocked.shape[1]):
            ch = "#" if st.blocked[r, c] else "."
            for p in (0, 1):
                ch = str(p) if tuple(st.pos[p]) == (r, c) else ch
            row += ch
        rows.append(row)
    return rows


def _write() -> None:  # pragma: no cover - run by hand
    from atlas.maps import GameMap, read_map
    from atlas.sim import get_game

    out: dict[str, list[dict[str, Any]]] = {"isolation": [], "connect5": [], "tron": []}
    iso = get_game("isolation")
    knight9 = GameMap(
        "isolation", "knight9", np.zeros((9, 9), bool), ((0, 0), (8, 8)), {"variant": "knight"}
    )
    maps = {
        n: read_map(ROOT / f"maps/isolation/{n}.txt", "isolation")
        for n in ("queen8", "knight7", "cross9")
    }
    maps["knight9"] = knight9
    iso_cases = [
        (
            "queen8",
            2,
            100,
            ("phased@3", "strong@4", "strong@6", "strong-arrays@3", "strong-arrays@5"),
        ),
        ("queen8", 16, 102, ("phased@5", "strong@6", "strong-arrays@5")),
        ("queen8", 30, 300, ("phased@3", "phased@5", "strong@4", "strong@6")),
        ("knight7", 0, 7, ("strong@2", "strong@3", "phased@2", "phased@3")),
        ("knight7", 1, 7, ("strong@3", "phased@3")),
        ("knight7", 8, 101, ("phased@5", "strong@6")),
        ("knight7", 14, 102, ("phased@5", "strong@6")),
        ("knight9", 10, 201, ("strong@4", "strong@6", "phased@3", "phased@5")),
        ("cross9", 0, 100, ("phased@3", "strong@4", "strong@6")),
        ("cross9", 14, 102, ("phased@5", "strong@6")),
    ]
    for name, plies, seed, labels in iso_cases:
        st = _play(
            "isolation", iso.initial_state(maps[name]), plies, np.random.default_rng(seed)
        )
        entry = {
            "map": name,
            "plies": plies,
            "rows": _isolation_rows(st),
            "variant": st.variant,
            "to_play": int(st.to_play),
            "results": {},
        }
        for label in labels:
            entry["results"][label] = answer("isolation", entry, label)
        out["isolation"].append(entry)
    c5 = get_game("connect5")
    big = GameMap("connect5", "big10x7", np.zeros((7, 10), bool), (), {"inarow": 5})
    c5_cases = [
        ("standard", 4, 400, ("strong@4", "strong@7", "strong-arrays@4", "strong-arrays@6")),
        ("standard", 10, 401, ("strong@7", "strong-arrays@6", "window4")),
        ("standard", 18, 402, ("strong@7", "strong-arrays@6", "window4")),
        ("connect4", 4, 400, ("strong@7", "strong-arrays@6", "window4")),
        ("connect4", 10, 401, ("strong@4", "strong-arrays@4")),
        ("big10x7", 12, 501, ("strong@4", "strong-arrays@6", "window4")),
    ]
    for name, plies, seed, labels in c5_cases:
        m = (
            big
            if name == "big10x7"
            else read_map(ROOT / f"maps/connect5/{name}.txt", "connect5")
        )
        st = _play("connect5", c5.initial_state(m), plies, np.random.default_rng(seed))
        entry = {
            "map": name,
            "plies": plies,
            "rows": ["".join(".xo"[v] for v in row) for row in np.asarray(st.board)],
            "inarow": int(st.inarow),
            "to_play": int(st.to_play),
            "results": {},
        }
        for label in labels:
            entry["results"][label] = answer("connect5", entry, label)
        out["connect5"].append(entry)
    from atlas.bots import make_bot

    tron = get_game("tron")
    for name, plies in (("duel", 4), ("rooms", 6), ("cross", 8), ("pillars", 10)):
        st = tron.initial_state(read_map(ROOT / f"maps/tron/{name}.txt", "tron"))
        filler = [make_bot("tron", "wallhugger", seed=s) for s in (0, 1)]
        for _ in range(plies):
            st = tron.apply(
                st,
                {
                    p: filler[p].move(st.copy(), p, time.perf_counter() + 1.0)
                    for p in tron.to_move(st)
                },
            )
        rows = []
        for r in range(st.blocked.shape[0]):
            row = ""
            for c in range(st.blocked.shape[1]):
                ch = "#" if st.blocked[r, c] else " "
                for p in (0, 1):
                    ch = str(p + 1) if tuple(st.heads[p]) == (r, c) else ch
                row += ch
            rows.append(row)
        entry = {"map": name, "plies": plies, "rows": rows, "results": {}}
        for bot_name in ("voronoi", "chambers", "frontline", "apex"):
            for label in (f"{bot_name}@2/0", f"{bot_name}@4/1"):
                entry["results"][label] = answer("tron", entry, label)
        out["tron"].append(entry)
    PINS.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":  # pragma: no cover
    sys.path.insert(0, str(ROOT))
    _write()
