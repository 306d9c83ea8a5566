"""Bots contained: folders, environment, limits, the supervisor, the sandbox, atlas's death.

Every test plays real games against ``hostile_bots/hostile.py``, a tron bot that
misbehaves on purpose, and checks that the misbehaving bot is stopped or loses, that the
other bot and atlas go on, and that no process is left (read from ``/proc``).  The
sandbox tests need Debian's ``bubblewrap`` (``.ci/run`` installs it).
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
import warnings
from pathlib import Path

import pytest

from atlas.arena import sandbox as sandbox_module
from atlas.arena.process import kill_marked, marked_processes
from atlas.arena.runner import play_game
from atlas.arena.sandbox import (
    ENV_ALLOWLIST,
    BotLimits,
    Containment,
    GiB,
    MiB,
    containments,
    parse_size,
)
from atlas.cli import main
from atlas.errors import BotError
from atlas.maps import read_map

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = Path(__file__).resolve().parent / "hostile_bots" / "hostile.py"
DUEL = read_map(ROOT / "maps" / "tron" / "duel.txt")
needs_bwrap = pytest.mark.skipif(
    shutil.which("bwrap") is None, reason="bubblewrap (bwrap) is not installed"
)


def _running(marker: str) -> list[int]:
    """Processes (not zombies) whose command line holds ``marker``."""
    out = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as fh:
                cmd = fh.read()
            with open(f"/proc/{name}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        if marker.encode() in cmd and stat[stat.rfind(b")") + 2 :][:1] not in (b"Z", b"X"):
            out.append(int(name))
    return out


def _none_left(marker: str, wait: float = 10.0) -> bool:
    """True once no process carries ``marker`` (a SIGKILL lands asynchronously: poll)."""
    end = time.monotonic() + wait
    while _running(marker):
        if time.monotonic() > end:
            return False
        time.sleep(0.02)
    return True


@pytest.fixture
def private_temp(tmp_path_factory, monkeypatch):
    """Bots' folders go to a temporary folder of this test's own, so that games played
    at the same time by other programs (another test run, a build) cannot show up in
    :func:`_bot_folders` (the tests that count bot folders use it)."""
    folder = tmp_path_factory.mktemp("tmp")
    monkeypatch.setenv("TMPDIR", str(folder))
    monkeypatch.setattr(tempfile, "tempdir", str(folder))


def _bot_folders() -> set[str]:
    return {n for n in os.listdir(tempfile.gettempdir()) if n.startswith("atlas-bot-")}


def _hostile(mode: str, marker: str) -> str:
    return f"cmd:{sys.executable} {HOSTILE} {mode} {marker}"


def _play(mode: str, *, other: str = "victim", containment=None, marker: str = "", **kwargs):
    """A tron game on duel: seat 0 plays ``other``, seat 1 plays ``mode``."""
    marker = marker or f"atlas-test-{uuid.uuid4().hex[:12]}"
    players = [_hostile(other, marker + "-v"), _hostile(mode, marker)]
    record = play_game("tron", DUEL, players, time_limit=1.0, containment=containment, **kwargs)
    return record, marker


# --------------------------------------------------------------------------- folder, env


@pytest.mark.usefixtures("private_temp")
def test_a_bot_runs_in_its_own_folder_with_a_minimal_environment_and_limits(monkeypatch):
    monkeypatch.setenv("ATLAS_TEST_SECRET", "do-not-pass")
    before = _bot_folders()
    seat1 = Containment(
        BotLimits(memory=1 * GiB, cpu=100, files=64, file_size=8 * MiB),
        env={"MYBOT_LEVEL": "3"},
    )
    record, _ = _play("report", other="report", containment=[None, seat1])
    assert [s.status for s in record.statuses] == ["ok", "ok"], record.statuses
    for seat, err in enumerate(record.stderr):
        cwd = re.search(r"^cwd (.*)$", err, re.M).group(1)
        folder = Path(cwd)
        assert folder.parent == Path(tempfile.gettempdir()).resolve()
        assert folder.name.startswith("atlas-bot-") and not folder.exists()  # removed
        env = dict(ast.literal_eval(re.search(r"^env (.*)$", err, re.M).group(1)))
        assert env["HOME"] == env["TMPDIR"] == cwd
        assert "ATLAS_TEST_SECRET" not in env and "PYTHONPATH" not in env
        extra = {"MYBOT_LEVEL"} if seat == 1 else set()
        assert set(env) <= set(ENV_ALLOWLIST) | {"HOME", "TMPDIR", "PWD", "ATLAS_BOT"} | extra
        assert env.get("MYBOT_LEVEL") == ("3" if seat == 1 else None)
        limits = {
            m.group(1): m.group(2)
            for m in re.finditer(r"^Max ([a-z ]+?)\s{2,}(\S+)", err, re.M)
        }
        want = BotLimits() if seat == 0 else seat1.limits
        assert limits["address space"] == str(want.memory)
        assert limits["cpu time"] == str(want.cpu)
        assert limits["open files"] == str(want.files)
        assert limits["file size"] == str(want.file_size)
        assert limits["core file size"] == "0"
    assert _bot_folders() <= before


def test_limit_and_environment_options_per_seat():
    runs = containments(
        2,
        limits=["memory=2G", "2:cpu=60", "2:file-size=none"],
        env=["1:A=b", "HOME_ICON"],
        source={"HOME_ICON": "x"},
    )
    assert runs[0].limits == BotLimits(memory=2 * GiB)
    assert runs[1].limits == BotLimits(memory=2 * GiB, cpu=60, file_size=None)
    assert runs[0].env == {"A": "b", "HOME_ICON": "x"} and runs[1].env == {"HOME_ICON": "x"}
    assert parse_size("64KiB") == 64 * 1024 and parse_size("lots") is None
    for bad in (["bogus=1"], ["memory=lots"], ["3:cpu=1"], ["cpu"], ["cpu=0"]):
        with pytest.raises(BotError):
            containments(2, limits=bad)
    with pytest.raises(BotError, match="has no NOPE"):
        containments(2, env=["NOPE"], source={})


# --------------------------------------------------------------------------- limits


def test_a_bot_that_allocates_10_gb_fails_at_once_and_loses():
    record, marker = _play("hog")
    assert record.statuses[0].status == "ok"
    assert record.statuses[1].status == "crashed" and record.statuses[1].turn == 0
    assert "MemoryError" in record.stderr[1] and "allocated" not in record.stderr[1]
    assert (record.result.winner, record.result.reason) == (0, "crash")
    assert _none_left(marker)


@pytest.mark.usefixtures("private_temp")
def test_a_bot_that_writes_a_1_gb_file_is_stopped_by_the_file_size_limit():
    before = _bot_folders()
    small = Containment(BotLimits(file_size=2 * MiB))  # never write a real gigabyte
    record, marker = _play("writer", containment=[None, small])
    assert record.statuses[0].status == "ok"
    assert record.statuses[1].status == "crashed"
    assert "File too large" in record.stderr[1] and "wrote 1 GB" not in record.stderr[1]
    assert record.result.winner == 0
    assert _none_left(marker) and _bot_folders() <= before  # big.bin went with the folder


def test_a_bot_that_spins_is_killed_by_its_cpu_limit():
    spin = Containment(BotLimits(cpu=1))
    record, marker = _play("spin", containment=[None, spin], first_move_time=600.0)
    assert record.statuses[1].status == "crashed", record.statuses[1]
    assert "killed by SIGXCPU" in record.statuses[1].detail
    assert record.statuses[0].status == "ok" and record.result.winner == 0
    assert _none_left(marker)


# --------------------------------------------------------------------------- processes


@pytest.mark.parametrize("sandbox", [False, pytest.param(True, marks=needs_bwrap)])
def test_a_setsid_grandchild_does_not_outlive_the_game(sandbox):
    record, marker = _play("escape", containment=Containment(sandbox=sandbox))
    assert re.search(r"grandchild \d+", record.stderr[1])  # it ran during the game
    assert [s.status for s in record.statuses] == ["ok", "ok"]  # the game went on
    assert len(record.turns) > 5
    assert _none_left(marker)


def test_a_bot_that_kills_its_parent_loses_and_leaves_nothing():
    record, marker = _play("parricide")
    assert record.statuses[0].status == "ok"
    assert record.statuses[1].status == "crashed" and record.statuses[1].turn == 0
    assert "killed by SIGKILL" in record.statuses[1].detail
    assert _none_left(marker) and _none_left(marker + "-v")


def test_the_watchdog_ends_what_a_bot_started_before_killing_its_supervisor():
    """The supervisor is gone, so nothing reaps the setsid grandchild: the watchdog
    finds it by the ATLAS_BOT mark in its environment."""
    record, marker = _play("escape-parricide")
    assert re.search(r"grandchild \d+", record.stderr[1])
    assert record.statuses[0].status == "ok"
    assert record.statuses[1].status in ("crashed", "timeout")  # the grandchild held stdout
    assert record.result.winner == 0
    assert _none_left(marker)


def test_kill_marked_finds_processes_by_their_token():
    token = uuid.uuid4().hex
    env = {**os.environ, "ATLAS_BOT": token}
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], env=env)
    try:
        # until the child has exec'd, /proc shows the parent's environment: wait for it
        # (bounded), the token is not there before
        end = time.monotonic() + 10
        while marked_processes(token) != [proc.pid] and time.monotonic() < end:
            time.sleep(0.02)
        assert marked_processes(token) == [proc.pid]
        assert kill_marked(token) == 1
        assert proc.wait(timeout=10) == -signal.SIGKILL
        assert marked_processes(token) == []
    finally:
        proc.kill()
        proc.wait()


# --------------------------------------------------------------------------- sandbox


@needs_bwrap
def test_in_the_sandbox_a_bot_cannot_read_the_other_bots_folder():
    record, marker = _play("snoop", containment=Containment(sandbox=True))
    assert [s.status for s in record.statuses] == ["ok", "ok"]
    assert "snooped" in record.stderr[1]
    assert "secret-" not in record.stderr[1]
    # it sees its own processes only: bwrap's init and itself
    assert set(re.findall(r"snooped: (\d+) processes", record.stderr[1])) == {"2"}
    assert _none_left(marker)


def test_without_the_sandbox_a_bot_can_read_the_other_bots_folder():
    """What docs/security.md says: without the sandbox a bot runs as you."""
    record, marker = _play("snoop")
    assert f"found secret-{marker}-v" in record.stderr[1]
    assert _none_left(marker)


@needs_bwrap
def test_in_the_sandbox_a_bot_cannot_kill_its_opponent_or_its_parent():
    record, marker = _play("assassin", containment=Containment(sandbox=True))
    assert [s.status for s in record.statuses] == ["ok", "ok"], record.statuses
    assert "killed" not in record.stderr[1]
    assert len(record.turns) > 5
    record, marker = _play("parricide", containment=Containment(sandbox=True))
    assert "killing my parent 1" in record.stderr[1]  # bwrap's init: the kill is ignored
    assert [s.status for s in record.statuses] == ["ok", "ok"], record.statuses
    assert _none_left(marker) and _none_left(marker + "-v")


@needs_bwrap
def test_in_the_sandbox_the_limits_hold_too():
    record, marker = _play("hog", containment=Containment(sandbox=True))
    assert record.statuses[1].status == "crashed" and "MemoryError" in record.stderr[1]
    assert record.statuses[0].status == "ok"
    assert _none_left(marker)


def test_without_bwrap_the_sandbox_says_so_and_the_limits_still_hold(monkeypatch):
    monkeypatch.setattr(sandbox_module, "bwrap_path", lambda: None)
    import atlas.arena.process as process_module

    monkeypatch.setattr(process_module, "bwrap_path", lambda: None)
    assert "bubblewrap (bwrap) is not installed" in sandbox_module.sandbox_note()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        record, marker = _play("hog", containment=Containment(sandbox=True))
    assert any("bubblewrap" in str(w.message) for w in caught)
    assert record.statuses[1].status == "crashed" and "MemoryError" in record.stderr[1]
    assert _none_left(marker)


# --------------------------------------------------------------------------- atlas dies

DRIVER = """
import sys
from atlas.arena.protocols import external_bot
from atlas.arena.runner import play_game
from atlas.maps import read_map
bot = external_bot("tron", [sys.executable, {hostile!r}, "hang", {marker!r}],
                   first_move_time=600.0)
