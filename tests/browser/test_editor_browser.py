"""The map editor of ``atlas serve`` in headless Chromium, as a map designer works: a
stroke drawn with a symmetry paints its mirror, undo and redo, a save under a new name
(and an overwrite only once confirmed) read back with :func:`atlas.read_map`; a map
whose format requires a four-fold turn, broken by one stroke, shows its problems ringed.

Only 127.0.0.1 is reached; every wait is bounded by a generous deadline.  The
screenshots go to ``ATLAS_EDITOR_SCREENSHOTS`` (a folder) when it is set.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from browser_helpers import chromium_page

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "render"))
from serve_helpers import GOOD, PATIENCE, ROOT

import atlas
from atlas.maps import board_facts, parse_map
from atlas.render.site.editor import game_facts

pytestmark = pytest.mark.browser

WAIT_MS = PATIENCE * 1000
ANALYSED = (
    "() => window.atlasEditor && window.atlasEditor.analyses > 0"
    " && window.atlasEditor.analysedNow()"
)


@pytest.fixture
def page():
    with chromium_page(1280, 1000) as pg:
        yield pg


def _shot(page, name: str) -> Path:
    keep = os.environ.get("ATLAS_EDITOR_SCREENSHOTS")
    if not keep:
        return Path()
    folder = Path(keep)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    page.screenshot(path=str(path), full_page=True)
    return path


def _open(page, served, rel: str) -> None:
    page.goto(f"http://127.0.0.1:{served.port}/__atlas/edit/{rel}")
    page.wait_for_function(ANALYSED, timeout=WAIT_MS)


def _click(page, r: int, c: int) -> None:
    at = page.evaluate("([r, c]) => window.atlasEditor.cellCentre(r, c)", [r, c])
    page.mouse.click(at["x"], at["y"])


def _blocked(page) -> set[tuple[int, int]]:
    return {tuple(c) for c in page.evaluate("window.atlasEditor.blockedCells()")}


def _analysed(page) -> dict:
    page.wait_for_function(ANALYSED, timeout=WAIT_MS)
    return page.evaluate("window.atlasEditor.analysis")


def test_a_stroke_keeps_its_mirror_undo_redo_save_and_read_back(served, page):
    _open(page, served, "tron/good.txt")
    before = _blocked(page)
    cuts = len(_analysed(page)["articulation"])
    page.select_option("#ed-symmetry", "rot180")
    page.click("#ed-tools [data-tool=block]")
    _click(page, 1, 2)  # on a 7x4 board its half turn is (2, 4)
    assert _blocked(page) == before | {(1, 2), (2, 4)}
    assert len(_analysed(page)["articulation"]) != cuts  # the walls cut the corridor

    page.keyboard.press("Control+z")
    assert _blocked(page) == before
    page.click("#ed-redo")
    assert _blocked(page) == before | {(1, 2), (2, 4)}
    page.click("#ed-undo")
    page.keyboard.press("Control+y")
    assert _blocked(page) == before | {(1, 2), (2, 4)}
    _analysed(page)

    page.fill("#ed-name", "mirrored")
    page.click("#ed-save")
    page.wait_for_function(
        "() => window.atlasEditor.saved === 'tron/mirrored.txt'", timeout=WAIT_MS
    )
    saved = atlas.read_map(served.maps / "tron" / "mirrored.txt")
    cells = {(int(r), int(c)) for r, c in zip(*saved.blocked.nonzero())}
    assert cells == _blocked(page) and saved.starts == ((1, 1), (2, 5))
    assert (served.maps / "tron" / "good.txt").read_text() == GOOD  # untouched

    # the same name again: the page asks, and only "Overwrite" writes
    page.evaluate("window.atlasEditor.saved = null")
    _click(page, 1, 3)
    _analysed(page)
    page.click("#ed-save")
    page.wait_for_selector("#ed-confirm:not([hidden])", timeout=WAIT_MS)
    assert atlas.read_map(served.maps / "tron" / "mirrored.txt") == saved
    page.click("#ed-overwrite")
    page.wait_for_function(
        "() => window.atlasEditor.saved === 'tron/mirrored.txt'", timeout=WAIT_MS
    )
    again = atlas.read_map(served.maps / "tron" / "mirrored.txt")
    assert again.blocked[1, 3] and again.blocked[2, 3]
    _shot(page, "editor-tron.png")
    assert page.errors == []


def test_a_map_broken_by_a_stroke_shows_its_problems_ringed(served, page):
    forced = next(g for g, f in game_facts().items() if f["symmetry"] == "rot90")
    assert board_facts(forced).symmetry == "rot90"
    folder = served.maps / forced
    folder.mkdir()
    shutil.copy(ROOT / "maps" / forced / "delta.txt", folder / "delta.txt")
    _open(page, served, f"{forced}/delta.txt")
    assert _analysed(page)["problems"] == []
    assert page.is_disabled("#ed-symmetry")  # the format requires its turn
    assert page.input_value("#ed-symmetry") == "rot90"
    before = _blocked(page)
    page.keyboard.press("b")
    _click(page, 0, 49)  # the corner of the quarter: water there is an error
    assert _blocked(page) - before == {(0, 49), (50, 0), (99, 50), (49, 99)}  # its turns
    a = _analysed(page)
    corner = [p for p in a["problems"] if p["rule"] == "corner"]
    assert corner and [0, 49] in corner[0]["cells"]
    # the quarter's cell stands for its four turns: each of them is ringed
    assert page.evaluate("window.atlasEditor.rings") >= 4
    assert page.evaluate("window.atlasEditor.rings") % 4 == 0
    # a ring is drawn around the cell: red pixels on a circle about it
    ringed = """([row, col]) => {
            const ed = window.atlasEditor, cv = document.getElementById("ed-canvas");
            const px = ed.px, cx = (col + 0.5) * px, cy = (row + 0.5) * px;
            const rad = Math.max(7, px * 1.1);
            const d = cv.getContext("2d").getImageData(0, 0, cv.width, cv.height).data;
            let n = 0;
            for (let t = 0; t < 64; t++) {
                const x = Math.round(cx + rad * Math.cos(t / 10.19));
                const y = Math.round(cy + rad * Math.sin(t / 10.19));
                if (x < 0 || y < 0 || x >= cv.width || y >= cv.height) continue;
                const i = 4 * (y * cv.width + x);
                if (d[i] > 180 && d[i + 1] < 90 && d[i + 2] < 90) n++;
            }
            return n;
        }"""
    # the named cell and its three turns
    for cell in ((0, 49), (50, 0), (99, 50), (49, 99)):
        assert page.evaluate(ringed, list(cell)) >= 3, cell
    text = page.inner_text("#ed-analysis")
    assert "corner" in text
    ms = page.evaluate("window.atlasEditor.lastMs")
    print(f"\nanalysis round trip in Chromium, 100x100 board: {ms:.0f} ms")
    _shot(page, "editor-broken.png")
    page.keyboard.press("Control+z")
    assert _analysed(page)["problems"] == []
    assert page.errors == []


def test_a_new_map_with_mirrored_starts_is_saved_and_read_back(served, page):
    game = next(g for g, f in game_facts().items() if f["starts"] == [2] and f["walls"])
    page.goto(f"http://127.0.0.1:{served.port}/__atlas/edit/")
    page.wait_for_function(ANALYSED, timeout=WAIT_MS)
    page.select_option("#ed-game", game)
    page.fill("#ed-width", "9")
    page.fill("#ed-height", "5")
    page.click("#ed-new button[type=submit]")
    page.wait_for_function(
        "() => window.atlasEditor.board.width === 9 && window.atlasEditor.analysedNow()",
        timeout=WAIT_MS,
    )
    assert "start" in _analysed(page)["error"]  # no starts yet: the format says so
    page.select_option("#ed-symmetry", "flip-lr")
    page.keyboard.press("1")
    _click(page, 2, 1)  # start 1, and start 2 mirrored left-right
    assert page.evaluate("window.atlasEditor.board.starts") == [[2, 1], [2, 7]]
    page.keyboard.press("b")
    canvas = page.locator("#ed-canvas")
    canvas.focus()
    for key in ("ArrowRight", "ArrowRight", "Space"):  # from start 1, where it was put
        page.keyboard.press(key)  # a wall drawn from the keyboard, at (2, 3) and (2, 5)
    assert _blocked(page) == {(2, 3), (2, 5)}
    a = _analysed(page)
    assert a["error"] is None and "flip-lr" in a["fairness"]["symmetries"]
    page.fill("#ed-name", "fresh")
    page.click("#ed-save")
    page.wait_for_function(
        f"() => window.atlasEditor.saved === '{game}/fresh.txt'", timeout=WAIT_MS
    )
    saved = atlas.read_map(served.maps / game / "fresh.txt")
    assert saved.starts == ((2, 1), (2, 7)) and saved.shape == (5, 9)
    assert {(int(r), int(c)) for r, c in zip(*saved.blocked.nonzero())} == {(2, 3), (2, 5)}
    assert page.errors == []


def test_a_file_not_there_yet_opens_a_blank_board_of_its_game(served, page):
    _open(page, served, "tron/later.txt")
    board = page.evaluate("window.atlasEditor.board")
    assert board["game"] == "tron" and board["name"] == "later"
    assert page.input_value("#ed-name") == "later"
    assert page.inner_text("#ed-status") == ""
    assert page.errors == []


def test_a_new_board_without_walls_takes_its_settings(served, page):
    game = next(g for g, f in game_facts().items() if not f["walls"])
    page.goto(f"http://127.0.0.1:{served.port}/__atlas/edit/")
    page.wait_for_function(ANALYSED, timeout=WAIT_MS)
    page.select_option("#ed-game", game)
    page.fill("#ed-width", "7")
    page.fill("#ed-height", "6")
    page.click("#ed-new button[type=submit]")
    page.wait_for_function(
        "() => window.atlasEditor.board.width === 7 && window.atlasEditor.analysedNow()",
        timeout=WAIT_MS,
    )
    assert page.locator("#ed-tools button").count() == 0  # nothing to draw but the size
    text = _analysed(page)["text"]
    page.fill("#ed-meta", " ".join(f"{k}=4" for k in parse_map(text, game=game).meta))
    page.press("#ed-meta", "Enter")
    page.wait_for_function(
        "(t) => window.atlasEditor.analysedNow() && window.atlasEditor.analysis.text !== t",
        arg=text,
        timeout=WAIT_MS,
    )
    m = parse_map(page.evaluate("window.atlasEditor.analysis.text"), game=game)
    assert set(m.meta.values()) == {4} and m.shape == (6, 7)
    assert page.errors == []


def test_with_two_maps_folders_a_map_is_saved_in_the_folder_chosen(tmp_path, page):
    from serve_helpers import OTHER, Served

    mine = tmp_path / "mine"
    (mine / "tron").mkdir(parents=True)
    (mine / "tron" / "duel.txt").write_text(OTHER)
    served = Served(tmp_path, more=(mine,))
    try:
        _open(page, served, "mine/tron/duel.txt")  # an existing map: its own folder
        assert page.input_value("#ed-folder") == "mine"
        assert page.inner_text("#ed-ext") == ".txt in tron/"
        page.fill("#ed-name", "copy")
        page.click("#ed-save")
        page.wait_for_function(
            "() => window.atlasEditor.saved === 'mine/tron/copy.txt'", timeout=WAIT_MS
        )
        copy = atlas.read_map(mine / "tron" / "copy.txt")
        assert copy.content_hash == atlas.read_map(mine / "tron" / "duel.txt").content_hash
        page.select_option("#ed-folder", "maps")  # the same board, into the other folder
        page.click("#ed-save")
        page.wait_for_function(
            "() => window.atlasEditor.saved === 'maps/tron/copy.txt'", timeout=WAIT_MS
        )
        assert (
            atlas.read_map(served.maps / "tron" / "copy.txt").content_hash == copy.content_hash
        )
        assert sorted(p.name for p in (mine / "tron").iterdir()) == ["copy.txt", "duel.txt"]
        assert page.errors == []
    finally:
        served.close()
