"""The site's evidence pages: the built-in standings with 95 % intervals, rank ranges
and the neighbours the games cannot separate; an organiser's tournament whose games
lost on time under load were voided; a game page that shows its late answers with their
CPU time, the machine's load and a verdict.  The load is injected; no test depends on
the machine's speed or load."""

from __future__ import annotations

import html
import json
import re
import sys
from pathlib import Path

import pytest
from render_helpers import play_record, random_mover, read_site_index

from atlas.arena import timing
from atlas.arena.competition import load_plan, run_plan
from atlas.arena.standings import standings
from atlas.maps import parse_map
from atlas.render.viewer import read_page_json
from atlas.sim.records import load_record, save_record

BOX = "7 5\n#######\n#1    #\n#     #\n#    2#\n#######\n"
#: A tron program that hangs on its third move.
SLEEPER = (
    Path(__file__).resolve().parents[1] / "arena" / "broken_bots" / "hangs_on_third_move.py"
)


def _random_game(players, seed):
    gm = parse_map(BOX, game="tron", name="box")
    chooser = random_mover("tron")
    return play_record(
        "tron", gm, seed, players=players, chooser=chooser, seconds=0.01, cpu=0.004
    )


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    from atlas.render.site.build import build_site

    root = tmp_path_factory.mktemp("evidence")
    (root / "maps" / "tron").mkdir(parents=True)
    (root / "maps" / "tron" / "box.txt").write_text(BOX)
    recs = root / "records"
    recs.mkdir()
    records = []
    for k, players in enumerate([("ann", "bob"), ("bob", "cat"), ("cat", "ann")] * 4):
        rec = _random_game(players, k)
        save_record(rec, recs / f"g{k:02d}.json")
        records.append(rec)
    league = root / "league"
    league.mkdir()
    (league / "maps").mkdir()
    (league / "maps" / "box.txt").write_text(BOX)
    (league / "cup.toml").write_text(
        f"""name = "Load cup"
game = "tron"
maps = ["maps/box.txt"]
time = 0.05
void_timeouts_under_load = 1.5

[[bots]]
name = "sleeper"
command = "{sys.executable} {SLEEPER}"

[[bots]]
name = "hug"
builtin = "wallhugger"
"""
    )
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(timing, "machine_load", lambda: (7.0, 2))
        run_plan(load_plan(league / "cup.toml"), root / "results", jobs=1)
    out = root / "site"
    build_site(
        root / "maps",
        out,
        records_dir=recs,
        tournaments=[root / "results"],
        cache_dir=root / "cache",
        progress=False,
        tournament=False,
        log=lambda m: None,
    )
    return out, records, root / "results"


def _text(page: Path) -> str:
    raw = re.sub(r"<script.*?</script>", " ", page.read_text(), flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", raw)).split())


def test_the_built_in_standings_show_intervals_ranks_and_what_cannot_be_told_apart(built):
    site, records, _ = built
    table = standings(records)
    text = _text(site / "standings.html")
    assert "95 % interval" in text and "ranks" in text and "LOS" in text
    for r in table.rows:
        ranks = str(r.rank_low) if r.rank_low == r.rank_high else f"{r.rank_low}–{r.rank_high}"
        assert f"{r.bot} {round(r.rating)} {round(r.low)} – {round(r.high)} {ranks}" in text
    assert table.separation_text()  # a dozen random games separate nobody
    for sentence in table.separation_text():
        assert f"{sentence[0].upper()}{sentence[1:]}." in text
    assert f"Intervals: {table.interval.text}." in text
    assert "seat-swapped" not in table.interval.text  # these games are not pairs
    bot = _text(next((site / "bots").glob("tron-ann*.html")))
    row = table.row("ann")
    assert f"[{round(row.low)}, {round(row.high)}], 95 % interval" in bot


def test_a_tournament_lists_its_voided_games_and_counts_them_for_no_one(built):
    site, _, results = built
    data = json.loads((results / "results.json").read_text())
    assert len(data["voided"]) == 2
    text = _text(next((site / "tournaments").glob("load-cup*.html")))
    assert "Voided games 2" in text
    assert "2 games voided (below) count for no one" in text
    for v in data["voided"]:
        assert v["why"] in text
    page = next((site / "tournaments").glob("load-cup*.html")).read_text()
    assert page.count(">voided</span>") == 2  # a badge on each in the games list
    # no game counted: every row has 0 games, and no interval is claimed
    assert "hug 1500 1500 – 1500 1 0 0 0 0 0.0" in text
    assert "No game counts here: no intervals." in text
    # the games list badges them with their tournament, as the tournament's page does
    games = read_site_index(site)["games"]
    assert sum(1 for g in games if g[7] == "tournament Load cup") == 2


def test_a_game_page_shows_its_late_answers_and_the_verdict(built):
    site, _, results = built
    data = json.loads((results / "results.json").read_text())
    recs = [load_record(results / v["record"]) for v in data["voided"]]
    pages = [p for p in (site / "games").glob("*.html") if "Late answers" in p.read_text()]
    assert len(pages) == 2
    seats = set()
    for page in pages:
        text = _text(page)
        assert "Late answers 1" in text
        assert "7.00 / 2" in text and "loaded machine · timed out" in text
        assert "Voided by its tournament, not counted: seat" in text
        raw = page.read_text()
        found = re.search(r'id="replay-data">(.*?)</script>', raw, re.S)
        assert found is not None and 'data-k="cpu"' in raw
        viewer = read_page_json(found.group(1))
        (entry,) = viewer["late"]
        # the sleeper's third answer (turn 3, counted from 1) in whichever seat it had
        assert entry[0] == 3 and entry[2:] == [0.05, 7.0, 2, "loaded machine"]
        seats.add(entry[1])
        rec = next(r for r in recs if r.players[entry[1]].name == "sleeper")
        assert rec.turns[2].late[entry[1]].load == 7.0
        assert len(viewer["cpu"][entry[1]]) == len(rec.turns)
    assert seats == {0, 1}
