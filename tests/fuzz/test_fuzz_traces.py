"""Any bytes given to read_trace and the replay are a trace, a mismatch or a TraceError."""

from __future__ import annotations

import gzip
import json
import tempfile
from pathlib import Path

from fuzz_helpers import bounded_memory, examples, mutated_json
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from atlas.games.outpost.rules.traces import (
    TraceError,
    read_trace,
    replay_trace,
    trace_to_record,
)
from atlas.maps import read_map
from atlas.sim.records import verify_record

DATA = Path(__file__).resolve().parents[1] / "data"
SOURCE = DATA / "outpost-traces" / "g5-8_mapblob_r10L20W5_rep0.jsonl.gz"  # has errors
MAP = read_map(DATA / "outpost-maps" / "mapblob.txt", game="outpost")
_LINES = [json.loads(ln) for ln in gzip.decompress(SOURCE.read_bytes()).splitlines()]


def _short_trace() -> list[dict]:
    """A trace of five turns that replays exactly, in which seat 0 throws on turn 3.

    The first five turns of a recorded game, seat 0's move of turn 3 replaced by an
    error (the simulator's record of a player that threw), and every per-turn figure
    the change affects repaired from the replay.
    """
    lines = json.loads(json.dumps([{**_LINES[0], "ticks": 5}, *_LINES[1:6], {"final": True}]))
    lines[3]["moves"][0] = None
    lines[3]["errors"][0] = "move: java.lang.NullPointerException"
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "short.jsonl"
        for _ in range(100):
            path.write_text("\n".join(json.dumps(d) for d in lines) + "\n")
            _, bad = replay_trace(read_trace(path), MAP)
            if bad is None:
                return lines
            lines[bad.turn][bad.field][bad.seat] = bad.replayed
    raise AssertionError("the short trace does not settle")


#: A short trace: the header (5 ticks), five turns and the final line.
SHORT = _short_trace()


def _read_and_replay(lines: list[bytes]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fuzz.jsonl"
        path.write_bytes(b"\n".join(lines) + b"\n")
        try:
            with bounded_memory():
                trace = read_trace(path)
                _, mismatch = replay_trace(trace, MAP)
                if mismatch is None:  # an imported record always verifies
                    verify_record(trace_to_record(trace, MAP))
        except TraceError as exc:
            assert str(exc).startswith(str(path)) and exc.reason
            event("refused")
            return
    event("replayed" if mismatch is None else "mismatch")


@settings(max_examples=examples(150), suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, len(SHORT) - 1).flatmap(
        lambda k: st.tuples(st.just(k), mutated_json(SHORT[k]))
    )
)
def test_a_changed_line_gives_a_trace_a_mismatch_or_an_error(change):
    k, line = change
    doc = [*SHORT[:k], line, *SHORT[k + 1 :]]
    _read_and_replay([json.dumps(d).encode() for d in doc])


@settings(max_examples=examples(100))
@given(st.lists(st.binary(max_size=40), max_size=6), st.integers(0, 6))
def test_noise_lines_give_a_trace_error(noise, at):
    lines = [json.dumps(d).encode() for d in SHORT]
    lines[at : at + len(noise)] = noise
    _read_and_replay(lines)
