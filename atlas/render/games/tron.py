"""How tron is drawn: trails in each cycle's colour, heads marked, crashes crossed;
map pictures with the Voronoi split, the chambers and the articulation points."""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ...maps import GameMap
from .. import images as I
from .. import palette as P
from ..frames import Frame, Mark
from .base import DuelRender, Painter, cells_of

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


class TronRender(DuelRender):
    pictures = {**DuelRender.pictures,
                "chambers": "Chambers of seat 1's chamber tree, with their sizes"}

    def picture(self, game_map: GameMap, kind: str) -> Any:
        if kind == "chambers":
            return I.map_picture(game_map, chambers=True, articulation=True)
        return super().picture(game_map, kind)

    def painter(self, game_map: GameMap, params: Mapping[str, Any]) -> Painter:
        return TronPainter(game_map)


RENDER = TronRender()
