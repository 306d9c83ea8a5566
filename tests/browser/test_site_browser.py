"""The built site in a real browser: headless Chromium driven by Playwright.

Needs Debian's ``chromium`` (``apt-get install chromium``; ``.ci/run`` installs it) and
the ``playwright`` Python package from the ``[test]`` extra; never ``playwright
install``.  The site is a small one built here from saved records (no timed play): a
few maps, a tron game whose first seat reports its searches, an Outpost game, and
enough short games to fill more than one page of the games list.  Every control of
the viewer, the games tables and the search box is driven; nothing waits on the clock
beyond the browser's own events.
"""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from browser_helpers import require_chromium

from atlas.maps import parse_map
from atlas.sim import get_game
from atlas.sim.records import RecordBuilder, save_record

pytestmark = pytest.mark.browser

LINE = "9 5\n#########\n#1      #\n#       #\n#      2#\n#########\n"
#: Short games on "line", so that the games list has more than one page (50 rows).
EXTRA = 56
ROOM = (
    "15 9\n###############\n#1            #\n#    #####    #\n#             #\n"
    "#   #     #   #\n#             #\n#    #####    #\n#            2#\n"
    "###############\n"
)


LAKE = "".join(f"{x} {y}\n" for x in range(15, 35) for y in range(15, 40))
NAMES = {"tron": "room", "isolation": "tiny", "outpost": "lake"}


def _record(
    game: str,
    text: str,
    seed: int,
    *,
    players=("alpha", "beta"),
    params=None,
    info: bool = False,
    name: str | None = None,
):
    g = get_game(game)
    gm = parse_map(text, game=game, name=name or NAMES[game])
    state = g.initial_state(gm, params)
    rng = np.random.default_rng(seed)
    b = RecordBuilder(g, gm, params, list(players), seed)
    while g.outcome(state) is None:
        moves = {p: g.random_move(state, p, rng) for p in g.to_move(state)}
        said = (
            {
                0: {
                    "depth": len(b.turns) + 3,
                    "score": 0.5 * len(b.turns),
                    "nodes": 1000 + len(b.turns),
                }
            }
            if info
            else None
        )
        b.add_turn(moves, {p: 0.01 for p in moves}, said)
        state = g.apply(state, moves)
    return b.finish(state, g.outcome(state))


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    require_chromium()
    from atlas.render.site.build import build_site

    root = tmp_path_factory.mktemp("browser")
    maps = root / "maps"
    (maps / "tron").mkdir(parents=True)
    (maps / "isolation").mkdir()
    (maps / "outpost").mkdir()
    (maps / "tron" / "room.txt").write_text(ROOM)
    (maps / "tron" / "line.txt").write_text(LINE)
    (maps / "isolation" / "tiny.txt").write_text(
        "isolation 5 5 queen\n1....\n.....\n..#..\n.....\n....2\n"
    )
    (maps / "outpost" / "lake.txt").write_text(LAKE)
    recs = root / "records"
    recs.mkdir()
    seed = next(s for s in range(50) if len(_record("tron", ROOM, s).turns) >= 8)
    save_record(
        _record("tron", ROOM, seed, players=("deep", "beta"), info=True), recs / "room.json"
    )
    save_record(
        _record("isolation", "isolation 5 5 queen\n1....\n.....\n..#..\n.....\n....2\n", 1),
        recs / "tiny.json",
    )
    save_record(
        _record("outpost", LAKE, 2, players=("n", "e", "s", "w"), params={"T": 60}),
        recs / "lake.json",
    )
    for k in range(EXTRA):  # short games: more than a page of the games list
        save_record(
            _record("tron", LINE, k, players=("gamma", "delta"), name="line"),
            recs / f"line{k:02d}.json",
        )
    out = root / "site"
    build_site(
        maps,
        out,
        records_dir=recs,
        cache_dir=root / "cache",
        progress=False,
        tournament=False,
        log=lambda m: None,
    )
    return out


