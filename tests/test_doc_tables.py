"""The docs' tables of bots and parameters are the registries': written by
``tools/make_doc_tables.py`` from each game's ``BOTS``, ``ABOUT`` and ``GameInfo``,
and this test fails while a document differs from what the tool writes."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from atlas.bots.registry import bot_about, bot_names
from atlas.sim.registry import game_names, get_info

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def tool():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import make_doc_tables
    finally:
        sys.path.remove(str(ROOT / "tools"))
    return make_doc_tables


@pytest.mark.parametrize("doc", ["README.md", "docs/bots.md", "docs/cli.md", "docs/outpost.md"])
def test_each_document_holds_the_tables_the_registries_give(tool, doc):
    assert doc in tool.DOCS
    text = (ROOT / doc).read_text(encoding="utf-8")
    assert "<!-- atlas:" in text
    assert tool.rewrite(text) == text, (
        f"{doc} is out of date: run python tools/make_doc_tables.py"
    )


def test_the_readme_names_every_bot_of_every_game():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for game in game_names():
        row = next(line for line in text.splitlines() if line.startswith(f"| {game} |"))
        assert row == f"| {game} | " + ", ".join(f"`{b}`" for b in bot_names(game)) + " |"
    assert "`apex`" in text and "`planner`" in text  # the two the table once lacked


def test_every_bot_says_what_it_does_and_where_its_code_is():
    for game in game_names():
        about = bot_about(game)
        assert list(about) == bot_names(game)
        for name, (text, files) in about.items():
            assert len(text) > 20, (game, name)
            assert files and all((ROOT / f).is_file() for f in files), (game, name, files)


def test_a_new_bot_or_parameter_makes_the_documents_stale(tool, monkeypatch):
    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    real = tool.bot_about

    def one_more(game):
        about = real(game)
        if game == game_names()[0]:
            about["newcomer"] = ("a bot added to the registry", ("atlas/bots/random.py",))
        return about

    monkeypatch.setattr(tool, "bot_about", one_more)
    new = tool.rewrite(text)
    assert (
        new != text
        and "| `newcomer` | a bot added to the registry | `atlas/bots/random.py` |" in new
    )
    info = get_info("outpost")
    cli = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert all(f"| outpost | `{p.name}` |" in cli for p in info.params)
