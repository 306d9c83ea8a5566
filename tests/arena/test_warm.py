"""Warming the bots before a game: on a first run (numba's cache empty), ``atlas play``
compiles the second seat's bot in a worker process while it compiles the first's, and
a part of the first bot that warms apart (tron's endgame) or a bot that shares no
kernel with the rules (Outpost's planner) goes to the worker too; with a warm cache,
or one bot that warms as a whole, it starts no process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from atlas.arena import warm

ROOT = Path(__file__).resolve().parents[2]
TINY = "7 4\n#######\n#1    #\n#    2#\n#######\n"

SCRIPT = """
import sys
from atlas.arena.warm import warm_up_cold
bots = sys.argv[2:]
first = warm_up_cold("tron", sys.argv[1], "tiny", bots, {})
again = warm_up_cold("tron", sys.argv[1], "tiny", bots, {})
print(first, again)
"""


@pytest.mark.parametrize(
    "bots",
    [
        ["random", "wallhugger"],  # the worker warms wallhugger, this process random
        ["wallhugger", "wallhugger"],  # one bot: its endgame part goes to either
    ],
)
def test_a_cold_cache_is_warmed_on_two_cores(tmp_path, bots):
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["ATLAS_CACHE_DIR"] = str(tmp_path / "cache")
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, TINY, *bots],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    # the first call warmed (with two bots, this process the random bot, which
    # compiles nothing, and the worker wallhugger; with one, its parts shared); the
    # second found the cache filled, and started nothing
    assert done.stdout.split() == ["True", "False"]
    names = {p.name.split("-")[0] for p in (tmp_path / "cache").rglob("*.nbi")}
    assert "fill.filler_move" in names  # wallhugger's kernel, in numba's cache


def test_nothing_is_started_for_one_bot_or_a_warm_cache(monkeypatch):
    started: list[str] = []

    class Refused:
        def __init__(self, *args, **kwargs):
            started.append("a process")
            raise AssertionError("no process is started")

    monkeypatch.setattr(warm, "_cache_is_empty", lambda: True)
    monkeypatch.setattr(
        "atlas.arena.pool.pool_context", lambda: type("C", (), {"Process": Refused})
    )
    # one built-in bot that warms as a whole (a program and an unknown name are not
    # warmed), or one such bot twice
    c5 = "7 6\n"
    assert not warm.warm_up_cold("connect5", c5, "tiny", ["window4", "cmd:./bot"], {})
    assert not warm.warm_up_cold("connect5", c5, "tiny", ["window4", "window4"], {})
    assert not warm.warm_up_cold("connect5", c5, "tiny", ["window4", "nosuchbot"], {})
    assert not warm.warm_up_cold("tron", TINY, "tiny", ["cmd:./bot", "nosuchbot"], {})
    monkeypatch.setattr(warm, "_cache_is_empty", lambda: False)
    assert not warm.warm_up_cold("tron", TINY, "tiny", ["wallhugger", "voronoi"], {})
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    monkeypatch.setattr(warm, "_cache_is_empty", lambda: True)
    assert not warm.warm_up_cold("tron", TINY, "tiny", ["wallhugger", "voronoi"], {})
    assert started == []


def _record_warm_boards(monkeypatch) -> list[tuple[str, str]]:
    """Each tiny board a tron bot warms up on, as ``(bot, part)``, in order; the tron
    bots' warm-ups as in a fresh process (every class not warmed yet)."""
    from atlas.games.tron.bots import common
    from atlas.games.tron.bots.apex import ApexBot
    from atlas.games.tron.bots.voronoi import VoronoiBot

    parts = {(5, 6): "endgame", (3, 12): "far", (4, 4): "search"}
    seen: list[tuple[str, str]] = []

    def choose(self, grid, me, opp, ws, stop):
        seen.append((self.name, parts.get((ws.height, ws.width), "game")))
        return 1

    monkeypatch.setattr(common, "_WARM", {})
    for cls in (ApexBot, VoronoiBot):
        monkeypatch.setattr(cls, "choose", choose)
    return seen


def test_the_first_seat_warms_its_parts_last_first_while_the_worker_warms_the_others(
    monkeypatch,
):
    """On two cores the worker compiles the other seats' bots from the first part of
    their warm-up (the endgame's kernels, which tron's bots share) while this process
    compiles the first seat's from its last part back: each shared kernel is compiled
    by one of them, and the other loads it from numba's cache."""
    seen = _record_warm_boards(monkeypatch)
    children: list[tuple] = []

    class Worker:  # stands in for the worker process: records what it is given
        def __init__(self, target, args, name, daemon):
            children.append((target, args))

        def start(self):
            pass

        def join(self, timeout=None):
            pass

        def is_alive(self):
            return False

    _fake_pool(monkeypatch, Worker)
    assert warm.warm_up_cold("tron", TINY, "tiny", ["apex", "voronoi"], {})
    # the later parts, a move on the map, then the endgame (the stand-in never asks)
    assert seen[:4] == [
        ("apex", "search"),
        ("apex", "far"),
        ("apex", "game"),
        ("apex", "endgame"),
    ]
    [(target, args)] = children
    assert target is warm._warm_child and args[3] == ["voronoi"] and args[5] == "apex"
    # the worker's bots, made outside the block, go through their parts in their order
    seen.clear()
    warm.warm_bots("tron", TINY, "tiny", ["voronoi"], {})
    assert seen[:3] == [("voronoi", "endgame"), ("voronoi", "far"), ("voronoi", "search")]