play_game("tron", read_map({duel!r}), ["random", bot])
"""


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
@pytest.mark.usefixtures("private_temp")
def test_bots_die_with_atlas(how, tmp_path):
    marker = f"atlas-test-{uuid.uuid4().hex[:12]}"
    script = tmp_path / "atlas_driver.py"
    script.write_text(
        DRIVER.format(
            hostile=str(HOSTILE), marker=marker, duel=str(ROOT / "maps" / "tron" / "duel.txt")
        )
    )
    before = _bot_folders()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    atlas = subprocess.Popen([sys.executable, str(script)], env=env, stderr=subprocess.DEVNULL)
    try:
        end = time.monotonic() + 60
        # wait for the bot's setsid grandchild (it sleeps with the marker in its argv)
        while not [
            p
            for p in _running(marker)
            if b"time.sleep" in Path(f"/proc/{p}/cmdline").read_bytes()
        ]:
            assert atlas.poll() is None and time.monotonic() < end, "the bot never started"
            time.sleep(0.05)
        atlas.send_signal(how)
        atlas.wait(timeout=60)
    finally:
        atlas.kill()
        atlas.wait()
    assert atlas.returncode == -how or (how == signal.SIGINT and atlas.returncode == 1)
    assert _none_left(marker)
    end = time.monotonic() + 10
    while not _bot_folders() <= before and time.monotonic() < end:
        time.sleep(0.05)  # the supervisor removes the folder after the processes
    assert _bot_folders() <= before


# --------------------------------------------------------------------------- CLI


def test_cli_play_options_and_an_output_path_checked_before_the_game(
    tmp_path, capsys, monkeypatch
):
    out = tmp_path / "r.json"
    code = main(
        [
            "play",
            "tron",
            str(ROOT / "maps" / "tron" / "duel.txt"),
            "random",
            _hostile("report", "cli-" + uuid.uuid4().hex[:8]),
            "--limit",
            "2:memory=1G",
            "--bot-env",
            "2:LEVEL=7",
            "--record",
            str(out),
            "--json",
        ]
    )
    assert code == 0 and out.exists()
    from atlas.sim.records import load_record

    err = load_record(out).stderr[1]
    assert re.search(r"^Max address space\s+1073741824 ", err, re.M)
    assert "'LEVEL', '7'" in err
    capsys.readouterr()

    import atlas.arena.runner as runner

    monkeypatch.setattr(runner, "play_game", lambda *a, **k: pytest.fail("the game was played"))
    assert (
        main(
            [
                "play",
                "tron",
                str(ROOT / "maps" / "tron" / "duel.txt"),
                "random",
                "random",
                "--record",
                str(tmp_path / "missing" / "x.json"),
            ]
        )
        == 2
    )
    assert "does not exist" in capsys.readouterr().err
    assert (
        main(
            [
                "play",
                "tron",
                str(ROOT / "maps" / "tron" / "duel.txt"),
                "random",
                "random",
                "--limit",
                "bogus=1",
            ]
        )
        == 2
    )
    assert "unknown bot limit 'bogus'" in capsys.readouterr().err


@needs_bwrap
def test_in_the_sandbox_a_program_under_tmp_finds_the_modules_beside_it(tmp_path):
    bots = tmp_path / "bots"
    bots.mkdir()
    (bots / "helper.py").write_text("DIGIT = '2'\n")
    (bots / "main.py").write_text(
        "import sys\nfrom helper import DIGIT\nwhile sys.stdin.readline():\n"
        "    for _ in range(3):\n        sys.stdin.readline()\n"
        "    print(DIGIT, flush=True)\n"
    )
    game_map = read_map(ROOT / "maps" / "tron" / "duel.txt")
    record = play_game(
        "tron",
        game_map,
        [f"cmd:{sys.executable} {bots / 'main.py'}", "random"],
        containment=Containment(sandbox=True),
    )
    assert record.statuses[0].status == "ok", (record.statuses, record.stderr[0])
    assert {t.moves[0] for t in record.turns} == {2}


@pytest.mark.parametrize("sandbox", [False, pytest.param(True, marks=needs_bwrap)])
def test_a_player_folder_is_the_working_folder_and_home_is_still_the_bots_own(
    tmp_path, sandbox
):
    """A tournament plan may name a player's folder (``cwd``): the command's relative
    words are read there and the bot starts there; HOME and TMPDIR stay its own."""
    from atlas.arena.protocols import external_bot

    player = tmp_path / "team7"
    player.mkdir()
    shutil.copy(HOSTILE, player / "bot.py")
    marker = f"atlas-test-{uuid.uuid4().hex[:12]}"
    bot = external_bot(
        "tron",
        f"{sys.executable} bot.py report {marker}",
        cwd=str(player),
        containment=Containment(sandbox=sandbox),
    )
    record = play_game("tron", DUEL, [bot, "random"])
    assert record.statuses[0].status == "ok", (record.statuses, record.stderr[0])
    err = record.stderr[0]
    assert re.search(r"^cwd (.*)$", err, re.M).group(1) == str(player.resolve())
    env = dict(ast.literal_eval(re.search(r"^env (.*)$", err, re.M).group(1)))
    assert Path(env["HOME"]).name.startswith("atlas-bot-") and not Path(env["HOME"]).exists()
    assert sorted(p.name for p in player.iterdir()) == ["bot.py"]
    assert _none_left(marker)
