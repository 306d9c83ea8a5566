"""The analysis of one map: :func:`analyze` and its :class:`Analysis`."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..maps import GameMap
from ..types import Cell, JSONObject, JSONValue
from ._check import game_map_of, game_name
from .maps import MapSource

if TYPE_CHECKING:
    from PIL.Image import Image

__all__ = ["Analysis", "analyze"]


@dataclass(frozen=True, eq=False)
class Analysis:
    """What atlas finds in a map: the figures and the game's own analyses.

    The figures are those ``atlas analyze`` prints.  Each game contributes what its
    own analysis computes: every map has its free cells,
    their components and articulation points; a map of two players who move step by
    step (tron) adds the Voronoi split of the starts, the chambers and the parity
    bounds; an Outpost map its land, water and the empires' influence at the start.  An
    attribute a game does not compute is ``None``.

    Attributes
    ----------
    game_map : GameMap
        The map analysed.
    summary : mapping
        The figures as JSON data, the same as ``atlas analyze --json`` prints
        (:meth:`to_json` gives a copy).

    Notes
    -----
    In Jupyter an analysis shows its figures and its pictures (the map with its
    overlays: Voronoi shading and articulation points, chambers, influence and supply
    lines, as its game draws them).
    """

    game_map: GameMap
    summary: Mapping[str, JSONValue] = field(repr=False)

    def _figure(self, key: str) -> Any:
        """The figure ``key`` of :attr:`summary` (``None`` when the game has none)."""
        return self.summary.get(key)

    # ------------------------------------------------------------------ figures

    @property
    def game(self) -> str:
        """The map's game."""
        return self.game_map.game

    @property
    def free_cells(self) -> int | None:
        """Cells a player may stand on (land, for Outpost)."""
        return self._figure("free_cells")

    @property
    def components(self) -> int | None:
        """4-connected components of the free cells."""
        return self._figure("components")

    @property
    def articulation_points(self) -> list[Cell] | None:
        """Free cells whose loss splits their component, as ``(row, col)``."""
        points = self._figure("articulation_points")
        return None if points is None else [(int(r), int(c)) for r, c in points]

    @property
    def starts(self) -> list[Cell]:
        """The players' start cells (homes, for Outpost), as ``(row, col)``."""
        return list(self.game_map.starts)

    @property
    def voronoi(self) -> dict[str, int] | None:
        """Cells nearer to player 1 (``p1``), to player 2 (``p2``), or as near to both
        (``tie``), counted from the starts."""
        found = self._figure("voronoi")
        return None if found is None else dict(found)

    @property
    def chambers(self) -> dict[str, dict[str, int]] | None:
        """Per player (``p1``, ``p2``): the cells it can fill at most (``fillable``) in
        how many chambers (``count``), the other player's start a wall."""
        found = self._figure("chambers")
        return None if found is None else copy.deepcopy(dict(found))

    @property
    def chamber_tree(self) -> list[JSONObject] | None:
        """Player 1's chambers as nested ``{id, size, entrance, children}``."""
        found = self._figure("chamber_tree")
        return None if found is None else copy.deepcopy(list(found))

    @property
    def parity_bound(self) -> dict[str, int] | None:
        """Per player (``p1``, ``p2``): the most cells it can visit by the checkerboard
        argument, the other start a wall."""
        found = self._figure("parity_bound")
        return None if found is None else dict(found)

    # ------------------------------------------------------------------ richer values

    @cached_property
    def extras(self) -> Mapping[str, object]:
        """What the game's analysis computes beyond the figures, by name (computed when
        first asked for): Outpost's ``influence``, say."""
        from ..sim.registry import get_game

        return dict(get_game(self.game).map_analyses(self.game_map))

    @property
    def influence(self) -> object | None:
        """Who controls each cell at the start, and how much land and water each empire
        holds (an :class:`atlas.games.outpost.analysis.influence.Influence`: ``owner``
        per cell, ``land``, ``water`` and ``disputed`` per empire), for a game of
        influence; ``None`` otherwise."""
        return self.extras.get("influence")

    # ------------------------------------------------------------------ output

    def to_json(self) -> JSONObject:
        """The figures as JSON data: what ``atlas analyze MAP --json`` prints.

        Examples
        --------
        >>> import atlas
        >>> m = atlas.read_map("5 3\\n#####\\n#1 2#\\n#####\\n", game="tron", name="tiny")
        >>> atlas.analyze(m).to_json()["voronoi"]
        {'p1': 0, 'p2': 0, 'tie': 1}
        """
        return copy.deepcopy(dict(self.summary))

    def text(self) -> str:
        """The figures as ``atlas analyze`` prints them for people."""
        from ..analysis.summary import format_summary

        return format_summary(self.summary)

    def pictures(self) -> dict[str, Image]:
        """The map's pictures (Pillow images) by kind, as its map page shows them:
        the bare map and the game's overlays."""
        from ..render.registry import render_of

        render = render_of(self.game)
        return {
            kind: render.picture(self.game_map, kind)
            for kind in render.picture_kinds(self.game_map)
            if kind != "thumb"
        }

    def _repr_png_(self) -> bytes:
        from ..render.images import png_bytes
        from ..render.registry import render_of

        render = render_of(self.game)
        return png_bytes(render.picture(self.game_map, render.png_kind))

    def _repr_html_(self) -> str:
        from .display import analysis_html

        return analysis_html(self)

    def __repr__(self) -> str:
        return f"<atlas.Analysis of {self.game} map {self.game_map.name!r}>"


def analyze(game_map: MapSource) -> Analysis:
    """Analyse a map: components, articulation points and what its game adds.

    Parameters
    ----------
    game_map : GameMap, str or path-like
        The map: a :class:`GameMap` (:func:`atlas.read_map`), a map file or a map's
        text.

    Returns
    -------
    Analysis
        The figures as attributes (``components``, ``articulation_points``,
        ``voronoi``, ``chambers``, ``parity_bound``, ``influence``, ...), ``None`` where
        the map's game does not compute one; :meth:`Analysis.to_json` is what
        ``atlas analyze --json`` prints.

    Raises
    ------
    ArgumentError
        ``game_map`` is not a map.
    MapFormatError
        ``game_map`` names a file, or is text, that is not a map.
    UnknownNameError
        The map's game is not one atlas knows.

    Notes
    -----
    Each figure is one pass of a kernel over the grid, O(rows x cols).  Small maps
    (up to :data:`atlas.jit.INTERPRET_MAX_CELLS` cells) are analysed without compiling
    the kernels, as ``atlas analyze`` does: faster than loading numba for them.

    Examples
    --------
    >>> import atlas
    >>> m = atlas.read_map("5 3\\n#####\\n#1 2#\\n#####\\n", game="tron", name="tiny")
    >>> a = atlas.analyze(m)
    >>> a.components, a.articulation_points, a.parity_bound
    (1, [(1, 2)], {'p1': 1, 'p2': 1})
    >>> a.influence is None
    True
    """
    from ..jit import INTERPRET_MAX_CELLS, interpreted
    from ..sim.registry import summarize_map

    game_map = game_map_of(game_map)
    game_name(game_map.game, "game_map.game")
    with interpreted(game_map.width * game_map.height <= INTERPRET_MAX_CELLS):
        summary = summarize_map(game_map)
    return Analysis(game_map, summary)
