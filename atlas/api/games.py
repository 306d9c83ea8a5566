"""Games: :func:`play`, :func:`load_record`, and the :class:`Record` they give."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

from ..errors import ArgumentError
from ..sim import records as _records
from ..sim.base import State
from ..sim.records import Record
from ..types import Compat, Params, PlayerId, StrPath
from ._check import (
    compat_of,
    game_map_of,
    game_name,
    params_of,
    path_of,
    seconds,
    seed_of,
    short,
    with_compat,
)
from .maps import MapSource

__all__ = ["Record", "Bot", "State", "play", "load_record", "save_record", "save_gif"]


@runtime_checkable
class Bot(Protocol):
    """A bot of your own: any object with a method ``move``.

    ``move(state, player, deadline)`` returns the move of seat ``player`` in ``state``
    (the game's: a direction, a cell, a column, ...).  :func:`play`,
    :func:`fairness` and a tournament plan take one where they take a bot's name.
    """

    def move(self, state: State, player: PlayerId, deadline: float) -> object:
        """The move of seat ``player`` (0-based) in ``state``, before ``deadline`` (a
        :func:`time.perf_counter` value)."""


def save_record(
    record: Record, path: StrPath, *, public: bool = False, force: bool = False
) -> Path:
    """:meth:`Record.save`: ``path`` checked, the record written there."""
    from ..fsutil import check_output_path

    out = check_output_path(path_of(path, "path"), ours=_records.is_record_file, force=force)
    _records.save_record(record, out, public=public)
    return out


def save_gif(
    record: Record, path: StrPath, *, force: bool = False, overlay: str | None = None
) -> Path:
    """:meth:`Record.gif`: ``path`` and ``overlay`` checked, the game drawn there."""
    from ..fsutil import check_output_path
    from ..render.gif import check_overlay, is_atlas_gif, write_gif

    if overlay is not None:
        if not isinstance(overlay, str):
            raise ArgumentError(f"overlay: expected an overlay's name, got {short(overlay)}")
        try:
            check_overlay(record.game, overlay)
        except ValueError as exc:
            raise ArgumentError(f"overlay: {exc}") from None
    out = check_output_path(path_of(path, "path"), ours=is_atlas_gif, force=force)
    write_gif(record, out, overlay=overlay)
    return out


def _bots(game: str, bots: object, n: int) -> list[str | Bot]:
    """The players of a game, checked: built-in names and ``cmd:`` programs as the
    command line checks them, objects by their ``move`` method."""
    from ..arena.players import check_specs
    from ..errors import BotError

    if isinstance(bots, (str, bytes)) or not isinstance(bots, Sequence):
        raise ArgumentError(
            f"bots: expected a list of {n} bots (names, 'cmd:COMMAND' or objects), "
            f"got {short(bots)}"
        )
    if len(bots) != n:
        raise BotError(f"{game} is played by {n} bots, got {len(bots)}")
    for i, bot in enumerate(bots):
        if isinstance(bot, str):
            continue
        if not callable(getattr(bot, "move", None)):
            raise ArgumentError(
                f"bots[{i}]: expected a built-in bot's name, 'cmd:COMMAND' or an object "
                f"with move(state, player, deadline), got {short(bot)}"
            )
    check_specs(game, [b for b in bots if isinstance(b, str)])
    return list(bots)


def play(
    game_map: MapSource,
    bots: Sequence[str | Bot],
    *,
    seed: int = 0,
    time: float | Sequence[float] = 1.0,
    params: Params | None = None,
    compat: Compat | None = None,
    effort: int | Sequence[int] = 0,
) -> Record:
    """Play one game on a map and return its record.

    Parameters
    ----------
    game_map : GameMap, str or path-like
        The map: a :class:`GameMap`, a map file or a map's text (read as
        :func:`read_map` reads them); its game is the game played.
    bots : sequence
        One per seat: a built-in bot's name (``"random"``, ``"voronoi"``, ...; the
        table is in ``docs/bots.md``), ``"cmd:COMMAND"`` for a program that speaks
        the game's protocol (``docs/protocols.md``), ``"NAME=BOT"``, or any Python
        object with a method ``move(state, player, deadline)`` that returns a move.
    seed : int
        The game's seed: the same seed, map and bots give the same record.
    time : float or sequence of float
        Seconds per move, for every seat or one per seat: more than 0 and at most
        86,400 (a day; a limit that cannot end is refused).  A built-in bot or a Python
        object is handed this deadline, and its answer is a timeout only past 1.25 ×
        ``time`` + 0.05 s; its *first* answer only past 30 s, whatever ``time`` says
        (a built-in bot may compile its kernels then:
        :data:`atlas.arena.runner.COMPILE_ALLOWANCE`).  An object with a
        ``first_move_time`` attribute is judged by that (or ``time``, the larger)
        instead.
    params : mapping, optional
        Game parameters over the game's defaults (``docs/cli.md`` lists them).
    compat : {"spec", "official"}, optional
        The documented rules (the default) or what the original engine does, as the
        command line's ``--compat``.
    effort : int or sequence of int
        Built-in bots' fixed effort per move, for every seat or one per seat (0, the
        default here: the clock; ``atlas play`` gives each bot its default effort,
        ``docs/bots.md``).  A built-in bot at fixed effort plays the same moves on any
        machine, is never late, and the record's player entry says its effort;
        programs always play by the clock.

    Returns
    -------
    Record
        The finished game.  A bot that crashes, answers late or breaks the rules loses
        as the rules say, and its status in the record says why.

    Raises
    ------
    BotError
        An unknown built-in bot, a bad ``cmd:`` line, or the wrong number of bots (the
        messages ``atlas play`` prints).
    ParamError
        An unknown game parameter or a value out of range.
    ArgumentError
        ``time``, ``seed``, ``bots`` or ``compat`` of the wrong kind.
    MapFormatError
        ``game_map`` names a file, or is text, that is not a map.

    Examples
    --------
    >>> import atlas
    >>> m = atlas.read_map("5 3\\n#####\\n#1 2#\\n#####\\n", game="tron", name="tiny")
    >>> record = atlas.play(m, ["wallhugger", "random"], seed=3, time=0.5)
    >>> record.result.reason, len(record.turns)
    (<Reason.DRAW: 'draw'>, 1)

    A bot of your own is any object with ``move``:

    >>> class North:
    ...     def move(self, state, player, deadline):
    ...         return 1
    >>> atlas.play(m, [North(), "random"], seed=3, time=0.5).players[0].name
    'North'
    """
    from ..arena.runner import play_game
    from ..sim.registry import get_info

    game_map = game_map_of(game_map)
    game = game_name(game_map.game, "game_map.game")
    n = get_info(game).num_players
    players = _bots(game, bots, n)
    seed = seed_of(seed)
    if isinstance(time, (int, float)) and not isinstance(time, bool):
        limit: float | list[float] = seconds(time)
    elif isinstance(time, Sequence) and not isinstance(time, str) and len(time) == n:
        limit = [seconds(t, f"time[{i}]") for i, t in enumerate(time)]
    else:
        raise ArgumentError(
            f"time: expected seconds per move, or a list of {n} (one per seat), "
            f"got {short(time)}"
        )
    chosen = params_of(params)
    chosen = with_compat(game, compat_of(compat), chosen)
    get_info(game).check_params(chosen)
    if isinstance(effort, int) and not isinstance(effort, bool) and effort >= 0:
        efforts: int | list[int] = effort
    elif (
        isinstance(effort, Sequence)
        and len(effort) == n
        and all(isinstance(e, int) and not isinstance(e, bool) and e >= 0 for e in effort)
    ):
        efforts = [int(e) for e in effort]
    else:
        raise ArgumentError(
            f"effort: expected a count of 0 or more, or a list of {n} (one per seat), "
            f"got {short(effort)}"
        )
    return play_game(
        game, game_map, players, params=chosen, seed=seed, time_limit=limit, effort=efforts
    )


def load_record(path: StrPath) -> Record:
    """Read a replay record (.json or .json.gz).

    The files :meth:`Record.save` and ``atlas play --record`` write.

    Parameters
    ----------
    path : str or path-like
        The file.

    Returns
    -------
    Record
        The game (its form checked; :meth:`Record.states` replays it).

    Raises
    ------
    RecordError
        The file cannot be read, is not an atlas record, or is damaged: the message
        names the file and the problem (what ``atlas replay`` prints).

    Examples
    --------
    >>> import atlas, os, tempfile
    >>> m = atlas.read_map("5 3\\n#####\\n#1 2#\\n#####\\n", game="tron", name="tiny")
    >>> folder = tempfile.mkdtemp()
    >>> path = atlas.play(m, ["random", "random"], time=0.5).save(os.path.join(folder, "g.json"))
    >>> atlas.load_record(path).map.name
    'tiny'
    """
    return _records.load_record(path_of(path, "path"))
