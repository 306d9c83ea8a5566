"""Outpost map validation: every rule, every line, the official maps, exit codes, our maps."""

from __future__ import annotations

import importlib.util
import json
import os
import re
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from atlas.cli import main
from atlas.errors import MapFormatError
from atlas.games.outpost.format import full_water as outpost_full_water
from atlas.games.outpost.validation import (
    ERROR_RULES,
    HOME_RADIUS,
    MAX_VALIDATE_BYTES,
    MIN_BOTTLENECK_LAND,
    RULES,
    WARNING_RULES,
    format_reports,
    validate_map_file,
    validate_paths,
    validate_text,
)
from atlas.maps import parse_map

ROOT = Path(__file__).resolve().parents[2]
OFFICIAL = ROOT / "tests" / "data" / "outpost-maps"
OURS = ROOT / "maps" / "outpost"

# A valid quarter: a 20x25 lake, x 10..29, y 10..34 (500 cells), listed x-major.
BLOCK = [(x, y) for x in range(10, 30) for y in range(10, 35)]


def text_of(cells, end="\n"):
    return "\n".join(f"{x} {y}" for x, y in cells) + end


def write(tmp_path, name, content):
    path = tmp_path / name
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return path


def problems(report, rule):
    return [p for p in report.problems if p.rule == rule]


def line_of(path, x, y):
    """The 1-based line listing 'x y' in a file, found without atlas."""
    for i, raw in enumerate(path.read_bytes().split(b"\n"), start=1):
        if raw.split() == [str(x).encode(), str(y).encode()]:
            return i
    raise AssertionError(f"{x} {y} not in {path}")


# --------------------------------------------------------------------------- official maps


@pytest.mark.parametrize("name", ["map1", "mapblob"])
def test_official_valid_maps_pass(name):
    report = validate_map_file(OFFICIAL / f"{name}.txt")
    assert report.valid and not report.unreadable
    assert report.errors == ()
    assert "official-reader" not in report.rules()
    assert int(report.blocked.sum()) == 500


@pytest.mark.parametrize("name", ["map0", "mapg3"])
def test_official_maps_with_water_at_the_centre_fail_on_corner_only(name):
    path = OFFICIAL / f"{name}.txt"
    report = validate_map_file(path)
    assert not report.valid and not report.unreadable
    assert [p.rule for p in report.errors] == ["corner"]
    (err,) = report.errors
    assert err.cell == (49, 49)
    assert err.line == line_of(path, 49, 49)
    assert "x=49, y=49" in err.message and "centre" in err.message
    # map0 lacks a final newline, mapg3 has CRLF line ends: both fine for the official reader.
    assert "official-reader" not in report.rules()
    assert report.to_json()["errors"][0]["cell"] == [49, 49]


# --------------------------------------------------------------------------- each rule


def test_base_map_is_valid_without_warnings(tmp_path):
    report = validate_map_file(write(tmp_path, "block.txt", text_of(BLOCK)))
    assert report.valid and report.problems == ()
    assert report.file.endswith("block.txt")


def test_format_errors_name_each_line(tmp_path):
    cells = [f"{x} {y}" for x, y in BLOCK]
    cells[4] = "a b"  # line 5
    cells[9] = "7"  # line 10: one field
    cells[19] = "12 13 14"  # line 20: extra field, which the official reader would accept
    report = validate_map_file(write(tmp_path, "fmt.txt", "\n".join(cells) + "\n"))
    fmt = problems(report, "format")
    assert [p.line for p in fmt] == [5, 10, 20]
    assert "'a b'" in fmt[0].message and "two whole numbers" in fmt[0].message
    assert [p.rule for p in report.errors] == ["format"] * 3 + ["count"]
    assert "497" in problems(report, "count")[0].message
    # An extra field is a format error but not an official-reader problem.
    assert "official-reader" not in report.rules()


