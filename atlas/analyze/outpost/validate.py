"""The old path of :mod:`atlas.games.outpost.validation`, kept for one release:
importing it warns."""

from ...deprecation import moved_module

moved_module(__name__, "atlas.games.outpost.validation", since="0.2")
