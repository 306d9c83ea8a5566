"""Recorded games of the official 2014 Outpost simulator, replayed and turned into records.

A trace is JSON lines, gzip-compressed or plain.  ``outpost-traces/README.md`` describes
it.  Its lines:

- a header ``{"header": true, "map", "r", "L", "W", "ticks", "players"}``;
- one line per turn, with ``tick`` and, per seat: ``outposts`` after the turn as
  ``[x, y]`` in list order, ``moves`` as ``[index, [x, y]]`` entries, ``deletes``,
  ``errors``, ``land``, ``water``, ``disputed``, ``noutpost``;
- a final line ``{"final": true, "water", "land", "outposts", ...}``.

Coordinates are the simulator's ``(x, y)``.  atlas speaks ``[row, col] = [y, x]``.

:func:`replay_trace` plays the moves and disband answers through :mod:`.game` in
``compat="official"`` mode, and checks every turn.  There ``T = ticks - 1``, because the
simulator plays ``nrounds + 1`` turns.  :func:`trace_to_record` also builds an atlas
replay record.  ``atlas import-trace`` does both from the command line, through
:data:`TRACES`, the :class:`~atlas.sim.traces.TraceImporter` the rules offer.

:func:`read_trace` turns any bytes into a :class:`Trace` or a :class:`TraceError`.  The
error names the file, the line and the problem.  Reading stays within the limits of
:mod:`atlas.limits`: :data:`~atlas.limits.MAX_TRACE_BYTES` after decompression, JSON
depth and digits.  A trace whose moves the rules cannot play is a :class:`TraceError`
naming the turn.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ....errors import IllegalMoveError, InvalidMoveError, RecordError
from ....fsutil import read_maybe_gzip
from ....limits import MAX_TRACE_BYTES, LimitError, load_json
from ....maps import GameMap, read_map
from ....sim.base import Status
from ....sim.records import PlayerEntry, Record, RecordBuilder
from ....sim.traces import TraceImporter
from .faults import failure_summary, find_failures
from .game import GAME, NUM_EMPIRES, RETURNED_NULL, OutpostState, play_turn, prepare_turn

__all__ = [
    "Trace",
    "TraceError",
    "TraceMismatch",
    "TraceMismatchError",
    "read_trace",
    "find_trace_map",
    "read_trace_map",
    "replay_trace",
    "trace_to_record",
    "OutpostTraces",
    "TRACES",
]

_MAP_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,100}$")
#: Per-turn fields compared on every turn, in this order.
TURN_FIELDS = ("outposts", "land", "water", "disputed", "noutpost")


class TraceError(RecordError):
    """A trace file that cannot be read or is not an official Outpost trace."""


@dataclass(frozen=True)
class TraceMismatch:
    """The first place where a replay differs from the trace.

    ``turn`` is the 1-based tick, or ``"final"`` for the last line.
    """

    turn: int | str
    seat: int
    field: str
    replayed: Any
    recorded: Any

    def __str__(self) -> str:
        where = "final line" if self.turn == "final" else f"turn {self.turn}"
        return (
            f"{where}, seat {self.seat}, field {self.field!r}: replayed "
            f"{_short(self.replayed)}, recorded {_short(self.recorded)}"
        )


class TraceMismatchError(RecordError):
    """A trace that does not replay exactly.  ``mismatch`` says where."""

    def __init__(self, mismatch: TraceMismatch, path: str | Path | None = None) -> None:
        self.mismatch = mismatch
        super().__init__(f"does not replay: {mismatch}", path=path)


def _short(v: Any) -> str:
    text = json.dumps(v)
    return text if len(text) <= 80 else text[:77] + "..."


@dataclass(frozen=True)
class Trace:
    """A parsed trace: header fields, turn lines as JSON objects, and the final line."""

    path: str | None
    map_name: str
    r: int
    L: int
    W: int
    ticks: int
    players: tuple[str, ...]
    turns: tuple[dict[str, Any], ...]
    final: dict[str, Any]

    @property
    def params(self) -> dict[str, Any]:
        """The outpost parameters that replay this trace."""
        return {
            "r": self.r,
            "L": self.L,
            "W": self.W,
            "T": self.ticks - 1,
            "compat": "official",
        }


# --------------------------------------------------------------------------- reading


def read_trace(path: str | Path) -> Trace:
    """Read and check the structure of a trace file, ``.jsonl`` or ``.jsonl.gz``.

    Raises
    ------
    TraceError
        Unreadable, not gzip or JSON lines, or not an official Outpost trace.  The
        message names the file and line.
    """
    p = Path(path)
    raw, _ = read_maybe_gzip(p, MAX_TRACE_BYTES, TraceError, what="trace")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise TraceError(
            f"not UTF-8 text (byte 0x{raw[exc.start]:02x})", path=p, line=line
        ) from None
    rows = []
    for lineno, ln in enumerate(text.split("\n"), start=1):
        if not ln.strip():
            continue
        try:
            rows.append((lineno, load_json(ln)))
        except json.JSONDecodeError as exc:
            raise TraceError(f"not a JSON line: {exc.msg}", path=p, line=lineno) from None
        except LimitError as exc:
            raise TraceError(str(exc), path=p, line=lineno) from None
    if not rows or not isinstance(rows[0][1], dict) or rows[0][1].get("header") is not True:
        raise TraceError(
            "not an Outpost trace: the first line should be the header "
            '{"header": true, "map": ..., "r": ..., ...}',
            path=p,
            line=1,
        )
    head = rows[0][1]
    vals = {}
    for key in ("r", "L", "W", "ticks"):
        v = head.get(key)
        if isinstance(v, bool) or not isinstance(v, int) or v < (1 if key == "ticks" else 0):
            raise TraceError(
                f"header field {key!r} should be a whole number, got {_short(v)}",
                path=p,
                line=rows[0][0],
            )
        vals[key] = v
    name = head.get("map")
    if not isinstance(name, str) or not _MAP_NAME.match(name):
        raise TraceError(
            f"header field 'map' should be a map name, got {_short(name)}",
            path=p,
            line=rows[0][0],
        )
    players = head.get("players")
    if (
        not isinstance(players, list)
        or len(players) != NUM_EMPIRES
        or not all(isinstance(x, str) for x in players)
    ):
        raise TraceError("header field 'players' should be four names", path=p, line=rows[0][0])
    if (
        len(rows) < 2
        or not isinstance(rows[-1][1], dict)
        or rows[-1][1].get("final") is not True
    ):
        raise TraceError(
            'the last line should be {"final": true, ...}', path=p, line=rows[-1][0]
        )
    turns = []
    for k, (lineno, t) in enumerate(rows[1:-1], start=1):
        _check_turn(t, k, p, lineno)
        turns.append(t)
    return Trace(
        str(p),
        name,
        vals["r"],
        vals["L"],
        vals["W"],
        vals["ticks"],
        tuple(players),
        tuple(turns),
        rows[-1][1],
    )


def _check_turn(t: Any, k: int, path: Path, line: int) -> None:
    if not isinstance(t, dict) or t.get("tick") != k or isinstance(t.get("tick"), bool):
        raise TraceError(
            f'expected the line of turn {k} ({{"tick": {k}, ...}})', path=path, line=line
        )
    for key in (
        "outposts",
        "moves",
        "deletes",
        "errors",
        "land",
        "water",
        "disputed",
        "noutpost",
    ):
        if key not in t and key in ("disputed", "noutpost"):
            continue  # compared when present
        v = t.get(key)
        if not isinstance(v, list) or len(v) != NUM_EMPIRES:
            raise TraceError(
                f"turn {k}: field {key!r} should list the four seats", path=path, line=line
            )
    if "uncaught" in t and not isinstance(t["uncaught"], str):
        raise TraceError(
            f"turn {k}: field 'uncaught' should be the exception's text, "
            f"got {_short(t['uncaught'])}",
            path=path,
            line=line,
        )
    for s in range(NUM_EMPIRES):
        if t["moves"][s] is not None and not isinstance(t["moves"][s], list):
            raise TraceError(
                f"turn {k}: seat {s}: moves should be a list of [index, [x, y]] "
                f"entries or null, got {_short(t['moves'][s])}",
                path=path,
                line=line,
            )
        err = t["errors"][s]
        if err is not None and not isinstance(err, str):
            raise TraceError(
                f"turn {k}: seat {s}: errors should hold null or a message, got {_short(err)}",
                path=path,
                line=line,
            )


def read_trace_map(path: str | os.PathLike[str]) -> GameMap:
    """The map file a trace was played on, read as an Outpost map whatever its folder.

    Raises
    ------
    MapFormatError
        The file cannot be read or is not an Outpost map.
    """
    return read_map(path, game=GAME.info.name)


def find_trace_map(trace: Trace, search: Sequence[str | Path] = ()) -> Path:
    """The map file named by the trace header.

    Looked for as ``NAME.txt``, then ``NAME``, in these folders in order:

    - those in ``search``;
    - the trace's folder;
    - an ``outpost-maps`` folder beside the trace's folder, the layout the recorded
      traces are distributed in;
    - the current directory;
    - atlas's own Outpost maps.

    Raises
    ------
    TraceError
        No such file in any of these folders.  The message lists them.
    """
    from ....resources import maps_dir

    dirs = [Path(d) for d in search]
    if trace.path is not None:
        here = Path(trace.path).parent
        dirs += [here, here.parent / "outpost-maps"]
    dirs += [Path.cwd(), maps_dir() / "outpost"]
    for d in dirs:
        for cand in (d / f"{trace.map_name}.txt", d / trace.map_name):
            if cand.is_file():
                return cand
    raise TraceError(
        f"map {trace.map_name!r} not found (looked in "
        f"{', '.join(str(d) for d in dirs)}); give it with --map",
        path=trace.path,
    )


# --------------------------------------------------------------------------- replay


def _xy_to_move(entries: Any, error: Any, tick: int, seat: int, path: str | None) -> Any:
    """The atlas move of a trace's ``moves`` entry.

    ``null`` is a player that threw, ``None``, when the turn's ``errors`` give a text.
    Otherwise it is one that returned null,
    :data:`~atlas.games.outpost.rules.game.RETURNED_NULL`.
    """
    if entries is None:
        return None if error is not None else RETURNED_NULL
    try:
        return tuple(
            (int(i), None if xy is None else (_coord(xy[1]), _coord(xy[0])))
            for i, xy in (_pair(e) for e in entries)
        )
    except (TypeError, ValueError, IndexError, KeyError):
        raise TraceError(
            f"turn {tick}: seat {seat}: moves should be [index, [x, y]] "
            f"entries, got {_short(entries)}",
            path=path,
        ) from None


def _coord(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError
    return v


def _pair(e: Any) -> tuple[Any, Any]:
    if isinstance(e, list) and len(e) == 1:
        return e[0], None
    i, xy = e
    if isinstance(i, bool) or not isinstance(i, int):
        raise TypeError
    return i, xy


def _compare_turn(state: OutpostState, t: dict[str, Any]) -> TraceMismatch | None:
    tick = t["tick"]
    stop = state.stopped
    if (stop is not None) != ("uncaught" in t):
        replayed = None if stop is None else f"stopped at seat {stop[0]}, entry {stop[1]}"
        return TraceMismatch(
            tick, 0 if stop is None else stop[0], "uncaught", replayed, t.get("uncaught")
        )
    for s in range(NUM_EMPIRES):
        got = {
            "outposts": [[c, r] for r, c in state.outposts[s].tolist()],
            "land": int(state.land[s]),
            "water": int(state.water_count[s]),
            "disputed": int(state.disputed[s]),
            "noutpost": int(state.afford[s]),
        }
        for fld in TURN_FIELDS:
            if fld not in t:
                continue
            want = t[fld][s]
            if got[fld] != want:
                return TraceMismatch(tick, s, fld, got[fld], want)
    return None


def _played(step: Callable[[], OutpostState], tick: int, path: str | None) -> OutpostState:
    """``step()``, a turn of the rules.

    A trace whose moves they cannot play is a :class:`TraceError` naming the turn.
    """
    try:
        return step()
    except (
        InvalidMoveError,
        IllegalMoveError,
        ValueError,
        TypeError,
        IndexError,
        KeyError,
        OverflowError,
    ) as exc:
        raise TraceError(
            f"turn {tick}: the rules cannot play the recorded moves: {str(exc)[:120]}",
            path=path,
        ) from None


def replay_trace(
    trace: Trace,
    game_map: GameMap,
    builder: RecordBuilder | None = None,
    turn_index: list[int] | None = None,
    states: list[OutpostState] | None = None,
) -> tuple[OutpostState, TraceMismatch | None]:
    """Replay ``trace`` on ``game_map`` in official mode, checking every turn.

    Returns the last state reached and the first :class:`TraceMismatch`.  The mismatch
    is ``None`` when the trace replays exactly, final line included.  The optional
    arguments collect more:

    - ``builder`` gets every ``apply`` step: a disband phase, then the turn;
    - ``turn_index`` receives, per trace turn, the index of its move turn in the
      builder;
    - ``states`` receives the initial state and the state after each ``apply`` step, as
      :func:`atlas.sim.records.replay_states` gives them for the record.

    Notes
    -----
    Compared per turn and seat:

    - the outposts in list order;
    - land, water and disputed cells;
    - the affordable count of the last season, ``noutpost``.

    A disband answer where the replay has none pending is a mismatch in ``deletes``.
    Cost: one engine turn per trace line.
    """
    if game_map.game != "outpost":
        raise TraceError(
            f"map {game_map.name!r} is a {game_map.game} map, not an outpost map",
            path=trace.path,
        )
    try:
        state = GAME.initial_state(game_map, trace.params)
    except (ValueError, TypeError, OverflowError) as exc:
        raise TraceError(
            f"cannot start a game with the header's parameters: {exc}", path=trace.path
        ) from None
    if states is not None:
        states.append(state)
    for t in trace.turns:
        tick = t["tick"]
        deletes = t["deletes"]
        if state.over:
            return state, TraceMismatch(tick, 0, "tick", "game over", tick)
        asked: tuple[int, ...] = ()
        if any(state.pending):
            seats = asked = GAME.to_move(state)
            dmoves = {s: deletes[s] for s in seats}
            for s, d in dmoves.items():
                if d is not None and (isinstance(d, bool) or not isinstance(d, int)):
                    raise TraceError(
                        f"turn {tick}: seat {s}: deletes should be an index, got {_short(d)}",
                        path=trace.path,
                    )
            if builder is not None:
                builder.add_turn(dmoves)
            # the lambdas run at once, inside _played, with this turn's values
            state = _played(lambda: GAME.apply(state, dmoves), tick, trace.path)  # noqa: B023
            if states is not None:
                states.append(state)
        for s in range(NUM_EMPIRES):
            if deletes[s] is not None and s not in asked:
                return state, TraceMismatch(tick, s, "deletes", None, deletes[s])
        moves = {
            s: _xy_to_move(t["moves"][s], t["errors"][s], tick, s, trace.path)
            for s in range(NUM_EMPIRES)
        }
        if builder is not None:
            if turn_index is not None:
                turn_index.append(len(builder.turns))
            builder.add_turn(moves)
        state = _played(lambda: play_turn(state, moves), tick, trace.path)  # noqa: B023
        bad = _compare_turn(state, t)
        if bad is not None:
            return state, bad
        prepare_turn(state)
        if states is not None:
            states.append(state)
    if not state.over:
        return state, TraceMismatch(
            "final", 0, "ticks_played", state.turn, state.params.last_turn
        )
    fin = trace.final
    for s in range(NUM_EMPIRES):
        for fld, got in (
            ("land", int(state.land[s])),
            ("water", int(state.water_count[s])),
            ("outposts", len(state.outposts[s])),
        ):
            want = fin.get(fld)
            if isinstance(want, list) and len(want) == NUM_EMPIRES and want[s] != got:
                return state, TraceMismatch("final", s, fld, got, want[s])
    return state, None


def trace_to_record(trace: Trace, game_map: GameMap) -> Record:
    """An atlas replay record of ``trace``, which must replay exactly.

    :func:`~atlas.games.outpost.rules.faults.find_failures` finds every failure of a
    player: it threw, returned null, stopped the turn, or gave a bad disband answer.
    Each is told in its seat's status detail, with the turns and what the simulator did.
    The first exception text the trace gives for it is told too.

    A seat's status follows its null moves, which is how
    :func:`~atlas.sim.records.verify_record` checks it.  It is ``crashed`` at the first
    one, else ``ok``.

    Raises
    ------
    TraceMismatchError
        The trace does not replay exactly; ``.mismatch`` says where.
    """
    players = [PlayerEntry(name, "external") for name in trace.players]
    builder = RecordBuilder(GAME, game_map, trace.params, players, seed=0)
    index: list[int] = []
    states: list[OutpostState] = []
    state, bad = replay_trace(trace, game_map, builder, index, states)
    if bad is not None:
        raise TraceMismatchError(bad, trace.path)
    failures = find_failures([t.moves for t in builder.turns], states)
    for s in range(NUM_EMPIRES):
        said = failure_summary(failures, s)
        texts: dict[str, int] = {}
        for t in trace.turns:
            if t["errors"][s]:
                texts.setdefault(t["errors"][s], t["tick"])
        for n, (text, tick) in enumerate(list(texts.items())[:3]):
            said += f"; {'first' if n == 0 else 'then'} at turn {tick}: {text[:200]}"
        nulls = [i for i, t in enumerate(builder.turns) if s in t.moves and t.moves[s] is None]
        if nulls:
            builder.set_status(s, Status.CRASHED, nulls[0], said)
        elif said:
            builder.set_status(s, Status.OK, None, said)
    outcome = GAME.outcome(state)
    assert outcome is not None
    return builder.finish(state, outcome)


# --------------------------------------------------------------------------- CLI


class OutpostTraces(TraceImporter):
    """The official 2014 simulator's traces, for ``atlas import-trace``."""

    error = TraceError
    mismatch = TraceMismatchError

    def read(self, path: str | os.PathLike[str]) -> Trace:
        return read_trace(Path(path))

    def find_map(self, trace: Trace) -> Path:
        return find_trace_map(trace)

    def read_map(self, path: str | os.PathLike[str]) -> GameMap:
        return read_trace_map(path)

    def to_record(self, trace: Trace, game_map: GameMap) -> Record:
        return trace_to_record(trace, game_map)

    def turns(self, trace: Trace) -> int:
        return len(trace.turns)

    def params(self, trace: Trace) -> dict[str, Any]:
        return {"r": trace.r, "L": trace.L, "W": trace.W}

    def players(self, trace: Trace) -> tuple[str, ...]:
        return trace.players

    def final(self, record: Record) -> dict[str, Any]:
        return {"land": record.final["land"], "water": record.final["water"]}


#: What ``atlas import-trace`` finds through the registry (:mod:`atlas.sim.traces`).
TRACES = OutpostTraces()
