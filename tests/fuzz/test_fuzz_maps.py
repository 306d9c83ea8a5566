"""Any bytes given to the map readers are a map or a MapFormatError, within bounds."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from fuzz_helpers import bounded_memory, examples
from hypothesis import given, settings
from hypothesis import strategies as st

from atlas.errors import MapFormatError
from atlas.games import game_names
from atlas.maps import format_map, parse_map, read_map

GAMES = game_names()

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = {
    "tron": (ROOT / "maps" / "tron" / "duel.txt").read_bytes(),
    "isolation": (ROOT / "maps" / "isolation" / "queen8.txt").read_bytes(),
    "connect5": (ROOT / "maps" / "connect5" / "standard.txt").read_bytes(),
    "outpost": (ROOT / "tests" / "data" / "outpost-maps" / "map1.txt").read_bytes(),
    "tictactoe": b"tictactoe 3 3\n1..\n.#.\n..2\n",
}
WORDS = [
    b"10000",
    b"2001",
    b"0",
    b"-1",
    b"\xc2\xb2",
    b"\xd9\xa3",
    b"9" * 5000,
    b" ",
    b"\t",
    b"\r\n",
    b"\n",
    b";",
    b"#",
    b"1",
    b"2",
    b"3",
    b".",
    b"connect5",
    b"isolation",
    b"knight",
    b"\x00",
    b"\xff",
    b"\xef\xbb\xbf",
    b"\xe2\x80\xa8",
    b"," * 3,
]


@st.composite
def map_bytes(draw) -> tuple[str, bytes]:
    """A game and bytes: a real map with a few spliced changes, or noise."""
    game = draw(st.sampled_from(sorted(SAMPLES)))
    data = bytearray(SAMPLES[game])
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(data)))
        cut = draw(st.integers(0, 8))
        piece = draw(st.one_of(st.sampled_from(WORDS), st.binary(max_size=6)))
        data[at : at + cut] = piece
    if draw(st.booleans()):
        head = draw(
            st.sampled_from(
                [
                    b"10000 10000",
                    b"10000 400",
                    b"2000 2000",
                    b"connect5 \xc2\xb2 6 4",
                    b"isolation 4000 1000",
                    b"mygame 3 3 x",
                    b"1 " + b"9" * 5000,
                ]
            )
        )
        data = bytearray(head + b"\n") + data[data.find(b"\n") + 1 :]
    return game, bytes(data)


def _check(game_map_or_error, text_lines: int) -> None:
    value = game_map_or_error
    if isinstance(value, MapFormatError):
        assert value.reason and "Traceback" not in str(value)
        assert value.line is None or 1 <= value.line <= text_lines + 1
        return
    assert value.blocked.size <= 4_000_000
    # what was read can be written and read back
    again = parse_map(format_map(value), game=value.game, name=value.name)
    assert again == value


def _outcome(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except MapFormatError as exc:
        return exc


@settings(max_examples=examples(300))
@given(map_bytes(), st.booleans())
def test_parse_map_gives_a_map_or_a_located_error(case, tell_game):
    game, data = case
    text = data.decode("utf-8", "surrogateescape")
    with bounded_memory():
        result = _outcome(
            parse_map, text, game=game if tell_game else None, name="fuzz", path="fuzz.txt"
        )
    _check(result, text.count("\n") + 1)
    if isinstance(result, MapFormatError):
        assert str(result).startswith("fuzz.txt")


@settings(max_examples=examples(150))
@given(map_bytes(), st.sampled_from([None, *GAMES]))
def test_read_map_gives_a_map_or_an_error_naming_the_file(case, game):
    _, data = case
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fuzz.txt"
        path.write_bytes(data)
        with bounded_memory():
            result = _outcome(read_map, path, game=game)
    _check(result, data.count(b"\n") + 1)
    if isinstance(result, MapFormatError):
        assert str(result).startswith(os.fspath(path))


@settings(max_examples=examples(150))
@given(st.binary(max_size=300), st.sampled_from([None, *GAMES, "mygame"]))
def test_noise_gives_a_map_or_a_located_error(data, game):
    text = data.decode("utf-8", "replace")
    with bounded_memory():
        result = _outcome(parse_map, text, game=game, path="noise.txt")
    _check(result, text.count("\n") + 1)
