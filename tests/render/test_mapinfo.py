"""What a map page shows: the chamber tree as nested data, the kinds of pictures."""

from __future__ import annotations

from atlas.analyze.chambers import chamber_tree
from atlas.maps import parse_map
from atlas.render.site.mapinfo import chamber_list, map_analysis, map_pictures, picture_kinds


def _walk(nodes):
    for n in nodes:
        yield n
        yield from _walk(n["children"])


def test_chamber_list_mirrors_the_chamber_tree():
    text = ("11 7\n###########\n#1   #    #\n#    #    #\n#         #\n"
            "#    #    #\n#    #   2#\n###########\n")
    gm = parse_map(text, game="tron", name="two-rooms")
    tree = chamber_tree(gm.free, gm.starts[0], gm.starts[1])
    roots = chamber_list(gm)
    assert len(roots) == 1 and roots[0]["entrance"] is None
    nodes = list(_walk(roots))
    assert sorted(n["id"] for n in nodes) == sorted(ch.id for ch in tree.chambers)
    assert sum(n["size"] for n in nodes) == tree.region_size
    by_id = {ch.id: ch for ch in tree.chambers}
    for n in nodes:
        ch = by_id[n["id"]]
        assert n["size"] == ch.size
        assert sorted(c["id"] for c in n["children"]) == sorted(ch.children)


def test_analysis_and_pictures_per_game():
    gm = parse_map("connect5 9 6 5\n", game="connect5", name="std")
    data = map_analysis(gm)
    assert data["figures"] == {"size": "9x6", "cells": 54, "inarow": 5}
    assert data["chambers"] == []
    assert picture_kinds(gm) == ["thumb", "plain"]
    assert map_pictures(gm, "plain")[:8] == b"\x89PNG\r\n\x1a\n"
