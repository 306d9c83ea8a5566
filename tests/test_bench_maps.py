"""The tron benchmark maps (benchmarks/data/tron-maps/): the tool writes them again, byte
for byte; each loads, has two distinct starts that reach each other, and the set is not
the contest's (more kinds, larger, mostly not mirror images)."""

from __future__ import annotations

import importlib.util
import sys
from collections import deque
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from atlas.maps import find_maps, read_map

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "benchmarks" / "data" / "tron-maps"
CONTEST = ROOT / "tests" / "data" / "tron-maps"


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "make_tron_bench_maps", ROOT / "tools" / "make_tron_bench_maps.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_tron_bench_maps"] = module
    spec.loader.exec_module(module)
    return module


def _reach(blocked: np.ndarray, start: tuple[int, int]) -> set[tuple[int, int]]:
    """Free cells reachable from ``start`` (start squares count as free)."""
    h, w = blocked.shape
    seen = {start}
    queue = deque([start])
    while queue:
        r, c = queue.popleft()
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= rr < h and 0 <= cc < w and not blocked[rr, cc] and (rr, cc) not in seen:
                seen.add((rr, cc))
                queue.append((rr, cc))
    return seen


def test_the_tool_writes_the_committed_set(tool: ModuleType, tmp_path: Path) -> None:
    assert tool.main(["--out", str(tmp_path)]) == 0
    written = sorted(p.name for p in tmp_path.glob("*.txt"))
    committed = sorted(p.name for p in BENCH.glob("*.txt"))
    assert written == committed
    assert len(committed) >= 10
    for name in committed:
        assert (tmp_path / name).read_bytes() == (BENCH / name).read_bytes(), name


def test_another_seed_draws_other_maps_of_the_same_kinds(
    tool: ModuleType, tmp_path: Path
) -> None:
    tool.main(["--seed", "1", "--out", str(tmp_path / "a")])
    tool.main(["--seed", "1", "--out", str(tmp_path / "b")])
    names = sorted(p.name for p in BENCH.glob("*.txt"))
    differ = 0
    for name in names:
        a = (tmp_path / "a" / name).read_bytes()
        assert a == (tmp_path / "b" / name).read_bytes(), name  # seeded
        differ += a != (BENCH / name).read_bytes()
    # Every kind with a random feature draws another map (the two rooms' corridor and
    # starts have few choices, so a kind may repeat now and then).
    assert differ >= len(names) - 2


@pytest.mark.parametrize("path", find_maps(BENCH), ids=lambda p: p.stem)
def test_each_map_loads_with_two_starts_that_reach_each_other(path: Path) -> None:
    m = read_map(path, game="tron")
    blocked = np.asarray(m.blocked, dtype=bool)
    assert len(m.starts) == 2
    a, b = (tuple(int(v) for v in s) for s in m.starts)
    assert a != b
    assert not blocked[a] and not blocked[b]
    room = _reach(blocked, a)
    assert b in room
    for start in (a, b):  # each start can move at all
        r, c = start
        assert any((r + dr, c + dc) in room for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)))
    assert 200 <= int((~blocked).sum()) <= 700


def test_the_set_is_not_the_contests() -> None:
    ours = [read_map(p, game="tron") for p in find_maps(BENCH)]
    theirs = [read_map(p, game="tron") for p in find_maps(CONTEST)]
    assert len(theirs) >= 16
    contest_grids = {np.asarray(t.blocked).tobytes() for t in theirs}
    assert not any(np.asarray(m.blocked).tobytes() in contest_grids for m in ours)
    # Larger boards than most of the contest's.
    assert np.median([np.asarray(m.blocked).size for m in ours]) > np.median(
        [np.asarray(t.blocked).size for t in theirs]
    )
    # Mostly not mirror images: neither the board nor the starts map onto themselves
    # under a half turn.
    asymmetric = 0
    for m in ours:
        g = np.asarray(m.blocked, dtype=bool)
        h, w = g.shape
        a, b = (tuple(int(v) for v in s) for s in m.starts)
        turned = (h - 1 - a[0], w - 1 - a[1])
        asymmetric += not (np.array_equal(g, g[::-1, ::-1]) and turned == b)
    assert asymmetric == len(ours)


HELD_OUT = ROOT / "benchmarks" / "data" / "tron-held-out"


def test_the_tool_writes_the_held_out_set(tool: ModuleType, tmp_path: Path) -> None:
    assert tool.main(["--symmetric", "--out", str(tmp_path)]) == 0
    committed = sorted(p.name for p in HELD_OUT.glob("*.txt"))
    assert sorted(p.name for p in tmp_path.glob("*.txt")) == committed
    assert len(committed) == 12
    for name in committed:
        assert (tmp_path / name).read_bytes() == (HELD_OUT / name).read_bytes(), name


@pytest.mark.parametrize("path", find_maps(HELD_OUT), ids=lambda p: p.stem)
def test_each_held_out_map_is_its_own_half_turn_with_the_starts_exchanged(path: Path) -> None:
    # The seats are alike on the board (atlas fairness: "1 = 2"), in one room, with
    # room to play; the official order of the turn is the only difference left.
    from atlas.analysis.symmetry import seat_classes

    m = read_map(path, game="tron")
    g = np.asarray(m.blocked, dtype=bool)
    h, w = g.shape
    a, b = (tuple(int(v) for v in s) for s in m.starts)
    assert np.array_equal(g, g[::-1, ::-1])
    assert (h - 1 - a[0], w - 1 - a[1]) == b
    assert b in _reach(g, a)
    assert abs(a[0] - b[0]) + abs(a[1] - b[1]) >= 6
    assert 200 <= int((~g).sum()) <= 700
    assert seat_classes(g, [a, b]) == [[0, 1]]
