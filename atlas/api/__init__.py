"""atlas's Python API: the functions and values :mod:`atlas` offers at its top.

Use them as ``atlas.read_map``, ``atlas.analyze``, ...: the package imports this module
when one of them is first used.  Each function checks its arguments and raises the
documented atlas errors (:mod:`atlas.errors`) with the messages the command line
prints; each value shows itself in Jupyter.  The names are re-exported in the ``as``
form type checkers read as explicit; :data:`atlas.__all__` is their list.
"""

from __future__ import annotations

from .analysis import Analysis as Analysis
from .analysis import analyze as analyze
from .fairness import FairnessReport as FairnessReport
from .fairness import FairnessReports as FairnessReports
from .fairness import SeatScore as SeatScore
from .fairness import fairness as fairness
from .games import Bot as Bot
from .games import Record as Record
from .games import State as State
from .games import load_record as load_record
from .games import play as play
from .maps import GameMap as GameMap
from .maps import read_map as read_map
from .maps import write_map as write_map
from .site import build_site as build_site
from .tournaments import Results as Results
from .tournaments import StandingRow as StandingRow
from .tournaments import Standings as Standings
from .tournaments import tournament as tournament
from .validation import Problem as Problem
from .validation import ValidationReport as ValidationReport
from .validation import validate as validate
