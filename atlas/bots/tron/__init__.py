"""The built-in tron bots: a greedy filler and four searches on Voronoi territory."""

__all__ = ["BOTS"]

#: Bot name -> ``"module:factory"``, from the simplest (see :mod:`atlas.bots.registry`).
BOTS = {
    "random": "atlas.bots.random:RandomBot",
    "wallhugger": "atlas.bots.tron.wallhugger:WallHugger",
    "voronoi": "atlas.bots.tron.voronoi:VoronoiBot",
    "chambers": "atlas.bots.tron.chambers:ChambersBot",
    "frontline": "atlas.bots.tron.frontline:FrontlineBot",
    "apex": "atlas.bots.tron.apex:ApexBot",
}