def test_range_errors(tmp_path):
    cells = [f"{x} {y}" for x, y in BLOCK[:498]] + ["50 3", "-1 60"]
    report = validate_map_file(write(tmp_path, "range.txt", "\n".join(cells) + "\n"))
    rng = problems(report, "range")
    assert [p.line for p in rng] == [499, 500]
    assert "x=50" in rng[0].message and "y=" not in rng[0].message
    assert "x=-1 and y=60" in rng[1].message
    assert {p.rule for p in report.errors} == {"range", "count"}


def test_duplicate_names_both_lines(tmp_path):
    cells = BLOCK + [BLOCK[2], BLOCK[2], BLOCK[7]]
    report = validate_map_file(write(tmp_path, "dup.txt", text_of(cells)))
    dup = problems(report, "duplicate")
    assert [p.line for p in dup] == [501, 502, 503]
    x, y = BLOCK[2]
    assert dup[0].cell == (y, x)
    assert "first on line 3" in dup[0].message and "again on line 501" in dup[0].message
    assert "first on line 3" in dup[1].message and "again on line 502" in dup[1].message
    assert "first on line 8" in dup[2].message
    # 500 distinct cells: only the duplicates are wrong.
    assert [p.rule for p in report.errors] == ["duplicate"] * 3


@pytest.mark.parametrize("n", [0, 499, 501])
def test_count(tmp_path, n):
    extra = [(x, 40) for x in range(10, 30)]
    cells = (BLOCK + extra)[:n]
    report = validate_map_file(write(tmp_path, "count.txt", text_of(cells) if cells else ""))
    (err,) = report.errors
    assert err.rule == "count" and err.line is None
    assert f"has {n} distinct water cells" in err.message and "exactly 500" in err.message
    assert ("remove 1" if n > 500 else f"add {500 - n}") in err.message


def test_each_corner(tmp_path):
    corners = [(0, 0), (49, 0), (49, 49), (0, 49)]
    cells = BLOCK[:496] + corners
    report = validate_map_file(write(tmp_path, "corners.txt", text_of(cells)))
    errs = problems(report, "corner")
    assert [(p.cell, p.line) for p in errs] == [
        ((y, x), 497 + i) for i, (x, y) in enumerate(corners)
    ]
    assert "home" in errs[0].message
    # JSON cells are [x, y]: the corner x=49, y=0 is [49, 0].
    assert report.to_json()["errors"][1]["cell"] == [49, 0]
    # Four corners of water still leave the land connected, on the quarter and the board
    # (the copies meet through the other cells of the edges x=49 and y=49).
    assert {p.rule for p in report.errors} == {"corner"}


def ring_around(x0, y0, w, h):
    """Water cells of the one-cell ring around the land box [x0, x0+w) x [y0, y0+h)."""
    return sorted(
        {
            (x, y)
            for x in range(x0 - 1, x0 + w + 1)
            for y in range(y0 - 1, y0 + h + 1)
            if not (x0 <= x < x0 + w and y0 <= y < y0 + h)
        }
    )


def test_land_cut_off_in_the_quarter(tmp_path):
    ring = ring_around(40, 40, 3, 2)  # 3x2 land pocket, 16 water cells
    cells = BLOCK[: 500 - len(ring)] + ring
    report = validate_map_file(write(tmp_path, "pocket.txt", text_of(cells)))
    (err,) = problems(report, "land-connected")
    assert err.cell == (40, 40) and err.line is None
    assert sorted(err.region) == [(y, x) for y in (40, 41) for x in (40, 41, 42)]
    assert "x=40, y=40" in err.message and "6 land cells" in err.message
    # The pocket is also cut off on the full board: a piece of 6, unique up to rotation.
    (full,) = problems(report, "full-land-connected")
    assert "4 pieces (rotated copies) of 6 land cells" in full.message
    assert sorted(full.region) == sorted(err.region)
    assert report.to_json()["errors"][0]["region"][0] == [40, 40]


