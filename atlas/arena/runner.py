"""Play one game between bots, built-in or external, and record it.

:func:`play_game` is the only loop that runs real games: the tournament, the site builder
and ``atlas play`` all go through it.  Whatever a bot does (raise, crash, hang, answer
late, answer nonsense or break the rules) becomes data in the record: the seat's move is
``None`` for that turn, its status says why, and the game's rules decide what the
missing move costs.  Every bot is closed at the end, whatever happens, so no external
process outlives its game.
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from ..bots.base import BotBase, as_bot
from ..bots.registry import make_bot
from ..bots.stop import check as check_stop
from ..bots.stop import interrupt, requested, stop_policy
from ..errors import ArgumentError, BotError, IllegalMoveError, InvalidMoveError
from ..limits import MAX_SECONDS
from ..maps import GameMap
from ..sim import get_game
from ..sim.base import Outcome, Reason, Status
from ..sim.records import Late, PlayerEntry, Record, RecordBuilder
from ..types import PlayerId
from .players import EXTERNAL_PREFIX, Player, parse_player
from .process import BotFailure
from .protocols import external_bot
from .reports import bot_info
from .sandbox import Containment
from .timing import Meters

__all__ = [
    "play_game",
    "make_player",
    "player_entry",
    "bot_seed",
    "opening_seed",
    "format_result",
    "bot_info",
    "late_after",
    "EXTERNAL_PREFIX",
    "TIME_GRACE",
    "COMPILE_ALLOWANCE",
    "CPU_RESCAN_EVERY",
    "Meters",
]

#: Built-in bots keep their own deadline; an answer later than the limit plus this
#: (seconds, plus a quarter of the limit) counts as a timeout.
TIME_GRACE = 0.05
#: A built-in bot's first answer is judged late only past this many seconds: it may
#: include compiling its numba kernels (loaded from numba's cache after the first run).
#: The bot is still handed the real deadline.
COMPILE_ALLOWANCE = 30.0
#: The processes an external program started are looked for (a pass over ``/proc``,
#: milliseconds) before its 17th answer and every this many answers after
#: (:meth:`BotBase.cpu_seconds`; the program itself is known without it, so a
#: single-process bot is measured whole, and a short game pays no pass).
CPU_RESCAN_EVERY = 64


def late_after(limit: float) -> float:
    """Seconds after which a built-in bot's answer to a ``limit``-second move is late:
    the limit, a quarter of it more, and :data:`TIME_GRACE`."""
    return limit * 1.25 + TIME_GRACE


def bot_seed(seed: int, seat: PlayerId) -> int:
    """The seed of the bot in ``seat`` of a game played with ``seed`` (distinct per seat)."""
    return int(np.random.SeedSequence([int(seed), int(seat)]).generate_state(1)[0])


def opening_seed(seed: int, seat: PlayerId) -> int:
    """The seed of seat ``seat``'s random opening moves in a game played with ``seed``
    (:func:`play_game`'s ``opening``): it depends on the seat, not on the bot there, so
    two games with one seed and the bots' seats swapped open alike."""
    return int(np.random.SeedSequence([int(seed), int(seat), 1]).generate_state(1)[0])


def make_player(
    game: str, spec: Any, seed: int = 0, containment: Containment | None = None
) -> BotBase:
    """A bot from a player spec (always a :class:`~atlas.bots.base.BotBase`).

    Parameters
    ----------
    game : str
        The game's name.
    spec : str, Player or bot
        A spec string (:func:`atlas.arena.players.parse_player`: ``NAME=cmd:COMMAND``,
        ``NAME=BUILTIN``, a built-in bot's name or ``cmd:COMMAND``), a
        :class:`~atlas.arena.players.Player`, or a bot object (returned as is when it is
        a :class:`~atlas.bots.base.BotBase`, else wrapped by
        :func:`~atlas.bots.base.as_bot`).
    seed : int
        The built-in bot's seed.
    containment : Containment, optional
        How an external program runs (limits, environment, sandbox); the defaults of
        :mod:`atlas.arena.sandbox` when omitted.
    """
    if not isinstance(spec, (str, Player)):
        return as_bot(spec)
    player = parse_player(spec)
    if player.builtin is None:
        return external_bot(
            game,
            player.command or "",
            name=player.name,
            cwd=player.cwd,
            containment=containment,
        )
    bot = make_bot(game, player.builtin, seed)
    if player.name != player.builtin:
        bot.name = player.name
    return bot


def player_entry(spec: Any) -> PlayerEntry:
    """How a player spec is named in a record (see :meth:`Player.entry`)."""
    if isinstance(spec, (str, Player)):
        return parse_player(spec).entry()
    command = getattr(spec, "command", None)
    return PlayerEntry(
        str(getattr(spec, "name", type(spec).__name__)),
        "external" if command else "builtin",
        command,
    )


def play_game(
    game_name: str,
    game_map: GameMap,
    players: Sequence[Any],
    *,
    params: Mapping[str, Any] | None = None,
    seed: int = 0,
    time_limit: float | Sequence[float] = 1.0,
    first_move_time: float | None = None,
    containment: Containment | Sequence[Containment | None] | None = None,
    meters: Meters | None = None,
    opening: int = 0,
    effort: int | Sequence[int] = 0,
) -> Record:
    """Play one game and return its record.

    Parameters
    ----------
    game_name : str
        ``"tron"``, ``"isolation"``, ``"connect5"`` or ``"outpost"``.
    game_map : GameMap
        The map.
    players : sequence
        One player spec per seat (see :func:`make_player`).
    params : mapping, optional
        Game parameters over the game's defaults.
    seed : int
        The game's seed; bot ``k`` is seeded with :func:`bot_seed` ``(seed, k)``.
    time_limit : float or sequence of float
        Seconds per move, for every seat or one per seat.
    first_move_time : float, optional
        Seconds for each seat's first move (start-up included).  By default the larger
        of ``time_limit`` and the bot's own ``first_move_time`` (external bots: 3 s, as
        the official tron engine allows).
    containment : Containment or sequence, optional
        How the ``cmd:`` players run (:mod:`atlas.arena.sandbox`): one for every seat,
        or one per seat (``None`` for the defaults).
    meters : Meters, optional
        The CPU clock of built-in bots' answers and the machine's load reading
        (:class:`atlas.arena.timing.Meters`; tests give their own).
    opening : int
        Each seat's first ``opening`` moves are random legal moves
        (``game.random_move``, drawn from a generator seeded with :func:`opening_seed`
        ``(seed, seat)``) and its bot is not asked for them: a deterministic bot then
        plays a different game for each seed, and two games with one seed and the bots'
        seats swapped share their opening (``atlas fairness``).  They are recorded as
        any move, in no time.
    effort : int or sequence of int
        Each built-in bot's fixed effort per move, for every seat or one per seat (0:
        the clock; :attr:`atlas.bots.base.BotBase.effort`).  A seat at fixed effort is
        asked under :func:`atlas.bots.search.effort_clock`, is never late (its
        ``time_limit`` only bounds what the runner waits for, and no answer of it is
        judged by the clock), and its player entry says its effort.  External programs
        ignore it (they play by the clock); a bot object gets it as its ``effort``.

    Returns
    -------
    Record
        The finished game; see :mod:`atlas.sim.records`.

    Notes
    -----
    Each turn, every seat in ``to_move`` is asked in seat order with its own deadline
    and a copy of the state.  A failure makes that seat's move ``None``: an exception
    or a dead process is ``crashed``, an answer after the deadline ``timeout``
    (built-in bots get :data:`TIME_GRACE` plus a quarter of the limit, and
    :data:`COMPILE_ALLOWANCE` for their first move), a move the game
    cannot read ``invalid``, a move the rules refuse ``illegal``.  In a two-seat
    alternating game (isolation, connect5) that seat then loses at once; in tron the
    cycle stays put and crashes; in outpost the empire makes no move for the rest of
    the game.  The result's reason names the failure when a failing seat lost.

    Each answer's wall time goes into the turn's ``times`` and its CPU time into
    ``cpu`` (a built-in bot: the CPU clock of this thread around its move; a program:
    its processes' CPU clocks, read before and after, outside the timed part); an
    answer after its deadline (``limit``, before any grace) also gets a ``late`` entry
    with the limit and the machine's load (:mod:`atlas.arena.timing`).
    """
    meters = meters or Meters()
    game = get_game(game_name)
    n = game.info.num_players
    if len(players) != n:
        raise BotError(f"{game_name} is played by {n} bots, got {len(players)}")
    if isinstance(time_limit, (int, float)):
        seat_times = [float(time_limit)] * n
    else:
        seat_times = [float(x) for x in time_limit]
        if len(seat_times) != n:
            raise BotError(f"{n} time limits expected, one per seat, got {len(seat_times)}")
    seat_efforts = [int(effort)] * n if isinstance(effort, int) else [int(e) for e in effort]
    if len(seat_efforts) != n or any(e < 0 for e in seat_efforts):
        raise ArgumentError(f"effort: one count of 0 or more per seat, got {effort}"[:200])
    if not all(0 < t <= MAX_SECONDS for t in seat_times):  # nan fails too
        raise ArgumentError(
            f"time_limit: expected seconds more than 0, at most {MAX_SECONDS:,.0f} "
            f"(a limit that cannot end is refused), got {seat_times}"[:200]
        )
    with stop_policy(only_default=True):  # Ctrl-C in a caller's program: the same policy
        return _play(
            game_name,
            game,
            game_map,
            players,
            params,
            seed,
            seat_times,
            first_move_time,
            containment,
            meters,
            opening,
            seat_efforts,
        )


def _play(
    game_name: str,
    game: Any,
    game_map: GameMap,
    players: Sequence[Any],
    params: Mapping[str, Any] | None,
    seed: int,
    seat_times: list[float],
    first_move_time: float | None,
    containment: Containment | Sequence[Containment | None] | None,
    meters: Meters,
    opening: int,
    seat_efforts: list[int],
) -> Record:
    """:func:`play_game` once its arguments are checked."""
    n = game.info.num_players
    state = game.initial_state(game_map, params)
    entries = [player_entry(p) for p in players]
    # effort is for built-in bots (and bot objects); a program keeps its clock
    seat_efforts = [
        e if e > 0 and entries[k].kind == "builtin" else 0 for k, e in enumerate(seat_efforts)
    ]
    entries = [
        replace(entry, effort=e) if e > 0 else entry for entry, e in zip(entries, seat_efforts)
    ]
    builder = RecordBuilder(game, game_map, params, entries, seed)
    bots: list[BotBase | None] = [None] * n
    failed: dict[PlayerId, tuple[Status, int, str]] = {}
    moved = [False] * n
    asked = [0] * n
    opened = [0] * n
    openers = [np.random.default_rng(opening_seed(seed, seat)) for seat in range(n)]
    try:
        for seat, spec in enumerate(players):
            # an unknown built-in name is the caller's mistake: BotError propagates
            bots[seat] = make_player(
                game_name, spec, bot_seed(seed, seat), _seat_containment(containment, seat)
            )
            if seat_efforts[seat] > 0:
                bots[seat].effort = seat_efforts[seat]  # type: ignore[union-attr]
        seated = [bot for bot in bots if bot is not None]
        for seat, bot in enumerate(seated):
            try:
                with _effort_of(bot):  # a start that searches, at the game's effort too
                    bot.start(game_map, dict(builder.params), seat)
            except BaseException as exc:  # a bot that cannot start loses, the game goes on
                _leave_or_stop(exc)
                failed[seat] = (Status.CRASHED, 0, _failure_text(exc))
        ends_on_failure = n == 2 and not game.info.simultaneous
        while game.outcome(state) is None:
            check_stop()  # SIGINT or SIGTERM: no more turns, nothing recorded
            seats = tuple(game.to_move(state))
            turn = len(builder.turns)
            moves: dict[PlayerId, Any] = {}
            times: dict[PlayerId, float] = {}
            info: dict[PlayerId, dict[str, float]] = {}
            cpu: dict[PlayerId, float] = {}
            late: dict[PlayerId, Late] = {}
            for seat in seats:
                if seat in failed:
                    moves[seat] = None
                    continue
                if opened[seat] < opening:
                    opened[seat] += 1
                    moves[seat] = game.random_move(state, seat, openers[seat])
                    times[seat] = 0.0
                    continue
                base = seat_times[seat]
                limit, judge = base, late_after(base)
                if not moved[seat]:
                    own = seated[seat].first_move_time
                    limit = (
                        first_move_time
                        if first_move_time is not None
                        else max(base, own or base)
                    )
                    judge = late_after(limit)
                    if own is None:  # a built-in bot: its first move may compile kernels
                        judge = max(judge, COMPILE_ALLOWANCE)
                moved[seat] = True
                rescan = asked[seat] % CPU_RESCAN_EVERY == 16
                asked[seat] += 1
                move, elapsed, used, failure = _ask(
                    game, seated[seat], state, seat, limit, judge, meters, rescan
                )
                times[seat] = round(elapsed, 6)
                if used is not None:
                    cpu[seat] = used
                if elapsed > limit and not seat_efforts[seat]:
                    reading = meters.load()
                    late[seat] = Late(
                        float(limit),
                        None if reading is None else round(float(reading[0]), 3),
                        None if reading is None else int(reading[1]),
                    )
                if failure is not None:
                    failed[seat] = (failure[0], turn, failure[1])
                    move = None
                else:
                    said = bot_info(seated[seat])
                    if said:
                        info[seat] = said
                moves[seat] = move
            state = _apply_checked(game, state, moves, failed, turn)
            builder.add_turn(moves, times, info, cpu, late)
            if ends_on_failure and any(s in failed for s in seats):
                break
        outcome = game.outcome(state)
        if outcome is None:  # unreachable: an alternating game ends on a None move
            outcome = Outcome(None, Reason.DRAW, (0.5,) * n, "stopped")
        outcome = _explain(outcome, failed, n)
        for seat, (status, turn, detail) in sorted(failed.items()):
            builder.set_status(seat, status, turn, detail)
    finally:
        for seat, made in enumerate(bots):
            if made is None:
                continue
            try:
                made.close()
            except Exception:  # closing must never stop the other closes
                pass
            text = made.stderr_text()
            if text is not None:
                builder.set_stderr(seat, text)
    return builder.finish(state, outcome)


def _seat_containment(
    containment: Containment | Sequence[Containment | None] | None, seat: PlayerId
) -> Containment | None:
    if containment is None or isinstance(containment, Containment):
        return containment
    return containment[seat]


def _failure_text(exc: BaseException) -> str:
    if isinstance(exc, BotFailure):
        return exc.detail
    if isinstance(exc, SystemExit):
        return f"SystemExit: the bot tried to end atlas (sys.exit({exc.code!r}))"[:300]
    return f"{type(exc).__name__}: {exc}"[:300]


def _leave_or_stop(exc: BaseException) -> None:
    """Re-raise what is not the bot's doing: the user's interrupt (``SIGINT`` or
    ``SIGTERM`` noted by :mod:`atlas.bots.stop`, whatever the bot raised meanwhile) as
    its ``KeyboardInterrupt``, and ``GeneratorExit``.  Anything else a bot's code raised,
    ``SystemExit`` and its own ``KeyboardInterrupt`` included (a Python object's
    ``move`` that calls ``sys.exit``), is the bot's crash: it loses that game."""
    if requested():
        raise interrupt() from exc
    if isinstance(exc, GeneratorExit):
        raise exc


def _effort_of(bot: Any) -> Any:
    """The searches' effort clock of a bot playing at fixed effort
    (:func:`atlas.bots.search.effort_clock`), else a context that does nothing: a bot's
    start (a warm-up search on its own tables, say) and its moves then read polls, not
    the machine's time, and the game is the same on any machine."""
    effort = int(getattr(bot, "effort", 0) or 0)
    if effort <= 0:
        return contextlib.nullcontext()
    from ..bots.search import effort_clock  # the searches' module, only when needed

    return effort_clock(effort)


def _ask(
    game: Any,
    bot: BotBase,
    state: Any,
    seat: PlayerId,
    limit: float,
    judge: float,
    meters: Meters,
    rescan: bool = False,
) -> tuple[Any, float, float | None, tuple[Status, str] | None]:
    """Ask ``bot`` for a move; returns (move, seconds, CPU seconds or None, (status,
    detail) or None).  The CPU clocks are read outside the timed part."""
    own = bot.cpu_seconds(rescan=rescan)
    clock: Callable[[], float | None] = meters.cpu if own is None else bot.cpu_seconds
    c0 = own if own is not None else meters.cpu()
    fixed = _effort_of(bot)
    if int(bot.effort) > 0:  # a fixed effort: the clock decides nothing, not even lateness
        judge = math.inf
    t0 = time.perf_counter()
    try:
        with fixed:
            move = bot.move(state.copy(), seat, t0 + limit)
    except BotFailure as exc:
        check_stop()  # the user's interrupt is not the bot's failure
        elapsed = time.perf_counter() - t0
        return None, elapsed, _spent(c0, clock()), (exc.status, exc.detail)
    except BaseException as exc:  # SystemExit, KeyboardInterrupt: a bot that leaves
        _leave_or_stop(exc)
        elapsed = time.perf_counter() - t0
        return None, elapsed, _spent(c0, clock()), (Status.CRASHED, _failure_text(exc))
    check_stop()  # a search the interrupt cut short answered: not recorded
    elapsed = time.perf_counter() - t0
    used = _spent(c0, clock())
    if elapsed > judge:
        return (
            None,
            elapsed,
            used,
            (Status.TIMEOUT, f"answered after {elapsed:.3f} s, the limit is {limit:g} s"),
        )
    try:
        game.move_to_json(move)
    except (InvalidMoveError, ValueError, TypeError) as exc:
        return (
            None,
            elapsed,
            used,
            (Status.INVALID, f"cannot read the move {move!r}: {exc}"[:300]),
        )
    return move, elapsed, used, None


def _spent(before: float | None, after: float | None) -> float | None:
    """CPU seconds between two readings (``None`` when either is missing; the record's
    builder rounds them and drops a clock that went backwards to 0)."""
    if before is None or after is None:
        return None
    return after - before


def _apply_checked(
    game: Any,
    state: Any,
    moves: dict[PlayerId, Any],
    failed: dict[PlayerId, tuple[Status, int, str]],
    turn: int,
) -> Any:
    """Apply ``moves``; a move the rules refuse makes its seat ``illegal`` (move None)."""
    try:
        return game.apply(state, moves)
    except IllegalMoveError as exc:
        first_error = str(exc)
    culprits = []
    for seat, move in moves.items():
        if move is None:
            continue
        trial = {s: (move if s == seat else None) for s in moves}
        try:
            game.apply(state, trial)
        except IllegalMoveError as exc:
            culprits.append((seat, str(exc)))
    if not culprits:
        raise IllegalMoveError(f"turn {turn}: moves {moves!r} refused: {first_error}")
    for seat, why in culprits:
        moves[seat] = None
        failed[seat] = (Status.ILLEGAL, turn, why[:300])
    return game.apply(state, moves)


def _explain(
    outcome: Outcome, failed: Mapping[PlayerId, tuple[Status, int, str]], n: int
) -> Outcome:
    """Name the failure in the result when a failing seat lost a two-seat game."""
    if n != 2 or outcome.winner is None:
        return outcome
    loser = 1 - outcome.winner
    if loser not in failed:
        return outcome
    status, turn, detail = failed[loser]
    text = f"player {loser + 1} {status.words} at turn {turn}"
    if detail:
        text += f": {detail}"
    return Outcome(outcome.winner, status.reason, outcome.scores, text[:400])


def format_result(record: Record) -> str:
    """One readable line: who won, why, after how many turns
    (:meth:`~atlas.sim.records.Record.result_text`)."""
    return record.result_text()
