"""The parts of numba below its public API that atlas.jit relies on, each doing what
atlas uses it for, with the numba that pyproject.toml allows.

A numba release that moves one of them fails here, by name, before any kernel does.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import numba
import numba.core.event
import numba.core.registry
import numba.core.types
import numba.extending
import pytest
from packaging.requirements import Requirement
from packaging.version import Version

from atlas import jit
from atlas.jit import load

ROOT = Path(__file__).resolve().parents[1]


def _numba_requirement() -> Requirement:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    found = [Requirement(r) for r in project["project"]["dependencies"]]
    return next(r for r in found if r.name == "numba")


def test_the_installed_numba_is_one_pyproject_allows():
    requirement = _numba_requirement()
    assert str(requirement.specifier) == ">=0.59"  # no upper bound: this file is the check
    assert requirement.specifier.contains(Version(numba.__version__), prereleases=True)


def test_load_numba_returns_the_module_with_the_submodules_atlas_reads():
    loaded = jit.load_numba()
    assert loaded is numba and jit.load_numba() is loaded
    assert loaded.core.event is numba.core.event
    assert loaded.core.registry is numba.core.registry
    assert loaded.core.types is numba.core.types
    assert loaded.extending is numba.extending


def test_the_cpu_dispatcher_takes_the_arguments_atlas_makes_it_with():
    # atlas.jit.load.make_dispatcher: CPUDispatcher(py_func=, locals=, targetoptions=),
    # enable_caching(), and get_call_template(args, kws) overridden to unliteral them
    cls = numba.core.registry.CPUDispatcher
    assert callable(cls.enable_caching) and callable(cls.get_call_template)

    def double(x):
        return 2 * x

    disp = cls(py_func=double, locals={}, targetoptions={"nopython": True})
    assert disp(21) == 42 and disp.py_func is double
    assert disp.targetoptions["nopython"] is True
    assert issubclass(load.dispatcher_class(), cls)


def test_unliteral_strips_a_literal_type():
    literal = numba.typeof(3)
    lit = numba.core.types.literal(3)
    assert isinstance(lit, numba.core.types.Literal)
    assert numba.core.types.unliteral(lit) == literal
    assert numba.core.types.unliteral(literal) == literal


def test_numba_types_a_global_by_its_numba_type_attribute():
    # LazyKernel, LazyIntrinsic and atlas.jit.numba tell numba their type this way
    @jit.njit(cache=False)
    def one():
        return 1

    assert isinstance(numba.typeof(one), numba.core.types.Dispatcher)
    assert numba.typeof(one).dispatcher is one.dispatcher
    assert numba.typeof(jit.numba) == numba.core.types.Module(numba)


def test_an_intrinsic_is_typed_through_the_refreshed_typing_context():
    def _twice(typingctx, x):
        sig = numba.types.int64(numba.types.int64)

        def codegen(context, builder, signature, args):
            return builder.add(args[0], args[0])

        return sig, codegen

    made = numba.extending.intrinsic(_twice)
    context = numba.core.registry.cpu_target.typing_context
    context.refresh()
    fnty = context.resolve_value_type(made)
    assert isinstance(fnty, numba.core.types.Function)


def test_compile_events_reach_a_registered_listener():
    seen = []

    class Listener(numba.core.event.Listener):
        def on_start(self, ev):
            seen.append(("start", ev.kind))

        def on_end(self, ev):
            seen.append(("end", ev.kind))

    listener = Listener()
    numba.core.event.register("numba:compile", listener)
    try:

        @numba.njit(cache=False)
        def triple(x):
            return 3 * x

        assert triple(2) == 6
    finally:
        numba.core.event.unregister("numba:compile", listener)
    assert ("start", "numba:compile") in seen and ("end", "numba:compile") in seen
    assert triple(2.5) == 7.5
    assert seen.count(("start", "numba:compile")) == 1  # unregistered: no more events


def test_numba_reads_its_cache_folder_from_the_environment_and_its_config(tmp_path):
    # load_numba sets NUMBA_CACHE_DIR before numba's import; use_numba_cache sets
    # numba.config.CACHE_DIR once numba is loaded, for dispatchers made after it
    code = textwrap.dedent("""
        import os, sys
        import numba
        assert numba.config.CACHE_DIR == os.environ["NUMBA_CACHE_DIR"]
        numba.config.CACHE_DIR = sys.argv[1]

        @numba.njit(cache=True)
        def double(x):
            return 2 * x

        double(1)
        print(double._cache.cache_path)
    """)
    script = tmp_path / "probe.py"
    script.write_text(code)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "from-env")}
    done = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "from-config")],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().startswith(str(tmp_path / "from-config") + os.sep)


@pytest.mark.parametrize("name", ["objmode", "prange", "literal_unroll", "types", "typeof"])
def test_atlas_s_numba_forwards_numba_s_own_names(name):
    assert getattr(jit.numba, name) is getattr(numba, name)