def test_centre_piece_cut_off_on_both(tmp_path):
    # Quarter (49,49) is land but (48,49) and (49,48) are water: on the full board the
    # four copies of (49,49) make one 2x2 island at the centre.
    cells = BLOCK[:498] + [(48, 49), (49, 48)]
    report = validate_map_file(write(tmp_path, "centre.txt", text_of(cells)))
    (quarter,) = problems(report, "land-connected")
    assert quarter.cell == (49, 49) and "a single land cell" in quarter.message
    (full,) = problems(report, "full-land-connected")
    assert "a piece of 4 land cells" in full.message and full.cell == (49, 49)
    assert {p.rule for p in report.errors} == {"land-connected", "full-land-connected"}


def test_full_board_falls_apart(tmp_path):
    # The column x=49 all water: each quarter's land is connected, but no land crosses
    # from one rotated copy to the next.
    column = [(49, y) for y in range(50)]
    cells = BLOCK[:450] + column
    report = validate_map_file(write(tmp_path, "column.txt", text_of(cells)))
    assert "land-connected" not in report.rules()
    (full,) = problems(report, "full-land-connected")
    assert "3 pieces (rotated copies)" in full.message
    assert "x=99, y=0" in full.message and "x=99, y=99" in full.message
    assert {p.rule for p in report.errors} == {"corner", "full-land-connected"}


def test_several_problems_all_listed(tmp_path):
    lines = [f"{x} {y}" for x, y in BLOCK[:495]]
    lines[0] = "0 0"  # corner, line 1
    lines[9] = "x y"  # format, line 10
    lines[99] = "70 1"  # range, line 100
    lines.append(lines[49])  # duplicate, line 496
    text = "\n".join(lines) + "\n"
    report = validate_map_file(write(tmp_path, "many.txt", text))
    got = [(p.rule, p.line) for p in report.errors]
    assert got == [
        ("format", 10),
        ("range", 100),
        ("duplicate", 496),
        ("count", None),
        ("corner", 1),
    ]
    assert not report.valid
    shown = format_reports([report])
    for rule, line in got:
        assert f"[{rule}]" in shown
        if line is not None:
            assert f"many.txt:{line}: error [{rule}]" in shown
    assert shown.splitlines()[-1] == "1 file: 0 valid, 1 invalid"


# --------------------------------------------------------------------------- official reader


QUIRKS = {
    "blank line": ("1 2\n\n3 4\n", 2, "empty line"),
    "doubled final newline": ("1 2\n3 4\n\n", 3, "ends with two line breaks"),
    "whitespace-only line": ("1 2\n   \n3 4\n", 2, "nothing but whitespace"),
    "leading space": ("1 2\n 3 4\n", 2, "space at the start"),
    "doubled space": ("1 2\n3  4\n", 2, "two spaces in a row"),
    "tab": ("1 2\n3\t4\n", 2, "tab"),
    "trailing tab": ("1 2\n3 4\t\n", 2, "tab"),
    "comma": ("1 2\n3,4\n", 2, "comma"),
    "comma and space": ("1 2\n3, 4\n", 2, "comma"),
    "byte-order mark": ("\ufeff1 2\n3 4\n", 1, "byte-order mark"),
    "lone carriage return": ("1 2\n3 4\r\r\n", 2, "carriage return"),
    "no-break space": ("1 2\n3\u00a04\n", 2, "U+00A0"),
}


@pytest.mark.parametrize("case", sorted(QUIRKS))
def test_official_reader_warnings(case, tmp_path):
    text, line, words = QUIRKS[case]
    report = validate_map_file(write(tmp_path, "q.txt", text))
    warns = problems(report, "official-reader")
    assert [w.line for w in warns] == [line], case
    assert words in warns[0].message
    # Only warnings: atlas reads these lines (the map is invalid only for its count).
    assert {p.rule for p in report.errors} == {"count"}
    assert int(report.blocked.sum()) == 2


