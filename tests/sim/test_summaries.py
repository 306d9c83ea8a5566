"""Map summaries (each game's ``summarize_map``): the keys each game promises, checked against
networkx (the references of tests/analysis) and maps worked by hand."""

from __future__ import annotations

import json

import networkx as nx
import numpy as np
from analysis.test_chambers import reference_tree
from analysis.test_parity import colour_reference
from analysis.test_voronoi import reference_counts

from atlas.analysis.summary import format_summary
from atlas.cli import main
from atlas.maps import parse_map, read_map
from atlas.sim.registry import summarize_map


def test_every_map_file(any_map_file, grid_graph):
    gm = read_map(any_map_file)
    s = summarize_map(gm)
    assert json.loads(json.dumps(s)) == s
    assert (s["game"], s["name"], s["width"], s["height"]) == (
        gm.game,
        gm.name,
        gm.width,
        gm.height,
    )
    text = format_summary(s)
    assert gm.name in text and len(text.splitlines()) >= 2
    if gm.game == "connect5":
        assert (s["columns"], s["rows"], s["inarow"]) == (
            gm.width,
            gm.height,
            gm.meta["inarow"],
        )
        assert f"{s['inarow']} in a row" in text
        return
    g = grid_graph(gm.free)
    assert s["free_cells"] == g.number_of_nodes()
    assert s["components"] == nx.number_connected_components(g)
    assert s["articulation_points"] == [list(p) for p in sorted(nx.articulation_points(g))]
    if gm.game == "outpost":
        assert s["land"] == int(gm.free.sum()) and s["water"] == 10000 - s["land"]
        assert s["water_components"] == nx.number_connected_components(grid_graph(gm.blocked))
        assert s["homes"] == [list(h) for h in gm.starts]
        return
    assert s["starts"] == [list(c) for c in gm.starts]
    if gm.game == "tron":
        # The networkx references of tests/analysis, not the functions the summary calls.
        a, b = gm.starts
        assert s["voronoi"] == reference_counts(gm.free, a, b, grid_graph)
        for key, me, opp in (("p1", a, b), ("p2", b, a)):
            chambers, fillable = reference_tree(gm.free, me, opp, grid_graph)
            assert s["chambers"][key] == {"fillable": fillable, "count": len(chambers)}
            alone = gm.free.copy()
            alone[opp] = False
            assert s["parity_bound"][key] == colour_reference(alone, me, grid_graph)
        assert "voronoi" in text and "parity bound" in text
    else:
        assert "voronoi" not in s and s["variant"] in ("queen", "knight")


def test_small_tron_map_by_hand():
    text = "7 5\n#######\n#1    #\n### ###\n#    2#\n#######\n"
    s = summarize_map(parse_map(text, game="tron", name="hand"))
    assert s["free_cells"] == 11 and s["components"] == 1
    # Two corridors joined by (2, 3); (1, 5) is a dead end behind (1, 4).
    assert s["articulation_points"] == [[1, 2], [1, 3], [1, 4], [2, 3], [3, 2], [3, 3], [3, 4]]
    # From p1 (1,1): the top row is 1..4 steps away, (2,3) 3, the bottom row 4..6; from
    # p2 (3,5): the bottom row 1..4, (2,3) 3, the top row 4..6.  (2,3) is a tie.
    assert s["voronoi"] == {"p1": 4, "p2": 4, "tie": 1}
    # p1's region is the corridor (1,2)..(1,5): one chamber of 4.
    assert s["chambers"]["p1"] == {"fillable": 4, "count": 1}
    # 9 cells besides the starts: 4 of the starts' colour and 5 of the other.
    assert s["parity_bound"] == {"p1": 9, "p2": 9}
    lines = format_summary(s).splitlines()
    assert lines[0] == 'tron map "hand", 7 x 5'
    assert "  voronoi (first)      p1 4, p2 4, tie 1" in lines
    # Labels indented by two, values aligned in one column after them.
    for ln in lines[1:]:
        assert ln.startswith("  ") and ln[2] != " "
        assert ln[22] == " " and ln[23] != " ", ln


def test_cli_prints_the_same_json(capsys, outside_data):
    path = outside_data / "tron-maps" / "keyhole.txt"
    assert main(["analyze", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == summarize_map(read_map(path))
    assert main(["analyze", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith('tron map "keyhole", 25 x 25') and "articulation points" in out


def test_connect5_and_isolation_basics():
    s = summarize_map(parse_map("connect5 9 6 5\n", game="connect5", name="std"))
    assert s == {
        "game": "connect5",
        "name": "std",
        "width": 9,
        "height": 6,
        "columns": 9,
        "rows": 6,
        "inarow": 5,
        "cells": 54,
    }
    iso = parse_map("isolation 3 3 knight\n1..\n.#.\n..2\n", game="isolation", name="k")
    s = summarize_map(iso)
    assert s["free_cells"] == 8 and s["variant"] == "knight" and s["components"] == 1
    assert s["articulation_points"] == [] and "chambers" not in s
    assert np.array_equal(iso.free, ~iso.blocked)
