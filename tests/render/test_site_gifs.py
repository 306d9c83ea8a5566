"""``atlas build --gifs {featured,all,none}``: which games get a GIF at build time.

Featured (the default) publishes each map's featured game's GIF alone, ``all`` every
game's, ``none`` none; every game page offers the browser's GIF button either way.
A GIF drawn with the viewer's frames (``--gifs all`` on a cold cache) and one drawn
later on its own (:func:`~atlas.render.site.replays.gif_of`) are the same bytes, so a
site's bytes do not depend on what its cache held.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from render_helpers import TRON25, play_record, random_mover

from atlas.cli import main
from atlas.errors import ArgumentError
from atlas.maps import parse_map
from atlas.render.site.build import build_site
from atlas.render.site.replays import gif_of, render_replay
from atlas.sim.records import save_record

SMALL = "9 5\n#########\n#1  #  2#\n#   #   #\n#       #\n#########\n"
TINY = "isolation 5 5 queen\n1....\n.....\n..#..\n.....\n....2\n"
WATER = "".join(f"{x} {y}\n" for x in range(15, 35) for y in range(15, 40))


def _inputs(root: Path) -> tuple[Path, Path]:
    maps, recs = root / "maps", root / "records"
    for game in ("tron", "isolation", "outpost"):
        (maps / game).mkdir(parents=True)
    recs.mkdir()
    (maps / "tron" / "pillars.txt").write_text(TRON25)
    (maps / "tron" / "small.txt").write_text(SMALL)
    (maps / "isolation" / "tiny.txt").write_text(TINY)
    (maps / "outpost" / "lake.txt").write_text(WATER)
    pillars = parse_map(TRON25, game="tron", name="pillars")
    for seed in range(3):
        save_record(play_record("tron", pillars, seed=seed), recs / f"p{seed}.json")
    small = parse_map(SMALL, game="tron", name="small")
    save_record(play_record("tron", small, seed=5), recs / "s.json")
    tiny = parse_map(TINY, game="isolation", name="tiny")
    iso = play_record("isolation", tiny, seed=2, chooser=random_mover("isolation"))
    save_record(iso, recs / "iso.json")
    lake = parse_map(WATER, game="outpost", name="lake")
    save_record(play_record("outpost", lake, seed=3, params={"T": 30}), recs / "op.json")
    return maps, recs


def _build(root: Path, out: str, cache: str | None, gifs: str = "featured"):
    return build_site(
        root / "maps",
        root / out,
        records_dir=root / "records",
        cache_dir=None if cache is None else root / cache,
        tournament=False,
        progress=False,
        jobs=1,
        gifs=gifs,  # type: ignore[arg-type]
        log=lambda m: None,
    )


@pytest.fixture(scope="module")
def root(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("gifs")
    _inputs(root)
    return root


def _gifs(out: Path) -> set[str]:
    return {p.name for p in (out / "img" / "games").glob("*.gif")}


def test_featured_games_alone_get_a_gif_by_default(root):
    result = _build(root, "featured", "cache")
    assert result.problems == []
    featured = [m.featured for m in result.maps if m.featured is not None]
    assert len(featured) == 4  # pillars, small, tiny and lake each feature one
    assert _gifs(result.out) == {f"{g.ident}.gif" for g in featured}
    assert {g.ident for g in result.games if g.gif} == {g.ident for g in featured}
    # every game page has the browser's button and its scripts, whatever the build drew
    font = (result.out / "static" / "gif-font.js").read_text()
    assert font.startswith("/* atlas") and "window.atlasGifFont" in font
    assert (result.out / "static" / "gif.js").is_file()
    for g in result.games:
        page = (result.out / g.page).read_text()
        # the viewer writes the button into #v-controls, named by the game
        assert f'<div id="v-controls" data-gif="{g.ident}"></div>' in page
        assert "static/gif.js" in page and "static/gif-font.js" in page
        assert (f"img/games/{g.ident}.gif" in page) == (g.gif is not None)
    for m in result.maps:
        if m.featured is not None:
            assert m.featured.gif in (result.out / m.page).read_text()


def test_all_gives_every_game_a_gif_and_none_gives_none(root):
    every = _build(root, "all", "cache", "all")
    assert every.problems == []
    assert _gifs(every.out) == {f"{g.ident}.gif" for g in every.games}
    assert all(g.gif for g in every.games)
    featured = _build(root, "featured", "cache")  # the cache's GIFs, the same bytes
    for g in featured.games:
        if g.gif:
            assert (featured.out / g.gif).read_bytes() == (every.out / g.gif).read_bytes()
    nothing = _build(root, "none", "cache", "none")
    assert nothing.problems == [] and _gifs(nothing.out) == set()
    assert not any(g.gif for g in nothing.games)
    m = next(m for m in nothing.maps if m.name == "pillars")
    assert m.featured is not None  # still featured, linked to its page, without a GIF
    page = (nothing.out / m.page).read_text()
    assert m.featured.page in page and "its page makes the GIF" in page


def test_a_site_of_gifs_is_the_same_bytes_whatever_its_cache_held(root):
    """Cold ``--gifs all`` draws each GIF with the viewer's frames; after a featured
    build the rest are drawn on their own: the sites are the same bytes."""
    cold = _build(root, "cold", "cold-cache", "all")
    _build(root, "warm", "warm-cache")
    warm = _build(root, "warm", "warm-cache", "all")

    def files(out: Path) -> dict[str, bytes]:
        return {str(p.relative_to(out)): p.read_bytes() for p in out.rglob("*") if p.is_file()}

    a, b = files(cold.out), files(warm.out)
    assert sorted(a) == sorted(b)
    assert [k for k in a if a[k] != b[k]] == []


def test_gif_of_is_the_gif_render_replay_draws():
    gm = parse_map(TRON25, game="tron", name="pillars")
    rec = play_record("tron", gm, seed=4)
    assert gif_of(rec) == render_replay(rec)[0]
    assert render_replay(rec, gif=False)[0] is None
    lake = parse_map(WATER, game="outpost", name="lake")
    long = play_record("outpost", lake, seed=1, params={"T": 130})  # sampled: 131 states
    assert gif_of(long) == render_replay(long)[0]


def test_an_unknown_choice_is_refused_by_the_build_the_api_and_the_cli(root, capsys):
    import atlas

    with pytest.raises(ArgumentError, match="gifs"):
        _build(root, "bad", None, "some")
    with pytest.raises(ArgumentError, match="gifs"):
        atlas.build_site(root / "maps", root / "bad", games=0, cache=None, gifs="some")  # type: ignore[arg-type]
    assert not (root / "bad").exists()
    with pytest.raises(SystemExit) as exc:
        main(["build", "--gifs", "some", "--out", str(root / "bad")])
    assert exc.value.code == 2
    assert "--gifs" in capsys.readouterr().err


def test_many_missing_gifs_are_drawn_by_workers(tmp_path):
    """``--gifs all`` after a featured build: the 50 GIFs the cache lacks are drawn by
    two worker processes, the same bytes as drawn here."""
    from atlas.render.site.replays import PARALLEL_REPLAYS
    from atlas.sim.records import load_record

    maps, recs = tmp_path / "maps", tmp_path / "records"
    (maps / "tron").mkdir(parents=True)
    recs.mkdir()
    (maps / "tron" / "small.txt").write_text(SMALL)
    small = parse_map(SMALL, game="tron", name="small")
    for seed in range(PARALLEL_REPLAYS + 2):
        rec = play_record("tron", small, seed=seed, chooser=random_mover("tron"))
        save_record(rec, recs / f"g{seed}.json")

    def build(gifs: str):
        return build_site(
            maps,
            tmp_path / "site",
            records_dir=recs,
            cache_dir=tmp_path / "cache",
            tournament=False,
            progress=False,
            jobs=2,
            gifs=gifs,  # type: ignore[arg-type]
            log=lambda m: None,
        )

    assert len(_gifs(build("featured").out)) == 1
    every = build("all")
    assert every.problems == [] and len(every.games) == PARALLEL_REPLAYS + 2
    assert _gifs(every.out) == {f"{g.ident}.gif" for g in every.games}
    for g in every.games[:3]:
        record = load_record(every.out / "games" / f"{g.ident}.json.gz")
        assert (every.out / g.gif).read_bytes() == gif_of(record)
