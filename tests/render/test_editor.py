"""The map editor's server side: the board sent as JSON, its analysis (the same values
as atlas's kernels on the same map), saves that never overwrite unless asked, and the
checks every request of ``atlas serve`` passes (Host, Origin, sizes, a clear 400).

Only 127.0.0.1 is reached; waits are bounded; the round trip on a 100x100 board is
printed (``-s`` shows it), not asserted.
"""

from __future__ import annotations

import json
import time

import pytest
from serve_helpers import GOOD, ROOT, Served

from atlas.analysis.articulation import articulation_points
from atlas.analysis.chambers import chamber_tree
from atlas.analysis.voronoi import TIE, voronoi_partition
from atlas.arena.fairness import structure
from atlas.maps import board_facts, format_map, parse_map, read_map
from atlas.maps.validation import validator_of
from atlas.render.site.editor import (
    ANALYZE_PATH,
    EDIT_PREFIX,
    MAX_ANALYZE_BYTES,
    analyze_board,
    board_json,
    game_facts,
)

OUTPOST = ROOT / "maps" / "outpost" / "delta.txt"


@pytest.fixture
def served(tmp_path):
    s = Served(tmp_path)
    try:
        yield s
    finally:
        s.close()


def post(served, data, headers=None, raw=None):
    body = raw if raw is not None else json.dumps(data).encode()
    sent = {
        "Origin": f"http://127.0.0.1:{served.port}",
        "Content-Type": "application/json",
        **(headers or {}),
    }
    return served.request(ANALYZE_PATH, "POST", sent, body)


def the_game_with(**want):
    """A registered game whose board facts are as ``want`` says (no name written)."""
    for game in game_facts():
        f = board_facts(game)
        if all(getattr(f, k) == v for k, v in want.items()):
            return game
    raise AssertionError(f"no game with {want}")


def test_the_analysis_is_atlas_kernels_on_the_same_map(served):
    m = read_map(served.maps / "tron" / "good.txt")
    status, headers, body = post(served, board_json(m))
    assert status == 200 and headers["content-type"] == "application/json"
    a = json.loads(body)
    assert a["error"] is None and a["text"] == format_map(m)
    assert a["articulation"] == [list(c) for c in articulation_points(m.free)]
    owner = voronoi_partition(m.free, m.starts)
    assert a["voronoi"]["cells"] == [int((owner == k).sum()) for k in range(2)]
    assert a["voronoi"]["tie"] == int((owner == TIE).sum())
    for k, ch in enumerate(a["chambers"]):
        tree = chamber_tree(m.free, m.starts[k], m.starts[1 - k])
        assert ch["fillable"] == tree.fillable
        assert ch["sizes"] == [c.size for c in tree.chambers]
    assert a["problems"] == []  # this game does not validate its maps
    assert a["fairness"] == json.loads(json.dumps(structure(m).to_json()))
    assert a["free"] == int(m.free.sum())


def test_an_outpost_board_broken_by_a_stroke_has_its_problems_with_cells():
    game = the_game_with(symmetry="rot90")
    m = read_map(OUTPOST)
    board = board_json(m)
    assert analyze_board(board)["problems"] == []
    rows = [list(r) for r in board["rows"]]
    for r, c in ((0, 49), (49, 0), (50, 99), (99, 50)):  # water at the quarter's corner
        rows[r][c] = "#"
    board["rows"] = ["".join(r) for r in rows]
    a = analyze_board(board)
    text = a["text"]
    report = validator_of(game).validate_text(text, "map")
    assert [p["rule"] for p in a["problems"]] == [p.rule for p in report.problems]
    corner = next(p for p in a["problems"] if p["rule"] == "corner")
    assert corner["severity"] == "error" and [0, 49] in corner["cells"]
    assert a["fairness"]["symmetries"][:1] == ["rot90"]