@pytest.mark.parametrize(
    "text", ["1 2\r\n3 4\r\n", "1 2  \n3 4 \n", "1 2\n3 4", "1 2\n3 4 \t\n", "+1 2\n3 4\n"]
)
def test_what_the_official_reader_accepts_is_not_warned(text):
    report = validate_text(text, "ok.txt")
    assert "official-reader" not in report.rules()
    assert int(report.blocked.sum()) == 2


def test_our_format_lines_never_warn():
    report = validate_text(text_of(BLOCK), "block.txt")
    assert report.problems == ()


# --------------------------------------------------------------------------- design hints


def reference_bottlenecks(water):
    """The home-bottleneck cells by networkx: articulation points of the board's land
    within HOME_RADIUS of [0, 0] whose removal cuts off the home or enough land."""
    land = ~outpost_full_water(water)
    g = nx.grid_2d_graph(*land.shape)
    g.remove_nodes_from([tuple(map(int, c)) for c in zip(*np.nonzero(~land))])
    out = set()
    for r, c in nx.articulation_points(g):
        if not 0 < r + c <= HOME_RADIUS:
            continue
        h = nx.restricted_view(g, [(r, c)], [])
        sides = [
            comp
            for comp in nx.connected_components(h)
            if any(((r + dr, c + dc) in comp) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)))
        ]
        big = max(sides, key=len)
        rest = [s for s in sides if s is not big]
        if any((0, 0) in s for s in rest) or sum(map(len, rest)) >= MIN_BOTTLENECK_LAND:
            out.add((r, c))
    return out


def test_home_behind_a_gate(tmp_path):
    wall = [(5, y) for y in range(6)] + [(x, 5) for x in range(5)]
    wall.remove((2, 5))  # the gate
    cells = BLOCK[: 500 - len(wall)] + wall
    report = validate_map_file(write(tmp_path, "gate.txt", text_of(cells)))
    assert report.valid
    warned = {p.cell for p in problems(report, "home-bottleneck")}
    assert (5, 2) in warned  # the gate, [row, col] = [y, x]
    assert warned == reference_bottlenecks(report.blocked)
    gate = next(p for p in problems(report, "home-bottleneck") if p.cell == (5, 2))
    assert "x=2, y=5" in gate.message and "7 steps" in gate.message


def test_bottleneck_rule_matches_networkx_on_random_maps():
    rng = np.random.default_rng(2014)
    rows, cols = np.mgrid[0:50, 0:50]
    total = 0
    for density in (0.25, 0.35, 0.4):
        # Random water around the home, plus the block to make up the count.
        water = (rows + cols <= 16) & (rng.random((50, 50)) < density)
        water[0, 0] = False
        cells = [(int(x), int(y)) for y, x in zip(*np.nonzero(water))]
        cells += [xy for xy in BLOCK if not water[xy[1], xy[0]]][: 500 - len(cells)]
        report = validate_text(text_of(cells), "random.txt")
        warned = {p.cell for p in problems(report, "home-bottleneck")}
        assert warned == reference_bottlenecks(report.blocked)
        assert all(r + c <= HOME_RADIUS for r, c in warned)
        total += len(warned)
    assert total >= 5  # the comparison is not vacuous


def test_small_dead_end_is_not_a_bottleneck(tmp_path):
    # A 3x3 pocket of land (x 4..6, y 0..2) behind the one-cell neck x=5, y=3, eight
    # steps from home: 9 or 10 cells cut off, too few to matter.
    wall = [(3, y) for y in range(4)] + [(7, y) for y in range(4)] + [(4, 3), (6, 3)]
    cells = BLOCK[: 500 - len(wall)] + wall
    report = validate_text(text_of(cells), "spit.txt")
    assert report.valid
    assert "home-bottleneck" not in report.rules()
    assert reference_bottlenecks(report.blocked) == set()
    # A bigger pocket (x 4..9, y 0..3: 24 cells) behind the same kind of neck is warned.
    wall = [(3, y) for y in range(5)] + [(10, y) for y in range(5)]
    wall += [(x, 4) for x in range(4, 10) if x != 6]
    cells = BLOCK[: 500 - len(wall)] + wall
    report = validate_text(text_of(cells), "pocket.txt")
    warned = {p.cell for p in problems(report, "home-bottleneck")}
    assert (4, 6) in warned and warned == reference_bottlenecks(report.blocked)
    neck = next(p for p in problems(report, "home-bottleneck") if p.cell == (4, 6))
    assert neck.message.startswith("24 land cells reach the rest")


