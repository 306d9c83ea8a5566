"""First use: a kernel compiled once per type, and one line on a terminal while numba
compiles (issue 25).  The terminal is a pseudo-terminal; the cache is an empty folder of
the test's own (``ATLAS_CACHE_DIR``), so "cold" and "warm" are facts, not timings."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numba
import pytest

from atlas import jit
from atlas.bots.registry import bot_names, compile_seconds, make_bot
from atlas.cli import COMPILING, build_parser, compiling

ROOT = Path(__file__).resolve().parents[1]

pty = pytest.importorskip("pty", reason="pseudo-terminals are POSIX")


@jit.njit(cache=False)
def _scaled(x, k, flag):
    return x * k if flag else x


@numba.njit(cache=False)
def _calls_with_constants(x):
    # three call sites, three sets of constants: one compiled version of _scaled
    return _scaled(x, 2, True) + _scaled(x, 3, False) + _scaled(x, 0, True)


def test_constant_arguments_from_compiled_code_share_one_version():
    assert _calls_with_constants(5) == 10 + 5 + 0
    assert len(_scaled.signatures) == 1
    assert "Literal" not in str(_scaled.signatures[0])


def _in_pty(argv: list[str], env: dict[str, str], cwd: Path) -> str:
    """What ``python argv`` writes on a pseudo-terminal (its standard error and output)."""
    leader, follower = pty.openpty()
    try:
        proc = subprocess.Popen(
            [sys.executable, *argv],
            stdin=subprocess.DEVNULL,
            stdout=follower,
            stderr=follower,
            env=env,
            cwd=cwd,
        )
        os.close(follower)
        chunks = []
        while True:
            try:
                data = os.read(leader, 4096)
            except OSError:  # the terminal closed: every writer has ended
                break
            if not data:
                break
            chunks.append(data)
        assert proc.wait(timeout=600) == 0, b"".join(chunks)[-2000:]
    finally:
        os.close(leader)
    return b"".join(chunks).decode(errors="replace").replace("\r\n", "\n")


KERNEL = """
from atlas.jit import numba

@numba.njit(cache=True)
def triple(x):
    return 3 * x
"""

SCRIPT = """
import sys
from atlas.jit import compile_notice

with compile_notice("the test's kernels", 12):
    import kmod
    print("result", kmod.triple(4), kmod.triple(5.5), flush=True)
"""


@pytest.fixture
def kernel_env(tmp_path):
    (tmp_path / "kmod.py").write_text(textwrap.dedent(KERNEL))
    (tmp_path / "run.py").write_text(textwrap.dedent(SCRIPT))
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["ATLAS_CACHE_DIR"] = str(tmp_path / "cache")
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(ROOT)])
    return tmp_path, env


LINE = "atlas: compiling the test's kernels (first use, about 12 s) ..."


def test_one_line_on_a_terminal_while_compiling_and_none_once_cached(kernel_env):
    folder, env = kernel_env
    cold = _in_pty(["run.py"], env, folder)
    # two signatures compiled (int and float), one line, before the result
    assert cold.count("compiling") == 1
    assert cold.splitlines()[0] == LINE and "result 12 16.5" in cold
    warm = _in_pty(["run.py"], env, folder)
    assert "compiling" not in warm and "result 12 16.5" in warm


def test_nothing_said_when_standard_error_is_not_a_terminal(kernel_env):
    folder, env = kernel_env
    done = subprocess.run(
        [sys.executable, "run.py"], cwd=folder, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0 and "result 12 16.5" in done.stdout
    assert done.stderr == ""
    assert any((folder / "cache" / "numba").rglob("*.nbi"))  # it did compile


def test_the_notice_imports_numba_only_when_something_else_does(tmp_path):
    code = (
        "import sys, io\nfrom atlas.jit import compile_notice\n"
        "with compile_notice('x', 1, io.StringIO(), terminal=True) as n:\n"
        "    pass\nprint('numba' in sys.modules, n.shown)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert done.stdout.split() == ["False", "False"], done.stderr[-500:]


def test_compile_notice_writes_its_line_once():
    out = io.StringIO()
    notice = jit.CompileNotice("the tron bots' kernels", 21.4, out)
    notice.show()
    notice.show()
    assert out.getvalue() == (
        "atlas: compiling the tron bots' kernels (first use, about 21 s) ...\n"
    )
    with jit.compile_notice("x", 1, io.StringIO()) as none:
        assert none is None  # a StringIO is not a terminal


def test_atlas_play_on_a_terminal_says_what_it_compiles_once(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["ATLAS_CACHE_DIR"] = str(tmp_path / "cache")
    env["PYTHONPATH"] = str(ROOT)
    board = tmp_path / "tiny.txt"
    board.write_text("7 4\n#######\n#1    #\n#    2#\n#######\n")
    argv = ["-m", "atlas", "play", "tron", str(board), "wallhugger", "random", "--time", "1"]
    cold = _in_pty(argv, env, tmp_path)
    seconds = round(compile_seconds("tron", ["wallhugger", "random"]))
    assert cold.count("atlas: compiling") == 1, cold
    assert f"compiling the tron bots' kernels (first use, about {seconds} s) ..." in cold
    assert "tron on tiny:" in cold
    warm = _in_pty(argv, env, tmp_path)
    assert "compiling" not in warm and "tron on tiny:" in warm


def test_commands_say_what_they_compile():
    parser = build_parser()
    play = parser.parse_args(["play", "tron", "m.txt", "apex", "voronoi", "cmd:./mine"])
    what, seconds = compiling(play)
    assert what == "the tron bots' kernels"
    assert seconds == compile_seconds("tron", ["apex", "voronoi"]) > 0
    assert compiling(parser.parse_args(["validate", "m.txt"])) == COMPILING
    what, seconds = compiling(parser.parse_args(["build", "--jobs", "1"]))
    assert what == "the analyses' and the bots' kernels"
    assert seconds > compile_seconds("tron", ["apex", "voronoi"])  # every bot, one core


@pytest.mark.parametrize("game", ["tron", "isolation", "connect5", "outpost"])
def test_every_bot_with_kernels_states_their_compile_time(game):
    for name in bot_names(game):
        bot = make_bot(game, name)
        assert bot.compile_seconds >= 0
        if name != "random":
            assert bot.compile_seconds > 0, (game, name)


def test_bots_of_one_module_count_their_kernels_once():
    one = compile_seconds("outpost", ["greedy"])
    assert one > 0
    assert compile_seconds("outpost", ["greedy", "balanced", "defender"]) == one
    both = compile_seconds("outpost", ["greedy", "planner"])
    assert both == one + compile_seconds("outpost", ["planner"]) > one
