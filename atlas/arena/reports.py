"""What a bot said about its last move, as a record keeps it: the game runner's and
the served bots' one reading of a bot's report (:func:`bot_info`)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from ..bots.base import BotBase
from ..bots.search import MATE_BAND
from ..limits import MAX_PV_MOVES
from ..sim.records import clean_info

__all__ = ["bot_info", "mate_plies"]


def bot_info(bot: BotBase) -> dict[str, Any]:
    """What ``bot`` said about its last move: depth, score, nodes and principal
    variation, when it says.

    Read from the bot's ``last_info`` mapping (the tron searches: ``depth``, ``nodes``
    and ``value``, recorded as ``score``; an external program's report), else from
    ``last_depth``, ``last_score`` and ``last_nodes`` attributes (the isolation and
    connect5 searches); only finite numbers are kept
    (:func:`atlas.sim.records.clean_info`).  A score within
    :data:`~atlas.bots.search.MATE_BAND` of the bot's ``win_score`` adds ``mate``, the
    plies to the forced end it saw (negative: its loss, :func:`mate_plies`).  The
    variation is ``last_info``'s ``pv``
    (and ``pv_cut``), else ``last_pv``: game moves, which the record builder turns into
    JSON and bounds (:func:`atlas.sim.records.clean_pv`).  Bots that say nothing give
    ``{}``.
    """
    raw = bot.last_info
    out: dict[str, Any]
    if isinstance(raw, Mapping) and raw:
        said = dict(raw)
        if "score" not in said and "value" in said:
            said["score"] = said["value"]
        out = dict(clean_info(said))
        pv, cut = said.get("pv"), said.get("pv_cut")
    else:
        said = {"depth": bot.last_depth, "score": bot.last_score, "nodes": bot.last_nodes}
        out = dict(clean_info({k: v for k, v in said.items() if v is not None}))
        pv, cut = None, None
    if "mate" not in out and "score" in out:
        plies = mate_plies(out["score"], getattr(bot, "win_score", 0.0))
        if plies is not None:
            out["mate"] = plies
    if pv is None:
        pv = bot.last_pv
    if pv is not None and not isinstance(pv, (str, bytes)) and isinstance(pv, Sequence):
        out["pv"] = list(pv[:MAX_PV_MOVES])
        cut = (cut if isinstance(cut, int) and not isinstance(cut, bool) else 0) + max(
            0, len(pv) - MAX_PV_MOVES
        )
    if isinstance(cut, int) and not isinstance(cut, bool) and cut > 0:
        out["pv_cut"] = cut
    return out


def mate_plies(score: float, win_score: float) -> int | None:
    """The plies to a forced end that ``score`` says, for a bot that scores a forced
    win ``win_score - plies`` (a loss ``plies - win_score``): positive when the bot
    wins, negative when it loses; ``None`` for a score that is no forced end or a bot
    without ``win_score``.

    Examples
    --------
    >>> mate_plies(999983, 1_000_000), mate_plies(-99990, 100_000), mate_plies(120, 1e6)
    (17, -10, None)
    """
    if not win_score > 0 or not math.isfinite(score):
        return None
    plies = win_score - abs(score)
    if not 0 <= plies <= MATE_BAND:
        return None
    n = max(1, int(round(plies)))
    return n if score > 0 else -n
