"""Games: :func:`play`, :func:`load_record`, and the :class:`Record` they give."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..errors import ArgumentError
from ..limits import MAX_SEED
from ..maps import GameMap
from ..sim import records as _records
from ._check import mapping, path_of, seconds, short, upcast, whole

__all__ = ["Record", "play", "load_record"]


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class Record(_records.Record):
    """A finished game: a replay record, with what Python does with one.

    A :class:`atlas.sim.records.Record` with methods.  Its fields are the record's
    (``game``, ``players``, ``turns``, ``result``,
    ``statuses``, ...; see :mod:`atlas.sim.records`).  In Jupyter a record shows the
    replay viewer: the board turn by turn with play, step and speed controls and the
    chart of the game's measures, self-contained (it still works in a notebook exported
    to HTML).

    Examples
    --------
    >>> import atlas
    >>> m = atlas.read_map("5 3\\n#####\\n#1 2#\\n#####\\n", game="tron")
    >>> record = atlas.play(m, ["random", "random"], seed=1, time=0.5)
    >>> len(record.states()) == len(record.turns) + 1
    True
    """

    @classmethod
    def of(cls, record: _records.Record) -> Record:
        """The same record as this class (``record`` itself when it is one)."""
        if not isinstance(record, _records.Record):
            raise ArgumentError(f"record: expected an atlas record, got {short(record)}")
        return upcast(cls, record)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _records.Record):
            return NotImplemented
        return all(
            getattr(self, f.name) == getattr(other, f.name)
            for f in dataclasses.fields(_records.Record)
            if f.compare
        )

    __hash__ = None  # type: ignore[assignment]  # mutable mappings inside

    def states(self) -> list[Any]:
        """Every position of the game: the start, then the one after each turn.

        Raises
        ------
        RecordError
            The moves do not replay on the record's map (a damaged or forged record).
        """
        return _records.replay_states(self)

    def save(
        self, path: str | os.PathLike[str], *, public: bool = False, force: bool = False
    ) -> Path:
        """Write the record (``.json``, or gzip-compressed ``.json.gz``); returns the path.

        ``public=True`` leaves out what the bots wrote on standard error.  An existing
        file is replaced when it is an atlas record, or with ``force=True``.

        Raises
        ------
        OutputFolderError
            The file exists and is not a record atlas wrote, or its folder is missing.
        """
        from ..fsutil import check_output_path

        out = check_output_path(
            path_of(path, "path"), ours=_records.is_record_file, force=force
        )
        _records.save_record(self, out, public=public)
        return out

    def gif(self, path: str | os.PathLike[str], *, force: bool = False) -> Path:
        """Draw the game as an animated GIF (what ``atlas replay`` writes); returns the
        path.  An existing file is replaced when atlas wrote it, or with ``force=True``.

        Raises
        ------
        OutputFolderError
            The file exists and atlas did not write it, or its folder is missing.
        RecordError
            The moves do not replay.
        """
        from ..fsutil import check_output_path
        from ..render.gif import is_atlas_gif, write_gif

        out = check_output_path(path_of(path, "path"), ours=is_atlas_gif, force=force)
        write_gif(self, out)
        return out

    def result_text(self) -> str:
        """One line: who won, why, after how many turns (what ``atlas play`` prints)."""
        from ..arena.runner import format_result

        return format_result(self)

    def html(self) -> str:
        """The replay viewer as a whole HTML page, its script, style and the game's data
        inline: it needs no server and no network."""
        from .display import replay_page

        return replay_page(self)

    def _repr_html_(self) -> str:
        from .display import replay_frame

        return replay_frame(self)

    def __repr__(self) -> str:
        return f"<atlas.Record {self.result_text()}>"


def _bots(game: str, bots: Any, n: int) -> list[Any]:
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


def _compat_params(game: str, compat: str, params: dict[str, Any]) -> dict[str, Any]:
    """``params`` with the ``compat`` word (``"spec"`` or ``"official"``) applied."""
    from ..errors import ParamError
    from ..sim.registry import get_info

    if compat not in ("spec", "official"):
        raise ArgumentError(f"compat: expected 'spec' or 'official', got {short(compat)}")
    param = get_info(game).param("compat")
    if param is None:
        if compat == "official":
            raise ParamError(
                f"compat {compat}: {game} has one set of rules, no 'official' variant"
            )
        return params
    return {**params, "compat": param.default if compat == "spec" else compat}


def play(
    game_map: GameMap | str | os.PathLike[str],
    bots: Sequence[Any],
    *,
    seed: int = 0,
    time: float | Sequence[float] = 1.0,
    params: Mapping[str, Any] | None = None,
    compat: str | None = None,
) -> Record:
    """Play one game on a map and return its record.

    Parameters
    ----------
    game_map : GameMap, str or path-like
        The map (a map file is read with :func:`read_map`); its game is the game
        played.
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
        ``game_map`` names a file that is not a map.

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
    from ._check import game_name
    from .maps import read_map

    if not isinstance(game_map, GameMap):
        if isinstance(game_map, (str, os.PathLike)):
            game_map = read_map(game_map)
        else:
            raise ArgumentError(
                f"game_map: expected a GameMap (atlas.read_map) or a map file, "
                f"got {short(game_map)}"
            )
    game = game_name(game_map.game, "game_map.game")
    n = get_info(game).num_players
    players = _bots(game, bots, n)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ArgumentError(f"seed: expected a whole number, got {short(seed)}")
    whole(seed, "seed", 0, MAX_SEED)
    if isinstance(time, (int, float)) and not isinstance(time, bool):
        limit: float | list[float] = seconds(time)
    elif isinstance(time, Sequence) and not isinstance(time, str) and len(time) == n:
        limit = [seconds(t, f"time[{i}]") for i, t in enumerate(time)]
    else:
        raise ArgumentError(
            f"time: expected seconds per move, or a list of {n} (one per seat), "
            f"got {short(time)}"
        )
    chosen = mapping(params, "params")
    if compat is not None:
        chosen = _compat_params(game, compat, chosen)
    get_info(game).check_params(chosen)
    record = play_game(game, game_map, players, params=chosen, seed=seed, time_limit=limit)
    return Record.of(record)


def load_record(path: str | os.PathLike[str]) -> Record:
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
    return Record.of(_records.load_record(path_of(path, "path")))
