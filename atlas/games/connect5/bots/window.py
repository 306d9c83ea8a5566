"""The seed's connect5 bot, ``window4``: depth-4 minimax over window scores.

This is Brian Gauch's CS 360 bot (``connect5-minimax.txt``) as its write-up describes
it: one board with make/undo, plain minimax to a fixed depth of 4 plies *without*
alpha-beta pruning, and an evaluation that is the signed sum of *move* scores along the
path from the root.

The score of a move looks only at the windows the move touches: every run of
``inarow`` cells (horizontal, vertical, both diagonals) that contains the new disc.
A window still open for the mover (no opposing disc in it) scores ``SCORE[k]`` where
``k + 1`` is the number of the mover's discs in it after the move, with
``SCORE = {0, 10, 100, 1000, 10000}`` for five in a row (``10**k`` for ``k >= 1``
in general).  A window holding an opposing disc scores nothing.  The state heuristic
is the sum of the scores of the bot's moves minus those of the opponent's moves.

The module also holds the board helpers the ``strong`` bot shares: the flat board
(``cell = row * cols + col``, row 0 at the top) and the window table.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ....bots.base import BotBase
from ....bots.search import clock, stop_time
from ....jit import numba

__all__ = [
    "Window4Bot",
    "window_table",
    "move_score",
    "flat_board",
    "tiny_state",
    "SEARCH_DEPTH",
    "EMPTY",
    "SEAT0",
    "SEAT1",
]

#: Board codes of the connect5 state.
EMPTY, SEAT0, SEAT1 = 0, 1, 2
#: Fixed search depth of the seed bot, in plies.
SEARCH_DEPTH = 4
#: Direction vectors (drow, dcol) of the four line directions.
_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def window_table(
    rows: int,
    cols: int,
    inarow: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every line of ``inarow`` cells on a ``rows x cols`` board, and the windows of each cell.

    Returns
    -------
    windows : int32 array (n_windows, inarow)
        Flat cell indices of each window.
    cell_ptr, cell_windows : int32 arrays
        CSR lists: the windows through cell ``c`` are
        ``cell_windows[cell_ptr[c]:cell_ptr[c + 1]]``.
    """
    found: list[list[int]] = []
    for dr, dc in _DIRECTIONS:
        for r in range(rows):
            for c in range(cols):
                er, ec = r + dr * (inarow - 1), c + dc * (inarow - 1)
                if 0 <= er < rows and 0 <= ec < cols:
                    found.append([(r + dr * k) * cols + c + dc * k for k in range(inarow)])
    windows = np.array(found, dtype=np.int32).reshape(len(found), inarow)
    per_cell: list[list[int]] = [[] for _ in range(rows * cols)]
    for w, cells in enumerate(found):
        for cell in cells:
            per_cell[cell].append(w)
    cell_ptr = np.zeros(rows * cols + 1, dtype=np.int32)
    cell_ptr[1:] = np.cumsum([len(p) for p in per_cell])
    cell_windows = np.array([w for p in per_cell for w in p], dtype=np.int32)
    return windows, cell_ptr, cell_windows


def flat_board(state: Any) -> tuple[np.ndarray, np.ndarray, int, int, int]:
    """``(board int8 flat, heights int32, rows, cols, inarow)`` copied from a state."""
    board = np.ascontiguousarray(state.board, dtype=np.int8)
    rows, cols = board.shape
    heights = np.ascontiguousarray(state.heights, dtype=np.int32).copy()
    return board.ravel().copy(), heights, int(rows), int(cols), int(state.inarow)


def tiny_state() -> Any:
    """A small connect-three position (4 x 4), for loading the kernels before a game."""
    from types import SimpleNamespace

    board = np.zeros((4, 4), np.int8)
    board[3, 1], board[3, 2] = 1, 2
    return SimpleNamespace(
        board=board, heights=np.array([0, 1, 1, 0], np.int32), inarow=3, to_play=0, turn=2
    )


def seed_scores(inarow: int) -> np.ndarray:
    """The seed's window scores ``{0, 10, 100, ...}``, one per disc count minus one."""
    scores = np.zeros(inarow, dtype=np.int64)
    for k in range(1, inarow):
        scores[k] = 10**k
    return scores


@numba.njit(cache=True)
def move_score(
    board: np.ndarray,
    cell: int,
    code: int,
    windows: np.ndarray,
    cell_ptr: np.ndarray,
    cell_windows: np.ndarray,
    scores: np.ndarray,
) -> tuple[int, bool]:
    """Seed score of the disc ``code`` just placed on ``cell``, and whether it won.

    Notes
    -----
    Visits only the windows through ``cell``; cost O(inarow^2).
    """
    inarow = windows.shape[1]
    total = 0
    won = False
    for i in range(cell_ptr[cell], cell_ptr[cell + 1]):
        w = cell_windows[i]
        own = 0
        for k in range(inarow):
            v = board[windows[w, k]]
            if v == code:
                own += 1
            elif v != EMPTY:
                own = -1
                break
        if own > 0:
            total += scores[own - 1]
            if own == inarow:
                won = True
    return total, won


