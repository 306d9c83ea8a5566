"""Tournaments: :func:`tournament`, its :class:`Results` and their :class:`Standings`."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from ..arena.standings import StandingRow, Standings
from ..errors import ArgumentError
from ..sim.records import Record
from ..types import JSONObject, JSONValue, StrPath
from ._check import jobs_of, path_of, short

if TYPE_CHECKING:
    from ..arena.competition import TournamentPlan

__all__ = ["Standings", "StandingRow", "Results", "tournament"]


@dataclasses.dataclass(frozen=True, eq=False)
class Results:
    """What a tournament played: every game's record, and the standings.

    Attributes
    ----------
    standings : Standings
        Ratings with their 95 % intervals, and head to head.
    records : tuple of Record
        Every game of the plan, in the plan's order.
    plan : TournamentPlan
        The plan played (:class:`atlas.arena.competition.TournamentPlan`).
    folder : Path or None
        The output folder, when one was given: ``records/``, ``results.json`` and a
        copy of the plan, as ``atlas tournament --out`` writes them.
    """

    standings: Standings
    records: tuple[Record, ...]
    plan: TournamentPlan = dataclasses.field(repr=False)
    folder: Path | None = None
    _json: Mapping[str, JSONValue] = dataclasses.field(default_factory=dict, repr=False)

    def to_json(self) -> JSONObject:
        """The results as JSON data: what ``atlas tournament --json`` prints, and
        ``results.json`` holds."""
        import copy

        return copy.deepcopy(dict(self._json))

    def _repr_html_(self) -> str:
        from .display import results_html

        return results_html(self)

    def __repr__(self) -> str:
        return (
            f"<atlas.Results {self.plan.game}: {len(self.records)} games, "
            f"{len(self.standings.rows)} players>"
        )


def _plan_data(plan: Mapping[str, object]) -> dict[str, object]:
    """A dict plan with the Python forms accepted: bots as spec strings
    (``"random"``, ``"NAME=BOT"``, ``"cmd:COMMAND"``), maps as paths or maps."""
    from ..arena.players import parse_player
    from ..errors import AtlasError, PlanError

    data = dict(plan)
    bots = data.get("bots")
    if isinstance(bots, (list, tuple)):
        tables = []
        for i, bot in enumerate(bots):
            if isinstance(bot, str):
                try:
                    player = parse_player(bot)
                except AtlasError as exc:
                    raise PlanError(f"bots[{i}]: {exc}") from None
                table = {"name": player.name}
                if player.builtin is not None:
                    table["builtin"] = player.builtin
                else:
                    table["command"] = str(player.command)
                tables.append(table)
            else:
                tables.append(bot)
        data["bots"] = tables
    maps = data.get("maps")
    if isinstance(maps, (list, tuple)):
        data["maps"] = [os.fspath(m) if isinstance(m, os.PathLike) else m for m in maps]
    elif isinstance(maps, (str, os.PathLike)):
        data["maps"] = [os.fspath(maps)]
    return data


def tournament(
    plan: StrPath | Mapping[str, object],
    *,
    out: StrPath | None = None,
    resume: bool = False,
    force: bool = False,
    jobs: int | None = None,
    progress: bool = False,
) -> Results:
    """Play a tournament and rate its players.

    Parameters
    ----------
    plan : str, path-like or dict
        A plan file (TOML, ``docs/tournaments.md``), or the same keys as a dict:
        ``game``, ``maps`` (files, folders or globs relative to the current folder,
        or maps), ``bots`` (tables ``{"name": ..., "builtin": ...}`` or ``{"name":
        ..., "command": ...}``, or spec strings as :func:`play` takes them), and
        optionally ``seeds``, ``time``, ``params``, ``schedule``, ``sandbox``,
        ``limits``, ``env``, ``name``.
    out : str or path-like, optional
        Write every record there as its game ends, then ``results.json``: an empty
        or new folder, or one atlas wrote (``atlas tournament --out``).
    resume : bool
        Play only the games whose records ``out`` lacks.
    force : bool
        Play every game again in a folder that holds this or another tournament.
    jobs : int, optional
        Worker processes (default: one per core); 1 plays in this process.
    progress : bool
        Draw a progress bar on standard error.

    Returns
    -------
    Results
        The standings (ratings with 95 % intervals: :attr:`Results.standings`, a table
        in Jupyter) and every record.

    Raises
    ------
    PlanError
        The plan cannot be used: the message names the file, the line and the key
        (what ``atlas tournament`` prints).
    OutputFolderError
        ``out`` holds what atlas did not write, or another tournament.
    ArgumentError
        ``plan`` is neither a file nor a dict, or ``jobs`` is not a count.

    Examples
    --------
    >>> import atlas
    >>> plan = {"game": "connect5", "maps": [atlas.read_map("connect5 4 4 3\\n")],
    ...         "bots": ["random", "window4"], "time": 0.2}
    >>> results = atlas.tournament(plan, jobs=1)
    >>> len(results.records), [row.games for row in results.standings.rows]
    (2, [2, 2])
    """
    from ..arena.competition import load_plan, plan_from_data, run_plan
    from ..arena.tournament import results_json

    if isinstance(plan, Mapping):
        chosen = plan_from_data(_plan_data(plan), Path.cwd())
    elif isinstance(plan, (str, os.PathLike)):
        chosen = load_plan(path_of(plan, "plan"))
    else:
        raise ArgumentError(f"plan: expected a plan file or a dict, got {short(plan)}")
    jobs = jobs_of(jobs)
    if resume and out is None:
        raise ArgumentError("resume: needs out, the folder of the tournament to finish")
    result = run_plan(
        chosen,
        None if out is None else path_of(out, "out"),
        resume=resume,
        force=force,
        jobs=jobs,
        progress=progress,
    )
    data = results_json(
        result.specs, result.records, result.table, result.files, name=chosen.name
    )
    return Results(
        result.table,
        tuple(result.records),
        chosen,
        None if out is None else Path(out),
        data,
    )
