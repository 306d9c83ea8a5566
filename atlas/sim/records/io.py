"""Replay records in and out: JSON data to a :class:`~atlas.sim.records.model.Record`,
every field checked (:func:`record_from_json`), and record files (:func:`save_record`,
:func:`load_record`, :func:`is_record_file`).

Reading turns any bytes into a record or a :class:`~atlas.errors.RecordError` naming
the file and the problem, within the limits of :mod:`atlas.limits`; it checks the form
only (:mod:`atlas.sim.records.verify` checks the content).
"""

from __future__ import annotations

import gzip
import json
import math
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from ...errors import RecordError
from ...fsutil import gunzip_limited, read_regular_file, write_atomically
from ...limits import MAX_RECORD_BYTES, LimitError, load_json
from ..base import REASONS, STATUSES, Outcome, Reason, Status
from ..registry import game_names, get_game
from .model import (
    FORMAT,
    INFO_KEYS,
    PLAYER_KINDS,
    VERSION,
    Late,
    MapRef,
    PlayerEntry,
    Record,
    SeatStatus,
    TurnRecord,
    _rebuild_map,
    _short,
)

__all__ = [
    "save_record",
    "is_record_file",
    "load_record",
    "record_from_bytes",
    "record_from_json",
]


# --------------------------------------------------------------------------- JSON -> Record


#: The largest effort a record may say (a bound like the readers' others).
MAX_EFFORT = 1 << 40


def _effort(ck: Any, p: Mapping[str, Any], where: str) -> int | None:
    """A player's optional ``effort`` (a positive integer; absent in older records)."""
    effort = ck.get(p, "effort", (int, type(None)), where, optional=True)
    if effort is None:
        return None
    if not 0 < effort <= MAX_EFFORT:
        raise ck.fail(f"field {where}'effort' should be from 1 to {MAX_EFFORT}, got {effort}")
    return int(effort)


class _Checker:
    """Typed field access that raises :class:`RecordError` naming the file and field."""

    def __init__(self, path: str | os.PathLike[str] | None) -> None:
        self.path = path

    def fail(self, message: str) -> RecordError:
        return RecordError(message, path=self.path)

    def get(
        self,
        obj: Mapping[str, Any],
        key: str,
        types: type | tuple[type, ...],
        where: str,
        *,
        optional: bool = False,
        default: Any = None,
    ) -> Any:
        if key not in obj:
            if optional:
                return default
            raise self.fail(f"missing field {where}{key!r}")
        value = obj[key]
        if not isinstance(value, types) or (
            isinstance(value, bool) and bool not in _tuple(types)
        ):
            names = " or ".join(t.__name__ for t in _tuple(types))
            raise self.fail(
                f"field {where}{key!r} should be {names}, "
                f"got {type(value).__name__} {_short(value)}"
            )
        return value

    def objects(self, items: list[Any], name: str) -> Iterator[tuple[str, dict[str, Any]]]:
        """Each item of the list field ``name``, checked to be an object, with the place
        its fields are named by (``name[i].``)."""
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                raise self.fail(f"{name}[{i}] should be an object, got {_short(item)}")
            yield f"{name}[{i}].", item


def _tuple(types: type | tuple[type, ...]) -> tuple[type, ...]:
    return types if isinstance(types, tuple) else (types,)


def _seat_key(ck: _Checker, key: str, n: int, where: str) -> int:
    if not (key in _SEAT_WORDS and int(key) < n):
        raise ck.fail(f"{where} has seat {_short(key)}; seats are 0..{n - 1}")
    return int(key)


#: The seat keys of a record's JSON objects ("0", "1", ...: no signs, spaces or "01").
_SEAT_WORDS = frozenset(str(k) for k in range(64))


def _number(value: Any) -> bool:
    return (
        isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    )


