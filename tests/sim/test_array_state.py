"""``ArrayState.copy``: the named arrays copied, the rest shared, through the class's own
constructor (keyword-only fields, subclasses, and states it cannot copy)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np
import pytest

from atlas.sim.base import ArrayState


@dataclass(eq=False)
class Board(ArrayState):
    COPIED: ClassVar[tuple[str, ...]] = ("cells",)

    cells: np.ndarray
    walls: np.ndarray
    turn: int = 0
    note: str = field(default="", kw_only=True)


@dataclass(eq=False)
class Marked(Board):
    marks: tuple[int, ...] = ()


def test_the_named_arrays_are_copied_and_the_rest_shared() -> None:
    walls = np.zeros(3, bool)
    walls.flags.writeable = False
    a = Board(np.arange(3), walls, 4, note="x")
    b = a.copy()
    assert type(b) is Board and (b.turn, b.note) == (4, "x")
    assert b.walls is a.walls and b.cells is not a.cells
    b.cells[0] = 9
    assert a.cells.tolist() == [0, 1, 2]
    c = b.copy()  # the second copy runs the written method
    assert c.cells.tolist() == [9, 1, 2] and "copy" in Board.__dict__  # written once


def test_a_subclass_copies_to_its_own_class_with_its_own_fields() -> None:
    Board(np.arange(2), np.zeros(2, bool)).copy()  # the parent's copy written first
    m = Marked(np.arange(2), np.zeros(2, bool), 1, (5,), note="m")
    twin = m.copy()
    assert type(twin) is Marked and twin.marks == (5,) and twin.note == "m"
    assert twin.cells is not m.cells
    assert type(Marked(np.arange(1), np.zeros(1, bool)).copy()) is Marked


def test_a_state_it_cannot_copy_says_why() -> None:
    @dataclass
    class Wrong(ArrayState):
        COPIED: ClassVar[tuple[str, ...]] = ("missing",)
        cells: np.ndarray

    with pytest.raises(TypeError, match=r"Wrong.COPIED names no field: \['missing'\]"):
        Wrong(np.arange(2)).copy()

    @dataclass
    class Hidden(ArrayState):
        cells: np.ndarray
        cache: int = field(default=0, init=False)

    with pytest.raises(TypeError, match="every field in __init__"):
        Hidden(np.arange(2)).copy()
