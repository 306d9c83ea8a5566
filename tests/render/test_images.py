"""Map pictures: colours per cell cross-checked against plain-Python references."""

from __future__ import annotations

from collections import deque

import networkx as nx
import numpy as np
import pytest
from PIL import Image

from atlas.cli import main
from atlas.games.outpost.format import HOMES as OUTPOST_HOMES
from atlas.games.outpost.painter import outpost_picture, supply_paths, validation_picture
from atlas.maps import parse_map
from atlas.render import palette as P
from atlas.render.images import map_picture, shape_mask, upscale
from atlas.render.registry import render_of
from atlas.render.site.build import figures_of
from atlas.sim.registry import summarize_map


def _rgb(image) -> np.ndarray:
    return np.asarray(image.convert("RGB"))


def _corner(rgb: np.ndarray, cell, k: int) -> tuple[int, ...]:
    """The colour one pixel inside a cell's top-left corner (no grid line, no mark)."""
    return tuple(int(v) for v in rgb[cell[0] * k + 1, cell[1] * k + 1])


def _bfs(free: np.ndarray, src) -> np.ndarray:
    dist = np.full(free.shape, -1)
    dist[src] = 0
    q = deque([src])
    while q:
        r, c = q.popleft()
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            rr, cc = r + dr, c + dc
            if (
                0 <= rr < free.shape[0]
                and 0 <= cc < free.shape[1]
                and free[rr, cc]
                and dist[rr, cc] < 0
            ):
                dist[rr, cc] = dist[r, c] + 1
                q.append((rr, cc))
    return dist


def test_palette_is_okabe_ito_and_lookup_gives_rgb():
    assert P.PLAYER_HEX[:2] == (P.OKABE_ITO["vermillion"], P.OKABE_ITO["blue"])
    grid = np.array([[P.PLAYER[0], P.WALL]], dtype=np.uint8)
    wall = list(P.hex_to_rgb(P.PALETTE_HEX[P.WALL]))
    assert P.to_rgb(grid).tolist() == [[[0xD5, 0x5E, 0x00], wall]]
    # every named index is a distinct colour where it must be told apart
    named = [P.WALL, P.FREE, *P.PLAYER, *P.PLAYER_TINT, P.DISPUTED, P.WATER, P.LAND]
    assert len({P.PALETTE_HEX[i] for i in named}) == len(named)


def test_upscale_is_nearest_neighbour():
    g = np.array([[1, 2], [3, 4]], dtype=np.uint8)
    big = upscale(g, 3)
    assert big.shape == (6, 6)
    assert (big[:3, :3] == 1).all() and (big[3:, 3:] == 4).all() and (big[:3, 3:] == 2).all()


@pytest.mark.parametrize("shape", ["circle", "square", "triangle", "diamond", "ring", "cross"])
def test_shapes_are_distinct_and_inside(shape):
    m = shape_mask(shape, 12)
    assert m.shape == (12, 12) and 0 < m.sum() < 144
    assert not m[0, 0]  # corners stay clear: the cell colour shows through
    others = {s: shape_mask(s, 12) for s in ("circle", "square", "triangle", "diamond")}
    if shape in others:
        assert all(not np.array_equal(m, o) for s, o in others.items() if s != shape)


def test_voronoi_shading_matches_plain_bfs(corridor_map):
    gm = corridor_map
    k = 10
    rgb = _rgb(map_picture(gm, voronoi=True, cell_px=k))
    assert rgb.shape == (gm.height * k, gm.width * k, 3)
    free = gm.free.copy()
    a, b = gm.starts
    fa, fb = free.copy(), free.copy()
    fa[b] = False
    fb[a] = False
    da, db = _bfs(fa, a), _bfs(fb, b)
    tint = {
        0: P.hex_to_rgb(P.PALETTE_HEX[P.PLAYER_TINT[0]]),
        1: P.hex_to_rgb(P.PALETTE_HEX[P.PLAYER_TINT[1]]),
        "tie": P.hex_to_rgb(P.PALETTE_HEX[P.TIE]),
        "wall": P.hex_to_rgb(P.PALETTE_HEX[P.WALL]),
    }
    checked = 0
    for r in range(gm.height):
        for c in range(gm.width):
            if (r, c) in gm.starts:
                continue
            if not free[r, c]:
                want = tint["wall"]
            elif da[r, c] >= 0 and (db[r, c] < 0 or da[r, c] < db[r, c]):
                want = tint[0]
            elif db[r, c] >= 0 and (da[r, c] < 0 or db[r, c] < da[r, c]):
                want = tint[1]
            else:
                want = tint["tie"]
            assert _corner(rgb, (r, c), k) == want, (r, c)
            checked += 1
    assert checked == gm.height * gm.width - 2


def test_articulation_rings_exactly_on_cut_vertices():
    text = "9 5\n#########\n#1  #  2#\n#   #   #\n#       #\n#########\n"
    gm = parse_map(text, game="tron", name="bottleneck")
    graph = nx.grid_2d_graph(gm.height, gm.width)
    graph.remove_nodes_from([tuple(map(int, rc)) for rc in np.argwhere(gm.blocked)])
    cuts = set(nx.articulation_points(graph))
    assert cuts  # the corridor under the wall
    k = 12
    idx = np.asarray(map_picture(gm, articulation=True, starts=False, cell_px=k))
    for r in range(gm.height):
        for c in range(gm.width):
            has_ring = bool((idx[r * k : (r + 1) * k, c * k : (c + 1) * k] == P.MARK).any())
            assert has_ring == ((r, c) in cuts), (r, c)


