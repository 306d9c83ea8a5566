"""Numba kernels of an Outpost turn: moves, ownership, supply lines, one call per turn.

Used by :mod:`.game` (the rules, both compat modes, are in its docstring and
in ``docs/outpost.md``).  :func:`_turn_kernel` applies the steps (:func:`_move_steps`),
then settles the position (:func:`_settle`): ownership recomputed only in boxes around
the moved outposts when they are few (:func:`_recount`,
:func:`atlas.games.outpost.analysis.ownership_update`), outposts without a supply line removed,
ownership again if any were.  An official turn cut short gets only the ownership the
simulator leaves (:func:`_recount` of the outposts before the failing seat's list).

Steps are flat ``index, row, col`` triples (``int64``), seat by seat; a missing target
has row :data:`_MISSING`.  The move kernel returns :data:`_OK`, :data:`_ABORT` (an
official turn cut short) or an ``_ERR_*`` code (spec mode), explained by
:data:`_ERR_TEXT`.

References
----------
``outpost-2014-spec.txt``; ``outpost-official.md``.
"""

from __future__ import annotations

from typing import Final, NamedTuple

import numpy as np

from ....jit import numba  # numba itself is imported on first compile
from ..analysis.kernels import ownership_kernel, ownership_update
from ..analysis.supply import supply_core

__all__ = [
    "Position",
    "own",
    "supplied",
    "_turn_kernel",
    "_MISSING",
    "_OK",
    "_ABORT",
    "_ERR_TEXT",
]

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


class Position(NamedTuple):
    """An Outpost board's flat arrays and scratch rows, as the kernels of a turn and the
    bots' scores read them (conventions of :mod:`atlas.games.outpost.analysis`).

    Attributes
    ----------
    land_flat, board_flat : ndarray of uint8
        1 on land, and on every board cell, padded (row length ``stride``).
    stride : int
        Columns plus 2.
    r : int
        The influence radius.
    homes : ndarray of int64
        Each empire's home cell (flat).
    bufs : ndarray of int32, shape (7, cells)
        Scratch: rows 0-2 for ownership, 3-6 for supply lines (rows 3 and 6 clean,
        all 0 and all -1, between supply-line searches: :func:`supplied` leaves them so).
    """

    land_flat: np.ndarray
    board_flat: np.ndarray
    stride: int
    r: int
    homes: np.ndarray
    bufs: np.ndarray


class Ownership(NamedTuple):
    """The ownership a turn starts from and the arrays it writes its own to.

    Attributes
    ----------
    owner_old, key_old : ndarray of int32
        Ownership and packed grid (:func:`~atlas.games.outpost.analysis.ownership_kernel`)
        of the outposts ``src`` (flat cells and empires, shape ``(2, m)``; with no
        column, nothing is known).
    owner, key : ndarray of int32
        Written by the turn.
    counts : ndarray of int64, shape (empires, 3)
        The counts of ``owner_old`` on entry, of ``owner`` after.
    """

    owner_old: np.ndarray
    key_old: np.ndarray
    src: np.ndarray
    owner: np.ndarray
    key: np.ndarray
    counts: np.ndarray


@numba.njit(cache=True, inline="always")
def own(pos, cells, emps, owner, key, counts):  # type: ignore[no-untyped-def]
    """Ownership of the outposts ``cells`` (empires ``emps``) into ``owner``, ``key``
    (the packed grid, or scratch) and ``counts``
    (:func:`~atlas.games.outpost.analysis.ownership_kernel`)."""
    b = pos.bufs
    ownership_kernel(
        pos.land_flat,
        pos.board_flat,
        pos.stride,
        pos.r,
        cells,
        emps,
        owner,
        key,
        b[1],
        b[2],
        counts,
    )


@numba.njit(cache=True, inline="always")
def supply_lines(pos, owner, e, cells, alive):  # type: ignore[no-untyped-def]
    """How many of ``cells``, outposts of empire ``e``, keep their supply line home under
    ``owner``; ``alive`` marks them (:func:`~atlas.games.outpost.analysis.supply.supply_core`, on
    ``pos.bufs`` rows 3-6)."""
    b = pos.bufs
    h = pos.homes[e]
    return supply_core(
        pos.land_flat, pos.stride, owner, e, h, cells, alive, b[3], b[4], b[5], b[6]
    )


@numba.njit(cache=True, inline="always")
def supplied(pos, owner, e, cells, starts, alive):  # type: ignore[no-untyped-def]
    """:func:`supply_lines` of empire ``e``'s outposts ``cells[starts[e]:starts[e + 1]]``."""
    a = starts[e]
    z = starts[e + 1]
    return supply_lines(pos, owner, e, cells[a:z], alive[a:z])


