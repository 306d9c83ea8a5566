"""atlas: grid-game maps (tron, isolation, connect5, outpost) analysed, played and
published as a static website; from the command line (``atlas --help``) or from Python.

The Python API, one line each (``help(atlas.NAME)`` for the whole of one)::

    read_map        Read a map from a file, or from its text.
    write_map       The text of a map in its game's format, written to a file when given.
    analyze         Analyse a map: components, articulation points and what its game adds.
    validate        Check a submitted map against its game's rules; report every problem.
    play            Play one game on a map and return its record.
    load_record     Read a replay record (.json or .json.gz).
    tournament      Play a tournament and rate its players.
    build_site      Build the static site, as ``atlas build`` does.
    fairness        Report whether maps favour a seat: symmetries and played evidence.
    set_cache_dir   Keep atlas's compiled kernels under a folder of your choice.

    GameMap         A map of one game.
    Analysis        What atlas finds in a map: the figures and the game's own analyses.
    ValidationReport  Everything the validator of a map's game found in one file.
    Problem         One problem of a map file.
    Record          A finished game: a replay record, with what Python does with one.
    State           A game position.  Each game defines its own dataclass; all have these.
    Bot             A bot of your own: any object with a method ``move``.
    Results         What a tournament played: every game's record, and the standings.
    Standings       The standings of a set of games, with 95 % intervals (a table in Jupyter).
    StandingRow     One player's line of the standings.
    FairnessReport  A map's fairness report: symmetries, each seat's score, the verdict.
    FairnessReports  The fairness reports of maps, and a line for each map not reported.
    SeatScore       One seat's share of the points, with its 95 % interval.
    BuildResult     What a build did: counts, problems, and where the site is.

Every function takes a map the same way (``game_map``): a :class:`GameMap`, a map file
(a ``str`` or a path-like), or a map's text (a ``str`` with a line break in it).
``params`` is a game's parameters over its defaults, ``compat`` the rules played
(``"spec"`` or ``"official"``), ``cache`` the folder of played games shared with
``atlas build`` (``None``: none), wherever they appear.

In Jupyter a map shows its picture, an analysis its overlays, a record the replay
viewer, standings and results a table.  Errors: :class:`AtlasError` and its subclasses
(:mod:`atlas.errors`); bad input raises the message the command line prints.

These names are the stable surface: one changes only after a release in which the old
form still works and warns (:class:`AtlasDeprecationWarning`,
:mod:`atlas.deprecation`).  Everything below them (``atlas.maps``, ``atlas.sim``,
``atlas.render``, ...) may move.  ``atlas.analyze`` is the function; the package of
analysis kernels is imported by its full name (``from atlas.analysis.voronoi import
voronoi_counts``).

Importing atlas is fast and changes nothing.  numba's cache folder is chosen when
atlas first compiles a kernel (``docs/python.md`` says where, and how to choose it:
``ATLAS_CACHE_DIR``, your own ``NUMBA_CACHE_DIR``, or :func:`set_cache_dir`).
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING, Any

from . import display as _display
from ._version import __version__

__all__ = [
    # functions
    "read_map",
    "write_map",
    "analyze",
    "validate",
    "play",
    "load_record",
    "tournament",
    "build_site",
    "fairness",
    "set_cache_dir",
    # what they return
    "GameMap",
    "Analysis",
    "ValidationReport",
    "Problem",
    "Record",
    "State",
    "Bot",
    "Results",
    "Standings",
    "StandingRow",
    "FairnessReport",
    "FairnessReports",
    "SeatScore",
    "BuildResult",
    # errors and warnings
    "AtlasError",
    "ArgumentError",
    "MapFormatError",
    "RecordError",
    "PlanError",
    "BotError",
    "ParamError",
    "UnknownNameError",
    "OutputFolderError",
    "InvalidMoveError",
    "IllegalMoveError",
    "AtlasDeprecationWarning",
    "__version__",
]

#: Public name -> the module that defines it (imported by :func:`__getattr__` on first
#: use, so ``import atlas`` loads neither numpy nor numba).
_LAZY: dict[str, str] = {
    name: module
    for module, names in (
        (
            "api",
            "read_map write_map analyze validate play load_record tournament build_site "
            "fairness GameMap Analysis ValidationReport Problem Record State Bot Results "
            "Standings StandingRow FairnessReport FairnessReports SeatScore",
        ),
        ("render.site.build", "BuildResult"),
        ("jit", "set_cache_dir"),
        (
            "errors",
            "AtlasError ArgumentError MapFormatError RecordError PlanError BotError "
            "ParamError UnknownNameError OutputFolderError InvalidMoveError IllegalMoveError",
        ),
        ("deprecation", "AtlasDeprecationWarning"),
    )
    for name in names.split()
}

#: Top-level names that moved: old name -> (module, new name, since which version).
#: Reading ``atlas.OLD`` warns (:func:`atlas.deprecation.warn_deprecated`) and returns
#: the new object, for one release at least before the old name goes.
_MOVED: dict[str, tuple[str, str, str]] = {}

# Values of the lower layers show themselves in Jupyter, and do what needs a layer above
# their own, through these (atlas.display).
for _kind, _target in (
    ("map-png", "atlas.api.display:map_png"),
    ("record-states", "atlas.sim.records.verify:replay_states"),
    ("record-save", "atlas.api.games:save_record"),
    ("record-gif", "atlas.api.games:save_gif"),
    ("record-page", "atlas.api.display:replay_page"),
    ("record-html", "atlas.api.display:replay_frame"),
    ("standings-html", "atlas.api.display:standings_html"),
    ("fairness-html", "atlas.api.display:fairness_html"),
    ("validation-png", "atlas.api.validation:report_png"),
    ("validation-html", "atlas.api.display:report_html"),
):
    _display.provide(_kind, _target)
del _kind, _target

if TYPE_CHECKING:  # pragma: no cover
    from .api import (
        Analysis,
        Bot,
        FairnessReport,
        FairnessReports,
        GameMap,
        Problem,
        Record,
        Results,
        SeatScore,
        StandingRow,
        Standings,
        State,
        ValidationReport,
        analyze,
        build_site,
        fairness,
        load_record,
        play,
        read_map,
        tournament,
        validate,
        write_map,
    )
    from .deprecation import AtlasDeprecationWarning
    from .errors import (
        ArgumentError,
        AtlasError,
        BotError,
        IllegalMoveError,
        InvalidMoveError,
        MapFormatError,
        OutputFolderError,
        ParamError,
        PlanError,
        RecordError,
        UnknownNameError,
    )
    from .jit import set_cache_dir
    from .render.site.build import BuildResult


def __getattr__(name: str) -> Any:
    import importlib

    moved = _MOVED.get(name)
    if moved is not None:
        from .deprecation import warn_deprecated

        module, new, since = moved
        warn_deprecated(f"atlas.{name}", since=since, instead=f"atlas.{new}")
        return getattr(importlib.import_module(f".{module}", __name__), new)
    home = _LAZY.get(name)
    if home is None:
        raise AttributeError(f"module 'atlas' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


class _Package(types.ModuleType):
    """The ``atlas`` module: an API function keeps its name when a subpackage of the same
    name is imported (``atlas.analyze`` stays the function when ``atlas.analysis.voronoi``
    is imported; Python would otherwise set the package's attribute to the subpackage)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _LAZY and isinstance(value, types.ModuleType):
            return  # the subpackage stays reachable as sys.modules["atlas." + name]
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
