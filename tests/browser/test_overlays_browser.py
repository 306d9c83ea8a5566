"""The replay overlays (``templates/static/overlays.js``) in Chromium agree with
atlas's Python kernels on the same positions.

Real games of each game are played by the rules with simple movers
(``render_helpers.play_record``), replayed into their states
(:func:`atlas.sim.records.replay_states`), and shown by the standalone replay page
(:func:`atlas.api.display.replay_page`, the viewer and its overlays inline).  At sampled
turns the values the browser computed (``window.atlasOverlay``) are compared with
:mod:`atlas.analysis` and the games' own measures.  A record whose frames put pieces off
the board, and one with a huge status text, are shown with what can be shown, the
dropped pieces said.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from browser_helpers import ARGS, CHROMIUM, require_chromium

from atlas.analysis.articulation import articulation_points
from atlas.analysis.chambers import chamber_tree
from atlas.analysis.components import component_size, label_components
from atlas.analysis.voronoi import voronoi_counts
from atlas.maps import parse_map
from atlas.sim.records import replay_states
from tests.render.render_helpers import TRON25, play_record, random_mover, scripted_mover

pytestmark = pytest.mark.browser

MAPS = Path(__file__).resolve().parents[2] / "maps"
QUEEN7 = "isolation 7 7 queen\n1......\n.......\n..#....\n...#...\n.......\n.......\n......2\n"
KNIGHT6 = "isolation 6 6 knight\n1.....\n......\n..#...\n......\n......\n.....2\n"


@pytest.fixture(scope="module")
def browser():
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _open(browser, tmp_path: Path, record, name: str, html: str | None = None):
    from atlas.api.display import replay_page

    path = tmp_path / f"{name}.html"
    path.write_text(html if html is not None else replay_page(record), encoding="utf-8")
    pg = browser.new_page(viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(path.as_uri())
    pg.evaluate("localStorage.clear()")
    pg.reload()
    pg.wait_for_selector("#board[data-ready='1']")
    return pg, errors


def _turn(pg, t: int) -> dict:
    pg.evaluate(f"location.hash = '#turn={t}'")
    pg.wait_for_function(f"window.atlasOverlay && window.atlasOverlay.turn === {t}")
    return pg.evaluate("window.atlasOverlay")


def _samples(n: int, k: int = 9) -> list[int]:
    return sorted({int(x) for x in np.linspace(0, n, k)})


def _flat(cell, w: int) -> int:
    return int(cell[0]) * w + int(cell[1])


def _touching(labels, free, head) -> set[int]:
    """The components of the free cells next to ``head``."""
    r, c = head
    h, w = free.shape
    return {
        int(labels[r + dr, c + dc])
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
        if 0 <= r + dr < h and 0 <= c + dc < w and free[r + dr, c + dc]
    }


@pytest.mark.parametrize("board", ["room25", "rooms", "labyrinth"])
def test_tron_overlays_agree_with_the_kernels(browser, tmp_path, board):
    """A long wall-following game on an open room, and random movers on two bundled
    maps whose chamber trees branch (rooms and doors, a maze)."""
    if board == "room25":
        gm = parse_map(TRON25, game="tron", name=board)
        record = play_record("tron", gm, seed=3)
    else:
        text = (MAPS / "tron" / f"{board}.txt").read_text()
        gm = parse_map(text, game="tron", name=board)
        record = play_record("tron", gm, seed=1, chooser=random_mover("tron"))
    states = replay_states(record)
    pg, errors = _open(browser, tmp_path, record, "tron")
    for key in "vac":
        pg.keyboard.press(key)
    pressed = pg.locator(".overlay-toggle[aria-pressed=true]").count()
    assert pressed == 3
    w = gm.width
    checked = 0
    for t in _samples(len(states) - 1, 25):
        got = _turn(pg, t)["values"]
        st = states[t]
        free = ~np.asarray(st.blocked, dtype=bool)
        h0, h1 = (tuple(int(x) for x in h) for h in np.asarray(st.heads))
        want = voronoi_counts(free, h0, h1)
        assert got["voronoi"]["counts"] == [want["p1"], want["p2"], want["tie"]], t
        cuts = sorted(_flat(c, w) for c in articulation_points(free))
        assert sorted(got["articulation"]["cells"]) == cuts, t
        sizes = [component_size(free, h0), component_size(free, h1)]
        labels, _ = label_components(free)

        separated = h0 != h1 and not (_touching(labels, free, h0) & _touching(labels, free, h1))
        trees = [chamber_tree(free, h0, h1), chamber_tree(free, h1, h0)] if h0 != h1 else None
        assert got["chambers"] == {
            "sizes": sizes,
            "separated": separated,
            "chambers": [tr.chambers[0].size for tr in trees] if trees else [0, 0],
            "fillable": [tr.fillable for tr in trees] if trees else [0, 0],
        }, t
        checked += 1
    assert checked >= min(5, len(states))
    # the choice is remembered: a reload keeps the three overlays on
    pg.reload()
    pg.wait_for_selector("#board[data-ready='1']")
    assert pg.locator(".overlay-toggle[aria-pressed=true]").count() == 3
    assert pg.locator("#v-overlay-legend li").count() == 3
    pg.keyboard.press("v")
    assert pg.locator(".overlay-toggle[aria-pressed=true]").count() == 2
    assert errors == []
    pg.close()


def _isolation_reach(game, state, seat: int) -> int:
    """Squares the piece reaches in moves of its own, the other standing still: a
    search over the game's own legal moves from probe positions."""
    probe = state.copy()
    probe.to_play, probe.forfeit = seat, -1
    if int(probe.pos[seat, 0]) < 0:
        return len(game.legal_moves(probe, seat))
    seen, todo = set(), [tuple(int(x) for x in probe.pos[seat])]
    while todo:
        cell = todo.pop()
        probe.pos[seat] = cell
        for m in game.legal_moves(probe, seat):
            if m not in seen:
                seen.add(m)
                todo.append(m)
    return len(seen)


