"""A course's season: more players than a head-to-head matrix can show (issue 33's
300-student round robin).  The standings page shows the ranking and says where the
head-to-head results are; each player's page lists the opponents it met, with the
results the games give."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from render_helpers import play_record

from atlas.maps import parse_map
from atlas.render.site import pages
from atlas.render.site.build import build_site
from atlas.sim.records import save_record

SMALL = "7 5\n#######\n#1    #\n#     #\n#    2#\n#######\n"


@pytest.fixture(scope="module")
def season(tmp_path_factory):
    """36 players, 60 games of random pairs on a small tron room."""
    import numpy as np

    tmp = tmp_path_factory.mktemp("season")
    (tmp / "maps" / "tron").mkdir(parents=True)
    (tmp / "maps" / "tron" / "room.txt").write_text(SMALL)
    gm = parse_map(SMALL, game="tron", name="room")
    rng = np.random.default_rng(5)
    names = [f"student{k:02d}" for k in range(36)]
    recs = tmp / "records"
    recs.mkdir()
    games = []
    for seed in range(60):
        a, b = rng.choice(len(names), 2, replace=False)
        rec = play_record("tron", gm, seed=seed, players=(names[a], names[b]))
        save_record(rec, recs / f"g{seed:02d}.json")
        games.append(rec)
    site = tmp / "site"
    build_site(
        tmp / "maps",
        site,
        records_dir=recs,
        cache_dir=tmp / "cache",
        tournament=False,
        progress=False,
        log=lambda m: None,
    )
    return site, games, names


def test_the_standings_page_leaves_out_a_matrix_past_the_limit(season):
    site, games, names = season
    played = {p.name for rec in games for p in rec.players}
    assert len(played) > pages.H2H_MAX
    text = (site / "standings.html").read_text()
    assert 'class="plain h2h"' not in text
    n = len(played)
    assert f"With {n} players the table would have {n * n} cells" in text


def test_each_player_page_lists_the_opponents_it_met_with_their_results(season):
    site, games, names = season
    results: dict[str, Counter] = {}
    for rec in games:
        a, b = (p.name for p in rec.players)
        w = rec.result.winner
        for me, other, seat in ((a, b, 0), (b, a, 1)):
            col = "d" if w is None else "w" if w == seat else "l"
            results.setdefault(me, Counter())[(other, col)] += 1
    checked = 0
    for name in names:
        page = site / "bots" / f"tron-{name}.html"
        if name not in results:
            continue
        text = page.read_text()
        section = text.split("Against each opponent", 1)[1].split("</table>", 1)[0]
        rows = re.findall(
            r'<tr><td><a href="[^"]+">([^<]+)</a></td><td class="num">(\d+)</td>'
            r'<td class="num">(\d+)</td><td class="num">(\d+)</td></tr>',
            section,
        )
        met = sorted({other for other, _ in results[name]})
        assert sorted(r[0] for r in rows) == met
        for other, wins, draws, losses in rows:
            got = results[name]
            assert (int(wins), int(draws), int(losses)) == (
                got[(other, "w")],
                got[(other, "d")],
                got[(other, "l")],
            )
        checked += 1
    assert checked >= 30


def test_a_small_table_keeps_its_matrix():
    t = {
        "names": ["a", "b"],
        "h2h": {"a": {"a": [0, 0, 0], "b": [1, 0, 0]}, "b": {"a": [0, 0, 1], "b": [0, 0, 0]}},
    }
    assert pages.opponents_met(t, "a") == ["b"]
    t["h2h"]["a"]["b"] = [0, 0, 0]
    assert pages.opponents_met(t, "a") == []


def test_opponents_are_listed_by_name_whatever_the_names_hold():
    names = ["bot10", "Bot2", "bot2", "a", "bot" + "9" * 5000, "bot" + "1" * 5001, "", "b٣"]
    t = {"names": ["me", *names], "h2h": {"me": {n: [0, 1, 0] for n in names}}}
    # digits by their value (bot2 before bot10, 5,000 nines before 5,001 ones), case
    # aside, ties by the name itself; the standings' order plays no part
    assert pages.opponents_met(t, "me") == [
        "",
        "a",
        "b٣",
        "Bot2",
        "bot2",
        "bot10",
        "bot" + "9" * 5000,
        "bot" + "1" * 5001,
    ]
    t["names"] = ["me", *reversed(names)]
    assert pages.opponents_met(t, "me")[-1] == "bot" + "1" * 5001


def _rebuild(season_root, site):
    return build_site(
        season_root / "maps",
        site,
        records_dir=season_root / "records",
        cache_dir=season_root / "cache",
        tournament=False,
        progress=False,
        log=lambda m: None,
    )


def test_a_rebuild_takes_the_standings_from_the_cache(season, monkeypatch):
    """The season's table is kept by its games: a rebuild of the same games computes
    none (a computation would fail here) and writes the same page."""
    import atlas.arena.tournament as tournament

    site, _games, _names = season
    before = (site / "standings.html").read_bytes()

    def no_table(*args, **kwargs):
        raise AssertionError("the standings were computed again")

    monkeypatch.setattr(tournament, "standings", no_table)
    result = _rebuild(site.parent, site)
    assert result.cache_misses == 0
    assert (site / "standings.html").read_bytes() == before


def test_kept_standings_read_back_equal_and_damage_is_a_miss(season):
    from atlas.arena.tournament import standings as table_of

    site, games, _names = season
    table = table_of(games)
    assert pages._standings_of(pages._standings_json(table)) == table
    # through JSON's text, as the cache keeps it: every float as it was
    import json

    text = json.dumps(pages._standings_json(table))
    assert pages._standings_of(json.loads(text)) == table
    for damaged in (
        None,
        [],
        [1, 2, 3, 4, 5, 6, 7],
        {"rows": []},
        [[["x"]], {}, 0, "m", [], [], None],
    ):
        assert pages._standings_of(damaged) is None


def test_damaged_kept_standings_are_computed_again(season):
    site, _games, _names = season
    before = (site / "standings.html").read_bytes()
    kept = list((site.parent / "cache").rglob("standings/*/*"))
    assert kept  # the season's table is kept
    for f in kept:
        f.write_bytes(b'[["not", "a table"]]')
    _rebuild(site.parent, site)
    assert (site / "standings.html").read_bytes() == before
    # and kept again, whole
    import json

    assert all(pages._standings_of(json.loads(f.read_bytes())[1]) is not None for f in kept)


def test_a_rebuild_renders_no_player_page_whose_content_it_knows(season, monkeypatch):
    """Each player's page is keyed by what it shows: a rebuild of the same games
    renders none of them (rendering one would fail here), and a new game rewrites the
    pages of the players it changed, with their new counts."""
    site, games, names = season
    bots = sorted((site / "bots").glob("*.html"))
    before = {p.name: p.read_bytes() for p in bots}
    real = pages.environment

    def no_bot_pages():
        env = real()
        get = env.get_template

        def get_template(name, *args, **kwargs):
            assert name != "bot.html", "a player's page was rendered again"
            return get(name, *args, **kwargs)

        env.get_template = get_template
        return env

    with monkeypatch.context() as m:
        m.setattr(pages, "environment", no_bot_pages)
        _rebuild(site.parent, site)
    assert {p.name: p.read_bytes() for p in bots} == before
    # one more game: its players' pages say so
    recs = site.parent / "records"
    gm = parse_map(SMALL, game="tron", name="room")
    extra = play_record("tron", gm, seed=99, players=(names[0], names[1]))
    save_record(extra, recs / "extra.json")
    try:
        _rebuild(site.parent, site)
        played = Counter(p.name for rec in [*games, extra] for p in rec.players)
        for name in (names[0], names[1]):
            page = next(site / "bots" / f for f in before if f.endswith(f"-{name}.html"))
            text = page.read_text()
            assert f'<h2>Games <span class="count">{played[name]}</span></h2>' in text
            assert page.read_bytes() != before[page.name]
        # the table of the new games replaced the old one: one entry a game
        assert len(list((site.parent / "cache").rglob("standings/*/*"))) == 1
    finally:
        (recs / "extra.json").unlink()
        _rebuild(site.parent, site)


def test_the_opponents_rows_are_the_template_loop_they_replace():
    """Written in Python for speed, the rows are what the template's loop wrote,
    escaping included (names and page names come from files)."""
    import jinja2

    met = [
        ["a<b>&c", "tron-a-b-c", [3, 0, 1]],
        ['q"uote', "tron-q-uote", [0, 2, 0]],
        ["plain", "tron-plain", [0, 0, 5]],
    ]
    loop = jinja2.Environment(autoescape=True).from_string(
        '{% for b, slug, x in met %}<tr><td><a href="{{ slug }}.html">{{ b }}</a></td>'
        '<td class="num">{{ x[0] }}</td><td class="num">{{ x[1] }}</td>'
        '<td class="num">{{ x[2] }}</td></tr>{% endfor %}'
    )
    assert str(pages.opponent_rows(met)) == loop.render(met=met)
    assert "a&lt;b&gt;&amp;c" in pages.opponent_rows(met)
    assert pages.opponent_rows([]) == ""
