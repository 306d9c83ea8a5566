"""The old path of :mod:`atlas.analysis`, kept for one release: importing it warns.

``atlas.analyze`` is the API function; the analysis package is :mod:`atlas.analysis`.
"""

from ..deprecation import moved_package

__getattr__ = moved_package(__name__, "atlas.analysis", since="0.2")
