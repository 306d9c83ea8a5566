"""What a map page shows: the chamber tree as nested data, and each game's pictures."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from atlas.analysis.chambers import chamber_tree
from atlas.analysis.summary import chamber_tree_json
from atlas.maps import parse_map
from atlas.render import palette as P
from atlas.render.images import png_bytes
from atlas.render.registry import render_of
from atlas.render.site.build import figures_of
from atlas.sim.registry import game_names, summarize_map


def _walk(nodes):
    for n in nodes:
        yield n
        yield from _walk(n["children"])


def test_chamber_tree_json_mirrors_the_chamber_tree():
    text = (
        "11 7\n###########\n#1   #    #\n#    #    #\n#         #\n"
        "#    #    #\n#    #   2#\n###########\n"
    )
    gm = parse_map(text, game="tron", name="two-rooms")
    tree = chamber_tree(gm.free, gm.starts[0], gm.starts[1])
    roots = chamber_tree_json(tree)
    assert roots == summarize_map(gm)["chamber_tree"]
    assert len(roots) == 1 and roots[0]["entrance"] is None
    nodes = list(_walk(roots))
    assert sorted(n["id"] for n in nodes) == sorted(ch.id for ch in tree.chambers)
    assert sum(n["size"] for n in nodes) == tree.region_size
    by_id = {ch.id: ch for ch in tree.chambers}
    for n in nodes:
        ch = by_id[n["id"]]
        assert n["size"] == ch.size
        assert sorted(c["id"] for c in n["children"]) == sorted(ch.children)


def test_connect5_figures_and_pictures():
    gm = parse_map("connect5 9 6 5\n", game="connect5", name="std")
    assert figures_of(summarize_map(gm)) == {"size": "9x6", "cells": 54, "inarow": 5}
    render = render_of("connect5")
    assert render.picture_kinds(gm) == ["thumb", "plain"]
    png = png_bytes(render.picture(gm, "plain"))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    idx = np.asarray(Image.open(io.BytesIO(png)))
    k = idx.shape[0] // 6
    # every hole of the board is a free-coloured circle on the board colour
    assert idx[k // 2, k // 2] == P.FREE and idx[0, 0] == P.BOARD


SMALL = {
    "tron": "7 5\n#######\n#1    #\n### ###\n#    2#\n#######\n",
    "isolation": "isolation 4 4 queen\n1...\n.#..\n....\n...2\n",
    "connect5": "connect5 7 6 4\n",
    "outpost": "".join(f"{x} {y}\n" for x in range(20, 30) for y in range(20, 30)),
}


@pytest.mark.parametrize("game", sorted(SMALL))
def test_every_game_pictures_every_kind_it_lists(game):
    assert game in game_names()
    gm = parse_map(SMALL[game], game=game, name="small")
    render = render_of(game)
    kinds = render.picture_kinds(gm)
    assert kinds[0] == "thumb" and render.png_kind in kinds
    sizes = {}
    for kind in kinds:
        image = render.picture(gm, kind)
        sizes[kind] = image.size
        assert image.size[0] % gm.width == 0 or kind == "thumb"
    assert max(sizes["thumb"]) <= 160 + gm.width
