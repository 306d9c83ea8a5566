"""The built-in Outpost bots: three heuristics over the influence kernels, the simpler
rungs, and a planner (coverage targets, coordinated outposts, a lookahead over the
seasons, defence of the supply lines)."""

__all__ = ["BOTS", "EFFORT", "ABOUT"]

#: Bot name -> ``"module:factory"``, from the simplest (see :mod:`atlas.bots.registry`).
BOTS = {
    "random": "atlas.bots.random:RandomBot",
    "greedy": "atlas.games.outpost.bots.heuristic:GreedyOutpostBot",
    "balanced": "atlas.games.outpost.bots.heuristic:BalancedOutpostBot",
    "defender": "atlas.games.outpost.bots.heuristic:DefenderOutpostBot",
    "planner": "atlas.games.outpost.bots.planner:PlannerOutpostBot",
}

#: Each bot's default effort per move (:attr:`atlas.bots.base.BotBase.effort`): polls
#: of its planning clock, one per outpost planned (the heuristics) or per step of the
#: planner's passes (``docs/bots.md``); ``random`` reads none.
EFFORT = {"greedy": 64, "balanced": 64, "defender": 64, "planner": 20}

#: What each bot does, and its files (see :mod:`atlas.bots.registry`).
ABOUT = {
    "greedy": (
        (
            "each outpost in turn takes the step that most improves territory (land + "
            "water), never one that breaks a supply line of its own"
        ),
        ("heuristic.py",),
    ),
    "balanced": (
        (
            "the same climb on what the empire can afford against L and W, the scarce "
            "resource first"
        ),
        ("heuristic.py",),
    ),
    "defender": (
        "territory, plus cutting enemy supply lines, a guard near home",
        ("heuristic.py",),
    ),
    "planner": (
        (
            "coverage targets, outposts assigned to distinct targets, a lookahead over the "
            "coming seasons, moves checked against supply-line cuts"
        ),
        ("planner.py", "plan_kernels.py"),
    ),
}