def _fake_pool(monkeypatch, worker: type) -> None:
    """A cold cache on two cores, with ``worker`` standing in for the worker process."""
    import multiprocessing

    monkeypatch.setattr(warm, "_cache_is_empty", lambda: True)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    context = type("C", (), {"Process": worker, "Value": staticmethod(multiprocessing.Value)})
    monkeypatch.setattr("atlas.arena.pool.pool_context", lambda: context)


def _worker_doing(work):
    """A stand-in for the worker process that runs ``work(args)`` when joined."""

    class Worker:
        def __init__(self, target, args, name, daemon):
            self.args = args

        def start(self):
            pass

        def join(self, timeout=None):
            work(self.args)

        def is_alive(self):
            return False

    return Worker


def test_one_bot_leaves_its_endgame_to_the_worker_when_the_worker_is_free_first(
    monkeypatch,
):
    """A tron bot alone (both seats) still warms on two cores: its endgame's kernels,
    the first part of its warm-up and its own, go to whichever process is free first.
    When the worker takes them, this process warms the later parts, then, the worker
    done, goes through every part (loading the endgame from numba's cache) before the
    game; the bot then counts itself warmed."""
    from atlas.games.tron.bots import common

    seen = _record_warm_boards(monkeypatch)
    worker_parts: list[list[tuple[str, str]]] = []

    def in_the_worker(args):  # the worker asked first: it takes the endgame
        game, text, name, others, params, first, claim, elsewhere = args
        assert (others, first, elsewhere) == ([], "apex", False) and claim.value == 0
        mark = len(seen)
        warm._warm_child(game, text, name, others, params, first, claim)
        worker_parts.append(seen[mark:])
        assert claim.value == 1

    class Early(_worker_doing(lambda args: None)):  # claims as it starts
        def start(self):
            in_the_worker(self.args)

    _fake_pool(monkeypatch, Early)
    assert warm.warm_up_cold("tron", TINY, "tiny", ["apex", "apex"], {})
    # the worker's part: the endgame alone, the bot made and started, asked no move;
    # then this process: the later parts and a move on the map, and, the worker done,
    # every part (the endgame loaded) and a move with no time to think
    assert worker_parts == [[("apex", "endgame")]]
    assert seen == [
        ("apex", "endgame"),
        ("apex", "search"),
        ("apex", "far"),
        ("apex", "game"),
        ("apex", "endgame"),
        ("apex", "far"),
        ("apex", "search"),
        ("apex", "game"),
    ]
    assert common._WARM.get("ApexBot")


def test_this_process_takes_the_endgame_when_it_is_free_first(monkeypatch):
    """The worker still busy with the other seats' bots when this process is done with
    its later parts: this process warms the first bot's endgame itself, and the
    worker, asking after it, does not."""
    seen = _record_warm_boards(monkeypatch)
    asked: list[bool] = []

    def late(args):  # the worker asks once this process has taken it
        asked.append(warm._claimed(args[6]))

    _fake_pool(monkeypatch, _worker_doing(late))
    assert warm.warm_up_cold("tron", TINY, "tiny", ["apex", "voronoi"], {})
    assert asked == [False]
    assert seen[:4] == [
        ("apex", "search"),
        ("apex", "far"),
        ("apex", "game"),
        ("apex", "endgame"),
    ]


def test_a_planner_in_every_seat_compiles_in_the_worker_while_the_rules_compile_here(
    monkeypatch,
):
    """Outpost's planner shares no kernel with the game's rules: with the planner in
    every seat, the worker warms it whole while this process makes the game's first
    state (compiling the turn kernel), then this process loads the planner."""
    calls: list[tuple] = []
    monkeypatch.setattr(warm, "_rules_on", lambda *a: calls.append(("rules", a[0])))
    monkeypatch.setattr(
        warm,
        "_warm_on",
        lambda game, text, name, names, params, seconds, rules_elsewhere=False: calls.append(
            ("warm", list(names), seconds, rules_elsewhere)
        ),
    )

    def in_the_worker(args):
        calls.append(("worker", args[3], args[5], args[6], args[7]))

    _fake_pool(monkeypatch, _worker_doing(in_the_worker))
    text = (ROOT / "maps" / "outpost" / "delta.txt").read_text()
    assert warm.warm_up_cold("outpost", text, "delta", ["planner"] * 4, {})
    assert calls == [
        ("rules", "outpost"),  # here, while the worker warms the planner
        ("worker", ["planner"], "planner", None, True),  # its first state interpreted
        ("warm", ["planner"], 0.0, False),  # then loaded, before the game
    ]
    # bots that are not alone keep the split by seats (no worker for one of them)
    calls.clear()
    assert not warm.warm_up_cold("outpost", text, "delta", ["greedy"] * 4, {})
    assert calls == []


