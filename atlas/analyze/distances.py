"""The old path of :mod:`atlas.analysis.distances`, kept for one release: importing it warns."""

from ..deprecation import moved_module

moved_module(__name__, "atlas.analysis.distances", since="0.2")
