"""Ratings from game results: a Bradley-Terry model fitted by MM iterations.

A game between bots ``i`` and ``j`` is one *comparison*: ``i`` scores 1 (win), 0.5
(draw) or 0 (loss).  Games of more than two seats (outpost) are split into one
comparison per pair of seats, ranked by the seats' scores.  The Bradley-Terry model says
``P(i beats j) = g_i / (g_i + g_j)``; its maximum-likelihood strengths ``g`` are found
by Hunter's minorisation-maximisation iteration and reported on the Elo scale,
``rating = 1500 + 400 log10(g / geometric mean of g)``, so a 400-point gap means 10:1
odds.  The fit depends only on the multiset of comparisons: it is deterministic and
independent of the order games finished in.
"""

from __future__ import annotations

import math
from typing import Iterable, Sequence

import numpy as np

__all__ = [
    "Comparison",
    "RATING_BASE",
    "RATING_SCALE",
    "pairwise_comparisons",
    "bradley_terry",
    "expected_score",
    "score_interval",
]

#: A comparison: (name i, name j, score of i in 0, 0.5, 1).
Comparison = tuple[str, str, float]
#: The mean rating and the points per factor of ten in odds.
RATING_BASE = 1500.0
RATING_SCALE = 400.0


def pairwise_comparisons(names: Sequence[str], scores: Sequence[float]) -> list[Comparison]:
    """Split one game into comparisons: every pair of seats, ranked by score.

    Seats with the same bot name are not compared with each other.

    >>> pairwise_comparisons(["a", "b"], [1.0, 0.0])
    [('a', 'b', 1.0)]
    >>> pairwise_comparisons(["a", "b", "c"], [3, 3, 1])
    [('a', 'b', 0.5), ('a', 'c', 1.0), ('b', 'c', 1.0)]
    """
    out: list[Comparison] = []
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            if names[i] == names[j]:
                continue
            si, sj = scores[i], scores[j]
            out.append((names[i], names[j], 1.0 if si > sj else 0.0 if si < sj else 0.5))
    return out


def bradley_terry(names: Sequence[str], comparisons: Iterable[Comparison], *,
                  prior: float = 1.0, tol: float = 1e-10, max_iter: int = 10_000,
                  ) -> dict[str, float]:
    """Bradley-Terry ratings (Elo scale) of ``names`` from ``comparisons``.

    Parameters
    ----------
    names : sequence of str
        Every bot to rate (a bot without games gets the base rating).
    comparisons : iterable of (str, str, float)
        ``(i, j, s)``: ``i`` scored ``s`` (1 win, 0.5 draw, 0 loss) against ``j``.
    prior : float
        Virtual games each bot draws against a fixed anchor of strength 1.  It keeps
        ratings finite for a bot that won or lost everything and ties unconnected
        groups together; 0 gives the plain maximum-likelihood fit (which then must exist).
    tol, max_iter
        Stop when no strength changes by a relative ``tol``, or after ``max_iter`` rounds.

    Returns
    -------
    dict
        name -> rating, ``RATING_BASE + RATING_SCALE * log10(g / geomean(g))``.

    Notes
    -----
    Hunter's MM update, for every bot at once:
    ``g_i <- W_i / sum_j n_ij / (g_i + g_j)`` where ``W_i`` are the points of ``i`` and
    ``n_ij`` the games between ``i`` and ``j`` (the anchor counted as one more opponent
    with ``g = 1``).  Each round costs O(k^2) for ``k`` bots; the log-likelihood rises
    at every round.

    References
    ----------
    R. A. Bradley and M. E. Terry, "Rank analysis of incomplete block designs: I. The
    method of paired comparisons", Biometrika 39 (1952).
    D. R. Hunter, "MM algorithms for generalized Bradley-Terry models", Annals of
    Statistics 32 (2004).
    """
    index = {name: k for k, name in enumerate(names)}
    k = len(index)
    games = np.zeros((k, k))
    points = np.zeros(k)
    for a, b, s in comparisons:
        i, j = index[a], index[b]
        if i == j:
            continue
        games[i, j] += 1.0
        games[j, i] += 1.0
        points[i] += s
        points[j] += 1.0 - s
    if k == 0:
        return {}
    points = points + 0.5 * prior
    g = np.ones(k)
    for _ in range(max_iter):
        denom = (games / (g[:, None] + g[None, :])).sum(axis=1) + prior / (g + 1.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            new = np.where(denom > 0, points / denom, 1.0)
        new = np.maximum(new, 1e-300)
        if prior == 0.0:
            new = new / math.exp(float(np.mean(np.log(new))))
        done = bool(np.all(np.abs(new - g) <= tol * np.maximum(new, g)))
        g = new
        if done:
            break
    logs = np.log10(g)
    logs = logs - logs.mean()
    return {name: float(RATING_BASE + RATING_SCALE * logs[index[name]]) for name in index}


def expected_score(rating_a: float, rating_b: float) -> float:
    """The score ``a`` is expected to make against ``b`` under the fitted model.

    >>> round(expected_score(1900.0, 1500.0), 4)
    0.9091
    """
    return 1.0 / (1.0 + 10.0 ** ((rating_b - rating_a) / RATING_SCALE))


def score_interval(wins: int, draws: int, losses: int, z: float = 1.96
                   ) -> tuple[float, float, float]:
    """Mean score per game (win 1, draw 0.5, loss 0) with a normal-approximation
    interval: ``(low, mean, high)``, clipped to [0, 1].

    The standard error is the sample standard deviation of the games' scores over the
    square root of their number (0.5 when there is one game).  The games are taken as
    independent, so the interval is a little too narrow for replays of one pairing.

    >>> [round(v, 3) for v in score_interval(3, 0, 1)]
    [0.26, 0.75, 1.0]
    """
    n = wins + draws + losses
    if n == 0:
        return (0.0, 0.0, 1.0)
    mean = (wins + 0.5 * draws) / n
    if n == 1:
        var = 0.25
    else:
        ss = wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean ** 2
        var = ss / (n - 1)
    half = z * math.sqrt(var / n)
    return (max(mean - half, 0.0), mean, min(mean + half, 1.0))
