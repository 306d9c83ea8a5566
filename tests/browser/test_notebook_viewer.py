"""A record's Jupyter display works as a notebook exported to HTML shows it: two replay
viewers on one page opened from file://, each drawing and stepping its own game."""

from __future__ import annotations

import pytest
from browser_helpers import ARGS, CHROMIUM

import atlas

pytestmark = pytest.mark.browser

ROOM = "9 5\n#########\n#1      #\n#       #\n#      2#\n#########\n"


def test_two_replays_in_an_exported_notebook_draw_and_step_apart(tmp_path):
    from playwright.sync_api import sync_playwright

    game_map = atlas.read_map(ROOM, game="tron", name="room")
    one = atlas.play(game_map, ["wallhugger", "random"], seed=1, time=1.0)
    two = atlas.play(game_map, ["random", "random"], seed=2, time=1.0)
    page_file = tmp_path / "exported.html"
    page_file.write_text(
        "<!doctype html><html><body><h1>An exported notebook</h1>"
        + one._repr_html_()
        + two._repr_html_()
        + "</body></html>",
        encoding="utf-8",
    )
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1000, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(page_file.as_uri())
        frames = [f for f in page.frames if f != page.main_frame]
        assert len(frames) == 2
        for frame, record in zip(frames, (one, two)):
            frame.wait_for_selector("#board[data-turn='0']")
            label = frame.locator("#v-turn").inner_text()
            assert label == f"turn 0 / {len(record.turns)}"
            before = frame.evaluate("() => document.getElementById('board').toDataURL()")
            frame.click("#v-next")
            assert frame.locator("#board").get_attribute("data-turn") == "1"
            after = frame.evaluate("() => document.getElementById('board').toDataURL()")
            assert after != before  # the board was drawn again, one turn on
        # stepping one viewer leaves the other where it was
        frames[0].click("#v-next")
        assert frames[0].locator("#board").get_attribute("data-turn") == "2"
        assert frames[1].locator("#board").get_attribute("data-turn") == "1"
        browser.close()
    assert errors == []
