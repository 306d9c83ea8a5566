"""How connect5 is drawn: a board of holes, discs in the seats' colours, the last disc
ringed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ...maps import GameMap
from ...render import images as I
from ...render import palette as P
from ...render.frames import Frame, Mark
from ...render.painter import GameRender, Painter, Series, SitePlan
from .format import inarow_of
from .rules import DEFAULT_INAROW, is_winning_drop

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


def threat_cells(board: np.ndarray, inarow: int) -> list[tuple[tuple[int, int], int]]:
    """Each seat's open threats as ``(cell, seat)``: the empty cells where its disc
    would complete a line of ``inarow`` (playable now or later, as in Allis's threat
    analysis)."""
    out = []
    work = np.array(board, dtype=np.int8, copy=True)
    for r, c in np.argwhere(work == 0):
        for seat in (0, 1):
            work[r, c] = seat + 1
            if is_winning_drop(work, int(r), int(c), inarow):
                out.append(((int(r), int(c)), seat))
        work[r, c] = 0
    return out


def open_threats(board: np.ndarray, inarow: int) -> tuple[int, int]:
    """Each seat's number of open threats (:func:`threat_cells`)."""
    seats = [seat for _, seat in threat_cells(board, inarow)]
    return seats.count(0), seats.count(1)


def threat_series(states: Sequence[Any]) -> Series:
    """Each seat's open threats (:func:`open_threats`) after every move."""
    values: list[list[int]] = [[], []]
    for state in states:
        a, b = open_threats(state.board, int(state.inarow))
        values[0].append(a)
        values[1].append(b)
    return {
        "name": "Open threats",
        "phrase": "open threats",
        "unit": "threats",
        "values": values,
    }


class Connect5Render(GameRender):
    pictures = {"thumb": "", "plain": "The empty board"}
    #: Both searches in both seats on every board at 0.05 s a move; random, a gauntlet.
    site_plan = SitePlan(time=0.05, top=2)
    plain_draw_rate = 3e-5  # seconds a turn and map character, measured

    def series(
        self, game_map: GameMap, params: Mapping[str, Any], states: Sequence[Any]
    ) -> list[Series]:
        return [threat_series(states)]

    def move_cell(self, state: Any, seat: int, move: Any) -> tuple[int, int] | None:
        """A move is a column; the disc lands on its lowest empty row (row 0 on top)."""
        col = int(move)
        return state.board.shape[0] - 1 - int(state.heights[col]), col

    def overlays(self, game_map: GameMap, params: Mapping[str, Any]) -> dict[str, Any] | None:
        """Each seat's open windows and open threats; its discs are the marks of its
        colour."""
        inarow = params.get("inarow") or inarow_of(game_map, DEFAULT_INAROW)
        return {
            "names": ["windows", "threats"],
            "free": [],
            "seats": [P.PLAYER[0], P.PLAYER[1]],
            "args": {"inarow": int(inarow)},
        }

    def gif_overlays(self) -> tuple[str, ...]:
        return ("threats",)

    def overlay_frame(
        self, frame: Frame, state: Any, name: str, game_map: GameMap, params: Mapping[str, Any]
    ) -> Frame:
        """``threats``: a ring in the seat's colour on each empty cell where its disc
        would complete a line (:func:`threat_cells`; grey: both seats')."""
        if name != "threats":
            return super().overlay_frame(frame, state, name, game_map, params)
        seats: dict[tuple[int, int], set[int]] = {}
        for cell, seat in threat_cells(state.board, int(state.inarow)):
            seats.setdefault(cell, set()).add(seat)
        rings = [
            Mark(cell, "ring", P.DISPUTED if len(who) > 1 else P.PLAYER[min(who)], None)
            for cell, who in seats.items()
        ]
        return Frame(frame.grid, frame.marks + rings, frame.turn, frame.caption)

    def move_text(self, move: Any) -> str | None:
        """A column (0-based in the record) as ``col c``."""
        return f"col {move}" if isinstance(move, int) else None

    def base_grid(self, game_map: GameMap) -> I.IndexImage:
        return np.full(game_map.shape, P.BOARD, dtype=np.uint8)

    def picture(self, game_map: GameMap, kind: str) -> Any:
        if kind in ("plain", "thumb"):
            k = (
                I.cell_size(game_map.shape, target=160, lo=1, hi=12)
                if kind == "thumb"
                else None
            )
            return I.map_picture(
                game_map, base=self.base_grid(game_map), cell_px=k, cell_mark=("circle", P.FREE)
            )
        return super().picture(game_map, kind)

    def painter(self, game_map: GameMap, params: Mapping[str, Any]) -> Painter:
        return Connect5Painter(game_map)


RENDER = Connect5Render()