def record_from_json(data: Any, path: str | os.PathLike[str] | None = None) -> Record:
    """Build a :class:`Record` from JSON data, checking every field.

    Raises
    ------
    RecordError
        Foreign or damaged data; the message names ``path`` and the offending field.
    """
    ck = _Checker(path)
    if not isinstance(data, dict):
        raise ck.fail(
            f"not a replay record: the document is a {type(data).__name__}, not a JSON object"
        )
    fmt = data.get("format")
    if fmt != FORMAT:
        raise ck.fail(f"not a replay record: format is {_short(fmt)}, expected {FORMAT!r}")
    version = data.get("version")
    if version != VERSION or isinstance(version, bool):
        raise ck.fail(
            f"unsupported record version {_short(version)}; this atlas reads version {VERSION}"
        )
    game = ck.get(data, "game", str, "")
    if game not in game_names():
        raise ck.fail(f"unknown game {game!r}; expected one of {', '.join(game_names())}")
    m = ck.get(data, "map", dict, "")
    map_ref = MapRef(
        ck.get(m, "name", str, "map."),
        ck.get(m, "hash", str, "map."),
        ck.get(m, "text", str, "map."),
    )
    params = get_game(game).info.canonical_params(ck.get(data, "params", dict, ""))
    players = []
    for where, p in ck.objects(ck.get(data, "players", list, ""), "players"):
        kind = ck.get(p, "kind", str, where)
        if kind not in PLAYER_KINDS:
            raise ck.fail(f"field {where}'kind' is {kind!r}; expected builtin or external")
        players.append(
            PlayerEntry(
                ck.get(p, "name", str, where),
                kind,
                command=ck.get(p, "command", (str, type(None)), where, optional=True),
                bot=ck.get(p, "bot", (str, type(None)), where, optional=True),
                digest=ck.get(p, "digest", (str, type(None)), where, optional=True),
                effort=_effort(ck, p, where),
            )
        )
    n = len(players)
    seats = get_game(game).info.num_players
    if n != seats:
        raise ck.fail(f"the record has {n} players; {game} is played by {seats}")
    seed = ck.get(data, "seed", int, "")
    turns = []
    for where, t in ck.objects(ck.get(data, "turns", list, ""), "turns"):
        moves = {
            _seat_key(ck, k, n, f"{where}moves"): v
            for k, v in ck.get(t, "moves", dict, where).items()
        }
        times = {}
        for k, v in ck.get(t, "times", dict, where, optional=True, default={}).items():
            if not _number(v):
                raise ck.fail(
                    f"{where}times[{k!r}] should be a number of seconds, got {_short(v)}"
                )
            times[_seat_key(ck, k, n, f"{where}times")] = float(v)
        info = {}
        for k, v in ck.get(t, "info", dict, where, optional=True, default={}).items():
            seat = _seat_key(ck, k, n, f"{where}info")
            # pv: any list (its moves are the game's, checked by whoever draws them)
            if not isinstance(v, dict) or not all(
                (key in INFO_KEYS and _number(x))
                or (key == "pv" and isinstance(x, list))
                or (key == "pv_cut" and _number(x))
                for key, x in v.items()
            ):
                raise ck.fail(
                    f"{where}info[{k!r}] should be an object of numbers named "
                    f"{', '.join(INFO_KEYS)} (and a list pv), got {_short(v)}"
                )
            info[seat] = dict(v)
        cpu = {}
        for k, v in ck.get(t, "cpu", dict, where, optional=True, default={}).items():
            if not _number(v) or v < 0:
                raise ck.fail(
                    f"{where}cpu[{k!r}] should be a number of seconds, got {_short(v)}"
                )
            cpu[_seat_key(ck, k, n, f"{where}cpu")] = float(v)
        late = {}
        for k, v in ck.get(t, "late", dict, where, optional=True, default={}).items():
            late[_seat_key(ck, k, n, f"{where}late")] = _late(ck, v, f"{where}late[{k!r}]")
        turns.append(
            TurnRecord(
                dict(sorted(moves.items())),
                dict(sorted(times.items())),
                dict(sorted(info.items())),
                dict(sorted(cpu.items())),
                dict(sorted(late.items())),
            )
        )
    r = ck.get(data, "result", dict, "")
    winner = ck.get(r, "winner", (int, type(None)), "result.")
    if winner is not None and not 0 <= winner < n:
        raise ck.fail(f"result.winner is seat {winner}; seats are 0..{n - 1}")
    reason = ck.get(r, "reason", str, "result.")
    if reason not in REASONS:
        raise ck.fail(f"result.reason is {reason!r}; expected one of {', '.join(REASONS)}")
    scores = ck.get(r, "scores", list, "result.")
    if len(scores) != n or not all(_number(s) for s in scores):
        raise ck.fail(f"result.scores should be {n} numbers, got {_short(scores)}")
    result = Outcome(
        winner,
        Reason(reason),
        tuple(float(s) for s in scores),
        ck.get(r, "detail", str, "result.", optional=True, default=""),
    )
    statuses = []
    raw_statuses = ck.get(data, "statuses", list, "")
    if len(raw_statuses) != n:
        raise ck.fail(f"statuses has {len(raw_statuses)} entries for {n} players")
    for where, s in ck.objects(raw_statuses, "statuses"):
        status = ck.get(s, "status", str, where)
        if status not in STATUSES:
            raise ck.fail(f"{where}status is {status!r}; expected one of {', '.join(STATUSES)}")
        turn = ck.get(s, "turn", (int, type(None)), where)
        if turn is not None and not 0 <= turn < max(1, len(turns)):
            raise ck.fail(f"{where}turn is {turn}; the record has {len(turns)} turns")
        statuses.append(
            SeatStatus(
                Status(status), turn, ck.get(s, "detail", str, where, optional=True, default="")
            )
        )
    stderr = ck.get(data, "stderr", list, "", optional=True, default=[""] * n)
    if len(stderr) != n or not all(isinstance(e, str) for e in stderr):
        raise ck.fail(f"stderr should be {n} strings")
    final = ck.get(data, "final", dict, "")
    created = ck.get(data, "created", (str, type(None)), "", optional=True)
    record = Record(
        game,
        map_ref,
        params,
        tuple(players),
        seed,
        tuple(turns),
        result,
        tuple(statuses),
        final,
        tuple(stderr),
        created,
    )
    _rebuild_map(record, path)  # refuses a map that does not parse or match its hash
    return record


