"""atlas build: every map and game published, relative links, escaping, cache, atomicity."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest
from markupsafe import escape
from render_helpers import TRON25, play_record, read_site_index

from atlas.cli import main
from atlas.fsutil import default_mode
from atlas.maps import parse_map, write_map
from atlas.render.site.build import build_site
from atlas.render.site.pages import slugify
from atlas.render.viewer import read_page_json
from atlas.sim.records import save_record

OUTPOST_WATER = [f"{x} {y}" for x in range(15, 35) for y in range(15, 40)]


def _maps(root: Path) -> Path:
    maps = root / "maps"
    for game in ("tron", "isolation", "connect5", "outpost"):
        (maps / game).mkdir(parents=True)
    (maps / "tron" / "pillars.txt").write_text(TRON25)
    (maps / "tron" / "small.txt").write_text(
        "9 5\n#########\n#1  #  2#\n#   #   #\n#       #\n#########\n"
    )
    (maps / "tron" / "broken.txt").write_text("5 5\n#####\n")
    (maps / "tron" / "<b>odd & name.txt").write_text("5 3\n#####\n#1 2#\n#####\n")
    (maps / "isolation" / "tiny.txt").write_text(
        "isolation 5 5 queen\n1....\n.....\n..#..\n.....\n....2\n"
    )
    (maps / "connect5" / "small.txt").write_text("connect5 6 5 4\n")
    (maps / "outpost" / "lake.txt").write_text("\n".join(OUTPOST_WATER) + "\n")
    (maps / "outpost" / "bad.txt").write_text("0 0\n3 4\n60 2\n")
    return maps


#: (width, height) of the maps the games below are played on, from their files' text.
SIZES = {
    ("tron", "pillars"): (25, 25),
    ("tron", "small"): (9, 5),
    ("tron", "<b>odd & name"): (5, 3),
    ("isolation", "tiny"): (5, 5),
    ("outpost", "lake"): (100, 100),
}


def _records(root: Path) -> Path:
    recs = root / "records"
    recs.mkdir()
    gm = parse_map(TRON25, game="tron", name="pillars")
    rec = play_record(
        "tron",
        gm,
        seed=1,
        players=("<script>alert(1)</script>", "plain"),
        stderr=("SECRET-STDERR-TEXT", ""),
    )
    save_record(rec, recs / "imported.json")
    iso = parse_map(
        "isolation 5 5 queen\n1....\n.....\n..#..\n.....\n....2\n",
        game="isolation",
        name="tiny",
    )
    save_record(play_record("isolation", iso, seed=2), recs / "iso.json.gz")
    lake = parse_map("\n".join(OUTPOST_WATER) + "\n", game="outpost", name="lake")
    save_record(play_record("outpost", lake, seed=3, params={"T": 40}), recs / "op.json")
    (recs / "garbage.json").write_text("{not json")
    return recs


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("site")
    maps, recs = _maps(root), _records(root)
    out = root / "out"
    result = build_site(
        maps,
        out,
        records_dir=recs,
        cache_dir=root / "cache",
        progress=False,
        games=1,
        jobs=1,
        bots={"tron": ["random", "wallhugger"], "isolation": [], "connect5": [], "outpost": []},
        time_limit=0.05,
        log=lambda m: None,
    )
    return root, maps, recs, out, result


def _pages(out: Path) -> list[Path]:
    return sorted(out.rglob("*.html"))


def test_index_shows_every_map_and_errors(built):
    root, maps, recs, out, result = built
    html = (out / "index.html").read_text()
    for p in maps.rglob("*.txt"):
        assert f'data-map="{escape(p.stem)}"' in html, p.stem
    broken = next(m for m in result.maps if m.name == "broken")
    assert not broken.ok
    page = (out / broken.page).read_text()
    assert "expected 5 rows" in page
    assert any("broken.txt" in p for p in result.problems)


def test_map_page_has_pictures_figures_and_games(built):
    root, maps, recs, out, result = built
    m = next(m for m in result.maps if m.name == "pillars")
    page = (out / m.page).read_text()
    for kind in ("plain", "voronoi"):
        assert m.images[kind] in page
        assert (out / m.images[kind]).stat().st_size > 100
    assert str(m.figures["free"]) in page
    # the imported game and the tournament game on this map are listed (the table is
    # drawn by a script; the links are in the page for readers without scripts)
    assert len(m.games) == 2
    for g in m.games:
        assert g.page in page
    # a GIF at build time for the featured game alone (atlas build --gifs featured)
    assert m.featured is not None and m.featured.gif and (out / m.featured.gif).exists()
    assert [g for g in m.games if g.gif] == [m.featured]
    assert m.featured.gif in page
    assert 'data-map="tron-pillars"' in page and 'data-fixed="game,map"' in page
    origins = {g.origin for g in m.games}
    assert origins == {"tournament", "imported"}


def test_tournament_main_round_and_standings(built):
    root, maps, recs, out, result = built
    tour = [g for g in result.games if g.origin == "tournament"]
    valid_tron = [m for m in result.maps if m.game == "tron" and m.ok]
    # tron's plan: one main-round game per map, the seatings dealt out in turn
    assert len(tour) == len(valid_tron) == 3
    seatings = [tuple(p.name for p in g.record.players) for g in tour]
    assert seatings == [
        ("random", "wallhugger"),
        ("wallhugger", "random"),
        ("random", "wallhugger"),
    ]
    assert sorted(g.record.map.name for g in tour) == sorted(m.name for m in valid_tron)
    page = (out / "standings.html").read_text()
    wins = {n: 0 for n in ("random", "wallhugger")}
    for g in tour:
        if g.record.result.winner is not None:
            wins[g.record.players[g.record.result.winner].name] += 1
    table = page[page.index('<table class="plain standings">') :]
    head = re.findall(r"<th[^>]*>([^<]*)</th>", table[: table.index("</thead>")])
    row = re.search(r"<tr><td>\d+</td><td><a [^>]*>wallhugger</a></td>(.*?)</tr>", table)
    assert row is not None
    cells = dict(zip(head[2:], re.findall(r"<td[^>]*>([^<]*)</td>", row.group(1))))
    assert int(cells["games"]) == len(tour)
    assert int(cells["wins"]) == wins["wallhugger"]
    bots = {p.name for p in (out / "bots").iterdir()}
    assert any(n.startswith("tron-wallhugger") for n in bots)


def test_names_are_escaped_and_stderr_is_not_published(built):
    root, maps, recs, out, result = built
    for page in _pages(out):
        text = page.read_text()
        assert "<script>alert(1)</script>" not in text
        assert "<b>odd" not in text
        assert "SECRET-STDERR-TEXT" not in text
    game = next(g for g in result.games if g.origin == "imported" and g.record.game == "tron")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in (out / game.page).read_text()
    for f in out.rglob("*"):
        if f.is_file():
            assert b"SECRET-STDERR-TEXT" not in f.read_bytes()
    assert any("garbage.json" in p for p in result.problems)


def test_links_are_relative_and_resolve(built):
    root, maps, recs, out, result = built
    for page in _pages(out):
        text = page.read_text()
        assert "http://" not in text and "https://" not in text, page
        for ref in re.findall(r'(?:href|src)="([^"]+)"', text):
            assert not ref.startswith("/"), (page, ref)
            target = ref.split("#")[0]
            if target:
                assert (page.parent / target).resolve().exists(), (page, ref)


def _viewer_json(text: str) -> dict:

    blob = re.search(
        r'<script type="application/json" id="replay-data">(.*?)</script>', text, re.S
    ).group(1)
    assert "<" not in blob
    return read_page_json(blob)


def test_game_page_has_viewer_data_and_moves(built):
    from render_helpers import rule_of, unpack_viewer

    from atlas.render.replay import record_frames
    from atlas.render.site.pages import _move_text
    from atlas.sim.records import replay_states

    root, maps, recs, out, result = built
    for g in result.games:
        text = (out / g.page).read_text()
        data = _viewer_json(text)
        gm = g.record.game_map()
        assert (data["w"], data["h"]) == (gm.width, gm.height)
        assert (data["w"], data["h"]) == SIZES[gm.game, gm.name]  # the map files' sizes
        assert data["count"] == len(g.record.turns) + 1 == data["last"] + 1
        # the moves' rows are the viewer's to write, from the data: each seat's move
        seats = len(g.record.players)
        assert '<tr id="move-' not in text and 'id="v-moves"' in text
        assert data["moves"] == [
            [_move_text(t.moves[k], gm.game) if k in t.moves else None for k in range(seats)]
            for t in g.record.turns
        ]
        assert 'id="v-controls"' in text and 'id="v-chart"' in text
        grids, _ = unpack_viewer(data, rule_of(g.record))
        last = list(record_frames(g.record, replay_states(g.record)))[-1]
        assert (grids[-1] == last.grid).all()
    for js in ("viewer.js", "site.js"):
        assert "fetch(" not in (out / "static" / js).read_text()


def test_game_page_shows_bot_info_and_the_record(built):
    import json

    from atlas.sim.records import load_record

    root, maps, recs, out, result = built
    g = next(
        g
        for g in result.games
        if "wallhugger" in [p.name for p in g.record.players] and g.record.map.name == "pillars"
    )
    seat = [p.name for p in g.record.players].index("wallhugger")
    text = (out / g.page).read_text()
    data = _viewer_json(text)
    # the wallhugger says it searched nothing: depth 0 every move
    assert set(data["info"][seat]["depth"]) == {0}
    assert len(data["info"][seat]["depth"]) == len(g.record.turns)
    assert '<th class="num">depth</th>' in text
    # the record next to the page: public, loadable, the same game
    assert f'href="../{g.record_file}" download' in text
    loaded = load_record(out / g.record_file)
    assert loaded.turns == g.record.turns and loaded.stderr == ("", "")
    assert g.record_file.endswith(".json.gz")
    assert "stderr" not in json.loads(gzip.decompress((out / g.record_file).read_bytes()))
    # a map-less random game reports nothing: no depth column
    plain = next(g for g in result.games if g.origin == "imported" and g.record.game == "tron")
    assert '<th class="num">depth</th>' not in (out / plain.page).read_text()


def test_site_index_lists_every_map_bot_and_game(built):
    root, maps, recs, out, result = built
    text = (out / "site-index.js").read_text()
    assert text.startswith("window.ATLAS_INDEX = ") and "<" not in text
    data = read_site_index(out)
    assert [m[0] for m in data["maps"]] == [m.slug for m in result.maps]
    assert [g[0] for g in data["games"]] == [g.ident for g in result.games]
    for row, g in zip(data["games"], result.games):
        assert [data["bots"][b][1] for b in row[3]] == [p.name for p in g.record.players]
        assert row[2] == g.record.map.name
        assert row[6] == len(g.record.turns)
        assert data["reasons"][row[5]] == g.record.result.reason
        assert row[7] == (0 if g.origin == "tournament" else g.origin)
        assert g.origin in ("tournament", "imported")
        if g.map_slug:
            assert data["maps"][row[1]][0] == g.map_slug
    for page in ("index.html", "games.html"):
        assert 'src="site-index.js"' in (out / page).read_text()


def test_the_site_index_comes_in_parts_and_compact(monkeypatch):
    """Games in parts of INDEX_PART, idents without their map's slug, map names only
    where they differ from the map's: what a page loads for 20,000 games stays small."""
    from atlas.render.site import pages

    monkeypatch.setattr(pages, "INDEX_PART", 2)
    maps = [["tron-duel", "duel", "tron", 3]]
    rows = [
        ["tron-duel-aaaa", 0, "duel", [0, 1], 0, 0, 12, 0],
        ["tron-duel-bbbb-2", 0, "duel", [1, 0], -1, 1, 7, 1],
        ["tron-lost-cccc", -1, "lost", [0, 1], 1, 0, 3, 1],
    ]
    files = pages.index_files(
        {"titles": {}, "maps": maps, "bots": [], "reasons": ["crash", "draw"], "games": rows}
    )
    assert sorted(files) == ["index/games-0.js", "index/games-1.js", "site-index.js"]
    assert (
        '\\"parts\\":[\\"index/games-0.js\\",\\"index/games-1.js\\"]' in files["site-index.js"]
    )
    assert files["index/games-0.js"] == (
        'ATLAS_PART(0, JSON.parse("[[\\"aaaa\\",0,\\"\\",[0,1],0,0,12,0],'
        '[\\"bbbb-2\\",0,\\"\\",[1,0],-1,1,7,1]]"));\n'
    )
    assert '[\\"=tron-lost-cccc\\",-1,\\"lost\\"' in files["index/games-1.js"]


