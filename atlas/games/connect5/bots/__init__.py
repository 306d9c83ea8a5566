"""The built-in connect5 bots: the seed's window minimax and a bitboard negamax."""

__all__ = ["BOTS", "EFFORT", "ABOUT"]

#: Bot name -> ``"module:factory"``, from the simplest (see :mod:`atlas.bots.registry`).
BOTS = {
    "random": "atlas.bots.random:RandomBot",
    "window4": "atlas.games.connect5.bots.window:Window4Bot",
    "strong": "atlas.games.connect5.bots.strong:StrongConnect5Bot",
}

#: Each bot's default effort per move (:attr:`atlas.bots.base.BotBase.effort`): polls
#: of its search's clock (``docs/bots.md``); ``random`` reads none, and ``window4``'s
#: clock only guards its fixed depth 4.
EFFORT = {"window4": 20, "strong": 10}

#: What each bot does, and its files (see :mod:`atlas.bots.registry`).
ABOUT = {
    "window4": (
        (
            "the seed: depth-4 minimax without pruning over the `{0, 10, 100, 1000, 10000}`"
            " window scores of the moves on the path"
        ),
        ("window.py",),
    ),
    "strong": (
        (
            "negamax alpha-beta on bitboards (boards up to 64 bits; an array kernel "
            "beyond), transposition table, threats first, window counts plus Allis-style "
            "parity terms (threat squares and lines whose empty cells lie on the owner's "
            "rows), an exact solve near the end; also plays Connect Four"
        ),
        ("strong.py", "bitboard.py", "search.py"),
    ),
}