def test_a_board_the_format_cannot_hold_says_why(served):
    m = read_map(served.maps / "tron" / "good.txt")
    board = board_json(m)
    board["starts"] = board["starts"][:1]
    status, _, body = post(served, board)
    a = json.loads(body)
    assert status == 200 and a["text"] is None and "start '2'" in a["error"]


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"rows": ["#"]}, "rows should be a list of 4 strings"),
        ({"rows": ["#######", "#.....#", "#.....#", "#####"]}, "row 3 should be 7"),
        ({"rows": ["#######", "#x....#", "#.....#", "#######"]}, "row 1 should be 7"),
        ({"width": -1}, "width should be a whole number"),
        ({"width": 2000, "height": 2000}, "larger than the editor's"),
        ({"game": "nope"}, "game should be one of"),
        ({"starts": [[0, 99]]}, "start 1's column"),
        ({"starts": "1"}, "starts should be a list"),
        ({"meta": {"x": {"y": 1}}}, "meta should be"),
        ({"meta": {"variant": "queen\n#"}}, "one word"),
        ({"meta": {"options": ["a", "b c"]}}, "one word"),
    ],
)
def test_a_malformed_board_is_a_clear_400(served, change, why):
    board = board_json(read_map(served.maps / "tron" / "good.txt"))
    board.update(change)
    status, _, body = post(served, board)
    assert status == 400
    text = body.decode()
    assert why in text and "Traceback" not in text


def test_not_json_is_a_clear_400(served):
    deep = b"[" * 200_000 + b"]" * 200_000  # deeper than Python's recursion
    for raw in (b"{", b"\xff\xfe", b"[1, 2]", b"null", deep):
        status, _, body = post(served, None, raw=raw)
        assert status == 400 and b"Traceback" not in body


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"Host": "evil.example:80"}, 403),
        ({"Origin": "http://evil.example"}, 403),
        ({"Origin": None}, 403),
        ({"Sec-Fetch-Site": "cross-site"}, 403),
        ({"Content-Type": "text/plain"}, 415),
        ({"Content-Type": "application/x-www-form-urlencoded"}, 415),
    ],
)
def test_an_analysis_from_elsewhere_is_refused(served, headers, status):
    board = board_json(read_map(served.maps / "tron" / "good.txt"))
    if "Host" in headers:  # a name of someone else's, with the server's port
        headers = {"Host": f"evil.example:{served.port}"}
    assert post(served, board, headers)[0] == status


def test_an_oversized_analysis_is_refused_unread(served):
    status, _, _ = post(served, None, {"Content-Length": str(MAX_ANALYZE_BYTES + 1)}, raw=b"{}")
    assert status == 413
    assert post(served, None, {"Content-Length": "x"}, raw=b"{}")[0] == 411
    assert served.request(ANALYZE_PATH, "PUT", {"Content-Length": "0"})[0] == 405  # POST only


def test_the_editor_page_holds_the_board_and_the_games_facts(served):
    status, _, body = served.request(EDIT_PREFIX + "tron/good.txt")
    assert status == 200
    text = body.decode()
    blob = text.split('id="ed-data">')[1].split("</script>")[0]
    data = json.loads(blob)
    assert (
        data["board"]["rows"] == board_json(read_map(served.maps / "tron" / "good.txt"))["rows"]
    )
    assert data["file"] == "tron/good.txt" and data["analyze"] == ANALYZE_PATH
    forced = the_game_with(symmetry="rot90")
    assert data["games"][forced]["symmetry"] == "rot90"
    assert data["games"][forced]["blocked"] == "water"
    assert served.request(EDIT_PREFIX)[0] == 200  # a new map
    assert served.request("/static/editor.js")[0] == 200


def test_a_save_under_a_new_name_never_overwrites(served):
    target = served.maps / "tron" / "good.txt"
    headers = {
        "Origin": f"http://127.0.0.1:{served.port}",
        "Content-Type": "text/plain",
        "If-None-Match": "*",
    }
    status, _, body = served.request("/__atlas/maps/tron/good.txt", "PUT", headers, b"5 3\n")
    assert status == 412 and b"exists" in body
    assert target.read_text() == GOOD
    status, _, _ = served.request("/__atlas/maps/tron/fresh.txt", "PUT", headers, GOOD.encode())
    assert status == 200 and (served.maps / "tron" / "fresh.txt").read_text() == GOOD


