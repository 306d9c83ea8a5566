"""The replay frames a page's script draws (``templates/static/frames.js``) are the
frames atlas draws in Python, turn by turn, for games whose page stores only where the
frames differ from a rule the browser applies: Outpost's territory from its outposts.

Real games: records imported from the official simulator (a player whose moves fault and
stop turns; bad disband answers with a radius of 60; unlimited outposts), and a full
500-turn game between random movers on a bundled map, and a radius past the board's
span.  Every frame is decoded in
Chromium and compared cell for cell with :func:`atlas.render.replay.record_frames`.  A
page whose rule this script does not know says so and still draws."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np
import pytest
from browser_helpers import chromium_page, require_chromium

from atlas.games.outpost.rules.traces import read_trace, trace_to_record
from atlas.maps import read_map
from atlas.render.replay import record_frames
from atlas.render.viewer import pack_viewer, page_json, viewer_data
from atlas.sim.records import replay_states
from tests.render.render_helpers import play_record, random_mover

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
STATIC = ROOT / "templates" / "static"
FAULTS = DATA / "outpost-traces" / "faults"
TRACES = {
    "moves fault, turns stop": FAULTS / "moves-rot1_mapblob_r10L20W5.jsonl.gz",
    "bad disbands, r = 60": FAULTS / "disband-mixed_map1_r60L0W0.jsonl.gz",
    "unlimited outposts": FAULTS / "disband-a_mapblob_r10L0W0.jsonl.gz",
}

#: Every frame's cells as the page's script draws them, base64 of the row-major bytes.
DECODE = """(text) => {
  var data = window.atlasUnpack(JSON.parse(text));
  var frames = window.atlasFrames.create(data), out = [];
  for (var i = 0; i < frames.count; i++) {
    var g = frames.gridOf(i), s = "";
    for (var j = 0; j < g.length; j += 8192) {
      s += String.fromCharCode.apply(null, g.subarray(j, j + 8192));
    }
    out.push(btoa(s));
  }
  return {grids: out, problem: frames.problem};
}"""


@pytest.fixture(scope="module")
def page():
    require_chromium()
    with chromium_page(400, 300) as pg:
        pg.set_content("<!doctype html><title>frames</title>")
        for name in ("inflate.js", "frames.js"):
            pg.add_script_tag(content=(STATIC / name).read_text(encoding="utf-8"))
        yield pg


def _record(what: str):
    if what in TRACES:
        trace = read_trace(TRACES[what])
        gm = read_map(DATA / "outpost-maps" / f"{trace.map_name}.txt", game="outpost")
        return trace_to_record(trace, gm)
    gm = read_map(ROOT / "maps" / "outpost" / "lakes.txt", game="outpost")
    if what == "a radius of 2**62":  # past the board's span: every cell within reach
        mover = random_mover("outpost")
        return play_record("outpost", gm, 5, params={"r": 2**62, "T": 40}, chooser=mover)
    return play_record("outpost", gm, 11, chooser=random_mover("outpost"))


@pytest.mark.parametrize("what", [*TRACES, "500 turns", "a radius of 2**62"])
def test_every_frame_is_the_frame_python_draws(page, what):
    record = _record(what)
    states = replay_states(record)
    frames = list(record_frames(record, states))
    data = viewer_data(record, states, frames=frames)
    assert data["predict"]["kind"] == "influence"
    # the rule draws most frames whole; the rest differ where the rules leave the
    # ownership behind the outposts (a season's new outposts, a turn cut short)
    differing = sum(1 for f in data["frames"] if f["d"])
    assert differing < len(frames) / 4, (what, differing)
    got = page.evaluate(DECODE, page_json(pack_viewer(data)))
    assert got["problem"] is None and page.errors == []
    assert len(got["grids"]) == len(frames)
    for i, (b64, frame) in enumerate(zip(got["grids"], frames)):
        grid = np.frombuffer(base64.b64decode(b64), dtype=np.uint8).reshape(frame.grid.shape)
        assert np.array_equal(grid, frame.grid), (what, i, int((grid != frame.grid).sum()))


@pytest.mark.parametrize(
    "predict,said",
    [
        ({"kind": "<b>tomorrow's rule</b>" * 10}, "is unknown"),
        ({"kind": "constructor"}, "is unknown"),  # not a rule, though every object has it
        ({"kind": "toString"}, "is unknown"),
        ({"kind": "influence", "r": "ten", "posts": "x"}, "is damaged"),
        (
            {
                "kind": "influence",
                "r": 10,
                "land": 20,
                "posts": [[0, 5, 9]],
                "disputed": 18,
                "tints": [9, 10, 11, 12],
                "waters": [56, 57, 58, 59],
            },
            "is damaged",
        ),
    ],
)
def test_a_rule_the_script_cannot_apply_is_said_and_the_board_still_drawn(page, predict, said):
    gm = read_map(ROOT / "maps" / "outpost" / "delta.txt", game="outpost")
    record = play_record("outpost", gm, 2, params={"T": 20}, chooser=random_mover("outpost"))
    packed = pack_viewer(viewer_data(record))
    packed["predict"] = predict
    got = page.evaluate(DECODE, json.dumps(packed))
    assert said in got["problem"]
    assert len(got["problem"]) < 200
    assert len(got["grids"]) == packed["count"] and page.errors == []
    # what is drawn is the bare map with each frame's stored changes: no script error
    first = np.frombuffer(base64.b64decode(got["grids"][0]), dtype=np.uint8)
    assert first.size == gm.width * gm.height


def test_the_viewer_says_the_problem_as_text_never_html(page, tmp_path):
    """A page whose rule names markup: the viewer shows the words, makes no element of
    them, and still draws every turn."""
    import re

    from atlas.api.display import replay_page
    from atlas.render.viewer import read_page_json

    gm = read_map(ROOT / "maps" / "outpost" / "delta.txt", game="outpost")
    record = play_record("outpost", gm, 2, params={"T": 5}, chooser=random_mover("outpost"))
    html = replay_page(record)
    found = re.search(
        r'(<script type="application/json" id="replay-data">)(.*?)(</script>)', html, re.S
    )
    data = read_page_json(found.group(2))
    data["predict"] = {"kind": "<img src=x onerror=window.hit=1>"}
    html = html[: found.start(2)] + page_json(data) + html[found.end(2) :]
    path = tmp_path / "tampered.html"
    path.write_text(html, encoding="utf-8")
    pg = page.context.browser.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        pg.goto(path.as_uri() + "#turn=5")
        pg.wait_for_selector("#board[data-ready='1']")
        notes = pg.locator("#viewer p.note").all_text_contents()
        assert any("<img src=x" in n and "is unknown" in n for n in notes), notes
        assert pg.locator("#viewer img").count() == 0
        assert pg.evaluate("window.hit === undefined")
        assert pg.locator("#board").get_attribute("data-turn") == "5"
        assert errors == []
    finally:
        pg.close()
