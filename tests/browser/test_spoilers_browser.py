"""Spoiler-free viewing in headless Chromium (static/spoilers.js): the switch in the
header hides results in the games list, the standings and the game pages, the browser
remembers it (localStorage, from file://), and a replay that reaches its end shows its
result.  Same setup as test_site_browser.py: Debian's chromium, driven by Playwright;
a small site built from saved records (no timed play)."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_helpers import require_chromium

from atlas.maps import parse_map
from atlas.sim.records import save_record
from tests.render.render_helpers import play_record, random_mover

pytestmark = pytest.mark.browser

ROOM = (
    "15 9\n###############\n#1            #\n#    #####    #\n#             #\n"
    "#   #     #   #\n#             #\n#    #####    #\n#            2#\n"
    "###############\n"
)
RESULT_WORDS = ("wins", "draw")


def _record(players, seed):
    gm = parse_map(ROOM, game="tron", name="room")
    return play_record(
        "tron", gm, seed, players=players, chooser=random_mover("tron"), seconds=0.01
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    require_chromium()
    from atlas.render.site.build import build_site

    root = tmp_path_factory.mktemp("spoilers")
    (root / "maps" / "tron").mkdir(parents=True)
    (root / "maps" / "tron" / "room.txt").write_text(ROOM)
    recs = root / "records"
    recs.mkdir()
    for k in range(6):
        players = ("red", "blue") if k % 2 == 0 else ("blue", "red")
        save_record(_record(players, k), recs / f"g{k}.json")
    out = root / "site"
    build_site(
        root / "maps",
        out,
        records_dir=recs,
        cache_dir=root / "cache",
        progress=False,
        tournament=False,
        log=lambda m: None,
    )
    return out


def _list_text(page) -> str:
    page.wait_for_selector(".games-widget[data-ready]")
    return page.locator(".games-table tbody").inner_text()


def _shows_a_result(text: str) -> bool:
    return any(w in text for w in RESULT_WORDS)


def test_switch_on_hides_results_and_the_browser_remembers_it(site, page):
    page.goto((site / "games.html").as_uri())
    assert page.locator("#spoiler-switch").get_attribute("aria-pressed") == "false"
    rows = _list_text(page)
    assert _shows_a_result(rows) and rows.count("\n") >= 5  # six games, results shown
    page.click("#spoiler-switch")
    assert page.locator("#spoiler-switch").get_attribute("aria-pressed") == "true"
    assert page.locator("#spoiler-switch").inner_text() == "Results hidden"
    hidden = _list_text(page)
    assert not _shows_a_result(hidden)
    assert "red" in hidden and "blue" in hidden  # the players stay
    page.reload()
    assert page.locator("#spoiler-switch").get_attribute("aria-pressed") == "true"
    assert page.evaluate("() => document.documentElement.classList.contains('no-spoilers')")
    assert not _shows_a_result(_list_text(page))
    # a hidden result shows when the reader clicks it, that one only
    page.locator(".games-table tbody .spoiler").first.click(force=True)  # its "hidden" chip
    shown = page.locator(".games-table tbody .spoiler.shown")
    assert shown.count() == 1 and _shows_a_result(shown.inner_text())
    assert page.errors == []


def test_a_game_shows_its_result_when_the_replay_reaches_the_end(site, page):
    page.goto((site / "games.html").as_uri())  # the switch is still on
    page.wait_for_selector(".games-widget[data-ready]")
    page.locator(".games-table tbody a[href*='games/']").first.click()
    page.wait_for_selector("#board[data-ready]")
    assert not page.locator("#result-line").is_visible()
    cover = page.locator(".spoiler-cover").first
    assert cover.is_visible() and "until the end of the replay" in cover.inner_text()
    assert not page.locator("table.moves").is_visible()
    facts = page.locator("section.facts").inner_text()
    assert "win" not in facts and "crash" not in facts  # scores, statuses and reason
    page.keyboard.press("ArrowRight")
    assert not page.locator("#result-line").is_visible()  # not yet
    page.keyboard.press("End")
    assert page.locator("#result-line").is_visible()
    assert _shows_a_result(page.locator("#result-line").inner_text())
    assert not page.locator(".spoiler-cover").first.is_visible()
    assert page.locator("table.moves").is_visible()
    page.reload()  # a new visit hides it again (the switch is on)
    assert not page.locator("#result-line").is_visible()
    page.click(".spoiler-cover button >> nth=0")  # or the reader reveals it
    assert page.locator("#result-line").is_visible()
    assert page.errors == []


def test_standings_hide_behind_a_cover_until_shown(site, page):
    page.goto((site / "standings.html").as_uri())
    assert not page.locator("table.standings").first.is_visible()
    cover = page.locator(".spoiler-cover").first
    assert "Hidden: the Tron standings" in cover.inner_text()
    cover.locator("button").click()
    assert page.locator("table.standings").first.is_visible()
    assert "95 % interval" in page.locator("table.standings").first.inner_text()


def test_switch_off_shows_everything_again(site, page):
    page.goto((site / "games.html").as_uri())
    page.click("#spoiler-switch")
    assert page.locator("#spoiler-switch").get_attribute("aria-pressed") == "false"
    assert _shows_a_result(_list_text(page))
    assert page.evaluate("() => localStorage.getItem('atlas.hideResults')") is None
    page.reload()
    assert _shows_a_result(_list_text(page))
    page.goto((site / "standings.html").as_uri())
    assert page.locator("table.standings").first.is_visible()
    assert page.errors == []


COLOURED = """() => {
  // pixels of the chart's right half that are coloured (a seat's line), not grey or white
  const c = document.getElementById("v-chart");
  const g = c.getContext("2d");
  const d = g.getImageData(Math.floor(c.width / 2), 0, Math.floor(c.width / 2) - 2, c.height).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4) {
    const r = d[i], gr = d[i + 1], b = d[i + 2];
    if (d[i + 3] > 128 && Math.max(r, gr, b) - Math.min(r, gr, b) > 60) { n++; }
  }
  return n;
}"""


def test_the_chart_stops_at_the_turn_shown_while_results_are_hidden(site, page):
    page.goto((site / "games.html").as_uri())
    page.wait_for_selector(".games-widget[data-ready]")
    if page.locator("#spoiler-switch").get_attribute("aria-pressed") != "true":
        page.click("#spoiler-switch")
    page.locator(".games-table tbody a[href*='games/']").first.click()
    page.wait_for_selector("#board[data-ready]")
    assert page.locator("#v-chart").count() == 1
    page.keyboard.press("Home")
    assert page.evaluate(COLOURED) == 0  # nothing drawn past turn 0
    page.keyboard.press("End")
    assert page.evaluate(COLOURED) > 20  # the whole game, once the replay has ended
    # with the switch off the whole chart is drawn from the first turn
    page.click("#spoiler-switch")
    page.reload()
    page.wait_for_selector("#board[data-ready]")
    page.keyboard.press("Home")
    assert page.evaluate(COLOURED) > 20
    assert page.errors == []