def test_index_shows_every_map(site, page):
    page.goto((site / "index.html").as_uri())
    names = page.locator(".card").evaluate_all("els => els.map(e => e.dataset.map)")
    assert sorted(names) == ["lake", "line", "room", "tiny"]
    # every thumbnail actually loaded
    widths = page.locator(".card img").evaluate_all("els => els.map(e => e.naturalWidth)")
    assert len(widths) == 4 and all(w > 0 for w in widths)
    assert page.errors == []


def test_map_page_shows_its_picture(site, page):
    page.goto((site / "index.html").as_uri())
    page.click('.card[data-map="room"]')
    page.wait_for_url("**/maps/tron-room.html")
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
    first_px = page.evaluate(
        "() => { const c = document.getElementById('board'); return c.toDataURL(); }"
    )
    page.keyboard.press("Home")
    assert page.evaluate("() => document.getElementById('board').toDataURL()") != first_px
    assert page.errors == []


def test_turn_link_opens_that_turn(site, page):
    game = next((site / "games").glob("tron-room-*.html"))
    page.goto(game.as_uri() + "#turn=5")
    assert page.locator("#board").get_attribute("data-turn") == "5"
    page.evaluate("() => { location.hash = '#turn=3'; }")
    page.wait_for_function("() => document.getElementById('board').dataset.turn === '3'")
    assert page.url.endswith("#turn=3")
    page.click("#v-play")
    page.wait_for_function("() => Number(document.getElementById('board').dataset.turn) > 4")
    page.click("#v-play")
    # playing moved the link on from turn 3 to the turn it paused at
    paused = page.locator("#board").get_attribute("data-turn")
    assert int(paused) > 4
    assert page.url.endswith(f"#turn={paused}")


def _game(site: Path, prefix: str) -> Path:
    return next((site / "games").glob(f"{prefix}-*.html"))


def test_speed_control_and_its_keys(site, page):
    page.goto(_game(site, "tron-room").as_uri())
    board = page.locator("#board")
    options = page.locator("#v-speed option").evaluate_all("els => els.map(e => e.value)")
    assert options == ["0.25", "0.5", "1", "2", "4", "8"]
    base = float(board.get_attribute("data-interval"))
    assert board.get_attribute("data-speed") == "1"
    page.select_option("#v-speed", "8")
    assert board.get_attribute("data-speed") == "8"
    assert float(board.get_attribute("data-interval")) == pytest.approx(base / 8)
    page.select_option("#v-speed", "0.25")
    assert float(board.get_attribute("data-interval")) == pytest.approx(base * 4)
    page.locator("#board").click()  # focus the page, not the select
    page.keyboard.press("+")
    assert board.get_attribute("data-speed") == "0.5"
    page.keyboard.press("-")
    page.keyboard.press("-")  # already the slowest: stays
    assert board.get_attribute("data-speed") == "0.25"
    # playing at 8x runs through the game to its end and stops
    page.select_option("#v-speed", "8")
    page.locator("#board").click()
    page.keyboard.press("Home")
    page.keyboard.press(" ")  # space plays and pauses
    assert page.locator("#v-play").get_attribute("aria-pressed") == "true"
    page.keyboard.press(" ")
    assert page.locator("#v-play").get_attribute("aria-pressed") == "false"
    page.keyboard.press("Home")
    page.click("#v-play")
    assert page.locator("#v-play").get_attribute("aria-pressed") == "true"
    last = page.locator("tr[id^=move-]").count()
    page.wait_for_function(
        f"() => document.getElementById('board').dataset.turn === '{last}'"
        " && document.getElementById('v-play').textContent === 'Play'"
    )
    assert page.errors == []


