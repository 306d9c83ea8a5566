"""Where numba's cache goes when atlas is imported, and how a caller chooses it
(docs/python.md): ATLAS_CACHE_DIR, the caller's own NUMBA_CACHE_DIR, set_cache_dir."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from atlas import jit

#: A process that imports atlas, has it load numba (as its first kernel does), and says
#: where numba's cache is.
SHOW = textwrap.dedent("""
    import json, os, sys
    import atlas
    from atlas import jit
    numba = jit.load_numba()
    print(json.dumps({"numba": numba.config.CACHE_DIR,
                      "env": os.environ.get("NUMBA_CACHE_DIR"),
                      "atlas": str(jit.numba_cache_folder())}))
""")


def _run(tmp_path: Path, code: str = SHOW, **env: str) -> dict[str, str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in ("NUMBA_CACHE_DIR", "ATLAS_CACHE_DIR", "XDG_CACHE_HOME")
    }
    clean["HOME"] = str(tmp_path / "home")
    clean.update(env)
    script = tmp_path / "probe.py"  # numba caches only kernels of a file
    script.write_text(code)
    out = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=300,
        env=clean,
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_by_default_the_cache_is_a_keyed_folder_under_the_home(tmp_path):
    got = _run(tmp_path)
    folder = tmp_path / "home" / ".cache" / "atlas" / "numba" / jit.source_key()
    assert got == {"numba": str(folder), "env": str(folder), "atlas": str(folder)}
    assert folder.is_dir()


def test_atlas_cache_dir_moves_it(tmp_path):
    got = _run(tmp_path, ATLAS_CACHE_DIR=str(tmp_path / "mine"))
    folder = tmp_path / "mine" / "numba" / jit.source_key()
    assert got["numba"] == str(folder) and got["env"] == str(folder) and folder.is_dir()
    assert not (tmp_path / "home" / ".cache").exists()


def test_a_callers_own_numba_cache_dir_is_left_alone(tmp_path):
    own = tmp_path / "my-numba-cache"
    got = _run(tmp_path, NUMBA_CACHE_DIR=str(own))
    assert got == {"numba": str(own), "env": str(own), "atlas": str(own)}
    assert not own.exists()  # atlas made nothing there; numba will when it caches
    assert not (tmp_path / "home" / ".cache").exists()


def test_set_cache_dir_moves_the_folder_of_kernels_made_after_it(tmp_path):
    code = textwrap.dedent("""
        import json, os
        import atlas
        import numba
        folder = atlas.set_cache_dir(os.path.join(os.getcwd(), "chosen"))

        @numba.njit(cache=True)
        def double(x):
            return 2 * x

        double(21)
        print(json.dumps({"folder": str(folder), "numba": numba.config.CACHE_DIR,
                          "env": os.environ["ATLAS_CACHE_DIR"],
                          "cache": str(double._cache.cache_path)}))
    """)
    got = _run(tmp_path, code, NUMBA_CACHE_DIR=str(tmp_path / "before"))
    folder = tmp_path / "chosen" / "numba" / jit.source_key()
    assert got["folder"] == got["numba"] == str(folder)
    assert got["env"] == str(tmp_path / "chosen")
    assert got["cache"].startswith(str(folder) + os.sep)
    assert any(folder.rglob("*.nbi"))  # the kernel's index was written there