def test_map_pages_teach(built):
    root, maps, recs, out, result = built
    m = next(m for m in result.maps if m.name == "pillars")
    page = (out / m.page).read_text()
    nodes = []
    stack = list(m.chambers)
    while stack:
        c = stack.pop()
        nodes.append(c)
        stack += c["children"]
    assert f'data-chambers="{len(nodes)}"' in page and len(nodes) > 1
    # every chamber has a circle, except small dead ends drawn together
    tree = page[page.index('class="tree-box"') :]
    tree = tree[: tree.index("</svg>")]
    assert 2 <= tree.count("<circle ") <= len(nodes)
    assert f"at most {m.summary['parity_bound']['p1']} moves for seat 1" in page
    assert (out / m.images["parity"]).is_file()
    # the featured game is the best by the documented rule, and the page says why
    from atlas.render.site.build import featured_game

    assert m.featured is featured_game(m.games) and m.featured is not None
    assert f'href="../{m.featured.page}"' in page and "Featured:" in page
    lake = next(m for m in result.maps if m.name == "lake")
    assert lake.featured is not None and len(lake.overlays) == 4
    text = (out / lake.page).read_text()
    for _caption, src in lake.overlays:
        assert src in text and (out / src).stat().st_size > 500


def test_validation_page_lists_each_problem(built):
    from atlas.games.outpost.validation import validate_map_file

    root, maps, recs, out, result = built
    text = (out / "validation.html").read_text()
    for name in ("lake", "bad"):
        report = validate_map_file(maps / "outpost" / f"{name}.txt")
        for problem in report.errors + report.warnings:
            assert f"<code>{problem.rule}</code>" in text
    bad = next(m for m in result.maps if m.name == "bad")
    assert not bad.valid and (out / bad.images["validation"]).exists()
    # each submission's report, linked from the page, as `atlas validate --json` has it
    for name in ("lake", "bad"):
        m = next(m for m in result.maps if m.name == name)
        assert f'href="{m.report_file}"' in text
        data = json.loads((out / m.report_file).read_text())
        want = validate_map_file(maps / "outpost" / f"{name}.txt")
        assert data["file"] == f"{name}.txt" and data["valid"] == want.valid
        assert [p["rule"] for p in data["errors"]] == [p.rule for p in want.errors]


