"""The game page's GIF button (``templates/static/gif.js``) makes, in Chromium, the GIF
atlas makes in Python.

A small site is built with ``--gifs all`` from records of the four games (an Outpost
game long enough to be sampled, on a 100x100 board; player names outside ASCII, whose
glyphs the page carries itself).  On each game page the button is clicked, the bytes it
made are read back (``window.atlasGif.last``) and decoded with Pillow, and every frame's
pixels (RGB), the frame count, each frame's duration and the loop are compared with the
site's own GIF and with :func:`atlas.render.gif.record_gif_bytes` of the page's
published record.  The marks' shapes are compared with
:func:`atlas.render.images.shape_mask` at every size up to 40 pixels.
"""

from __future__ import annotations

import base64
import io
from pathlib import Path

import numpy as np
import pytest
from browser_helpers import chromium_page, require_chromium

from atlas.maps import parse_map
from atlas.render.gif import record_gif_bytes
from atlas.render.images import shape_mask
from atlas.render.viewer import SHAPES
from atlas.sim.records import load_record, save_record
from tests.render.render_helpers import TRON25, play_record, random_mover

pytestmark = pytest.mark.browser

TINY = "isolation 5 5 queen\n1....\n.....\n..#..\n.....\n....2\n"
C4 = "connect5 7 6 4\n"
WATER = "".join(f"{x} {y}\n" for x in range(15, 35) for y in range(15, 40))
#: The games, their map's name, the map's text and how a record is played.
GAMES = {
    "tron": ("pillars", TRON25, {}),
    "isolation": ("tiny", TINY, {}),
    "connect5": ("four", C4, {}),
    "outpost": ("lake", WATER, {"T": 130}),  # 131 states: every second one drawn
}

#: The bytes the button made, as base64 (no blob URL is fetched).
READ_BYTES = """() => {
  var b = window.atlasGif.last, s = "";
  for (var i = 0; i < b.length; i += 8192) {
    s += String.fromCharCode.apply(null, b.subarray(i, i + 8192));
  }
  return btoa(s);
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    require_chromium()
    from atlas.render.site.build import build_site

    root = tmp_path_factory.mktemp("gif-button")
    maps, recs = root / "maps", root / "records"
    recs.mkdir()
    for game, (name, text, params) in GAMES.items():
        (maps / game).mkdir(parents=True)
        (maps / game / f"{name}.txt").write_text(text)
        gm = parse_map(text, game=game, name=name)
        chooser = None if game == "tron" else random_mover(game)
        players = ("Zoë", "Ωmega") if game == "isolation" else None
        rec = play_record(game, gm, 7, params=params or None, chooser=chooser, players=players)
        save_record(rec, recs / f"{game}.json")
    result = build_site(
        maps,
        root / "site",
        records_dir=recs,
        cache_dir=None,
        tournament=False,
        progress=False,
        jobs=1,
        gifs="all",
        log=lambda m: None,
    )
    assert result.problems == []
    assert sorted(g.head.game for g in result.games) == sorted(GAMES)
    return result.out


def _frames(data: bytes) -> tuple[list[tuple[np.ndarray, int]], int | None]:
    """Each frame of a GIF as RGB pixels with its duration, and the GIF's loop."""
    from PIL import Image

    im = Image.open(io.BytesIO(data))
    frames = []
    for i in range(im.n_frames):
        im.seek(i)
        frames.append((np.asarray(im.convert("RGB")), im.info.get("duration")))
    return frames, im.info.get("loop")


def _same(made: bytes, want: bytes) -> None:
    got, loop = _frames(made)
    expected, want_loop = _frames(want)
    assert loop == want_loop == 0
    assert len(got) == len(expected)
    assert [d for _, d in got] == [d for _, d in expected]
    for i, ((a, _), (b, _)) in enumerate(zip(got, expected)):
        assert a.shape == b.shape, i
        differ = np.argwhere((a != b).any(axis=2))
        assert differ.size == 0, f"frame {i}: {len(differ)} pixels differ, first {differ[:3]}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_button_makes_the_gif_atlas_makes(site, game, tmp_path):
    ident = next(
        p.name.removesuffix(".json.gz")
        for p in (site / "games").glob("*.json.gz")
        if _game_of(p) == game
    )
    with chromium_page(1200, 900) as page:
        page.goto((site / "games" / f"{ident}.html").as_uri())
        page.wait_for_selector("#board[data-ready='1']")
        button = page.locator("#v-gif")
        assert button.inner_text() == "GIF"
        with page.expect_download() as download:
            button.click()
        page.wait_for_selector("#v-gif[data-made]")
        assert download.value.suggested_filename == f"{ident}.gif"
        link = page.locator("#v-gif-link")
        assert link.get_attribute("download") == f"{ident}.gif"
        assert (link.get_attribute("href") or "").startswith("blob:")
        assert "KB" in link.inner_text()
        made = base64.b64decode(page.evaluate(READ_BYTES))
        assert page.errors == []
    assert made.startswith(b"GIF89a") and b"atlas replay" in made[:1024]
    _same(made, (site / "img" / "games" / f"{ident}.gif").read_bytes())
    record = load_record(site / "games" / f"{ident}.json.gz")
    _same(made, record_gif_bytes(record))
    if game == "outpost":  # the sampled game: every second state, and the last
        assert len(_frames(made)[0]) == 66


