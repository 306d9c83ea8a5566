"""How Outpost is drawn: territory in each empire's tint (owned water mixed with it),
disputed cells, outposts as large marks, homes framed; supply lines; and the picture of
a submitted map's validation problems."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ...analysis.components import label_components
from ...analysis.distances import bfs_distances
from ...maps import GameMap
from ...render import images as I
from ...render import palette as P
from ...render.frames import Frame, Mark
from ...render.painter import FrameRule, GameRender, Painter, Series, SitePlan, cells_of
from ...render.viewer import SHAPES
from .analysis import OwnershipBoard, influence
from .format import HOMES as OUTPOST_HOMES
from .format import QUARTER as OUTPOST_QUARTER
from .format import line_xy as outpost_line_xy
from .rules.game import OutpostParams
from .rules.moves import RETURNED_NULL, _is_int

__all__ = [
    "OutpostRender",
    "RENDER",
    "outpost_picture",
    "territory_grid",
    "outpost_owner",
    "outpost_supply",
    "supply_paths",
    "validation_picture",
    "outpost_series",
    "OVERLAY_TURNS",
]

#: Outposts are drawn this many cells wide in a replay, so they show on a 100x100 board.
OUTPOST_MARK_SCALE = 2.6
#: The positions of a featured game pictured on its map page, as shares of the game.
OVERLAY_TURNS = (0.25, 0.5, 0.75, 1.0)


def _land_grid(game_map: GameMap) -> I.IndexImage:
    return np.where(game_map.blocked, P.WATER, P.LAND).astype(np.uint8)


def outpost_picture(
    game_map: GameMap,
    *,
    outposts: Sequence[Sequence[tuple[int, int]]] | None = None,
    radius: int = 10,
    supply_for: int | Sequence[int] | None = None,
    cell_px: int | None = None,
    homes: bool = True,
) -> Any:
    """An Outpost board: land, water, each empire's territory, disputed cells, marks.

    Parameters
    ----------
    outposts : list of lists of (row, col), optional
        Each empire's outposts; default one on each home cell (the start of a game).
    radius : int
        The radius of influence ``r``.
    supply_for : int or sequence of int, optional
        Draw a shortest supply line of each of this empire's (these empires')
        outposts (dots in its dark colour, :func:`supply_paths`); an outpost without
        one gets a cross.
    homes : bool
        Frame each home cell in its empire's colour.

    Notes
    -----
    Ownership and supply come from :mod:`atlas.games.outpost.analysis`; the picture is one
    palette lookup plus a stamp per outpost.
    """
    k = cell_px or I.cell_size(game_map.shape, target=500)
    if outposts is None:
        outposts = [[home] for home in OUTPOST_HOMES]
    owner = outpost_owner(game_map, outposts, radius)
    grid = territory_grid(game_map, owner)
    image = I.upscale(grid, k)
    cut: list[tuple[int, int]] = []
    seats = (
        []
        if supply_for is None
        else [supply_for]
        if isinstance(supply_for, int)
        else list(supply_for)
    )
    for seat in seats:
        mine = [(int(r), int(c)) for r, c in outposts[seat]]
        for cell, path in zip(mine, supply_paths(game_map, owner, mine, seat)):
            if path is None:
                cut.append(cell)
                continue
            I.mark_cells(image, path, k, "dot" if k >= 4 else "square", P.PLAYER_DARK[seat])
    if homes:
        for seat, home in enumerate(OUTPOST_HOMES):
            I.stamp(image, home, k, "frame", P.PLAYER_DARK[seat])
    big = max(k, min(3 * k, 15))
    for seat, cells in enumerate(outposts):
        for cell in cells:
            I.stamp(
                image, cell, k, P.PLAYER_SHAPES[seat], P.PLAYER[seat], outline=P.MARK, size=big
            )
    for cell in cut:
        I.stamp(image, cell, k, "cross", P.MARK, size=big)
    return I.index_image(image)


def territory_grid(game_map: GameMap, owner: npt.ArrayLike) -> I.IndexImage:
    """Palette indices of an Outpost ownership grid (seat >= 0, -1 neutral, -2
    disputed) over land and water; owned water is water mixed with the empire's colour."""
    return _territory(game_map.blocked, owner)


