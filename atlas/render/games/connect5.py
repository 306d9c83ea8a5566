"""How connect5 is drawn: a board of holes, discs in the seats' colours, the last disc
ringed."""

from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from ...maps import GameMap
from .. import images as I
from .. import palette as P
from ..frames import Frame, Mark
from .base import GameRender, Painter

__all__ = ["Connect5Render", "RENDER"]


class Connect5Painter(Painter):
    """Discs as circles (seat 2's with a dot, for readers who cannot tell the colours
    apart); the discs new since the last frame are ringed."""

    def __init__(self, game_map: GameMap) -> None:
        self.last = np.zeros(game_map.shape, dtype=np.int8)

    def __call__(self, state: Any) -> Frame:
        board = np.asarray(state.board, dtype=np.int8)
        grid = np.full(board.shape, P.BOARD, dtype=np.uint8)
        marks = []
        new = np.argwhere((board != 0) & (self.last == 0))
        for r, c in np.argwhere(board == 0):
            marks.append(Mark((int(r), int(c)), "circle", P.FREE, None))
        for seat in (0, 1):
            for r, c in np.argwhere(board == seat + 1):
                marks.append(Mark((int(r), int(c)), "circle", P.PLAYER[seat], None))
                if seat == 1:
                    marks.append(Mark((int(r), int(c)), "dot", P.PLAYER_DARK[1], None))
        for r, c in new:
            marks.append(Mark((int(r), int(c)), "ring", P.WARNING, None))
        self.last = board.copy()
        return Frame(grid, marks, int(state.turn))


class Connect5Render(GameRender):
    pictures = {"thumb": "", "plain": "The empty board"}

    def base_grid(self, game_map: GameMap) -> I.IndexImage:
        return np.full(game_map.shape, P.BOARD, dtype=np.uint8)

    def picture(self, game_map: GameMap, kind: str) -> Any:
        if kind in ("plain", "thumb"):
            k = I.cell_size(game_map.shape, target=160, lo=1, hi=12) if kind == "thumb" \
                else None
            return I.map_picture(game_map, base=self.base_grid(game_map), cell_px=k,
                                 cell_mark=("circle", P.FREE))
        return super().picture(game_map, kind)

    def painter(self, game_map: GameMap, params: Mapping[str, Any]) -> Painter:
        return Connect5Painter(game_map)


RENDER = Connect5Render()