@pytest.mark.parametrize("text", [QUEEN7, KNIGHT6], ids=["queen", "knight"])
def test_isolation_overlays_agree_with_the_rules(browser, tmp_path, text):
    from atlas.sim import get_game

    game = get_game("isolation")
    gm = parse_map(text, game="isolation", name="small")
    record = play_record("isolation", gm, seed=5, chooser=random_mover("isolation"))
    states = replay_states(record)
    from atlas.games.isolation.painter import mobility_series

    mobility = mobility_series(states)["values"]
    pg, errors = _open(browser, tmp_path, record, "iso")
    pg.keyboard.press("r")
    pg.keyboard.press("m")
    for t in range(len(states)):
        got = _turn(pg, t)["values"]
        assert got["mobility"]["counts"] == [mobility[0][t], mobility[1][t]], t
        want = [_isolation_reach(game, states[t], s) for s in (0, 1)]
        assert got["reachable"]["sizes"] == want, t
    assert errors == []
    pg.close()


def test_connect5_overlays_agree_with_the_kernels(browser, tmp_path):
    from atlas.games.connect5.bots.window import window_table
    from atlas.games.connect5.painter import open_threats

    gm = parse_map((MAPS / "connect5" / "connect4.txt").read_text(), game="connect5", name="c4")
    record = play_record("connect5", gm, seed=2, chooser=random_mover("connect5"))
    states = replay_states(record)
    pg, errors = _open(browser, tmp_path, record, "c5")
    pg.keyboard.press("w")
    pg.keyboard.press("t")
    for t in range(len(states)):
        got = _turn(pg, t)["values"]
        board = np.asarray(states[t].board)
        inarow = int(states[t].inarow)
        assert got["threats"]["counts"] == list(open_threats(board, inarow)), t
        windows = window_table(board.shape[0], board.shape[1], inarow)[0]
        flat = board.reshape(-1)[windows]
        counts = [int(((flat == s + 1).any(1) & ~(flat == 2 - s).any(1)).sum()) for s in (0, 1)]
        assert got["windows"]["counts"] == counts, t
    assert errors == []
    pg.close()


