"""Issue 34, numbers and paths: every count, seed and time has a finite range, checked
before any work, whose message quotes at most a short prefix of the value and no
function's name; every malformed path (a NUL byte, a character the file system cannot
write) is a :class:`~atlas.errors.PathError` naming the argument, from every API entry
point that takes a path."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import atlas
from atlas.errors import ArgumentError, AtlasError, PathError, PlanError
from atlas.fsutil import check_output_path, checked_path, read_regular_file
from atlas.limits import (
    MAX_COUNT,
    MAX_SECONDS,
    LimitError,
    count_in_range,
    seconds_in_range,
)

ROOT = Path(__file__).resolve().parents[1]
BOX = "7 5\n#######\n#1    #\n#     #\n#    2#\n#######\n"
HUGE = "1" + "0" * 23


def _atlas(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "atlas", *argv],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


# --------------------------------------------------------------------------- numbers


def test_count_in_range_reads_ascii_digits_within_bounds():
    assert count_in_range("42", "n", 0) == 42
    assert count_in_range(7, "n", 1) == 7
    for bad in (HUGE, "-1", "1.5", "²", "٣", "", "1e3", "9" * 5000):
        with pytest.raises(LimitError) as info:
            count_in_range(bad, "n", 0)
        assert len(str(info.value)) < 120
    with pytest.raises(LimitError, match="at least 0 and at most 100,000"):
        count_in_range(MAX_COUNT + 1, "n", 0)
    with pytest.raises(LimitError):
        count_in_range(True, "n", 0)


def test_seconds_in_range_refuses_limits_that_cannot_end():
    assert seconds_in_range("0.5", "t") == 0.5
    for bad in ("inf", "nan", "-1", "0", "1e400", str(MAX_SECONDS * 2), "x" * 500):
        with pytest.raises(LimitError) as info:
            seconds_in_range(bad, "t")
        assert len(str(info.value)) < 120
    for bad in (float("inf"), float("nan"), 10**400, 0, -2.0):
        with pytest.raises(LimitError):
            seconds_in_range(bad, "t")


@pytest.mark.parametrize(
    "argv",
    [
        ["fairness", "MAP", "--games", HUGE],
        ["fairness", "MAP", "--opening", HUGE],
        ["fairness", "MAP", "--jobs", "100000"],
        [
            "tournament",
            "tron",
            "--maps",
            "MAP",
            "--bots",
            "random",
            "wallhugger",
            "--seeds",
            HUGE,
        ],
        ["play", "tron", "MAP", "random", "random", "--seed", "-1"],
        ["play", "tron", "MAP", "random", "random", "--seed", "9" * 4000],
        ["play", "tron", "MAP", "random", "random", "--time", "inf"],
        ["play", "tron", "MAP", "random", "random", "--time", "nan"],
        ["play", "tron", "MAP", "random", "random", "--time", "1e9"],
        ["build", "--games", HUGE],
    ],
    ids=lambda argv: " ".join(a[:12] for a in argv[:1] + argv[-2:]),
)
def test_counts_seeds_and_times_out_of_range_are_usage_errors(tmp_path, argv):
    (tmp_path / "box.txt").write_text(BOX)
    r = _atlas(*[str(tmp_path / "box.txt") if a == "MAP" else a for a in argv], cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    last = r.stderr.strip().splitlines()[-1]
    assert "Traceback" not in r.stderr and "expected" in last
    assert "parse" not in last and "<locals>" not in last and "function" not in last
    assert len(last) < 200  # a short prefix of the value at most
    assert not (tmp_path / "site").exists()


def test_the_api_refuses_counts_seeds_and_times_out_of_range():
    gm = atlas.read_map(BOX, "tron")
    with pytest.raises(ArgumentError, match="seed"):
        atlas.play(gm, ["random", "random"], seed=-1)
    with pytest.raises(ArgumentError, match="time: expected at most"):
        atlas.play(gm, ["random", "random"], time=1e12)
    with pytest.raises(ArgumentError, match="time"):
        atlas.play(gm, ["random", "random"], time=float("inf"))
    with pytest.raises(ArgumentError, match="games: expected at most 100,000"):
        atlas.fairness(gm, games=10**23)
    with pytest.raises(ArgumentError, match="jobs: expected at most"):
        atlas.fairness(gm, games=0, jobs=10**6)


def test_a_plan_with_an_endless_time_or_countless_seeds_is_refused(tmp_path):
    (tmp_path / "box.txt").write_text(BOX)
    head = 'game = "tron"\nmaps = ["box.txt"]\n'
    bots = (
        '[[bots]]\nname = "a"\nbuiltin = "random"\n'
        '[[bots]]\nname = "b"\nbuiltin = "wallhugger"\n'
    )
    for line, key in (
        ("time = inf", "time"),
        ("time = nan", "time"),
        (f"seeds = {10**18}", "seeds"),
    ):
        plan = tmp_path / "plan.toml"
        plan.write_text(head + line + "\n" + bots)
        with pytest.raises(PlanError, match=rf"plan\.toml:3: {key}: expected"):
            atlas.tournament(plan)


# --------------------------------------------------------------------------- paths

BAD_PATHS = ["maps/a\0b.txt", Path("a\0b"), "a\ud800b"]


@pytest.mark.parametrize("bad", BAD_PATHS, ids=["nul", "nul-pathlike", "surrogate"])
def test_checked_path_refuses_malformed_paths(bad):
    with pytest.raises(PathError, match="where: not a usable path"):
        checked_path(bad, "where")
    with pytest.raises(AtlasError):
        read_regular_file(bad, 100, ValueError)
    with pytest.raises(PathError):
        check_output_path(bad)


@pytest.mark.parametrize("bad", BAD_PATHS, ids=["nul", "nul-pathlike", "surrogate"])
def test_every_api_entry_point_that_takes_a_path_names_it(tmp_path, bad):
    gm = atlas.read_map(BOX, "tron")
    record = atlas.play(gm, ["random", "random"], time=0.5)
    calls = {
        "path_or_text": lambda: atlas.read_map(bad, "tron"),
        "path": lambda: atlas.load_record(bad),
        "path_or_text ": lambda: atlas.validate(bad),
        "path  ": lambda: atlas.write_map(gm, bad),
        "path   ": lambda: record.save(bad),
        "path    ": lambda: record.gif(bad),
        "maps": lambda: atlas.build_site(maps=bad, out=tmp_path / "s", progress=False),
        "out": lambda: atlas.build_site(maps=tmp_path, out=bad, progress=False),
        "records": lambda: atlas.build_site(
            maps=tmp_path, out=tmp_path / "s", records=bad, progress=False
        ),
        "tournaments[0]": lambda: atlas.build_site(
            maps=tmp_path, out=tmp_path / "s", tournaments=[bad], progress=False
        ),
        "cache": lambda: atlas.fairness(gm, games=0, cache=bad),
        "maps[0]": lambda: atlas.fairness([bad], games=0),
        "plan": lambda: atlas.tournament(bad),
    }
    for what, call in calls.items():
        with pytest.raises(PathError) as info:
            call()
        assert str(info.value).startswith(f"{what.strip()}: not a usable path"), what
        assert isinstance(info.value, ValueError)  # what a bare ValueError was, still
    assert not (tmp_path / "s").exists()


def test_a_bot_limit_beyond_what_setrlimit_takes_is_refused():
    from atlas.arena.sandbox import BotLimits
    from atlas.errors import BotError

    assert BotLimits().with_option("memory", "2G").memory == 2 * 1024**3
    with pytest.raises(BotError, match="up to 2\\*\\*63 - 1"):
        BotLimits().with_option("memory", "999999999999999T")
