"""The old path of :mod:`atlas.games.outpost.analysis.summary`, kept for one release:
importing it warns."""

from ...deprecation import moved_module

moved_module(__name__, "atlas.games.outpost.analysis.summary", since="0.2")