def test_hostile_records_show_what_they_can(browser, tmp_path):
    """Pieces a frame puts off the board are left out of the overlays and said; a
    status text of a megabyte changes nothing."""
    from atlas.api.display import replay_page
    from atlas.render.viewer import pack_viewer, viewer_data

    gm = parse_map(TRON25, game="tron", name="room25")
    record = play_record("tron", gm, seed=4)
    huge = dataclasses.replace(record.statuses[0], detail="x" * 1_000_000)
    record = dataclasses.replace(record, statuses=(huge, *record.statuses[1:]))
    html = replay_page(record)
    data = viewer_data(record)
    data["frames"][3]["m"].insert(0, [gm.height + 7, 2, 0, 5, -1, 1.0])  # off the board
    packed = pack_viewer(data)
    start = html.index('id="replay-data">') + len('id="replay-data">')
    end = html.index("</script>", start)
    from atlas.render.site.pages import script_json

    html = html[:start] + script_json(packed) + html[end:]
    pg, errors = _open(browser, tmp_path, record, "hostile", html)
    pg.keyboard.press("v")
    got = _turn(pg, 3)
    assert got["dropped"] == 1
    assert "left out 1 piece" in pg.inner_text("#v-overlay-status")
    assert got["values"]["voronoi"]["counts"][0] > 0
    assert _turn(pg, 5)["dropped"] == 0
    assert pg.inner_text("#v-overlay-status") == ""
    assert errors == []
    pg.close()


def _outpost_bots(names: tuple[str, str]):
    """A :func:`play_record` chooser: the built-in Outpost bots ``names`` in turn."""
    import time

    from atlas.bots.registry import make_bot

    bots: dict[int, object] = {}

    def choose(state, seat, rng):
        if seat not in bots:
            bots[seat] = make_bot("outpost", names[seat % 2])
        return bots[seat].move(state, seat, time.monotonic() + 5)  # type: ignore[attr-defined]

    return choose


def test_outpost_overlays_agree_with_the_kernels(browser, tmp_path):
    """A game of built-in bots; its last frame also redrawn with an outpost of each
    empire walled in by its neighbour's territory, so that some are cut off."""
    from types import SimpleNamespace

    from atlas.api.display import replay_page
    from atlas.games.outpost.analysis import supply_lines
    from atlas.games.outpost.format import HOMES
    from atlas.games.outpost.painter import RENDER
    from atlas.render.site.pages import script_json
    from atlas.render.viewer import pack_viewer, viewer_data

    gm = parse_map((MAPS / "outpost" / "lakes.txt").read_text(), game="outpost", name="lakes")
    record = play_record(
        "outpost", gm, seed=1, params={"T": 60}, chooser=_outpost_bots(("greedy", "defender"))
    )
    states = list(replay_states(record))
    last = states[-1]
    owner = np.array(last.owner, copy=True)
    for e, posts in enumerate(last.outposts):
        far = max((tuple(int(x) for x in p) for p in posts), key=lambda c: c[0] + c[1])
        if far == HOMES[e]:
            continue
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            r, c = far[0] + dr, far[1] + dc
            if 0 <= r < 100 and 0 <= c < 100:
                owner[r, c] = (e + 1) % 4
    walled = SimpleNamespace(
        owner=owner, outposts=last.outposts, turn=last.turn, water=last.water
    )
    states[-1] = walled
    painter = RENDER.painter(gm, dict(record.params))
    frames = [painter(s) for s in states]
    html = replay_page(record)
    packed = pack_viewer(viewer_data(record, states, frames=frames, series=[]))
    start = html.index('id="replay-data">') + len('id="replay-data">')
    html = html[:start] + script_json(packed) + html[html.index("</script>", start) :]
    pg, errors = _open(browser, tmp_path, record, "outpost", html)
    pg.keyboard.press("i")
    pg.keyboard.press("s")
    cut = 0
    for t in [*_samples(len(states) - 2, 6), len(states) - 1]:
        got = _turn(pg, t)["values"]
        st = states[t]
        if t < len(states) - 1:
            want = [[int(x) for x in st.counts[e, :2]] for e in range(4)]
            assert got["ownership"]["counts"] == want, t
        lines = supply_lines(st.water, st.owner, st.outposts, HOMES)
        assert got["supply"]["supplied"] == [[bool(x) for x in v] for v in lines], t
        cut += sum(int((~v).sum()) for v in lines)
    assert cut >= 2  # the walled-in outposts
    assert "cut off" in pg.inner_text("#v-overlay-legend")
    assert errors == []
    pg.close()


