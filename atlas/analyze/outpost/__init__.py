"""The old path of :mod:`atlas.games.outpost.analysis`, kept for one release: importing it
warns."""

from ...deprecation import moved_package

__getattr__ = moved_package(__name__, "atlas.games.outpost.analysis", since="0.2")
