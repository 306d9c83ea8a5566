"""The browser's unpacking of a page's replay data (``templates/static/inflate.js``)
against Python's zlib: every kind of DEFLATE block (stored, fixed, dynamic Huffman),
texts of every size, and the real replay data of long games, decoded in Chromium to the
very value Python packed; a damaged stream is an error, never a wrong value."""

from __future__ import annotations

import base64
import json
import random
import zlib
from pathlib import Path

import pytest
from browser_helpers import chromium_page

from atlas.render.viewer import DEFLATE_OVER, page_json, read_page_json

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
INFLATE = (ROOT / "templates" / "static" / "inflate.js").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def page():
    with chromium_page(400, 300) as pg:
        pg.set_content("<!doctype html><title>inflate</title>")
        pg.add_script_tag(content=INFLATE)
        yield pg


def _raw(data: bytes, level: int = 9, strategy: int = zlib.Z_DEFAULT_STRATEGY) -> str:
    packer = zlib.compressobj(level, zlib.DEFLATED, -15, 9, strategy)
    return base64.b64encode(packer.compress(data) + packer.flush()).decode("ascii")


def _inflated(page, b64: str) -> bytes:
    got = page.evaluate(
        """(b64) => {
            const s = atob(b64), src = new Uint8Array(s.length);
            for (let i = 0; i < s.length; i++) src[i] = s.charCodeAt(i);
            return Array.from(window.atlasInflate(src, 0));
        }""",
        b64,
    )
    return bytes(got)


def test_every_kind_of_block_and_size_decodes_to_the_bytes(page):
    rng = random.Random(7)
    texts = [
        b"",
        b"a",
        bytes(range(256)) * 3,  # little repetition: literals
        b"abc" * 5000,  # long matches, far and near
        bytes(rng.randrange(256) for _ in range(70_000)),  # incompressible: stored blocks
        json.dumps([rng.randrange(50) for _ in range(20_000)]).encode(),
        "\u00e9t\u00e9 \u2014 ".encode() * 999,
    ]
    for data in texts:
        for level, strategy in ((9, zlib.Z_DEFAULT_STRATEGY), (0, 0), (9, zlib.Z_FIXED)):
            assert _inflated(page, _raw(data, level, strategy)) == data, (len(data), level)


def test_the_replay_data_of_long_games_is_what_python_packed(page):
    sizes = []
    for k, length in enumerate((10, 300, 5000, 60_000)):
        rng = random.Random(k)
        data = {
            "frames": base64.b64encode(
                bytes(rng.randrange(40) for _ in range(length))
            ).decode(),
            "series": [[rng.randrange(1000) for _ in range(length // 10)] for _ in range(4)],
            "names": ["\u00e9l\u00e8ve", "</script>", "a&b"],
        }
        text = page_json(data)
        sizes.append((len(text), len(json.dumps(data, separators=(",", ":")))))
        assert json.loads(text).get("deflated") is not None or len(text) <= DEFLATE_OVER
        assert "</" not in text
        got = page.evaluate("(t) => window.atlasUnpack(JSON.parse(t))", text)
        assert got == data == read_page_json(text)
    assert sizes[-1][0] < sizes[-1][1] * 0.8  # a long one shrinks


def test_a_damaged_stream_is_an_error(page):
    good = _raw(b"atlas " * 500)
    raw = bytearray(base64.b64decode(good))
    cut = base64.b64encode(bytes(raw[: len(raw) // 2])).decode()
    with pytest.raises(Exception, match="ends early|not one|bad|too far"):
        _inflated(page, cut)
    raw[0] |= 0b110  # a block of the reserved kind 3
    with pytest.raises(Exception, match="unknown kind"):
        _inflated(page, base64.b64encode(bytes(raw)).decode())
