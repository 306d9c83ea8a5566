"""``atlas serve`` in headless Chromium, as a map designer works: a map page is open,
the map file is saved on disk, and the page reloads by itself with the new map; a map
broken on disk shows its problem; another web page cannot read the site through the
browser.

Only 127.0.0.1 is reached; every wait is bounded by a generous deadline.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from browser_helpers import ARGS, CHROMIUM

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "render"))
from serve_helpers import BROKEN, GOOD, OTHER, PATIENCE, wait_until

pytestmark = pytest.mark.browser

WAIT_MS = PATIENCE * 1000


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield b
        finally:
            b.close()


def _open(browser, url):
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    page.wait_for_function("() => window.atlasLive && window.atlasLive.build", timeout=WAIT_MS)
    return page, errors


def test_a_saved_map_reloads_the_open_page(served, browser, tmp_path):
    url = f"http://127.0.0.1:{served.port}/maps/tron-good.html"
    page, errors = _open(browser, url)
    first = page.evaluate("window.atlasLive.build")
    page.evaluate("window.stillTheSamePage = true")
    assert "at most 8 moves for seat 1 and 8 for seat 2" in page.content()

    (served.maps / "tron" / "good.txt").write_text(OTHER)  # a wall added, saved
    page.wait_for_function(
        "(b) => !window.stillTheSamePage && window.atlasLive && window.atlasLive.build"
        " && window.atlasLive.build !== b",
        arg=first,
        timeout=WAIT_MS,
    )
    # the page shows the new map: its analysis says what the added wall changed
    assert "at most 6 moves for seat 1 and 7 for seat 2" in page.content()
    shot = tmp_path / "served-map.png"
    page.screenshot(path=str(shot), full_page=False)
    assert shot.stat().st_size > 1000
    keep = os.environ.get("ATLAS_SERVE_SCREENSHOT")
    if keep:  # for a person to look at (docs/serve.md)
        Path(keep).write_bytes(shot.read_bytes())

    # broken on disk: the same address shows the map's problem, live
    page.evaluate("window.stillTheSamePage = true")
    (served.maps / "tron" / "good.txt").write_text(BROKEN)
    page.wait_for_function("() => !window.stillTheSamePage", timeout=WAIT_MS)
    page.wait_for_load_state()
    assert "expected 3 rows after the size line, found 1" in page.content()

    # mended: back to a map page
    page.evaluate("window.stillTheSamePage = true")
    (served.maps / "tron" / "good.txt").write_text(GOOD)
    page.wait_for_function("() => !window.stillTheSamePage", timeout=WAIT_MS)
    page.wait_for_load_state()
    assert "expected 3 rows" not in page.content()
    assert errors == []


def test_a_page_elsewhere_cannot_reach_the_site(served, browser, tmp_path):
    """A page of another origin (here a local file) that fetches from the served site
    is refused by the server itself (403: a POST's Origin is not the server's, a GET is
    marked cross-site by the browser), whatever the browser would let it read; a link
    from it still opens the site."""
    other = tmp_path / "elsewhere.html"
    other.write_text("<!doctype html><title>elsewhere</title><p>hello</p>")
    page = browser.new_page()
    seen: dict[str, int] = {}
    page.on("response", lambda r: seen.__setitem__(r.request.method + " " + r.url, r.status))
    page.goto(other.as_uri())
    site = f"http://127.0.0.1:{served.port}/index.html"
    page.evaluate(
        """async (url) => {
            for (const method of ["GET", "POST"]) {
                try { await fetch(url, {mode: "no-cors", method: method, body:
                      method === "POST" ? "x" : undefined}); } catch (e) {}
            }
        }""",
        site,
    )
    save = f"http://127.0.0.1:{served.port}/__atlas/maps/tron/good.txt"
    answer = page.evaluate(
        """async (url) => {
            try {
                const r = await fetch(url, {method: "PUT", body: "#",
                                            headers: {"Content-Type": "text/plain"}});
                return "answered " + r.status;
            } catch (e) { return "refused"; }
        }""",
        save,
    )
    assert answer == "refused"  # the browser asked first (OPTIONS), the server said no
    assert (served.maps / "tron" / "good.txt").read_text() == GOOD
    page.wait_for_timeout(200)  # the responses' events, already in
    assert seen.get("GET " + site) == 403, seen
    assert seen.get("POST " + site) == 403, seen
    assert page.goto(site).status == 200  # following a link is not a script reading


def test_a_map_edited_in_the_browser_is_saved_and_shown(served, browser):
    from playwright.sync_api import Error as PlaywrightError

    url = f"http://127.0.0.1:{served.port}/maps/tron-good.html"
    page, errors = _open(browser, url)
    page.click("text=Edit this map")
    page.wait_for_function(
        "() => window.atlasEditor && window.atlasEditor.analysedNow()", timeout=WAIT_MS
    )
    page.keyboard.press("b")  # a wall, drawn where OTHER has it
    at = page.evaluate("window.atlasEditor.cellCentre(1, 4)")
    page.mouse.click(at["x"], at["y"])
    page.click("#ed-save")  # the map's own name: the page asks before overwriting
    page.wait_for_selector("#ed-confirm:not([hidden])", timeout=WAIT_MS)
    assert (served.maps / "tron" / "good.txt").read_text() == GOOD
    page.click("#ed-overwrite")
    page.wait_for_function(
        "() => window.atlasEditor.saved === 'tron/good.txt'", timeout=WAIT_MS
    )
    assert (served.maps / "tron" / "good.txt").read_text() == OTHER
    page.click("text=the map's page")

    def shown() -> bool:  # the page reloads itself once the rebuild is in place
        try:
            page.wait_for_load_state()
            return "at most 6 moves for seat 1 and 7 for seat 2" in page.content()
        except PlaywrightError:  # caught in the middle of its reload
            return False

    wait_until(shown, "the edited map on its page")
    assert errors == []
