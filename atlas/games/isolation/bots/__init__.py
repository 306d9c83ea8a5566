"""The built-in isolation bots: the seed's phased alpha-beta and a stronger search."""

__all__ = ["BOTS", "EFFORT", "ABOUT"]

#: Bot name -> ``"module:factory"``, from the simplest (see :mod:`atlas.bots.registry`).
BOTS = {
    "random": "atlas.bots.random:RandomBot",
    "phased": "atlas.games.isolation.bots.phased:PhasedIsolationBot",
    "strong": "atlas.games.isolation.bots.strong:StrongIsolationBot",
}

#: Each bot's default effort per move (:attr:`atlas.bots.base.BotBase.effort`): polls
#: of its search's clock (``docs/bots.md``); ``random`` reads none.
EFFORT = {"phased": 20, "strong": 40}

#: What each bot does, and its files (see :mod:`atlas.bots.registry`).
ABOUT = {
    "phased": (
        (
            "the seed: alpha-beta with the seed's ordering, iterative deepening, quiescence"
            " on evaluation swings, three phase heuristics (moves, open area, longest "
            "path), exact walk once separated"
        ),
        ("phased.py",),
    ),
    "strong": (
        (
            "transposition table, killer and history ordering, principal-variation search, "
            "Voronoi-by-move-distance evaluation with mobility; boards of at most 64 "
            "squares on bitboards: knight boards, where ties in distance go to the side to "
            "move (this is what shows which side can chase the other), and queen boards, "
            "where the Voronoi layers are ray fills by shifts (about ten times the array "
            "search's nodes a second)"
        ),
        ("strong.py", "knight.py", "queen.py"),
    ),
}