def test_warm_rebuild_hits_the_cache_and_is_fast(built):
    # "fast" as work not done, not as seconds: every analysis, game and picture comes
    # from the cache (a wall-clock bound would depend on the machine).
    root, maps, recs, out, result = built
    again = build_site(
        maps,
        out,
        records_dir=recs,
        cache_dir=root / "cache",
        progress=False,
        games=1,
        jobs=1,
        bots={"tron": ["random", "wallhugger"]},
        time_limit=0.05,
        log=lambda m: None,
    )
    assert again.cache_misses == 0 and again.cache_hits > 0
    assert [g.ident for g in again.games] == [g.ident for g in result.games]
    assert again.files_written == 0 and again.files_kept > 0


def test_build_options_run_the_stages_and_build_what_build_site_builds(built):
    """build_site's keywords are a BuildOptions; build() of that value runs the stages
    in order and writes the same site, byte for byte."""
    import dataclasses

    from atlas.render.site.build import STAGES, BuildOptions, build

    root, maps, recs, out, result = built
    options = BuildOptions(
        maps,
        root / "again",
        records_dir=recs,
        cache_dir=root / "cache",
        progress=False,
        games=1,
        jobs=1,
        bots={"tron": ["random", "wallhugger"], "isolation": [], "connect5": [], "outpost": []},
        time_limit=0.05,
        log=lambda m: None,
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.games = 2  # type: ignore[misc]
    again = build(options)
    assert list(again.stages) == [name for name, _ in STAGES]
    assert list(again.stages) == ["maps", "warm-up", "games", "replays", "fairness", "pages"]
    assert again.problems == [p.replace(str(out), str(root / "again")) for p in result.problems]

    def files(site: Path) -> dict[str, bytes]:
        return {
            str(p.relative_to(site)): p.read_bytes() for p in site.rglob("*") if p.is_file()
        }

    assert files(root / "again") == files(out)


def test_build_site_takes_the_fields_of_build_options_with_their_defaults():
    import dataclasses
    import inspect

    from atlas.render.site.build import BuildOptions

    fields = {f.name: f.default for f in dataclasses.fields(BuildOptions)}
    params = inspect.signature(build_site).parameters
    assert {name: p.default for name, p in params.items()} == fields
    assert list(params) == list(fields)


def test_adding_games_rewrites_only_what_changed(tmp_path):
    """A warm rebuild with ten more games writes their files and the pages that list
    them; every other file keeps its bytes and its modification time."""

    maps = tmp_path / "maps" / "tron"
    maps.mkdir(parents=True)
    (maps / "pillars.txt").write_text(TRON25)
    (maps / "small.txt").write_text(
        "9 5\n#########\n#1  #  2#\n#   #   #\n#       #\n#########\n"
    )
    recs = tmp_path / "records"
    recs.mkdir()
    gm = parse_map(TRON25, game="tron", name="pillars")
    small = parse_map((maps / "small.txt").read_text(), game="tron", name="small")
    for seed in range(3):
        save_record(play_record("tron", gm, seed=seed), recs / f"a{seed}.json")
    save_record(play_record("tron", small, seed=9), recs / "s.json")
    out = tmp_path / "site"

    def build():
        return build_site(
            tmp_path / "maps",
            out,
            records_dir=recs,
            cache_dir=tmp_path / "c",
            progress=False,
            tournament=False,
            log=lambda m: None,
        )

    first = build()
    before = {
        p: (p.stat().st_mtime_ns, p.stat().st_ino, p.read_bytes())
        for p in out.rglob("*")
        if p.is_file()
    }
    for seed in range(10, 20):
        save_record(play_record("tron", gm, seed=seed), recs / f"b{seed}.json")
    second = build()
    assert len(second.games) == len(first.games) + 10
    after = {
        p: (p.stat().st_mtime_ns, p.stat().st_ino, p.read_bytes())
        for p in out.rglob("*")
        if p.is_file()
    }
    changed = {str(p.relative_to(out)) for p in after if before.get(p) != after[p]}
    old_idents = {e.ident for e in first.games}
    new = [g for g in second.games if g.ident not in old_idents]
    assert len(new) == 10
    expected_new = {f for g in new for f in (g.page, g.gif, g.record_file) if f}
    assert expected_new <= changed
    pillars = next(m for m in second.maps if m.name == "pillars")
    rest = changed - expected_new
    # the pages that list games or count them, the site index, and the list of files
    assert rest <= {
        "index.html",
        "games.html",
        "standings.html",
        "site-index.js",
        "index/games-0.js",  # the part of the index the new games went into
        pillars.page,
        ".atlas-manifest.json",
        ".atlas-site.json",
    } | {f"bots/{p.name}" for p in (out / "bots").iterdir()}
    assert pillars.page in rest and "site-index.js" in rest
    # everything else: the same file (same inode, bytes and time)
    kept = [p for p in before if p in after and str(p.relative_to(out)) not in changed]
    assert len(kept) > 20
    small_page = next(m for m in second.maps if m.name == "small").page
    assert out / small_page in kept and all(before[p] == after[p] for p in kept)
    assert second.files_kept == len(kept)


def test_failed_build_leaves_previous_site(tmp_path, monkeypatch):
    maps = tmp_path / "maps" / "tron"
    maps.mkdir(parents=True)
    write_map(parse_map("5 3\n#####\n#1 2#\n#####\n", game="tron", name="a"), maps / "a.txt")
    out = tmp_path / "site"
    build_site(
        tmp_path / "maps",
        out,
        cache_dir=None,
        progress=False,
        tournament=False,
        log=lambda m: None,
    )
    before = (out / "index.html").read_text()
    # the site is moved into place from a private temporary folder: it must still be
    # readable by a web server running as another user (0o755 under the usual umask)
    assert out.stat().st_mode & 0o777 == default_mode(directory=True)

    def boom(*a, **k):
        raise RuntimeError("disk full")

    monkeypatch.setattr("atlas.render.site.pages.write_pages", boom)
    with pytest.raises(RuntimeError):
        build_site(
            tmp_path / "maps",
            out,
            cache_dir=None,
            progress=False,
            tournament=False,
            log=lambda m: None,
        )
    assert (out / "index.html").read_text() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["maps", "site"]


def test_cli_exit_status(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the default cache folder is created here
    empty = tmp_path / "none"
    empty.mkdir()
    o1 = str(tmp_path / "o1")
    assert (
        main(["build", "--maps", str(empty), "--out", o1, "--jobs", "1", "--games", "0"]) == 1
    )  # nothing could be built
    maps = tmp_path / "maps" / "tron"
    maps.mkdir(parents=True)
    (maps / "good.txt").write_text("5 3\n#####\n#1 2#\n#####\n")
    (maps / "bad.txt").write_text("oops\n")
    args = [
        "build",
        "--maps",
        str(tmp_path / "maps"),
        "--out",
        str(tmp_path / "o2"),
        "--jobs",
        "1",
        "--games",
        "0",
    ]
    assert main(args) == 0
    assert "bad.txt" in capsys.readouterr().err
    assert main(args + ["--strict"]) == 1


def test_slugify_is_safe_and_unique():
    taken: set[str] = set()
    assert slugify("Ring 2 / ../x", taken) == "ring-2-x"
    assert slugify("Ring 2 / ../x", taken) == "ring-2-x-2"
    assert slugify("<b>", taken) == "b"
    assert slugify("", None) == "x"
    # a text that is a slug already is itself (the fast way); any other text is made
    # one character at a time: the two ways agree on every text
    assert slugify("tron-room1-0123abcd", taken) == "tron-room1-0123abcd"
    assert slugify("tron-room1-0123abcd", taken) == "tron-room1-0123abcd-2"
    import random

    def by_hand(text):
        out = "".join(c if c in "abcdefghijklmnopqrstuvwxyz0123456789-_" else "-" for c in text)
        out = out.strip("-_")
        while "--" in out:
            out = out.replace("--", "-")
        return out[:60] or "x"

    rng = random.Random(60)
    for _ in range(20000):
        text = "".join(rng.choice("ab09-_AZ é./") for _ in range(rng.randrange(0, 70)))
        assert slugify(text) == by_hand(text.lower()), text


def test_a_page_without_scripts_lists_its_first_100_games_only():
    from types import SimpleNamespace

    from atlas.render.site.pages import environment

    def game(k):
        head = SimpleNamespace(players=[SimpleNamespace(name="a"), SimpleNamespace(name="b")])
        return SimpleNamespace(page=f"games/g{k}.html", ident=f"g{k}", head=head)

    macro = environment().get_template("_macros.html").module.games_table
    for n, shown in ((3, 3), (100, 100), (2500, 100)):
        html = str(macro("../", fallback=[game(k) for k in range(n)]))
        assert html.count("<li>") == shown
        assert ("The first 100 of 2500 games" in html) == (n > 100)


def test_a_big_records_folder_is_read_again_where_drawn_and_builds_the_same(
    tmp_path, monkeypatch
):
    from atlas.render.site import sources

    (tmp_path / "maps" / "tron").mkdir(parents=True)
    write_map(parse_map(TRON25, game="tron", name="a"), tmp_path / "maps" / "tron" / "a.txt")
    recs = tmp_path / "recs"
    recs.mkdir()
    gm = parse_map(TRON25, game="tron", name="a")
    for seed in range(4):
        save_record(play_record("tron", gm, seed=seed), recs / f"g{seed}.json")

    def site(name: str) -> dict[str, bytes]:
        out = tmp_path / name
        build_site(
            tmp_path / "maps",
            out,
            records_dir=recs,
            cache_dir=tmp_path / f"{name}-cache",
            tournament=False,
            progress=False,
            log=lambda m: None,
        )
        return {str(p.relative_to(out)): p.read_bytes() for p in out.rglob("*") if p.is_file()}

    whole = site("whole")
    assert all(r.record is not None for r in sources.load_records(recs, []))
    monkeypatch.setattr(sources, "KEEP_WHOLE", 2)  # a "big" folder: heads only
    assert all(r.record is None for r in sources.load_records(recs, []))
    assert site("heads") == whole
