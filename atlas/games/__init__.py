"""The games atlas knows, and one folder for each.

A game is a Python package.  Its modules are found by their names, one name a role:

``format``
    Its map file format (``FORMAT``, an :class:`atlas.maps.MapFormat`).  Optional: a
    game without one reads and writes the atlas grid format of :mod:`atlas.maps`.
``analysis``
    Analyses only this game has (Outpost's influence and supply lines).  Optional.
``validation``
    The rules a submitted map must follow (``VALIDATOR``, an
    :class:`atlas.maps.validation.Validator`).  Optional: only a game that validates its maps
    has it.
``rules``
    Its rules: ``GAME``, a subclass of :class:`atlas.sim.base.GameBase`.
``bots``
    Its built-in bots: the ``BOTS`` table read by :mod:`atlas.bots.registry`.
``protocol``
    The wire protocol its external programs speak (``HOST_BOT`` and ``serve``).
    Optional: without one, a game speaks the protocol its ``GameInfo.protocol`` names.
``painter``
    How it is drawn and described: ``RENDER``, a :class:`atlas.render.painter.GameRender`.

Each role belongs to one layer of atlas (:data:`ROLE_LAYERS`), and a game's modules
import only roles below their own.  The generic layers never import a game's folder:
each reaches a game through this registry, by name, and imports only the role of its own
layer.  So listing games imports nothing but the registry.

atlas's own games live in ``atlas/games/<game>/`` and are registered below.  A game
installed as its own distribution registers through the entry point group
``atlas.games``: the entry point's name is the game's name and its value the game's
package::

    [project.entry-points."atlas.games"]
    mygame = "mypkg.mygame"

A program may also register a package itself::

    register_game("mygame", "mypkg.mygame")

This module sits at the bottom of the layers: it imports only :mod:`atlas.errors`.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass

from ..errors import AtlasError, UnknownNameError

__all__ = [
    "ROLES",
    "ROLE_LAYERS",
    "ENTRY_POINT_GROUP",
    "GameModules",
    "register_game",
    "unregister_game",
    "game_names",
    "game_modules",
    "skipped_games",
]

#: The entry point group an installed distribution registers its games in.
ENTRY_POINT_GROUP = "atlas.games"

#: The roles of a game's modules, in the order of the layers they belong to.
ROLES = ("format", "analysis", "validation", "rules", "bots", "protocol", "painter")

#: The layer of atlas each role belongs to.
ROLE_LAYERS = {
    "format": "maps",
    "analysis": "analysis",
    "validation": "analysis",
    "rules": "sim",
    "bots": "bots",
    "protocol": "arena",
    "painter": "render",
}

#: The roles every game has.
REQUIRED_ROLES = ("rules", "bots", "painter")


@dataclass(frozen=True)
class GameModules:
    """Where a game's modules are: the dotted path of each role.

    Attributes
    ----------
    package : str
        The game's package.
    rules, bots, painter : str
        The roles every game has.
    format, analysis, validation, protocol : str or None
        The optional roles, ``None`` where the game has none.
    """

    package: str
    rules: str
    bots: str
    painter: str
    format: str | None = None
    analysis: str | None = None
    validation: str | None = None
    protocol: str | None = None

    @property
    def validates(self) -> bool:
        """Whether the game validates its maps."""
        return self.validation is not None


@dataclass(frozen=True)
class _Entry:
    package: str
    validates: bool | None


_GAMES: dict[str, _Entry] = {}
_FOUND: dict[str, GameModules] = {}
_SKIPPED: dict[str, str] = {}
_ENTRY_POINTS_READ = False


def register_game(name: str, package: str, *, validates: bool | None = None) -> None:
    """Make the game ``name`` known: its package, whose modules are found by role.

    Parameters
    ----------
    name : str
        The game's name, as maps, records and commands give it.
    package : str
        The dotted name of the game's package.
    validates : bool, optional
        Whether the game validates its maps.  ``True`` requires a ``validation`` module;
        by default a game validates its maps when its package has one.

    Registering a name again replaces its entry (a test may register a toy game).
    """
    _GAMES[name] = _Entry(package, validates)
    _FOUND.pop(name, None)


def unregister_game(name: str) -> None:
    """Forget the game ``name`` (a test that registered a toy game cleans up)."""
    _read_entry_points()
    _GAMES.pop(name, None)
    _FOUND.pop(name, None)


def _read_entry_points() -> None:
    """Register the games of the installed distributions, once a process.

    A game atlas already knows keeps its entry: a distribution cannot replace a built-in
    game by reusing its name.  An installed game whose package cannot be loaded, or
    lacks a module every game needs, is left out of :func:`game_names`;
    :func:`skipped_games` says why, and :func:`game_modules` raises with that reason.
    """
    global _ENTRY_POINTS_READ
    if _ENTRY_POINTS_READ:
        return
    _ENTRY_POINTS_READ = True
    from importlib.metadata import entry_points

    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name in _GAMES or ep.name in _SKIPPED:
            continue
        _GAMES[ep.name] = _Entry(ep.value.partition(":")[0].strip(), None)
        try:
            game_modules(ep.name)
        except AtlasError as exc:
            del _GAMES[ep.name]
            _SKIPPED[ep.name] = f"{exc} (installed by {_distribution(ep)})"


def _distribution(ep: object) -> str:
    dist = getattr(ep, "dist", None)
    name = getattr(dist, "name", None)
    return f"the distribution {name}" if name else "an installed distribution"


def skipped_games() -> dict[str, str]:
    """The installed games left out, each with the reason."""
    _read_entry_points()
    return dict(_SKIPPED)


def game_names() -> tuple[str, ...]:
    """The registered games: atlas's own in registration order, then the installed ones."""
    _read_entry_points()
    return tuple(_GAMES)


