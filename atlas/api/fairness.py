"""Is a map fair to its seats?  :func:`fairness`, and the :class:`FairnessReports` it
gives (one :class:`FairnessReport` per map)."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, overload

from ..arena import fairness as _fairness
from ..arena.fairness import FairnessReport, SeatScore
from ..errors import ArgumentError, AtlasError
from ..maps import GameMap
from ..types import Compat, JSONObject, Params, StrPath
from ._check import (
    cache_of,
    compat_of,
    jobs_of,
    map_source,
    params_of,
    read_source,
    seconds,
    short,
    whole,
)
from .games import Bot
from .maps import MapSource

__all__ = ["FairnessReport", "FairnessReports", "SeatScore", "fairness"]

#: What a placeholder player's command starts with: a Python object's seat in a game
#: spec (:func:`_seat_objects`), played in this process, never run as a program.
_OBJECT = "python-object:"


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class FairnessReports(Sequence[FairnessReport]):
    """The fairness reports of maps, and a line for each map not reported.

    One :class:`FairnessReport` per map that could be read and played, in the order
    the maps were given: a sequence (``len``, indexing, iteration).  In Jupyter it is
    one table: each map's symmetries, each seat's score with its 95 % interval, the
    verdict and the games behind it.

    Attributes
    ----------
    reports : tuple of FairnessReport
    problems : tuple of str
        One line per map that could not be read or played (what ``atlas fairness``
        prints on standard error), naming the file.
    """

    reports: tuple[FairnessReport, ...]
    problems: tuple[str, ...] = ()

    def __len__(self) -> int:
        return len(self.reports)

    @overload
    def __getitem__(self, index: int) -> FairnessReport: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[FairnessReport, ...]: ...

    def __getitem__(self, index: int | slice) -> FairnessReport | tuple[FairnessReport, ...]:
        return self.reports[index]

    def __iter__(self) -> Iterator[FairnessReport]:
        return iter(self.reports)

    def to_json(self) -> list[JSONObject]:
        """One object per map: what ``atlas fairness --json`` prints (``map``, ``game``,
        ``symmetries``, ``seats``, ``draws``, ``games``, ``verdict``, ``method``, ...;
        ``docs/fairness.md``)."""
        return [r.to_json() for r in self.reports]

    def text(self) -> str:
        """The reports as ``atlas fairness`` prints them, then the problems."""
        parts = [r.format_text() for r in self.reports]
        if self.problems:
            parts.append("\n".join(f"problem: {p}" for p in self.problems))
        return "\n\n".join(parts)

    def _repr_html_(self) -> str:
        from .display import fairness_html

        return fairness_html(self.reports, self.problems)

    def __repr__(self) -> str:
        head = f"<atlas.FairnessReports {_count(len(self.reports), 'map')}"
        if self.problems:
            head += f", {_count(len(self.problems), 'problem')}"
        body = [f"  {r._summary()}" for r in self.reports]
        body += [f"  problem: {p}" for p in self.problems]
        return head + (":\n" + "\n".join(body) if body else "") + ">"


def _count(n: int, what: str) -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


def _map_items(maps: object, problems: list[str]) -> list[GameMap | Path]:
    """The maps to report: maps as they are, files as paths (read, and their problems
    told, by :func:`atlas.arena.fairness.fairness_report`), folders by their files."""
    single = isinstance(maps, (str, os.PathLike, GameMap))
    if single:
        items: list[object] = [maps]
    elif isinstance(maps, Sequence):
        items = list(maps)
    else:
        raise ArgumentError(
            f"maps: expected a map, a map file, a folder, or a list of them, got {short(maps)}"
        )
    out: list[GameMap | Path] = []
    for i, item in enumerate(items):
        what = "maps" if single else f"maps[{i}]"
        found = map_source(item, what, folders=True)
        if isinstance(found, str):
            try:
                out.append(read_source(None, found))
            except AtlasError as exc:
                problems.append(f"{what}: {exc}")
        elif isinstance(found, Path):
            out += _fairness.map_files([found], problems)
        else:
            out.append(found)
    return out


def _players(bots: Any) -> tuple[list[Any] | None, dict[str, Any]]:
    """Player specs for the games, and the Python objects among the bots by the command
    of the placeholder player that stands for each in a game spec."""
    from ..arena.players import Player, parse_player

    if bots is None:
        return None, {}
    if isinstance(bots, (str, bytes)) or not isinstance(bots, Sequence) or not bots:
        raise ArgumentError(
            "bots: expected a list of one bot per seat at most (names, 'cmd:COMMAND' or "
            f"objects with move(state, player, deadline)), or None, got {short(bots)}"
        )
    specs: list[Any] = []
    objects: dict[str, Any] = {}
    names: set[str] = set()
    for i, bot in enumerate(bots):
        if isinstance(bot, (str, Player)):
            player = parse_player(bot)  # a BotError for a malformed spec, as the CLI
            names.add(player.name)
            specs.append(player)
            continue
        if not callable(getattr(bot, "move", None)):
            raise ArgumentError(
                f"bots[{i}]: expected a built-in bot's name, 'cmd:COMMAND' or an object "
                f"with move(state, player, deadline), got {short(bot)}"
            )
        name = str(getattr(bot, "name", type(bot).__name__))
        while name in names:
            name += "'"
        names.add(name)
        command = f"{_OBJECT}{i}:{id(bot):x}"  # no program's command line is this
        objects[command] = bot
        specs.append(Player(name, command=command))
    return specs, objects


def _runner(
    objects: Mapping[str, Any],
    *,
    jobs: int | None,
    cache: str | os.PathLike[str] | None,
    progress: bool,
) -> Callable[[Sequence[Any]], Sequence[Any]]:
    """``play(specs) -> records``: the games of Python objects in this process, the
    others on the pool (through ``cache`` when one is given)."""
    from ..arena.tournament import run_game, run_games

    def play(specs: Sequence[Any]) -> Sequence[Any]:
        out: list[Any] = [None] * len(specs)
        here = [i for i, s in enumerate(specs) if any(p.command in objects for p in s.players)]
        pool = sorted(set(range(len(specs))) - set(here))
        chosen = [specs[i] for i in pool]
        if cache is not None:
            from ..render.site.cache import Cache
            from ..render.site.tournament import play_cached

            played = play_cached(chosen, Cache(cache), jobs=jobs, progress=progress)
        else:
            played = run_games(chosen, jobs=jobs, progress=progress) if chosen else []
        for i, rec in zip(pool, played):
            out[i] = rec
        for i in here:
            out[i] = run_game(specs[i], objects)
        return out

    return play


def fairness(
    maps: MapSource | Sequence[MapSource],
    *,
    bots: Sequence[str | Bot] | None = None,
    games: int = _fairness.DEFAULT_GAMES,
    time: float | None = None,
    opening: int = _fairness.DEFAULT_OPENING,
    params: Params | None = None,
    compat: Compat | None = None,
    jobs: int | None = None,
    cache: StrPath | None = None,
    progress: bool = False,
    effort: int = 1,
) -> FairnessReports:
    """Report whether maps favour a seat: symmetries and played evidence.

    For each map, as ``atlas fairness`` does: the symmetries of the board that carry
    the walls onto themselves and each start onto another seat's start, the game's own
    exact facts (tron: Voronoi balance, chamber and parity bounds; Outpost: whether the
    quarters rotate), then ``games`` games per seating between ``bots`` in every
    rotation of their seats, each seat's score with a 95 % interval computed over the
    seat-swapped groups (the pentanomial model), and a verdict: ``"favours seat K"``,
    ``"balanced"`` or ``"undecided"`` (the rule and the method: ``docs/fairness.md``).

    Parameters
    ----------
    maps : GameMap, str, path-like, or a sequence of them
        Maps (:func:`read_map`), map files, folders searched for map files
        (``*.txt``), or a map's text (a ``str`` with a line break in it).
    bots : sequence, optional
        One bot per seat at most, repeated over the seats: a built-in bot's name,
        ``"cmd:COMMAND"``, ``"NAME=BOT"``, or any Python object with a method
        ``move(state, player, deadline)`` (as :func:`play` takes them; an object plays
        in this process, the same object in each game it sits in).  By default each
        game's strongest built-in bot plays every seat.
    games : int
        Games per seating, each with its own seed (0: the exact facts alone).
    time : float, optional
        Seconds per move by the clock for every player, more than 0 and at most 86,400;
        a Python object's first answer is judged late only past 30 s, as in
        :func:`play`.  By default (``None``) built-in bots play at fixed effort
        (``effort``) and programs and objects get 0.1 s a move, as ``atlas fairness``
        without ``--time``.
    effort : int
        Without ``time``, built-in bots play at this many times their default effort
        per move (``docs/bots.md``): the same games on any machine.
    opening : int
        Random moves each seat opens with, drawn from the game's seed, the same in
        every game of a seat-swapped group (0: the bots play every move).
    params : mapping, optional
        Game parameters over the games' defaults, the same for every map.
    compat : {"spec", "official"}, optional
        The documented rules (the default) or the original engine's, for the games that
        have both (``atlas fairness --compat``).
    jobs : int, optional
        Worker processes for the games (default: one per core); 1 plays in this
        process.
    cache : str or path-like, optional
        A folder of played games, shared with ``atlas build`` and ``atlas fairness
        --cache``: games found there are not played again (default: no cache).
    progress : bool
        Draw a progress bar on standard error.

    Returns
    -------
    FairnessReports
        One :class:`FairnessReport` per map that could be read and played, in order
        (``to_json()``: what ``atlas fairness --json`` prints; a table in Jupyter), and
        in ``problems`` one line naming the file of each map that could not: an
        unreadable map, a bot or a parameter its game does not have.  The other maps
        are reported all the same.

    Raises
    ------
    ArgumentError
        An argument of the wrong kind: ``maps``, ``bots``, ``games``, ``time``,
        ``opening``, ``params``, ``compat`` or ``jobs``.
    BotError
        A bot written wrongly whatever the game (an empty name, a ``cmd:`` line that
        does not split).

    See Also
    --------
    play : one game.
    tournament : ratings of the bots rather than of the seats.

    Notes
    -----
    The symmetries take a few passes over the board (O(cells)); the games are ordinary
    games, ``games`` times the distinct rotations of the seating per map.  A verdict is
    about these bots at this effort (or time) a move: a map may favour a seat for strong players
    and not for weak ones.

    Examples
    --------
    A shaft with a start at each end; ``games=0`` gives the exact facts alone:

    >>> import atlas
    >>> shaft = atlas.read_map("3 6\\n###\\n#2#\\n# #\\n# #\\n#1#\\n###\\n", name="shaft")
    >>> report = atlas.fairness(shaft, games=0)[0]
    >>> report.symmetries, report.verdict
    (('rot180', 'flip-ud'), 'undecided')

    Under the original engine's rules tron's cycles move one after the other, seat 1
    first, and when they meet head on seat 1 takes the cell:

    >>> reports = atlas.fairness(
    ...     shaft, bots=["wallhugger"], games=3, opening=0, compat="official", time=1.0, jobs=1
    ... )
    >>> [(s.seat, s.score, s.wins) for s in reports[0].seats]
    [(1, 1.0, 3), (2, 0.0, 0)]
    >>> reports.to_json()[0]["verdict"], reports.to_json()[0]["games"]
    ('undecided', 3)

    Three games cannot rule out chance; more would (``docs/fairness.md``).
    """
    problems: list[str] = []
    given = _map_items(maps, problems)
    players, objects = _players(bots)
    games = whole(games, "games", 0)
    opening = whole(opening, "opening", 0)
    limit = seconds(_fairness.DEFAULT_TIME if time is None else time)
    scale = 0 if time is not None else whole(effort, "effort", 1)
    chosen = params_of(params)
    compat = compat_of(compat)
    jobs = jobs_of(jobs)
    folder = cache_of(cache)
    reports = _fairness.fairness_report(
        given,
        bots=players,
        games=games,
        time_limit=limit,
        params=chosen,
        compat=compat,
        opening=opening,
        play=_runner(objects, jobs=jobs, cache=folder, progress=progress),
        problems=problems,
        effort=scale,
    )
    return FairnessReports(tuple(reports), tuple(problems))