def test_scattered_water():
    rng = np.random.default_rng(7)
    free = [
        (x, y)
        for x in range(50)
        for y in range(50)
        if (x + y) % 2 == 0 and (x, y) not in ((0, 0), (49, 49))
    ]
    pick = rng.choice(len(free), size=500, replace=False)
    cells = [free[i] for i in sorted(pick)]
    report = validate_text(text_of(cells), "noise.txt")
    (warn,) = problems(report, "scattered-water")
    assert re.search(r"\d+ of the 500 water cells touch no other water", warn.message)
    assert len(warn.region) >= 125
    assert "scattered-water" not in validate_text(text_of(BLOCK)).rules()


# --------------------------------------------------------------------------- cross-checks


def test_connectivity_rules_match_networkx():
    rng = np.random.default_rng(11)
    for _ in range(12):
        water = np.zeros((50, 50), dtype=bool)
        # Random rectangles' outlines: they often enclose land.
        for _ in range(rng.integers(4, 12)):
            r, c = rng.integers(0, 46, size=2)
            h, w = rng.integers(2, 10, size=2)
            water[r : r + h, c] = water[r : r + h, min(c + w, 49)] = True
            water[r, c : c + w] = water[min(r + h, 49), c : c + w + 1] = True
        cells = [(int(x), int(y)) for y, x in zip(*np.nonzero(water))]
        report = validate_text(text_of(cells), "rings.txt")
        for grid, rule in (
            (~water, "land-connected"),
            (~outpost_full_water(water), "full-land-connected"),
        ):
            g = nx.grid_2d_graph(*grid.shape)
            g.remove_nodes_from([tuple(map(int, c)) for c in zip(*np.nonzero(~grid))])
            comps = list(nx.connected_components(g))
            cut = [p for p in report.errors if p.rule == rule]
            if rule == "land-connected":
                assert len(cut) == len(comps) - 1
                main = (
                    next(cp for cp in comps if (0, 0) in cp)
                    if grid[0, 0]
                    else max(comps, key=len)
                )
                assert sorted(sorted(p.region) for p in cut) == sorted(
                    sorted(cp) for cp in comps if cp is not main
                )
            else:
                # Every cut-off cell of the board, taken back to the quarter, is in the
                # region of a problem, and nothing else is.
                main = (
                    next(cp for cp in comps if (0, 0) in cp)
                    if grid[0, 0]
                    else max(comps, key=len)
                )
                cut_off = np.zeros((100, 100), dtype=bool)
                for cp in comps:
                    if cp is not main:
                        cut_off[tuple(np.array(sorted(cp)).T)] = True
                back = np.zeros((50, 50), dtype=bool)
                for k in range(4):  # undo each rotation: the quarter is the top-left copy
                    back |= np.rot90(cut_off, k)[:50, :50]
                marked = np.zeros((50, 50), dtype=bool)
                for p in cut:
                    marked[tuple(np.array(p.region).T)] = True
                assert np.array_equal(marked, back)
                assert bool(cut) == (len(comps) > 1)


# --------------------------------------------------------------------------- files, CLI


