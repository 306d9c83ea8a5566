"""Golden tests: games of failing players, recorded in the official 2014 simulator with
``Tracer.java`` (``tests/data/outpost-traces/faults/README.md``), replay exactly and
say who failed, when, how and what the simulator did."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from atlas.cli import main
from atlas.games.outpost.rules.faults import find_failures
from atlas.games.outpost.rules.traces import read_trace, replay_trace, trace_to_record
from atlas.maps import read_map
from atlas.sim.records import load_record, replay_states, verify_record

DATA = Path(__file__).resolve().parents[1] / "data"
FAULTS = sorted((DATA / "outpost-traces" / "faults").glob("*.jsonl.gz"))
#: Recorded after the rules were written, and replayed only then (its README).
HELDOUT = sorted((DATA / "outpost-traces" / "faults" / "heldout").glob("*.jsonl.gz"))
MAPS = DATA / "outpost-maps"
#: The faults Tracer.java injects, and the two of the README's patched copy.
KINDS = ("throw", "neg", "nulltarget", "nulllist", "delthrow", "delbad")
END_KINDS = ("negend", "nulltargetend")
#: How each fault shows when it takes effect.
HOW = {
    "throw": "threw",
    "neg": "stopped the turn",
    "nulltarget": "stopped the turn",
    "nulllist": "returned null",
    "delthrow": "threw when asked to disband",
    "delbad": "bad disband answer",
    "negend": "stopped the turn",
    "nulltargetend": "stopped the turn",
}


def _map(trace):
    return read_map(MAPS / f"{trace.map_name}.txt", game="outpost")


def _kinds(trace):
    """Per seat, the fault the header names (``None``: a plain course player)."""
    return [p.split("@")[0] if "@" in p else None for p in trace.players]


@pytest.fixture(scope="module")
def imported():
    """Every faulty trace, held-out ones included, as (trace, record, failures)."""
    out = {}
    for path in FAULTS + HELDOUT:
        trace = read_trace(path)
        record = trace_to_record(trace, _map(trace))
        failures = find_failures([t.moves for t in record.turns], replay_states(record))
        out[path.name] = (trace, record, failures)
    return out


@pytest.mark.parametrize("path", FAULTS + HELDOUT, ids=lambda p: p.name.split(".")[0])
def test_faulty_trace_replays_exactly(path):
    trace = read_trace(path)
    state, mismatch = replay_trace(trace, _map(trace))
    assert mismatch is None, str(mismatch)
    assert state.land.tolist() == trace.final["land"]
    assert state.water_count.tolist() == trace.final["water"]
    assert [len(a) for a in state.outposts] == trace.final["outposts"]


def test_every_fault_in_every_seat_on_season_and_ordinary_turns_on_two_maps(imported):
    assert len(FAULTS) == 22 and len(HELDOUT) == 10
    seen = set()
    for trace, _, failures in (imported[p.name] for p in FAULTS):
        kinds = _kinds(trace)
        for f in failures:
            kind = kinds[f.seat]
            if kind is None or f.how != HOW[kind] or f.effect.startswith("never reached"):
                continue
            seen.add((kind, f.seat, trace.map_name, f.turn % 10 == 0))
    for kind in KINDS + END_KINDS:
        for seat in range(4):
            for map_name in ("map1", "mapblob"):
                # disbands are asked only on seasons
                for season in (True,) if kind.startswith("del") else (True, False):
                    assert (kind, seat, map_name, season) in seen, (
                        kind,
                        seat,
                        map_name,
                        season,
                    )


def test_failures_agree_with_the_trace_line_by_line(imported):
    """Each failure atlas finds is in the trace, and each fault the trace shows is found:
    a ``move()`` that threw (``moves`` null with an error text), one that returned null
    (``moves`` null, ``errors`` null), a turn the simulator stopped (``uncaught``) at the
    first seat whose list makes ``updatemap`` throw, a bad disband answer."""
    for name, (trace, _, failures) in imported.items():
        found = {(f.turn, f.seat, f.how) for f in failures if not f.how.startswith("bad entry")}
        want = set()
        for t in trace.turns:
            tick, stopper = t["tick"], None
            for s in range(4):
                moves, err = t["moves"][s], t["errors"][s]
                if err is not None and err.startswith("delete"):
                    want.add((tick, s, "threw when asked to disband"))
                elif t["deletes"][s] == 99:
                    want.add((tick, s, "bad disband answer"))
                elif moves is None:
                    want.add((tick, s, "threw" if err else "returned null"))
                stops = moves is None and err is None
                stops = stops or any(e[0] < 0 or e[1] is None for e in moves or ())
                if stops and stopper is None:
                    stopper = s
            assert (stopper is not None) == ("uncaught" in t), (name, tick)
            if stopper is not None and t["moves"][stopper] is not None:
                want.add((tick, stopper, "stopped the turn"))
        assert found == want, (name, sorted(found ^ want)[:5])


def test_imported_records_verify_and_tell_each_seat_what_happened(imported):
    for name, (_, record, failures) in imported.items():
        verify_record(record)
        for s, st in enumerate(record.statuses):
            mine = [f for f in failures if f.seat == s]
            assert bool(st.detail) == bool(mine), (name, s)
            for f in mine:
                assert f"{f.how} on " in st.detail
            nulls = [i for i, t in enumerate(record.turns) if t.moves.get(s, 0) is None]
            assert st.status == ("crashed" if nulls else "ok")
    trace, record, _ = imported["moves-rot1_mapblob_r10L20W5.jsonl.gz"]
    # seat 2 (nulllist) returned null: its move is "returned-null", not null
    assert [t.moves[2] for t in record.turns if t.moves.get(2) == "returned-null"]
    assert record.statuses[2].detail == (
        "returned null on 3 turns (24, 29, 30): the simulator stopped the turn there; "
        "returned null on turn 41: the turn had stopped before it"
    )
    assert record.statuses[3].detail.endswith(
        "first at turn 34: move: java.lang.IllegalStateException: injected"
    )


def test_import_trace_prints_who_failed(tmp_path, capsys):
    src = DATA / "outpost-traces" / "faults" / "disband-mixed_mapblob_r10L0W0.jsonl.gz"
    out = tmp_path / "game.json.gz"
    argv = ["import-trace", str(src), "--map", str(MAPS / "mapblob.txt"), "--record", str(out)]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "31 turns replayed exactly" in text
    assert (
        "player 1 (delbad@0:dumb): bad disband answer on 3 turns (10, 20, 30): "
        "nothing was disbanded and it did not move\n"
    ) in text
    assert "player 3 (nulllist@20,25:group7): returned null on 2 turns (20, 25): " in text
    rec = load_record(out)
    # turn 10's disband phase is the record's turn 9: seat 0 answered 99, seat 3 threw
    assert rec.turns[9].moves[0] == 99 and rec.turns[9].moves[3] is None
    assert main([*argv[:4], "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["statuses"][3]["status"] == "crashed"
    assert data["statuses"][3]["detail"].startswith("threw when asked to disband on 3 turns")


def test_a_stop_the_trace_does_not_show_is_a_difference(tmp_path, capsys):
    src = DATA / "outpost-traces" / "faults" / "moves-rot0_mapblob_r10L20W5.jsonl.gz"
    with gzip.open(src, "rt") as fh:
        lines = [json.loads(ln) for ln in fh]
    del lines[14]["uncaught"]  # turn 14: seat 1's list starts with index -1
    bad = tmp_path / "quiet.jsonl"
    bad.write_text("".join(json.dumps(obj) + "\n" for obj in lines))
    assert main(["import-trace", str(bad), "--map", str(MAPS / "mapblob.txt")]) == 1
    err = capsys.readouterr().err
    assert "turn 14, seat 1, field 'uncaught': replayed \"stopped at seat 1, entry 0\"" in err
    # and a throw read as a returned null (its error text lost) no longer replays
    with gzip.open(src, "rt") as fh:
        lines = [json.loads(ln) for ln in fh]
    lines[1]["errors"][0] = None  # turn 1: seat 0 threw
    bad.write_text("".join(json.dumps(obj) + "\n" for obj in lines))
    assert main(["import-trace", str(bad), "--map", str(MAPS / "mapblob.txt")]) == 1
    assert "turn 1, seat 0, field 'uncaught'" in capsys.readouterr().err
