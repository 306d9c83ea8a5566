"""Tests of atlas.jit: kernels that load numba on first compiled use, or run as Python."""

from __future__ import annotations

import ast
import json
import os
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


def _numba_imports(path: Path) -> list[int]:
    """The lines of ``path`` that import numba (at any depth of the file)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        else:
            continue
        if any(name.split(".")[0] == "numba" for name in names):
            lines.append(node.lineno)
    return lines


def test_numba_is_imported_in_one_place():
    found = {
        path.relative_to(ROOT).as_posix(): lines
        for path in sorted((ROOT / "atlas").rglob("*.py"))
        if (lines := _numba_imports(path))
    }
    assert list(found) == ["atlas/jit/load.py"], found
    source = (ROOT / "atlas" / "jit" / "load.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    (loader,) = [n for n in tree.body if getattr(n, "name", "") == "load_numba"]
    assert all(
        loader.lineno <= line <= loader.end_lineno for line in found["atlas/jit/load.py"]
    )


def test_kernel_modules_use_atlas_s_numba():
    # every module that decorates kernels takes its numba from atlas.jit
    for path in sorted((ROOT / "atlas").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "@numba." not in text or "jit" in path.relative_to(ROOT).parts:
            continue
        tree = ast.parse(text)
        assert any(
            isinstance(node, ast.ImportFrom)
            and node.level
            and node.module == "jit"
            and "numba" in [a.name for a in node.names]
            for node in tree.body
        ), path


PROBE = """
import json, os, sys
import atlas
from atlas import jit
before = {"loaded": "numba" in sys.modules, "variable": os.environ.get("NUMBA_CACHE_DIR"),
          "dunder": hasattr(jit.numba, "__wrapped__")}
before["still"] = "numba" in sys.modules
from atlas.analysis.components import label_components  # modules with kernels
from atlas.games.connect5.bots.bitboard import _popcount
before["kernels"] = "numba" in sys.modules
try:
    _popcount(3)
    python = "ran"
except NotImplementedError:
    python = "refused"
count = jit.njit(cache=False)(lambda x: _popcount(x))
import numba
print(json.dumps({**before, "python": python, "popcount": count(255),
                  "numba": numba.config.CACHE_DIR, "env": os.environ["NUMBA_CACHE_DIR"],
                  "folder": str(jit.numba_cache_folder()),
                  "finders": [type(f).__module__ for f in sys.meta_path]}))
"""


def test_numba_is_loaded_by_the_first_compile_which_chooses_its_folder_first(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["ATLAS_CACHE_DIR"] = str(tmp_path / "cache")
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    folder = str(tmp_path / "cache" / "numba" / jit.source_key())
    # importing atlas, its kernel modules, or asking the proxy for a dunder loads nothing
    assert not got["loaded"] and got["variable"] is None
    assert not got["dunder"] and not got["still"] and not got["kernels"]
    assert got["python"] == "refused" and got["popcount"] == 8
    assert got["numba"] == got["env"] == got["folder"] == folder
    assert not any(m.startswith("atlas") for m in got["finders"])  # no import hooks
