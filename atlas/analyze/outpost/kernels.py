"""The old path of :mod:`atlas.games.outpost.analysis.kernels`, kept for one release:
importing it warns."""

from ...deprecation import moved_module

moved_module(__name__, "atlas.games.outpost.analysis.kernels", since="0.2")
