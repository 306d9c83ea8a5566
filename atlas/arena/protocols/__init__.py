"""The protocols external bots speak, each with its host side and its served side.

A protocol module holds its host side (the bot class ``HOST_BOT``, an
:class:`~atlas.arena.process.ExternalBot`) and its served side (``serve``).  A game with a
wire protocol of its own keeps it in its folder, as its ``protocol`` module (tron: the
2010 contest's; connect5: atlas's GTP dialect).  A game without one speaks a shared
protocol of this package, the one its :attr:`GameInfo.protocol <atlas.sim.base.GameInfo>`
names:

``jsonl``
    atlas's JSON lines (:mod:`.jsonl`).

:func:`external_bot` starts a program as a bot of a game; :func:`serve_builtin_bot` runs
a built-in bot as such a program (``atlas bot GAME NAME``).  ``docs/protocols.md``
describes them for bot authors.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any, BinaryIO, TextIO

from ...bots.registry import make_bot
from ...errors import BotError
from ...sim.registry import game_modules, get_info
from ..process import ExternalBot
from .common import ServedBot, process_start

__all__ = [
    "PROTOCOLS",
    "protocol_module",
    "external_bot",
    "serve_builtin_bot",
    "SERVE_MOVE_TIME",
    "SERVE_FIRST_MOVE_TIME",
]

#: The shared protocols: the modules of this package but the common one.
PROTOCOLS = tuple(sorted(m.name for m in pkgutil.iter_modules(__path__) if m.name != "common"))
#: Seconds per move of a served bot, from reading the request (the official engine
#: gives 1 s): the watchdog answers for the bot at this limit.
SERVE_MOVE_TIME = 0.9
#: Seconds for the first move, from the process's start (the official engine's limit is
#: 3 s from the moment it started the program).
SERVE_FIRST_MOVE_TIME = 2.8


def protocol_module(game: str) -> Any:
    """The module of the protocol ``game``'s external bots speak: the game's own
    ``protocol`` module, or the shared protocol its ``GameInfo`` names."""
    own = game_modules(game).protocol
    if own is not None:
        return importlib.import_module(own)
    name = get_info(game).protocol
    if name not in PROTOCOLS:
        raise BotError(
            f"{game} names the protocol {name!r}, which atlas does not "
            f"speak; known: {', '.join(PROTOCOLS)}"
        )
    return importlib.import_module(f"{__name__}.{name}")


def external_bot(game: str, command: str | Sequence[str], **kwargs: Any) -> ExternalBot:
    """The external bot running ``command`` (a shell-like string, split without a shell)
    with the protocol of ``game``."""
    cls = protocol_module(game).HOST_BOT
    try:
        bot: ExternalBot = cls(game, command, **kwargs)
        return bot
    except ValueError as exc:  # shlex: no closing quotation
        raise BotError(f"cannot split the command line {command!r}: {exc}") from None


def serve_builtin_bot(
    game: str,
    name: str,
    seed: int = 0,
    time_limit: float | None = None,
    *,
    first_move_time: float | None = None,
    params: Mapping[str, Any] | None = None,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    started: float | None = None,
    stderr: TextIO | None = None,
    seat: int | None = None,
) -> int:
    """Run the built-in bot ``name`` as an external program of ``game``'s protocol.

    Reads the protocol from ``stdin`` and answers on ``stdout`` (the process's own by
    default), flushing after every answer, until end of file (or GTP ``quit``); returns
    the exit status 0.  This is ``atlas bot GAME NAME``: ``atlas bot tron NAME`` can
    enter the official 2010 engine as a bot command.  The bot is made and asked on a
    worker thread, and a watchdog answers a safe move at each deadline the bot misses
    (:class:`~atlas.arena.protocols.common.ServedBot`).

    Parameters
    ----------
    time_limit : float, optional
        Seconds per move, counted from the moment the request was read (default
        :data:`SERVE_MOVE_TIME`).
    first_move_time : float, optional
        Seconds for the first move, counted from ``started`` (default
        :data:`SERVE_FIRST_MOVE_TIME`).
    params : mapping, optional
        Game parameters the bot plays by (``atlas bot --compat``).
    started : float, optional
        ``time.perf_counter()`` time the first move's clock starts from: by default the
        process's own start when serving the process's standard input, else now.
    stderr : text stream, optional
        Where each move's ``info`` line goes, before its answer (default the process's
        standard error): the bot's depth, score, nodes and principal variation, as
        ``docs/protocols.md`` has external programs report them.
    seat : int, optional
        The seat (0 first) the engine gives this program, where it resolves the
        players' moves in turn (``atlas bot --seat``).  A protocol that shows every
        bot the board as the first seat's hides it; by default it is not known, and a
        bot that models the order (``order_seat``) plans by the simultaneous turn.
    """
    module = protocol_module(game)
    if started is None:
        started = process_start() if stdin is None else time.perf_counter()
    first = SERVE_FIRST_MOVE_TIME if first_move_time is None else float(first_move_time)

    def made() -> Any:
        bot = make_bot(game, name, seed)
        if hasattr(bot, "order_seat"):
            bot.order_seat = -1 if seat is None else int(seat)
        return bot

    served = ServedBot(
        made,
        first_deadline=started + first,
        move_time=SERVE_MOVE_TIME if time_limit is None else float(time_limit),
        name=name,
    )
    served.err = stderr
    inp = stdin if stdin is not None else sys.stdin.buffer
    out = stdout if stdout is not None else sys.stdout.buffer
    try:
        module.serve(game, served, inp, out, dict(params or {}))
    except BrokenPipeError:
        pass
    finally:
        served.close()
    return 0