#: Owner code + 2 (disputed, neutral, seats 0..3) to its colour, on land and on water.
_ON_LAND = np.array([P.DISPUTED, P.LAND, *P.PLAYER_TINT], np.uint8)
_ON_WATER = np.array([P.DISPUTED, P.WATER, *P.PLAYER_WATER], np.uint8)


def _territory(water: npt.NDArray[np.bool_], owner: npt.ArrayLike) -> I.IndexImage:
    code = np.asarray(owner) + 2
    grid: I.IndexImage = np.where(water, _ON_WATER[code], _ON_LAND[code])
    return grid


def outpost_owner(
    game_map: GameMap, outposts: Sequence[Sequence[tuple[int, int]]], radius: int
) -> npt.NDArray[np.int32]:
    """Ownership grid (seat, -1 neutral, -2 disputed) of outpost positions."""
    cells = [np.asarray(o, dtype=np.int32).reshape(-1, 2) for o in outposts]
    return np.asarray(influence(game_map.blocked, cells, int(radius)).owner)


def outpost_supply(game_map: GameMap, owner: npt.ArrayLike, seat: int) -> npt.NDArray[np.bool_]:
    """The land through which ``seat``'s supply lines can run: the cells linked to its
    home by orthogonal paths over land that is neutral or its own (the home itself
    must be such a cell, else the region is empty)."""
    own = np.asarray(owner)
    good = ~game_map.blocked & ((own == -1) | (own == seat))
    home = OUTPOST_HOMES[seat]
    if not good[home]:
        return np.zeros(game_map.shape, dtype=np.bool_)
    labels, _ = label_components(good)
    return labels == labels[home]


def supply_paths(
    game_map: GameMap, owner: npt.ArrayLike, cells: Sequence[tuple[int, int]], seat: int
) -> list[list[tuple[int, int]] | None]:
    """A shortest supply line from home to each of ``seat``'s outposts ``cells``, or
    ``None`` for an outpost that has none.

    Notes
    -----
    One breadth-first search from the home over the good cells (land, neutral or the
    empire's own; :func:`outpost_supply`), then each path is walked back from the
    outpost's best neighbour along decreasing distances: O(cells + total path length).
    """
    own = np.asarray(owner)
    good = ~game_map.blocked & ((own == -1) | (own == seat))
    home = OUTPOST_HOMES[seat]
    h, w = game_map.shape
    out: list[list[tuple[int, int]] | None] = []
    if not good[home]:
        return [[] if tuple(c) == home else None for c in cells]
    dist = np.asarray(bfs_distances(good, [home]))
    steps = ((-1, 0), (0, 1), (1, 0), (0, -1))
    for cell in cells:
        r, c = int(cell[0]), int(cell[1])
        if (r, c) == home:
            out.append([])
            continue
        best = None
        for dr, dc in steps:
            rr, cc = r + dr, c + dc
            if (
                0 <= rr < h
                and 0 <= cc < w
                and dist[rr, cc] >= 0
                and (best is None or dist[rr, cc] < dist[best])
            ):
                best = (rr, cc)
        if best is None:
            out.append(None)
            continue
        path = [best]
        while dist[path[-1]] > 0:
            pr, pc = path[-1]
            for dr, dc in steps:
                rr, cc = pr + dr, pc + dc
                if 0 <= rr < h and 0 <= cc < w and dist[rr, cc] == dist[pr, pc] - 1:
                    path.append((rr, cc))
                    break
        out.append(path)
    return out


def _sample_outposts(gm: GameMap) -> list[list[tuple[int, int]]]:
    """A fixed illustrative position: each empire's home and three outposts spread
    towards the centre on the nearest land (the same for every map)."""
    land = np.argwhere(gm.free)
    out = []
    for hr, hc in OUTPOST_HOMES:
        cells = [(hr, hc)]
        for fr, fc in ((0.18, 0.08), (0.08, 0.22), (0.3, 0.3)):
            tr = round(hr + (49.5 - hr) * fr * 2)
            tc = round(hc + (49.5 - hc) * fc * 2)
            d = np.abs(land[:, 0] - tr) + np.abs(land[:, 1] - tc)
            r, c = land[int(np.argmin(d))]
            cells.append((int(r), int(c)))
        out.append(cells)
    return out


