"""The built-in tournament of ``atlas build``: a main round for the strongest bots, a
gauntlet for the others, at the ladder's times."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from atlas.bots import bot_names
from atlas.maps import parse_map
from atlas.render.registry import render_of
from atlas.render.site.schedule import run_order, site_schedule


def _p(spec) -> tuple[str, ...]:
    """The players' names of a game spec."""
    return tuple(getattr(p, "name", p) for p in spec.players)


def _maps(n: int) -> list:
    # map k has k + 1 free cells between the walls: later maps are larger
    return [
        parse_map(
            f"{k + 4} 3\n{'#' * (k + 4)}\n#1{' ' * k}2#\n{'#' * (k + 4)}\n",
            game="tron",
            name=f"m{k:02d}",
        )
        for k in range(n)
    ]


def test_tron_plan_plays_the_searches_at_the_ladders_time():
    plan = render_of("tron").site_plan
    assert plan.time >= 0.1 and plan.top == 4 and plan.top_per_map == 1
    assert render_of("isolation").site_plan.time >= 0.05
    assert render_of("connect5").site_plan.time >= 0.05
    bots = bot_names("tron")
    assert bots[-4:] == ["voronoi", "chambers", "frontline", "apex"]
    maps = _maps(13)
    specs = site_schedule(
        "tron",
        maps,
        bots,
        top=plan.top,
        top_per_map=plan.top_per_map,
        time_limit=plan.time,
        params=plan.params,
    )
    strong = set(bots[-4:])
    main = [s for s in specs if set(_p(s)) <= strong]
    gauntlet = [s for s in specs if not set(_p(s)) <= strong]
    # one main-round game on each map
    assert sorted(s.map_name for s in main) == [m.name for m in maps]
    # every pairing of the four meets on two or three maps, every seating at least once
    pairs = Counter(frozenset(_p(s)) for s in main)
    assert set(pairs) == {frozenset(p) for p in combinations(sorted(strong), 2)}
    assert sorted(pairs.values()) == [2, 2, 2, 2, 2, 3]
    assert len({_p(s) for s in main}) == 12
    # every pairing with a simpler bot once (two simpler bots in both seats), on the
    # smallest maps first
    simple = [b for b in bots if b not in strong]
    want = Counter(frozenset(p) for p in combinations(bots, 2) if not set(p) <= strong)
    for pair in combinations(simple, 2):
        want[frozenset(pair)] += 1
    assert Counter(frozenset(_p(s)) for s in gauntlet) == want
    assert {_p(s) for s in gauntlet} >= {("random", "wallhugger"), ("wallhugger", "random")}
    assert [s.map_name for s in gauntlet] == [
        maps[j % len(maps)].name for j in range(len(gauntlet))
    ]
    assert {_p(s)[0] for s in gauntlet} > {"random"}  # seats alternate
    assert all(s.time_limit == 0.1 for s in specs)


def test_every_seating_on_every_map_without_top_per_map():
    maps = _maps(3)
    specs = site_schedule(
        "tron", maps, ["random", "a", "b"], top=2, top_per_map=None, time_limit=0.05, seeds=2
    )
    main = [s for s in specs if "random" not in _p(s)]
    assert Counter((s.map_name, _p(s)) for s in main) == Counter(
        {(m.name, p): 2 for m in maps for p in (("a", "b"), ("b", "a"))}
    )
    assert len(specs) == len(main) + 2 * 2  # random meets a and b once, two seeds each
    assert {s.seed for s in specs} == {0, 1}


def test_outpost_seatings_and_small_cases():
    from atlas.maps import parse_map as pm

    lake = pm(
        "".join(f"{x} {y}\n" for x in range(20, 30) for y in range(20, 30)),
        game="outpost",
        name="lake",
    )
    plan = render_of("outpost").site_plan
    specs = site_schedule(
        "outpost",
        [lake],
        bot_names("outpost"),
        top=plan.top,
        top_per_map=plan.top_per_map,
        time_limit=plan.time,
        params=plan.params,
        gauntlet=plan.gauntlet,
    )
    # the four strongest, planner among them, in one long game a map; no gauntlet
    assert len(specs) == 1 and sorted(_p(specs[0])) == sorted(bot_names("outpost")[-4:])
    assert "planner" in _p(specs[0]) and "random" not in _p(specs[0])
    assert specs[0].params_dict == {"T": 500}
    assert site_schedule("tron", [], ["a", "b"], top=2, top_per_map=1, time_limit=1) == []
    assert site_schedule("tron", _maps(1), ["a"], top=2, top_per_map=1, time_limit=1) == []