def test_every_turn_scrub_bar_and_buttons(site, page):
    page.goto(_game(site, "outpost-lake").as_uri())
    board = page.locator("#board")
    turns = page.locator("tr[id^=move-]").count()
    assert turns >= 60
    assert page.locator("#v-scrub").get_attribute("max") == str(turns)  # every turn
    page.locator("#v-scrub").fill("37")
    assert board.get_attribute("data-turn") == "37"
    assert page.locator("#v-turn").inner_text() == f"turn 37 / {turns}"
    page.click("#v-last")
    assert board.get_attribute("data-turn") == str(turns)
    page.click("#v-first")
    assert board.get_attribute("data-turn") == "0"
    page.click("#v-next")
    assert board.get_attribute("data-turn") == "1"
    assert page.locator("#v-link").get_attribute("href") == "#turn=1"
    # every turn is drawn: stepping through changes the picture at some turn
    pictures = set()
    for _ in range(12):
        page.click("#v-next")
        pictures.add(page.evaluate("() => document.getElementById('board').toDataURL()"))
    assert len(pictures) > 1
    assert page.errors == []


def test_chart_series_and_clicks(site, page):
    page.goto(_game(site, "outpost-lake").as_uri() + "#turn=10")
    chart = page.locator("#v-chart")
    assert chart.get_attribute("data-series") == "Land"
    names = page.locator("#v-series option").evaluate_all("els => els.map(e => e.textContent)")
    assert names == ["Land (cells)", "Water (cells)", "Outposts (outposts)"]
    page.select_option("#v-series", "2")
    assert chart.get_attribute("data-series") == "Outposts"
    assert page.locator("#v-values").inner_text().startswith("Outposts at turn 10")
    # a click on the chart's right edge goes to the last turn, on its left to turn 0
    chart.scroll_into_view_if_needed()
    box = chart.bounding_box()
    turns = page.locator("tr[id^=move-]").count()
    page.mouse.click(box["x"] + box["width"] - 11, box["y"] + box["height"] / 2)
    assert page.locator("#board").get_attribute("data-turn") == str(turns)
    page.mouse.click(box["x"] + 43, box["y"] + box["height"] / 2)
    assert page.locator("#board").get_attribute("data-turn") == "0"
    # dragging along the chart scrubs through the game
    page.mouse.move(box["x"] + 43, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(
        box["x"] + 42 + (box["width"] - 53) / 2, box["y"] + box["height"] / 2, steps=4
    )
    middle = int(page.locator("#board").get_attribute("data-turn"))
    page.mouse.up()
    assert abs(middle - turns / 2) <= 2
    # the tron chart: Voronoi territory, one line per seat
    page.goto(_game(site, "tron-room").as_uri())
    assert page.locator("#v-chart").get_attribute("data-series") == "Voronoi territory"
    assert page.locator("#v-series").count() == 0
    assert page.errors == []


def test_hover_shows_cell_coordinates(site, page):
    page.goto(_game(site, "tron-room").as_uri())
    page.locator("#board").scroll_into_view_if_needed()
    box = page.locator("#board").bounding_box()
    # ROOM is 15 columns x 9 rows: the centre of cell (row 2, col 5)
    page.mouse.move(box["x"] + box["width"] * (5.5 / 15), box["y"] + box["height"] * (2.5 / 9))
    assert page.locator("#v-cell").inner_text() == "row 2, col 5"
    assert page.locator("#board").get_attribute("data-cell") == "2,5"
    page.mouse.move(box["x"] + box["width"] * (14.5 / 15), box["y"] + box["height"] * (8.5 / 9))
    assert page.locator("#v-cell").inner_text() == "row 8, col 14"
    page.mouse.move(box["x"] - 40, box["y"] - 40)
    assert page.locator("#v-cell").inner_text() == ""


def test_bot_info_per_move(site, page):
    page.goto(_game(site, "tron-room").as_uri() + "#turn=3")
    cells = page.locator("#v-seats tbody tr").first.locator("td")
    texts = cells.evaluate_all("els => els.map(e => e.textContent)")
    # seat 1 reported depth turn + 3 (turn 3 is the third move: index 2), score 0.5 x 2
    assert texts[0] == "deep" and texts[2] == "10 ms"
    assert texts[3:] == ["5", "1", "1002"]
    second = page.locator("#v-seats tbody tr").nth(1).locator("td")
    assert second.evaluate_all("els => els.map(e => e.textContent)")[3:] == ["—", "—", "—"]
    move = page.locator("#move-3 td").nth(1).inner_text()
    assert texts[1] == move and move in ("N", "E", "S", "W")
    page.keyboard.press("Home")
    assert cells.nth(3).inner_text() == "—"  # no move at turn 0


def test_record_download_link(site, page):
    game = _game(site, "tron-room")
    page.goto(game.as_uri())
    link = page.locator("#record-link")
    href = link.get_attribute("href")
    assert link.get_attribute("download") is not None and href.endswith(".json.gz")
    target = (game.parent / href).resolve()
    from atlas.sim.records import load_record

    rec = load_record(target)
    assert [p.name for p in rec.players] == ["deep", "beta"]
    # served over HTTP (a local server on 127.0.0.1) the link downloads the gzipped record
    # as it is: the file atlas replay reads
    import functools
    import threading
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(site))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/games/{game.name}"
        page.goto(url)
        with page.expect_download() as info:
            page.click("#record-link")
        assert info.value.suggested_filename == target.name
        got = Path(info.value.path()).read_bytes()
        assert (
            got == target.read_bytes() and json.loads(gzip.decompress(got))["seed"] == rec.seed
        )
    finally:
        server.shutdown()
        server.server_close()


