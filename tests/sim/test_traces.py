"""Golden tests: every recorded game of the official 2014 simulator replays exactly."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from atlas.cli import main
from atlas.games.outpost.rules.traces import (
    TraceError,
    find_trace_map,
    read_trace,
    replay_trace,
)
from atlas.maps import read_map
from atlas.sim.records import load_record, verify_record

DATA = Path(__file__).resolve().parents[1] / "data"
TRACES = sorted((DATA / "outpost-traces").glob("*.jsonl.gz"))
MAPS = DATA / "outpost-maps"


def test_all_28_traces_are_here():
    assert len(TRACES) == 28


@pytest.mark.parametrize("path", TRACES, ids=lambda p: p.name.split(".")[0])
def test_trace_replays_exactly(path):
    trace = read_trace(path)
    game_map = read_map(MAPS / f"{trace.map_name}.txt", game="outpost")
    state, mismatch = replay_trace(trace, game_map)
    assert mismatch is None, str(mismatch)
    assert state.turn == trace.ticks == trace.final["ticks_played"]
    assert state.land.tolist() == trace.final["land"]
    assert state.water_count.tolist() == trace.final["water"]
    assert [len(a) for a in state.outposts] == trace.final["outposts"]


def _args(trace, record=None, map_=None):
    argv = ["import-trace", str(trace)]
    if map_ is not None:
        argv += ["--map", str(map_)]
    if record is not None:
        argv += ["--record", str(record)]
    return argv


def _rewrite(src: Path, dst: Path, edit) -> None:
    with gzip.open(src, "rt") as fh:
        lines = [json.loads(ln) for ln in fh]
    edit(lines)
    with gzip.open(dst, "wt") as fh:
        for obj in lines:
            fh.write(json.dumps(obj) + "\n")


def test_import_trace_writes_a_record_that_verifies(tmp_path, capsys):
    src = DATA / "outpost-traces" / "g5-8_mapblob_r10L20W5_rep0.jsonl.gz"
    out = tmp_path / "game.json.gz"
    assert main(_args(src, str(out))) == 0
    assert "200 turns replayed exactly" in capsys.readouterr().out
    rec = load_record(out)
    verify_record(rec)
    assert rec.params == {"r": 10, "L": 20, "W": 5, "T": 199, "compat": "official"}
    assert [p.name for p in rec.players] == list(read_trace(src).players)
    assert list(rec.final["land"]) == [581, 2257, 64, 21]
    assert rec.result.winner == 1
    # seat 0 threw ArrayIndexOutOfBounds on 41 turns: recorded, and its moves are null
    assert rec.statuses[0].status == "crashed"
    assert "41 turns" in rec.statuses[0].detail
    assert rec.turns[rec.statuses[0].turn].moves[0] is None


def test_import_trace_names_the_first_difference(tmp_path, capsys, monkeypatch):
    src = DATA / "outpost-traces" / "base_map1_r10L20W5_rep0.jsonl.gz"
    bad = tmp_path / "map1_corrupt.jsonl.gz"

    def corrupt(lines):
        lines[57]["land"][2] += 1  # turn 57 (line 0 is the header)
        lines[120]["water"][1] += 1  # a later difference must not be reported

    _rewrite(src, bad, corrupt)
    # the map is not beside the copy: found in the current directory
    monkeypatch.chdir(MAPS)
    assert main(_args(bad)) == 1
    err = capsys.readouterr().err
    assert "turn 57, seat 2, field 'land'" in err
    with gzip.open(src, "rt") as fh:
        want = json.loads(fh.readlines()[57])["land"][2]
    assert f"replayed {want}, recorded {want + 1}" in err


def test_import_trace_catches_a_changed_move(tmp_path, capsys):
    src = DATA / "outpost-traces" / "base_map1_r10L20W5_rep0.jsonl.gz"
    bad = tmp_path / "moved.jsonl.gz"

    def corrupt(lines):
        x, y = lines[3]["moves"][1][0][1]  # seat 1 steps (99, 2) -> (99, 3) on turn 3
        lines[3]["moves"][1][0][1] = [x - 1, y - 1]  # diagonal: ignored officially

    _rewrite(src, bad, corrupt)
    assert main(_args(bad, map_=str(MAPS / "map1.txt"))) == 1
    assert "turn 3, seat 1, field 'outposts'" in capsys.readouterr().err


def test_import_trace_refuses_foreign_files(tmp_path, capsys):
    assert main(_args(tmp_path / "missing.jsonl.gz")) == 2
    assert "cannot read file" in capsys.readouterr().err
    foreign = tmp_path / "map.jsonl"
    foreign.write_text((MAPS / "map1.txt").read_text())
    assert main(_args(foreign)) == 2
    assert f"{foreign}:1: not a JSON line" in capsys.readouterr().err
    notrace = tmp_path / "rec.jsonl"
    notrace.write_text('{"format": "atlas-replay"}\n')
    assert main(_args(notrace)) == 2
    assert "not an Outpost trace" in capsys.readouterr().err
    damaged = tmp_path / "cut.jsonl.gz"
    damaged.write_bytes(gzip.compress(b'{"header": true}\n' * 100)[:40])
    assert main(_args(damaged)) == 2
    assert "damaged gzip data" in capsys.readouterr().err


def test_map_is_found_by_name_or_reported(tmp_path):
    src = DATA / "outpost-traces" / "walk_map1_r10L20W5_rep0.jsonl.gz"
    trace = read_trace(src)
    assert find_trace_map(trace).resolve() == (MAPS / "map1.txt").resolve()
    with gzip.open(src, "rt") as fh:
        lines = fh.read().splitlines()
    head = json.loads(lines[0])
    head["map"] = "nosuchmap"
    odd = tmp_path / "odd.jsonl"
    odd.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n")
    with pytest.raises(TraceError, match="map 'nosuchmap' not found"):
        find_trace_map(read_trace(odd))
    (tmp_path / "nosuchmap.txt").write_text((MAPS / "map1.txt").read_text())
    assert find_trace_map(read_trace(odd)) == tmp_path / "nosuchmap.txt"


def test_header_without_turns_is_refused(tmp_path, capsys):
    bad = tmp_path / "zero.jsonl"
    bad.write_text(
        '{"header": true, "map": "map1", "r": 10, "L": 20, "W": 5, "ticks": 0, '
        '"players": ["a", "b", "c", "d"]}\n{"final": true}\n'
    )
    assert main(_args(bad)) == 2
    assert "header field 'ticks'" in capsys.readouterr().err


def test_an_imported_trace_with_errors_verifies_with_its_statuses():
    path = DATA / "outpost-traces" / "g5-8_mapblob_r10L20W5_rep0.jsonl.gz"
    from atlas.games.outpost.rules.traces import trace_to_record

    trace = read_trace(path)
    record = trace_to_record(trace, read_map(MAPS / "mapblob.txt", game="outpost"))
    verify_record(record)  # the statuses agree with the null moves, the result with the rules
    threw = [s for s in range(4) if any(t["errors"][s] for t in trace.turns)]
    assert threw == [s for s, st in enumerate(record.statuses) if st.status == "crashed"]
    for s in threw:
        first = next(k for k, t in enumerate(trace.turns) if t["errors"][s])
        turn = record.statuses[s].turn
        assert record.turns[turn].moves[s] is None
        assert f"first at turn {first + 1}" in record.statuses[s].detail


def test_hostile_trace_lines_are_trace_errors_naming_the_line(tmp_path):
    lines = gzip.decompress(TRACES[0].read_bytes()).decode().splitlines()
    turn = json.loads(lines[1])
    cases = {
        "deep": (1, "[" * 10_000, "JSON nested 10000 deep, more than 64"),
        "digits": (
            1,
            lines[1].replace('"tick":1', '"tick":1' + "0" * 5000),
            "a number of 5001 digits",
        ),
        "disputed": (
            1,
            json.dumps({**turn, "disputed": 5}),
            "turn 1: field 'disputed' should list the four seats",
        ),
        "moves": (
            1,
            json.dumps({**turn, "moves": [{"a": 1}, None, None, None]}),
            "seat 0: moves should be a list",
        ),
        "coords": (
            1,
            json.dumps({**turn, "moves": [[[0, {"x": 1}]], None, None, None]}),
            "seat 0: moves should be [index, [x, y]] entries",
        ),
    }
    for name, (k, text, fragment) in cases.items():
        doc = list(lines)
        doc[k] = text
        path = tmp_path / f"{name}.jsonl"
        path.write_text("\n".join(doc) + "\n")
        with pytest.raises(TraceError) as info:
            trace = read_trace(path)
            replay_trace(trace, read_map(MAPS / f"{trace.map_name}.txt", game="outpost"))
        assert str(info.value).startswith(str(path)) and fragment in str(info.value), (
            name,
            str(info.value),
        )
        if name in ("deep", "digits", "disputed", "moves"):
            assert info.value.line == k + 1