def validation_picture(text: str, report: Mapping[str, Any], cell_px: int = 10) -> bytes:
    """The 50x50 quarter as read (every in-range ``x y`` line is water) with the cells
    the validator points at filled and ringed: red for errors, yellow for warnings."""
    n = OUTPOST_QUARTER
    water = np.zeros((n, n), dtype=bool)
    for line in text.splitlines():
        xy = outpost_line_xy(line.lstrip("\ufeff"))
        if xy is not None and 0 <= xy[0] < n and 0 <= xy[1] < n:
            water[xy[1], xy[0]] = True
    grid = np.where(water, P.WATER, P.LAND).astype(np.uint8)
    image = I.upscale(grid, cell_px)
    I.grid_lines(image, cell_px, under=(P.LAND,))

    def cells(problems: Any, key: str) -> list[tuple[int, int]]:
        out = []
        for p in problems:
            raw = (
                ([p["cell"]] if p.get("cell") else [])
                if key == "cell"
                else list(p.get("region", []))
            )
            for xy in raw:
                x, y = int(xy[0]), int(xy[1])
                if 0 <= x < n and 0 <= y < n:
                    out.append((y, x))
        return out

    big = 3 * cell_px
    for kind, color in (("warnings", P.WARNING), ("errors", P.ERROR)):
        problems = report.get(kind, [])
        region = np.zeros((n, n), dtype=bool)
        for r, c in cells(problems, "region") + cells(problems, "cell"):
            region[r, c] = True
        image[I.upscale(region.astype(np.uint8), cell_px).astype(bool)] = color
        I.mark_cells(image, cells(problems, "cell"), cell_px, "ring", color, size=big)
    return I.png_bytes(I.index_image(image))


class OutpostPainter(Painter):
    """Territory from the state's ownership; outposts and homes as marks."""

    stateful = False

    def __init__(self, game_map: GameMap) -> None:
        self.map = game_map

    def __call__(self, state: Any) -> Frame:
        grid = territory_grid(self.map, state.owner)
        marks = [
            Mark(home, "frame", P.PLAYER_DARK[seat], None)
            for seat, home in enumerate(OUTPOST_HOMES)
        ]
        for seat, posts in enumerate(state.outposts):
            for cell in cells_of(posts):
                marks.append(
                    Mark(cell, P.PLAYER_SHAPES[seat], P.PLAYER[seat], scale=OUTPOST_MARK_SCALE)
                )
        return Frame(grid, marks, int(state.turn))


def outpost_series(states: Sequence[Any]) -> list[Series]:
    """Per empire after every turn: the land and the water it controls alone, and its
    outposts."""
    land: list[list[int]] = [[] for _ in range(4)]
    water: list[list[int]] = [[] for _ in range(4)]
    posts: list[list[int]] = [[] for _ in range(4)]
    for state in states:
        counts = np.asarray(state.counts)
        for e in range(4):
            land[e].append(int(counts[e, 0]))
            water[e].append(int(counts[e, 1]))
            posts[e].append(int(state.num_outposts(e)))
    return [
        {"name": "Land", "phrase": "land", "unit": "cells", "values": land},
        {"name": "Water", "phrase": "water", "unit": "cells", "values": water},
        {"name": "Outposts", "phrase": "outposts", "unit": "outposts", "values": posts},
    ]


