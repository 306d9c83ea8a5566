"""``atlas build`` through the real parser: every flag reaches build_site as it should,
and the exit status follows the result (0, 1 nothing built or --strict, 2 unusable)."""

from __future__ import annotations

import errno
import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from atlas import resources
from atlas.cli import main
from atlas.render.site import build as build_module
from atlas.render.site.build import BuildResult

TRON_TEXT = "7 4\n#######\n#1    #\n#    2#\n#######\n"


class FakeBuild:
    """Stands in for build_site: keeps the arguments, returns a chosen result."""

    def __init__(self, maps_ok=1, problems=(), error=None):
        self.calls = []
        self.maps_ok, self.problems, self.error = maps_ok, list(problems), error

    def __call__(self, maps_dir, out_dir, **kwargs):
        self.calls.append(((maps_dir, out_dir), kwargs))
        if self.error is not None:
            raise self.error
        maps = [SimpleNamespace(ok=True)] * self.maps_ok + [SimpleNamespace(ok=False)]
        return BuildResult(Path(out_dir), maps, [], self.problems, 1.23456, 4, 5)


@pytest.fixture
def fake(monkeypatch):
    def install(**kw):
        fake = FakeBuild(**kw)
        monkeypatch.setattr(build_module, "build_site", fake)
        return fake

    return install


def test_every_flag_reaches_build_site(fake, capsys):
    build = fake()
    argv = [
        "build",
        "--maps",
        "M",
        "--maps",
        "M2",
        "--scheduler",
        "tcp://127.0.0.1:8786",
        "--out",
        "O",
        "--records",
        "R",
        "--tournament",
        "T1",
        "--tournament",
        "T2",
        "--jobs",
        "3",
        "--games",
        "2",
        "--compat",
        "official",
        "--fairness",
        "4",
        "--time",
        "0.2",
        "--effort",
        "3",
        "--gifs",
        "all",
        "--quiet",
        "--json",
    ]
    assert main(argv) == 0
    [(positional, kw)] = build.calls
    assert positional == ("M", "O")
    log = kw.pop("log")
    assert kw == {
        "more_maps": ["M2"],  # --maps again: one more folder
        "scheduler": "tcp://127.0.0.1:8786",
        "records_dir": "R",
        "tournaments": ["T1", "T2"],
        "jobs": 3,
        "games": 2,
        "progress": False,
        # --compat names each game's own value, for the games that have variants
        "params": {"tron": {"compat": "official"}, "outpost": {"compat": "official"}},
        "fairness": 4,
        "time_limit": 0.2,  # --time: the clock, not the efforts
        "effort": 3,
        "gifs": "all",
    }
    assert log is not None and log("a line") is None  # --quiet: summary lines dropped
    out = json.loads(capsys.readouterr().out)
    assert out == {
        "out": "O",
        "index": str(Path("O") / "index.html"),
        "maps": 2,
        "maps_ok": 1,
        "games": 0,
        "problems": [],
        "seconds": 1.235,
        "cache": {"hits": 4, "misses": 5},
        "exit": 0,
    }


def test_defaults_and_the_spec_word(fake):
    build = fake()
    assert main(["build"]) == 0
    assert main(["build", "--compat", "spec", "--games", "0"]) == 0
    (positional, kw), (_, spec_kw) = build.calls
    assert positional == (resources.maps_dir(), "site")
    assert kw == {
        "more_maps": [],
        "scheduler": None,
        "records_dir": None,
        "tournaments": [],
        "jobs": None,
        "games": None,
        "progress": False,  # not a terminal under pytest
        "params": None,
        "fairness": 0,  # the default build plays no fairness game of its own
        "time_limit": None,  # built-in bots at fixed effort, not by the clock
        "effort": 1,
        "gifs": "featured",  # GIFs of the featured games at build time
        "log": None,  # the summary goes to standard error
    }
    assert spec_kw["params"] == {"tron": {"compat": "spec"}, "outpost": {"compat": "spec"}}
    assert spec_kw["games"] == 0


@pytest.mark.parametrize(
    "kw, strict, code, words",
    [
        ({"problems": ["map x: broken"]}, False, 0, None),
        ({"problems": ["map x: broken"]}, True, 1, None),
        ({"problems": []}, True, 0, None),
        ({"maps_ok": 0}, False, 1, "atlas build: nothing could be built"),
        ({"error": OSError(errno.EACCES, "Permission denied")}, False, 2, "atlas: error:"),
    ],
)
def test_exit_status_follows_the_result(fake, capsys, kw, strict, code, words):
    fake(**kw)
    assert main(["build", "--json", *(["--strict"] if strict else [])]) == code
    captured = capsys.readouterr()
    if words is not None:
        assert captured.err.startswith(words) and "Traceback" not in captured.err
    if code != 2:
        assert json.loads(captured.out)["exit"] == code
    else:
        assert captured.out == "" and "Permission denied" in captured.err


def test_strict_on_a_real_build_with_a_broken_map(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "maps" / "tron").mkdir(parents=True)
    (tmp_path / "maps" / "tron" / "good.txt").write_text(TRON_TEXT)
    (tmp_path / "maps" / "tron" / "broken.txt").write_text("3 3\n#1#\n")
    argv = ["build", "--maps", "maps", "--games", "0", "--quiet", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["maps"], out["maps_ok"], out["exit"]) == (2, 1, 0)
    assert len(out["problems"]) == 1 and "broken.txt" in out["problems"][0]
    assert main([*argv, "--strict"]) == 1
    assert json.loads(capsys.readouterr().out)["exit"] == 1
    assert (tmp_path / "site" / "index.html").is_file()  # --strict still writes the site
