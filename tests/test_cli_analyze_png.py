"""``atlas analyze --png``: the picture it writes is the map's, cell for cell, and the
figures printed are the same with or without it."""

from __future__ import annotations

import json

from PIL import Image

from atlas.cli import main
from atlas.render.images import is_atlas_png

TRON_ROWS = ["#######", "#1    #", "#    2#", "#######"]


def test_analyze_png_draws_the_map_cell_for_cell(tmp_path, capsys):
    path = tmp_path / "tiny.txt"
    path.write_text("7 4\n" + "\n".join(TRON_ROWS) + "\n")
    png = tmp_path / "tiny.png"
    assert main(["analyze", str(path), "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main(["analyze", str(path), "--png", str(png), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == plain
    assert plain["voronoi"] == {"p1": 4, "p2": 4, "tie": 0}
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and is_atlas_png(png)
    image = Image.open(png).convert("RGB")
    width, height = image.size
    cell = width // 7
    assert (width, height) == (7 * cell, 4 * cell) and cell >= 4

    def colour(r, c):  # a cell's colour, near its corner (clear of a start's disc)
        return image.getpixel((c * cell + 1, r * cell + 1))

    walls = {
        colour(r, c) for r, row in enumerate(TRON_ROWS) for c, ch in enumerate(row) if ch == "#"
    }
    assert len(walls) == 1
    # the free cells are coloured by the player who reaches them first: 4 and 4
    near_p1 = {colour(1, 2), colour(1, 3), colour(2, 1), colour(2, 2)}
    near_p2 = {colour(1, 4), colour(2, 3), colour(2, 4), colour(1, 5)}
    assert len(near_p1) == 1 and len(near_p2) == 1
    assert len(walls | near_p1 | near_p2) == 3
