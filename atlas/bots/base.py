"""What a bot is, as code: :class:`BotBase`, and :func:`as_bot` for any other object.

A bot answers ``move(state, player, deadline)``: the only method it must have.  Around
it the game runner (:func:`atlas.arena.runner.play_game`) calls a few hooks, which
:class:`BotBase` defines as documented no-ops, so that the runner calls them plainly
and a bot overrides only those it needs:

``start(game_map, params, player)``
    once before the first move (an external program starts here);
``close()``
    once at the end, whatever happened (no process may outlive its game);
``stderr_text()``
    what the bot wrote to its standard error, kept in the record (``None``: it has none
    of its own);
``cpu_seconds(rescan=False)``
    the CPU seconds the bot's own processes have used so far (``None``: the bot runs
    in atlas's thread, whose CPU clock the runner reads around its move; an external
    program reads its processes' clocks, and ``rescan`` asks it to look again for
    processes it started);
``first_move_time``
    the seconds the bot wants for its first move, start-up included (``None``: a
    built-in bot, which may compile its kernels then; the runner allows for that);
``last_info``, ``last_depth``, ``last_score``, ``last_nodes``
    what the bot says about its last move (a search's depth, score and nodes), recorded
    per turn when given (:func:`atlas.arena.runner.bot_info`);
``last_pv``
    the principal variation of its last move: the moves it expects, its own first, then
    the reply, then its own..., as game moves (a ``pv`` entry of ``last_info`` is read
    first); recorded in the turn's ``info`` as ``pv``, at most
    :data:`atlas.sim.records.PV_MAX` moves;
``fixed_depth``
    when positive, a searching bot searches exactly this deep whatever its clock says
    (``benchmarks/ladder.py --depth``, tournaments' ``depths``); other bots ignore it;
``effort``
    when positive, the bot's fixed effort per move: the game runner runs its moves
    under :func:`atlas.bots.search.effort_clock`, whose clock counts the search's own
    polls instead of seconds, so that a searching bot stops after a fixed amount of work
    (about ``effort`` times the nodes between two polls, given per bot in
    ``docs/bots.md``) and plays the same moves on any machine; 0 plays by the clock.
    Bots that do not search (random, wallhugger, the Outpost heuristics) never read the
    clock for a decision and are deterministic already: effort changes nothing for
    them.  External programs always play by the clock.

Bots that are plain objects with a ``move`` method (a user's bot, a test's stand-in)
keep working: :func:`as_bot` wraps them in a :class:`BotBase` that forwards the hooks
they have and gives the no-ops for those they do not.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from typing import Any

from ..maps import GameMap
from ..types import PlayerId

__all__ = ["BotBase", "as_bot"]


class BotBase(abc.ABC):
    """A bot: :meth:`move` is required, the rest are optional hooks (see the module).

    Attributes
    ----------
    name : str
        The bot's name in records and standings (subclasses set it).
    first_move_time : float or None
        Seconds wanted for the first move; ``None`` for a built-in bot.
    last_info : mapping or None
        ``depth``, ``nodes``, ``value`` (or ``score``) of the last move, when said.
    last_depth, last_score, last_nodes : float or None
        The same as separate attributes (read when ``last_info`` says nothing).
    last_pv : sequence or None
        The moves the last move's search expects (the module's ``last_pv``).
    fixed_depth : int
        Search exactly this deep when positive (searching bots only).
    effort : int
        Polls of the search clock per move when positive (the module's ``effort``).
    win_score : float
        The score of a won position at the root, when the bot scores a forced win
        ``win_score - plies`` and a forced loss ``plies - win_score`` (0: it does not);
        :func:`atlas.arena.reports.bot_info` then reports ``mate``, the plies to the end.
    compile_seconds : float
        About how many seconds of one core numba takes to compile the bot's kernels
        from an empty cache (what a command's first use says it waits for:
        :func:`atlas.bots.registry.compile_seconds`); 0 for a bot without kernels.
    warm_apart : bool
        Whether the first part of the bot's warm-up compiles kernels of its own, which
        another process may compile while this one compiles the rest
        (:mod:`atlas.bots.warming`: a newcomer's first game on two cores).
    warm_alone : bool
        Whether the bot's kernels are its own, none of its game's rules': a first game
        with this bot in every seat has them compiled by a worker process while this
        one compiles the rules (:func:`atlas.arena.warm.warm_up_cold`).
    """

    name: str
    first_move_time: float | None = None
    last_info: Mapping[str, Any] | None = None
    last_depth: float | None = None
    last_score: float | None = None
    last_nodes: float | None = None
    last_pv: Sequence[Any] | None = None
    fixed_depth: int = 0
    effort: int = 0
    compile_seconds: float = 0.0
    warm_apart: bool = False
    warm_alone: bool = False
    win_score: float = 0.0

    def start(  # noqa: B027 - a hook: doing nothing is the documented default
        self, game_map: GameMap, params: Mapping[str, Any] | None, player: int
    ) -> None:
        """Prepare for a game on ``game_map`` with ``params`` in seat ``player``
        (called once, before the first move).  Default: nothing to prepare."""

    @abc.abstractmethod
    def move(self, state: Any, player: PlayerId, deadline: float) -> Any:
        """The move of seat ``player`` in ``state`` (a copy the bot may keep or change),
        to be returned before ``deadline``, a :func:`time.perf_counter` value."""

    def close(self) -> None:  # noqa: B027 - a hook: doing nothing is the documented default
        """Release what the bot holds (called once at the end of every game, whatever
        happened).  Default: nothing to release."""

    def stderr_text(self) -> str | None:
        """What the bot wrote to its standard error, or ``None`` when it has no stream
        of its own (the default: a built-in bot)."""
        return None

    def cpu_seconds(self, *, rescan: bool = False) -> float | None:
        """CPU seconds the bot's own processes have used so far, or ``None`` when it
        runs in the thread that asks it (the default: a built-in bot, timed by that
        thread's CPU clock).  ``rescan``: look again for processes the bot started."""
        return None


class _PlainBot(BotBase):
    """A plain object with ``move`` as a :class:`BotBase`: the hooks it has are called,
    the others are the no-ops; attributes are read from and written to the object."""

    def __init__(self, bot: Any) -> None:
        object.__setattr__(self, "bot", bot)

    def __setattr__(self, key: str, value: Any) -> None:
        setattr(self.bot, key, value)

    def __getattr__(self, key: str) -> Any:  # what BotBase does not define: the object's
        if key == "bot":  # not set yet (a copy being built): no recursion
            raise AttributeError(key)
        return getattr(self.bot, key)

    @property
    def name(self) -> str:  # type: ignore[override]
        return str(getattr(self.bot, "name", type(self.bot).__name__))

    @property
    def first_move_time(self) -> float | None:  # type: ignore[override]
        return getattr(self.bot, "first_move_time", None)

    @property
    def last_info(self) -> Mapping[str, Any] | None:  # type: ignore[override]
        return getattr(self.bot, "last_info", None)

    @property
    def last_depth(self) -> float | None:  # type: ignore[override]
        return getattr(self.bot, "last_depth", None)

    @property
    def last_score(self) -> float | None:  # type: ignore[override]
        return getattr(self.bot, "last_score", None)

    @property
    def last_nodes(self) -> float | None:  # type: ignore[override]
        return getattr(self.bot, "last_nodes", None)

    @property
    def last_pv(self) -> Sequence[Any] | None:  # type: ignore[override]
        return getattr(self.bot, "last_pv", None)

    @property
    def fixed_depth(self) -> int:  # type: ignore[override]
        return int(getattr(self.bot, "fixed_depth", 0))

    @property
    def effort(self) -> int:  # type: ignore[override]
        return int(getattr(self.bot, "effort", 0))

    def start(self, game_map: GameMap, params: Mapping[str, Any] | None, player: int) -> None:
        hook = getattr(self.bot, "start", None)
        if hook is not None:
            hook(game_map, params, player)

    def move(self, state: Any, player: PlayerId, deadline: float) -> Any:
        return self.bot.move(state, player, deadline)

    def close(self) -> None:
        hook = getattr(self.bot, "close", None)
        if hook is not None:
            hook()

    def stderr_text(self) -> str | None:
        hook = getattr(self.bot, "stderr_text", None)
        text = None if hook is None else hook()
        return None if text is None else str(text)

    def cpu_seconds(self, *, rescan: bool = False) -> float | None:
        hook = getattr(self.bot, "cpu_seconds", None)
        return None if hook is None else hook(rescan=rescan)

    def __repr__(self) -> str:
        return f"as_bot({self.bot!r})"


def as_bot(bot: Any) -> BotBase:
    """``bot`` itself if it is a :class:`BotBase`, else a :class:`BotBase` around it.

    An object without a ``move`` method is wrapped all the same: asking it for a move
    fails, and the runner records that seat as crashed, as for any bot that raises.
    """
    if isinstance(bot, BotBase):
        return bot
    return _PlainBot(bot)
