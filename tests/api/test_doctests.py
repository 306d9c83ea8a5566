"""The examples in the API's docstrings run, and say what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

#: Every module whose docstrings hold the API's examples.
MODULES = [
    "atlas.api.maps",
    "atlas.api.analysis",
    "atlas.api.validation",
    "atlas.api.games",
    "atlas.sim.records.model",
    "atlas.api.tournaments",
    "atlas.api.site",
    "atlas.api.fairness",
    "atlas.deprecation",
]


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0


def test_set_cache_dir_example_runs(monkeypatch):
    """Its example moves numba's cache folder and back; the test undoes it anyway."""
    import os
    import sys

    from atlas.jit import cache

    monkeypatch.setattr(cache, "_FOLDER", cache._FOLDER)
    for var in ("ATLAS_CACHE_DIR", "NUMBA_CACHE_DIR"):
        old = os.environ.get(var)
        monkeypatch.setenv(var, old or "-")  # recorded, so the test restores it
        if old is None:
            monkeypatch.delenv(var)
    if "numba" in sys.modules:
        config = sys.modules["numba"].config
        monkeypatch.setattr(config, "CACHE_DIR", config.CACHE_DIR)
    tests = [t for t in doctest.DocTestFinder().find(cache) if t.name.endswith("set_cache_dir")]
    assert tests and len(tests[0].examples) >= 5
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for t in tests:
        runner.run(t)
    assert runner.failures == 0
