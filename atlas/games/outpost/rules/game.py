"""Outpost (2014 course project): four empires grow outposts on a 100x100 map.

The rules are those of ``outpost-2014-spec.txt``.  ``docs/outpost.md`` states them in
full, with the score and the compatibility options.  In short:

- every empire starts with one outpost on its home corner;
- each turn every outpost may step one cell, orthogonally, onto land;
- a cell is controlled by the empire with the nearest outposts within ``r``, in
  Manhattan distance;
- outposts that lose their supply line home are removed after the moves;
- every 10 turns comes a *season*.  An empire then builds one outpost at home if its
  land and water afford it.  If they no longer do, it disbands one of its choice.

Turns and moves
---------------
This is the :class:`atlas.sim.base.Game` interface.

* Normally :meth:`OutpostGame.to_move` is all four seats.  A move is a tuple of *steps*
  ``(index, (row, col))``: outpost ``index`` of the empire's list goes to ``(row, col)``.
  Outposts not named stay.  The spec rules:

  - each index comes at most once;
  - the target is the outpost's cell or one orthogonal step from it;
  - the target is on land, on the board.

  Anything else raises :class:`~atlas.errors.IllegalMoveError`.  :func:`check_move`
  says why.  In JSON a move is ``[[index, [row, col]], ...]``.
* At a season, some empire may no longer afford its outposts.  Then ``to_move`` first
  returns only those seats.  Their move is the index, an ``int``, of the outpost to
  disband.  :meth:`~OutpostGame.legal_moves` lists the indices.  The turn counter does
  not advance.  A ``None`` answer disbands the last outpost of the list.  Then all four
  seats move as usual.
* A ``None`` move means the empire does not move this turn.  It failed: in official
  mode, its ``move()`` threw.  :data:`RETURNED_NULL` is a player whose ``move()``
  returned null.  In spec mode that is no move.  For official mode, see below.
* Season bookkeeping happens at the end of the turn before the season.  So the state
  handed to the bots for turn 10 already holds the new home outposts, last in their
  lists, and the pending disbands.  But ``owner``, ``land`` and ``water`` are still those
  left by turn 9.  A new outpost changes the ownership only when the turn is played.

``compat="official"`` reproduces the 2014 simulator where it departs from the spec.
``outpost-official.md`` describes these departures:

- A move may name an outpost several times.  Each entry is one step from where the
  previous entries left it.
- Illegal entries are ignored: a stay, a diagonal, a longer step, off the board, into
  water, an index too large.
- Some entries stop the turn for everyone at that entry: a negative index, a missing
  target (``[index, null]``) or a :data:`RETURNED_NULL` move.  So does the simulator,
  whose ``updatemap`` throws out of ``playStep``.  Then:

  - the seats before it moved, and the ownership was recomputed after each of their
    lists;
  - the failing seat's entries before it stand, but are not counted in the ownership;
  - the later seats do not move;
  - no supply line is checked;
  - when seat 0 stops the turn, the ownership is the one the last turn left, or none on
    turn 1.

  :attr:`OutpostState.stopped` says where the turn stopped.
- A ``None`` move, from a ``move()`` that threw, is no move, and the turn goes on.
- The game lasts ``T + 1`` turns.
- A disband answer that is not a valid index, ``None`` included, disbands nothing.  The
  empire then does not move that turn.
- Affordability uses the simulator's arithmetic, in
  :func:`atlas.games.outpost.analysis.affordable`.

The end: after the last turn, each empire's land and water are its result.  They are the
cells it controls alone.  The score for standings is ``land + water``, with ties broken
by ``land``.  The unique best is the winner.  If the best is shared, the winner is
``None``.  :attr:`Outcome.scores` gives each empire the fraction of the three others it
beats, a tie counting one half.  So scores are in [0, 1] and sum to 2.

References
----------
- ``outpost-2014-spec.txt``.
- ``outpost-official.md``: the official simulator and its recorded games.
  ``tests/sim/test_traces.py`` replays them exactly.
"""

from __future__ import annotations

import dataclasses
import threading
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

import numpy as np
import numpy.typing as npt

