"""The documentation: the quickstart's examples run, and the site builds from docs/ and
the docstrings with Sphinx, warnings as errors, readable from file:// (no asset from
elsewhere).  docs/development.md#documentation says how to build it by hand."""

from __future__ import annotations

import doctest
import re
import subprocess
import sys
from pathlib import Path

import pytest

import atlas

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def test_the_quickstart_runs_as_written():
    result = doctest.testfile(
        str(DOCS / "python.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert result.attempted >= 20 and result.failed == 0


def test_the_ratings_page_examples_run_as_written():
    result = doctest.testfile(
        str(DOCS / "ratings.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert result.attempted >= 7 and result.failed == 0


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("docs") / "html"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "--keep-going",
            "-q",
            "-b",
            "html",
            str(DOCS),
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert done.stderr.strip() == ""  # not one warning
    return out


def test_every_page_of_docs_is_built(site):
    pages = sorted(p.stem for p in DOCS.glob("*.md"))
    assert pages and all((site / f"{page}.html").is_file() for page in pages)
    index = (site / "index.html").read_text(encoding="utf-8")
    for page in pages:
        if page != "index":
            assert f'href="{page}.html"' in index, page


def test_the_api_reference_is_generated_from_the_code(site):
    text = (site / "api.html").read_text(encoding="utf-8")
    for name in atlas.__all__:
        if name != "__version__":
            assert f'id="atlas.{name}"' in text, name
    first = atlas.read_map.__doc__.strip().splitlines()[0]
    assert first in text  # the docstring itself, not a copy


def test_the_cli_reference_is_the_parsers(site):
    from atlas.cli import help_text

    text = (site / "cli.html").read_text(encoding="utf-8")
    usage = help_text("play").splitlines()[0]  # "usage: atlas play ..."
    assert usage.split()[:3] == ["usage:", "atlas", "play"]
    assert "usage: atlas play" in text


def test_the_site_reads_offline(site):
    remote = re.compile(
        r"""(?:\bsrc\s*=\s*["']?|<link[^>]*href\s*=\s*["']?|url\(\s*["']?|@import\s+["']?)"""
        r"""(?:https?:)?//""",
        re.I,
    )
    assert remote.search('<script src="https://cdn.example/x.js">')  # it would see one
    assert remote.search("@font-face { src: url(//fonts.example/f.woff) }")
    assert not remote.search('<a href="https://example.org/">a link, not an asset</a>')
    found = []
    for path in site.rglob("*"):
        if path.suffix in (".html", ".css", ".js") and path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")
            found += [f"{path.relative_to(site)}: {m.group(0)}" for m in remote.finditer(text)]
    assert found == []
