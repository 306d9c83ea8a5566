"""numba's cache folder (atlas.jit.cache): keyed by atlas's sources, so it never goes stale.

numba stamps a cached kernel with its own file only: a kernel that calls a kernel of
another module keeps its old copy of the callee when that module changes.  These tests
show the trap with numba's own cache, and that atlas's keyed folder avoids it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from atlas import jit
from atlas.jit import cache as jit_cache

ROOT = Path(__file__).resolve().parents[1]
ATLAS = ROOT / "atlas"

CALLEE = """\
from atlas.jit import numba

STEP = {step}


@numba.njit(cache=True)
def bump(x):
    return x + STEP
"""

CALLER = """\
from atlas.jit import numba

from .callee import bump


@numba.njit(cache=True)
def total(n):
    s = 0
    for i in range(n):
        s += bump(i)
    return s
"""

# Runs in a fresh process: the keyed cache of the package (or numba's own with "plain"),
# then one call, and what numba's cache did for the caller.
RUNNER = """\
import json, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
if sys.argv[2] == "keyed":
    from atlas import jit
    jit.use_numba_cache(Path(sys.argv[1]) / "kpair", "1.0", Path(sys.argv[3]))
import numba
from kpair.caller import total
value = int(total(4))
stats = total.dispatcher.stats
print(json.dumps({"value": value, "hits": sum(stats.cache_hits.values()),
                  "misses": sum(stats.cache_misses.values()),
                  "cache": str(stats.cache_path), "dir": numba.config.CACHE_DIR}))
