"""Built-in Outpost bots: ``greedy``, ``balanced`` and ``defender``.

All three plan the same way: each turn their outposts are visited one after the other
and each takes the step (or stays) that most improves a position score, the other
empires held where they are.  A step is only allowed if, after it, *every* outpost of
the empire still has its supply line home (checked with the engine's own kernels,
:func:`atlas.games.outpost.analysis.ownership_kernel` and
:func:`~atlas.games.outpost.analysis.supply_core`),
so a bot never loses an outpost to its own move.  The strategies differ in the score:

``greedy``
    Territory: land plus water controlled alone; ties broken by spreading outposts
    apart and away from home.
``balanced``
    Resources: what the empire can afford, ``min(land / L, water / W)``, counts three
    times, plus both resource shares -- the scarce resource is sought first.
``defender``
    Territory, plus a bonus for every enemy outpost the step cuts off from its home,
    minus the enemy-controlled cells near its own home; with three or more outposts its
    first one stays within ``r / 2`` of home as a guard.

At a season that asks for a disband, each bot removes the outpost whose loss costs the
least of its own score (outposts that would be cut off by the removal count heavily).

References
----------
``outpost-2014-spec.txt`` (the rules); ``outpost-official.md`` (the supply-line rule as
the engine applies it).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ....bots.base import BotBase
from ....bots.search import clock, stop_time
from ....jit import numba
from ..analysis.influence import reach
from ..analysis.kernels import ownership_update
from ..rules.kernels import Position, _box, own, supplied

__all__ = [
    "GreedyOutpostBot",
    "BalancedOutpostBot",
    "DefenderOutpostBot",
    "OutpostPlanner",
    "moved_steps",
    "GREEDY",
    "BALANCED",
    "DEFENDER",
]

#: Strategy codes of the planning kernel.
GREEDY, BALANCED, DEFENDER = 0, 1, 2
#: Score of one territory cell (tie-break terms are worth one each).
CELL = 1000.0
#: Score of one enemy outpost cut off (defender), and of losing one of ours (disband).
CUT_BONUS = 60_000.0
LOST_PENALTY = 1_000_000.0
_INVALID = -1e18


class Scoring(NamedTuple):
    """What a heuristic bot's score reads besides the board (:class:`Position`): its
    empire and strategy, ``L`` and ``W``, ownership rows, the outposts' supply flags,
    the distance field to the scarce resource and its weight."""

    me: int
    mode: int
    L: float
    W: float
    owner: np.ndarray
    counts: np.ndarray
    alive: np.ndarray
    field: np.ndarray
    field_w: float


@numba.njit(cache=True, inline="always")
def _score(pos, h, cells, emps, starts, strict):
    """Score of the position for empire ``h.me`` (``_INVALID`` if strict and an own
    outpost is cut off); see the module docstring.  Leaves the position's ownership in
    ``h.owner``, ``h.counts`` and its packed grid in ``pos.bufs[0]``, and the supply
    lines' rows ``pos.bufs[3]`` and ``[6]`` clean, as :func:`_score_owned` takes them."""
    stride = pos.stride
    own(pos, cells, emps, h.owner, pos.bufs[0], h.counts)
    mark = pos.bufs[3]
    heads = pos.bufs[6]
    for i in range(mark.shape[0]):
        mark[i] = 0
    for i in range(min(mark.shape[0], mark.shape[0] // stride + stride)):
        heads[i] = -1
    return _score_owned(pos, h, cells, emps, starts, strict)


@numba.njit(cache=True, _nrt=False)
def _score_owned(pos, h, cells, emps, starts, strict):
    """:func:`_score` of a position whose ownership ``h.owner``, ``h.counts`` holds
    already, with the supply lines' rows clean (the supply search leaves them so)."""
    me, owner, counts = h.me, h.owner, h.counts
    stride, r, homes = pos.stride, pos.r, pos.homes
    a = starts[me]
    b = starts[me + 1]
    lost = (b - a) - supplied(pos, owner, me, cells, starts, h.alive)
    if lost > 0 and strict:
        return _INVALID
    land = counts[me, 0]
    water = counts[me, 1]
    if h.mode == BALANCED:
        big = 1e9
        fl = land / h.L if h.L > 0 else big
        fw = water / h.W if h.W > 0 else big
        lo = min(fl, fw)
        if lo >= big:
            value = CELL * (land + water)
        else:
            value = CELL * 20.0 * (3.0 * lo + min(fl, 4.0 * lo + 4.0) + min(fw, 4.0 * lo + 4.0))
    else:
        value = CELL * (land + water)
    if h.mode == DEFENDER:
        for e in range(homes.shape[0]):
            if e != me and starts[e + 1] > starts[e]:
                kept = supplied(pos, owner, e, cells, starts, h.alive)
                value += CUT_BONUS * ((starts[e + 1] - starts[e]) - kept)
        # enemy or disputed cells near home
        hr = homes[me] // stride
        hc = homes[me] % stride
        rad = r + r // 2
        for dr in range(-rad, rad + 1):
            span = rad - abs(dr)
            for dc in range(-span, span + 1):
                rr = hr + dr
                cc = hc + dc
                if rr < 1 or cc < 1 or cc >= stride - 1 or rr * stride + cc >= owner.shape[0]:
                    continue
                o = owner[rr * stride + cc]
                if o == -2 or (o >= 0 and o != me):
                    value -= CELL * 0.5
    value -= LOST_PENALTY * lost
    # pull towards the scarce resource not yet held
    nearest = 1 << 30
    for j in range(a, b):
        f = h.field[cells[j]]
        if 0 <= f < nearest:
            nearest = f
    if nearest < (1 << 30) and nearest > r - 2:
        value -= h.field_w * (nearest - (r - 2))
    # tie-breaks: spread the outposts apart and away from home
    cap = 2 * r + 1
    hr = homes[me] // stride
    hc = homes[me] % stride
    for j in range(a, b):
        cr = cells[j] // stride
        cc = cells[j] % stride
        near = abs(cr - hr) + abs(cc - hc)
        for k in range(a, b):
            if k != j:
                d = abs(cr - cells[k] // stride) + abs(cc - cells[k] % stride)
                if d < near:
                    near = d
        value += min(near, cap)
    return value


@numba.njit(cache=True, _nrt=False)
def _plan(pos, h, cells, emps, starts, order, guard_radius, deadline, boxes):
    """Visit my outposts in ``order``; move each to its best safe step.  In place.

    The ownership is counted once; a candidate step changes it only in the box around
    the outpost's two diamonds, recomputed there and put back after the score
    (:func:`~atlas.games.outpost.analysis.ownership_update`, the engine's own update:
    the same owners and counts as counting anew, at a box's cost, not the board's; it
    keeps the packed grid of up to 8 empires, and Outpost has 4).  ``boxes`` is
    ``(1, 4)`` ``int64`` scratch."""
    stride = pos.stride
    r = pos.r
    rows = pos.land_flat.shape[0] // stride - 2
    cols = stride - 2
    steps = (-stride, 1, stride, -1)
    base = _score(pos, h, cells, emps, starts, False)
    a = starts[h.me]
    hr = pos.homes[h.me] // stride
    hc = pos.homes[h.me] % stride
    for t in range(order.shape[0]):
        if clock() > deadline:
            break
        j = a + order[t]
        src = cells[j]
        best = base
        best_cell = src
        for s in steps:
            dst = src + s
            if pos.land_flat[dst] == 0:
                continue
            if (
                guard_radius >= 0
                and j == a
                and abs(dst // stride - hr) + abs(dst % stride - hc) > guard_radius
            ):
                continue
            cells[j] = dst
            _box(stride, rows, cols, r, src, dst, boxes, 0)
            _update(pos, h, cells, emps, boxes)
            v = _score_owned(pos, h, cells, emps, starts, True)
            cells[j] = src
            _update(pos, h, cells, emps, boxes)  # the step taken back
            if v > best:
                best = v
                best_cell = dst
        cells[j] = best_cell
        if best_cell != src:
            _box(stride, rows, cols, r, src, best_cell, boxes, 0)
            _update(pos, h, cells, emps, boxes)
        base = best


@numba.njit(cache=True, inline="always")
def _update(pos, h, cells, emps, boxes):
    """The ownership of ``cells`` brought up to date in ``boxes`` (``h.owner``,
    ``h.counts`` and the packed grid ``pos.bufs[0]``; ``h`` a :class:`Scoring`, or any
    tuple with those fields: the planner's ``Weighing``)."""
    ownership_update(
        pos.land_flat, pos.stride, pos.r, cells, emps, boxes, h.owner, pos.bufs[0], h.counts
    )


@numba.njit(cache=True)
def _disband_scores(pos, h, cells, emps, starts):
    """Score of the position after removing each of my outposts."""
    me = h.me
    a = starts[me]
    b = starts[me + 1]
    n = cells.shape[0]
    out = np.empty(b - a, np.float64)
    sub_cells = np.empty(n - 1, np.int64)
    sub_emps = np.empty(n - 1, np.int64)
    sub_starts = starts.copy()
    for e in range(me + 1, starts.shape[0]):
        sub_starts[e] -= 1
    for i in range(a, b):
        w = 0
        for j in range(n):
            if j != i:
                sub_cells[w] = cells[j]
                sub_emps[w] = emps[j]
                w += 1
        out[i - a] = _score(pos, h, sub_cells, sub_emps, sub_starts, False)
    return out


@numba.njit(cache=True)
def resource_field(board_flat, stride, sources, field, queue):
    """Manhattan distance from every board cell to the nearest ``sources`` cell (-1: none).

    Multi-source breadth-first search over the padded board (influence ignores water,
    so plain Manhattan steps); O(cells).
    """
    tail = 0
    for c in range(field.shape[0]):
        if sources[c] != 0:
            field[c] = 0
            queue[tail] = c
            tail += 1
        else:
            field[c] = -1
    head = 0
    while head < tail:
        c = queue[head]
        head += 1
        for s in (-stride, 1, stride, -1):
            nb = c + s
            if 0 <= nb < field.shape[0] and board_flat[nb] != 0 and field[nb] < 0:
                field[nb] = field[c] + 1
                queue[tail] = nb
                tail += 1


def moved_steps(
    before: np.ndarray, after: np.ndarray, a: int, n: int, stride: int
) -> tuple[tuple[int, tuple[int, int]], ...]:
    """The steps ``((index, (row, col)), ...)`` of the ``n`` outposts from flat index
    ``a`` whose cell changed from ``before`` to ``after`` (padded flat cells)."""
    steps = []
    for i in range(n):
        c = int(after[a + i])
        if c != before[a + i]:
            steps.append((i, (c // stride - 1, c % stride - 1)))
    return tuple(steps)


class OutpostPlanner(BotBase):
    """Shared machinery of the Outpost bots: flat arrays from a state, plan, disband.

    Parameters
    ----------
    game : str
        ``"outpost"``.
    seed : int
        Seeds the order in which outposts are planned each turn.
    mode : int
        :data:`GREEDY`, :data:`BALANCED` or :data:`DEFENDER`.
    margin : float
        Seconds kept in hand before the deadline (planning stops; unplanned outposts
        stay).

    Notes
    -----
    A turn counts the ownership once (diamonds of radius ``r`` stamped from every
    outpost); each of the ``4 n`` candidate steps of ``n`` outposts then recomputes it
    in the box around the step's two diamonds, twice (the step, then taken back), and
    searches the supply lines once.
    """

    name = "planner"
    #: Seconds of one core to compile its kernels from an empty cache (measured alone, the
    #: game's rules included: ``warm_bots`` of this bot only).
    compile_seconds = 12.6
    mode = GREEDY
    #: Weight of the pull towards the scarce resource (per cell of distance).
    field_weight = 1.0

    def __init__(self, game: str = "outpost", seed: int = 0, margin: float = 0.02) -> None:
        self.rng = np.random.default_rng(seed)
        self.margin = margin
        self._warm = False

    def _arrays(
        self, state: Any, player: int, field: np.ndarray | None = None
    ) -> tuple[Position, Scoring, np.ndarray, np.ndarray, np.ndarray]:
        """The board, ``player``'s scoring (with ``field``, or none: a disband) and the
        outposts' cells, empires and first index of each empire."""
        b = state.board
        stride = int(b.stride)
        rc = np.asarray(state.rc, dtype=np.int64)
        cells = (rc[:, 0] + 1) * stride + rc[:, 1] + 1
        starts = np.asarray(state.starts, dtype=np.int64)
        emps = np.repeat(np.arange(len(starts) - 1, dtype=np.int64), np.diff(starts))
        size = b.land_flat.shape[0]
        bufs = np.zeros((7, size), dtype=np.int32)
        homes = np.asarray(b.homes_flat, dtype=np.int64)
        p = state.params
        pos = Position(
            b.land_flat, b.board_flat, stride, reach(p.r, b.water.shape), homes, bufs
        )
        weight = 0.0 if field is None else self.field_weight
        h = Scoring(
            player,
            self.mode,
            float(p.L),
            float(p.W),
            np.zeros(size, dtype=np.int32),
            np.zeros((len(starts) - 1, 3), dtype=np.int64),
            np.zeros(len(cells), dtype=np.uint8),
            np.full(size, -1, dtype=np.int32) if field is None else field,
            weight,
        )
        return pos, h, cells, emps, starts

    def _guard_radius(self, state: Any, player: int) -> int:
        return -1

    def _field(self, state: Any, player: int, queue: np.ndarray) -> np.ndarray:
        """Distances to the cells of the scarcer resource (against ``L``, ``W``) not held."""
        b = state.board
        p = state.params
        land, water = int(state.counts[player, 0]), int(state.counts[player, 1])
        short_of_water = (water / p.W if p.W else np.inf) <= (land / p.L if p.L else np.inf)
        held = np.asarray(state.owner_flat) == player
        kind = (b.board_flat != 0) & (
            (b.land_flat == 0) if short_of_water else (b.land_flat != 0)
        )
        sources = (kind & ~held).astype(np.uint8)
        field = np.empty(len(b.land_flat), dtype=np.int32)
        resource_field(b.board_flat, int(b.stride), sources, field, queue)
        return field

    def move(self, state: Any, player: int, deadline: float) -> Any:
        """A disband index at a disband phase, else the steps ``((index, (row, col)), ...)``."""
        if any(state.pending):
            return self.disband(state, player)
        n = int(state.starts[player + 1] - state.starts[player])
        if n == 0:
            return ()
        if not self._warm:  # load the disband kernel now, not at a season's deadline
            self._warm = True
            self.disband(state, player)
        queue = np.zeros(state.board.land_flat.shape[0], dtype=np.int32)
        pos, h, cells, emps, starts = self._arrays(
            state, player, self._field(state, player, queue)
        )
        before = cells.copy()
        order = self.rng.permutation(n).astype(np.int64)
        guard = self._guard_radius(state, player)
        boxes = np.zeros((1, 4), dtype=np.int64)
        _plan(
            pos, h, cells, emps, starts, order, guard, stop_time(deadline, self.margin), boxes
        )
        return moved_steps(before, cells, int(starts[player]), n, pos.stride)

    def disband(self, state: Any, player: int) -> int:
        """Index of the outpost whose removal costs the least score."""
        return int(np.argmax(_disband_scores(*self._arrays(state, player))))


class GreedyOutpostBot(OutpostPlanner):
    """Territory expander that never cuts its own supply lines."""

    name = "greedy"
    mode = GREEDY
    field_weight = 0.5 * CELL


class BalancedOutpostBot(OutpostPlanner):
    """Resource-aware: weighs land and water against ``L`` and ``W``."""

    name = "balanced"
    mode = BALANCED
    field_weight = 2.0 * CELL


class DefenderOutpostBot(OutpostPlanner):
    """Guards home and cuts enemy supply lines."""

    name = "defender"
    mode = DEFENDER
    field_weight = 0.5 * CELL

    def _guard_radius(self, state: Any, player: int) -> int:
        return int(state.params.r) // 2 if state.num_outposts(player) >= 3 else -1