def test_games_list_pages_sorts_and_filters(site, page):
    page.goto((site / "games.html").as_uri())
    widget = page.locator(".games-widget")
    page.wait_for_function("() => document.querySelector('.games-widget').dataset.ready")
    total = int(widget.get_attribute("data-rows"))
    assert total == EXTRA + 3
    rows = page.locator(".games-table tbody tr")
    assert rows.count() == 50
    assert page.locator(".page-label").inner_text() == "page 1 of 2"
    page.click("button[data-page=next]")
    assert rows.count() == total - 50 and widget.get_attribute("data-page") == "2"
    assert "page=2" in page.url
    page.click("button[data-page=prev]")
    assert rows.count() == 50 and widget.get_attribute("data-page") == "1"
    page.click("button[data-page=last]")
    assert widget.get_attribute("data-page") == "2"
    page.click("button[data-page=first]")
    # sort by length: the longest game first, then ascending after a second click
    page.click("button[data-sort=turns]")
    turns = [int(t) for t in rows.locator("td.num").all_inner_texts()]
    assert turns == sorted(turns, reverse=True)
    page.click("button[data-sort=turns]")
    turns = [int(t) for t in rows.locator("td.num").all_inner_texts()]
    assert turns == sorted(turns)
    assert "sort=turns" in page.url and "dir=asc" in page.url
    # filter by game, then by map, bot, result and length
    page.select_option("select[name=game]", "tron")
    assert int(widget.get_attribute("data-rows")) == EXTRA + 1
    page.select_option("select[name=map]", "tron-line")
    assert int(widget.get_attribute("data-rows")) == EXTRA
    page.select_option("select[name=map]", "tron-room")
    assert int(widget.get_attribute("data-rows")) == 1
    page.select_option("select[name=map]", "")
    page.select_option("select[name=bot]", "tron-deep")
    assert int(widget.get_attribute("data-rows")) == 1
    page.select_option("select[name=bot]", "tron-gamma")
    page.select_option("select[name=result]", "bot-won")
    won = int(widget.get_attribute("data-rows"))
    page.select_option("select[name=result]", "bot-lost")
    lost = int(widget.get_attribute("data-rows"))
    page.select_option("select[name=result]", "draw")
    drawn = int(widget.get_attribute("data-rows"))
    assert won + lost + drawn == EXTRA and won > 0 and lost > 0
    page.select_option("select[name=result]", "")
    page.fill("input[name=min]", "5")
    page.fill("input[name=max]", "6")
    shown = [int(t) for t in rows.locator("td.num").all_inner_texts()]
    assert shown and all(5 <= t <= 6 for t in shown)
    # the filters live in the address: a reload shows the same list
    url = page.url
    assert "bot=tron-gamma" in url and "min=5" in url
    page.goto("about:blank")
    page.goto(url)
    assert [int(t) for t in rows.locator("td.num").all_inner_texts()] == shown
    page.click("button.clear")
    page.wait_for_function(
        f"() => document.querySelector('.games-widget').dataset.rows === '{total}'"
    )
    # search by name
    page.fill("input[name=q]", "deep")
    assert int(widget.get_attribute("data-rows")) == 1
    assert rows.first.locator("a").first.get_attribute("href").startswith("games/tron-room-")
    assert page.errors == []