def test_run_order_starts_each_game_once_then_dearest_first():
    maps = _maps(4)
    specs = site_schedule("tron", maps, ["a", "b"], top=2, top_per_map=None, time_limit=0.1)
    iso = parse_map("isolation 3 3 queen\n1..\n...\n..2\n", game="isolation", name="i")
    specs += site_schedule(
        "isolation", [iso], ["a", "b"], top=2, top_per_map=None, time_limit=0.05
    )
    cost = {s.key: (10.0 if s.game == "tron" else 1.0) * (i + 1) for i, s in enumerate(specs)}
    order = run_order(specs, cost)
    assert sorted(order) == list(range(len(specs)))
    assert [specs[i].game for i in order[:2]] == ["isolation", "tron"] or [
        specs[i].game for i in order[:2]
    ] == ["tron", "isolation"]
    rest = [cost[specs[i].key] for i in order[2:]]
    assert rest == sorted(rest, reverse=True)


def test_warm_bots_asks_each_bot_once_and_never_fails():
    import time

    from atlas.render.site.tournament import WARM_UP_MOVE, warm_bots

    text = "7 5\n#######\n#1    #\n#  #  #\n#    2#\n#######\n"
    t = time.perf_counter()
    spent = warm_bots("tron", text, "box", ["random", "wallhugger", "no-such-bot"], {})
    assert 0 <= spent <= time.perf_counter() - t
    # a searching bot stops at the warm-up's short deadline (compiling aside)
    assert WARM_UP_MOVE <= 0.5
    assert warm_bots("tron", "not a map", "bad", ["random"], {}) >= 0


def test_warm_bots_warms_on_the_other_maps_briefly(monkeypatch):
    """A bot may take other kernels on another kind of board (isolation's queen boards
    against its knight boards): the build warms each bot on every map its games are
    played on, the smallest first at the warm-up's move, the others at a short one."""
    import time
    from pathlib import Path

    import atlas.bots.registry as registry
    from atlas.arena.warm import OTHER_MAP_MOVE, WARM_UP_MOVE
    from atlas.render.site.analysis import load_maps
    from atlas.render.site.cache import Cache
    from atlas.render.site.tournament import plan_tournament, warm_bots

    root = Path(__file__).resolve().parents[2] / "maps"
    entries = [e for e in load_maps(root) if e.game == "isolation"]
    plan = plan_tournament(
        entries,
        games_per=1,
        cache=Cache(None),
        version={"game": "v"},
        bots={"isolation": ["random", "strong"]},
        time_limit=None,
        game_filter=None,
    )
    text, name, bots, params, others = plan.warm["isolation"]
    assert (name, bots) == ("knight7", ["random", "strong"])  # 49 squares, the smallest
    assert [n for _, n in others] == ["queen8", "cross9"]
    assert text.startswith("isolation 7 7 knight")

    asked = []

    class Bot:
        def __init__(self, name):
            self.name = name

        def start(self, game_map, params, seat):
            self.map = game_map.name

        def move(self, state, seat, deadline):
            asked.append((self.name, self.map, deadline - time.perf_counter()))

        def close(self):
            pass

    monkeypatch.setattr(registry, "make_bot", lambda game, name, seed: Bot(name))
    warm_bots("isolation", text, name, bots, params, others)
    assert [(b, m) for b, m, _ in asked] == [
        (b, m) for m in ("knight7", "queen8", "cross9") for b in ("random", "strong")
    ]
    assert all(0 < s <= WARM_UP_MOVE for _, m, s in asked if m == "knight7")
    assert all(s <= OTHER_MAP_MOVE for _, m, s in asked if m != "knight7")


def test_the_fairness_games_seat_the_games_fairness_bot_or_else_the_strongest():
    """``atlas build --fairness N``: Outpost's fairness games seat ``defender`` in
    every seat (its ``SitePlan.fairness_bot``: 2 s a 500-turn game where ``planner``
    takes 18 s); a game without one, or a build whose bots lack it, seats the strongest
    of the build's bots."""
    from pathlib import Path

    from atlas.render.site.analysis import load_maps
    from atlas.render.site.cache import Cache
    from atlas.render.site.tournament import plan_tournament

    root = Path(__file__).resolve().parents[2] / "maps"
    entries = [e for e in load_maps(root) if e.name in ("delta", "duel")]
    assert render_of("outpost").site_plan.fairness_bot == "defender"
    assert render_of("tron").site_plan.fairness_bot is None

    def judges(bots):
        plan = plan_tournament(
            entries,
            games_per=0,
            cache=Cache(None),
            version={"game": "v"},
            bots=bots,
            time_limit=None,
            game_filter=None,
            fairness=2,
        )
        return Counter((s.game, _p(s)) for i, s in enumerate(plan.specs) if i in plan.fairness)

    seated = judges(None)  # every built-in bot
    assert seated == {
        ("outpost", ("defender",) * 4): 2,
        ("tron", ("apex", "apex")): 2,
    }
    seated = judges({"outpost": ["greedy", "planner"], "tron": ["random", "voronoi"]})
    assert seated == {("outpost", ("planner",) * 4): 2, ("tron", ("voronoi", "voronoi")): 2}