class SeedBoard(NamedTuple):
    """What the seed's minimax reads: the flat board and column heights (changed and
    restored as it goes), the window table and the seed's window scores."""

    board: np.ndarray
    heights: np.ndarray
    rows: int
    cols: int
    windows: np.ndarray
    cell_ptr: np.ndarray
    cell_windows: np.ndarray
    scores: np.ndarray


@numba.njit(cache=True, inline="always")
def _drop(t, c, code, me, depth, acc):
    """The value for ``me`` of disc ``code`` dropped in column ``c`` after the path sum
    ``acc``: the path sum with the move's score, searched ``depth - 1`` more plies
    unless the move wins."""
    cell = (t.rows - 1 - t.heights[c]) * t.cols + c
    t.board[cell] = code
    t.heights[c] += 1
    s, won = move_score(t.board, cell, code, t.windows, t.cell_ptr, t.cell_windows, t.scores)
    value = acc + s if code == me else acc - s
    if not won:
        value = _minimax(t, 3 - code, me, depth - 1, value)
    t.heights[c] -= 1
    t.board[cell] = EMPTY
    return value


@numba.njit(cache=True, _nrt=False)
def _minimax(t, code, me, depth, acc):
    """Seed minimax: value of the path sum ``acc`` searched ``depth`` more plies."""
    if depth == 0:
        return acc
    maximise = code == me
    best = 0
    found = False
    for c in range(t.cols):
        if t.heights[c] >= t.rows:
            continue
        value = _drop(t, c, code, me, depth, acc)
        if not found or (maximise and value > best) or (not maximise and value < best):
            best = value
            found = True
    return best if found else acc


@numba.njit(cache=True)
def root_values(t, code, depth, deadline):
    """Minimax value of every root column of the :class:`SeedBoard` ``t`` for the seat
    playing ``code`` (``INT64_MIN`` for full or unsearched columns)."""
    values = np.full(t.cols, np.iinfo(np.int64).min, dtype=np.int64)
    for c in range(t.cols):
        if t.heights[c] >= t.rows:
            continue
        if clock() > deadline:
            break
        values[c] = _drop(t, c, code, code, depth, 0)
    return values


class Window4Bot(BotBase):
    """The seed bot: fixed depth-4 minimax on the window-score heuristic.

    Parameters
    ----------
    game : str
        Must be ``"connect5"``.
    seed : int
        Seeds the generator that breaks ties between equally scored columns.
    depth : int
        Search depth in plies (4 in the seed).
    margin : float
        Seconds kept in hand before the deadline.

    Notes
    -----
    Cost: ``cols ** depth`` leaves, each move scored in O(inarow^2); about 6,600 leaves
    on the default 9-column board.  Columns left unsearched at the deadline are skipped.

    References
    ----------
    ``connect5-minimax.txt`` (B. Gauch, CS 360 Connect 5, 2014).
    """

    name = "window4"
    #: Seconds of one core to compile its kernels from an empty cache (measured alone, the
    #: game's rules included: ``warm_bots`` of this bot only).
    compile_seconds = 1.4

    def __init__(
        self,
        game: str = "connect5",
        seed: int = 0,
        depth: int = SEARCH_DEPTH,
        margin: float = 0.02,
    ) -> None:
        self.rng = np.random.default_rng(seed)
        self.depth = depth
        self.margin = margin
        self._tables: dict[tuple[int, int, int], tuple[np.ndarray, ...]] = {}

    def _table(self, rows: int, cols: int, inarow: int) -> tuple[np.ndarray, ...]:
        key = (rows, cols, inarow)
        if key not in self._tables:
            self._tables[key] = (*window_table(rows, cols, inarow), seed_scores(inarow))
        return self._tables[key]

    def start(self, game_map: Any = None, params: Any = None, player: int = 0) -> None:
        """Load the kernels now (numba's cache), so that no move pays for it later."""
        self.values(tiny_state(), 0, clock() + 0.05)

    def values(self, state: Any, player: int, deadline: float) -> np.ndarray:
        """Minimax value of each column for ``player`` (``INT64_MIN`` if not playable)."""
        board, heights, rows, cols, inarow = flat_board(state)
        t = SeedBoard(board, heights, rows, cols, *self._table(rows, cols, inarow))
        return root_values(t, player + 1, self.depth, stop_time(deadline, self.margin))

    def move(self, state: Any, player: int, deadline: float) -> int:
        """Best column by depth-4 minimax, ties broken at random."""
        values = self.values(state, player, deadline)
        playable = np.flatnonzero(np.asarray(state.heights) < np.asarray(state.board).shape[0])
        searched = playable[values[playable] > np.iinfo(np.int64).min]
        if searched.size == 0:
            return int(self.rng.choice(playable))
        best = values[searched].max()
        return int(self.rng.choice(searched[values[searched] == best]))
