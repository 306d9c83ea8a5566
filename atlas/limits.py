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
    "MAX_TOML_BYTES",
    "MAX_PV_MOVES",
    "MAX_PV_LINE",
    "MAX_COUNT",
    "MAX_JOBS",
    "MAX_SEED",
    "MAX_SECONDS",
    "LimitError",
    "whole_number",
    "shown",
    "json_depth",
    "value_depth",
    "check_depth",
    "load_json",
    "load_toml",
    "count_in_range",
    "seconds_in_range",
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
#: Bytes of a TOML file (a tournament plan: a few hundred bytes).
MAX_TOML_BYTES = 1024 * 1024
#: Moves of a principal variation kept per turn (a bot's "what it expected"): the
#: searches keep this many, and a longer one an external program reports is cut.
MAX_PV_MOVES = 12
#: Characters of the line an external program reports it on (longer: dropped whole).
MAX_PV_LINE = 2000

# The ranges of what a command line or an API call asks for, each checked before the
# work it sizes starts (a count of 10**23 is refused before a schedule is allocated).

#: Games per seating, seeds, fairness games, random opening moves: at most this many.
#: A tournament's largest real schedule is a few hundred games per pairing.
MAX_COUNT = 100_000
#: Worker processes at most (a machine has tens of cores, not thousands).
MAX_JOBS = 1024
#: The largest seed: seeds are whole numbers from 0 to 2**64 - 1 (numpy's seed
#: sequences refuse negative ones; a record's numbers have at most 20 digits).
MAX_SEED = 2**64 - 1
#: Seconds per move at most: one day.  A limit that cannot end (``inf``, ``nan``) is
#: refused, so that every search ends on its own.
MAX_SECONDS = 86_400.0

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


def shown(text: str, limit: int = 40) -> str:
    """``text`` quoted for a message, cut to its first ``limit`` characters.

    >>> shown("1" * 100)
    "'1111111111111111111111111111111111111...'"
    """
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


_shown = shown


#: A JSON string (unrolled: runs of plain characters matched at once, then an escape).
_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
#: Each byte's step of the nesting: +1 for ``[`` and ``{``, -1 for ``]`` and ``}``.
_NESTING_STEP = np.zeros(256, np.int32)
_NESTING_STEP[[ord("["), ord("{")]] = 1
_NESTING_STEP[[ord("]"), ord("}")]] = -1
#: The bytes that step the nesting.
_IS_BRACKET = _NESTING_STEP != 0


def json_depth(data: bytes) -> int:
    """The deepest nesting of arrays and objects in the JSON text ``data``.

    Brackets inside strings do not count; the text need not be valid JSON (an unclosed
    string ends the count).  Linear time, no recursion.

    >>> json_depth(b'{"a": [1, [2, "]]]"]]}')
    3
    """
    if b"\\" not in data:  # no escapes: every quote opens or closes a string
        return _depth_unescaped(data)
    bare = _JSON_STRING.sub(b"", data)
    quote = bare.find(b'"')
    if quote >= 0:
        bare = bare[:quote]
    if not bare:
        return 0
    steps = _NESTING_STEP[np.frombuffer(bare, dtype=np.uint8)]
    return int(max(0, np.cumsum(steps).max()))


def _depth_unescaped(data: bytes) -> int:
    """:func:`json_depth` of a text without a backslash, looking at its brackets and
    quotes only: a bracket is in a string when an odd number of quotes come before it
    (and one after an unclosed string is not counted).  A season's manifest (20 MB) is
    checked in a fifth of the time of taking its strings out."""
    text = np.frombuffer(data, dtype=np.uint8)
    brackets = np.flatnonzero(_IS_BRACKET[text])
    if len(brackets) == 0:
        return 0
    quotes = np.flatnonzero(text == ord('"'))
    if len(quotes):
        brackets = brackets[(np.searchsorted(quotes, brackets) & 1) == 0]
        if len(quotes) & 1:  # an unclosed string: nothing after it counts
            brackets = brackets[brackets < quotes[-1]]
    if len(brackets) == 0:
        return 0
    return int(max(0, np.cumsum(_NESTING_STEP[text[brackets]]).max()))


