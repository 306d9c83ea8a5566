"""The map editor's analysis round trip: ``POST /__atlas/analyze`` of a 100x100 board.

A live site (``atlas serve``'s :class:`~atlas.render.site.serve.LiveSite`) is built from
a temporary maps folder holding one 100x100 map of atlas's own, on an ephemeral port of
127.0.0.1; the board is posted as the editor's page posts it after a stroke, once to
warm the kernels, then ``--repeats`` times.  Printed: the round trip's median and worst
(HTTP on the loopback, JSON both ways), and the server's own time for the analysis.
The editor's aim is an answer within 300 ms of a stroke.

Usage::

    python benchmarks/bench_editor.py [--repeats 30] [--map maps/GAME/NAME.txt]
"""

from __future__ import annotations

import argparse
import http.client
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from atlas.maps import board_facts, read_map  # noqa: E402
from atlas.render.site.build import BuildOptions  # noqa: E402
from atlas.render.site.editor import ANALYZE_PATH, board_json, game_facts  # noqa: E402
from atlas.render.site.serve import LiveSite  # noqa: E402


def a_large_map() -> Path:
    """A map of atlas's own on a 100x100 board (the game whose format fixes that size)."""
    for game in game_facts():
        if board_facts(game).size == (100, 100):
            return sorted((ROOT / "maps" / game).glob("*.txt"))[0]
    raise SystemExit("no 100x100 map among atlas's own")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=30)
    ap.add_argument("--map", type=Path, default=None)
    args = ap.parse_args()
    source = args.map or a_large_map()
    game_map = read_map(source)
    body = json.dumps(board_json(game_map)).encode()
    with tempfile.TemporaryDirectory() as tmp:
        maps = Path(tmp) / "maps" / game_map.game
        maps.mkdir(parents=True)
        shutil.copy(source, maps / source.name)
        options = BuildOptions(
            maps_dir=maps.parent,
            out_dir=Path(tmp) / "site",
            games=0,
            progress=False,
            log=lambda line: None,
        )
        live = LiveSite(options, editable=True, log=lambda line: None)
        server = live.open()
        live.build()
        live.start()
        try:
            times, server_s = [], []
            for i in range(args.repeats + 1):
                conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
                began = time.perf_counter()
                conn.request(
                    "POST",
                    ANALYZE_PATH,
                    body,
                    {
                        "Origin": f"http://127.0.0.1:{server.port}",
                        "Content-Type": "application/json",
                    },
                )
                answer = conn.getresponse().read()
                took = time.perf_counter() - began
                conn.close()
                if i:  # the first one warms the kernels
                    times.append(took)
                    server_s.append(json.loads(answer)["seconds"])
        finally:
            live.close()
    print(
        f"{source.relative_to(ROOT) if source.is_relative_to(ROOT) else source} "
        f"({game_map.width}x{game_map.height}, {len(body):,} bytes posted): round trip "
        f"median {1000 * statistics.median(times):.1f} ms, worst {1000 * max(times):.1f} ms; "
        f"analysis on the server median {1000 * statistics.median(server_s):.1f} ms "
        f"({args.repeats} requests)"
    )


if __name__ == "__main__":
    main()
