"""A game page of an imported Outpost game with failing players says who failed, on
which turn, how, and what the simulator did."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from atlas.games.outpost.painter import RENDER
from atlas.games.outpost.rules.traces import read_trace, trace_to_record
from atlas.maps import read_map
from atlas.render.site.build import build_site
from atlas.render.viewer import read_page_json
from atlas.sim.records import save_record

DATA = Path(__file__).resolve().parents[1] / "data"
TRACE = DATA / "outpost-traces" / "faults" / "moves-rot1_mapblob_r10L20W5.jsonl.gz"
DISBAND = DATA / "outpost-traces" / "faults" / "disband-mixed_mapblob_r10L0W0.jsonl.gz"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A site of two imported games: moves-rot1 (every move fault) and disband-mixed
    (bad disband answers), as {trace name: (record, page text)}."""
    root = tmp_path_factory.mktemp("faults-site")
    (root / "records").mkdir()
    records = {}
    for path in (TRACE, DISBAND):
        trace = read_trace(path)
        record = trace_to_record(
            trace, read_map(DATA / "outpost-maps" / f"{trace.map_name}.txt", game="outpost")
        )
        save_record(record, root / "records" / path.name.replace(".jsonl", ".json"))
        records[path.name] = record
    (root / "maps").mkdir()
    result = build_site(
        root / "maps",
        root / "out",
        records_dir=root / "records",
        cache_dir=root / "cache",
        progress=False,
        games=0,
        jobs=1,
        log=lambda m: None,
    )
    pages = {}
    for name, record in records.items():
        (game,) = [g for g in result.games if g.record == record]
        pages[name] = (record, (root / "out" / game.page).read_text())
    return pages


@pytest.fixture(scope="module")
def page(site):
    return site[TRACE.name]


def _rows(text: str) -> list[list[str]]:
    body = text.split('<section id="failures">')[1].split("</section>")[0]
    rows = re.findall(r"<tr class=\"fail-[^\"]*\">(.*?)</tr>", body, re.S)
    return [
        [
            html.unescape(re.sub(r"<[^>]+>", "", c)).strip()
            for c in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)
        ]
        for r in rows
    ]


def test_the_page_lists_every_failure_turn_by_turn(page):
    record, text = page
    rows = _rows(text)
    # seat 1 neg (1, 4, 9, 10, 41), seat 2 nulltarget (14, 19, 20; 41 not reached),
    # seat 3 nulllist (24, 29, 30; 41 not reached), seat 4 throw (34, 39, 40, 41)
    assert [int(r[0]) for r in rows] == [
        1,
        4,
        9,
        10,
        14,
        19,
        20,
        24,
        29,
        30,
        34,
        39,
        40,
        41,
        41,
        41,
        41,
    ]
    # no season asked anyone to disband: the steps are the turns
    assert all(r[0] == r[1] for r in rows)
    rows = [[r[0], *r[2:]] for r in rows]
    first = rows[0]
    assert first[1].endswith("neg@1,4,9,10,41:group5") and first[2] == "stopped the turn"
    assert first[3] == "entry 1 of 2, [-1, (0, 0)]: a negative index"
    assert first[4].startswith(
        "the simulator stopped the turn there; nobody had moved and the ownership stays "
        "empty (none computed yet)"
    )
    null = next(r for r in rows if r[0] == "24")
    assert null[2] == "returned null" and "players 1 and 2 had moved" in null[4]
    threw = next(r for r in rows if r[0] == "34")
    assert threw[2] == "threw"
    assert threw[4].endswith("the simulator caught the exception and the turn went on")
    assert sorted(r[2] for r in rows if r[0] == "41") == [
        "bad entry (not reached)",
        "returned null",
        "stopped the turn",
        "threw",
    ]
    # the turn links to the position after it (the viewer's #turn=N)
    assert '<a href="#turn=14">14</a>' in text


def test_the_page_says_each_players_summary_and_marks_the_moves(page):
    record, text = page
    section = text.split('<section id="failures">')[1].split("</section>")[0]
    for st in record.statuses:
        assert html.escape(st.detail) in section
    assert "java.lang.IllegalStateException: injected" in section
    # the failing seats' moves are marked in the moves table, with the effect as a title
    # (the viewer writes its rows from the page's data: each failure's turn, seat, title)
    data = read_page_json(text.split('id="replay-data">')[1].split("</script>")[0])
    assert len(data["failed"]) == 17
    assert all(record.statuses[seat].detail for _, seat, _ in data["failed"])
    assert any("returned null" in title for _, _, title in data["failed"])


def test_a_season_disband_question_is_a_step_of_its_own(site):
    record, text = site[DISBAND.name]
    rows = _rows(text)
    # turn 10 is step 10 (the disband question) and step 11 (the moves)
    assert [rows[0][0], rows[0][1], rows[0][3]] == ["10", "10", "bad disband answer"]
    assert rows[0][4] == "disband #99 (it has 1 outpost)"
    assert rows[0][5] == "nothing was disbanded and it did not move on turn 10"
    thrown = [r for r in rows if r[3] == "threw"]
    assert [r[:2] for r in thrown[:2]] == [["10", "11"], ["11", "12"]]
    assert '<a href="#turn=11">11</a>' in text
    assert record.turns[9].moves[0] == 99


def test_a_game_without_failures_lists_none():
    from atlas.sim.records import replay_states

    trace = read_trace(DATA / "outpost-traces" / "walk_map1_r10L20W5_rep0.jsonl.gz")
    record = trace_to_record(
        trace, read_map(DATA / "outpost-maps" / "map1.txt", game="outpost")
    )
    assert RENDER.failures(record, replay_states(record)) == []
    assert all(st.detail == "" for st in record.statuses)
