"""How tron is drawn: trails in each cycle's colour, heads marked, crashes crossed;
map pictures with the Voronoi split, the chambers and the articulation points."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ...analysis.voronoi import voronoi_counts
from ...maps import GameMap
from ...render import images as I
from ...render import palette as P
from ...render.frames import Frame, Mark
from ...render.painter import DuelRender, Painter, Series, SitePlan, cells_of
from .rules import DELTAS, follows

__all__ = ["TronRender", "RENDER"]


class TronPainter(Painter):
    """Every square a cycle has left keeps that cycle's trail colour."""

    def __init__(self, game_map: GameMap) -> None:
        self.grid = I.base_grid(game_map)

    def __call__(self, state: Any) -> Frame:
        heads = cells_of(state.heads)
        for seat, cell in enumerate(heads):
            self.grid[cell] = P.PLAYER_TRAIL[seat]
        grid = self.grid.copy()
        crashed = np.asarray(state.crashed).reshape(-1)
        marks = []
        for seat, cell in enumerate(heads):
            grid[cell] = P.PLAYER[seat]
            marks.append(Mark(cell, P.PLAYER_SHAPES[seat], P.PLAYER[seat]))
            if crashed[seat]:
                marks.append(Mark(cell, "cross", P.MARK, None))
        return Frame(grid, marks, int(state.turn))


def territory_series(states: Sequence[Any]) -> Series:
    """Each cycle's Voronoi territory after every turn: the free cells its head reaches
    strictly first (:func:`atlas.analysis.voronoi.voronoi_counts`; trails and heads are
    walls).  What the search bots' evaluations start from."""
    values: list[list[int]] = [[], []]
    for state in states:
        h0, h1 = cells_of(state.heads)
        if h0 == h1:  # a head-on collision: nobody holds anything
            counts = {"p1": 0, "p2": 0}
        else:
            counts = voronoi_counts(~np.asarray(state.blocked, dtype=bool), h0, h1)
        values[0].append(int(counts["p1"]))
        values[1].append(int(counts["p2"]))
    return {
        "name": "Voronoi territory",
        "phrase": "Voronoi territory",
        "unit": "cells",
        "values": values,
    }


def voronoi_overlay(frame: Frame, free: Any, heads: Sequence[tuple[int, int]]) -> Frame:
    """``frame`` with its unlit free cells tinted by the head nearer to them (seat
    colours' light tints; ties and a head-on collision left white)."""
    grid = frame.grid.copy()
    if len(set(heads)) == len(heads):
        from ...analysis.voronoi import voronoi_partition

        owner = np.asarray(voronoi_partition(free, list(heads)))
        unlit = free & (grid == P.FREE)
        for seat in range(len(heads)):
            grid[unlit & (owner == seat)] = P.PLAYER_TINT[seat]
    return Frame(grid, list(frame.marks), frame.turn, frame.caption)


def _touching(labels: Any, free: Any, head: tuple[int, int]) -> set[int]:
    """The components of the free cells next to ``head``."""
    r, c = head
    rows, cols = free.shape
    return {
        int(labels[r + dr, c + dc])
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
        if 0 <= r + dr < rows and 0 <= c + dc < cols and free[r + dr, c + dc]
    }


def separation_point(states: Sequence[Any], names: Sequence[str]) -> dict[str, Any] | None:
    """The first turn after which the two cycles can no longer meet (no free cell next
    to one head is connected to a free cell next to the other), both still riding, as a
    turning point: who is sealed into how many cells against how many
    (:func:`atlas.analysis.components.component_size`).

    Under the official 2010 order (``compat="official"``) a head next to the other is
    not sealed off after the first turn: seat 1 may step onto the square seat 2 is
    leaving, and then it is next to seat 2's new square, so the cycles still meet."""
    from ...analysis.components import component_size, label_components

    for t, state in enumerate(states):
        if np.asarray(state.crashed).any():
            return None
        h0, h1 = cells_of(state.heads)
        if follows(state) and abs(h0[0] - h1[0]) + abs(h0[1] - h1[1]) == 1:
            continue  # seat 1 may follow seat 2
        free = ~np.asarray(state.blocked, dtype=bool)
        labels, _ = label_components(free)
        if _touching(labels, free, h0) & _touching(labels, free, h1):
            continue
        sizes = [component_size(free, h0), component_size(free, h1)]
        small = int(sizes[1] < sizes[0])
        text = (
            f"the cycles are separated: {names[small]} is sealed into {sizes[small]} cells "
            f"against {sizes[1 - small]} for {names[1 - small]}"
        )
        return {"turn": t, "seat": 1 - small, "text": text}
    return None


def parity_picture(game_map: GameMap) -> Any:
    """Seat 1's region coloured like a chessboard: the cells of its start's colour in
    its light tint, the others in its trail colour (seat 2's start is a wall)."""
    from ...analysis.components import label_components

    grid = I.base_grid(game_map)
    if len(game_map.starts) >= 2:
        (r0, c0), other = game_map.starts[0], game_map.starts[1]
        free = np.array(game_map.free, dtype=bool, copy=True)
        free[other] = False
        free[r0, c0] = True
        labels, _ = label_components(free)
        region = (labels == labels[r0, c0]) & free
        rows, cols = np.indices(game_map.shape)
        same = (rows + cols) % 2 == (r0 + c0) % 2
        grid[region & same] = P.PLAYER_TINT[0]
        grid[region & ~same] = P.PLAYER_TRAIL[0]
    return I.map_picture(game_map, base=grid)


