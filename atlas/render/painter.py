"""What every game's painter module provides, and the defaults most games share.

A game's ``painter`` module (:mod:`atlas.games`) holds ``RENDER``, an instance of a
:class:`GameRender` subclass.  It says:

- how the game's maps are pictured on a map page and by ``atlas analyze --png``;
- how a position becomes a replay frame (its *painter*);
- how many pixels a cell takes;
- the measures charted under a replay (:meth:`GameRender.series`);
- how ``atlas build`` plays the game's built-in tournament (:class:`SitePlan`).

The defaults draw a grid map: walls and free cells, the starts marked.  The painter is
abstract, so a module without one fails when it is loaded.  A game that validates its
submitted maps (a ``validation`` module, :mod:`atlas.maps.validation`) may draw its
reports: :meth:`GameRender.validation_picture` and its caption.
"""

from __future__ import annotations

import abc
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..maps import GameMap
from . import images as I
from .frames import Frame

__all__ = [
    "GameRender",
    "DuelRender",
    "Painter",
    "SitePlan",
    "Series",
    "FrameRule",
    "cells_of",
]

#: One measure of a game, turn by turn: ``{"name": str, "unit": str, "values": [[value
#: per state] per seat]}`` (see :meth:`GameRender.series`).
Series = dict


@dataclass(frozen=True)
class SitePlan:
    """How ``atlas build`` plays a game's built-in tournament
    (:func:`atlas.render.site.build.site_schedule`).

    Attributes
    ----------
    time : float
        Seconds per move.
    params : mapping
        Game parameters over the game's defaults.
    top : int
        How many of the strongest bots (the last ones of the game's ``BOTS`` table,
        which lists them from the simplest) play the main round; the others play the
        gauntlet.
    top_per_map : int or None
        Main-round seatings per map, dealt out over the maps in turn; ``None``: every
        seating on every map.
    gauntlet : bool
        Whether the simpler bots play the gauntlet (Outpost's long four-player games
        play the main round alone: its four strongest bots on each map).
    fairness_bot : str or None
        The bot that sits in every seat of the build's fairness games (``atlas build
        --fairness N``) when the build has it; ``None``: the strongest bot.  Outpost's
        is ``defender``: the strongest of its heuristics plays a 500-turn game in every
        seat in about 2 s, ``planner`` in about 13 s (``atlas fairness --bots planner``
        asks the strongest).
    """

    time: float = 0.05
    params: Mapping[str, Any] = field(default_factory=dict)
    top: int = 2
    top_per_map: int | None = None
    gauntlet: bool = True
    fairness_bot: str | None = None


@dataclass(frozen=True)
class FrameRule:
    """A rule that draws a replay frame's cells from its marks, in the reader's browser
    as in Python (:meth:`GameRender.frame_rule`).

    A game page then stores, for each turn, only the cells where the real frame differs
    from what the rule draws, instead of the cells that changed since the previous
    turn: Outpost's territory follows from its outposts, so a 500-turn game's page
    carries the outposts' steps, not 500 turns of territory.

    Attributes
    ----------
    spec : dict
        The rule as ``templates/static/frames.js`` reads it: ``{"kind": name, ...}``
        (the kinds and their fields are in that script).
    grid : callable
        The same rule in Python: a frame's marks, as :func:`atlas.render.viewer.viewer_data`
        writes them (``[row, col, shape, colour, outline, scale]``, ``shape`` an index
        into :data:`atlas.render.viewer.SHAPES`), to its palette index per cell, shape
        ``(rows, cols)``, drawn over the game's :meth:`GameRender.base_grid`.
    """

    spec: Mapping[str, Any]
    grid: Callable[[Sequence[Sequence[Any]]], np.ndarray]


class Painter(abc.ABC):
    """Turns the states of one game, in order, into :class:`~atlas.render.frames.Frame`
    values.  ``stateful`` painters remember history a state does not keep (which cycle
    laid which trail), so they must see every state even when only some are drawn."""

    stateful = True

    @abc.abstractmethod
    def __call__(self, state: Any) -> Frame:
        """The frame of ``state`` (the next state of the game, in order)."""


