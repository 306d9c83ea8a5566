"""Shared test fixtures: where the maps are, and a networkx grid graph for references.

* ``REPO_ROOT``, ``REPO_MAPS``: this checkout and its ``maps/`` folder.
* ``OUTSIDE_DATA``: ``tests/data``, the contest maps and official traces (see its README).
* :func:`repo_map_files`, :func:`outside_map_files`, :func:`all_map_files`: map file
  lists, read when called so that maps added by others are picked up.
* A test that takes an argument named ``any_map_file`` runs once per file of
  :func:`all_map_files` (see :func:`pytest_generate_tests`).
* ``grid_graph`` (session fixture): the networkx graph of the free cells of a grid.
* hypothesis profiles: ``ci`` (the default: derandomized) and ``long``
  (``HYPOTHESIS_PROFILE=long``: 20,000 random examples per property).
* :func:`benchmark_module`: a script of ``benchmarks/`` loaded as a module.
* ``tick_clock``: an injected clock for timing tests (:class:`TickClock`);
  ``still_clock``: one that moves only when a test advances it.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from hypothesis import HealthCheck, settings

from atlas.maps import find_maps

# Property tests (hypothesis): derandomized by default, so CI runs the same examples every
# time; HYPOTHESIS_PROFILE=long runs many more, randomly, outside CI (docs/development.md).
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile(
    "long",
    max_examples=20_000,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

REPO_ROOT = Path(__file__).resolve().parents[1]
REPO_MAPS = REPO_ROOT / "maps"
OUTSIDE_DATA = REPO_ROOT / "tests" / "data"
#: The folders of ``OUTSIDE_DATA`` that hold map files.
OUTSIDE_MAP_FOLDERS = ("tron-maps", "outpost-maps")


def repo_map_files(game: str | None = None) -> list[Path]:
    """Every map file under ``maps/`` (or ``maps/GAME``), sorted."""
    folder = REPO_MAPS if game is None else REPO_MAPS / game
    return find_maps(folder) if folder.is_dir() else []


def outside_map_files(folder: str | None = None) -> list[Path]:
    """Every map file of ``tests/data/tron-maps`` and ``outpost-maps`` (or one)."""
    out: list[Path] = []
    for name in OUTSIDE_MAP_FOLDERS if folder is None else (folder,):
        out += sorted((OUTSIDE_DATA / name).glob("*.txt"))
    return out


def all_map_files() -> list[Path]:
    """The repository's maps followed by the contest and course maps of ``tests/data``."""
    return repo_map_files() + outside_map_files()


def benchmark_module(name: str) -> types.ModuleType:
    """The script ``benchmarks/NAME.py`` loaded as module ``name`` (the folder is no
    package); it stays in ``sys.modules``, where its dataclasses look their module up."""
    spec = importlib.util.spec_from_file_location(name, REPO_ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def map_id(path: Path) -> str:
    """A short test id: ``tron/ring`` or ``tron-maps/ring``."""
    return f"{path.parent.name}/{path.stem}"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "any_map_file" in metafunc.fixturenames:
        files = all_map_files()
        metafunc.parametrize("any_map_file", files, ids=[map_id(p) for p in files])


def _grid_graph(free: np.ndarray) -> nx.Graph:
    """Graph of the free cells of ``free`` (nodes ``(row, col)``, 4-neighbour edges)."""
    free = np.asarray(free, dtype=bool)
    g = nx.Graph()
    rows, cols = free.shape
    for r in range(rows):
        for c in range(cols):
            if free[r, c]:
                g.add_node((r, c))
                if r + 1 < rows and free[r + 1, c]:
                    g.add_edge((r, c), (r + 1, c))
                if c + 1 < cols and free[r, c + 1]:
                    g.add_edge((r, c), (r, c + 1))
    return g


@pytest.fixture(scope="session")
def outside_data() -> Path:
    """``tests/data``: the contest maps and the official traces."""
    assert OUTSIDE_DATA.is_dir(), f"test data missing: {OUTSIDE_DATA}"
    return OUTSIDE_DATA


@pytest.fixture(scope="session")
def grid_graph() -> Callable[[np.ndarray], nx.Graph]:
    """``grid_graph(free)``: the networkx graph of the free cells, for references."""
    return _grid_graph


class TickClock:
    """A clock that moves only when it is read: every read returns the time and then
    advances it by ``tick`` seconds.

    Installed as ``time.perf_counter`` (the clock every deadline in atlas is read on,
    compiled kernels included: :func:`atlas.bots.search.clock` looks it up at each
    call), it turns a deadline into a budget of clock reads: a search that checks its
    clock every N nodes gets ``budget / tick`` checks, on any machine, at any load.  So
    timing tests ask what the code does with its clock, never how fast the machine is.
    """

    def __init__(self, start: float = 1000.0, tick: float = 1e-3) -> None:
        self.now = start
        self.tick = tick
        self.reads = 0

    def __call__(self) -> float:
        t = self.now
        self.now += self.tick
        self.reads += 1
        return t

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass (a bot that is slow, a process that is late)."""
        self.now += seconds


@pytest.fixture
def tick_clock(monkeypatch: pytest.MonkeyPatch) -> TickClock:
    """A :class:`TickClock` standing in for ``time.perf_counter`` during one test."""
    clock = TickClock()
    monkeypatch.setattr(time, "perf_counter", clock)
    return clock


@pytest.fixture
def still_clock(monkeypatch: pytest.MonkeyPatch) -> TickClock:
    """``time.perf_counter`` standing still at 0 until the test advances it (a bot's
    answer takes exactly the seconds the test says)."""
    clock = TickClock(start=0.0, tick=0.0)
    monkeypatch.setattr(time, "perf_counter", clock)
    return clock
