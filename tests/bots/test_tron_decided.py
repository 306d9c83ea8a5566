"""``benchmarks/tron_decided.py``: where a tron game was decided, on scripted games whose
rooms and fills are worked out by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from atlas.maps import parse_map
from atlas.sim.records import save_record
from tests.conftest import benchmark_module
from tests.render.render_helpers import play_record, scripted_mover

N, E, S, W = 1, 2, 3, 4

#: Seat 1 in a room of 5 cells (2 x 3 less its start), seat 2 in a corridor of 4.
ROOMS = "7 6\n#######\n#1  ###\n#   ###\n#######\n#2    #\n#######\n"


@pytest.fixture(scope="module")
def decided_mod():
    return benchmark_module("tron_decided")


def scripted(text: str, moves: list[tuple[int, int]]):
    """The record of a tron game on ``text`` whose seats (``a`` and ``b``) make
    ``moves`` turn by turn (the game must be over after the last)."""
    gm = parse_map(text, game="tron", name="scripted")
    rec = play_record("tron", gm, players=("a", "b"), chooser=scripted_mover(moves))
    assert len(rec.turns) == len(moves)
    return rec


def test_out_filled(decided_mod):
    # Seat 1 fills 3 of its 5 cells (east, south, west: then boxed in); seat 2 rides its
    # 4-cell corridor east and is still riding when seat 1 crashes on turn 4.
    rec = scripted(ROOMS, [(E, E), (S, E), (W, E), (N, E)])
    d = decided_mod.decided(rec)
    assert d["separated"] == 0 and d["loser"] == 0 and d["turns"] == 4
    assert d["rooms"][0] == {"cells": 5, "parity": 5, "chambers": 5, "bound": 5, "fill": 5}
    assert d["rooms"][1] == {"cells": 4, "parity": 4, "chambers": 4, "bound": 4, "fill": 4}
    assert d["moves_after"] == [3, 4]
    # its greedy fill (5) beats anything seat 2 can do (4): lost in the fill
    assert d["kind"] == "out-filled"


def test_sealed(decided_mod):
    # Seat 1 snakes through all 5 cells; seat 2 runs out after its 4 and crashes on turn 5.
    rec = scripted(ROOMS, [(E, E), (E, E), (S, E), (W, E), (W, E)])
    d = decided_mod.decided(rec)
    assert d["loser"] == 1 and d["moves_after"] == [5, 4]
    assert d["kind"] == "sealed"  # its bound (4) is below seat 1's fill (5)


def test_contact_head_on_and_tally(decided_mod, tmp_path: Path):
    corridor = "6 3\n######\n#1  2#\n######\n"
    # seat 1 turns into the wall on turn 1 while the cycles share the corridor
    contact = decided_mod.decided(scripted(corridor, [(W, W)]))
    assert contact["kind"] == "contact" and contact["separated"] is None
    assert contact["loser"] == 0 and contact["rooms"] == []
    # both ride to the middle: they meet head-on on turn 2
    middle = "7 3\n#######\n#1   2#\n#######\n"
    head_on = decided_mod.decided(scripted(middle, [(E, W), (E, W)]))
    assert head_on["kind"] == "head-on" and head_on["loser"] is None

    folder = tmp_path / "records"
    folder.mkdir()
    save_record(scripted(ROOMS, [(E, E), (S, E), (W, E), (N, E)]), folder / "g1.json")
    save_record(scripted(ROOMS, [(E, E), (E, E), (S, E), (W, E), (W, E)]), folder / "g2.json")
    save_record(scripted(middle, [(E, W), (E, W)]), folder / "g3.json.gz")
    rows = [decided_mod.decided(_load(p)) for p in decided_mod.record_paths([folder])]
    t = decided_mod.tally(rows, "a")
    assert t["games"] == 3
    assert t["counts"] == {"D head-on": 1, "L out-filled": 1, "W sealed": 1}
    assert (t["lost_after_separation"], t["moves_in_those"], t["bound_in_those"]) == (1, 3, 5)
    text = decided_mod.format_tally(t)
    assert "won 1: 1 sealed" in text and "lost 1: 1 out-filled" in text


def test_main_skips_what_it_cannot_read(decided_mod, tmp_path: Path, capsys):
    folder = tmp_path / "records"
    folder.mkdir()
    save_record(scripted(ROOMS, [(E, E), (S, E), (W, E), (N, E)]), folder / "g1.json")
    (folder / "junk.json").write_text("{not a record")
    out = tmp_path / "rows.jsonl"
    assert decided_mod.main([str(folder), "--bot", "b", "--json", str(out)]) == 0
    captured = capsys.readouterr()
    assert "junk.json: skipped" in captured.err and "Traceback" not in captured.err
    assert "b: 1 games" in captured.out and "won 1: 1 out-filled" in captured.out
    assert len(out.read_text().splitlines()) == 1
    empty = tmp_path / "empty"
    empty.mkdir()
    assert decided_mod.main([str(empty)]) == 1


def _load(path: Path):
    from atlas.sim.records import load_record

    return load_record(path)
