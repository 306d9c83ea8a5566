"""The built-in tron bots: a greedy filler and four searches on Voronoi territory."""

__all__ = ["BOTS", "EFFORT", "ABOUT", "SERVED"]

#: Bot name -> ``"module:factory"``, from the simplest (see :mod:`atlas.bots.registry`).
BOTS = {
    "random": "atlas.bots.random:RandomBot",
    "wallhugger": "atlas.games.tron.bots.wallhugger:WallHugger",
    "voronoi": "atlas.games.tron.bots.voronoi:VoronoiBot",
    "chambers": "atlas.games.tron.bots.chambers:ChambersBot",
    "frontline": "atlas.games.tron.bots.frontline:FrontlineBot",
    "apex": "atlas.games.tron.bots.apex:ApexBot",
}

#: Each bot's default effort per move (:attr:`atlas.bots.base.BotBase.effort`): polls
#: of its search's clock, what ``atlas build`` and ``atlas play`` give built-in bots
#: unless ``--time`` asks for the clock (``docs/bots.md`` gives the nodes of a poll and
#: the time of a move).  ``random`` and ``wallhugger`` read no clock: effort changes
#: nothing for them.
EFFORT = {"voronoi": 100, "chambers": 100, "frontline": 100, "apex": 100}

#: What each bot does, and its files (see :mod:`atlas.bots.registry`).
ABOUT = {
    "wallhugger": (
        (
            "the 2010 winner's greedy filler: fewest edges removed (hug walls), avoid "
            "possible cut vertices, else the largest space left"
        ),
        ("wallhugger.py", "fill.py"),
    ),
    "voronoi": (
        (
            "iterative-deepening alpha-beta on Voronoi territory plus its open neighbours; "
            "once separated, 1000 × (own room − opponent's room); fills greedily when alone"
        ),
        ("voronoi.py",),
    ),
    "chambers": (
        (
            "the tree of chambers of its Voronoi territory in the same search when the "
            "heads are at most 6 steps apart; farther apart, a short search then rollouts "
            "of each promising move to the separation"
        ),
        ("chambers.py", "tree.py"),
    ),
    "frontline": (
        (
            "`0.055·(N1−N2) + 0.194·(E1−E2)` along each side's chamber path, with the "
            "checkerboard bound and the battlefront rule; once separated, a search of its "
            "own move sequences finished by an exact-cut-vertex filler, up to the parity "
            "bound"
        ),
        ("frontline.py", "fill.py"),
    ),
    "apex": (
        (
            "`frontline`'s evaluation in integer arithmetic (twice as fast) and its "
            "endgame, in an alpha-beta ordered by a table of each position's best move; an "
            "unfinished depth does not keep a move it found failing; among moves the "
            "opponent can hold to a draw by colliding, the one best if it does not; under "
            "the official rules it plans each turn in the 2010 engine's order (player 1 "
            "first, who may follow the other cycle); thinks 80 % of a 0.1 s move"
        ),
        ("apex.py",),
    ),
}

#: What ``atlas bot --help`` says of these bots served to another engine
#: (:func:`atlas.bots.registry.served_note`).
SERVED = (
    "tron: Tron.jar, the official engine, resolves the two moves one after the other, "
    "player 1 first (player 1 may step onto the square player 2 is leaving; adjacent "
    "heads that swap squares are player 1's win), and shows every bot the board as "
    "player 1's. Served with the default --compat official, apex plans by that order; "
    "as it cannot see its seat, give it with --seat 1 or 2, or it plans by atlas's fair "
    "turn (planning as player 2, whose moves are safe in either seat, lost more than it "
    "saved). The other bots, and every bot with --compat "
    "spec, plan by atlas's fair simultaneous rules (the squares both heads leave are "
    "walls before either arrives). The first answer must come within --first-time "
    "seconds of the process's start, the interpreter's start and the kernels' loading "
    "included: the default 2.8 s fits Tron.jar's default 3 s a move; with 'java -jar "
    "Tron.jar MAP CMD1 CMD2 0 1' (1 s a move) pass --first-time 0.9, and know that on a "
    "loaded machine Python's start alone may take longer, before the watchdog that "
    "answers for a late bot is running."
)
