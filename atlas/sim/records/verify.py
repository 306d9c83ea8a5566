"""Replaying a record and checking what it claims: :func:`replay_states` gives every
position its moves lead to, :func:`verify_record` holds the final position, the result
and the statuses against them (:func:`expected_result`: the result a record states).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ...errors import MOVE_DATA_ERRORS, IllegalMoveError, InvalidMoveError, RecordError
from ..base import Outcome, Reason, Status
from .model import Record, SeatStatus, _rebuild_map, _resolve_game, _short

__all__ = [
    "replay_states",
    "verify_record",
    "expected_result",
]


def replay_states(record: Record) -> list[Any]:
    """The initial state and the state after each turn of ``record``.

    The map is rebuilt from the embedded text and the game started with the recorded
    parameters; each turn's JSON moves are decoded with ``GAME.move_from_json`` and
    applied with ``GAME.apply``.

    Raises
    ------
    RecordError
        A turn names other seats than those to move, a move does not parse or is not
        allowed, or moves go on after the game ended.

    Notes
    -----
    Cost: one ``apply`` per turn plus a copy of each state (they are all returned).
    """
    game = _resolve_game(record.game)
    game_map = _rebuild_map(record, None)
    try:
        state = game.initial_state(game_map, dict(record.params))
    except _BAD_DATA as exc:
        raise RecordError(
            f"cannot start {record.game} with the recorded parameters "
            f"{_short(dict(record.params))}: {exc}"
        ) from None
    states = [state]
    for i, turn in enumerate(record.turns):
        expected = tuple(game.to_move(state))
        if tuple(sorted(turn.moves)) != tuple(sorted(expected)):
            if not expected:
                raise RecordError(f"turn {i}: moves recorded after the game ended")
            raise RecordError(
                f"turn {i}: moves for seats {sorted(turn.moves)}, but seats "
                f"{sorted(expected)} were to move"
            )
        moves = {}
        for seat, data in turn.moves.items():
            try:
                moves[seat] = None if data is None else game.move_from_json(data)
            except _BAD_DATA as exc:
                raise RecordError(f"turn {i}: seat {seat}: {_why(exc)}") from None
        try:
            state = game.apply(state, moves)
        except _BAD_DATA as exc:
            raise RecordError(f"turn {i}: {_why(exc)}") from None
        states.append(state)
    return states


#: What a game's rules may raise on data a record makes up.
_BAD_DATA = MOVE_DATA_ERRORS


def _why(exc: BaseException) -> str:
    if isinstance(exc, (InvalidMoveError, IllegalMoveError)):
        return str(exc)
    return f"the move cannot be played ({type(exc).__name__}: {str(exc)[:80]})"


def expected_result(outcome: Outcome, statuses: Sequence[SeatStatus]) -> Outcome:
    """The result a record states for a game the rules ended with ``outcome``.

    The rules' winner and scores, and their reason, except in a two-seat game whose
    loser failed: then the reason names the failure (``timeout``, ``crash``,
    ``invalid``, ``illegal``), as :func:`atlas.arena.runner.play_game` writes it.
    ``detail`` is kept: it is a sentence for people, not a claim that is checked.
    """
    n = len(statuses)
    if n != 2 or outcome.winner is None:
        return outcome
    lost = statuses[1 - outcome.winner].status
    if lost is Status.OK:
        return outcome
    return Outcome(outcome.winner, lost.reason, outcome.scores, outcome.detail)


def _accepted_reasons(outcome: Outcome, statuses: Sequence[SeatStatus]) -> tuple[Reason, ...]:
    """The reasons a record may give: :func:`expected_result`'s, or the rules' own when
    the two differ (a record built without the runner keeps the rules' word)."""
    return tuple(dict.fromkeys((expected_result(outcome, statuses).reason, outcome.reason)))


def verify_record(record: Record, states: Sequence[Any] | None = None) -> None:
    """Check that ``record`` is what its moves give: position, result and statuses.

    ``states`` are the record's :func:`replay_states` when the caller has them already
    (the site replays each record once, to draw it and to check it).

    The moves are replayed from the embedded map and the recorded parameters
    (:func:`replay_states`), then every claim of the record is checked against the
    replay:

    - ``final``: the final position's ``GAME.summary``;
    - the game is over after the last turn (a record cannot stop early);
    - ``result``: the winner and the scores the rules give, and their reason or, when
      the loser of a two-seat game failed, the failure's (:func:`expected_result`; a
      record made without the runner may keep the rules' word);
    - ``statuses``: a seat is ``ok`` exactly when it never gave a null move; a seat
      that failed (crashed, timed out, answered nonsense or an illegal move) shows a
      null move, and its first null move comes at the status's ``turn`` or, when it
      failed before its turn came (a bot that could not start), at its first turn
      after it.

    What cannot be checked is left alone: ``detail`` texts, answer times, which of the
    failures a null move was (a timeout and a crash look the same in the moves), the
    players' names and the private ``stderr``.

    Raises
    ------
    RecordError
        The replay fails, or a claim differs from the replay; the message names the
        first claim that does not hold.
    """
    game = _resolve_game(record.game)
    final = (replay_states(record) if states is None else states)[-1]
    got = json.loads(json.dumps(game.summary(final)))
    want = json.loads(json.dumps(dict(record.final)))
    if got != want:
        keys = sorted(set(got) | set(want))
        diff = next((k for k in keys if got.get(k) != want.get(k)), "?")
        raise RecordError(
            f"the record does not replay: after {len(record.turns)} turns the "
            f"final position differs at {diff!r} (replayed "
            f"{_short(got.get(diff))}, recorded {_short(want.get(diff))})"
        )
    outcome = game.outcome(final)
    if outcome is None:
        raise RecordError(
            f"the record stops after {len(record.turns)} turns, before the game is over"
        )
    _verify_statuses(record)
    expect = expected_result(outcome, record.statuses)
    claimed = record.result
    for what, mine, theirs in (
        ("winner", expect.winner, claimed.winner),
        ("scores", [float(v) for v in expect.scores], [float(v) for v in claimed.scores]),
    ):
        if mine != theirs:
            raise RecordError(
                f"the record claims result.{what} {_short(theirs)}, but its "
                f"moves give {_short(mine)}"
            )
    reasons = _accepted_reasons(outcome, record.statuses)
    if claimed.reason not in reasons:
        raise RecordError(
            f"the record claims result.reason {claimed.reason.value!r}, but its "
            f"moves give {' or '.join(repr(r.value) for r in reasons)}"
        )


def _verify_statuses(record: Record) -> None:
    for seat, st in enumerate(record.statuses):
        nulls = [
            i for i, t in enumerate(record.turns) if seat in t.moves and t.moves[seat] is None
        ]
        where = f"statuses[{seat}]"
        if st.status is Status.OK:
            if nulls:
                raise RecordError(
                    f"{where} is 'ok', but seat {seat} gave no valid move "
                    f"(null) at turn {nulls[0]}"
                )
            if st.turn is not None:
                raise RecordError(f"{where} is 'ok' but names a turn ({st.turn})")
            continue
        claim = f"{where} says {st.status.value!r} at turn {st.turn}"
        if not nulls:
            raise RecordError(f"{claim}, but seat {seat} gave a move on every turn")
        if st.turn is None or st.turn > nulls[0]:
            raise RecordError(f"{claim}, but its first null move is at turn {nulls[0]}")
        for i in range(st.turn, nulls[0]):
            if record.turns[i].moves.get(seat) is not None:
                raise RecordError(
                    f"{claim}, but seat {seat} moved at turn {i} and its "
                    f"first null move is at turn {nulls[0]}"
                )