def _game_of(path: Path) -> str:
    import gzip
    import json

    return json.loads(gzip.decompress(path.read_bytes()))["game"]


def test_the_marks_are_the_shapes_python_draws(site):
    with chromium_page(400, 300) as page:
        page.goto((site / "index.html").as_uri())
        page.add_script_tag(path=str(site / "static" / "gif.js"))
        masks = page.evaluate(
            """(shapes) => shapes.map(function (s) {
                 var out = [];
                 for (var n = 1; n <= 40; n++) {
                   out.push(Array.from(window.atlasGif.shapeMask(s, n)));
                 }
                 return out; })""",
            list(SHAPES),
        )
    for shape, sizes in zip(SHAPES, masks):
        for n, got in enumerate(sizes, 1):
            want = shape_mask(shape, n).astype(np.uint8).reshape(-1).tolist()
            assert got == want, (shape, n)


def test_the_notebook_viewer_has_the_button_too(tmp_path):
    """A record shown in Jupyter (:func:`atlas.api.display.replay_page`, everything
    inline) makes the same GIF."""
    require_chromium()
    from atlas.api.display import replay_page

    gm = parse_map(TINY, game="isolation", name="tiny")
    record = play_record("isolation", gm, 3, chooser=random_mover("isolation"))
    path = tmp_path / "replay.html"
    path.write_text(replay_page(record), encoding="utf-8")
    with chromium_page(900, 700) as page:
        page.goto(path.as_uri())
        page.wait_for_selector("#board[data-ready='1']")
        with page.expect_download() as download:
            page.locator("#v-gif").click()
        page.wait_for_selector("#v-gif[data-made]")
        assert download.value.suggested_filename == "replay.gif"
        made = base64.b64decode(page.evaluate(READ_BYTES))
        assert page.errors == []
    _same(made, record_gif_bytes(record))


ENCODE = """([w, h, frames, ms, palette, transparent]) => {
  var gif = new window.atlasGif.Encoder(w, h, palette, { transparent: transparent, loop: 0 });
  frames.forEach(function (b64, i) {
    var s = atob(b64), px = new Uint8Array(s.length);
    for (var j = 0; j < s.length; j++) { px[j] = s.charCodeAt(j); }
    gif.add(px, ms[i]);
  });
  var b = gif.finish(), out = "";
  for (var i = 0; i < b.length; i += 8192) {
    out += String.fromCharCode.apply(null, b.subarray(i, i + 8192));
  }
  return btoa(out);
}"""


def test_the_encoder_agrees_with_pillows_writer(site):
    """Frames with nothing changed (merged as Pillow's writer merges them), a noisy
    frame large enough to fill the LZW table many times, a single pixel, one frame."""
    from atlas.render import palette as P
    from atlas.render.gif import encode_gif

    rng = np.random.default_rng(5)
    plain = np.full((30, 40), P.FREE, dtype=np.uint8)
    dot = plain.copy()
    dot[3, 7] = P.PLAYER[0]
    noise = rng.integers(0, P.TRANSPARENT, size=(30, 40), dtype=np.uint8)
    big = rng.integers(0, P.TRANSPARENT, size=(300, 280), dtype=np.uint8)
    cases = [
        ([plain, plain, plain, dot, dot, noise, noise, noise, plain], [100, 120, 80] * 3),
        ([big, big[::-1].copy(), np.zeros_like(big)], [50, 60, 2500]),
        ([np.array([[P.WALL]], dtype=np.uint8)] * 2, [100, 200]),
        ([noise], [70]),
    ]
    with chromium_page(400, 300) as page:
        page.goto((site / "index.html").as_uri())
        page.add_script_tag(path=str(site / "static" / "gif.js"))
        for images, ms in cases:
            h, w = images[0].shape
            frames = [base64.b64encode(im.tobytes()).decode("ascii") for im in images]
            args = [w, h, frames, ms, list(P.PALETTE_HEX), P.TRANSPARENT]
            made = base64.b64decode(page.evaluate(ENCODE, args))
            _same(made, encode_gif(images, ms))
            if len(images) == 9:  # two frames like the one before a frame like its own
                assert len(_frames(made)[0]) == 7
