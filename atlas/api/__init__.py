"""atlas's Python API: the functions and values :mod:`atlas` offers at its top.

Use them as ``atlas.read_map``, ``atlas.analyze``, ...: the package imports this module
when one of them is first used.  Each function checks its arguments and raises the
documented atlas errors (:mod:`atlas.errors`) with the messages the command line
prints; each value shows itself in Jupyter.
"""

from __future__ import annotations

from .analysis import Analysis, analyze
from .fairness import FairnessReport, FairnessReports, fairness
from .games import Record, load_record, play
from .maps import GameMap, read_map, write_map
from .site import build_site
from .tournaments import Results, Standings, tournament
from .validation import Problem, ValidationReport, validate

__all__ = [
    "read_map",
    "write_map",
    "analyze",
    "validate",
    "play",
    "load_record",
    "tournament",
    "build_site",
    "fairness",
    "GameMap",
    "Analysis",
    "ValidationReport",
    "Problem",
    "Record",
    "Results",
    "Standings",
    "FairnessReport",
    "FairnessReports",
]
