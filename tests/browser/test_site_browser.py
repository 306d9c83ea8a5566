"""The built site in a real browser: headless Chromium driven by Playwright.

Needs Debian's ``chromium`` (``apt-get install chromium``; ``.ci/run`` installs it) and
the ``playwright`` Python package from the ``[test]`` extra; never ``playwright
install``.  The site is a small one built here: a few maps, a few games.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from atlas.maps import parse_map
from atlas.sim import get_game
from atlas.sim.records import RecordBuilder, save_record

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ROOM = ("15 9\n###############\n#1            #\n#    #####    #\n#             #\n"
        "#   #     #   #\n#             #\n#    #####    #\n#            2#\n"
        "###############\n")


def _record(game: str, text: str, seed: int):
    g = get_game(game)
    gm = parse_map(text, game=game, name="room" if game == "tron" else "tiny")
    state = g.initial_state(gm, None)
    rng = np.random.default_rng(seed)
    b = RecordBuilder(g, gm, None, ["alpha", "beta"], seed)
    while g.outcome(state) is None:
        moves = {p: g.random_move(state, p, rng) for p in g.to_move(state)}
        b.add_turn(moves)
        state = g.apply(state, moves)
    return b.finish(state, g.outcome(state))


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        pytest.fail("Debian's chromium is not installed: run 'apt-get install chromium' "
                    "(.ci/run does) to run the browser tests")
    from atlas.render.site.build import build_site

    root = tmp_path_factory.mktemp("browser")
    maps = root / "maps"
    (maps / "tron").mkdir(parents=True)
    (maps / "isolation").mkdir()
    (maps / "tron" / "room.txt").write_text(ROOM)
    (maps / "tron" / "line.txt").write_text("7 3\n#######\n#1   2#\n#######\n")
    (maps / "isolation" / "tiny.txt").write_text(
        "isolation 5 5 queen\n1....\n.....\n..#..\n.....\n....2\n")
    recs = root / "records"
    recs.mkdir()
    seed = next(s for s in range(50) if len(_record("tron", ROOM, s).turns) >= 8)
    save_record(_record("tron", ROOM, seed), recs / "room.json")
    save_record(_record("isolation", "isolation 5 5 queen\n1....\n.....\n..#..\n.....\n....2\n",
                        1), recs / "tiny.json")
    out = root / "site"
    build_site(maps, out, records_dir=recs, cache_dir=root / "cache", progress=False,
               tournament=False, log=lambda m: None)
    return out


@pytest.fixture(scope="module")
def page(site):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        pg = browser.new_page(viewport={"width": 1200, "height": 900})
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.errors = errors  # type: ignore[attr-defined]
        yield pg
        browser.close()


def test_index_shows_every_map(site, page):
    page.goto((site / "index.html").as_uri())
    names = page.locator(".card").evaluate_all("els => els.map(e => e.dataset.map)")
    assert sorted(names) == ["line", "room", "tiny"]
    # every thumbnail actually loaded
    widths = page.locator(".card img").evaluate_all("els => els.map(e => e.naturalWidth)")
    assert len(widths) == 3 and all(w > 0 for w in widths)
    assert page.errors == []


def test_map_page_shows_its_picture(site, page):
    page.goto((site / "index.html").as_uri())
    page.click('.card[data-map="room"]')
    page.wait_for_load_state()
    assert page.url.endswith("maps/tron-room.html")
    imgs = page.locator("img.map-img")
    assert imgs.count() >= 2
    sizes = imgs.evaluate_all("els => els.map(e => [e.naturalWidth, e.naturalHeight])")
    assert all(w > 0 and h > 0 for w, h in sizes)
    assert sizes[0][0] / sizes[0][1] == pytest.approx(15 / 9)
    gif = page.locator(".gif-card img")
    assert gif.count() == 1
    gif.scroll_into_view_if_needed()
    page.wait_for_function("() => document.querySelector('.gif-card img').naturalWidth > 0")


def test_viewer_steps_forward_and_back(site, page):
    game = next((site / "games").glob("tron-room-*.html"))
    page.goto(game.as_uri())
    board = page.locator("#board")
    assert board.get_attribute("data-turn") == "0"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert board.get_attribute("data-turn") == "2"
    assert page.locator("#v-turn").inner_text().startswith("turn 2")
    page.keyboard.press("ArrowLeft")
    assert board.get_attribute("data-turn") == "1"
    page.click("#v-next")
    assert board.get_attribute("data-turn") == "2"
    assert page.locator("tr.current").get_attribute("id") == "move-2"
    page.click("#v-prev")
    page.click("#v-prev")
    assert board.get_attribute("data-turn") == "0"
    page.keyboard.press("End")
    last = int(board.get_attribute("data-turn"))
    assert last == page.locator("tr[id^=move-]").count()
    # the canvas really changes between turns
    first_px = page.evaluate("() => { const c = document.getElementById('board');"
                             " return c.toDataURL(); }")
    page.keyboard.press("Home")
    assert page.evaluate("() => document.getElementById('board').toDataURL()") != first_px
    assert page.errors == []


def test_turn_link_opens_that_turn(site, page):
    game = next((site / "games").glob("tron-room-*.html"))
    page.goto(game.as_uri() + "#turn=5")
    assert page.locator("#board").get_attribute("data-turn") == "5"
    page.evaluate("() => { location.hash = '#turn=3'; }")
    page.wait_for_function("() => document.getElementById('board').dataset.turn === '3'")
    page.click("#v-play")
    page.wait_for_function("() => Number(document.getElementById('board').dataset.turn) > 4")
    page.click("#v-play")
    assert "turn=" in page.url
