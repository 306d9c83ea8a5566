"""Map formats: every bundled and contest map round-trips; bad files name file, line, problem."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from atlas.errors import MapFormatError
from atlas.games.outpost.format import HOMES as OUTPOST_HOMES
from atlas.games.outpost.format import full_water as outpost_full_water
from atlas.maps import (
    find_maps,
    format_map,
    parse_map,
    read_map,
    scan_maps,
    write_map,
)

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT / "tests" / "data"
BUNDLED = find_maps(ROOT / "maps")
CONTEST = find_maps(SHARED / "tron-maps") + find_maps(SHARED / "outpost-maps")


def test_the_contest_maps_are_here():
    # The parametrized tests below would run nothing (not fail) without tests/data.
    assert len(find_maps(SHARED / "tron-maps")) >= 16
    assert len(find_maps(SHARED / "outpost-maps")) >= 4


def test_bundled_maps_cover_every_game():
    games = {}
    for path in BUNDLED:
        games.setdefault(read_map(path).game, []).append(path)
    assert len(games["tron"]) >= 12
    assert len(games["isolation"]) >= 3
    assert len(games["connect5"]) >= 2
    sizes = [read_map(p).shape for p in games["tron"]]
    assert min(sizes) == (15, 15) and max(max(s) for s in sizes) >= 50


@pytest.mark.parametrize("path", BUNDLED + CONTEST, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_round_trip(path, tmp_path):
    game_map = read_map(path, game="outpost" if "outpost" in path.parent.name else None)
    out = tmp_path / path.name
    write_map(game_map, out)
    again = read_map(out, game=game_map.game)
    assert again == game_map
    assert again.content_hash == game_map.content_hash


@pytest.mark.parametrize("path", find_maps(SHARED / "tron-maps"), ids=lambda p: p.name)
def test_tron_contest_maps_write_back_byte_for_byte(path):
    assert format_map(read_map(path)) == path.read_text()


def test_tron_orientation():
    m = parse_map("4 3\n####\n#1 #\n##2#\n", game="tron")
    assert m.shape == (3, 4)
    assert m.starts == ((1, 1), (2, 2))
    assert m.blocked[1].tolist() == [True, False, False, True]
    assert not m.blocked[2, 2]


def test_tron_short_rows_padded_and_crlf():
    m = parse_map("3 2\r\n#1\r\n2##\r\n", game="tron")
    assert m.blocked.tolist() == [[True, False, False], [False, True, True]]


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("3 2\n#1#\n2###\n", 3, "row has 4 characters, expected 3"),
        ("3 2\n#1#\n2#x\n", 3, "unexpected character 'x' in column 3"),
        ("3\n#1#\n", 1, "expected the size 'W H'"),
        ("3 3\n#1#\n#2#\n", 4, "expected 3 rows after the size line, found 2"),
        ("3 2\n#1#\n#1#\n", 3, "second start '1'"),
    ],
)
def test_tron_errors_name_file_and_line(tmp_path, text, line, words):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(MapFormatError) as info:
        read_map(path, game="tron")
    assert info.value.line == line
    assert str(info.value).startswith(f"{path}:{line}: ")
    assert words in str(info.value)
    assert isinstance(info.value, ValueError)


def test_tron_missing_start(tmp_path):
    with pytest.raises(MapFormatError, match="no start '2'"):
        parse_map("3 1\n#1#\n", game="tron")


def test_outpost_rotational_symmetry_and_homes():
    m = parse_map("3 1\n0 49\n", game="outpost")
    water = {tuple(rc) for rc in np.argwhere(m.blocked)}
    # file (x, y) = (3, 1) is [row 1, col 3]; rotations (99-y, x), (99-x, 99-y), (y, 99-x)
    assert {(1, 3), (3, 98), (98, 96), (96, 1)} <= water
    assert {(49, 0), (0, 50), (50, 99), (99, 49)} <= water
    assert len(water) == 8
    assert m.starts == OUTPOST_HOMES == ((0, 0), (0, 99), (99, 99), (99, 0))


def test_outpost_transpose_swaps_seats_1_and_3():
    """Swapping x and y mirrors the board (transposes it) and swaps seats 1 and 3."""
    rng = np.random.default_rng(3)
    quarter = rng.random((50, 50)) < 0.2
    full = outpost_full_water(quarter)
    mirrored = outpost_full_water(quarter.T)
    assert np.array_equal(mirrored, full.T)
    homes_t = [(c, r) for r, c in OUTPOST_HOMES]
    assert homes_t == [OUTPOST_HOMES[0], OUTPOST_HOMES[3], OUTPOST_HOMES[2], OUTPOST_HOMES[1]]


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("1 2\n3 x\n", 2, "expected two whole numbers"),
        ("1 2\n50 3\n", 2, "outside the 50x50 quarter"),
        ("1 2\n3\n", 2, "expected two whole numbers"),
    ],
)
def test_outpost_errors(text, line, words):
    with pytest.raises(MapFormatError) as info:
        parse_map(text, game="outpost", path="sub.txt")
    assert info.value.line == line and words in str(info.value)


def test_isolation_format():
    m = parse_map("; a comment\nisolation 3 2 knight\n1.#\n..2\n", game="isolation")
    assert m.meta["variant"] == "knight" and m.starts == ((0, 0), (1, 2))
    assert m.blocked.tolist() == [[False, False, True], [False, False, False]]
    free = parse_map("isolation 2 2\n..\n..\n", game="isolation")
    assert free.starts == () and free.meta["variant"] == "queen"
    assert format_map(free) == "isolation 2 2 queen\n..\n..\n"


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("isolation 2 2 bishop\n..\n..\n", 1, "unknown variant 'bishop'"),
        ("isolation 2 2\n1.\n..\n", None, "start '2' is missing"),
        ("isolation 2 2\n...\n..\n", 2, "row has 3 characters"),
    ],
)
def test_isolation_errors(text, line, words):
    with pytest.raises(MapFormatError) as info:
        parse_map(text, game="isolation")
    assert info.value.line == line and words in str(info.value)


def test_connect5_format():
    m = parse_map("connect5 7 6 4\n", game="connect5")
    assert m.shape == (6, 7) and m.meta["inarow"] == 4 and not m.blocked.any()
    with pytest.raises(MapFormatError, match="in-a-row 9 cannot be reached"):
        parse_map("connect5 7 6 9\n", game="connect5")
    with pytest.raises(MapFormatError, match="expected 'connect5 COLUMNS ROWS INAROW'"):
        parse_map("connect5 7 6\n", game="connect5")


def test_game_sniffed_from_content():
    assert parse_map("3 2\n#12\n###\n").game == "tron"
    assert parse_map("1 2\n3 4\n").game == "outpost"
    assert parse_map("isolation 1 1\n.\n").game == "isolation"
    with pytest.raises(MapFormatError, match="cannot tell which game"):
        parse_map("hello\n")


def test_binary_huge_and_missing_files(tmp_path):
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"3 1\n\x00\x01\x02\n")
    with pytest.raises(MapFormatError, match="binary file"):
        read_map(binary)
    huge = tmp_path / "huge.txt"
    huge.write_bytes(b"0 0\n" * 2_000_000)
    with pytest.raises(MapFormatError, match="8,000,000 bytes, more than atlas reads"):
        read_map(huge)
    with pytest.raises(MapFormatError, match="cannot read file"):
        read_map(tmp_path / "missing.txt")
    latin = tmp_path / "latin.txt"
    latin.write_bytes(b"3 1\n#1\xe9\n")
    with pytest.raises(MapFormatError, match=r"latin.txt:2: not UTF-8"):
        read_map(latin, game="tron")


def test_grid_format_of_any_other_game_round_trips():
    text = "; a comment\nmygame 4 3 fast wide\n1..#\n.#..\n3..2\n"
    gm = parse_map(text, name="g")
    assert gm.game == "mygame" and gm.shape == (3, 4)
    assert gm.starts == ((0, 0), (2, 3), (2, 0))  # by number, not by position
    assert gm.meta["options"] == ("fast", "wide")
    assert gm.blocked.tolist() == [
        [False, False, False, True],
        [False, True, False, False],
        [False, False, False, False],
    ]
    again = parse_map(format_map(gm), name="g")
    assert again == gm and format_map(again) == "mygame 4 3 fast wide\n1..#\n.#..\n3..2\n"


@pytest.mark.parametrize(
    "text, message",
    [
        ("mygame 2 2\n1.\n.3\n", "numbered from 1 with none missing"),
        ("mygame 2 2\n1.\n", "expected 2 rows"),
        ("mygame 2 2\n1x\n..\n", "unexpected character 'x'"),
        ("mygame 2 2\n11\n..\n", "second start '1'"),
        ("mygame two 2\n..\n..\n", "cannot tell which game"),
    ],
)
def test_grid_format_errors_name_the_problem(text, message):
    with pytest.raises(MapFormatError, match=message):
        parse_map(text)


def test_a_game_name_must_be_a_plain_word():
    with pytest.raises(MapFormatError, match="bad game name"):
        parse_map("1 1\n.\n", game="../etc")


# --------------------------------------------------------------------------- hostile input


def test_the_headers_of_the_issue_are_located_errors_not_tracebacks():
    cases = {
        "connect5 ² 6 4\n": "expected 'connect5 COLUMNS ROWS INAROW', got '²' for COLUMNS",
        "connect5 7 ٣ 4\n": "got '٣' for ROWS",
        "isolation ² 2\n..\n..\n": "got '²' for the width",
        "10000 10000\n#1 2\n": "10000x10000 is 100,000,000 cells, more than atlas reads",
        "isolation 5000 1000\n": "5000x1000 is 5,000,000 cells",
        "1 " + "9" * 5000 + "\n": "the height has 5000 digits, more than 20",
        "connect5 7 6 " + "4" * 25 + "\n": "INAROW has 25 digits",
    }
    for text, fragment in cases.items():
        with pytest.raises(MapFormatError) as info:
            parse_map(text, path="m.txt")
        assert fragment in str(info.value), (text[:30], str(info.value))
        assert str(info.value).startswith("m.txt:1: ")
    with pytest.raises(
        MapFormatError,
        match=r"o.txt:2: expected two whole numbers 'x y', "
        r"got '1 9999.*y has 5000 digits",
    ):
        parse_map("3 4\n1 " + "9" * 5000 + "\n", game="outpost", path="o.txt")


def test_a_huge_header_is_refused_before_any_grid_is_allocated():
    import tracemalloc

    text = "10000 10000\n" + "\n" * 5000  # 10 KB that would have been 10^8 padded cells
    tracemalloc.start()
    try:
        with pytest.raises(MapFormatError, match="more than atlas reads"):
            parse_map(text, game="tron")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000
    # the largest map atlas reads costs a few bytes per cell, not more
    big = "2000 2000\n1" + " " * 1998 + "2\n" + "\n" * 1999
    tracemalloc.start()
    try:
        gm = parse_map(big, game="tron")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert gm.shape == (2000, 2000) and gm.starts == ((0, 0), (0, 1999))
    assert peak < 40 * 4_000_000


def test_fifos_devices_and_folders_are_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)  # opening it for reading would block until a writer comes
    with pytest.raises(MapFormatError, match="not a regular file: a FIFO"):
        read_map(fifo, game="tron")
    with pytest.raises(MapFormatError, match="not a regular file: a character device"):
        read_map("/dev/zero", game="tron")
    with pytest.raises(MapFormatError, match="not a regular file: a folder"):
        read_map(tmp_path, game="tron")


def test_scan_maps_does_not_follow_symlinks_out_of_the_folder(tmp_path):
    maps = tmp_path / "maps"
    (maps / "tron").mkdir(parents=True)
    outside = tmp_path / "private"
    outside.mkdir()
    (outside / "notes.txt").write_text("10 1\n1        2\n")
    (maps / "tron" / "ok.txt").write_text("3 1\n1 2\n")
    (maps / "tron" / "inside.txt").symlink_to(maps / "tron" / "ok.txt")
    (maps / "tron" / "leak.txt").symlink_to(outside / "notes.txt")
    (maps / "tron" / "dangling.txt").symlink_to(tmp_path / "nowhere.txt")
    (maps / "more").symlink_to(outside, target_is_directory=True)
    os.mkfifo(maps / "tron" / "pipe.txt")
    scan = scan_maps(maps)
    assert [p.name for p in scan.files] == ["inside.txt", "ok.txt"]
    assert find_maps(maps) == list(scan.files)
    why = {Path(e.path).name: e.reason for e in scan.problems}
    assert why == {
        "dangling.txt": "a symlink that leads nowhere (or into a loop), not followed",
        "leak.txt": "a symlink that leads out of the maps folder, not followed",
        "more": "a symlink that leads out of the maps folder, not followed",
        "pipe.txt": "not a regular file: a FIFO (named pipe), not opened",
    }
    assert all(str(e).startswith(str(maps)) for e in scan.problems)
