"""Any bytes given to atlas validate are a report, never an exception."""

from __future__ import annotations

import tempfile
from pathlib import Path

from fuzz_helpers import bounded_memory, examples
from hypothesis import given, settings
from hypothesis import strategies as st

from atlas.games.outpost.validation import RULES, validate_map_file

MAP1 = (Path(__file__).resolve().parents[1] / "data" / "outpost-maps" / "map1.txt").read_bytes()


@st.composite
def outpost_bytes(draw) -> bytes:
    data = bytearray(MAP1)
    for _ in range(draw(st.integers(0, 5))):
        at = draw(st.integers(0, len(data)))
        piece = draw(
            st.one_of(
                st.binary(max_size=6),
                st.sampled_from(
                    [
                        b"9" * 5000,
                        b"\xc2\xb2",
                        b"\xd9\xa3",
                        b"\r",
                        b"\n\n",
                        b"\x00",
                        b"-0",
                        b"+1",
                        b"\xe2\x80\x83",
                        b"1,2",
                        b"\xef\xbb\xbf",
                    ]
                ),
            )
        )
        data[at : at + draw(st.integers(0, 6))] = piece
    return bytes(data)


@settings(max_examples=examples(60))
@given(st.one_of(outpost_bytes(), st.binary(max_size=300)))
def test_any_bytes_give_a_report(data):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fuzz.txt"
        path.write_bytes(data)
        with bounded_memory():
            report = validate_map_file(path)
    n_lines = data.count(b"\n") + 1
    for p in report.problems:
        assert p.rule in RULES and p.message
        assert p.line is None or 1 <= p.line <= n_lines
    assert report.valid == (not report.errors)
