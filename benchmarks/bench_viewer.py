"""Cost of the replay viewer's overlays in Chromium (a benchmark, not a test).

Plays two games, opens each in the standalone replay page (the viewer and
``static/overlays.js`` inline, :func:`atlas.api.display.replay_page`) in headless
Chromium with every overlay of its game on, and steps through every turn with the
right arrow key.  A step is timed inside the page, from the key event to the end of
its handler: decoding the frame, painting the board, computing and drawing the
overlays, the chart and the seats panel (the browser's own compositing comes after
and is not counted).  Prints per game the median, 95th percentile and worst step in
ms (budget: 16 ms a step), the same with the overlays off, the page's bytes, and the
load average before and after (``os.getloadavg``, as ``uptime`` prints it).

* tron on a 50x50 open board, two wall followers (long spiralling games);
* Outpost on the bundled 100x100 map ``lakes``, the built-in ``greedy`` and
  ``defender`` bots, ``T`` turns (default 200).

Needs Debian's ``chromium`` and the ``playwright`` package (the ``[test]`` extra).
Run from the repository root: ``python benchmarks/bench_viewer.py [--turns T]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CHROMIUM = "/usr/bin/chromium"
BUDGET_MS = 16.0


def tron50() -> str:
    n = 50
    rows = []
    for r in range(n):
        row = ""
        for c in range(n):
            edge = r in (0, n - 1) or c in (0, n - 1)
            row += (
                "#" if edge else "1" if (r, c) == (5, 5) else "2" if (r, c) == (44, 44) else " "
            )
        rows.append(row)
    return f"{n} {n}\n" + "\n".join(rows) + "\n"


def records(turns: int) -> list[tuple[str, object]]:
    from atlas.bots.registry import make_bot
    from atlas.maps import parse_map
    from tests.render.render_helpers import play_record

    gm = parse_map(tron50(), game="tron", name="open50")
    tron = play_record("tron", gm, seed=1)
    bots: dict[int, object] = {}

    def choose(state, seat, rng):  # type: ignore[no-untyped-def]
        if seat not in bots:
            bots[seat] = make_bot("outpost", ("greedy", "defender")[seat % 2])
        return bots[seat].move(state, seat, time.monotonic() + 5)  # type: ignore[attr-defined]

    text = (ROOT / "maps" / "outpost" / "lakes.txt").read_text()
    og = parse_map(text, game="outpost", name="lakes")
    outpost = play_record("outpost", og, seed=1, params={"T": turns}, chooser=choose)
    return [("tron 50x50", tron), ("Outpost 100x100", outpost)]


STEP = """async (n) => {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    document.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight", bubbles: true}));
    times.push(performance.now() - t0);
    if (i % 25 === 0) { await new Promise(r => requestAnimationFrame(() => r())); }
  }
  return times;
}"""


def stats(times: list[float]) -> str:
    s = sorted(times)
    med, p95 = s[len(s) // 2], s[min(len(s) - 1, int(0.95 * len(s)))]
    ok = "within" if med <= BUDGET_MS else "OVER"
    return (
        f"median {med:.2f} ms, p95 {p95:.2f} ms, worst {s[-1]:.2f} ms ({ok} {BUDGET_MS:g} ms)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, default=200, help="Outpost's T (default 200)")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    from atlas.api.display import replay_page

    print(f"load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    games = records(args.turns)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        for name, record in games:
            path = Path(tmp) / "game.html"
            html = replay_page(record)
            path.write_text(html, encoding="utf-8")
            page = browser.new_page(viewport={"width": 1200, "height": 1000})
            page.goto(path.as_uri())
            page.wait_for_selector("#board[data-ready='1']")
            n = (
                page.evaluate(  # the data as the page's script reads it (static/inflate.js)
                    "window.atlasUnpack(JSON.parse("
                    "document.getElementById('replay-data').textContent)).count"
                )
                - 1
            )
            names = page.locator(".overlay-toggle").evaluate_all(
                "els => els.map(e => e.dataset.overlay)"
            )
            page.evaluate("localStorage.clear()")
            off = page.evaluate(STEP, n)
            page.keyboard.press("Home")
            for b in page.locator(".overlay-toggle").all():
                b.click()
            page.keyboard.press("Home")
            on = page.evaluate(STEP, n)
            drawn = page.evaluate("Object.keys(window.atlasOverlay.values)")
            assert sorted(drawn) == sorted(names), (drawn, names)
            print(f"{name}: {n} steps, {len(html.encode()):,} bytes of page; overlays {names}")
            print(f"  overlays on:  {stats(on)}")
            print(f"  overlays off: {stats(off)}")
            page.close()
        browser.close()
    print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
