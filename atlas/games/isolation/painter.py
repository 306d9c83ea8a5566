"""How isolation is drawn: each piece's burned squares in its tint, pieces marked;
map pictures with the Voronoi split of the starts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ...maps import GameMap
from ...render import images as I
from ...render import palette as P
from ...render.frames import Frame, Mark
from ...render.painter import DuelRender, Painter, Series, SitePlan, cells_of
from ...sim.registry import get_game

__all__ = ["IsolationRender", "RENDER"]


class IsolationPainter(Painter):
    """A burned square keeps the tint of the piece that left it."""

    def __init__(self, game_map: GameMap) -> None:
        self.map = game_map
        self.owner = np.full(game_map.shape, -1, dtype=np.int8)

    def __call__(self, state: Any) -> Frame:
        pos = cells_of(state.pos)
        inside = [
            (r, c) for r, c in pos if 0 <= r < self.map.height and 0 <= c < self.map.width
        ]
        for seat, cell in enumerate(pos):
            if cell in inside:
                self.owner[cell] = seat
        grid = I.base_grid(self.map)
        burned = np.asarray(state.blocked, dtype=bool) & ~self.map.blocked
        for seat in range(2):
            grid[burned & (self.owner == seat)] = P.PLAYER_TINT[seat]
        grid[burned & (self.owner < 0)] = P.WALL
        marks = [
            Mark(cell, P.PLAYER_SHAPES[seat], P.PLAYER[seat])
            for seat, cell in enumerate(pos)
            if cell in inside
        ]
        return Frame(grid, marks, int(state.turn))


_KING = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
_KNIGHT = ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1))


def reachable(free: Any, start: tuple[int, int], knight: bool) -> Any:
    """The free squares a piece on ``start`` could reach in moves of its own (a queen's
    reach is its king-step region; a knight's, its jumps'), as a boolean grid."""
    rows, cols = free.shape
    seen = np.zeros_like(free, dtype=bool)
    todo = [start]
    while todo:
        r, c = todo.pop()
        for dr, dc in _KNIGHT if knight else _KING:
            q = (r + dr, c + dc)
            if 0 <= q[0] < rows and 0 <= q[1] < cols and free[q] and not seen[q]:
                seen[q] = True
                todo.append(q)
    return seen


def reachable_overlay(frame: Frame, state: Any) -> Frame:
    """``frame`` with a dot on every free square a piece could reach, the other
    standing still: in the seat's trail colour, grey for both (an unplaced piece
    reaches every free square)."""
    free = ~np.asarray(state.blocked, dtype=bool)
    rows, cols = free.shape
    reach = []
    for r, c in cells_of(state.pos):
        inside = 0 <= r < rows and 0 <= c < cols
        reach.append(reachable(free, (r, c), state.variant == "knight") if inside else free)
    dots = []
    for r, c in zip(*np.nonzero(reach[0] | reach[1])):
        cell = (int(r), int(c))
        both = reach[0][cell] and reach[1][cell]
        colour = P.DISPUTED if both else P.PLAYER_TRAIL[0 if reach[0][cell] else 1]
        dots.append(Mark(cell, "dot", colour, None))
    return Frame(frame.grid, dots + frame.marks, frame.turn, frame.caption)


def mobility_series(states: Sequence[Any]) -> Series:
    """Each piece's mobility after every move: the squares it could move to if it were
    its turn (an unplaced piece: every free square)."""
    game = get_game("isolation")
    values: list[list[int]] = [[], []]
    for state in states:
        for seat in (0, 1):
            probe = state.copy()
            probe.to_play, probe.forfeit = seat, -1
            values[seat].append(len(game.legal_moves(probe, seat)))
    return {"name": "Mobility", "phrase": "mobility", "unit": "moves", "values": values}


class IsolationRender(DuelRender):
    #: Both searches in both seats on every map at 0.05 s a move; random, a gauntlet.
    site_plan = SitePlan(time=0.05, top=2)
    plain_draw_rate = 1e-5  # seconds a turn and map character, measured

    def series(
        self, game_map: GameMap, params: Mapping[str, Any], states: Sequence[Any]
    ) -> list[Series]:
        return [mobility_series(states)]

    def move_cell(self, state: Any, seat: int, move: Any) -> tuple[int, int] | None:
        """A move is the square the piece lands on."""
        return int(move[0]), int(move[1])

    def overlays(self, game_map: GameMap, params: Mapping[str, Any]) -> dict[str, Any] | None:
        """The squares each piece could reach and those it could move to now, moving
        as the game's variant says."""
        variant = params.get("variant") or game_map.meta.get("variant", "queen")
        return {
            "names": ["reachable", "mobility"],
            "free": [P.FREE],
            "seats": [P.PLAYER[0], P.PLAYER[1]],
            "args": {"moves": str(variant)},
        }

    def gif_overlays(self) -> tuple[str, ...]:
        return ("reachable",)

    def overlay_frame(
        self, frame: Frame, state: Any, name: str, game_map: GameMap, params: Mapping[str, Any]
    ) -> Frame:
        """``reachable``: dots on the squares each piece could reach
        (:func:`reachable_overlay`)."""
        if name == "reachable":
            return reachable_overlay(frame, state)
        return super().overlay_frame(frame, state, name, game_map, params)

    def move_text(self, move: Any) -> str | None:
        """``[row, col]`` as ``row r, col c``."""
        if isinstance(move, list) and len(move) == 2:
            return f"row {move[0]}, col {move[1]}"
        return None

    def painter(self, game_map: GameMap, params: Mapping[str, Any]) -> Painter:
        return IsolationPainter(game_map)


RENDER = IsolationRender()
