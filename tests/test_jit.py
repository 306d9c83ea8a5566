"""Tests of atlas.jit: kernels that load numba on first compiled use, or run as Python."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pytest

from atlas import jit
from atlas.games.outpost.validation import validate_map_file
from atlas.maps import read_map
from atlas.sim.registry import summarize_map

ROOT = Path(__file__).resolve().parents[1]


@jit.njit(cache=False)
def _twice(x):
    return 2 * x


@jit.njit(cache=False, inline="always")
def _plus_one(x):
    return x + 1


@numba.njit(cache=False)
def _caller(x):
    # a compiled function of numba's own calling lazy kernels, one of them inlined
    return _twice(x) + _plus_one(x)


def test_lazy_kernels_are_plain_functions_until_compiled_and_numba_inside_numba():
    assert _twice.py_func(3) == 6 and _twice.__name__ == "_twice"
    with jit.interpreted():
        assert jit.is_interpreted()
        assert _twice(np.int64(4)) == 8
    assert not jit.is_interpreted()
    assert _caller(5) == 16  # typed through _numba_type_, inlined through targetoptions
    assert _twice.compiled and _plus_one.compiled
    assert _twice(21) == 42 and _twice.signatures  # numba's dispatcher answers the rest
    with jit.interpreted(False):
        assert not jit.is_interpreted()


def test_njit_refuses_eager_signatures():
    with pytest.raises(TypeError, match="keywords"):
        jit.njit("int64(int64)")


def test_interpreted_analysis_is_the_compiled_one(any_map_file):
    game_map = read_map(any_map_file)
    with jit.interpreted():
        plain = summarize_map(game_map)
    assert json.dumps(plain, sort_keys=True) == json.dumps(
        summarize_map(game_map), sort_keys=True
    )


@pytest.mark.parametrize("name", ["delta", "fjords"])
def test_interpreted_validation_is_the_compiled_one(name):
    path = ROOT / "maps" / "outpost" / f"{name}.txt"
    with jit.interpreted():
        plain = validate_map_file(path).to_json()
    assert plain == validate_map_file(path).to_json()


@pytest.mark.parametrize(
    "argv",
    [
        ["validate", "maps/outpost/delta.txt"],
        ["analyze", "maps/outpost/delta.txt", "--json"],
        ["analyze", "maps/tron/labyrinth.txt", "--json"],
        ["--version"],
    ],
)
def test_one_shot_commands_on_small_maps_never_import_numba(argv):
    code = (
        "import sys\nfrom atlas.cli import main\ntry:\n    main(%r)\nexcept SystemExit:\n"
        "    pass\nprint('numba' in sys.modules, file=sys.stderr)\n" % (argv,)
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert done.stderr.strip().splitlines()[-1] == "False", done.stderr[-500:]
