"""What the bots expected (``templates/static/pv.js``) in Chromium: on the replay page of
a real game between built-in bots, the "Expected" toggle (its button and the key ``e``,
the choice remembered) draws, for the shown turn, the cells of the record's principal
variation, followed here independently from the position before the turn.  A page whose
data is hostile (counts past 12, cells off the board, garbage) draws what it can, says
what it dropped and raises no script error."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from browser_helpers import ARGS, CHROMIUM, require_chromium

from atlas.arena.runner import play_game
from atlas.bots.registry import bot_effort
from atlas.games.tron.rules import DELTAS
from atlas.maps import read_map
from atlas.render.site.pages import script_json
from atlas.render.viewer import read_page_json, varints
from atlas.sim.records import replay_states

pytestmark = pytest.mark.browser

MAPS = Path(__file__).resolve().parents[2] / "maps"


@pytest.fixture(scope="module")
def browser():
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def tron_game():
    bots = ["apex", "voronoi"]
    game_map = read_map(MAPS / "tron" / "arena.txt", game="tron")
    efforts = [bot_effort("tron", b) for b in bots]
    return play_game("tron", game_map, bots, seed=5, effort=efforts)


def _page(browser, tmp_path: Path, html: str, name: str):
    path = tmp_path / f"{name}.html"
    path.write_text(html, encoding="utf-8")
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
    pg.wait_for_function(f"window.atlasPv && window.atlasPv.turn === {t}")
    return pg.evaluate("window.atlasPv")


def _tron_cells(state, seat: int, pv: list[int], width: int) -> list[int]:
    """The cells of a tron line, both heads in turn, from the position before the turn
    (the line of a built-in bot is legal all the way: tests/bots/test_pv_lines.py)."""
    heads = [[int(v) for v in h] for h in state.heads]
    cells = []
    for i, move in enumerate(pv):
        who = seat if i % 2 == 0 else 1 - seat
        heads[who][0] += int(DELTAS[move][0])
        heads[who][1] += int(DELTAS[move][1])
        cells.append(heads[who][0] * width + heads[who][1])
    return cells


@pytest.fixture(scope="module")
def isolation_game():
    bots = ["strong", "phased"]
    game_map = read_map(MAPS / "isolation" / "knight7.txt", game="isolation")
    efforts = [bot_effort("isolation", b) for b in bots]
    return play_game("isolation", game_map, bots, seed=5, effort=efforts)


@pytest.mark.parametrize("game_name", ["tron", "isolation"])
def test_the_expected_lines_are_the_records_for_the_shown_turn(
    browser, tmp_path, game_name, request
):
    from atlas.api.display import replay_page

    record = request.getfixturevalue(f"{game_name}_game")
    states = replay_states(record)
    width = record.game_map().width

    def _expected_cells(state, seat, pv, width):  # isolation: a move is its square
        if game_name == "tron":
            return _tron_cells(state, seat, pv, width)
        return [r * width + c for r, c in pv]

    pg, errors = _page(browser, tmp_path, replay_page(record), game_name)
    assert pg.get_attribute("#v-pv", "aria-pressed") == "false"
    off = _turn(pg, 3)
    assert off["on"] is False
    assert pg.text_content("#v-pv-status") == ""
    pg.click("#v-pv")  # the button
    assert pg.get_attribute("#v-pv", "aria-pressed") == "true"
    turns = [t for t in range(1, len(record.turns) + 1, 7)] + [len(record.turns)]
    checked = 0
    for t in turns:
        got = _turn(pg, t)
        assert got["on"] is True
        for seat, said in record.turns[t - 1].info.items():
            if "pv" not in said:
                assert str(seat) not in got["lines"]
                continue
            want = _expected_cells(states[t - 1], seat, said["pv"], width)
            assert got["lines"][str(seat)] == want, (t, seat, said["pv"])
            checked += 1
        text = pg.text_content("#v-pv-status")
        if got["lines"]:
            assert "expected" in text and "depth" in text
        else:
            assert text == "Expected: no line reported for this turn."
    assert checked >= len(turns) // 2
    # the key toggles it off, and the choice is remembered across a reload
    pg.keyboard.press("e")
    assert pg.get_attribute("#v-pv", "aria-pressed") == "false"
    pg.keyboard.press("e")
    pg.reload()
    pg.wait_for_selector("#board[data-ready='1']")
    assert pg.get_attribute("#v-pv", "aria-pressed") == "true"
    assert _turn(pg, 2)["on"] is True
    assert errors == []
    pg.close()


def test_a_hostile_page_draws_what_it_can_and_says_what_it_dropped(
    browser, tmp_path, tron_game
):
    from atlas.api.display import replay_page

    record = tron_game
    html = replay_page(record)
    start = html.index('id="replay-data">') + len('id="replay-data">')
    end = html.index("</script>", start)
    data = read_page_json(html[start:end])
    n = record.game_map().width * record.game_map().height

    def z(d: int) -> int:
        return 2 * d if d >= 0 else -2 * d - 1

    # turn 1: seat 0 names 1,000 cells (13 on the board then one far off), seat 1 a
    # line whose second cell is negative; turn 2: a count and no cells (the stream ends)
    stream = [1000] + [z(5)] + [z(1)] * 12 + [z(10 * n)] + [z(1)] * 986
    stream += [2, z(3), z(-50)]
    stream += [99]
    data["pv"] = base64.b64encode(varints(stream)).decode("ascii")
    data["pv_dropped"] = [[1, 0, "x"], [1, 1, 1e99], [2, 1, 4], "no", None]
    html = html[:start] + script_json(data) + html[end:]
    pg, errors = _page(browser, tmp_path, html, "hostile")
    pg.click("#v-pv")
    got = _turn(pg, 1)
    cells: list[int] = []
    for j, d in enumerate([5] + [1] * 11):  # each cell a step from the cell two before
        cells.append((cells[j - 2] if j >= 2 else 0) + d)
    assert got["lines"]["0"] == cells
    assert got["dropped"]["0"] == 1000 - 12
    assert got["lines"]["1"] == [3]
    assert got["dropped"]["1"] == 1
    assert all(0 <= c < n for line in got["lines"].values() for c in line)
    assert "not drawn" in pg.text_content("#v-pv-status")
    got = _turn(pg, 2)
    assert got["lines"] == {"1": []} and got["dropped"] == {"1": 4}
    assert _turn(pg, 3)["lines"] == {}
    assert errors == []
    pg.close()


def test_a_forced_end_is_said_in_words_not_as_a_raw_score(browser, tmp_path):
    # connect5's strong bot solves connect-four endings: on a turn whose report says
    # mate, the seats panel and the Expected line say "win in N plies", never 999...
    from atlas.api.display import replay_page

    game_map = read_map(MAPS / "connect5" / "connect4.txt", game="connect5")
    effort = bot_effort("connect5", "strong")
    record = play_game("connect5", game_map, ["strong", "strong"], seed=2, effort=effort)
    found = [
        (i + 1, seat, said["mate"])
        for i, turn in enumerate(record.turns)
        for seat, said in turn.info.items()
        if "mate" in said
    ]
    assert found
    pg, errors = _page(browser, tmp_path, replay_page(record), "mate")
    pg.click("#v-pv")
    for t, seat, mate in found[:4]:
        _turn(pg, t)
        n = abs(mate)
        words = f"{'win' if mate > 0 else 'loss'} in {n} {'ply' if n == 1 else 'plies'}"
        cell = pg.text_content(f"#v-seats tbody tr:nth-child({seat + 1}) td[data-k='score']")
        assert cell == words
        # the notebook's page has no table of moves: the seats panel reads the data's
        moved = pg.text_content(f"#v-seats tbody tr:nth-child({seat + 1}) td[data-k='move']")
        played = record.turns[t - 1].moves.get(seat)
        assert moved == (f"col {played}" if played is not None else "—")
        assert f"score a forced {words}" in pg.text_content("#v-pv-status")
    assert errors == []
    pg.close()