class GameRender(abc.ABC):
    """How one game is drawn (subclass it; the defaults draw a grid map, and
    :meth:`painter` is abstract).

    Attributes
    ----------
    pictures : dict
        Picture kind -> caption, in the order a map page shows them; ``thumb`` is the
        small picture of the index and has no caption.
    png_kind : str
        The kind ``atlas analyze --png`` writes.
    validation_caption : str
        The caption of :meth:`validation_picture` on a map page and the validation page.
    site_plan : SitePlan
        How ``atlas build`` plays the game's built-in tournament.
    game_pictures_title, game_pictures_note : str
        The heading and the explanation of :meth:`game_pictures` on a map page.
    plain_draw_rate : float or None
        About how many seconds drawing a game takes with its kernels run as plain
        Python, per turn and per character of its map's text; a build draws a few new
        games so when that takes less than loading numba
        (:func:`atlas.render.site.replays.render_games`).  None (the default): always
        compiled.  The drawing is the same either way.
    """

    site_plan = SitePlan()
    plain_draw_rate: float | None = None
    game_pictures_title = ""
    game_pictures_note = ""
    pictures: Mapping[str, str] = {
        "thumb": "",
        "plain": "The map (start cells marked: seat 1 circle, seat 2 square)",
    }
    png_kind = "plain"
    validation_caption = ""

    def picture_kinds(self, game_map: GameMap) -> list[str]:
        """The kinds of pictures a map page shows for ``game_map``."""
        return list(self.pictures)

    def picture(self, game_map: GameMap, kind: str) -> Any:
        """The picture ``kind`` of ``game_map`` as a Pillow image."""
        if kind == "thumb":
            return self.thumbnail(game_map)
        if kind == "plain":
            return I.map_picture(game_map, base=self.base_grid(game_map))
        raise ValueError(f"unknown picture kind {kind!r}")

    def base_grid(self, game_map: GameMap) -> I.IndexImage:
        """Palette indices of the bare map: walls and free cells."""
        return I.base_grid(game_map)

    def thumbnail(self, game_map: GameMap, size: int = 160) -> Any:
        """A small picture of the bare map (starts marked), about ``size`` pixels wide."""
        k = I.cell_size(game_map.shape, target=size, lo=1, hi=12)
        return I.map_picture(game_map, base=self.base_grid(game_map), cell_px=k)

    @abc.abstractmethod
    def painter(self, game_map: GameMap, params: Mapping[str, Any]) -> Painter:
        """A fresh painter for one game on ``game_map`` with ``params``."""

    def cell_px(self, shape: tuple[int, int]) -> int:
        """Pixels per cell of a replay frame."""
        return I.cell_size(shape, target=320, lo=3, hi=20)

    def viewer_cell_px(self, shape: tuple[int, int]) -> int:
        """Pixels per cell in the page's replay viewer (the GIF's by default)."""
        return self.cell_px(shape)

    def series(
        self, game_map: GameMap, params: Mapping[str, Any], states: Sequence[Any]
    ) -> list[Series]:
        """The measures charted under a replay, one value per seat and state.

        Each is ``{"name", "phrase", "unit", "values"}`` with ``values[seat][i]`` the
        measure of ``seat`` in ``states[i]`` (``phrase``: the name inside a sentence);
        the first one also decides which game a map page features
        (:func:`atlas.render.viewer.interest`).  Default: none.
        """
        return []

    def overlays(self, game_map: GameMap, params: Mapping[str, Any]) -> dict[str, Any] | None:
        """What the viewer may draw over a position, computed in the reader's browser
        from the frame it shows (``templates/static/overlays.js``), or ``None``.

        ``{"names": [overlay, ...], "free": [palette index of a free cell, ...],
        "seats": [palette index of each seat's pieces, ...], "args": {...}}``: the
        overlays by the names ``overlays.js`` knows them (``voronoi``, ``articulation``,
        ``chambers``, ``reachable``, ``mobility``, ``windows``, ``threats``), how to
        read a frame (a mark in a seat's colour is one of its pieces), and what an
        overlay needs more (``moves``: ``"queen"`` or ``"knight"``; ``inarow``).
        Default: none.
        """
        return None

    def frame_rule(self, game_map: GameMap, params: Mapping[str, Any]) -> FrameRule | None:
        """A rule that draws a replay frame's cells from its marks
        (:class:`FrameRule`), so that a game page stores only where the frames differ
        from it, or ``None`` (the default): a page stores the cells each turn changed."""
        return None

    def pv_cells(
        self, game: Any, state: Any, seat: int, pv: Sequence[Any]
    ) -> list[tuple[int, int]]:
        """The cells of a principal variation, as far as it can be followed.

        ``pv`` is what a turn's ``info`` says ``seat`` expected from ``state`` (the
        position before that turn): JSON moves, its own first, then the reply, and so
        on.  Returns the cell each move goes to, ``(row, col)``, and stops at the first
        move that is not a legal move of the seat to move (so ``len(pv)`` less the
        cells' number were dropped).  The default follows an alternating game with the
        rules (``game.is_legal`` and ``game.apply``) and :meth:`move_cell`; a game
        whose seats move together overrides it.  Nothing a record says can make it
        raise.
        """
        cells: list[tuple[int, int]] = []
        s = state
        for i, data in enumerate(pv):
            try:
                who = game.to_move(s)
                if len(who) != 1 or (i == 0 and who[0] != seat):
                    break
                move = game.move_from_json(data)
                if not game.is_legal(s, who[0], move):
                    break
                cell = self.move_cell(s, who[0], move)
                if cell is None:
                    break
                s = game.apply(s, {who[0]: move})
            except Exception:  # a record's move the rules cannot read: the line ends
                break
            cells.append(cell)
        return cells

    def move_cell(self, state: Any, seat: int, move: Any) -> tuple[int, int] | None:
        """The cell a legal ``move`` of ``seat`` in ``state`` goes to, for drawing a
        principal variation (:meth:`pv_cells`); ``None`` (the default): the game draws
        none."""
        return None

    def gif_overlays(self) -> tuple[str, ...]:
        """The overlays a replay GIF may carry (``atlas replay --overlay NAME``), named
        as the viewer names them (:meth:`overlays`).  Default: none."""
        return ()

    def overlay_frame(
        self, frame: Frame, state: Any, name: str, game_map: GameMap, params: Mapping[str, Any]
    ) -> Frame:
        """``frame`` (the frame of ``state``) with the overlay ``name`` drawn on it, one
        of :meth:`gif_overlays`: a light tint of the free cells and a few marks, in
        palette indices.  Default: the game has none, so any name is a ``ValueError``."""
        raise ValueError(f"no GIF overlay {name!r}")

    def turning_points(
        self,
        game_map: GameMap,
        params: Mapping[str, Any],
        states: Sequence[Any],
        series: Sequence[Series],
        names: Sequence[str],
    ) -> list[dict[str, Any]]:
        """The turns a game page lists as its turning points, in turn order: each
        ``{"turn", "seat", "text"}`` (``turn``: the state's index, as ``#turn=N``
        names it; ``text``: what happened, in words, with the players' ``names``).
        Default: the largest swings of the first charted measure
        (:func:`atlas.render.turning.turning_points`)."""
        from .turning import turning_points

        return turning_points(series, names)

    def move_text(self, move: Any) -> str | None:
        """A recorded (JSON) move as people read it, or ``None`` for its JSON text."""
        return None

    def turns_text(self, record: Any, states: Sequence[Any]) -> str | None:
        """The length of a recorded game as its page states it, saying why it is not
        the number a reader expects (``states``: the record's states, the first
        before any turn), or ``None`` for the plain number of turns.  Default: None."""
        return None

    def failures(self, record: Any, states: Sequence[Any]) -> list[dict[str, Any]]:
        """The players' failures a game page lists, turn by turn: each
        ``{"index", "turn", "seat", "how", "what", "effect"}`` (``index``: the record's
        turn, 0-based; ``turn``: the game's turn), from the record and its replayed
        ``states``.  Default: none (the statuses say it)."""
        return []

    def game_pictures(
        self, game_map: GameMap, params: Mapping[str, Any], states: Sequence[Any]
    ) -> list[tuple[str, Any]]:
        """Pictures of a few positions of a game that teach something about the map
        (a map page shows them for its featured game), as ``(caption, image)``.
        Default: none."""
        return []

    def validation_picture(self, text: str, report: Mapping[str, Any]) -> bytes | None:
        """A picture of the problems of a validation report (its JSON form,
        :meth:`atlas.maps.validation.ValidationReport.to_json`) on the map of ``text``,
        as PNG bytes: the cells a problem points at marked in :data:`.palette.ERROR`
        for errors, :data:`.palette.WARNING` for warnings.  Default: ``None``, no
        picture (a game that validates its maps may draw one)."""
        return None


class DuelRender(GameRender):
    """A grid map with two starts: its pictures add the Voronoi split of the starts
    with the articulation points, and ``atlas analyze --png`` draws that one."""

    pictures = {
        "thumb": "",
        "plain": "The map (start cells marked: seat 1 circle, seat 2 square)",
        "voronoi": "Voronoi shading at the start (light red: seat 1 is nearer, light blue: "
        "seat 2, white: equal) and articulation points (rings)",
    }
    png_kind = "voronoi"

    def picture(self, game_map: GameMap, kind: str) -> Any:
        if kind == "voronoi":
            return I.map_picture(game_map, voronoi=True, articulation=True)
        return super().picture(game_map, kind)


def cells_of(array: Any) -> list[tuple[int, int]]:
    """``[[row, col], ...]`` (any array-like) as a list of ``(row, col)`` tuples."""
    arr = np.asarray(array).reshape(-1, 2)
    return [(int(r), int(c)) for r, c in arr]
