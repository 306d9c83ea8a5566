"""The site's fairness: each map's section, the index badges, the per-game comparison, the
validation page's column, the fairness games kept out of the standings, and the cache."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from render_helpers import read_site_index

from atlas.render.site.build import STAGES, build_site
from atlas.render.site.fairness import interval_svg, symmetry_svg
from tests.conftest import TickClock

#: Seat 1 has a room of 18 cells, seat 2 one of 9.
LOPSIDED = "12 5\n############\n#1     #  2#\n#      #   #\n#      #   #\n############\n"
#: Mirror-symmetric: flip-lr carries each start onto the other (the walls rule out the rest).
EVEN = "9 5\n#########\n#1     2#\n#  # #  #\n#       #\n#########\n"
OUTPOST_WATER = [f"{x} {y}" for x in range(15, 35) for y in range(15, 40)]


def _build(root: Path, **kw):
    return build_site(
        root / "maps",
        root / "out",
        cache_dir=root / "cache",
        progress=False,
        games=1,
        jobs=1,
        bots={
            "tron": ["random", "wallhugger"],
            "isolation": ["random", "other=random"],
            "connect5": [],
            "outpost": [],
        },
        time_limit=0.05,
        log=lambda m: None,
        **kw,
    )


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Two builds of three games' maps, played in this process (``jobs=1``) on the
    injected clock (a deadline is a budget of clock reads: no result hangs on the
    machine's speed)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(time, "perf_counter", TickClock())
        yield from _built(tmp_path_factory)


def _built(tmp_path_factory):
    root = tmp_path_factory.mktemp("fair")
    (root / "maps" / "tron").mkdir(parents=True)
    (root / "maps" / "outpost").mkdir(parents=True)
    (root / "maps" / "isolation").mkdir(parents=True)
    (root / "maps" / "isolation" / "tiny.txt").write_text(
        "isolation 5 5 queen\n1....\n.....\n..#..\n.....\n....2\n"
    )
    (root / "maps" / "tron" / "lopsided.txt").write_text(LOPSIDED)
    (root / "maps" / "tron" / "even.txt").write_text(EVEN)
    (root / "maps" / "outpost" / "lake.txt").write_text("\n".join(OUTPOST_WATER) + "\n")
    first = _build(root, fairness=5)
    again = _build(root, fairness=5)
    yield root, first, again


def _entry(result, name):
    return next(m for m in result.maps if m.name == name)


def test_every_map_has_a_section_with_its_evidence_and_verdict(built):
    root, result, _ = built
    lop = _entry(result, "lopsided")
    f = lop.fairness
    assert f["symmetries"] == [] and f["games"] == 5 and f["verdict"] == "favours seat 1"
    assert f["players"] == [
        {
            "seats": ["wallhugger", "wallhugger"],
            "groups": 5,
            "group_size": 1,
            "time": 0.05,
            "opening": 2,
        }
    ]
    # the tournament's one game on this map has no mirror game here: it does not count
    assert f["left_out"] == 1
    html = (root / "out" / lop.page).read_text()
    section = html[html.index('id="fairness"') : html.index("Games on this map")]
    assert "favours seat 1" in section and "from 5 games" in section
    assert "No symmetry of the board" in section
    # each game behind the verdict is linked, and its page exists
    links = re.findall(r'href="\.\./(games/[^"#]+\.html)"', section)
    assert len(links) == 5 and all((root / "out" / p).is_file() for p in links)
    assert section.count('<svg class="bar"') == 2  # a bar per seat
    even = _entry(result, "even").fairness
    assert even["symmetries"] == ["flip-lr"] and even["seat_classes"] == [[1, 2]]
    assert even["games"] == 5
    assert "line" in even["symmetry_svg"]  # the mirror's axis is drawn
    # no bots for Outpost: its section states the structure and that nothing was played
    lake = _entry(result, "lake").fairness
    assert {"rot90", "rot180"} <= set(lake["symmetries"]) and lake["games"] == 0
    assert [f["value"] for f in lake["facts"]] == [True]
    page = (root / "out" / _entry(result, "lake").page).read_text()
    assert "No played evidence" in page and "from no games" in page


def test_the_tournament_s_pairs_count_beside_the_fairness_games(built):
    root, result, _ = built
    tiny = _entry(result, "tiny")
    f = tiny.fairness
    # the tournament played both seatings with seed 0 (a pair), the fairness games
    # five games of the last bot against itself: six groups of two sizes
    assert (f["games"], f["groups"], f["group_size"], f["left_out"]) == (7, 6, 0, 0)
    assert [(p["seats"], p["groups"], p["group_size"], p["opening"]) for p in f["players"]] == [
        (["random", "other"], 1, 2, 0),
        (["other", "other"], 5, 1, 2),
    ]
    html = (root / "out" / tiny.page).read_text()
    assert "from 7 games in 6 groups" in html
    assert "1 pair random vs other, 0.05 s a move" in html
    assert "5 games other vs other, 0.05 s a move, first 2 moves random" in html
    assert "the seats take turns, seat 1 first" in html


def test_the_index_badges_and_the_comparison_page(built):
    root, result, _ = built
    index = (root / "out" / "index.html").read_text()
    assert "favours seat 1 · 5 games" in index and "no fairness games" in index
    assert 'href="fairness/tron.html"' in index
    page = (root / "out" / "fairness" / "tron.html").read_text()
    assert page.count('class="fair-map"') == 2
    assert "Voronoi cells" in page and "17 : 8" in page
    assert (root / "out" / "fairness" / "outpost.html").is_file()


def test_the_validation_page_shows_each_valid_submission_s_fairness(built):
    root, result, _ = built
    html = (root / "out" / "validation.html").read_text()
    row = html[html.index("lake.txt") : html.index("</tr>", html.index("lake.txt"))]
    assert "no fairness games" in row and "#fairness" in row
    assert "quarters rotate: yes" in html


def test_fairness_games_are_kept_out_of_the_standings_and_badged(built):
    root, result, _ = built
    fair = [g for g in result.games if g.origin == "fairness"]
    assert len(fair) == 15
    tron = [g for g in fair if g.record.game == "tron"]
    assert len(tron) == 10
    assert all(p.name == "wallhugger" for g in tron for p in g.record.players)
    standings = (root / "out" / "standings.html").read_text()
    # the tournament's games alone: tron's two (one per map), not twelve
    tron_part = standings[standings.index('id="tron"') :]
    assert "2 games" in tron_part[:2000] and "12 games" not in standings
    data = read_site_index(root / "out")
    assert sum(1 for g in data["games"] if g[7] == "fairness") == 15
    assert sum(1 for g in data["games"] if g[7] == 0) == 4


def test_a_rebuild_plays_nothing_and_says_the_same(built):
    root, first, again = built
    assert "fairness" in dict(STAGES) and "fairness" in again.stages
    assert [m.fairness for m in again.maps] == [m.fairness for m in first.maps]
    assert again.cache_misses == 0


def test_the_pictures():
    svg = symmetry_svg((5, 9), [(1, 1), (3, 7)], ["rot180", "flip-lr", "flip-ud"])
    assert svg.count("<line") == 2 and "180°" in svg and svg.count("<circle") == 2
    assert 'viewBox="0 0 9 5"' in svg
    bar = interval_svg(1, 0.7, 0.6, 0.8, 0.5)
    # the dot at 0.7 of a 232-pixel scale starting at 4, the band from 0.6 to 0.8
    assert 'cx="166.4"' in bar and 'x="143.2"' in bar and 'width="46.4"' in bar
    assert "seat 1: 0.70, 95 % interval 0.60 to 0.80" in bar