"""


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["PYTHONPATH"] = str(ROOT)
    return env


def _write_pair(where: Path, step: int) -> None:
    pkg = where / "kpair"
    pkg.mkdir(parents=True, exist_ok=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "callee.py").write_text(CALLEE.format(step=step))
    (pkg / "caller.py").write_text(CALLER)


def _run(tmp_path: Path, how: str) -> dict[str, object]:
    script = tmp_path / "runner.py"
    script.write_text(RUNNER)
    out = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "src"), how, str(tmp_path / "cache")],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


@pytest.mark.slow
def test_an_edited_callee_reaches_the_cached_caller_through_the_keyed_folder(tmp_path):
    _write_pair(tmp_path / "src", step=1)
    first = _run(tmp_path, "keyed")
    assert first["value"] == 0 + 1 + 2 + 3 + 4 * 1 and first["misses"] == 1
    again = _run(tmp_path, "keyed")  # the same sources: the caller comes from the cache
    assert again["value"] == 10 and again["hits"] == 1 and again["misses"] == 0
    assert again["cache"] == first["cache"]
    assert str(first["cache"]).startswith(str(tmp_path / "cache" / "1.0-"))

    time.sleep(0.01)
    _write_pair(tmp_path / "src", step=10)  # only the callee's module changes
    edited = _run(tmp_path, "keyed")
    assert edited["value"] == 0 + 1 + 2 + 3 + 4 * 10  # the new callee, compiled anew
    assert edited["misses"] == 1 and edited["hits"] == 0
    assert Path(str(edited["dir"])).parent == Path(str(first["dir"])).parent
    assert edited["dir"] != first["dir"]  # a fresh folder for the new sources
    assert Path(str(first["dir"])).is_dir()  # the old one is kept (pruning keeps a few)


@pytest.mark.slow
def test_numbas_own_cache_keeps_the_old_callee_which_is_why_the_folder_is_keyed(tmp_path):
    # The trap itself, with numba's default cache (__pycache__ beside the modules): the
    # caller's file did not change, so numba loads its cached code, old callee inlined.
    _write_pair(tmp_path / "src", step=1)
    assert _run(tmp_path, "plain")["value"] == 10
    time.sleep(0.01)
    _write_pair(tmp_path / "src", step=10)
    stale = _run(tmp_path, "plain")
    assert stale["hits"] == 1 and stale["value"] == 10  # not 46: stale compiled code


def _copy_atlas(tmp_path: Path) -> Path:
    copy = tmp_path / "atlas"
    shutil.copytree(ATLAS, copy, ignore=shutil.ignore_patterns("__pycache__", "*.nb?"))
    return copy


def test_the_key_covers_every_python_file_of_the_package(tmp_path):
    copy = _copy_atlas(tmp_path)
    (copy / "analysis" / "notes.txt").write_text("not code")
    (copy / "analysis" / "__pycache__").mkdir()
    (copy / "analysis" / "__pycache__" / "grid.nbi").write_bytes(b"numba's index")
    sources = jit.source_files(copy)
    assert sources == sorted(copy.rglob("*.py"))
    names = {p.relative_to(copy).as_posix() for p in sources}
    # kernels, what they read, and the layers above them alike: no imports are read
    assert {
        "analysis/distances.py",
        "games/tron/bots/common.py",
        "games/connect5/bots/bitboard.py",
        "jit/lazy.py",
        "sources.py",
        "render/site/cache.py",
        "cli/play.py",
        "__init__.py",
    } <= names
    base = jit.source_key(copy, version="9.9")
    assert base.startswith("9.9-") and len(base) == len("9.9-") + 16
    assert jit.source_key(copy, version="9.9") == base  # stable
    assert jit.source_key(copy, version="9.10") != base  # an upgrade starts afresh
    keys = {base}
    for path in sources:
        text = path.read_bytes()
        path.write_bytes(text + b"\n# edited\n")
        keys.add(jit.source_key(copy, version="9.9"))
        path.write_bytes(text)
    assert len(keys) == len(sources) + 1  # each edit gave a key of its own
    assert jit.source_key(copy, version="9.9") == base
    # what is not a module leaves it alone
    (copy / "analysis" / "notes.txt").write_text("edited")
    (copy / "analysis" / "__pycache__" / "grid.nbi").write_bytes(b"another index")
    assert jit.source_key(copy, version="9.9") == base


def test_a_new_or_renamed_module_changes_the_key(tmp_path):
    copy = _copy_atlas(tmp_path)
    base = jit.source_key(copy, version="9.9")
    (copy / "render" / "newkernel.py").write_text("X = 1\n")
    added = jit.source_key(copy, version="9.9")
    (copy / "render" / "newkernel.py").rename(copy / "render" / "newkernel2.py")
    renamed = jit.source_key(copy, version="9.9")
    assert len({base, added, renamed}) == 3


def test_the_package_s_own_key_is_computed_once_a_process(monkeypatch):
    from atlas import sources
    from atlas._version import __version__

    key = jit.source_key()
    assert key == jit.source_key(sources.PACKAGE_DIR, version=__version__)
    calls = []
    monkeypatch.setattr(jit_cache, "digest", lambda *a, **k: calls.append(a) or "0" * 64)
    assert jit.source_key() == key and calls == []  # remembered
    assert jit.source_key(version="0.0.0") == "0.0.0-" + "0" * 16 and len(calls) == 1


def test_every_cached_kernel_of_atlas_uses_the_keyed_folder(tmp_path):
    # A fresh process with its own XDG_CACHE_HOME: every cache=True kernel of every
    # module that compiles (imported the usual way, `import numba` or atlas.jit) has its
    # cache in <XDG_CACHE_HOME>/atlas/numba/<key>.
    code = textwrap.dedent("""
        import importlib, json, pkgutil
        import atlas
        from atlas import jit
        paths, names = set(), []
        for info in pkgutil.walk_packages(atlas.__path__, "atlas."):
            if info.name.endswith("__main__"):
                continue
            module = importlib.import_module(info.name)
            for name, obj in vars(module).items():
                disp = obj.dispatcher if isinstance(obj, jit.LazyKernel) else obj
                cache = getattr(disp, "_cache", None)
                if getattr(obj, "__module__", None) != info.name or cache is None:
                    continue
                if type(cache).__name__ == "NullCache":
                    continue
                paths.add(str(cache.cache_path))
                names.append(info.name + "." + name)
        print(json.dumps({"paths": sorted(paths), "count": len(names),
                          "folder": str(jit.numba_cache_folder())}))
    """)
    env = _env()
    env["XDG_CACHE_HOME"] = str(tmp_path / "xdg")
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout.strip().splitlines()[-1])
    folder = tmp_path / "xdg" / "atlas" / "numba" / jit.source_key()
    assert got["folder"] == str(folder)
    assert got["count"] > 100  # the kernels of analyze, sim and every bot
    assert got["paths"] and all(p.startswith(str(folder) + os.sep) for p in got["paths"])


@pytest.fixture
def own_folder(monkeypatch):
    """This process's choice of folder undone after the test (numba's too)."""
    monkeypatch.setattr(jit_cache, "_FOLDER", None)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    if "numba" in sys.modules:
        config = sys.modules["numba"].config
        monkeypatch.setattr(config, "CACHE_DIR", config.CACHE_DIR)


def test_a_process_inherits_the_folder_of_the_same_sources_only(
    tmp_path, monkeypatch, own_folder
):
    folder = tmp_path / "elsewhere" / jit.source_key()
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(folder))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert jit.use_numba_cache() == folder and folder.is_dir()  # a parent's: kept
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "elsewhere" / ("0.0.1-" + "0" * 16)))
    mine = tmp_path / "xdg" / "atlas" / "numba" / jit.source_key()
    assert jit.use_numba_cache() == mine  # other sources': not
    assert os.environ["NUMBA_CACHE_DIR"] == str(mine)


def test_old_cache_folders_are_pruned_and_recent_ones_kept(tmp_path):
    now = 1_000_000_000.0
    made = {}
    for age_days, name in [
        (0, "0.1.0-" + "a" * 16),
        (1.5, "0.1.0-" + "b" * 16),
        (3, "0.1.0-" + "c" * 16),
        (9, "0.1.0-" + "d" * 16),
        (20, "0.0.9-" + "e" * 16),
        (0.01, "0.1.0-" + "f" * 16),
    ]:
        folder = tmp_path / name
        (folder / "distances_123").mkdir(parents=True)
        t = now - age_days * 86400
        os.utime(folder / "distances_123", (t, t))
        os.utime(folder, (t, t))
        made[name] = folder
    (tmp_path / "notes").mkdir()  # not a cache folder: never touched
    removed = jit.prune_caches(
        tmp_path, keep=2, older_than=86400, now=now, spare="0.0.9-" + "e" * 16
    )
    # the two newest (a, f) stay whatever their age; b is 1.5 days old; e is spared
    assert sorted(p.name for p in removed) == [
        "0.1.0-" + "b" * 16,
        "0.1.0-" + "c" * 16,
        "0.1.0-" + "d" * 16,
    ]
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == ["0.0.9-" + "e" * 16, "0.1.0-" + "a" * 16, "0.1.0-" + "f" * 16, "notes"]


def test_a_new_folder_prunes_its_old_siblings(tmp_path, monkeypatch, own_folder):
    base = tmp_path / "atlas" / "numba"
    old = [base / f"0.0.{i}-{i:016x}" for i in range(5)]
    for i, folder in enumerate(old):
        folder.mkdir(parents=True)
        t = time.time() - (10 + i) * 86400
        os.utime(folder, (t, t))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    folder = jit.use_numba_cache()
    assert folder.parent == base and folder.is_dir()
    assert sorted(p.name for p in base.iterdir()) == sorted(
        [folder.name] + [p.name for p in old[: jit.KEEP_CACHES - 1]]
    )


SAVER = r"""
import sys
from atlas.jit.load import load_numba, locked_cache_file_class
folder, who, n, locked = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
cls = locked_cache_file_class() if locked else load_numba().core.caching.IndexDataCacheFile
f = cls(cache_path=folder, filename_base="kernel", source_stamp=("stamp", 1))
for i in range(n):
    f.save(f"{who}-{i}", f"code of {who}-{i}")
"""


def _save_at_once(folder, locked: bool, n: int = 60) -> dict[str, object]:
    """Two processes saving ``n`` versions each of one kernel into ``folder`` at once;
    what a third then loads for every version."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", SAVER, str(folder), who, str(n), "1" if locked else "0"],
            env=env,
        )
        for who in ("a", "b")
    ]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    from atlas.jit.load import locked_cache_file_class

    f = locked_cache_file_class()(
        cache_path=str(folder), filename_base="kernel", source_stamp=("stamp", 1)
    )
    return {f"{w}-{i}": f.load(f"{w}-{i}") for w in ("a", "b") for i in range(n)}


def test_two_processes_saving_one_kernel_never_swap_their_code(tmp_path):
    """Each version of a kernel saved while another process saves others loads as its
    own code (numba's unlocked save numbers two versions alike: one is lost, and its
    number's file may hold the other's code)."""
    found = _save_at_once(tmp_path, locked=True)
    assert found == {key: f"code of {key}" for key in found}
