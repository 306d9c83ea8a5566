"""The old path of :mod:`atlas.games.outpost.analysis.supply`, kept for one release:
importing it warns."""

from ...deprecation import moved_module

moved_module(__name__, "atlas.games.outpost.analysis.supply", since="0.2")
