"""How tic-tac-toe is drawn: seat 1's marks as circles, seat 2's as crosses."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from atlas.errors import MapFormatError
from atlas.maps import GameMap
from atlas.render import images as I
from atlas.render import palette as P
from atlas.render.frames import Frame, Mark
from atlas.render.painter import GameRender, Painter


class TicTacToePainter(Painter):
    stateful = False

    def __init__(self, game_map: GameMap) -> None:
        self.base = I.base_grid(game_map)

    def __call__(self, state: Any) -> Frame:
        marks = [
            Mark((int(r), int(c)), ("circle", "cross")[seat], P.PLAYER[seat], None)
            for seat in (0, 1)
            for r, c in np.argwhere(state.board == seat + 1)
        ]
        return Frame(self.base.copy(), marks, int(state.turn))


class TicTacToeRender(GameRender):
    validation_caption = "The board, the cells of its problems ringed"

    def painter(self, game_map: GameMap, params: Mapping[str, Any]) -> Painter:
        return TicTacToePainter(game_map)

    def validation_picture(self, text: str, report: Mapping[str, Any]) -> bytes | None:
        """The board with the cells the report's errors point at ringed."""
        from .format import parse

        try:
            board = parse(text, "map", None)
        except MapFormatError:
            return None
        k = 20
        image = I.upscale(I.base_grid(board), k)
        cells = [
            (int(y), int(x))
            for p in report.get("errors", [])
            for x, y in ([p["cell"]] if p.get("cell") else []) + list(p.get("region", []))
        ]
        I.mark_cells(image, cells, k, "ring", P.ERROR)
        return I.png_bytes(I.index_image(image))


RENDER = TicTacToeRender()