def _late(ck: _Checker, v: Any, where: str) -> Late:
    """A turn's ``late`` entry: ``{"limit": seconds, "load": number, "cores": n}``
    (``load`` and ``cores`` optional)."""
    if not isinstance(v, dict) or set(v) - {"limit", "load", "cores"}:
        raise ck.fail(f"{where} should be an object of limit, load and cores, got {_short(v)}")
    limit: Any = v.get("limit")
    if not _number(limit) or limit <= 0:
        raise ck.fail(f"{where}.limit should be a number of seconds, got {_short(limit)}")
    load: Any = v.get("load")
    if load is not None and (not _number(load) or load < 0):
        raise ck.fail(f"{where}.load should be a load average, got {_short(load)}")
    cores: Any = v.get("cores")
    if cores is not None and (
        isinstance(cores, bool) or not isinstance(cores, int) or cores < 1
    ):
        raise ck.fail(f"{where}.cores should be a whole number above 0, got {_short(cores)}")
    return Late(float(limit), None if load is None else float(load), cores)


# --------------------------------------------------------------------------- files


def is_record_file(path: str | os.PathLike[str]) -> bool:
    """Whether the file at ``path`` is an atlas replay record (judged by its first bytes:
    a file atlas may write over)."""
    from ...fsutil import starts_with

    return starts_with(Path(path), (b'"format":"atlas-replay"', b'"format": "atlas-replay"'))


def save_record(record: Record, path: str | os.PathLike[str], *, public: bool = False) -> None:
    """Write ``record`` to ``path`` (gzip-compressed when it ends in ``.gz``).

    ``public=True`` leaves out the private ``stderr``.  The file is written to a
    temporary name and moved into place, so a reader never sees half a record; the
    same record always gives the same bytes (gzip ``mtime`` is 0).
    """
    p = Path(path)
    data = record.public_json() if public else record.to_json()
    raw = (json.dumps(data, separators=(",", ":"), ensure_ascii=False) + "\n").encode("utf-8")
    if p.name.endswith(".gz"):
        raw = gzip.compress(raw, compresslevel=6, mtime=0)
    write_atomically(p, raw)


def load_record(path: str | os.PathLike[str]) -> Record:
    """Read a record written by :func:`save_record` (``.json`` or ``.json.gz``).

    Raises
    ------
    RecordError
        The file cannot be read, is not gzip/JSON, is not an atlas replay record of a
        version this atlas reads, lacks a field or has one of the wrong type, or its
        embedded map does not match its hash.  The message names the file.
    """
    p = Path(path)
    return record_from_bytes(
        read_regular_file(p, MAX_RECORD_BYTES, RecordError, what="record"), p
    )


def record_from_bytes(raw: bytes, path: str | os.PathLike[str]) -> Record:
    """The record in ``raw``, the bytes of the record file ``path`` (gzip data or not,
    as :func:`load_record` reads them; ``path`` names the file in errors).

    Raises
    ------
    RecordError
        As :func:`load_record`.
    """
    p = Path(path)
    raw, gzipped = gunzip_limited(raw, p, MAX_RECORD_BYTES, RecordError, "record")
    if not gzipped and p.name.endswith(".gz"):
        raise RecordError("not gzip data, although the name ends in .gz", path=p)
    data = _load_json(raw, p)
    return record_from_json(data, p)


def _load_json(raw: bytes, path: Path) -> Any:
    """The JSON document ``raw`` of the file ``path``, within the limits."""
    try:
        return load_json(raw)
    except UnicodeDecodeError as exc:
        raise RecordError(
            f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})", path=path
        ) from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"not JSON: {exc.msg}", path=path, line=exc.lineno) from None
    except LimitError as exc:
        raise RecordError(str(exc), path=path) from None
