"""What failing players did in an Outpost game, and what the rules did about it.

:func:`find_failures` reads a game's moves next to its replayed states and lists every
failure:

- a player that gave no move.  In official mode, its ``move()`` threw;
- one whose ``move()`` returned null,
  :data:`~atlas.games.outpost.rules.moves.RETURNED_NULL`;
- a move list that stopped the turn, with an entry with a negative index or no target;
- a disband answer that was missing or named no outpost.

Each :class:`Failure` says what was done about it: by the simulator in official mode, by
the spec rules otherwise.  Its words are taken from the replay.  So a record's claims
and its game page cannot say more than its moves give.

The rules themselves are in :mod:`atlas.games.outpost.rules.game` and ``docs/outpost.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .game import OutpostState
from .moves import RETURNED_NULL

__all__ = ["Failure", "HOWS", "find_failures", "failure_summary"]

#: The kinds of failure, as :attr:`Failure.how` names them.
HOWS: Final = (
    "threw",
    "gave no move",
    "returned null",
    "stopped the turn",
    "bad entry (not reached)",
    "threw when asked to disband",
    "no disband answer",
    "bad disband answer",
)


@dataclass(frozen=True)
class Failure:
    """One player's failure on one turn.

    Attributes
    ----------
    index : int
        The record's turn, a 0-based index into ``Record.turns``.  A season's disband
        phase is a record turn of its own.
    turn : int
        The game turn it touched: 1-based, the simulator's tick.
    seat : int
    how : str
        One of :data:`HOWS`.
    what : str
        What the player answered, in a few words.
    effect : str
        What was done about it: by the simulator in official mode, by the spec rules
        otherwise.
    """

    index: int
    turn: int
    seat: int
    how: str
    what: str
    effect: str

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "turn": self.turn,
            "seat": self.seat,
            "how": self.how,
            "what": self.what,
            "effect": self.effect,
        }


def _players(seats: Sequence[int]) -> str:
    """``player 2``, ``players 1 and 2``, ``players 1-3``.  People count seats from 1."""
    names = [s + 1 for s in seats]
    if len(names) == 1:
        return f"player {names[0]}"
    if names == list(range(names[0], names[-1] + 1)) and len(names) > 2:
        return f"players {names[0]}-{names[-1]}"
    return "players " + ", ".join(str(n) for n in names[:-1]) + f" and {names[-1]}"


def _stop_effect(seat: int, entry: int, turn: int, seats: int = 4) -> str:
    """What the simulator does when ``updatemap`` throws at ``entry`` of ``seat``'s list."""
    parts = ["the simulator stopped the turn there"]
    if seat == 1:
        parts.append("player 1 had moved and the ownership was recomputed")
    elif seat > 1:
        parts.append(f"{_players(range(seat))} had moved, the ownership recomputed after each")
    elif turn == 1:
        parts.append("nobody had moved and the ownership stays empty (none computed yet)")
    else:
        parts.append("nobody had moved and the ownership stays as the last turn left it")
    if entry > 0:
        parts.append(
            f"its first {entry} {'entry stands' if entry == 1 else 'entries stand'}, "
            "not counted in the ownership"
        )
    else:
        parts.append("it did not move")
    if seat < seats - 1:
        parts.append(f"{_players(range(seat + 1, seats))} did not move")
    parts.append("no supply line was checked")
    return "; ".join(parts)


def _entry_text(entry: Any) -> str:
    if not isinstance(entry, (list, tuple)) or not entry:
        return repr(entry)
    target = entry[1] if len(entry) > 1 else None
    where = "no target" if target is None else f"({target[0]}, {target[1]})"
    return f"[{entry[0]}, {where}]"


def _first_stop(move: Sequence[Any], count: int) -> int | None:
    """The entry of an official move list that makes ``updatemap`` throw, if any.

    Such an entry has an index below the list's size that is negative or has no target.
    """
    for k, entry in enumerate(move):
        idx = entry[0]
        target = entry[1] if len(entry) > 1 else None
        if idx < count and (idx < 0 or target is None):
            return k
    return None


