"""The limits atlas puts on what it reads, by meaning, and the readers' shared helpers.

atlas reads what other people hand it: maps, replay records, official traces, bot
answers.  Every reader turns any bytes into a value or an :class:`~atlas.errors.AtlasError`
naming the file, the line and the problem, and none of them lets the size of its input
decide how much memory or time it takes: the limits below are checked *before* the work
they bound (a header ``10000 10000`` is refused before a grid is allocated, a number of
5,000 digits before Python converts it).  ``docs/security.md`` lists them for users.

The numbers are meant to be far above anything a real map, game or bot produces and far
below what would hurt the machine.
"""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np

__all__ = [
    "MAX_CELLS",
    "MAX_SIDE",
    "MAX_INT_DIGITS",
    "MAX_JSON_DEPTH",
    "MAX_RECORD_BYTES",
    "MAX_TRACE_BYTES",
    "LimitError",
    "whole_number",
    "json_depth",
    "load_json",
]

#: Cells of a map's grid at most (a 2000 x 2000 board); the biggest contest map has 2,500.
MAX_CELLS = 4_000_000
#: Rows or columns of a grid at most.
MAX_SIDE = 10_000
#: Digits of a whole number in any text atlas reads (2**64 has 20).  Python refuses to
#: convert numbers of more than 4,300 digits, and no coordinate, size or seed needs 21.
MAX_INT_DIGITS = 20
#: Nesting of JSON arrays and objects at most.  A record nests 7 deep; Python's own
#: decoder would raise ``RecursionError`` near 1,000.
MAX_JSON_DEPTH = 64
#: Bytes of a replay record after decompression.  A 500-turn Outpost game is about
#: 1.5 MB, a tron game on the largest map a few MB.
MAX_RECORD_BYTES = 32 * 1024 * 1024
#: Bytes of an official Outpost trace after decompression (a 200-turn trace: 175 KB).
MAX_TRACE_BYTES = 64 * 1024 * 1024

_WHOLE = re.compile(r"[+-]?[0-9]+", re.ASCII)


class LimitError(ValueError):
    """Input beyond one of the limits, or not the kind of value asked for.

    Raised by the helpers of this module; each reader turns it into its own error
    (``MapFormatError``, ``RecordError``, a bot's ``invalid`` answer) naming the file
    and line.
    """


def whole_number(token: str, what: str = "number") -> int:
    """The whole number written as ``token``: ASCII digits with an optional sign.

    Raises :class:`LimitError` for anything else (``'²'``, ``'٣'``, ``'1.5'``) and for
    more than :data:`MAX_INT_DIGITS` digits, before converting.

    >>> whole_number("-12")
    -12
    >>> whole_number("1" * 30)
    Traceback (most recent call last):
    ...
    atlas.limits.LimitError: number has 30 digits, more than 20
    """
    if not _WHOLE.fullmatch(token):
        raise LimitError(f"expected a whole number for {what}, got {_shown(token)}")
    digits = len(token.lstrip("+-"))
    if digits > MAX_INT_DIGITS:
        raise LimitError(f"{what} has {digits} digits, more than {MAX_INT_DIGITS}")
    return int(token)


def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)


def json_depth(data: bytes) -> int:
    """The deepest nesting of arrays and objects in the JSON text ``data``.

    Brackets inside strings do not count; the text need not be valid JSON (an unclosed
    string ends the count).  Linear time, no recursion.

    >>> json_depth(b'{"a": [1, [2, "]]]"]]}')
    3
    """
    bare = _JSON_STRING.sub(b"", data)
    quote = bare.find(b'"')
    if quote >= 0:
        bare = bare[:quote]
    codes = np.frombuffer(bare, dtype=np.uint8)
    steps = ((codes == ord("[")) | (codes == ord("{"))).astype(np.int32) - (
        (codes == ord("]")) | (codes == ord("}"))
    ).astype(np.int32)
    if steps.size == 0:
        return 0
    return int(max(0, np.cumsum(steps).max()))


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise LimitError(
            f"a number of {len(text.lstrip('-'))} digits, more than {MAX_INT_DIGITS}"
        )
    return int(text)


def _no_constant(name: str) -> Any:
    raise LimitError(f"{name} is not a JSON number")


def load_json(data: bytes | str, *, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``json.loads`` within the limits: depth, digits of integers, no NaN or Infinity.

    Raises
    ------
    LimitError
        Nesting deeper than ``max_depth``, an integer of more than
        :data:`MAX_INT_DIGITS` digits, or ``NaN``/``Infinity``.
    json.JSONDecodeError
        Not JSON (its ``lineno`` says where).
    UnicodeDecodeError
        ``data`` is bytes but not UTF-8.
    """
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else bytes(data)
    depth = json_depth(raw)
    if depth > max_depth:
        raise LimitError(f"JSON nested {depth} deep, more than {max_depth}")
    text = data if isinstance(data, str) else raw.decode("utf-8")
    return json.loads(text, parse_int=_bounded_int, parse_constant=_no_constant)
