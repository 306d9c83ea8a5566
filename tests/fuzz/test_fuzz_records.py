"""Any bytes given to load_record and verify_record are a record or a RecordError."""

from __future__ import annotations

import gzip
import json
import tempfile
from pathlib import Path

from fuzz_helpers import bounded_memory, dumps, examples, mutated_json
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from atlas.errors import RecordError
from atlas.sim.records import load_record, verify_record

GOLDEN = Path(__file__).resolve().parents[1] / "sim" / "golden"
#: Small recorded games of every game (the golden records of tests/sim).
DOCS = {
    p.name: json.loads(gzip.decompress(p.read_bytes()))
    for p in sorted(GOLDEN.glob("*.json.gz"))
    if not p.name.startswith("tron-cross")
}  # the long one: replaying it is slow


def _load_and_verify(data: bytes, name: str = "fuzz.json") -> object:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        path.write_bytes(data)
        try:
            with bounded_memory():
                record = load_record(path)
        except RecordError as exc:
            assert str(exc).startswith(str(path)), exc
            assert exc.reason
            event("refused on loading")
            return exc
    try:
        with bounded_memory():
            verify_record(record)
    except RecordError as exc:
        assert exc.reason
        event("refused by verify_record")
        return exc
    event("verified")
    return record


@settings(max_examples=examples(200), suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(DOCS)).flatmap(lambda k: mutated_json(DOCS[k])), st.booleans())
def test_a_changed_record_loads_and_verifies_or_says_why(doc, gzipped):
    data = dumps(doc)
    if gzipped:
        data = gzip.compress(data)
    _load_and_verify(data, "fuzz.json.gz" if gzipped else "fuzz.json")


@settings(max_examples=examples(100))
@given(st.sampled_from(sorted(DOCS)), st.integers(0, 4000), st.binary(max_size=8))
def test_spliced_bytes_give_a_record_or_a_record_error(name, at, piece):
    data = bytearray(dumps(DOCS[name]))
    at = min(at, len(data))
    data[at : at + len(piece)] = piece
    _load_and_verify(bytes(data))


@settings(max_examples=examples(100))
@given(st.binary(max_size=200))
def test_noise_gives_a_record_error(data):
    assert isinstance(_load_and_verify(data), RecordError)


@settings(max_examples=examples(50))
@given(st.integers(1, 5000), st.sampled_from("[{"), st.booleans())
def test_deep_nesting_and_long_numbers_are_refused_by_limit(depth, bracket, number):
    if number:
        data = b'{"format": "atlas-replay", "version": 1, "seed": 1' + b"9" * depth + b"}"
    else:
        inner = b"[" * depth if bracket == "[" else b'{"a":' * depth
        data = b'{"format": "atlas-replay", "version": 1, "seed": ' + inner
    assert isinstance(_load_and_verify(data), RecordError)