def test_the_worker_makes_its_first_state_by_plain_python(monkeypatch):
    """The worker's bots warm on a first state made with the lazy kernels
    interpreted, so that the rules' kernels are compiled by this process alone."""
    from atlas.jit.lazy import is_interpreted
    from atlas.sim import get_game

    game = type(get_game("tron"))
    made: list[bool] = []
    original = game.initial_state

    def initial_state(self, *args, **kwargs):
        made.append(is_interpreted())
        return original(self, *args, **kwargs)

    monkeypatch.setattr(game, "initial_state", initial_state)
    warm._warm_on("tron", TINY, "tiny", [], {}, None, rules_elsewhere=True)
    warm._warm_on("tron", TINY, "tiny", [], {}, None)
    assert made == [True, False] and not is_interpreted()


def test_a_bot_that_warms_as_a_whole_goes_through_every_part_in_each_order():
    """An isolation bot's moves load its search too: nothing of it is apart, so the
    worker's ``first`` share of it is nothing and this process's ``later`` share is
    every part, last first (the order ``reversed``)."""
    from atlas.bots.warming import warm_phases, warming

    parts = ("moves", "search")
    with warming("first"):
        assert warm_phases(parts) == [] and warm_phases(parts, apart=True) == ["moves"]
    with warming("later"):
        assert warm_phases(parts) == ["search", "moves"]
        assert warm_phases(parts, apart=True) == ["search"]


def test_a_warming_block_orders_its_own_thread_alone():
    """The order is the block's, in the block's thread: bots made meanwhile by another
    thread (``atlas serve``'s) keep their own order; a wrong order is refused."""
    import threading

    import pytest

    from atlas.bots.warming import warm_phases, warming

    parts = ("endgame", "far", "search")
    seen: list[list[str]] = []
    with warming("reversed"):
        other = threading.Thread(target=lambda: seen.append(warm_phases(parts)))
        other.start()
        other.join()
        assert warm_phases(parts) == ["search", "far", "endgame"]
    assert seen == [["endgame", "far", "search"]]
    assert warm_phases(parts) == list(parts)
    with pytest.raises(ValueError, match="warm order"), warming("backwards"):  # type: ignore[arg-type]
        pass


def test_isolation_searches_warm_before_the_walk_the_bots_share_when_reversed(monkeypatch):
    """An isolation bot's warm-up moves compile the separated-board walk, which every
    isolation bot shares, before its search: the first seat's process, warming in
    reverse, warms the search alone first, and a forward warm-up never apart."""
    from atlas.bots.warming import warming
    from atlas.games.isolation.bots.strong import StrongIsolationBot

    seen: list[str] = []
    monkeypatch.setattr(StrongIsolationBot, "move", lambda self, *a: seen.append("move"))
    monkeypatch.setattr(
        StrongIsolationBot, "warm_search", lambda self, s: seen.append("search")
    )
    StrongIsolationBot().start()  # no map: both variants' 3 x 3 boards, two positions each
    assert seen == ["move"] * 4
    seen.clear()
    with warming("reversed"):
        StrongIsolationBot().start()
    assert seen == ["search", "search", "move", "move"] * 2


def test_a_strong_isolation_bot_warmed_in_reverse_plays_as_one_warmed_forward():
    """The search warmed alone leaves nothing behind: the bot's table is cleared as
    after any warm-up, and it chooses the same moves as a bot warmed in order."""
    import time

    from atlas.bots.warming import warming
    from atlas.games.isolation.bots.strong import StrongIsolationBot
    from atlas.maps import read_map
    from atlas.sim import get_game

    game_map = read_map(ROOT / "maps" / "isolation" / "queen8.txt", game="isolation")
    forward = StrongIsolationBot()
    forward.start(game_map)
    with warming("reversed"):
        backward = StrongIsolationBot()
        backward.start(game_map)
    assert not backward.tt.any() and not backward.tt_key.any()
    state = get_game("isolation").initial_state(game_map, {})
    for bot in (forward, backward):
        bot.max_depth = 3
    far = time.perf_counter() + 60
    assert forward.move(state.copy(), 0, far) == backward.move(state.copy(), 0, far)
    assert forward.last_pv == backward.last_pv and len(backward.last_pv) == 3
