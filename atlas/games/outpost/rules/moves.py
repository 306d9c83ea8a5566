"""Outpost moves: Python steps packed for the turn kernel, JSON steps parsed.

Used by :mod:`.game`, whose docstring states what a move is.  :func:`_steps` turns a
turn's moves into two arrays, in one Python loop and one conversion:

- one flat ``int64`` array of ``index, row, col`` triples, seat by seat;
- each seat's end, counted in triples.

Moves that need checking take the slow path, :func:`_slow_steps`.  A missing target or
odd types need it.  Step arrays are always read-only, so that the kernel has one
compiled signature.

References
----------
- ``outpost-2014-spec.txt``.
- ``outpost-official.md``.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ....errors import IllegalMoveError, InvalidMoveError
from ....types import PlayerId
from .kernels import _MISSING

__all__ = [
    "NUM_EMPIRES",
    "RETURNED_NULL",
    "_NO_STEPS",
    "_NO_ENDS",
    "_steps",
    "_parse_steps",
    "_is_int",
]

#: Seats of a game.  :mod:`atlas.games.outpost.rules.game` re-exports it.
NUM_EMPIRES: Final = 4
#: The move of a player whose ``move()`` returned ``null`` instead of a list.  JSON holds
#: the same text.  In official mode, the simulator's ``updatemap`` throws on it, which
#: stops the turn at that seat.  In spec mode, it is no move, like ``None``.
RETURNED_NULL: Final = "returned-null"
#: The stop entry a :data:`RETURNED_NULL` move is played as, in official mode.
_NULL_LIST_STEP: Final = (-1, _MISSING, _MISSING)

_NO_STEPS = np.zeros(0, np.int64)
_NO_ENDS = np.zeros(NUM_EMPIRES, np.int64)
_NO_STEPS.setflags(write=False)  # read-only like every step array (one compiled signature)
_NO_ENDS.setflags(write=False)


def _steps(
    moves: Mapping[PlayerId, Any],
    skip: tuple[bool, ...],
    official: bool = False,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """All seats' moves as flat ``index, row, col`` triples, seat by seat, and each
    seat's end, counted in triples.

    It takes one Python loop over the steps and one conversion.  A :data:`RETURNED_NULL`
    move is one stop entry in official mode, and no step in spec mode.
    """
    flat: list[Any] = []
    ap = flat.append
    ends = [0] * NUM_EMPIRES
    for s in range(NUM_EMPIRES):
        move = moves.get(s)
        if move is not None and not skip[s]:
            if isinstance(move, str) and move == RETURNED_NULL:
                if official:
                    flat.extend(_NULL_LIST_STEP)
            elif isinstance(move, np.ndarray) and move.ndim == 2 and move.shape[1] == 3:
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
        raise IllegalMoveError(
            f"outpost moves are (index, (row, col)) steps of whole "
            f"numbers, got {flat[:9]!r:.80}"
        ) from None
    return packed[:k], packed[k:]  # read-only views, like _NO_STEPS and _NO_ENDS


def _slow_steps(s: int, move: Any) -> list[tuple[int, int, int]]:
    """Steps one by one, allowing a missing target, ``None``.  Bad syntax raises."""
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
        raise IllegalMoveError(
            f"seat {s}: an outpost move is a sequence of "
            f"(index, (row, col)) steps, got {move!r:.80}"
        ) from None
    return rows


def _parse_steps(data: Any) -> tuple[tuple[int, tuple[int, int] | None], ...] | str:
    if isinstance(data, str) and data == RETURNED_NULL:
        return RETURNED_NULL
    if not isinstance(data, (list, tuple)):
        raise InvalidMoveError(
            "an outpost move is a list of [index, [row, col]] steps, "
            f"{RETURNED_NULL!r} or a disband index, got {data!r:.60}"
        )
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
