"""The built-in Outpost bots: three heuristics over the influence kernels, the simpler
rungs, and a planner (coverage targets, coordinated outposts, a lookahead over the
seasons, defence of the supply lines)."""

__all__ = ["BOTS", "ABOUT"]

#: Bot name -> ``"module:factory"``, from the simplest (see :mod:`atlas.bots.registry`).
BOTS = {
    "random": "atlas.bots.random:RandomBot",
    "greedy": "atlas.bots.outpost.heuristic:GreedyOutpostBot",
    "balanced": "atlas.bots.outpost.heuristic:BalancedOutpostBot",
    "defender": "atlas.bots.outpost.heuristic:DefenderOutpostBot",
    "planner": "atlas.bots.outpost.planner:PlannerOutpostBot",
}

#: What each bot does, and its files (see :mod:`atlas.bots.registry`).
ABOUT = {
    "greedy": (
        (
            "each outpost in turn takes the step that most improves territory (land + "
            "water), never one that breaks a supply line of its own"
        ),
        ("outpost/heuristic.py",),
    ),
    "balanced": (
        (
            "the same climb on what the empire can afford against L and W, the scarce "
            "resource first"
        ),
        ("outpost/heuristic.py",),
    ),
    "defender": (
        "territory, plus cutting enemy supply lines, a guard near home",
        ("outpost/heuristic.py",),
    ),
    "planner": (
        (
            "coverage targets, outposts assigned to distinct targets, a lookahead over the "
            "coming seasons, moves checked against supply-line cuts"
        ),
        ("outpost/planner.py", "outpost/plan_kernels.py"),
    ),
}