def test_index_search_box(site, page):
    page.goto((site / "index.html").as_uri())
    box = page.locator("#search-results")
    assert box.is_hidden()
    page.fill("#site-search", "gamma line")
    assert box.is_visible()
    assert int(box.get_attribute("data-count")) == EXTRA
    assert box.locator("ul li").count() >= 10 and "all 56 matching games" in box.inner_text()
    page.fill("#site-search", "lake")
    headings = box.locator("h3").evaluate_all("els => els.map(e => e.textContent)")
    assert headings[0] == "Maps" and "Games" in headings
    page.fill("#site-search", "room deep")
    page.keyboard.press("Enter")
    page.wait_for_url("**/games/tron-room-*.html")
    page.goto((site / "index.html").as_uri())
    page.fill("#site-search", "gamma")
    page.click("#search-results a.more")
    page.wait_for_url("**/games.html#q=gamma")
    page.wait_for_function(
        f"() => document.querySelector('.games-widget').dataset.rows === '{EXTRA}'"
    )
    page.goto((site / "index.html").as_uri())
    page.fill("#site-search", "zzz-nothing")
    assert box.inner_text() == "Nothing matches."
    page.keyboard.press("Escape")  # clears the box and closes the results
    assert page.locator("#site-search").input_value() == "" and box.is_hidden()
    assert page.errors == []


def test_map_and_bot_pages_tables_and_tree(site, page):
    page.goto((site / "maps" / "tron-line.html").as_uri())
    widget = page.locator(".games-widget")
    assert int(widget.get_attribute("data-rows")) == EXTRA
    assert page.locator("select[name=map]").is_hidden()  # the map is fixed here
    assert page.locator(".games-table tbody tr").count() == 25  # a map page shows 25
    page.click("button[data-page=last]")
    assert page.locator(".games-table tbody tr").count() == EXTRA - 50
    assert "#" not in page.url  # a map page's table keeps the address as it is
    # the featured game and the chamber tree
    page.goto((site / "maps" / "tron-room.html").as_uri())
    assert page.locator("svg.chamber-tree circle").count() >= 1
    assert "at most" in page.locator(".parity-note").inner_text()
    page.click("#featured .featured-title a")
    page.wait_for_url("**/games/tron-room-*.html")
    page.goto((site / "maps" / "outpost-lake.html").as_uri())
    sizes = page.locator(".overlays img").evaluate_all("els => els.map(e => e.naturalWidth)")
    assert len(sizes) == 4 and all(w > 0 for w in sizes)
    page.goto((site / "bots" / "tron-gamma.html").as_uri())
    assert int(page.locator(".games-widget").get_attribute("data-rows")) == EXTRA
    assert page.locator("select[name=bot]").is_hidden()
    assert page.errors == []


@pytest.fixture(scope="module")
def parted_site(site, tmp_path_factory):
    """The same games built with the index cut into parts of 7 games, and without the
    map "line" (its games keep their whole idents and map names in the index)."""
    from atlas.render.site import pages
    from atlas.render.site.build import build_site

    root = tmp_path_factory.mktemp("parted")
    shutil.copytree(site.parent / "maps", root / "maps")
    (root / "maps" / "tron" / "line.txt").unlink()
    real = pages.INDEX_PART
    pages.INDEX_PART = 7
    try:
        build_site(
            root / "maps",
            root / "site",
            records_dir=site.parent / "records",
            cache_dir=site.parent / "cache",
            progress=False,
            tournament=False,
            log=lambda m: None,
        )
    finally:
        pages.INDEX_PART = real
    return root / "site"