def test_start_marks_use_seat_colour_and_shape(corridor_map):
    k = 12
    idx = np.asarray(map_picture(corridor_map, cell_px=k))
    for seat, (r, c) in enumerate(corridor_map.starts):
        block = idx[r * k : (r + 1) * k, c * k : (c + 1) * k]
        assert np.array_equal(block == P.PLAYER[seat], shape_mask(P.PLAYER_SHAPES[seat], k))


def _outpost_map():
    lines = [f"{x} {y}" for x in range(20, 30) for y in range(20, 30)]
    return parse_map("\n".join(lines) + "\n", game="outpost", name="square-lake")


def test_outpost_territory_matches_manhattan_rule():
    gm = _outpost_map()
    outposts = [[(0, 0), (10, 12)], [(0, 99)], [(99, 99)], [(99, 0), (40, 40)]]
    r = 6
    k = 3
    rgb = _rgb(outpost_picture(gm, outposts=outposts, radius=r, cell_px=k, homes=False))
    rows, cols = np.mgrid[0:100, 0:100]
    dist = np.stack(
        [np.min([np.abs(rows - a) + np.abs(cols - b) for a, b in o], axis=0) for o in outposts]
    )
    best = dist.min(axis=0)
    nearest = dist == best
    marked = {c for o in outposts for c in o}
    for rr in range(0, 100, 3):
        for cc in range(0, 100, 3):
            if any(abs(rr - a) <= 2 and abs(cc - b) <= 2 for a, b in marked):
                continue  # under an outpost's mark
            land = not gm.blocked[rr, cc]
            if best[rr, cc] > r:
                want = P.LAND if land else P.WATER
            elif nearest[:, rr, cc].sum() > 1:
                want = P.DISPUTED
            else:
                e = int(np.argmax(nearest[:, rr, cc]))
                want = P.PLAYER_TINT[e] if land else P.PLAYER_WATER[e]
            assert tuple(rgb[rr * k + 1, cc * k + 1]) == P.hex_to_rgb(P.PALETTE_HEX[want]), (
                rr,
                cc,
            )


def test_supply_paths_are_shortest_good_paths():
    gm = _outpost_map()
    owner = np.full((100, 100), -1, dtype=np.int32)
    owner[30:60, 5:15] = 1  # enemy land blocks the direct route
    mine = [(0, 0), (70, 10), (45, 10)]
    paths = supply_paths(gm, owner, mine, 0)
    assert paths[0] == []
    assert paths[2] is None  # inside enemy land with no good neighbour
    path = paths[1]
    good = ~gm.blocked & ((owner == -1) | (owner == 0))
    graph = nx.grid_2d_graph(100, 100)
    graph.remove_nodes_from([tuple(map(int, rc)) for rc in np.argwhere(~good)])
    assert path[-1] == OUTPOST_HOMES[0]
    assert abs(path[0][0] - 70) + abs(path[0][1] - 10) == 1
    for a, b in zip(path, path[1:]):
        assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 and good[a] and good[b]
    want = min(
        nx.shortest_path_length(graph, OUTPOST_HOMES[0], n)
        for n in ((69, 10), (71, 10), (70, 9), (70, 11))
        if good[n]
    )
    assert len(path) - 1 == want


def test_analyze_png_and_thumbnail(tmp_path, corridor_map):
    from atlas.maps import write_map

    src = tmp_path / "corridor.txt"
    write_map(corridor_map, src)
    out = tmp_path / "m.png"
    assert main(["analyze", str(src), "--png", str(out)]) == 0
    with Image.open(out) as im:
        assert im.format == "PNG"
        assert im.size[0] % corridor_map.width == 0 and im.size[0] >= 7 * 10
        # the Voronoi picture: both seats' tints are there
        rgb = np.asarray(im.convert("RGB"))
    tints = {P.hex_to_rgb(P.PALETTE_HEX[P.PLAYER_TINT[s]]) for s in (0, 1)}
    assert tints <= {tuple(int(v) for v in px) for px in rgb.reshape(-1, 3)}
    th = render_of("tron").thumbnail(corridor_map, size=160)
    assert th.size[0] <= 160 and th.size[0] == th.size[1] / 5 * 7


def test_map_figures_cross_checked():
    text = "9 5\n#########\n#1  #  2#\n#   #   #\n#       #\n#########\n"
    gm = parse_map(text, game="tron", name="bottleneck")
    fig = figures_of(summarize_map(gm))
    graph = nx.grid_2d_graph(gm.height, gm.width)
    graph.remove_nodes_from([tuple(map(int, rc)) for rc in np.argwhere(gm.blocked)])
    assert fig["free"] == graph.number_of_nodes()
    assert fig["articulation_points"] == len(set(nx.articulation_points(graph)))
    assert fig["components"] == nx.number_connected_components(graph)
    assert fig["voronoi"][0] == fig["voronoi"][1]  # the map is mirror-symmetric


def test_validation_picture_rings_the_reported_cells():
    text = "0 0\n3 4\n20 30\n"
    report = {
        "errors": [{"rule": "corner", "line": 1, "message": "m", "cell": [0, 0]}],
        "warnings": [{"rule": "w", "line": 2, "message": "m", "cell": [3, 4]}],
    }
    import io

    png = validation_picture(text, report, cell_px=10)
    idx = np.asarray(Image.open(io.BytesIO(png)))
    assert (idx[0:10, 0:10] == P.ERROR).all()  # the cell is filled
    assert (idx[40:50, 30:40] == P.WARNING).all()
    assert (idx[35:55, 25:45] == P.WARNING).sum() > 100  # and ringed 3 cells wide
    assert not (idx[100:200, 100:200] == P.ERROR).any()
    assert idx[305, 205] == P.WATER  # an unmarked water cell (20, 30)
    assert idx[305, 105] == P.LAND