def test_unreadable_and_not_a_map(tmp_path):
    empty_dir = tmp_path / "empty"
    empty_dir.mkdir()
    binary = write(tmp_path, "pic.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    latin = write(tmp_path, "latin.txt", b"1 2\n3 4\n5 \xe96\n")
    huge = tmp_path / "huge.txt"
    with open(huge, "wb") as fh:
        fh.truncate(50 * 1024 * 1024)  # sparse: nothing written, nothing read
    reports = validate_paths([tmp_path / "missing.txt", empty_dir, binary, latin, huge])
    missing, nomaps, bin_rep, latin_rep, huge_rep = reports
    assert missing.unreadable and "no such file" in missing.errors[0].message
    assert nomaps.unreadable and "no Outpost map files" in nomaps.errors[0].message
    assert missing.errors[0].rule == nomaps.errors[0].rule == "unreadable"
    for rep in (bin_rep, latin_rep, huge_rep):
        assert not rep.valid and not rep.unreadable and rep.errors[0].rule == "file"
        assert rep.blocked is None
    assert "NUL" in bin_rep.errors[0].message
    assert "UTF-8" in latin_rep.errors[0].message and latin_rep.errors[0].line == 3
    assert f"{MAX_VALIDATE_BYTES:,}" in huge_rep.errors[0].message


def test_folders_are_walked_and_files_counted_once(tmp_path):
    sub = tmp_path / "maps"
    sub.mkdir()
    good = write(sub, "good.txt", text_of(BLOCK))
    write(sub, "bad.txt", text_of(BLOCK[:-1]))
    write(sub, "notes.md", "not a map")
    reports = validate_paths([sub, good])
    assert [Path(r.file).name for r in reports] == ["bad.txt", "good.txt"]
    assert [r.valid for r in reports] == [False, True]
    # The repository's maps folder: only maps/outpost is checked, and all of it passes.
    reports = validate_paths([ROOT / "maps"])
    assert sorted(Path(r.file).name for r in reports) == sorted(
        p.name for p in OURS.glob("*.txt")
    )
    assert all(r.valid for r in reports)
    # A file named directly is checked whatever its folder: a tron map is no Outpost map.
    (tron,) = validate_paths([sorted((ROOT / "maps" / "tron").glob("*.txt"))[0]])
    assert not tron.valid and "format" in tron.rules()


def test_cli_exit_codes_and_json(tmp_path, capsys):
    good = write(tmp_path, "good.txt", text_of(BLOCK))
    bad = write(tmp_path, "bad.txt", text_of(BLOCK[:-1] + [(0, 0)]))
    assert main(["validate", str(good)]) == 0
    assert "good.txt: valid" in capsys.readouterr().out
    assert main(["validate", str(good), str(bad)]) == 1
    out = capsys.readouterr().out
    assert "bad.txt:500: error [corner]" in out
    assert main(["validate", str(good), str(tmp_path / "nope.txt")]) == 2
    assert main(["validate", str(tmp_path / "no-such-folder")]) == 2
    capsys.readouterr()
    assert main(["validate", "--json", str(good), str(bad)]) == 1
    data = json.loads(capsys.readouterr().out)
    assert [d["valid"] for d in data] == [True, False]
    assert set(data[1]) >= {"file", "valid", "errors", "warnings"}
    (err,) = data[1]["errors"]
    assert err == {"rule": "corner", "line": 500, "cell": [0, 0], "message": err["message"]}
    with pytest.raises(SystemExit) as exc:
        main(["validate"])
    assert exc.value.code == 2


def test_rule_table_is_documented():
    assert set(RULES) == set(ERROR_RULES) | set(WARNING_RULES)
    doc = (ROOT / "docs" / "validate.md").read_text(encoding="utf-8")
    for rule in RULES:
        assert f"`{rule}`" in doc, rule


# --------------------------------------------------------------------------- our maps


def test_our_maps_are_valid_and_in_the_official_format():
    paths = sorted(OURS.glob("*.txt"))
    assert len(paths) == 4
    for path in paths:
        report = validate_map_file(path)
        assert report.valid and report.problems == (), (path.name, report.problems)
        raw = path.read_bytes()
        assert re.fullmatch(rb"(\d{1,2} \d{1,2}\n){500}", raw), path.name
        water = report.blocked
        # Lakes and rivers, not noise: almost every water cell has a water neighbour.
        pad = np.pad(outpost_full_water(water), 1)
        touching = (pad[:-2, 1:-1] | pad[2:, 1:-1] | pad[1:-1, :-2] | pad[1:-1, 2:])[:50, :50]
        assert int((water & ~touching).sum()) <= 5, path.name


def test_generator_writes_exactly_our_maps(tmp_path):
    spec = importlib.util.spec_from_file_location(
        "make_outpost_maps", ROOT / "tools" / "make_outpost_maps.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    written = module.write_all(tmp_path)
    assert sorted(p.name for p in written) == sorted(p.name for p in OURS.glob("*.txt"))
    for p in written:
        assert p.read_bytes() == (OURS / p.name).read_bytes(), p.name


# --------------------------------------------------------------------------- robustness


LINE = st.one_of(
    st.tuples(st.integers(-3, 60), st.integers(-3, 60)).map(lambda t: f"{t[0]} {t[1]}"),
    st.sampled_from(
        [
            "",
            " ",
            "\t",
            "1,2",
            " 3 4",
            "5  6",
            "7\t8",
            "9 9 9",
            "x",
            "\ufeff1 1",
            "2 3\r",
            "4 5 ",
            "+6 7",
            "\r",
        ]
    ),
    st.text(max_size=8),
)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(st.lists(LINE, max_size=30), st.sampled_from(["\n", "\r\n"]), st.booleans())
def test_any_text_gives_a_report_that_agrees_with_the_reader(lines, eol, final):
    text = eol.join(lines) + (eol if final else "")
    report = validate_text(text, "fuzz.txt")
    json.dumps(report.to_json())
    n_lines = text.count("\n") + 1
    for p in report.problems:
        assert p.rule in RULES
        assert p.line is None or 1 <= p.line <= n_lines
        assert p.cell is None or (0 <= p.cell[0] < 50 and 0 <= p.cell[1] < 50)
    assert report.valid == (not report.errors)
    # Where the map reader accepts the text, the validator read the same water.
    try:
        game_map = parse_map(text.lstrip("\ufeff"), game="outpost")
    except MapFormatError:
        assert report.rules() & {"format", "range", "count"}
        return
    assert not report.rules() & {"format", "range"}
    assert np.array_equal(game_map.blocked[:50, :50], report.blocked)


def test_hostile_files_are_reported_never_raised(tmp_path):
    # the 5,000-digit number of the issue: a format problem on its line
    lines = text_of(BLOCK).splitlines()
    lines[3] = "1 " + "9" * 5000
    report = validate_map_file(write(tmp_path, "digits.txt", "\n".join(lines) + "\n"))
    (problem,) = [p for p in report.errors if p.rule == "format"]
    assert problem.line == 4 and "y has 5000 digits, more than 20" in problem.message
    for odd in ("²", "٣"):  # digits int() would read, the format does not
        lines[3] = f"1 {odd}"
        report = validate_map_file(write(tmp_path, "odd.txt", "\n".join(lines) + "\n"))
        assert [p.line for p in report.errors if p.rule == "format"] == [4]
    # inside a folder: a FIFO is not opened, a symlink out of the folder is not followed
    folder = tmp_path / "maps"
    folder.mkdir()
    write(folder, "good.txt", text_of(BLOCK))
    os.mkfifo(folder / "pipe.txt")
    secret = write(tmp_path, "secret.txt", "0 0\n")
    (folder / "leak.txt").symlink_to(secret)
    reports = {Path(r.file).name: r for r in validate_paths([folder])}
    assert reports["good.txt"].valid
    assert reports["pipe.txt"].unreadable
    assert "FIFO" in reports["pipe.txt"].errors[0].message
    assert reports["leak.txt"].unreadable
    assert "leads out of the maps folder" in reports["leak.txt"].errors[0].message
    assert reports["leak.txt"].blocked is None  # never read
    # named directly, a FIFO is reported too, without blocking
    (fifo,) = validate_paths([folder / "pipe.txt"])
    assert fifo.unreadable and "not a regular file" in fifo.errors[0].message
