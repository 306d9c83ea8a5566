"""The old path of :mod:`atlas.analysis.chambers`, kept for one release: importing it warns."""

from ..deprecation import moved_module

moved_module(__name__, "atlas.analysis.chambers", since="0.2")
