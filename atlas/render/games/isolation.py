"""How isolation is drawn: each piece's burned squares in its tint, pieces marked;
map pictures with the Voronoi split of the starts."""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ...maps import GameMap
from .. import images as I
from .. import palette as P
from ..frames import Frame, Mark
from .base import DuelRender, Painter, cells_of

__all__ = ["IsolationRender", "RENDER"]


class IsolationPainter(Painter):
    """A burned square keeps the tint of the piece that left it."""

    def __init__(self, game_map: GameMap) -> None:
        self.map = game_map
        self.owner = np.full(game_map.shape, -1, dtype=np.int8)

    def __call__(self, state: Any) -> Frame:
        pos = cells_of(state.pos)
        inside = [(r, c) for r, c in pos
                  if 0 <= r < self.map.height and 0 <= c < self.map.width]
        for seat, cell in enumerate(pos):
            if cell in inside:
                self.owner[cell] = seat
        grid = I.base_grid(self.map)
        burned = np.asarray(state.blocked, dtype=bool) & ~self.map.blocked
        for seat in range(2):
            grid[burned & (self.owner == seat)] = P.PLAYER_TINT[seat]
        grid[burned & (self.owner < 0)] = P.WALL
        marks = [Mark(cell, P.PLAYER_SHAPES[seat], P.PLAYER[seat])
                 for seat, cell in enumerate(pos) if cell in inside]
        return Frame(grid, marks, int(state.turn))


class IsolationRender(DuelRender):
    def painter(self, game_map: GameMap, params: Mapping[str, Any]) -> Painter:
        return IsolationPainter(game_map)


RENDER = IsolationRender()
