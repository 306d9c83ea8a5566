"""Compiling the built-in bots' kernels before their games: once, and on both cores.

numba compiles a kernel the first time it is called, and keeps it in its cache
(:mod:`atlas.jit.cache`).  A bot's first move on an empty cache therefore compiles its
kernels first: seconds of one core.  :func:`warm_bots` asks each bot for one move, so
its kernels are compiled (or loaded) before a game needs them; the build does this in
its worker processes while it draws the maps.  :func:`warm_up_cold` is for one game
(``atlas play``): when numba's cache is empty, as on a newcomer's first command, and
the machine has two cores or more, the other seats' bots are compiled in a worker
process while this one compiles the first seat's, so the two compile at once.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import Any

__all__ = ["WARM_UP_MOVE", "OTHER_MAP_MOVE", "warm_bots", "warm_up_cold"]

#: Seconds a bot may think on its warm-up move (:func:`warm_bots`).
WARM_UP_MOVE = 0.2

#: Seconds a bot may think on its warm-up move on each further map (:func:`warm_bots`).
OTHER_MAP_MOVE = 0.01


def warm_bots(
    game: str,
    map_text: str,
    map_name: str,
    names: Sequence[str],
    params: dict[str, Any],
    others: Sequence[tuple[str, str]] = (),
) -> float:
    """Make each bot of ``names`` and ask it for one move on ``map_text`` (a worker's
    job before the tournament): this compiles its numba kernels into numba's cache once,
    so no game pays for it and no first move runs out of time compiling.  Then the same
    on each of ``others`` (map texts and names), with :data:`OTHER_MAP_MOVE` a move: a
    bot may take other kernels on another kind of board (an isolation queen's board
    against a knight's), and those compile whatever the clock says, where the kernels
    already compiled cost next to nothing.  Any error is left for the real games to
    meet.  Returns the seconds it took."""
    t0 = time.perf_counter()
    _warm_on(game, map_text, map_name, names, params, WARM_UP_MOVE)
    for text, name in others:
        _warm_on(game, text, name, names, params, OTHER_MAP_MOVE)
    return time.perf_counter() - t0


def _warm_on(
    game: str,
    map_text: str,
    map_name: str,
    names: Sequence[str],
    params: dict[str, Any],
    seconds: float | None,
    rules_elsewhere: bool = False,
) -> None:
    """Each bot of ``names`` made and asked for one move of ``seconds`` on ``map_text``
    (:func:`warm_bots`; made and started only, with ``seconds`` None).  With
    ``rules_elsewhere`` the game's first state is made by plain Python (the rules'
    kernels interpreted, :func:`atlas.jit.interpreted`): another process compiles
    them."""
    from ..bots.registry import make_bot
    from ..jit import interpreted
    from ..maps import parse_map
    from ..sim.registry import get_game

    try:
        g = get_game(game)
        gm = parse_map(map_text, game=game, name=map_name)
        with interpreted(rules_elsewhere):
            state = g.initial_state(gm, params)
        seats = list(g.to_move(state)) or [0]
    except Exception:  # the real games report what is wrong
        return
    for name in names:
        try:
            bot = make_bot(game, name, 0)
            seat = seats[0]
            bot.start(gm, dict(params), seat)
            # a short deadline: compiling happens when a kernel is first called,
            # whatever the clock says, and the search then stops at once
            if seconds is not None:
                bot.move(state.copy(), seat, time.perf_counter() + seconds)
            bot.close()
        except Exception:
            continue


def _cache_is_empty() -> bool:
    """Whether numba's cache for this atlas holds no kernel yet (a first run)."""
    from ..jit.cache import use_numba_cache

    folder = use_numba_cache()
    try:
        return not any(sub.is_dir() and any(sub.iterdir()) for sub in folder.iterdir())
    except OSError:
        return False


def _bot_says(game: str, name: str, what: str) -> bool:
    """Built-in bot ``name`` of ``game``'s class attribute ``what``
    (:attr:`atlas.bots.base.BotBase.warm_apart`, ``warm_alone``), False if none."""
    from ..bots.registry import bot_factory

    return bool(getattr(bot_factory(game, name), what, False))


