"""Outpost (2014 course project): four empires grow outposts on a 100x100 map.

The rules are those of ``outpost-2014-spec.txt``; ``docs/outpost.md`` states them in
full, with the score and the compatibility options.  In short: every empire starts with
one outpost on its home corner; each turn every outpost may step one cell (orthogonal,
onto land); cells are controlled by the empire with the nearest outposts within ``r``
(Manhattan); outposts that lose their supply line home are removed after the moves;
every 10 turns (a *season*) an empire builds one outpost at home if its land and water
afford it, or disbands one of its choice if they no longer do.

Turns and moves (the :class:`atlas.sim.base.Game` interface)
-------------------------------------------------------------
* Normally :meth:`OutpostGame.to_move` is all four seats and a move is a tuple of
  *steps* ``(index, (row, col))``: outpost ``index`` of the empire's list goes to
  ``(row, col)``.  Outposts not named stay.  Spec rules: each index at most once, the
  target the outpost's cell or one orthogonal step from it, on land, on the board;
  anything else raises :class:`~atlas.errors.IllegalMoveError` (see
  :func:`check_move`).  JSON: ``[[index, [row, col]], ...]``.
* At a season where some empire can no longer afford its outposts, ``to_move`` first
  returns only those seats; their move is the index (an ``int``) of the outpost to
  disband, :meth:`~OutpostGame.legal_moves` lists the indices, and the turn counter does
  not advance.  A ``None`` answer disbands the last outpost of the list.  Then all four
  seats move as usual.
* A ``None`` move means the empire does not move this turn.
* Season bookkeeping happens at the end of the turn before the season: the state handed
  to the bots for turn 10 already holds the new home outposts (last in their lists) and
  the pending disbands, while ``owner``/``land``/``water`` are still those left by turn 9
  (a new outpost changes the ownership only when the turn is played).

``compat="official"`` reproduces the 2014 simulator where it departs from the spec
(``outpost-official.md``): a move may name an outpost several times, each entry one step
from where the previous entries left it; illegal entries are ignored (stay, diagonal,
longer, off board, into water, index too large); a negative index or a missing target
(``[index, null]``) stops the turn for everyone at that entry -- the entries before it
stand, nothing else of the turn happens (no supply check, ownership not recomputed);
the game lasts ``T + 1`` turns; a disband answer that is not a valid index (``None``
included) disbands nothing and the empire does not move that turn; affordability uses
the simulator's arithmetic (:func:`atlas.analyze.outpost.affordable`).

The end: after the last turn each empire's land and water (cells it controls alone) are
its result.  Score for standings: ``land + water``, ties broken by ``land``; the unique
best is the winner (``None`` if the best is shared); :attr:`Outcome.scores` gives each
empire the fraction of the three others it beats (a tie counts one half), so scores are
in [0, 1] and sum to 2.

References
----------
``outpost-2014-spec.txt``; ``outpost-official.md`` (the official simulator and its
recorded games, replayed exactly by ``tests/sim/test_traces.py``).
"""

from __future__ import annotations

import struct
import threading
import warnings
from dataclasses import dataclass, field
from typing import Any, Final, Mapping, Sequence

import numba
import numpy as np
import numpy.typing as npt

from ..analyze.outpost import (
    affordable,
    default_homes,
    ownership_kernel,
    ownership_update,
    supply_core,
)
from ..errors import IllegalMoveError, InvalidMoveError
from ..maps import GameMap
from ..types import Cell, Grid, IntGrid, PlayerId
from .base import GameInfo, Outcome

__all__ = [
    "COMPATS",
    "NUM_EMPIRES",
    "SEASON",
    "OutpostParams",
    "Board",
    "OutpostState",
    "OutpostGame",
    "GAME",
    "check_move",
    "play_turn",
    "with_outposts",
    "prepare_turn",
    "score_key",
]

COMPATS = ("spec", "official")
NUM_EMPIRES: Final = 4
#: A season every this many turns (turns 10, 20, ...).
SEASON: Final = 10
#: Row of a step whose target is missing (official ``[index, null]``).
_MISSING: Final = -(2**62)

# codes returned by the move kernel
_OK, _ABORT = 0, -1
_ERR_INDEX, _ERR_MISSING, _ERR_BOARD, _ERR_WATER, _ERR_FAR, _ERR_TWICE = 1, 2, 3, 4, 5, 6
_ERR_TEXT = {
    _ERR_INDEX: "has no outpost with that index",
    _ERR_MISSING: "has no target cell",
    _ERR_BOARD: "targets a cell off the board",
    _ERR_WATER: "targets water",
    _ERR_FAR: "is more than one orthogonal step from the outpost",
    _ERR_TWICE: "names an outpost that already moved this turn",
}