class OutpostRender(GameRender):
    pictures = {
        "thumb": "",
        "territory": "Territory at the start (each empire's outpost on its home)",
        "supply": "Empire 1's supply line and the territory of a sample position",
    }
    png_kind = "supply"
    #: The four bots on every map, in one of their four seatings (dealt out over the
    #: maps in turn, so each seating plays once on four maps); full games (the spec's
    #: T = 500 turns), 0.1 s a move (the bots answer in a few milliseconds).
    site_plan = SitePlan(
        time=0.1,
        params={"T": 500},
        top=4,
        top_per_map=1,
        gauntlet=False,
        fairness_bot="defender",
    )
    validation_caption = (
        "Problems found by the validator (red: errors, yellow: warnings) on the 50x50 quarter"
    )
    game_pictures_title = "Influence and supply lines in the featured game"
    game_pictures_note = (
        "Each empire's influence in its tint (the cells it holds alone; "
        "grey: disputed between empires; owned water darker) and the "
        "supply line of each of its outposts back home, dotted in its "
        "dark colour; a cross marks an outpost cut off from home."
    )

    def base_grid(self, game_map: GameMap) -> I.IndexImage:
        return _land_grid(game_map)

    def overlays(self, game_map: GameMap, params: Mapping[str, Any]) -> dict[str, Any] | None:
        """Each empire's territory and its counts, read from the frame's colours, and
        its outposts' supply lines home (the marks of its colour are its outposts)."""
        return {
            "names": ["ownership", "supply"],
            "free": [],
            "seats": list(P.PLAYER),
            "args": {
                "homes": [list(h) for h in OUTPOST_HOMES],
                "tints": list(P.PLAYER_TINT),
                "waters": list(P.PLAYER_WATER),
                "land": [P.LAND],
                "disputed": P.DISPUTED,
                "dark": list(P.PLAYER_DARK),
            },
        }

    def gif_overlays(self) -> tuple[str, ...]:
        return ("supply",)

    def frame_rule(self, game_map: GameMap, params: Mapping[str, Any]) -> FrameRule | None:
        """The territory of a frame from its outposts (``templates/static/frames.js``,
        the rule ``influence``): what :func:`territory_grid` draws of the ownership
        :func:`outpost_owner` gives them.  A frame differs from it where the rules
        leave the ownership behind the outposts: a season's new home outposts before
        their turn, an official turn cut short.  ``None`` for a radius that is not a
        whole number (such a record does not replay)."""
        r = params.get("r", OutpostParams.r)
        if not _is_int(r) or r < 0:
            return None
        radius = int(r)
        posts = [[SHAPES.index(P.PLAYER_SHAPES[s]), P.PLAYER[s], s] for s in range(4)]
        seat_of = {(shape, colour): seat for shape, colour, seat in posts}
        water = np.asarray(game_map.blocked, dtype=bool)
        board = OwnershipBoard(water, radius)  # made once a game, not once a turn
        stride, counts = board.stride, np.zeros((4, 3), np.int64)

        def grid(marks: Sequence[Sequence[Any]]) -> np.ndarray:
            flat, emps = [], []
            for m in marks:
                seat = seat_of.get((m[2], m[3]))
                if seat is not None:
                    flat.append((int(m[0]) + 1) * stride + int(m[1]) + 1)
                    emps.append(seat)
            owner = board.owner(np.array(flat, np.int64), np.array(emps, np.int64), counts)
            return _territory(water, owner)

        spec = {
            "kind": "influence",
            "r": radius,
            "land": P.LAND,
            "posts": posts,
            "tints": list(P.PLAYER_TINT),
            "waters": list(P.PLAYER_WATER),
            "disputed": P.DISPUTED,
        }
        return FrameRule(spec, grid)

    def overlay_frame(
        self, frame: Frame, state: Any, name: str, game_map: GameMap, params: Mapping[str, Any]
    ) -> Frame:
        """``supply``: a shortest supply line of every outpost back home, dotted in its
        empire's dark colour, and a cross on an outpost that has none
        (:func:`supply_paths`, as the featured game's pictures draw them)."""
        if name != "supply":
            return super().overlay_frame(frame, state, name, game_map, params)
        lines: list[Mark] = []
        cut: list[Mark] = []
        for seat, posts in enumerate(state.outposts):
            mine = cells_of(posts)
            for cell, path in zip(mine, supply_paths(game_map, state.owner, mine, seat)):
                if path is None:
                    cut.append(Mark(cell, "cross", P.MARK, None, scale=OUTPOST_MARK_SCALE))
                else:
                    lines.extend(Mark(c, "dot", P.PLAYER_DARK[seat], None) for c in path)
        return Frame(frame.grid, lines + frame.marks + cut, frame.turn, frame.caption)

    def picture(self, game_map: GameMap, kind: str) -> Any:
        if kind == "territory":
            return outpost_picture(game_map)
        if kind == "supply":
            return outpost_picture(game_map, outposts=_sample_outposts(game_map), supply_for=0)
        return super().picture(game_map, kind)

    def thumbnail(self, game_map: GameMap, size: int = 160) -> Any:
        return outpost_picture(
            game_map, cell_px=I.cell_size(game_map.shape, target=size, lo=1, hi=12)
        )

    def painter(self, game_map: GameMap, params: Mapping[str, Any]) -> Painter:
        return OutpostPainter(game_map)

    def series(
        self, game_map: GameMap, params: Mapping[str, Any], states: Sequence[Any]
    ) -> list[Series]:
        return outpost_series(states)

    def turns_text(self, record: Any, states: Sequence[Any]) -> str | None:
        """``"507 turns: 500 turns of play and 7 turns where an empire chose an outpost
        to disband"``: a record holds each disband phase as a turn of its own (the
        rules' turn counter does not advance in it), and the official mode plays
        ``T + 1`` turns; ``None`` when the record holds only turns of play and no
        more than ``T`` of them (a game that ended early says so in its result)."""
        n = len(record.turns)
        disbands = sum(1 for s in states[:n] if any(s.pending))
        played = n - disbands
        limit = int(record.params.get("T", 0))
        official = record.params.get("compat") == "official" and played == limit + 1
        if disbands == 0 and not official:
            return None
        if disbands == 0 and official:
            return f"{n} turns: the official simulator plays T + 1 = {played} (T = {limit})"
        text = f"{n} turns: {played} turn{'s' if played != 1 else ''} of play"
        if official:
            text += " (the official simulator plays T + 1)"
        if disbands:
            text += (
                f" and {disbands} turn{'s' if disbands != 1 else ''} where an empire "
                "chose an outpost to disband"
            )
        return text

    def move_text(self, move: Any) -> str | None:
        """Steps as ``#index → (row, col)``, a step without a target as ``#index → no
        target``, a disband as ``disband #index``, no step as ``stay``, a list the
        player did not give as ``returned null``."""
        if isinstance(move, int) and not isinstance(move, bool):
            return f"disband #{move}"
        if move == RETURNED_NULL:
            return "returned null"
        if not isinstance(move, list):
            return None
        if not move:
            return "stay"
        parts = []
        for step in move:
            if not isinstance(step, list) or not step:
                return None
            target = step[1] if len(step) > 1 else None
            parts.append(
                f"#{step[0]} → ({target[0]}, {target[1]})"
                if isinstance(target, list) and len(target) == 2
                else f"#{step[0]} → no target"
            )
        return ", ".join(parts)

    def failures(self, record: Any, states: Sequence[Any]) -> list[dict[str, Any]]:
        """Every failure of a player (:func:`atlas.games.outpost.rules.faults.find_failures`):
        threw, returned null, stopped the turn, a bad disband answer, and what the
        simulator (official mode) or the spec rules did about it."""
        from .rules.faults import find_failures

        return [f.to_json() for f in find_failures([t.moves for t in record.turns], states)]

    def game_pictures(
        self, game_map: GameMap, params: Mapping[str, Any], states: Sequence[Any]
    ) -> list[tuple[str, Any]]:
        """Influence and supply lines at a quarter, half, three quarters and the end of
        the game (:data:`OVERLAY_TURNS`)."""
        out = []
        last = len(states) - 1
        radius = int(params.get("r", 10))
        for share in OVERLAY_TURNS:
            i = min(last, max(0, round(share * last)))
            state = states[i]
            posts = [[(int(r), int(c)) for r, c in p] for p in state.outposts]
            image = outpost_picture(
                game_map, outposts=posts, radius=radius, supply_for=range(4), cell_px=4
            )
            out.append((f"Turn {i} of {last}", image))
        return out

    def cell_px(self, shape: tuple[int, int]) -> int:
        return I.cell_size(shape, target=400, lo=1, hi=8)

    def viewer_cell_px(self, shape: tuple[int, int]) -> int:
        return 5

    def validation_picture(self, text: str, report: Mapping[str, Any]) -> bytes:
        return validation_picture(text, report)


RENDER = OutpostRender()