def test_round_trip_on_a_100x100_board(served):
    """Prints the round trip of an analysis of a 100x100 board (kernels warm)."""
    board = board_json(read_map(OUTPOST))
    post(served, board)  # warm
    times = []
    for _ in range(10):
        began = time.perf_counter()
        status, _, body = post(served, board)
        times.append(time.perf_counter() - began)
        assert status == 200
    server = json.loads(body)["seconds"]
    times.sort()
    print(
        f"\nanalysis round trip, 100x100 board: median {1000 * times[5]:.1f} ms, "
        f"max {1000 * times[-1]:.1f} ms (server {1000 * server:.1f} ms)"
    )


def test_the_first_map_of_a_game_makes_its_folder_and_nothing_else(served):
    game = the_game_with(walls=False)
    headers = {"Origin": f"http://127.0.0.1:{served.port}", "Content-Type": "text/plain"}
    text = format_map(read_map(next((ROOT / "maps" / game).glob("*.txt"))))
    status, _, _ = served.request(
        f"/__atlas/maps/{game}/first.txt", "PUT", headers, text.encode()
    )
    assert status == 200 and (served.maps / game / "first.txt").read_text() == text
    for rel in ("nogame/x.txt", f"{game}/deeper/x.txt", "tron2/x.txt"):
        status, _, _ = served.request(f"/__atlas/maps/{rel}", "PUT", headers, b"x")
        assert status == 403
    assert sorted(p.name for p in served.maps.iterdir()) == sorted(["tron", game])


def test_every_served_page_links_to_a_new_map(served):
    body = served.request("/")[2]
    assert f'href="{EDIT_PREFIX}">New map'.encode() in body


def test_a_game_of_ones_own_gets_the_editor_with_no_more_code():
    """The toy fifth game (``tests/sim/toygame``) states no board facts: the editor
    gives it walls, any size and a start a seat, and analyses its boards."""
    import sys

    sys.path.insert(0, str(ROOT / "tests" / "sim"))
    import toygame

    toygame.register()
    try:
        facts = game_facts()[toygame.NAME]
        assert facts["walls"] and facts["size"] is None and facts["symmetry"] is None
        assert facts["starts"] == [facts["players"]] and facts["blocked"] == "wall"
        board = {"game": toygame.NAME, "name": "t", "width": 3, "height": 3}
        a = analyze_board({**board, "rows": ["...", ".#.", "..."], "starts": []})
        assert a["error"] is None and a["free"] == 8 and a["text"].endswith(".#.\n...\n")
    finally:
        toygame.unregister()


def test_the_chambers_are_drawn_where_two_chambers_meet():
    # a room behind a door on seat 1's side: its tree has a chamber beyond the door
    rows = [
        "#############",
        "#    #      #",
        "#    #      #",
        "## ###      #",
        "#1          #",
        "#          2#",
        "#           #",
        "#############",
    ]
    text = "13 8\n" + "\n".join(rows) + "\n"
    m = parse_map(text, game="tron", name="rooms")
    a = analyze_board(board_json(m))
    assert a["error"] is None
    for k, ch in enumerate(a["chambers"]):
        labels = chamber_tree(m.free, m.starts[k], m.starts[1 - k]).labels
        rows, cols = labels.shape
        want = [
            [r, c, 0]
            for r in range(rows)
            for c in range(cols - 1)
            if labels[r, c] and labels[r, c + 1] and labels[r, c] != labels[r, c + 1]
        ] + [
            [r, c, 1]
            for r in range(rows - 1)
            for c in range(cols)
            if labels[r, c] and labels[r + 1, c] and labels[r, c] != labels[r + 1, c]
        ]
        assert ch["edges"] == want
        # every entrance is a cell with a side on another chamber
        sides = {(r, c) for r, c, _ in want} | {
            (r, c + 1) if d == 0 else (r + 1, c) for r, c, d in want
        }
        assert all(tuple(e) in sides for e in ch["entrances"])
    assert a["chambers"][0]["edges"] == [[4, 5, 0], [3, 2, 1]]  # the door, and a gate
