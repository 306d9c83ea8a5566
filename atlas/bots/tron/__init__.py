"""The built-in tron bots: a greedy filler and four searches on Voronoi territory."""

__all__ = ["BOTS", "SERVED"]

#: Bot name -> ``"module:factory"``, from the simplest (see :mod:`atlas.bots.registry`).
BOTS = {
    "random": "atlas.bots.random:RandomBot",
    "wallhugger": "atlas.bots.tron.wallhugger:WallHugger",
    "voronoi": "atlas.bots.tron.voronoi:VoronoiBot",
    "chambers": "atlas.bots.tron.chambers:ChambersBot",
    "frontline": "atlas.bots.tron.frontline:FrontlineBot",
    "apex": "atlas.bots.tron.apex:ApexBot",
}

#: What ``atlas bot --help`` says of these bots served to another engine
#: (:func:`atlas.bots.registry.served_note`).
SERVED = (
    "tron: the bots plan every turn by atlas's fair simultaneous rules (the squares both "
    "heads leave are walls before either arrives), with --compat spec and official "
    "alike. The official engine, Tron.jar, resolves the two moves one after the other, "
    "player 1 first (player 1 may step onto the square player 2 is leaving; adjacent "
    "heads that swap squares are player 1's win), and shows every bot the board as "
    "player 1's: a served bot models neither that order nor its seat. Its first answer "
    "must come within --first-time seconds of its process's start, the interpreter's "
    "start and the kernels' loading included: the default 2.8 s fits Tron.jar's "
    "default 3 s a move; with 'java -jar Tron.jar MAP CMD1 CMD2 0 1' (1 s a move) pass "
    "--first-time 0.9, and know that on a loaded machine Python's start alone may take "
    "longer, before the watchdog that answers for a late bot is running."
)