@numba.njit(cache=True)
def _move_steps(land_flat, stride, official, cells, starts, steps, ends):  # type: ignore[no-untyped-def]
    """Apply steps to flat ``cells``; see :mod:`atlas.games.outpost.rules.game`.

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


@numba.njit(cache=True, inline="always")
def _own(pos, cells, emps, owner_old, key_old, copy, owner, key, counts, boxes, nb, area):  # type: ignore[no-untyped-def]
    """Ownership of ``cells`` into ``owner``, ``key`` and ``counts``: from the previous
    ``owner_old``/``key_old`` (copied first if ``copy``, else the same arrays) with only
    the ``nb`` boxes recomputed when their area is small (a quarter of the board or
    less; ``nb < 0``: everything), else from scratch."""
    stride = pos.stride
    rows = pos.land_flat.shape[0] // stride - 2
    if nb >= 0 and area * 4 <= rows * (stride - 2):
        if copy:  # plain loops: numba's slice assignment copies element by element
            for i in range(owner.shape[0]):
                owner[i] = owner_old[i]
            for i in range(key.shape[0]):
                key[i] = key_old[i]
        if nb > 0:
            ownership_update(
                pos.land_flat, stride, pos.r, cells, emps, boxes[:nb], owner, key, counts
            )
    else:
        own(pos, cells, emps, owner, key, counts)


@numba.njit(cache=True, inline="always")
def _box(stride, rows, cols, r, a, b, boxes, nb):  # type: ignore[no-untyped-def]
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


@numba.njit(cache=True, inline="always")
def _recount(pos, o, cells, emps):  # type: ignore[no-untyped-def]
    """Ownership of the outposts ``cells``/``emps`` into ``o.owner``, ``o.key`` and
    ``o.counts``, from the ownership ``o.owner_old``/``o.key_old`` of the outposts
    ``o.src`` (see :func:`_settle`): only the boxes around the outposts that moved are
    recomputed when the two lists are the same outposts, else everything."""
    stride, r, src = pos.stride, pos.r, o.src
    n = cells.shape[0]
    rows = pos.land_flat.shape[0] // stride - 2
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
    _own(
        pos,
        cells,
        emps,
        o.owner_old,
        o.key_old,
        True,
        o.owner,
        o.key,
        o.counts,
        boxes,
        nb,
        area,
    )


@numba.njit(cache=True, inline="always")
def _settle(pos, o, cells, emps, starts):  # type: ignore[no-untyped-def]
    """Ownership, supply lines, removal of the cut-off outposts, ownership again, into
    ``o.owner``, ``o.key`` and ``o.counts`` (an :class:`Ownership`).

    When ``cells``/``emps`` are the outposts ``o.src`` with a few moved, only the boxes
    around the moves are recomputed, and after removals only the boxes around the
    removed outposts.  ``pos.bufs[3]`` must be all 0 and ``pos.bufs[6]`` all -1 on
    entry (the engine's private buffers are made so once; :func:`supplied` leaves
    them so).

    ``cells``, ``emps`` and ``starts`` are compacted in place; returns the outposts left.
    """
    stride, r = pos.stride, pos.r
    n_emp = pos.homes.shape[0]
    n = cells.shape[0]
    rows = pos.land_flat.shape[0] // stride - 2
    cols = stride - 2
    owner, key, counts = o.owner, o.key, o.counts
    _recount(pos, o, cells, emps)
    boxes = np.empty((n, 4), np.int64)
    alive = np.empty(n, np.uint8)
    left = 0
    for e in range(n_emp):
        left += supplied(pos, owner, e, cells, starts, alive)
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
    _own(pos, cells[:w], emps[:w], owner, key, False, owner, key, counts, boxes, nb, area)
    return w


@numba.njit(cache=True)
def _turn_kernel(board, ownership, official, rc, starts, steps, ends):  # type: ignore[no-untyped-def]
    """Moves, then :func:`_settle` from ``o.owner_old``/``o.key_old`` into
    ``o.owner``/``o.key`` and ``o.counts``; or, for an official turn cut short at seat
    p, the ownership the simulator leaves (its ``updatemap`` recomputes it after each
    seat's list): that of the outposts with seats ``0..p-1`` moved and seat p and later
    ones where they were, no supply check (p = 0: nothing recomputed).

    ``board`` and ``ownership`` are the fields of a :class:`Position` and an
    :class:`Ownership` as plain tuples: numba's dispatcher types a plain tuple faster
    than a named one, and a turn of a few outposts is short enough for that to count
    (``docs/outpost.md`` gives the measured figures).

    Returns ``(code, entry, seat, fresh, rc, starts, src)``: the move kernel's code
    and entry, the seat of that entry (-1 when none), whether ``owner``/``key``/
    ``counts`` were computed (else they are left untouched), the new outposts, and
    ``src``, the outposts (flat cells and empires) the ownership was computed for.
    """
    pos = Position(*board)
    o = Ownership(*ownership)
    stride = pos.stride
    n = rc.shape[0]
    cells = np.empty(n, np.int64)
    emps = np.empty(n, np.int64)
    for j in range(n):
        cells[j] = (rc[j, 0] + 1) * stride + rc[j, 1] + 1
    for e in range(starts.shape[0] - 1):
        for j in range(starts[e], starts[e + 1]):
            emps[j] = e
    new_starts = starts.copy()
    code, k = _move_steps(pos.land_flat, stride, official, cells, new_starts, steps, ends)
    seat = -1
    if k >= 0:
        seat = 0
        while k >= ends[seat]:
            seat += 1
    left = n
    fresh = False
    owned = cells
    if code == 0:
        left = _settle(pos, o, cells, emps, new_starts)
        fresh = True
    elif code == -1 and seat > 0:
        owned = cells.copy()
        for j in range(starts[seat], starts[seat + 1]):
            owned[j] = (rc[j, 0] + 1) * stride + rc[j, 1] + 1
        _recount(pos, o, owned, emps)
        fresh = True
    out = np.empty((left, 2), np.int32)
    new_src = np.empty((2, left), np.int64)
    for j in range(left):
        out[j, 0] = cells[j] // stride - 1
        out[j, 1] = cells[j] % stride - 1
        new_src[0, j] = owned[j]
        new_src[1, j] = emps[j]
    return code, k, seat, fresh, out, new_starts, new_src