def _has_module(dotted: str) -> bool:
    """Whether the module ``dotted`` exists (its parent packages are imported to know)."""
    try:
        return importlib.util.find_spec(dotted) is not None
    except (ImportError, ValueError):
        return False


def _check_package(name: str, pkg: str) -> None:
    try:
        found = importlib.util.find_spec(pkg) is not None
    except (ImportError, ValueError):
        found = False
    except Exception as exc:  # the game's own code failed while being imported
        raise AtlasError(
            f"game {name}: its package {pkg} failed to import: {type(exc).__name__}: {exc}"
        ) from None
    if not found:
        raise AtlasError(f"game {name}: its package {pkg} cannot be found")


def game_modules(name: str) -> GameModules:
    """Where the modules of the game ``name`` are.

    Raises
    ------
    UnknownNameError
        No game of that name is registered.
    AtlasError
        The game's package cannot be imported, lacks a module every game needs, or
        claims to validate its maps without a ``validation`` module.
    """
    found = _FOUND.get(name) if isinstance(name, str) else None
    if found is not None:
        return found
    _read_entry_points()
    if isinstance(name, str) and name in _SKIPPED:
        raise AtlasError(_SKIPPED[name])
    try:
        entry = _GAMES[name]
    except (KeyError, TypeError):
        raise UnknownNameError("game", str(name), _GAMES) from None
    pkg = entry.package
    _check_package(name, pkg)
    missing = [r for r in REQUIRED_ROLES if not _has_module(f"{pkg}.{r}")]
    if missing:
        raise AtlasError(f"game {name}: its package {pkg} has no {', '.join(missing)} module")
    optional = {
        role: f"{pkg}.{role}" if _has_module(f"{pkg}.{role}") else None
        for role in ("format", "analysis", "validation", "protocol")
    }
    if entry.validates is False:
        optional["validation"] = None
    elif entry.validates and optional["validation"] is None:
        raise AtlasError(
            f"game {name}: registered as validating its maps, but {pkg} has no "
            "validation module"
        )
    found = GameModules(
        pkg, rules=f"{pkg}.rules", bots=f"{pkg}.bots", painter=f"{pkg}.painter", **optional
    )
    _FOUND[name] = found
    return found


# atlas's own games: one line each, the only place outside a game's folder that names it
# (tests/test_game_names.py counts the others).
register_game("tron", "atlas.games.tron")
register_game("isolation", "atlas.games.isolation")
register_game("connect5", "atlas.games.connect5")
register_game("outpost", "atlas.games.outpost", validates=True)
