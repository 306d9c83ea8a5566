"""Per-kind cache invalidation: editing one file of atlas changes the code version of
exactly the kinds of cached result that file decides (on a copy of the package)."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "atlas"
KINDS = ("analysis", "game", "replay")


@pytest.fixture
def copied_cache(tmp_path):
    """atlas/render/site/cache.py loaded from a copy of the package (its code versions
    hash the copy's files, which the test may edit)."""
    copy = tmp_path / "atlas"
    shutil.copytree(
        PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc")
    )
    # named as a module of atlas.render.site, so that its relative imports resolve
    spec = importlib.util.spec_from_file_location(
        "atlas.render.site.copied_cache", copy / "render" / "site" / "cache.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return copy, module


def _versions(module) -> dict[str | None, str]:
    module.code_version.cache_clear()
    return {kind: module.code_version(kind) for kind in (*KINDS, None)}


@pytest.mark.parametrize(
    "edited, changed",
    [
        ("bots/random.py", {"game"}),  # a bot plays games: no map or replay is redrawn
        ("arena/runner.py", {"game"}),
        ("render/images.py", {"analysis", "replay"}),  # pictures: no game is replayed
        ("render/viewer.py", {"analysis", "replay"}),
        ("games/tron/rules.py", {"analysis", "game", "replay"}),  # the rules: everything
        ("games/outpost/rules/game.py", {"analysis", "game", "replay"}),
        ("games/tron/bots/apex.py", {"game"}),  # a game's bot: its games only
        ("games/connect5/protocol.py", {"game"}),
        ("games/connect5/painter.py", {"analysis", "replay"}),  # a game's pictures
        ("maps/__init__.py", {"analysis", "game", "replay"}),
        ("games/tron/format.py", {"analysis", "game", "replay"}),  # a game's format
        ("games/outpost/analysis/influence.py", {"analysis", "game", "replay"}),
        ("games/__init__.py", {"analysis", "game", "replay"}),  # the registry
        ("render/site/pages.py", set()),  # pages only: nothing cached is redone
        ("render/svg.py", set()),
        ("render/site/swap.py", set()),  # how the site is put in place
        ("render/site/build.py", set()),
        ("cli/play.py", set()),  # the command line decides no result
    ],
)
def test_an_edit_changes_the_versions_of_the_kinds_it_decides(copied_cache, edited, changed):
    copy, module = copied_cache
    before = _versions(module)
    assert before[None] != before["game"]
    assert (copy / edited).is_file(), edited  # an edit, not a new file
    with open(copy / edited, "a", encoding="utf-8") as fh:
        fh.write("\n# an edit\n")
    after = _versions(module)
    assert {k for k in KINDS if after[k] != before[k]} == changed
    assert after[None] != before[None]  # every edit changes the pages' whole-code version
    # the same files give the same versions again
    assert _versions(module) == after


def test_a_new_module_under_a_part_counts_and_a_renamed_one_too(copied_cache):
    copy, module = copied_cache
    before = _versions(module)
    (copy / "bots" / "extra.py").write_text("X = 1\n")
    added = _versions(module)
    assert {k for k in KINDS if added[k] != before[k]} == {"game"}
    (copy / "bots" / "extra.py").rename(copy / "bots" / "extra2.py")
    renamed = _versions(module)
    assert renamed["game"] not in (before["game"], added["game"])
    assert renamed["analysis"] == before["analysis"]