def value_depth(value: Any, max_depth: int = MAX_JSON_DEPTH) -> int:
    """The deepest nesting of lists, tuples and dicts in the Python value ``value``.

    Iterative (no recursion), each container visited once (a value that shares a list
    in many places costs its size, not its paths), and it stops as soon as the nesting
    passes ``max_depth``: a value that contains itself, or one nested a million deep,
    raises :class:`LimitError` at ``max_depth + 1`` levels.

    >>> value_depth({"a": [1, [2]]})
    3
    >>> loop = []
    >>> loop.append(loop)
    >>> value_depth(loop)
    Traceback (most recent call last):
    ...
    atlas.limits.LimitError: nested more than 64 deep
    """
    containers = (list, tuple, dict)
    if not isinstance(value, containers):
        return 0
    height: dict[int, int] = {}
    # each frame: the container, its children still to visit, the tallest child so far
    stack: list[tuple[Any, Any, int]] = []

    def children(v: Any) -> Any:
        return iter(v.values() if isinstance(v, dict) else v)

    stack.append((value, children(value), 0))
    while True:
        here, rest, tallest = stack[-1]
        for child in rest:
            if isinstance(child, containers):
                known = height.get(id(child))
                if known is not None:
                    tallest = max(tallest, known)
                    continue
                stack[-1] = (here, rest, tallest)
                if len(stack) >= max_depth:
                    raise LimitError(f"nested more than {max_depth} deep")
                stack.append((child, children(child), 0))
                break
        else:
            stack.pop()
            height[id(here)] = tallest + 1
            if not stack:
                return tallest + 1
            parent, prest, ptallest = stack[-1]
            stack[-1] = (parent, prest, max(ptallest, tallest + 1))


def check_depth(value: Any, what: str, max_depth: int = MAX_JSON_DEPTH) -> None:
    """:class:`LimitError` naming ``what`` when ``value`` nests deeper than ``max_depth``
    (:func:`value_depth`)."""
    try:
        value_depth(value, max_depth)
    except LimitError as exc:
        raise LimitError(f"{what} is {exc}") from None


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


def load_toml(text: str, *, max_depth: int = MAX_JSON_DEPTH) -> dict[str, Any]:
    """``tomllib.loads`` within the limits: nesting of arrays, inline tables and tables
    (dotted keys too) at most ``max_depth`` deep.

    The standard library's parser recurses into each array and inline table, and
    builds tables of dotted keys as deep as the keys go; a nesting it cannot parse is
    refused as :class:`LimitError`, and so is a parsed value deeper than ``max_depth``
    (checked without recursion, :func:`value_depth`).

    Raises
    ------
    LimitError
        Nested deeper than ``max_depth``.
    tomllib.TOMLDecodeError
        Not TOML (its message says the line).
    """
    import tomllib

    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise LimitError(f"TOML nested more than {max_depth} deep") from None
    try:
        value_depth(data, max_depth)
    except LimitError:
        raise LimitError(f"TOML nested more than {max_depth} deep") from None
    return data


def count_in_range(value: Any, what: str, minimum: int, maximum: int = MAX_COUNT) -> int:
    """``value`` as a whole number from ``minimum`` to ``maximum``; a ``str`` is read as
    ASCII digits (at most :data:`MAX_INT_DIGITS`, before converting).

    Raises :class:`LimitError` naming ``what`` and at most a short prefix of the value.

    >>> count_in_range("12", "n", 0, 9)
    Traceback (most recent call last):
    ...
    atlas.limits.LimitError: n: expected a whole number at least 0 and at most 9, got '12'
    """
    if isinstance(value, str):
        text = value.strip()
        if not _WHOLE.fullmatch(text) or len(text.lstrip("+-")) > MAX_INT_DIGITS:
            raise LimitError(
                f"{what}: expected a whole number at least {minimum:,} and at most "
                f"{maximum:,}, got {shown(value, 20)}"
            )
        number = int(text)
    elif isinstance(value, int) and not isinstance(value, bool):
        number = int(value)
    else:
        raise LimitError(f"{what}: expected a whole number, got {type(value).__name__}")
    if not minimum <= number <= maximum:
        raise LimitError(
            f"{what}: expected a whole number at least {minimum:,} and at most "
            f"{maximum:,}, got {shown(str(number), 20)}"
        )
    return number


def seconds_in_range(
    value: Any, what: str, maximum: float = MAX_SECONDS, unit: str = "number of seconds"
) -> float:
    """``value`` as a number of seconds, more than 0 and at most ``maximum`` (``inf``
    and ``nan`` refused: a limit that cannot end); a ``str`` is read as a decimal
    number.  Raises :class:`LimitError` naming ``what``.

    >>> seconds_in_range("inf", "--t", 60)
    Traceback (most recent call last):
    ...
    atlas.limits.LimitError: --t: expected a positive number of seconds, at most 60, got 'inf'
    """
    if isinstance(value, str):
        try:
            number = float(value) if len(value) <= 100 else float("nan")
        except ValueError:
            raise LimitError(f"{what}: expected a {unit}, got {shown(value)}") from None
        given = shown(value)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            number = float(value)
        except OverflowError:
            number = float("inf")
        given = shown(repr(value))
    else:
        raise LimitError(f"{what}: expected a {unit}, got {type(value).__name__}")
    if not (0 < number <= maximum):  # nan compares false
        raise LimitError(
            f"{what}: expected a positive {unit}, at most {maximum:,.0f}, got {given}"
        )
    return number
