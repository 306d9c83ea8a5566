"""The built-in isolation bots: the seed's phased alpha-beta and a stronger search."""

__all__ = ["BOTS"]

#: Bot name -> ``"module:factory"``, from the simplest (see :mod:`atlas.bots.registry`).
BOTS = {
    "random": "atlas.bots.random:RandomBot",
    "phased": "atlas.bots.isolation.phased:PhasedIsolationBot",
    "strong": "atlas.bots.isolation.strong:StrongIsolationBot",
}