class TronRender(DuelRender):
    pictures = {
        **DuelRender.pictures,
        "chambers": "Chambers of seat 1's chamber tree, with their sizes",
        "parity": "Seat 1's region coloured like a chessboard (light: its start's "
        "colour, darker: the other)",
    }
    #: The three searches play one game per map (their pairings dealt out over the
    #: maps in turn), at the ladder's 0.1 s a move; the two simple bots, a gauntlet.
    site_plan = SitePlan(time=0.1, top=4, top_per_map=1)
    plain_draw_rate = 5e-6  # seconds a turn and map character, measured

    def series(
        self, game_map: GameMap, params: Mapping[str, Any], states: Sequence[Any]
    ) -> list[Series]:
        return [territory_series(states)]

    def pv_cells(
        self, game: Any, state: Any, seat: int, pv: Sequence[Any]
    ) -> list[tuple[int, int]]:
        """The heads' cells along a principal variation: ``seat``'s moves (1..4) and the
        other's replies in turn, each from its head along its own earlier cells.  It
        stops at a move that is not 1..4 or that enters a wall, a trail, a cell the line
        already took or the edge (the crash a line may expect is not drawn), and after
        a reply onto the cell of the move before it (a collision it expects)."""
        blocked = np.asarray(state.blocked, dtype=bool)
        h, w = blocked.shape
        heads = [(int(r), int(c)) for r, c in np.asarray(state.heads)[:2]]
        if len(heads) != 2 or not 0 <= seat <= 1:
            return []
        taken: set[tuple[int, int]] = set()
        cells: list[tuple[int, int]] = []
        for i, data in enumerate(pv):
            if isinstance(data, bool) or not isinstance(data, int) or not 1 <= data <= 4:
                break
            who = seat if i % 2 == 0 else 1 - seat
            r, c = heads[who]
            dr, dc = int(DELTAS[data][0]), int(DELTAS[data][1])
            cell = (r + dr, c + dc)
            if not (0 <= cell[0] < h and 0 <= cell[1] < w) or blocked[cell]:
                break
            if i % 2 == 1 and cell == cells[-1]:
                cells.append(cell)
                break  # both heads on one cell: the line ends in that collision
            if cell in taken:
                break
            cells.append(cell)
            taken.add(cell)
            heads[who] = cell
        return cells

    def overlays(self, game_map: GameMap, params: Mapping[str, Any]) -> dict[str, Any] | None:
        """Each head's Voronoi region, the cut cells, each head's region and whether
        the heads are separated: free cells are the unlit ones, heads the seats' marks.
        Under the official order (``args.follow``) heads side by side are not separated
        after the first turn (:func:`separation_point`)."""
        spec: dict[str, Any] = {
            "names": ["voronoi", "articulation", "chambers"],
            "free": [P.FREE],
            "seats": [P.PLAYER[0], P.PLAYER[1]],
        }
        if str((params or {}).get("compat", "")) == "official":
            spec["args"] = {"follow": True}
        return spec

    def gif_overlays(self) -> tuple[str, ...]:
        return ("voronoi", "articulation")

    def overlay_frame(
        self, frame: Frame, state: Any, name: str, game_map: GameMap, params: Mapping[str, Any]
    ) -> Frame:
        """``voronoi``: each free cell in the light tint of the head that reaches it
        strictly first (:func:`atlas.analysis.voronoi.voronoi_partition`; trails and
        heads are walls); ``articulation``: a ring on every cut cell of the free cells
        (:func:`atlas.analysis.articulation.articulation_points`)."""
        free = ~np.asarray(state.blocked, dtype=bool)
        if name == "voronoi":
            return voronoi_overlay(frame, free, cells_of(state.heads))
        if name == "articulation":
            from ...analysis.articulation import articulation_points

            rings = [Mark(cell, "ring", P.MARK, None) for cell in articulation_points(free)]
            return Frame(frame.grid, rings + frame.marks, frame.turn, frame.caption)
        return super().overlay_frame(frame, state, name, game_map, params)

    def turning_points(
        self,
        game_map: GameMap,
        params: Mapping[str, Any],
        states: Sequence[Any],
        series: Sequence[Series],
        names: Sequence[str],
    ) -> list[dict[str, Any]]:
        """The largest swings of the Voronoi balance, and the turn the cycles were
        separated (:func:`separation_point`)."""
        points = super().turning_points(game_map, params, states, series, names)
        sealed = separation_point(states, names)
        if sealed is not None:
            points = [p for p in points if p["turn"] != sealed["turn"]] + [sealed]
        return sorted(points, key=lambda p: p["turn"])

    def move_text(self, move: Any) -> str | None:
        """1-4 as the compass point: N, E, S, W."""
        return {1: "N", 2: "E", 3: "S", 4: "W"}.get(move) if isinstance(move, int) else None

    def picture(self, game_map: GameMap, kind: str) -> Any:
        if kind == "chambers":
            return I.map_picture(game_map, chambers=True, articulation=True)
        if kind == "parity":
            return parity_picture(game_map)
        return super().picture(game_map, kind)

    def painter(self, game_map: GameMap, params: Mapping[str, Any]) -> Painter:
        return TronPainter(game_map)


RENDER = TronRender()
