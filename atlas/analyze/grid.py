"""The old path of :mod:`atlas.analysis.grid`, kept for one release: importing it warns."""

from ..deprecation import moved_module

moved_module(__name__, "atlas.analysis.grid", since="0.2")
