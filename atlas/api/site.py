"""The static site: :func:`build_site`."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from ..errors import ArgumentError
from ..types import Compat, GifChoice, JSONValue, Params, StrPath
from ._check import (
    cache_of,
    compat_of,
    jobs_of,
    mapping,
    params_of,
    path_of,
    scheduler_of,
    short,
    whole,
    with_compat,
)

if TYPE_CHECKING:
    from ..render.site.build import BuildResult

__all__ = ["build_site"]


def build_site(
    maps: StrPath | Sequence[StrPath] | None = None,
    out: StrPath = "site",
    *,
    records: StrPath | None = None,
    tournaments: Sequence[StrPath] = (),
    games: int | None = None,
    jobs: int | None = None,
    compat: Compat | None = None,
    game_params: Mapping[str, Params] | None = None,
    cache: StrPath | None = ".atlas-cache",
    progress: bool = False,
    log: Callable[[str], None] | None = None,
    scheduler: str | None = None,
    gifs: GifChoice = "featured",
    **deprecated: Mapping[str, Params],
) -> BuildResult:
    """Build the static site, as ``atlas build`` does.

    Every map analysed and drawn, the built-in tournament played, every game a
    replay, the standings.

    Parameters
    ----------
    maps : str, path-like or a list of them, optional
        The maps, one folder per game (``maps/tron/*.txt``, ...), or several such
        folders (a map whose game and name another folder has too gets a page of its
        own); by default atlas's own maps.
    out : str or path-like
        Where the site goes: a new or empty folder, or a site atlas built.  The site is
        built aside and moved into place, so a failed build leaves the old one.
    records : str or path-like, optional
        Saved replay records to publish too.
    tournaments : sequence of str or path-like
        Folders written by :func:`tournament` (or ``atlas tournament --out``), each
        published with its own standings page.
    games : int, optional
        Games per pairing, seating and map in the built-in tournament (0: none).
    jobs : int, optional
        Worker processes for the tournament (default: one per core).
    compat : {"spec", "official"}, optional
        The rules the built-in tournament plays, as ``atlas build --compat``.
    game_params : mapping, optional
        Game parameters by game, ``{"outpost": {"T": 100}}``, over the build's own
        (each game's as ``params`` of :func:`play`).  ``params=`` of this form is
        deprecated since 0.2: ``params`` means one game's parameters everywhere.
    cache : str, path-like or None
        The build's cache of analyses, games and replays (``None``: no cache), shared
        with ``atlas fairness --cache`` and :func:`fairness`.
    progress : bool
        Draw progress bars on standard error.
    log : callable, optional
        Called with the build's summary line and each problem (default: silent; the
        result holds them).
    scheduler : str, optional
        The address of a ``dask.distributed`` scheduler (``"tcp://host:8786"``, or a
        ``LocalCluster``'s ``scheduler_address``): the map analyses, games and replays
        run on its workers instead of local processes, and the site is the same, byte
        for byte.
    gifs : {"featured", "all", "none"}
        Which games get an animated GIF at build time, as ``atlas build --gifs``:
        each map's featured game (the default), every game, or none.  Every game
        page makes its own GIF in the browser (its "GIF" button).

    Returns
    -------
    BuildResult
        ``out`` (the site's folder; open ``out / "index.html"``), the maps and games,
        ``problems`` (broken maps and records are listed there, never raised) and
        timings (:class:`atlas.render.site.build.BuildResult`).

    Raises
    ------
    OutputFolderError
        ``out`` holds files atlas did not write (nothing is touched then).
    ArgumentError
        An argument of the wrong kind.

    Examples
    --------
    >>> import atlas, os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> os.makedirs(os.path.join(folder, "maps", "tron"))
    >>> _ = atlas.write_map(atlas.read_map("5 3\\n#####\\n#1 2#\\n#####\\n", game="tron"),
    ...                     os.path.join(folder, "maps", "tron", "tiny.txt"))
    >>> site = atlas.build_site(os.path.join(folder, "maps"), os.path.join(folder, "site"),
    ...                         games=0, cache=None)
    >>> os.path.isfile(site.out / "index.html"), site.problems
    (True, [])

    Every game's GIF at build time, not only the featured games':

    >>> site = atlas.build_site(os.path.join(folder, "maps"), os.path.join(folder, "site"),
    ...                         games=0, cache=None, gifs="all")
    >>> site.problems
    []
    """
    from ..deprecation import warn_deprecated
    from ..render.site.build import build_site as build
    from ..resources import maps_dir
    from ..sim.registry import game_names, get_info

    if "params" in deprecated:
        warn_deprecated("build_site(params=)", since="0.2", instead="build_site(game_params=)")
        if game_params is not None:
            raise ArgumentError("params: give game_params alone (params= is its old name)")
        game_params = deprecated.pop("params")
    if deprecated:
        raise TypeError(
            f"build_site() got an unexpected keyword argument {next(iter(deprecated))!r}"
        )

    if maps is None:
        maps_paths = [maps_dir()]
    elif isinstance(maps, (str, os.PathLike)) or not isinstance(maps, Sequence):
        maps_paths = [path_of(maps, "maps")]
    elif not maps:
        raise ArgumentError("maps: expected a folder or a list of folders, got an empty list")
    else:
        maps_paths = [path_of(m, f"maps[{i}]") for i, m in enumerate(maps)]
    out_path = path_of(out, "out")
    records_path = None if records is None else path_of(records, "records")
    if isinstance(tournaments, (str, os.PathLike)) or not isinstance(tournaments, Sequence):
        raise ArgumentError(
            f"tournaments: expected a list of folders, got {short(tournaments)}"
        )
    folders = [path_of(t, f"tournaments[{i}]") for i, t in enumerate(tournaments)]
    if games is not None:
        games = whole(games, "games", 0)
    jobs = jobs_of(jobs)
    per_game: dict[str, dict[str, JSONValue]] = {}
    for game, given in mapping(game_params, "game_params").items():
        if game not in game_names():
            from ..errors import UnknownNameError

            raise UnknownNameError("game", game, game_names())
        per_game[game] = params_of(given, f"game_params[{game!r}]")
        get_info(game).check_params(per_game[game])
    compat = compat_of(compat)
    if compat is not None:
        for game in game_names():
            if get_info(game).param("compat") is not None:
                per_game[game] = with_compat(game, compat, per_game.get(game, {}))
    if gifs not in ("featured", "all", "none"):
        raise ArgumentError(f"gifs: expected 'featured', 'all' or 'none', got {short(gifs)}")
    cache_path = cache_of(cache)
    return build(
        maps_paths[0],
        out_path,
        more_maps=maps_paths[1:],
        records_dir=records_path,
        tournaments=folders,
        jobs=jobs,
        games=games,
        cache_dir=cache_path,
        progress=progress,
        params=per_game or None,
        log=log if log is not None else (lambda message: None),
        scheduler=scheduler_of(scheduler),
        gifs=gifs,
    )
