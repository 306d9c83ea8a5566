"""The turning points of a game: the turns where the balance of a charted measure
swung most, in words, for the game page's list and the chart's marks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = ["turning_points", "score_turning_point"]


def turning_points(
    series: Sequence[dict[str, Any]], names: Sequence[str], limit: int = 3
) -> list[dict[str, Any]]:
    """The turns where the balance of the game's first charted measure swung most.

    The balance is each seat's share of the measure's total in a state; a turn's
    swing is the largest change of a seat's share from the state before (turns whose
    total is 0 are skipped: nobody holds anything then).  The ``limit`` largest
    swings of at least 5 points, at least ``max(2, n // 20)`` turns apart, are returned
    in turn order as ``{"turn", "seat", "text"}``: ``seat`` the one that gained most,
    ``text`` the swing in words ("turn 47: Voronoi territory swung 25 points to bot0
    from bot1: bot0 140 cells (was 120), bot1 61 (was 100)").
    """
    if not series or not series[0].get("values"):
        return []
    s = series[0]
    vals = np.asarray(s["values"], dtype=np.float64)
    if vals.ndim != 2 or vals.shape[0] < 2 or vals.shape[1] < 2:
        return []
    total = vals.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(total > 0, vals / np.where(total > 0, total, 1), np.nan)
    change = np.diff(share, axis=1)  # change[:, t - 1]: from state t - 1 to state t
    swing = np.nan_to_num(np.abs(change), nan=0.0).max(axis=0)
    gap = max(2, vals.shape[1] // 20)
    picked: list[int] = []
    for i in np.argsort(-swing, kind="stable"):
        if swing[i] < 0.05 or len(picked) >= limit:
            break
        if all(abs(int(i) - j) >= gap for j in picked):
            picked.append(int(i))
    out = []
    phrase, unit = s.get("phrase", s["name"]), s.get("unit", "")
    for i in sorted(picked):
        t = i + 1
        d = np.nan_to_num(change[:, i])
        up, down = int(np.argmax(d)), int(np.argmin(d))

        text = (
            f"{phrase} swung {round(100 * swing[i])} points to {names[up]} from "
            f"{names[down]}: {names[up]} {_count(vals[up, t], unit)} (was {vals[up, t - 1]:g}), "
            f"{names[down]} {vals[down, t]:g} (was {vals[down, t - 1]:g})"
        )
        out.append({"turn": t, "seat": up, "text": text})
    return out


def _count(value: float, unit: str) -> str:
    """``"1 cell"``, ``"3 cells"``: a value and its unit, singular for exactly one.

    >>> _count(1.0, "threats"), _count(2.0, "cells"), _count(1.0, "")
    ('1 threat', '2 cells', '1')
    """
    if not unit:
        return f"{value:g}"
    return f"{value:g} {unit[:-1] if value == 1 and unit.endswith('s') else unit}"


def score_turning_point(record: Any, names: Sequence[str]) -> dict[str, Any] | None:
    """The turn where a bot's own score (what its search said of its move, the
    record's ``info``) changed most between two of its answers, as a turning point, or
    ``None`` without two scores of one seat or a change of at least half the range of
    that seat's scores.  ``turn`` counts from 1 (the state after the move)."""
    best: tuple[float, int, int, str, str] | None = None
    for seat in range(len(names)):
        said = [
            (i + 1, float(t.info[seat]["score"]), _score_words(t.info[seat]))
            for i, t in enumerate(record.turns)
            if isinstance(t.info.get(seat, {}).get("score"), (int, float))
            and np.isfinite(t.info[seat]["score"])
        ]
        if len(said) < 3:
            continue
        values = np.array([v for _, v, _ in said])
        spread = float(values.max() - values.min())
        if spread <= 0:
            continue
        jumps = np.abs(np.diff(values))
        k = int(np.argmax(jumps))
        share = float(jumps[k]) / spread
        if share >= 0.5 and (best is None or share > best[0]):
            verb = "rose" if said[k + 1][1] > said[k][1] else "fell"
            best = (share, said[k + 1][0], seat, verb, f"from {said[k][2]} to {said[k + 1][2]}")
    if best is None:
        return None
    _, turn, seat, verb, change = best
    text = f"{names[seat]}'s own score (its search's evaluation) {verb} {change}"
    return {"turn": turn, "seat": seat, "text": text}


def _score_words(info: Any) -> str:
    """A reported score in words: the forced end its ``mate`` says (plies to it,
    negative for a loss), else the number.

    Examples
    --------
    >>> _score_words({"score": 999983, "mate": 17}), _score_words({"score": -12.5})
    ('a forced win in 17 plies', '-12.5')
    >>> _score_words({"score": -99999, "mate": -1})
    'a forced loss in 1 ply'
    """
    mate = info.get("mate")
    if isinstance(mate, (int, float)) and not isinstance(mate, bool) and mate != 0:
        n = int(abs(mate))
        return f"a forced {'win' if mate > 0 else 'loss'} in {n} {'ply' if n == 1 else 'plies'}"
    return f"{float(info['score']):g}"