@dataclass(frozen=True)
class OutpostParams:
    """Game parameters: radius ``r``, costs ``L`` and ``W``, length ``T``, ``compat``.

    Notes
    -----
    ``L + W`` should stay well under ``2 r^2 + 2 r + 1`` (the cells one outpost can
    control), or no empire ever builds a second outpost (the official L = 200, W = 50
    games with r = 10 are such games); in spec mode this is warned about.
    """

    r: int = 10
    L: int = 20
    W: int = 5
    T: int = 500
    compat: str = "spec"

    def __post_init__(self) -> None:
        for name in ("r", "L", "W", "T"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
                raise ValueError(f"outpost parameter {name} must be a whole number >= 0, "
                                 f"got {v!r}")
            object.__setattr__(self, name, int(v))
        if self.T < 1:
            raise ValueError(f"outpost parameter T must be at least 1, got {self.T}")
        if self.compat not in COMPATS:
            raise ValueError(f"compat should be 'spec' or 'official', got {self.compat!r}")

    @property
    def last_turn(self) -> int:
        """The number of turns played: ``T``, or ``T + 1`` in official mode."""
        return self.T + 1 if self.compat == "official" else self.T

    @property
    def official(self) -> bool:
        return self.compat == "official"

    def to_json(self) -> dict[str, Any]:
        return {"r": self.r, "L": self.L, "W": self.W, "T": self.T, "compat": self.compat}


@dataclass(frozen=True, eq=False)
class Board:
    """The static arrays of a map, shared by every state of a game.

    ``land_flat``/``board_flat`` are the padded flat grids of
    :mod:`atlas.analyze.outpost` (stride ``cols + 2``); ``homes_flat`` the homes' flat
    indices.
    """

    water: Grid
    homes: tuple[Cell, ...]
    land_flat: npt.NDArray[np.uint8]
    board_flat: npt.NDArray[np.uint8]
    homes_flat: npt.NDArray[np.int64]
    stride: int

    @classmethod
    def from_water(cls, water: Grid, homes: Sequence[Cell]) -> "Board":
        w = np.array(water, dtype=np.bool_, copy=True)
        w.setflags(write=False)
        h, c = w.shape
        stride = c + 2
        land = np.zeros((h + 2) * stride, np.uint8)
        land.reshape(h + 2, stride)[1:-1, 1:-1] = ~w
        board = np.zeros_like(land)
        board.reshape(h + 2, stride)[1:-1, 1:-1] = 1
        homes = tuple((int(a), int(b)) for a, b in homes)
        hf = np.array([(a + 1) * stride + b + 1 for a, b in homes], np.int64)
        return cls(w, homes, land, board, hf, stride)


@dataclass(eq=False)
class OutpostState:
    """An Outpost position.

    Attributes
    ----------
    water : ndarray of bool, shape (rows, cols)
        The map's water (read-only, shared by copies).
    rc : ndarray of int32, shape (n, 2)
        Every outpost as ``[row, col]``, empire by empire, each empire's in list order
        (the order move and disband indices refer to); :attr:`outposts` splits it.
    starts : ndarray of int64, shape (5,)
        Empire e's outposts are ``rc[starts[e]:starts[e + 1]]``.
    owner_flat : ndarray of int32
        Owner codes (:data:`atlas.analyze.outpost.NEUTRAL` -1, ``DISPUTED`` -2, or the
        empire) on the padded flat grid; :attr:`owner` is the ``[row, col]`` view.
    counts : ndarray of int64, shape (4, 3)
        Per empire: land and water cells it controls alone, disputed cells it is among
        (:attr:`land`, :attr:`water_count`, :attr:`disputed`).
    turn : int
        Turns played (the next turn is ``turn + 1``; seasons are turns 10, 20, ...).
    params : OutpostParams
    afford : tuple of int
        Outposts each empire could afford at the last season (1 before the first).
    pending : tuple of bool
        Empires that must choose an outpost to disband before the next turn.
    built : tuple of bool
        Empires whose last outpost was built at home for the coming season turn.
    skip : tuple of bool
        Official mode: empires that gave an invalid disband answer and do not move.
    board : Board
        Static arrays of the map for the kernels (shared by copies).
    key_flat, key_src : ndarray, read-only
        Engine bookkeeping: the packed distance-and-empires grid of
        :func:`~atlas.analyze.outpost.ownership_kernel` behind ``owner_flat``, and the
        outposts it was computed for (flat cells and empires, shape ``(2, m)``), so the
        next turn recomputes only around the outposts that moved.

    Notes
    -----
    ``owner`` and the counts are those left by the last turn played: a season's new
    home outposts and disbands change them only when the next turn is played.
    """

    water: Grid
    rc: npt.NDArray[np.int32]
    starts: npt.NDArray[np.int64]
    owner_flat: npt.NDArray[np.int32]
    counts: npt.NDArray[np.int64]
    turn: int
    params: OutpostParams
    board: Board
    afford: tuple[int, ...] = (1, 1, 1, 1)
    pending: tuple[bool, ...] = (False, False, False, False)
    built: tuple[bool, ...] = (False, False, False, False)
    skip: tuple[bool, ...] = (False, False, False, False)
    key_flat: npt.NDArray[np.int32] | None = None
    key_src: npt.NDArray[np.int64] = field(default_factory=lambda: _NO_SRC)

    def copy(self) -> "OutpostState":
        """An independent copy (the water grid, the board and the read-only ownership
        bookkeeping ``key_flat``/``key_src`` are shared)."""
        return OutpostState(self.water, self.rc.copy(), self.starts.copy(),
                            self.owner_flat.copy(), self.counts.copy(), self.turn,
                            self.params, self.board, self.afford, self.pending, self.built,
                            self.skip, self.key_flat, self.key_src)

    @property
    def outposts(self) -> list[npt.NDArray[np.int32]]:
        """Per empire, its outposts as ``[row, col]`` rows in list order (views)."""
        s = self.starts.tolist()
        return [self.rc[s[e]:s[e + 1]] for e in range(len(s) - 1)]

    def num_outposts(self, empire: int) -> int:
        return int(self.starts[empire + 1] - self.starts[empire])

    @property
    def land(self) -> npt.NDArray[np.int64]:
        return self.counts[:, 0]

    @property
    def water_count(self) -> npt.NDArray[np.int64]:
        return self.counts[:, 1]

    @property
    def disputed(self) -> npt.NDArray[np.int64]:
        return self.counts[:, 2]

    @property
    def owner(self) -> IntGrid:
        """Owner codes as a ``[row, col]`` view of :attr:`owner_flat`."""
        h, w = self.water.shape
        return self.owner_flat.reshape(h + 2, w + 2)[1:-1, 1:-1]

    @property
    def over(self) -> bool:
        return self.turn >= self.params.last_turn

    def __repr__(self) -> str:
        return (f"OutpostState(turn={self.turn}, outposts={np.diff(self.starts).tolist()}, "
                f"land={self.land.tolist()}, water={self.water_count.tolist()})")


# --------------------------------------------------------------------------- kernels


@numba.njit(cache=True)
def _move_steps(land_flat, stride, official, cells, starts, steps, ends
                ):  # pragma: no cover - compiled
    """Apply steps to flat ``cells``; see module docstring.

    ``steps`` is flat ``index, row, col`` triples, seat by seat: seat p's are triples
    ``ends[p - 1]`` (0 for seat 0) to ``ends[p]``.  Returns ``(code, entry)``: ``code``
    0 when done, -1 when an official turn was cut short at triple ``entry``, or an
    ``_ERR_*`` code (spec mode) for ``entry``.
    """
    rows = land_flat.shape[0] // stride - 2
    cols = stride - 2
    moved = np.zeros(cells.shape[0], np.uint8)
    p = 0
    for k in range(steps.shape[0] // 3):
        while k >= ends[p]:
            p += 1
        idx = steps[3 * k]
        tr = steps[3 * k + 1]
        tc = steps[3 * k + 2]
        count = starts[p + 1] - starts[p]
        if official:
            if idx >= count:
                continue
            if idx < 0 or tr == -(2**62):
                return -1, k
        else:
            if idx < 0 or idx >= count:
                return 1, k
            if tr == -(2**62):
                return 2, k
        if tr < 0 or tr >= rows or tc < 0 or tc >= cols:
            if official:
                continue
            return 3, k
        j = starts[p] + idx
        cur = cells[j]
        dist = abs(tr - (cur // stride - 1)) + abs(tc - (cur % stride - 1))
        target = (tr + 1) * stride + tc + 1
        if official:
            if dist == 1 and land_flat[target] != 0:
                cells[j] = target
            continue
        if moved[j] != 0:
            return 6, k
        if land_flat[target] == 0:
            return 4, k
        if dist > 1:
            return 5, k
        moved[j] = 1
        cells[j] = target
    return 0, -1


@numba.njit(cache=True)
def _own(land_flat, board_flat, stride, r, cells, emps, owner_old, key_old, copy, owner, key,
         bufs, counts, boxes, nb, area):  # pragma: no cover - compiled
    """Ownership of ``cells`` into ``owner``, ``key`` and ``counts``: from the previous
    ``owner_old``/``key_old`` (copied first if ``copy``, else the same arrays) with only
    the ``nb`` boxes recomputed when their area is small (a quarter of the board or
    less; ``nb < 0``: everything), else from scratch."""
    rows = land_flat.shape[0] // stride - 2
    if 0 <= nb and area * 4 <= rows * (stride - 2):
        if copy:  # plain loops: numba's slice assignment copies element by element
            for i in range(owner.shape[0]):
                owner[i] = owner_old[i]
            for i in range(key.shape[0]):
                key[i] = key_old[i]
        if nb > 0:
            ownership_update(land_flat, stride, r, cells, emps, boxes[:nb], owner, key,
                             counts)
    else:
        ownership_kernel(land_flat, board_flat, stride, r, cells, emps, owner, key, bufs[1],
                         bufs[2], counts)


@numba.njit(cache=True, inline="always")
def _box(stride, rows, cols, r, a, b, boxes, nb):  # pragma: no cover - compiled
    """Store the bounding box of the diamonds around flat cells a and b; its area."""
    ar = a // stride
    ac = a - ar * stride
    br = b // stride
    bc = b - br * stride
    boxes[nb, 0] = max(1, min(ar, br) - r)
    boxes[nb, 1] = min(rows, max(ar, br) + r)
    boxes[nb, 2] = max(1, min(ac, bc) - r)
    boxes[nb, 3] = min(cols, max(ac, bc) + r)
    return (boxes[nb, 1] - boxes[nb, 0] + 1) * (boxes[nb, 3] - boxes[nb, 2] + 1)


@numba.njit(cache=True)
def _settle(land_flat, board_flat, stride, r, cells, emps, starts, homes, owner_old, key_old,
            owner, key, bufs, counts, src):  # pragma: no cover - compiled
    """Ownership, supply lines, removal of the cut-off outposts, ownership again, into
    ``owner``, ``key`` and ``counts``.

    ``owner_old``, ``counts`` (on entry) and the packed grid ``key_old`` (see
    :func:`~atlas.analyze.outpost.ownership_kernel`) hold the ownership of the outposts
    ``src`` (flat cells and empires, shape ``(2, m)``; with no column, nothing is
    known): when ``cells``/``emps`` are the same list with a few outposts moved, only
    the boxes around the moves are recomputed, and after removals only the boxes
    around the removed outposts.
    ``bufs[3]`` must be all 0 and ``bufs[6]`` all -1 on entry (the engine's private
    buffers are made so once; :func:`supply_core` leaves them so).

    ``cells``, ``emps`` and ``starts`` are compacted in place; returns the outposts left.
    """
    n_emp = homes.shape[0]
    n = cells.shape[0]
    rows = land_flat.shape[0] // stride - 2
    cols = stride - 2
    boxes = np.empty((max(n, src.shape[1]), 4), np.int64)
    nb = -1
    area = 0
    if src.shape[1] == n and n > 0:
        nb = 0
        for j in range(n):
            if src[1, j] != emps[j]:
                nb = -1
                break
            if src[0, j] != cells[j]:
                area += _box(stride, rows, cols, r, src[0, j], cells[j], boxes, nb)
                nb += 1
    _own(land_flat, board_flat, stride, r, cells, emps, owner_old, key_old, True, owner, key,
         bufs, counts, boxes, nb, area)
    mark = bufs[3]  # all 0 and heads all -1 on entry: supply_core leaves them so
    heads = bufs[6]
    alive = np.empty(n, np.uint8)
    left = 0
    for e in range(n_emp):
        a = starts[e]
        b = starts[e + 1]
        left += supply_core(land_flat, stride, owner, e, homes[e], cells[a:b], alive[a:b],
                            mark, bufs[4], bufs[5], heads)
    if left == n:
        return n
    w = 0
    nb = 0
    area = 0
    for e in range(n_emp):
        a = starts[e]
        b = starts[e + 1]
        starts[e] = w
        for j in range(a, b):
            if alive[j] != 0:
                cells[w] = cells[j]
                emps[w] = e
                w += 1
            else:
                area += _box(stride, rows, cols, r, cells[j], cells[j], boxes, nb)
                nb += 1
    starts[n_emp] = w
    _own(land_flat, board_flat, stride, r, cells[:w], emps[:w], owner, key, False, owner, key,
         bufs, counts, boxes, nb, area)
    return w


@numba.njit(cache=True)
def _turn_kernel(land_flat, board_flat, stride, r, official, rc, starts, steps, ends, homes,
                 owner_old, key_old, owner, key, bufs, counts, src
                 ):  # pragma: no cover - compiled
    """Moves, then (unless an official turn was cut short) :func:`_settle` from
    ``owner_old``/``key_old`` into ``owner``/``key`` (left untouched otherwise).

    Returns ``(code, entry, rc, starts, src)`` with the new outposts (``src``: their
    flat cells and empires); on a code other than 0 nothing else is computed.
    """
    n = rc.shape[0]
    cells = np.empty(n, np.int64)
    emps = np.empty(n, np.int64)
    for j in range(n):
        cells[j] = (rc[j, 0] + 1) * stride + rc[j, 1] + 1
    for e in range(starts.shape[0] - 1):
        for j in range(starts[e], starts[e + 1]):
            emps[j] = e
    new_starts = starts.copy()
    code, k = _move_steps(land_flat, stride, official, cells, new_starts, steps, ends)
    left = n
    if code == 0:
        left = _settle(land_flat, board_flat, stride, r, cells, emps, new_starts, homes,
                       owner_old, key_old, owner, key, bufs, counts, src)
    out = np.empty((left, 2), np.int32)
    new_src = np.empty((2, left), np.int64)
    for j in range(left):
        out[j, 0] = cells[j] // stride - 1
        out[j, 1] = cells[j] % stride - 1
        new_src[0, j] = cells[j]
        new_src[1, j] = emps[j]
    return code, k, out, new_starts, new_src


# --------------------------------------------------------------------------- engine

_NO_STEPS = np.zeros(0, np.int64)
_NO_ENDS = np.zeros(NUM_EMPIRES, np.int64)
_NO_STEPS.setflags(write=False)  # read-only like every step array (one compiled signature)
_NO_ENDS.setflags(write=False)
#: No outposts behind an ownership (``OutpostState.key_src``).
_NO_SRC = np.zeros((2, 0), np.int64)
_NO_SRC.setflags(write=False)
_NO_KEY = np.zeros(0, np.int32)
_NO_KEY.setflags(write=False)
#: Per-thread kernel buffers (the kernels reinitialise what they read).
_local = threading.local()


def _run(state: OutpostState, steps: npt.NDArray[np.int64], ends: npt.NDArray[np.int64],
         rc: npt.NDArray[np.int32],
         starts: npt.NDArray[np.int64]) -> tuple[int, int, OutpostState]:
    """One kernel call from ``rc``/``starts``; the new state shares nothing writable
    with ``state``."""
    b = state.board
    bufs = getattr(_local, "bufs", None)
    if bufs is None or bufs.shape[1] != b.land_flat.shape[0]:
        bufs = _local.bufs = np.zeros((7, b.land_flat.shape[0]), np.int32)
        bufs[6] = -1  # supply_core's clean state (marks 0, bucket heads -1), kept so
    key_old = state.key_flat
    src = state.key_src
    if key_old is None:
        key_old = _NO_KEY
        src = _NO_SRC
    key = np.empty(b.land_flat.shape[0], np.int32)
    owner = np.empty_like(state.owner_flat)
    counts = state.counts.copy()
    code, k, new_rc, new_starts, new_src = _turn_kernel(
        b.land_flat, b.board_flat, b.stride, state.params.r, state.params.official, rc,
        starts, steps, ends, b.homes_flat, state.owner_flat, key_old, owner, key, bufs, counts,
        src)
    # cut short (official) or refused (spec): ownership not recomputed
    if code != _OK:
        new_src = src
        owner = state.owner_flat.copy()
        key = key_old
    key.setflags(write=False)
    new_src.setflags(write=False)
    new = OutpostState(state.water, new_rc, new_starts, owner, counts, state.turn,
                       state.params, b, state.afford, state.pending, state.built, state.skip,
                       key if key.shape[0] else None, new_src)
    return int(code), int(k), new


def _steps(moves: Mapping[PlayerId, Any], skip: tuple[bool, ...],
           ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """All seats' moves as flat ``index, row, col`` triples, seat by seat, and each
    seat's end (in triples): one Python loop over the steps and one conversion."""
    flat: list[Any] = []
    ap = flat.append
    ends = [0] * NUM_EMPIRES
    for s in range(NUM_EMPIRES):
        move = moves.get(s)
        if move is not None and not skip[s]:
            if isinstance(move, np.ndarray) and move.ndim == 2 and move.shape[1] == 3:
                flat.extend(move.astype(np.int64).ravel().tolist())
            else:
                mark = len(flat)
                try:
                    for i, (a, b) in move:
                        ap(i)
                        ap(a)
                        ap(b)
                except (TypeError, ValueError):
                    del flat[mark:]
                    for row in _slow_steps(s, move):
                        flat.extend(row)
        ends[s] = len(flat) // 3
    if not flat:
        return _NO_STEPS, _NO_ENDS
    k = len(flat)
    try:  # whole numbers only (bool and numpy integers are ints), int64 range
        packed = np.frombuffer(struct.pack(f"{k + NUM_EMPIRES}q", *flat, *ends), np.int64)
    except struct.error:
        raise IllegalMoveError(f"outpost moves are (index, (row, col)) steps of whole "
                               f"numbers, got {flat[:9]!r:.80}") from None
    return packed[:k], packed[k:]  # read-only views, like _NO_STEPS and _NO_ENDS


def _slow_steps(s: int, move: Any) -> list[tuple[int, int, int]]:
    """Steps one by one, allowing a missing target (``None``); bad syntax raises."""
    rows = []
    try:
        for idx, target in move:
            if not _is_int(idx):
                raise TypeError
            if target is None:
                rows.append((int(idx), _MISSING, _MISSING))
            else:
                tr, tc = target
                if not (_is_int(tr) and _is_int(tc)):
                    raise TypeError
                rows.append((int(idx), int(tr), int(tc)))
    except (TypeError, ValueError):
        raise IllegalMoveError(f"seat {s}: an outpost move is a sequence of "
                               f"(index, (row, col)) steps, got {move!r:.80}") from None
    return rows


def play_turn(state: OutpostState, moves: Mapping[PlayerId, Any]) -> OutpostState:
    """Play one turn's moves (no disbands pending) and return the new state.

    The returned state is the position right after the turn, *before* the bookkeeping
    of a coming season (:func:`prepare_turn`): its outposts, land and water are the
    ones the official traces record for the turn.

    Raises
    ------
    IllegalMoveError
        Spec mode: a step that breaks the rules (the message names seat and entry).
    """
    if state.turn >= state.params.last_turn:
        raise IllegalMoveError(f"the game is over (turn {state.turn})")
    if any(state.pending):
        raise IllegalMoveError(f"seats {[s for s in range(4) if state.pending[s]]} must "
                               "first choose an outpost to disband")
    for s in moves:
        if s not in (0, 1, 2, 3):
            raise IllegalMoveError(f"outpost has seats 0..3, got a move for {s!r}")
    steps, ends = _steps(moves, state.skip)
    code, k, new = _run(state, steps, ends, state.rc, state.starts)
    if code > 0:
        s = int(np.searchsorted(ends, k, side="right"))
        idx, tr, tc = (int(v) for v in steps[3 * k:3 * k + 3])
        target = "no target" if tr == _MISSING else f"({tr}, {tc})"
        raise IllegalMoveError(f"seat {s}: step [{idx}, {target}] {_ERR_TEXT[code]}")
    new.turn = state.turn + 1
    new.built = new.skip = (False,) * NUM_EMPIRES
    return new


def prepare_turn(state: OutpostState) -> None:
    """In place: the season bookkeeping due before the next turn, if it is a season.

    Counts each empire's land and water (from the last turn's ownership), builds one
    outpost at home for empires that can afford more, flags those that must disband.
    """
    nxt = state.turn + 1
    p = state.params
    if nxt % SEASON != 0 or nxt > p.last_turn:
        return
    afford, pending, built = [], [], []
    lists = state.outposts
    for e in range(NUM_EMPIRES):
        n = affordable(int(state.counts[e, 0]), int(state.counts[e, 1]), p.L, p.W,
                       official=p.official)
        k = len(lists[e])
        afford.append(n)
        built.append(k < n)
        pending.append(k > n)
        if k < n:
            lists[e] = np.concatenate([lists[e], np.array([state.board.homes[e]], np.int32)])
    state.afford, state.pending, state.built = tuple(afford), tuple(pending), tuple(built)
    if any(built):
        _set_lists(state, lists)


def _set_lists(state: OutpostState, lists: Sequence[npt.NDArray[np.int32]]) -> None:
    state.rc = np.concatenate(lists).astype(np.int32).reshape(-1, 2)
    state.starts = np.zeros(NUM_EMPIRES + 1, np.int64)
    np.cumsum([len(a) for a in lists], out=state.starts[1:])


def with_outposts(state: OutpostState, outposts: Sequence[npt.ArrayLike]) -> OutpostState:
    """A copy of ``state`` with these outposts (per empire, ``[row, col]`` in list
    order), ownership recomputed and outposts without a supply line removed, as after
    a turn.  For setting up positions (tests, benchmarks, bot search).

    Raises
    ------
    ValueError
        Not four lists of on-board land cells.
    """
    if len(outposts) != NUM_EMPIRES:
        raise ValueError(f"outposts for {NUM_EMPIRES} empires expected, got {len(outposts)}")
    h, w = state.water.shape
    lists = []
    for e, cells in enumerate(outposts):
        arr = np.asarray(cells, dtype=np.int64).reshape(-1, 2)
        if ((arr < 0) | (arr >= (h, w))).any() or state.water[arr[:, 0], arr[:, 1]].any():
            raise ValueError(f"outposts of empire {e} must be land cells of the board")
        lists.append(arr.astype(np.int32))
    tmp = state.copy()
    _set_lists(tmp, lists)
    _, _, new = _run(tmp, _NO_STEPS, _NO_ENDS, tmp.rc, tmp.starts)
    return new


def _disband(state: OutpostState, moves: Mapping[PlayerId, Any]) -> OutpostState:
    seats = [s for s in range(NUM_EMPIRES) if state.pending[s]]
    extra = set(moves) - set(seats)
    if extra:
        raise IllegalMoveError(f"only seats {seats} choose an outpost to disband now, "
                               f"got moves for {sorted(extra)}")
    new = state.copy()
    lists = new.outposts
    skip = list(new.skip)
    for s in seats:
        k = len(lists[s])
        m = moves.get(s)
        if m is not None and not _is_int(m):
            raise IllegalMoveError(f"seat {s}: a disband answer is an outpost index, "
                                   f"got {m!r:.60}")
        if new.params.official:
            if m is None or not 0 <= m < k:
                skip[s] = True
                continue
        elif m is None:
            m = k - 1
        elif not 0 <= m < k:
            raise IllegalMoveError(f"seat {s}: no outpost {m} to disband (it has {k})")
        lists[s] = np.delete(lists[s], int(m), axis=0)
    _set_lists(new, lists)
    new.pending = (False,) * NUM_EMPIRES
    new.skip = tuple(skip)
    return new


def check_move(state: OutpostState, player: PlayerId, move: Any) -> str | None:
    """Why ``move`` is not allowed for ``player`` now, or ``None`` if it is."""
    try:
        if any(state.pending):
            _disband(state, {player: move})
        else:
            play_turn(state, {player: move})
    except (IllegalMoveError, InvalidMoveError, TypeError, ValueError) as exc:
        return str(exc)
    return None


def score_key(land: int, water: int) -> tuple[int, int]:
    """Standings order: ``land + water``, then ``land``."""
    return (land + water, land)


def _parse_steps(data: Any) -> tuple[tuple[int, tuple[int, int] | None], ...]:
    if not isinstance(data, (list, tuple)):
        raise InvalidMoveError("an outpost move is a list of [index, [row, col]] steps or "
                               f"a disband index, got {data!r:.60}")
    out = []
    for entry in data:
        ok = isinstance(entry, (list, tuple)) and len(entry) in (1, 2) and _is_int(entry[0])
        target = None
        if ok and len(entry) == 2 and entry[1] is not None:
            t = entry[1]
            ok = isinstance(t, (list, tuple)) and len(t) == 2 and all(_is_int(v) for v in t)
            if ok:
                target = (int(t[0]), int(t[1]))
        if not ok:
            raise InvalidMoveError(f"an outpost step is [index, [row, col]], got {entry!r:.60}")
        out.append((int(entry[0]), target))
    return tuple(out)


def _is_int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


class OutpostGame:
    """The ``GAME`` object of outpost (see :class:`atlas.sim.base.Game`)."""

    info = GameInfo(
        name="outpost", num_players=NUM_EMPIRES, simultaneous=True,
        default_params=OutpostParams().to_json(),
        description="Four empires move outposts one step a turn; the nearest outposts "
                    "within r control a cell; supply lines home; seasons build or disband.")

    def initial_state(self, game_map: GameMap, params: Mapping[str, Any] | None = None,
                      ) -> OutpostState:
        """One outpost per empire on its home; ownership computed."""
        p = dict(self.info.default_params)
        p.update(params or {})
        unknown = set(p) - {"r", "L", "W", "T", "compat"}
        if unknown:
            raise ValueError(f"unknown outpost parameter(s) {', '.join(sorted(unknown))}; "
                             "expected r, L, W, T, compat")
        prm = OutpostParams(**p)
        if game_map.game != "outpost":
            raise ValueError(f"not an outpost map: {game_map!r}")
        area = 2 * prm.r * prm.r + 2 * prm.r + 1
        if not prm.official and prm.L + prm.W > area:
            warnings.warn(f"L + W = {prm.L + prm.W} exceeds the {area} cells one outpost "
                          f"controls with r = {prm.r}: no empire can ever grow", stacklevel=2)
        homes = game_map.starts or default_homes(game_map.shape)
        if len(homes) != NUM_EMPIRES:
            raise ValueError(f"an outpost map needs 4 homes, got {len(homes)}")
        board = Board.from_water(game_map.blocked, homes)
        rc = np.array(board.homes, np.int32)
        starts = np.arange(NUM_EMPIRES + 1, dtype=np.int64)
        blank = OutpostState(board.water, rc, starts,
                             np.full(len(board.land_flat), -1, np.int32),
                             np.zeros((NUM_EMPIRES, 3), np.int64), 0, prm, board)
        _, _, state = _run(blank, _NO_STEPS, _NO_ENDS, rc, starts)
        prepare_turn(state)
        return state

    def to_move(self, state: OutpostState) -> tuple[PlayerId, ...]:
        if state.over:
            return ()
        if any(state.pending):
            return tuple(s for s in range(NUM_EMPIRES) if state.pending[s])
        return tuple(range(NUM_EMPIRES))

    def legal_moves(self, state: OutpostState, player: PlayerId) -> Sequence[Any]:
        """Disband phase: the outpost indices.  Otherwise every legal single step
        ``(index, (row, col))``; a move combines at most one per outpost."""
        if player not in self.to_move(state):
            return ()
        if any(state.pending):
            return tuple(range(len(state.outposts[player])))
        land = ~state.water
        h, w = land.shape
        out = []
        for i, (r, c) in enumerate(state.outposts[player].tolist()):
            for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
                a, b = r + dr, c + dc
                if 0 <= a < h and 0 <= b < w and land[a, b]:
                    out.append((i, (a, b)))
        return out

    def apply(self, state: OutpostState, moves: Mapping[PlayerId, Any]) -> OutpostState:
        """The next state: disbands if any are pending, else one turn (+ season prep)."""
        if state.over:
            raise IllegalMoveError(f"the game is over (turn {state.turn})")
        if any(state.pending):
            return _disband(state, moves)
        new = play_turn(state, moves)
        prepare_turn(new)
        return new

    def outcome(self, state: OutpostState) -> Outcome | None:
        if not state.over:
            return None
        keys = [score_key(int(a), int(b)) for a, b in zip(state.land, state.water_count)]
        scores = tuple((sum(k > o for o in keys) + 0.5 * (sum(k == o for o in keys) - 1))
                       / (NUM_EMPIRES - 1) for k in keys)
        best = max(keys)
        winners = [e for e, k in enumerate(keys) if k == best]
        winner = winners[0] if len(winners) == 1 else None
        detail = "; ".join(f"empire {e}: {k[0]} cells ({k[1]} land, {k[0] - k[1]} water)"
                           for e, k in enumerate(keys))
        head = f"empire {winner} wins" if winner is not None else "shared first place"
        return Outcome(winner, "turn-limit", scores,
                       f"{head} after {state.turn} turns; {detail}")

    def move_to_json(self, move: Any) -> Any:
        if _is_int(move):
            return int(move)
        if isinstance(move, np.ndarray):
            return [[int(i), [int(r), int(c)]] for i, r, c in move.tolist()]
        steps = _parse_steps(move)
        return [[i, None if t is None else [t[0], t[1]]] for i, t in steps]

    def move_from_json(self, data: Any) -> Any:
        if _is_int(data):
            return int(data)
        return _parse_steps(data)

    def summary(self, state: OutpostState) -> dict[str, Any]:
        """Turn, outposts per empire (list order), land, water, disputed, seasons."""
        return {"turn": state.turn,
                "outposts": [a.tolist() for a in state.outposts],
                "land": state.land.tolist(), "water": state.water_count.tolist(),
                "disputed": state.disputed.tolist(), "afford": list(state.afford),
                "pending": list(state.pending)}

    def random_move(self, state: OutpostState, player: PlayerId,
                    rng: np.random.Generator) -> Any:
        """Disband phase: a random index.  Otherwise each outpost stays or takes one
        of its legal steps, uniformly."""
        if any(state.pending):
            k = len(state.outposts[player])
            return int(rng.integers(k)) if k else 0
        steps = self.legal_moves(state, player)
        by_outpost: dict[int, list[tuple[int, int]]] = {}
        for i, t in steps:
            by_outpost.setdefault(i, []).append(t)
        out = []
        for i in range(len(state.outposts[player])):
            opts = by_outpost.get(i, [])
            j = int(rng.integers(len(opts) + 1))
            if j < len(opts):
                out.append((i, opts[j]))
        return tuple(out)


GAME = OutpostGame()
