"""The built-in Outpost bots: three heuristics over the influence kernels, the simpler
rungs, and a planner (coverage targets, coordinated outposts, a lookahead over the
seasons, defence of the supply lines)."""

__all__ = ["BOTS"]

#: Bot name -> ``"module:factory"``, from the simplest (see :mod:`atlas.bots.registry`).
BOTS = {
    "random": "atlas.bots.random:RandomBot",
    "greedy": "atlas.bots.outpost.heuristic:GreedyOutpostBot",
    "balanced": "atlas.bots.outpost.heuristic:BalancedOutpostBot",
    "defender": "atlas.bots.outpost.heuristic:DefenderOutpostBot",
    "planner": "atlas.bots.outpost.planner:PlannerOutpostBot",
}
