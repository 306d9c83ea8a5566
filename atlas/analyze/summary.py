"""The old path of :mod:`atlas.analysis.summary`, kept for one release: importing it warns."""

from ..deprecation import moved_module

moved_module(__name__, "atlas.analysis.summary", since="0.2")