def _rules_on(game: str, map_text: str, map_name: str, params: dict[str, Any]) -> None:
    """The game's first state on ``map_text``: its rules' kernels compiled (or loaded)."""
    _warm_on(game, map_text, map_name, (), params, None)


def warm_up_cold(
    game: str, map_text: str, map_name: str, names: Sequence[str], params: dict[str, Any]
) -> bool:
    """Compile the kernels of the built-in bots ``names`` (one per seat; programs and
    unknown names are left alone) before their game, on two cores, when numba's cache
    is empty: a worker process warms the others (:func:`warm_bots`) while this process
    warms the first, going through its warm-up from the last part back
    (:mod:`atlas.bots.warming`): the kernels the bots share with the first part
    (tron's endgame) are then the worker's to compile, and this process loads them
    from numba's cache.

    A first bot whose first part compiles kernels of its own
    (:attr:`~atlas.bots.base.BotBase.warm_apart`: tron's endgame) has that part warmed
    last, by whichever of the two processes is free first (the worker after the other
    seats' bots), even when it is the only bot; this process loads it, if the worker
    compiled it, once the worker is done and before the game's clock starts.  One
    bot in every seat whose kernels share none with the game's rules
    (:attr:`~atlas.bots.base.BotBase.warm_alone`: Outpost's planner) is warmed whole
    by the worker, on a first state made by plain Python, while this process compiles
    the rules, making the game's first state; then this process loads the bot.

    Does nothing when there is nothing to share (one bot that warms as a whole), on
    one core, or with a warm cache (a warm cache loads in a fraction of a second; one
    bot compiles as it plays).  Returns whether it warmed.  Never raises for a bot: the
    game reports it."""
    from ..bots.registry import bot_table
    from ..bots.warming import warming

    table = bot_table(game)
    builtin = list(dict.fromkeys(n for n in names if n in table))
    if not builtin or (os.cpu_count() or 1) < 2:
        return False
    first, others = builtin[0], builtin[1:]
    apart = _bot_says(game, first, "warm_apart")
    alone = not others and not apart and _bot_says(game, first, "warm_alone")
    if not (others or apart or alone) or not _cache_is_empty():
        return False
    from .pool import pool_context

    ctx = pool_context()
    # the first part of the first bot goes to whichever process is free first
    claim = ctx.Value("b", 0) if apart else None
    child = ctx.Process(
        target=_warm_child,
        args=(
            game,
            map_text,
            map_name,
            [first] if alone else others,
            dict(params),
            first,
            claim,
            alone,
        ),
        name="atlas-warm",
        daemon=True,
    )
    child.start()
    try:
        if alone:  # the rules here, the bot there
            _rules_on(game, map_text, map_name, dict(params))
        else:
            with warming("later"):
                warm_bots(game, map_text, map_name, [first], dict(params))
        if _claimed(claim):
            with warming("first"):
                _warm_on(game, map_text, map_name, [first], dict(params), None)
        child.join()
    finally:
        if child.is_alive():  # an interrupt: the worker goes with it
            child.terminate()
            child.join(1.0)
    if apart or alone:  # what the worker compiled, loaded (a move with no time to think)
        _warm_on(game, map_text, map_name, [first], dict(params), 0.0)
    return True


def _claimed(claim: Any) -> bool:
    """Whether this process takes the part ``claim`` (a shared byte, or None: no part
    to take) stands for: the first to ask takes it."""
    if claim is None:
        return False
    with claim.get_lock():
        if claim.value:
            return False
        claim.value = 1
        return True


def _warm_child(
    game: str,
    map_text: str,
    map_name: str,
    names: Sequence[str],
    params: dict[str, Any],
    first: str = "",
    claim: Any = None,
    rules_elsewhere: bool = False,
) -> None:
    """The worker's side of :func:`warm_up_cold`: the bots ``names`` (with
    ``rules_elsewhere``, on a first state made by plain Python: the other process
    compiles the rules), then the first part of bot ``first``'s warm-up alone (made,
    not asked for a move) unless the other process took it (``claim``)."""
    import signal

    from ..bots.warming import warming
    from .pool import die_with_parent

    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when it stops
    _warm_on(game, map_text, map_name, names, params, WARM_UP_MOVE, rules_elsewhere)
    if _claimed(claim):
        with warming("first"):
            _warm_on(game, map_text, map_name, [first], params, None)