def find_failures(
    turns: Sequence[Mapping[int, Any]], states: Sequence[OutpostState]
) -> list[Failure]:
    """Every failure of a game, turn by turn and seat by seat.

    Parameters
    ----------
    turns : sequence of mappings
        Each record turn's moves as JSON, seat -> move.  ``None`` is no move.
    states : sequence of OutpostState
        The initial state and the state after each record turn, as
        :func:`atlas.sim.records.replay_states` gives them.

    Notes
    -----
    A disband answer that fails is reported on the disband phase.  The turn after it,
    where that seat does not move, is not reported again.

    Illegal entries that the official simulator ignores silently are not failures: a
    diagonal, a stay, an index too large.  Cost: one pass over the moves.
    """
    out: list[Failure] = []
    for i, moves in enumerate(turns):
        before, after = states[i], states[i + 1]
        official = before.params.official
        if any(before.pending):
            turn = before.turn + 1
            for s, m in sorted(moves.items()):
                count = before.num_outposts(s)
                if m is None:
                    how = "threw when asked to disband" if official else "no disband answer"
                    what = "no outpost named"
                elif isinstance(m, int) and not 0 <= m < count and official:
                    how = "bad disband answer"
                    what = f"disband #{m} (it has {count} outpost{'' if count == 1 else 's'})"
                else:
                    continue
                effect = (
                    f"nothing was disbanded and it did not move on turn {turn}"
                    if official
                    else f"its last outpost (#{count - 1}) was disbanded"
                )
                out.append(Failure(i, turn, s, how, what, effect))
            continue
        turn = after.turn
        stop = after.stopped
        for s, m in sorted(moves.items()):
            if before.skip[s]:
                continue  # reported with its disband answer
            count = before.num_outposts(s)
            not_reached = (
                f"never reached: the turn had stopped at player {stop[0] + 1}"
                if stop is not None and stop[0] < s
                else ""
            )
            if m is None:
                how = "threw" if official else "gave no move"
                effect = "its outposts stayed"
                if official and stop is not None and stop[0] < s:
                    effect += f" (the turn had stopped at player {stop[0] + 1})"
                elif official:
                    effect += "; the simulator caught the exception and the turn went on"
                out.append(Failure(i, turn, s, how, "no move list", effect))
            elif m == RETURNED_NULL:
                if not official:
                    effect = "its outposts stayed"
                elif stop is not None and stop[0] == s:
                    effect = _stop_effect(s, 0, turn)
                else:
                    effect = not_reached
                out.append(
                    Failure(i, turn, s, "returned null", "null instead of a list", effect)
                )
            elif official and isinstance(m, list):
                k = _first_stop(m, count)
                if k is None:
                    continue
                why = "a negative index" if m[k][0] < 0 else "no target"
                what = f"entry {k + 1} of {len(m)}, {_entry_text(m[k])}: {why}"
                if stop is not None and stop == (s, k):
                    out.append(
                        Failure(i, turn, s, "stopped the turn", what, _stop_effect(s, k, turn))
                    )
                else:
                    out.append(
                        Failure(i, turn, s, "bad entry (not reached)", what, not_reached)
                    )
    return out


def failure_summary(failures: Sequence[Failure], seat: int) -> str:
    """What ``seat`` did wrong, for a record's status detail.

    It gives one clause per kind of failure and effect, with the turns.  It is empty when
    the seat never failed.

    Examples
    --------
    >>> f = Failure(3, 4, 1, "returned null", "null instead of a list",
    ...             "the simulator stopped the turn there; it did not move")
    >>> failure_summary([f], 1)
    'returned null on turn 4: the simulator stopped the turn there'
    """
    groups: dict[tuple[str, str], list[int]] = {}
    for f in failures:
        if f.seat == seat:
            groups.setdefault((f.how, _brief(f)), []).append(f.turn)
    parts = []
    for (how, brief), turns in sorted(
        groups.items(), key=lambda kv: (HOWS.index(kv[0][0]), kv[1][0])
    ):
        if len(turns) == 1:
            when = f"turn {turns[0]}"
        else:
            shown = ", ".join(str(t) for t in turns[:8]) + (", ..." if len(turns) > 8 else "")
            when = f"{len(turns)} turns ({shown})"
        parts.append(f"{how} on {when}: {brief}")
    return "; ".join(parts)


def _brief(f: Failure) -> str:
    """The gist of a failure's effect, the same on every turn it happened."""
    if f.effect.startswith("the simulator stopped the turn"):
        if f.how == "stopped the turn":
            why = f.what.rsplit(": ", 1)[-1]
            return f"an entry with {why}; the simulator stopped the turn there"
        return "the simulator stopped the turn there"
    if f.effect.startswith("never reached"):
        return "the turn had stopped before it"
    return f.effect.split(" on turn ")[0]
