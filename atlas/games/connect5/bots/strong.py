"""The ``strong`` connect5 bot: alpha-beta with iterative deepening and a transposition table.

Works for any board and ``inarow`` (Connect Four is ``inarow=4`` on 7 x 6).  Boards of
at most 64 bits (``cols * (rows + 1) <= 64``, the bundled 9 x 6 and 7 x 6 included) are
searched on bitboards by :data:`~atlas.games.connect5.bots.bitboard.bit_search`; larger ones
by :data:`~atlas.games.connect5.bots.search.window_search`, over a flat board with make/undo:
two instances of the one alpha-beta kernel of :func:`atlas.bots.search.negamax`.  Both
share:

* **Tactics first.**  At every node a move that wins at once is taken; if the opponent
  threatens to win at a playable cell, only the block is searched (two such threats are
  a loss).  Moves that put a disc just under an opponent's winning cell are tried last.
* **Ordering.**  Transposition-table move, two killer moves per ply, then the history
  score with a centre-first bias.
* **Evaluation.**  Incremental window counts: every window still open for one side only
  is worth ``8 ** (k - 1)`` for its ``k`` discs, summed, from the side to move.  A
  table of *threat squares* (empty squares that would complete a line) is kept up to
  date with the counts: it answers "can I win now?" in O(1), adds a bonus per threat
  square of the right parity (odd heights for seat 0, even for seat 1, counted from 1
  at the bottom), and at the leaves the lowest threat of every column is valued by
  that parity, after Allis's zugzwang rules.  The bitboard search also values *parity
  windows* (:data:`~atlas.games.connect5.bots.search.PARITY`): a window free of the other
  side whose two or three empty cells all lie on the side's own rows, a line it
  completes if the columns fill up in pairs (Allis's claimeven); the array search
  keeps them with its window counts.  Without them the
  bot walked into middle games already lost to zugzwang (on 9 x 6 it scored 75 % as
  the first player against window4, 100 % with them; deeper search did not help: at
  0.4 s a move it still scored 81 %).
* **Exact ends.**  Wins and losses are scored ``WIN - ply``; once the depth reaches the
  number of empty cells the search is exact and stops.

The bitboard search keeps one int64 of discs for the side to move and one of all discs
(cell ``(h, c)``, ``h`` from the bottom, is bit ``c * (rows + 1) + h``; the bit above
each column stays empty, so shifted lines never wrap).  The cells that would complete a
line are found with shifts in the four directions, and each child receives them from its
parent, which needs them anyway to order its moves by the number of winning cells they
make (threat-first, after the table move; then history and centre).  Moves just under an
opponent's winning cell are never searched (they lose at once), principal variation
search narrows the windows, and the table key is ``discs + all discs`` (unique per
position), kept across moves.  The window counts of the evaluation use bit-sliced
counters and popcounts: the evaluation equals the array one plus the parity windows
(kept by the array kernel with its window counts).  With at most :data:`SOLVE_EMPTIES` empty cells
a move
first tries, for :data:`SOLVE_SHARE` of its time, to solve the game with a null window
around a draw; a proven win or draw is played at once, otherwise the heuristic
iterative deepening runs as usual.  The bitboard search runs several times as many
nodes a second as the array kernel; ``docs/bots.md`` gives the measured rates.

References
----------
Pons, P. (2019). *Solving Connect 4: how to build a perfect AI* (bitboard layout,
winning-position masks, threat-first ordering).
Allis, L. V. (1988). *A knowledge-based approach of connect-four*, Vrije Universiteit.
Schaeffer, J. (1989). The history heuristic and alpha-beta search enhancements in
practice. *IEEE PAMI* 11(11).  ``connect5-minimax.txt`` (the seed bot this one beats).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ....bots.search import (
    S_ABORT,
    S_BEST,
    S_EMPTY,
    S_NODES,
    DeepeningBot,
    clock,
    gc_paused,
    new_pv,
    new_status,
    pv_moves,
    stop_time,
)
from .bitboard import (
    _U64,
    _bb_wins,
    _signed,
    bit_geometry,
    bit_search,
    bit_search_context,
    bitboards,
)
from .search import (
    _MAX_PLY,
    SOLVE_EMPTIES,
    SOLVE_SHARE,
    TT_BITS,
    WIN,
    ZUGZWANG,
    WindowSearch,
    _load,
    _parity_weights,
    _weights,
    window_counts,
    window_search,
)
from .window import EMPTY, flat_board, tiny_state, window_table

__all__ = [
    "StrongConnect5Bot",
    "WIN",
    "TT_BITS",
    "SOLVE_EMPTIES",
    "SOLVE_SHARE",
    "bit_geometry",
    "bitboards",
]


class StrongConnect5Bot(DeepeningBot):
    """Iterative-deepening alpha-beta with tactics, history and a transposition table.

    Parameters as :class:`~atlas.bots.search.DeepeningBot`'s (the generator chooses
    between equally good first moves on an empty board; without ``max_depth`` the bot
    deepens until the deadline or an exact result; :attr:`margin` 12 ms).

    Notes
    -----
    Boards of at most 64 bits (``cols * (rows + 1) <= 64``: up to 9 x 6, 8 x 7, 7 x 8)
    are searched by :data:`bit_search` on bitboards, several times as fast as the array
    kernel.  At 0.1 s a move the 9 x 6 game is usually solved exactly some way before
    the end (``docs/bots.md`` gives the measured figures).  Larger boards are searched by
    the array kernel :data:`window_search`.  Each iteration is one kernel call, which
    reads the clock every few thousand nodes and aborts past the deadline; the move of the
    last finished iteration (or a better root move fully searched by the aborted one) is
    played.  The tables keep ``2 ** TT_BITS`` entries and live as long as the bot.
    """

    name = "strong"
    #: Seconds of one core to compile its kernels from an empty cache (measured alone, the
    #: game's rules included: ``warm_bots`` of this bot only).
    compile_seconds = 4.9
    margin = 0.012
    #: A forced win scores ``WIN - plies`` (its reports say ``mate``).
    win_score = float(WIN)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: The searches :meth:`start` has loaded (True: the bitboard one).
        self._warmed: set[bool] = set()
        self.solve_empties = SOLVE_EMPTIES
        self.solve_share = SOLVE_SHARE
        # array search, one row per entry: key, best move, depth * 4 + bound flag, value
        self.tt: np.ndarray | None = None
        # bitboard search, one row per entry: position key, packed value/depth/flag/move
        self.tt_bits: np.ndarray | None = None
        self.geo: np.ndarray | None = None
        self._geometry: tuple[int, int, int] | None = None

    def _setup(self, rows: int, cols: int, inarow: int) -> None:
        if self._geometry == (rows, cols, inarow):
            return
        self._geometry = (rows, cols, inarow)
        self.windows, self.cell_ptr, self.cell_windows = window_table(rows, cols, inarow)
        self.weights = _weights(inarow)
        top = int(self.weights[inarow - 1])
        self.parity = _parity_weights(inarow)
        # threat squares (right parity, wrong parity, lowest of a column), then the
        # parity windows by empty cells
        self.bonus = np.concatenate(
            [np.array([top // 2, top // 8, ZUGZWANG * top], dtype=np.int64), self.parity]
        )
        zrng = np.random.default_rng(0x5EED)
        self.zob = zrng.integers(1, 2**63, size=(rows * cols, 2), dtype=np.int64)
        self.geo = bit_geometry(rows, cols, inarow, self.bonus, self.weights, self.parity)
        if self.tt is not None:
            self.tt[:, 0] = 0
        if self.tt_bits is not None:
            self.tt_bits[:, 0] = -1

    def start(self, game_map: Any = None, params: Any = None, player: int = 0) -> None:
        """Load the kernels the game will use now (numba's cache: compiled on first use),
        so that no move pays for them later: the bitboard search for a board of at most
        64 bits, else the array search; both without a map."""
        shape = getattr(game_map, "shape", None)
        kinds = (False, True) if shape is None else (int(shape[1]) * (int(shape[0]) + 1) <= 64,)
        for bits in kinds:
            if bits not in self._warmed:
                self._warmed.add(bits)
                self._choose(tiny_state(), 0, clock() + 0.05, bits)
                self._geometry = None
        if shape is not None:  # the game's table now rather than during a move
            rows, cols = int(shape[0]), int(shape[1])
            self._tables(rows, cols, cols * (rows + 1) <= 64)

    def _tables(self, rows: int, cols: int, bits: bool) -> None:
        """Allocate the transposition table of one search, small for small boards."""
        if bits:
            size = 1 << min(TT_BITS + 1, max(10, rows * cols))
            if self.tt_bits is None or self.tt_bits.shape[0] < size:
                self.tt_bits = np.full((size, 2), -1, dtype=np.int64)
        else:
            size = 1 << min(TT_BITS, max(10, rows * cols))
            if self.tt is None or self.tt.shape[0] < size:
                self.tt = np.zeros((size, 4), dtype=np.int64)

    @gc_paused
    def move(self, state: Any, player: int, deadline: float) -> int:
        """Best column found by the deadline."""
        if not self._warmed:
            self.start()
        self.forget()
        col = self._choose(state, player, deadline, True)
        # the principal variation, when the search's line is the move played
        self.last_pv = self.line if self.line[:1] == [col] else [col]
        return col

    def _choose(self, state: Any, player: int, deadline: float, bits: bool) -> int:
        board, heights, rows, cols, inarow = flat_board(state)
        self._setup(rows, cols, inarow)
        playable = [c for c in range(cols) if heights[c] < rows]
        if not playable:
            return 0
        if not board.any():
            centre = [c for c in playable if abs(2 * c - (cols - 1)) <= 1]
            return int(self.rng.choice(centre))
        stop = stop_time(deadline, self.margin)
        if bits and self.geo is not None:
            return self._search_bits(board, rows, cols, player, stop, playable[0])
        g = self.window_search(board, heights, rows, cols, inarow, stop)
        return self._search_arrays(g, player, playable[0])

    def _search_bits(
        self, board: np.ndarray, rows: int, cols: int, player: int, stop: float, best: int
    ) -> int:
        """Iterative deepening with :data:`bit_search`."""
        self._tables(rows, cols, True)
        cur, mask = bitboards(board, rows, cols, player)
        status = new_status()
        assert self.geo is not None and self.tt_bits is not None  # set by the caller
        g = bit_search_context(self.geo, self.tt_bits, rows * cols + 2, status, stop)
        position = (
            cur,
            mask,
            int(_bb_wins(cur, self.geo)),
            int(_bb_wins(cur ^ mask, self.geo)),
        )
        empties = int((board == EMPTY).sum())
        limit = empties if self.max_depth is None else min(empties, self.max_depth)
        drawn = -1
        heuristic_stop = stop
        if limit == empties and empties <= self.solve_empties:
            # exact win/draw/loss with a null window around a draw
            now = float(clock())
            status[S_BEST] = -1
            score = bit_search(
                g._replace(deadline=now + self.solve_share * (stop - now)),
                position,
                empties,
                0,
                -1,
                1,
            )
            self.last_nodes = int(status[S_NODES])
            if status[S_ABORT] == 0 and status[S_BEST] >= 0 and score >= 0:
                self.last_depth = empties
                self.last_score = int(score)
                if score > 0:
                    self.line = pv_moves(g.pv)
                    return int(status[S_BEST])
                # a proven draw: look for a move that keeps the draw and sets more traps
                drawn = best = int(status[S_BEST])
                now = float(clock())
                heuristic_stop = now + 0.5 * (stop - now)
        g = g._replace(deadline=heuristic_stop)
        solved = (self.last_depth, self.last_score)

        def run(depth: int) -> int:
            return int(bit_search(g, position, depth, 0, -(WIN + 1), WIN + 1))

        best = self.deepen(run, status, limit, best, _done(heuristic_stop), g.pv)
        if drawn >= 0:  # the figures of the proof, not of the search for traps
            self.last_depth, self.last_score = solved
        if (
            drawn >= 0
            and best != drawn
            and not self._holds_draw(cur, mask, best, rows, empties, stop)
        ):
            best = drawn
        return best

    def _holds_draw(
        self, cur: int, mask: int, col: int, rows: int, empties: int, stop: float
    ) -> bool:
        """Whether dropping into ``col`` is proven, by ``stop``, not to lose."""
        h1 = rows + 1
        column = ((1 << rows) - 1) << (col * h1)
        mv = ((mask & _U64) + (1 << (col * h1))) & column
        opp = cur ^ mask
        status = new_status()
        assert self.geo is not None and self.tt_bits is not None  # set by the bitboards
        g = bit_search_context(self.geo, self.tt_bits, empties + 2, status, stop)
        # the opponent's value with a null window above a draw: <= 0 keeps the draw
        mover = _signed((cur & _U64) | mv)
        child = (
            opp,
            _signed((mask & _U64) | mv),
            _bb_wins(opp, self.geo),
            _bb_wins(mover, self.geo),
        )
        v = bit_search(g, child, empties - 1, 1, 0, 1)
        return status[S_ABORT] == 0 and v <= 0

    def window_search(
        self,
        start: np.ndarray,
        heights: np.ndarray,
        rows: int,
        cols: int,
        inarow: int,
        stop: float,
    ) -> WindowSearch:
        """The array search's context with the position ``start`` (a flat board) loaded:
        window counts, threats and the evaluation (``status[S_SCORE]``) filled in."""
        self._tables(rows, cols, False)
        assert self.tt is not None
        status = new_status()
        status[S_EMPTY] = rows * cols
        g = WindowSearch(
            status,
            stop,
            new_pv(_MAX_PLY),
            np.zeros_like(start),
            heights,
            rows,
            cols,
            inarow,
            self.windows,
            window_counts(self.windows, rows, cols),
            self.cell_ptr,
            self.cell_windows,
            self.weights,
            np.zeros((rows * cols, 2), dtype=np.int64),
            self.bonus,
            self.zob,
            np.zeros(1, dtype=np.int64),
            self.tt,
            np.zeros((2, cols), dtype=np.int64),
            np.full((_MAX_PLY, 2), -1, dtype=np.int64),
            np.zeros((_MAX_PLY, cols), dtype=np.int64),
            np.zeros((_MAX_PLY, cols), dtype=np.int64),
        )
        _load(g, start)
        return g

    def _search_arrays(self, g: WindowSearch, player: int, best: int) -> int:
        """Iterative deepening with the array kernel :data:`window_search` (any board
        size) on the position loaded in ``g``."""
        status = g.status
        empties = int(status[S_EMPTY])
        limit = empties if self.max_depth is None else min(empties, self.max_depth)

        def run(depth: int) -> int:
            return int(window_search(g, player, depth, 0, -(WIN + 1), WIN + 1))

        return self.deepen(run, status, limit, best, _done(g.deadline), g.pv)


def time_left(deadline: float) -> float:
    """Seconds from now to ``deadline``."""
    return deadline - float(clock())


def _done(stop: float) -> Callable[[int], bool]:
    """When deepening ends: a proven result, or the clock past ``stop``."""
    return lambda score: abs(score) > WIN - 1000 or time_left(stop) < 0
