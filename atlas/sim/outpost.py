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

import warnings
from dataclasses import dataclass, field, replace
from typing import Any, Final, Mapping, Sequence

import numba
import numpy as np
import numpy.typing as npt

from ..analyze.grid import scratch
from ..analyze.outpost import (
    affordable,
    default_homes,
    ownership_kernel,
    supply_kernel,
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
    outposts : list of ndarray of int32, shape (k_e, 2)
        Per empire, its outposts as ``[row, col]`` in list order (the order move and
        disband indices refer to).
    owner_flat : ndarray of int32
        Owner codes (:data:`atlas.analyze.outpost.NEUTRAL` -1, ``DISPUTED`` -2, or the
        empire) on the padded flat grid; :attr:`owner` is the ``[row, col]`` view.
    land, water_count, disputed : ndarray of int64, shape (4,)
        Land and water cells each empire controls alone, disputed cells it is among.
    turn : int
        Turns played (the next turn is ``turn + 1``; seasons are turns 10, 20, ...).
    params : OutpostParams
    afford : ndarray of int64, shape (4,)
        Outposts each empire could afford at the last season (1 before the first).
    pending : ndarray of bool, shape (4,)
        Empires that must choose an outpost to disband before the next turn.
    built : ndarray of bool, shape (4,)
        Empires whose last outpost was built at home for the coming season turn.
    skip : ndarray of bool, shape (4,)
        Official mode: empires that gave an invalid disband answer and do not move.
    board : Board
        Static arrays of the map for the kernels (shared by copies).
    """

    water: Grid
    outposts: list[npt.NDArray[np.int32]]
    owner_flat: npt.NDArray[np.int32]
    land: npt.NDArray[np.int64]
    water_count: npt.NDArray[np.int64]
    disputed: npt.NDArray[np.int64]
    turn: int
    params: OutpostParams
    afford: npt.NDArray[np.int64] = field(default_factory=lambda: np.ones(4, np.int64))
    pending: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros(4, bool))
    built: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros(4, bool))
    skip: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros(4, bool))
    board: Board | None = None

    def copy(self) -> "OutpostState":
        """An independent copy (the water grid and the board are shared, read-only)."""
        return OutpostState(self.water, [a.copy() for a in self.outposts],
                            self.owner_flat.copy(), self.land.copy(),
                            self.water_count.copy(), self.disputed.copy(), self.turn,
                            self.params, self.afford.copy(), self.pending.copy(),
                            self.built.copy(), self.skip.copy(), self.board)

    @property
    def owner(self) -> IntGrid:
        """Owner codes as a ``[row, col]`` view of :attr:`owner_flat`."""
        h, w = self.water.shape
        return self.owner_flat.reshape(h + 2, w + 2)[1:-1, 1:-1]

    @property
    def over(self) -> bool:
        return self.turn >= self.params.last_turn

    def __repr__(self) -> str:
        return (f"OutpostState(turn={self.turn}, outposts={[len(a) for a in self.outposts]}, "
                f"land={self.land.tolist()}, water={self.water_count.tolist()})")


# --------------------------------------------------------------------------- kernels


@numba.njit(cache=True)
def _move_kernel(land_flat, stride, official, cells, starts, steps, moved
                 ):  # pragma: no cover - compiled
    """Apply steps ``(player, index, row, col)`` to flat ``cells``; see module docstring.

    Returns ``(code, entry)``: ``code`` 0 when done, -1 when an official turn was cut
    short at ``entry``, or an ``_ERR_*`` code (spec mode) for ``entry``.
    """
    rows = land_flat.shape[0] // stride - 2
    cols = stride - 2
    for i in range(moved.shape[0]):
        moved[i] = 0
    for k in range(steps.shape[0]):
        p = steps[k, 0]
        idx = steps[k, 1]
        tr = steps[k, 2]
        tc = steps[k, 3]
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
        cr = cur // stride - 1
        cc = cur % stride - 1
        target = (tr + 1) * stride + tc + 1
        dist = abs(tr - cr) + abs(tc - cc)
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
def _settle_kernel(land_flat, board_flat, stride, r, cells, starts, homes, owner, bufs,
                   counts, alive):  # pragma: no cover - compiled
    """Ownership, supply lines, removal of the cut-off outposts, ownership again.

    ``cells`` and ``starts`` are compacted in place; returns the outposts left.
    """
    n_emp = homes.shape[0]
    n = cells.shape[0]
    emps = np.empty(n, np.int64)
    for e in range(n_emp):
        for j in range(starts[e], starts[e + 1]):
            emps[j] = e
    ownership_kernel(land_flat, board_flat, stride, r, cells, emps, owner, bufs[0], bufs[1],
                     bufs[2], counts)
    left = 0
    for e in range(n_emp):
        a = starts[e]
        b = starts[e + 1]
        left += supply_kernel(land_flat, stride, owner, e, homes[e], cells[a:b],
                              alive[a:b], bufs[3], bufs[4], bufs[5], bufs[6])
    if left == n:
        return n
    w = 0
    for e in range(n_emp):
        a = starts[e]
        b = starts[e + 1]
        starts[e] = w
        for j in range(a, b):
            if alive[j] != 0:
                cells[w] = cells[j]
                emps[w] = e
                w += 1
    starts[n_emp] = w
    ownership_kernel(land_flat, board_flat, stride, r, cells[:w], emps[:w], owner, bufs[0],
                     bufs[1], bufs[2], counts)
    return w


# --------------------------------------------------------------------------- engine


def _flat(state: OutpostState) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    sizes = [len(a) for a in state.outposts]
    starts = np.zeros(len(sizes) + 1, np.int64)
    np.cumsum(sizes, out=starts[1:])
    rc = np.concatenate(state.outposts).astype(np.int64) if starts[-1] else \
        np.zeros((0, 2), np.int64)
    stride = state.board.stride  # type: ignore[union-attr]
    return (rc[:, 0] + 1) * stride + rc[:, 1] + 1, starts


def _unflat(state: OutpostState, cells: npt.NDArray[np.int64],
            starts: npt.NDArray[np.int64]) -> None:
    stride = state.board.stride  # type: ignore[union-attr]
    rc = np.empty((int(starts[-1]), 2), np.int32)
    rc[:, 0] = cells[: starts[-1]] // stride - 1
    rc[:, 1] = cells[: starts[-1]] % stride - 1
    state.outposts = [rc[starts[e]:starts[e + 1]] for e in range(len(starts) - 1)]


def _settle(state: OutpostState, cells: npt.NDArray[np.int64],
            starts: npt.NDArray[np.int64]) -> None:
    b = state.board
    assert b is not None
    _, bufs = scratch(b.land_flat.shape[0], 7)
    counts = np.zeros((len(starts) - 1, 3), np.int64)
    alive = np.empty(len(cells), np.uint8)
    _settle_kernel(b.land_flat, b.board_flat, b.stride, state.params.r, cells, starts,
                   b.homes_flat, state.owner_flat, bufs, counts, alive)
    _unflat(state, cells, starts)
    state.land = counts[:, 0].copy()
    state.water_count = counts[:, 1].copy()
    state.disputed = counts[:, 2].copy()


def _steps_array(move: Any, player: int) -> npt.NDArray[np.int64]:
    """A move (tuple of steps, or an int array of ``(index, row, col)`` rows) as
    ``(player, index, row, col)`` rows."""
    if isinstance(move, np.ndarray) and move.ndim == 2 and move.shape[1] == 3:
        out = np.empty((len(move), 4), np.int64)
        out[:, 0] = player
        out[:, 1:] = move
        return out
    rows = []
    try:
        for entry in move:
            idx, target = entry
            if target is None:
                rows.append((player, int(idx), _MISSING, _MISSING))
            else:
                rows.append((player, int(idx), int(target[0]), int(target[1])))
    except (TypeError, ValueError, IndexError):
        raise IllegalMoveError(f"seat {player}: an outpost move is a sequence of "
                               f"(index, (row, col)) steps, got {move!r:.80}") from None
    return np.array(rows, np.int64).reshape(-1, 4)


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
    if state.over:
        raise IllegalMoveError(f"the game is over (turn {state.turn})")
    if state.pending.any():
        raise IllegalMoveError(f"seats {np.flatnonzero(state.pending).tolist()} must first "
                               "choose an outpost to disband")
    extra = set(moves) - set(range(NUM_EMPIRES))
    if extra:
        raise IllegalMoveError(f"outpost has seats 0..3, got moves for {sorted(extra)}")
    p = state.params
    new = state.copy()
    new.turn += 1
    new.built[:] = False
    cells, starts = _flat(state)
    parts = [_steps_array(moves[s], s) for s in range(NUM_EMPIRES)
             if moves.get(s) is not None and not state.skip[s]]
    new.skip[:] = False
    if parts:
        steps = np.concatenate(parts) if len(parts) > 1 else parts[0]
        moved = np.empty(len(cells), np.uint8)
        b = state.board
        assert b is not None
        code, k = _move_kernel(b.land_flat, b.stride, p.official, cells, starts, steps, moved)
        if code == _ABORT:
            _unflat(new, cells, starts)
            return new
        if code != _OK:
            s, idx, tr, tc = (int(v) for v in steps[k])
            target = "no target" if tr == _MISSING else f"({tr}, {tc})"
            raise IllegalMoveError(f"seat {s}: step [{idx}, {target}] {_ERR_TEXT[code]}")
    _settle(new, cells, starts)
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
    for e in range(NUM_EMPIRES):
        n = affordable(int(state.land[e]), int(state.water_count[e]), p.L, p.W,
                       official=p.official)
        state.afford[e] = n
        k = len(state.outposts[e])
        if k < n:
            home = np.array([state.board.homes[e]], np.int32)  # type: ignore[union-attr]
            state.outposts[e] = np.concatenate([state.outposts[e], home])
            state.built[e] = True
        elif k > n:
            state.pending[e] = True


def _disband(state: OutpostState, moves: Mapping[PlayerId, Any]) -> OutpostState:
    seats = set(np.flatnonzero(state.pending).tolist())
    extra = set(moves) - seats
    if extra:
        raise IllegalMoveError(f"only seats {sorted(seats)} choose an outpost to disband now, "
                               f"got moves for {sorted(extra)}")
    new = state.copy()
    for s in sorted(seats):
        k = len(new.outposts[s])
        m = moves.get(s)
        if m is not None and (isinstance(m, bool) or not isinstance(m, (int, np.integer))):
            raise IllegalMoveError(f"seat {s}: a disband answer is an outpost index, "
                                   f"got {m!r}")
        if new.params.official:
            if m is None or not 0 <= m < k:
                new.skip[s] = True
                continue
        elif m is None:
            m = k - 1
        elif not 0 <= m < k:
            raise IllegalMoveError(f"seat {s}: no outpost {m} to disband (it has {k})")
        new.outposts[s] = np.delete(new.outposts[s], int(m), axis=0)
    new.pending[:] = False
    return new


def check_move(state: OutpostState, player: PlayerId, move: Any) -> str | None:
    """Why ``move`` is not allowed for ``player`` now, or ``None`` if it is."""
    try:
        if state.pending.any():
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
        zeros = np.zeros(NUM_EMPIRES, np.int64)
        state = OutpostState(board.water, [np.array([h], np.int32) for h in board.homes],
                             np.empty(len(board.land_flat), np.int32), zeros, zeros.copy(),
                             zeros.copy(), 0, prm, board=board)
        cells, starts = _flat(state)
        _settle(state, cells, starts)
        prepare_turn(state)
        return state

    def to_move(self, state: OutpostState) -> tuple[PlayerId, ...]:
        if state.over:
            return ()
        if state.pending.any():
            return tuple(int(s) for s in np.flatnonzero(state.pending))
        return tuple(range(NUM_EMPIRES))

    def legal_moves(self, state: OutpostState, player: PlayerId) -> Sequence[Any]:
        """Disband phase: the outpost indices.  Otherwise every legal single step
        ``(index, (row, col))``; a move combines at most one per outpost."""
        if player not in self.to_move(state):
            return ()
        if state.pending.any():
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
        if state.pending.any():
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
                "disputed": state.disputed.tolist(), "afford": state.afford.tolist(),
                "pending": state.pending.tolist()}

    def random_move(self, state: OutpostState, player: PlayerId,
                    rng: np.random.Generator) -> Any:
        """Disband phase: a random index.  Otherwise each outpost stays or takes one
        of its legal steps, uniformly."""
        if state.pending.any():
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