def test_turning_points_are_listed_linked_and_hidden_past_the_turn(browser, tmp_path):
    """A game page lists its turning points in words, each a ``#turn=N`` link; with
    results hidden, the list and the overlays stop at the turn shown."""
    from atlas.render.site.build import build_site
    from atlas.sim.records import save_record

    (tmp_path / "maps" / "tron").mkdir(parents=True)
    (tmp_path / "maps" / "tron" / "room25.txt").write_text(TRON25)
    (tmp_path / "records").mkdir()
    gm = parse_map(TRON25, game="tron", name="room25")
    save_record(
        play_record("tron", gm, seed=3, players=("red", "blue")),
        tmp_path / "records" / "a.json",
    )
    build_site(
        tmp_path / "maps",
        tmp_path / "site",
        records_dir=tmp_path / "records",
        cache_dir=tmp_path / "cache",
        progress=False,
        tournament=False,
        log=lambda m: None,
    )
    page_path = next((tmp_path / "site" / "games").glob("tron-*.html"))
    pg = browser.new_page(viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(page_path.as_uri())
    pg.evaluate("localStorage.clear()")
    pg.reload()
    pg.wait_for_selector("#board[data-ready='1']")
    items = pg.locator("#v-turning li")
    turns = [int(x) for x in items.evaluate_all("els => els.map(e => e.dataset.turn)")]
    assert len(turns) >= 2 and turns == sorted(turns)
    texts = items.all_inner_texts()
    assert any("sealed into" in t for t in texts), texts
    assert all(t.startswith(f"turn {n}: ") for t, n in zip(texts, turns))
    items.nth(1).locator("a").click()
    pg.wait_for_function(f"document.getElementById('board').dataset.turn === '{turns[1]}'")
    # results hidden, the replay one turn past the first turning point
    pg.click("#spoiler-switch")
    pg.keyboard.press("v")
    shown = turns[0] + 1
    pg.evaluate(f"location.hash = '#turn={shown}'")
    pg.wait_for_function(f"window.atlasOverlay && window.atlasOverlay.turn === {shown}")
    visible = items.evaluate_all("els => els.filter(e => !e.hidden).map(e => +e.dataset.turn)")
    assert visible == [t for t in turns if t <= shown]
    later = len(turns) - len(visible)
    assert pg.inner_text("#v-turning-hidden").startswith(f"{later} later turning point")
    states = replay_states(play_record("tron", gm, seed=3, players=("red", "blue")))
    st = states[shown]
    h0, h1 = (tuple(int(x) for x in h) for h in np.asarray(st.heads))
    want = voronoi_counts(~np.asarray(st.blocked, dtype=bool), h0, h1)
    assert pg.evaluate("window.atlasOverlay.values.voronoi.counts")[:2] == [
        want["p1"],
        want["p2"],
    ]
    # switching the results back on shows the whole list again
    pg.click("#spoiler-switch")
    assert items.evaluate_all("els => els.filter(e => e.hidden).length") == 0
    assert errors == []
    pg.close()


def test_tron_heads_side_by_side_are_not_separated_under_the_official_order(browser, tmp_path):
    """Seat 1 rides into a pocket beside seat 2 and follows it (the official order):
    the chambers overlay, like the turning points, keeps the heads in contact; under
    atlas's rules the same first turn seals seat 1 in."""
    from atlas.games.tron.painter import separation_point

    text = "10 4\n##########\n#1 #     #\n#2       #\n##########\n"
    gm = parse_map(text, game="tron", name="pocket")

    def record(compat: str, moves):
        return play_record("tron", gm, params={"compat": compat}, chooser=scripted_mover(moves))

    east, south = 2, 3
    # the chase, then seat 2 turns into the wall: seat 1 wins
    official = record("official", [(east, east), (south, east), (east, east), (east, south)])
    spec = record("spec", [(east, east), (south, east)])
    for rec, want in ((official, [False, False, False, False]), (spec, [False, True])):
        pg, errors = _open(browser, tmp_path, rec, f"pocket-{rec.params['compat']}")
        pg.keyboard.press("c")
        states = replay_states(rec)
        got = [_turn(pg, t)["values"]["chambers"]["separated"] for t in range(len(want))]
        assert got == want, rec.params
        point = separation_point(states, ["a", "b"])
        first = next((t for t, sep in enumerate(want) if sep), None)
        assert (point and point["turn"]) == first or (point is None and first is None)
        assert errors == []
        pg.close()