def test_the_index_in_parts_reads_back_whole(parted_site, page):
    """Every part loaded and read back by the page's script: the same games, in the
    order the build lists them, with their idents, maps and lengths."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "render"))
    from render_helpers import read_site_index

    data = read_site_index(parted_site)
    assert len(data["parts"]) == -(-(EXTRA + 3) // 7) and data["count"] == EXTRA + 3
    page.goto((parted_site / "games.html").as_uri())
    page.wait_for_function("() => document.querySelector('.games-widget').dataset.ready")
    assert int(page.locator(".games-widget").get_attribute("data-rows")) == EXTRA + 3
    shown = []
    for _ in range(2):
        rows = page.locator(".games-table tbody tr")
        shown += rows.evaluate_all(
            "rs => rs.map(r => [r.querySelector('a').textContent,"
            " r.children[1].textContent, Number(r.children[4].textContent)])"
        )
        page.click("button[data-page=next]")
    assert shown == [[g[0], g[2], g[6]] for g in data["games"]]
    assert any(g[1] == -1 and g[2] == "line" for g in data["games"])  # a map-less game
    # sorting runs over every part
    page.click("button[data-sort=turns]")
    first = int(page.locator(".games-table tbody tr td.num").first.inner_text())
    assert first == max(g[6] for g in data["games"])
    assert page.errors == []


def test_typing_narrows_the_search_as_a_fresh_search_would(parted_site, page):
    page.goto((parted_site / "index.html").as_uri())
    box = page.locator("#search-results")
    counts = {}
    for query in ("g", "ga", "gam", "gamm", "gamma", "gamma ", "gamma l", "gamma li"):
        page.locator("#site-search").press_sequentially(query[-1] if len(query) > 1 else query)
        counts[query] = int(box.get_attribute("data-count"))
    for query, typed in counts.items():
        page.fill("#site-search", "")
        page.fill("#site-search", query)  # at once: a search from scratch
        assert int(box.get_attribute("data-count")) == typed, query
    assert counts["gamma li"] == EXTRA and counts["g"] >= EXTRA
    # a shorter query after a longer one searches every game again
    page.fill("#site-search", "deep")
    assert int(box.get_attribute("data-count")) == 1
    page.locator("#site-search").press("Backspace")
    assert int(box.get_attribute("data-count")) >= 1
    assert page.errors == []


def test_typing_in_the_games_list_narrows_as_a_fresh_filter_would(parted_site, page):
    """The games list's filter narrows its last matches while the query grows (and
    the other filters stay): each count is the one a fresh page with that query
    shows; a shorter query, or another game chosen, filters every game again."""
    page.goto((parted_site / "games.html").as_uri())
    page.wait_for_function("() => document.querySelector('.games-widget').dataset.ready")
    widget, q = page.locator(".games-widget"), page.locator("input[name=q]")
    counts = {}
    for query in ("g", "ga", "gam", "gamm", "gamma", "gamma ", "gamma l", "gamma li"):
        q.press_sequentially(query[-1] if len(query) > 1 else query)
        counts[query] = int(widget.get_attribute("data-rows"))
    for query, typed in counts.items():
        page.goto("about:blank")
        page.goto((parted_site / "games.html").as_uri() + "#q=" + query.replace(" ", "%20"))
        page.wait_for_function("() => document.querySelector('.games-widget').dataset.ready")
        assert int(widget.get_attribute("data-rows")) == typed, query
    assert counts["gamma li"] == EXTRA and counts["g"] >= EXTRA
    q.fill("deep")
    assert int(widget.get_attribute("data-rows")) == 1
    q.press("Backspace")  # "dee": every game searched again
    assert int(widget.get_attribute("data-rows")) >= 1
    q.fill("gamma")
    page.select_option("select[name=game]", "isolation")  # another filter: from scratch
    assert int(widget.get_attribute("data-rows")) == 0
    page.select_option("select[name=game]", "")
    assert int(widget.get_attribute("data-rows")) == counts["gamma"]
    assert page.errors == []