from ....errors import IllegalMoveError, InvalidMoveError
from ....maps import GameMap
from ....sim.base import (
    SPEC,
    ArrayState,
    GameBase,
    GameInfo,
    Outcome,
    Param,
    Reason,
    _from_json,
    _to_json,
)
from ....types import Cell, Grid, IntGrid, PlayerId
from ..analysis import NEUTRAL, affordable, default_homes, reach
from .kernels import _ABORT, _ERR_TEXT, _MISSING, _turn_kernel
from .moves import (
    _NO_ENDS,
    _NO_STEPS,
    NUM_EMPIRES,
    RETURNED_NULL,
    _is_int,
    _parse_steps,
    _steps,
)

__all__ = [
    "COMPATS",
    "NUM_EMPIRES",
    "RETURNED_NULL",
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

COMPATS = (SPEC, "official")
#: A season every this many turns (turns 10, 20, ...).
SEASON: Final = 10


@dataclass(frozen=True)
class OutpostParams:
    """Game parameters: radius ``r``, costs ``L`` and ``W``, length ``T``, ``compat``.

    Notes
    -----
    ``L + W`` should stay well under ``2 r^2 + 2 r + 1``, the cells one outpost can
    control.  Otherwise no empire ever builds a second outpost.  The official games with
    L = 200, W = 50 and r = 10 are such games.  In spec mode this is warned about.
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
                raise ValueError(
                    f"outpost parameter {name} must be a whole number >= 0, got {v!r}"
                )
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

    ``land_flat`` and ``board_flat`` are the padded flat grids of
    :mod:`atlas.games.outpost.analysis`, with stride ``cols + 2``.  ``homes_flat`` holds
    the homes' flat indices.
    """

    water: Grid
    homes: tuple[Cell, ...]
    land_flat: npt.NDArray[np.uint8]
    board_flat: npt.NDArray[np.uint8]
    homes_flat: npt.NDArray[np.int64]
    stride: int

    @classmethod
    def from_water(cls, water: Grid, homes: Sequence[Cell]) -> Board:
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
class OutpostState(ArrayState):
    """An Outpost position.

    Attributes
    ----------
    water : ndarray of bool, shape (rows, cols)
        The map's water.  It is read-only and shared by copies.
    rc : ndarray of int32, shape (n, 2)
        Every outpost as ``[row, col]``, empire by empire.  Each empire's are in list
        order, the order move and disband indices refer to.  :attr:`outposts` splits it.
    starts : ndarray of int64, shape (5,)
        Empire e's outposts are ``rc[starts[e]:starts[e + 1]]``.
    owner_flat : ndarray of int32
        Owner codes on the padded flat grid: the empire,
        :data:`atlas.games.outpost.analysis.NEUTRAL` (-1) or ``DISPUTED`` (-2).
        :attr:`owner` is the ``[row, col]`` view.
    counts : ndarray of int64, shape (4, 3)
        Per empire, three counts.  :attr:`land` and :attr:`water_count` are the land and
        water cells it controls alone.  :attr:`disputed` is the disputed cells it is
        among.
    turn : int
        Turns played.  The next turn is ``turn + 1``.  Seasons are turns 10, 20, ...
    params : OutpostParams
    afford : tuple of int
        Outposts each empire could afford at the last season.  It is 1 before the first.
    pending : tuple of bool
        Empires that must choose an outpost to disband before the next turn.
    built : tuple of bool
        Empires whose last outpost was built at home for the coming season turn.
    skip : tuple of bool
        Official mode: empires that gave an invalid disband answer and do not move.
    board : Board
        Static arrays of the map for the kernels, shared by copies.
    key_flat, key_src : ndarray, read-only
        Engine bookkeeping.  ``key_flat`` is the packed distance-and-empires grid of
        :func:`~atlas.games.outpost.analysis.ownership_kernel` behind ``owner_flat``.
        ``key_src`` is the outposts it was computed for: flat cells and empires, shape
        ``(2, m)``.  With them the next turn recomputes only around the outposts that
        moved.
    stopped : (int, int) or None
        Official mode: the seat, and the 0-based entry of its move list, at which the last
        turn played stopped.  A negative index, a missing target or the seat's
        :data:`RETURNED_NULL` stops a turn.  ``None`` when the turn ran to its end.

    Notes
    -----
    ``owner`` and the counts are those left by the last turn played.  A season's new
    home outposts and disbands change them only when the next turn is played.

    After an official turn that stopped, they are the ownership the simulator last
    computed.  They are not that of the outposts as they stand.  ``docs/outpost.md``
    says more.
    """

    COPIED: ClassVar[tuple[str, ...]] = ("rc", "starts", "owner_flat", "counts")

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
    stopped: tuple[int, int] | None = None

    @property
    def outposts(self) -> list[npt.NDArray[np.int32]]:
        """Per empire, its outposts as ``[row, col]`` rows in list order, as views."""
        s = self.starts.tolist()
        return [self.rc[s[e] : s[e + 1]] for e in range(len(s) - 1)]

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
        return (
            f"OutpostState(turn={self.turn}, outposts={np.diff(self.starts).tolist()}, "
            f"land={self.land.tolist()}, water={self.water_count.tolist()})"
        )


# --------------------------------------------------------------------------- engine

#: No outposts behind an ownership (``OutpostState.key_src``).
_NO_SRC: npt.NDArray[np.int64] = np.zeros((2, 0), np.int64)
_NO_SRC.setflags(write=False)
_NO_KEY = np.zeros(0, np.int32)
_NO_KEY.setflags(write=False)
#: Per-thread kernel buffers (the kernels reinitialise what they read).
_local = threading.local()


def _run(
    state: OutpostState,
    steps: npt.NDArray[np.int64],
    ends: npt.NDArray[np.int64],
    rc: npt.NDArray[np.int32],
    starts: npt.NDArray[np.int64],
) -> tuple[int, int, OutpostState]:
    """One kernel call from ``rc`` and ``starts``.

    The new state shares nothing writable with ``state``.
    """
    b = state.board
    bufs = getattr(_local, "bufs", None)
    if bufs is None or bufs.shape[1] != b.land_flat.shape[0]:
        bufs = _local.bufs = np.zeros((7, b.land_flat.shape[0]), np.int32)
        bufs[6] = -1  # supply_core's clean state (marks 0, bucket heads -1), kept so
    # a writable copy: the kernels take it as they take the arrays they write, so that
    # the ownership kernel compiles one version, not one for read-only arrays too
    # (2 s of one core on a first run); 4 bytes a cell a turn
    key_old = np.zeros(0, np.int32) if state.key_flat is None else state.key_flat.copy()
    src = state.key_src
    if state.key_flat is None:
        src = _NO_SRC
    key = np.empty(b.land_flat.shape[0], np.int32)
    owner = np.empty_like(state.owner_flat)
    counts = state.counts.copy()
    # a Position and an Ownership, as plain tuples (see _turn_kernel)
    radius = reach(state.params.r, b.water.shape)  # the same ownership, in 32 bits
    board = (b.land_flat, b.board_flat, b.stride, radius, b.homes_flat, bufs)
    ownership = (state.owner_flat, key_old, src, owner, key, counts)
    code, k, seat, fresh, new_rc, new_starts, new_src = _turn_kernel(
        board, ownership, state.params.official, rc, starts, steps, ends
    )
    if not fresh:  # refused (spec) or cut short by seat 0 (official): not recomputed
        new_src = src
        owner = state.owner_flat.copy()
        key = key_old
        if code == _ABORT and state.turn == 0:
            # the simulator has computed no ownership before its first turn's updatemap
            owner[:] = NEUTRAL
            counts[:] = 0
            key = _NO_KEY
            new_src = _NO_SRC
    key.setflags(write=False)
    new_src.setflags(write=False)
    new = OutpostState(
        state.water,
        new_rc,
        new_starts,
        owner,
        counts,
        state.turn,
        state.params,
        b,
        state.afford,
        state.pending,
        state.built,
        state.skip,
        key if key.shape[0] else None,
        new_src,
    )
    if code == _ABORT:
        first = 0 if seat == 0 else int(ends[seat - 1])
        new.stopped = (int(seat), int(k) - first)
    return int(code), int(k), new


def play_turn(state: OutpostState, moves: Mapping[PlayerId, Any]) -> OutpostState:
    """Play one turn's moves and return the new state.  No disbands may be pending.

    The returned state is the position right after the turn.  It comes *before* the
    bookkeeping of a coming season, which :func:`prepare_turn` does.  Its outposts, land
    and water are the ones the official traces record for the turn.

    Raises
    ------
    IllegalMoveError
        Spec mode: a step that breaks the rules.  The message names seat and entry.
    """
    if state.turn >= state.params.last_turn:
        raise IllegalMoveError(f"the game is over (turn {state.turn})")
    if any(state.pending):
        raise IllegalMoveError(
            f"seats {[s for s in range(4) if state.pending[s]]} must "
            "first choose an outpost to disband"
        )
    for s in moves:
        if s not in (0, 1, 2, 3):
            raise IllegalMoveError(f"outpost has seats 0..3, got a move for {s!r}")
    steps, ends = _steps(moves, state.skip, state.params.official)
    code, k, new = _run(state, steps, ends, state.rc, state.starts)
    if code > 0:
        s = int(np.searchsorted(ends, k, side="right"))
        idx, tr, tc = (int(v) for v in steps[3 * k : 3 * k + 3])
        target = "no target" if tr == _MISSING else f"({tr}, {tc})"
        raise IllegalMoveError(f"seat {s}: step [{idx}, {target}] {_ERR_TEXT[code]}")
    new.turn = state.turn + 1
    new.built = new.skip = (False,) * NUM_EMPIRES
    return new


def prepare_turn(state: OutpostState) -> None:
    """In place: the season bookkeeping due before the next turn, if it is a season.

    It does three things:

    - counts each empire's land and water, from the last turn's ownership;
    - builds one outpost at home for empires that can afford more;
    - flags those that must disband.
    """
    nxt = state.turn + 1
    p = state.params
    if nxt % SEASON != 0 or nxt > p.last_turn:
        return
    afford, pending, built = [], [], []
    lists = state.outposts
    for e in range(NUM_EMPIRES):
        n = affordable(
            int(state.counts[e, 0]), int(state.counts[e, 1]), p.L, p.W, official=p.official
        )
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
    """A copy of ``state`` with these outposts, as after a turn.

    ``outposts`` holds, per empire, ``[row, col]`` cells in list order.  The ownership is
    recomputed, and outposts without a supply line are removed.  This is for setting up
    positions: tests, benchmarks, bot search.

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
        raise IllegalMoveError(
            f"only seats {seats} choose an outpost to disband now, "
            f"got moves for {sorted(extra)}"
        )
    new = state.copy()
    lists = new.outposts
    skip = list(new.skip)
    for s in seats:
        k = len(lists[s])
        m = moves.get(s)
        if m is not None and not _is_int(m):
            raise IllegalMoveError(
                f"seat {s}: a disband answer is an outpost index, got {m!r:.60}"
            )
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


class OutpostGame(GameBase[OutpostState]):
    """The ``GAME`` object of outpost (see :class:`atlas.sim.base.Game`)."""

    info = GameInfo(
        name="outpost",
        title="Outpost",
        num_players=NUM_EMPIRES,
        simultaneous=True,
        params=(
            Param("r", int, 10, "radius of influence (Manhattan)", minimum=0),
            Param("L", int, 20, "land cells each outpost beyond the first costs", minimum=0),
            Param("W", int, 5, "water cells each outpost beyond the first costs", minimum=0),
            Param("T", int, 500, "turns in a game", minimum=1),
            Param(
                "compat",
                str,
                SPEC,
                "spec: the rules as written; official: the 2014 simulator's behaviour",
                choices=COMPATS,
            ),
        ),
        protocol="jsonl",
        frame_ms=80,
        max_frames=120,
        quick_params={"T": 30},
        description="Four empires move outposts one step a turn; the nearest outposts "
        "within r control a cell; supply lines home; seasons build or disband.",
    )

    def initial_state(
        self,
        game_map: GameMap,
        params: Mapping[str, Any] | None = None,
    ) -> OutpostState:
        """One outpost per empire on its home; ownership computed."""
        p = self.check_params(params)
        prm = OutpostParams(**p)
        if game_map.game != "outpost":
            raise ValueError(f"not an outpost map: {game_map!r}")
        area = 2 * prm.r * prm.r + 2 * prm.r + 1
        if not prm.official and area < prm.L + prm.W:
            warnings.warn(
                f"L + W = {prm.L + prm.W} exceeds the {area} cells one outpost "
                f"controls with r = {prm.r}: no empire can ever grow",
                stacklevel=2,
            )
        homes = game_map.starts or default_homes(game_map.shape)
        if len(homes) != NUM_EMPIRES:
            raise ValueError(f"an outpost map needs 4 homes, got {len(homes)}")
        board = Board.from_water(game_map.blocked, homes)
        rc = np.array(board.homes, np.int32)
        starts = np.arange(NUM_EMPIRES + 1, dtype=np.int64)
        blank = OutpostState(
            board.water,
            rc,
            starts,
            np.full(len(board.land_flat), -1, np.int32),
            np.zeros((NUM_EMPIRES, 3), np.int64),
            0,
            prm,
            board,
        )
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
        """Disband phase: the outpost indices.

        Otherwise every legal single step ``(index, (row, col))``.  A move combines at
        most one per outpost.
        """
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

    def is_legal(self, state: OutpostState, player: PlayerId, move: Any) -> bool:
        """Whether the rules take ``move`` from ``player`` now, by :func:`check_move`.

        A move combines steps, so it is checked, not looked up in :meth:`legal_moves`.
        With ``compat="official"``, a step the 2014 simulator ignores is taken too.
        """
        return (
            move is not None
            and player in self.to_move(state)
            and check_move(state, player, move) is None
        )

    def apply(self, state: OutpostState, moves: Mapping[PlayerId, Any]) -> OutpostState:
        """The next state: disbands if any are pending, else one turn and season prep."""
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
        scores = tuple(
            (sum(k > o for o in keys) + 0.5 * (sum(k == o for o in keys) - 1))
            / (NUM_EMPIRES - 1)
            for k in keys
        )
        best = max(keys)
        winners = [e for e, k in enumerate(keys) if k == best]
        winner = winners[0] if len(winners) == 1 else None
        # people read seats from 1, as on the site and in the other games' details
        detail = "; ".join(
            f"player {e + 1}: {k[0]} cells ({k[1]} land, {k[0] - k[1]} water)"
            for e, k in enumerate(keys)
        )
        head = f"player {winner + 1} wins" if winner is not None else "shared first place"
        return Outcome(
            winner, Reason.TURN_LIMIT, scores, f"{head} after {state.turn} turns; {detail}"
        )

    def move_to_json(self, move: Any) -> Any:
        if _is_int(move):
            return int(move)
        if isinstance(move, np.ndarray):
            return [[int(i), [int(r), int(c)]] for i, r, c in move.tolist()]
        steps = _parse_steps(move)
        if isinstance(steps, str):
            return steps
        return [[i, None if t is None else [t[0], t[1]]] for i, t in steps]

    def move_from_json(self, data: Any) -> Any:
        if _is_int(data):
            return int(data)
        return _parse_steps(data)

    def summary(self, state: OutpostState) -> dict[str, Any]:
        """Turn, outposts per empire in list order, land, water, disputed, seasons."""
        return {
            "turn": state.turn,
            "outposts": [a.tolist() for a in state.outposts],
            "land": state.land.tolist(),
            "water": state.water_count.tolist(),
            "disputed": state.disputed.tolist(),
            "afford": list(state.afford),
            "pending": list(state.pending),
        }

    def random_move(
        self, state: OutpostState, player: PlayerId, rng: np.random.Generator
    ) -> Any:
        """Disband phase: a random index.

        Otherwise each outpost stays or takes one of its legal steps, uniformly.
        """
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

    def longest_game(self, game_map: GameMap, params: Mapping[str, Any] | None = None) -> int:
        """``T`` turns, plus one disband turn per season.  Official mode plays ``T + 1``."""
        prm = OutpostParams(**self.check_params(params))
        return prm.last_turn + prm.last_turn // SEASON + 1

    def state_to_json(self, state: OutpostState) -> dict[str, Any]:
        """The view ``docs/protocols.md`` documents.

        Its keys: ``turn``, ``outposts`` per empire, ``owner`` as a ``[row, col]`` grid,
        ``land``, ``water``, ``disputed``, ``afford``, ``pending``, ``built``, ``skip``.
        The map and the parameters are in the start message.
        """
        return {
            "turn": int(state.turn),
            "outposts": [np.asarray(a).tolist() for a in state.outposts],
            "owner": np.asarray(state.owner).tolist(),
            "land": _to_json(np.asarray(state.land)),
            "water": _to_json(np.asarray(state.water_count)),
            "disputed": _to_json(np.asarray(state.disputed)),
            **{
                k: [_to_json(v) for v in getattr(state, k)]
                for k in ("afford", "pending", "built", "skip")
            },
        }

    def state_from_json(self, template: OutpostState, data: Mapping[str, Any]) -> OutpostState:
        """Inverse of :meth:`state_to_json`.

        The ownership bookkeeping is dropped.  So the next turn played from the result
        recomputes it in full.
        """
        state = template.copy()
        posts = [np.asarray(p, dtype=np.int32).reshape(-1, 2) for p in data["outposts"]]
        counts = np.stack(
            [np.asarray(data[k], dtype=np.int64) for k in ("land", "water", "disputed")], axis=1
        )
        values: dict[str, Any] = {
            "turn": int(data["turn"]),
            "rc": np.concatenate(posts).astype(np.int32),
            "starts": np.concatenate([[0], np.cumsum([len(p) for p in posts])]).astype(
                np.int64
            ),
            "counts": counts,
            "key_flat": None,
            "key_src": _NO_SRC,
        }
        for key in ("afford", "pending", "built", "skip"):
            values[key] = _from_json(getattr(state, key), data[key])
        state.owner[...] = np.asarray(data["owner"], dtype=state.owner.dtype)
        return dataclasses.replace(state, **values)

    def turn_json(self, state: OutpostState, player: PlayerId) -> dict[str, Any]:
        """What a seat is asked for.

        A disband turn: ``{"expect": "disband", "legal": [index, ...]}``.  Otherwise:
        ``{"expect": "steps", "legal": [[index, [row, col]], ...]}``.
        """
        legal = self.legal_moves(state, player)
        if any(state.pending):
            return {"expect": "disband", "legal": [int(i) for i in legal]}
        return {"expect": "steps", "legal": [[int(i), [int(r), int(c)]] for i, (r, c) in legal]}

    def summarize_map(self, game_map: GameMap) -> dict[str, Any]:
        """Land, water, their components, articulation points of the land, the homes."""
        from ..analysis import map_summary

        return map_summary(game_map)

    def map_analyses(self, game_map: GameMap) -> dict[str, Any]:
        """``influence``: who controls what at the start.

        It is an :class:`atlas.games.outpost.analysis.Influence`, with one outpost on
        each home and the default radius ``r``.
        """
        from ..analysis import influence

        radius = self.info.param("r")
        r = 10 if radius is None else int(radius.default)
        return {"influence": influence(game_map.blocked, [[h] for h in game_map.starts], r)}

    def fairness_facts(self, game_map: GameMap) -> list[dict[str, Any]]:
        """Whether the four quarters are the quarter turns of one another.

        The map format promises it: water at (x, y) is also at (99-y, x), (99-x, 99-y)
        and (y, 99-x).  Each home must also be carried onto the next.  Then every empire
        starts in the same place.
        """
        from ....analysis.symmetry import seat_permutation

        perm = seat_permutation("rot90", game_map.blocked, game_map.starts)
        rotate = perm is not None and len(perm) > 1 and all(p != i for i, p in enumerate(perm))
        return [
            {
                "key": "quarters",
                "label": "quarters rotate",
                "value": rotate,
                "note": "the four quarters are quarter turns of one another, homes "
                "included, as the format promises"
                if rotate
                else "the four quarters are not quarter turns of one another: the "
                "empires do not start alike",
            }
        ]


GAME = OutpostGame()
