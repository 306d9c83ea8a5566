"""The built-in connect5 bots: the seed's window minimax and a bitboard negamax."""

__all__ = ["BOTS"]

#: Bot name -> ``"module:factory"``, from the simplest (see :mod:`atlas.bots.registry`).
BOTS = {
    "random": "atlas.bots.random:RandomBot",
    "window4": "atlas.bots.connect5.window:Window4Bot",
    "strong": "atlas.bots.connect5.strong:StrongConnect5Bot",
}
