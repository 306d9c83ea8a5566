"""Ratings from game results: Bradley-Terry for duels, Plackett-Luce for more seats.

A game between bots ``i`` and ``j`` is one *comparison*: ``i`` scores 1 (win), 0.5
(draw) or 0 (loss).  The Bradley-Terry model says ``P(i beats j) = g_i / (g_i + g_j)``;
a game of more seats (Outpost) is one *ranking*, its finishing order, and the
Plackett-Luce model says the order arises by drawing the winner with probability
``g_i / sum g`` among those left, then the next, and so on (it is Bradley-Terry when two
play).  Both fits are maximum likelihood by Hunter's minorisation-maximisation
iteration, reported on the Elo scale, ``rating = 1500 + 400 log10(g / geometric mean of
g)``, so a 400-point gap means 10:1 odds.  A fit depends only on the multiset of games:
it is deterministic and independent of the order games finished in.

:func:`bootstrap_ratings` gives each rating a 95 % interval by refitting on games drawn
with replacement, and the likelihood of superiority of one bot over another (the share
of refits where it is rated higher).  ``docs/ratings.md`` has the formulas.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = [
    "Comparison",
    "RATING_BASE",
    "RATING_SCALE",
    "pairwise_comparisons",
    "bradley_terry",
    "expected_score",
    "score_interval",
    "Ranking",
    "plackett_luce",
    "ranking_of",
    "BootstrapRatings",
    "bootstrap_ratings",
    "BOOTSTRAP_SAMPLES",
]

#: A comparison: (name i, name j, score of i in 0, 0.5, 1).
Comparison = tuple[str, str, float]
#: A game's finishing order: groups of names, best first; a group of several is a tie.
Ranking = tuple[tuple[str, ...], ...]
#: The mean rating and the points per factor of ten in odds.
RATING_BASE = 1500.0
RATING_SCALE = 400.0
#: Refits of a bootstrap (its intervals move by about a point between seeds at this size).
BOOTSTRAP_SAMPLES = 200


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


def bradley_terry(
    names: Sequence[str],
    comparisons: Iterable[Comparison],
    *,
    prior: float = 1.0,
    tol: float = 1e-10,
    max_iter: int = 10_000,
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
    return _elo(index, g)


def _elo(index: dict[str, int], g: np.ndarray) -> dict[str, float]:
    logs = np.log10(g)
    logs = logs - logs.mean()
    return {name: float(RATING_BASE + RATING_SCALE * logs[index[name]]) for name in index}


def ranking_of(names: Sequence[str], scores: Sequence[float]) -> Ranking:
    """The finishing order of one game: seats grouped by equal score, best first.

    Seats with the same name count once (with their best score).

    >>> ranking_of(["a", "b", "c", "d"], [0.0, 1.0, 1 / 3, 1 / 3])
    (('b',), ('c', 'd'), ('a',))
    """
    best: dict[str, float] = {}
    for n, s in zip(names, scores):
        best[n] = max(best.get(n, float("-inf")), float(s))
    levels = sorted(set(best.values()), reverse=True)
    return tuple(tuple(sorted(n for n, s in best.items() if s == lv)) for lv in levels)


def _orders(ranking: Ranking) -> list[tuple[tuple[str, ...], float]]:
    """The strict orders a ranking with ties stands for, each with its weight (the
    orders of each tied group, equally likely)."""
    from itertools import permutations, product

    groups = [list(permutations(g)) for g in ranking]
    weight = 1.0 / math.prod(len(g) for g in groups)
    return [(tuple(n for part in combo for n in part), weight) for combo in product(*groups)]


def plackett_luce(
    names: Sequence[str],
    rankings: Iterable[Ranking],
    *,
    prior: float = 1.0,
    tol: float = 1e-10,
    max_iter: int = 10_000,
) -> dict[str, float]:
    """Plackett-Luce ratings (Elo scale) of ``names`` from the games' finishing orders.

    Parameters
    ----------
    names : sequence of str
        Every bot to rate.
    rankings : iterable of Ranking
        One per game (see :func:`ranking_of`); a tie stands for each order of the tied
        bots with equal weight.
    prior : float
        Virtual games each bot draws against an anchor of strength 1, as in
        :func:`bradley_terry`.

    Notes
    -----
    The log-likelihood in ``theta = log g`` is
    ``sum_r w_r sum_j (theta_{r_j} - log sum_{t in S_rj} g_t)`` over each order ``r``
    (weight ``w_r``) and each position ``j`` but the last, where ``S_rj`` is the set of
    bots not yet placed; it is concave, and Newton's method finds its maximum in a few
    steps (gradient ``W_t - sum_rj w_r [t in S_rj] g_t / G_rj``, Hessian
    ``-sum_rj w_r (diag(p) - p p^T)`` with ``p_t = [t in S_rj] g_t / G_rj``).  With two
    seats and no ties this is :func:`bradley_terry` without draws.

    References
    ----------
    R. L. Plackett, "The analysis of permutations", Applied Statistics 24 (1975).
    D. R. Hunter, "MM algorithms for generalized Bradley-Terry models", Annals of
    Statistics 32 (2004), section 5.
    """
    index = {name: k for k, name in enumerate(names)}
    k = len(index)
    if k == 0:
        return {}
    by_length: dict[int, tuple[list[list[int]], list[float]]] = {}
    for ranking in rankings:
        for order, w in _orders(ranking):
            if len(order) < 2:
                continue
            rows, weights = by_length.setdefault(len(order), ([], []))
            rows.append([index[n] for n in order])
            weights.append(w)
    blocks = [
        (np.array(rows, dtype=np.int64), np.array(weights))
        for rows, weights in by_length.values()
    ]
    wins = np.full(k, 0.5 * prior)
    for idx, wts in blocks:
        wins += np.bincount(
            idx[:, :-1].ravel(), weights=np.repeat(wts, idx.shape[1] - 1), minlength=k
        )
    theta = np.zeros(k)
    for _ in range(max_iter):
        g = np.exp(theta)
        grad = wins - prior * g / (g + 1.0)
        hess = -np.diag(prior * g / (g + 1.0) ** 2)
        for idx, wts in blocks:
            m, length = idx.shape
            seq = np.arange(m)
            member = np.zeros((m, k))
            member[seq, idx[:, -1]] = 1.0
            for j in range(length - 2, -1, -1):  # S_j: the bots placed j-th or later
                member[seq, idx[:, j]] = 1.0
                weighted = member * g
                p = weighted / weighted.sum(axis=1, keepdims=True)
                grad -= wts @ p
                hess -= np.diag(wts @ p) - (p * wts[:, None]).T @ p
        # Newton step on the concave log-likelihood; without a prior it is flat along
        # the all-ones direction, so take the least-squares step and recentre
        step = np.linalg.lstsq(hess, -grad, rcond=None)[0]
        theta = theta + step
        if prior == 0.0:
            theta -= theta.mean()
        if float(np.max(np.abs(step))) < tol:
            break
    g = np.exp(theta)
    return _elo(index, g)


@dataclass(frozen=True, eq=False)
class BootstrapRatings:
    """Ratings of all the games, with the refits on games drawn with replacement.

    ``ratings``, ``low`` and ``high`` map names to the fit on every game and the 2.5th
    and 97.5th percentiles of the refits (a 95 % interval).
    """

    names: tuple[str, ...]
    ratings: dict[str, float]
    low: dict[str, float]
    high: dict[str, float]
    draws: np.ndarray  # refits x names

    def superiority(self, a: str, b: str) -> float:
        """Likelihood of superiority of ``a`` over ``b``: the share of refits that rate
        ``a`` higher (a tie counts one half)."""
        if len(self.draws) == 0:
            ra, rb = self.ratings[a], self.ratings[b]
            return 1.0 if ra > rb else 0.0 if ra < rb else 0.5
        i, j = self.names.index(a), self.names.index(b)
        diff = self.draws[:, i] - self.draws[:, j]
        return float(np.mean(np.where(diff > 0, 1.0, np.where(diff == 0, 0.5, 0.0))))


def bootstrap_ratings(
    names: Sequence[str],
    games: Sequence[Any],
    fit: Callable[[Sequence[str], Sequence[Any]], dict[str, float]],
    *,
    samples: int = BOOTSTRAP_SAMPLES,
    seed: int = 0,
) -> BootstrapRatings:
    """Ratings with 95 % intervals and likelihoods of superiority.

    Parameters
    ----------
    names : sequence of str
    games : sequence
        One item per game, as ``fit`` takes them (the comparisons of a game, or its
        finishing order).
    fit : callable
        ``fit(names, games) -> {name: rating}``.
    samples, seed
        Refits on ``len(games)`` games drawn with replacement, from a seeded generator
        (the same games give the same intervals).
    """
    names = tuple(names)
    full = fit(names, games)
    if not games or samples <= 0:
        return BootstrapRatings(names, full, dict(full), dict(full), np.zeros((0, len(names))))
    rng = np.random.default_rng(seed)
    draws = np.empty((samples, len(names)))
    for s in range(samples):
        pick = rng.integers(0, len(games), size=len(games))
        refit = fit(names, [games[i] for i in pick])
        draws[s] = [refit[n] for n in names]
    low = np.percentile(draws, 2.5, axis=0)
    high = np.percentile(draws, 97.5, axis=0)
    return BootstrapRatings(
        names,
        full,
        {n: float(v) for n, v in zip(names, low)},
        {n: float(v) for n, v in zip(names, high)},
        draws,
    )


def expected_score(rating_a: float, rating_b: float) -> float:
    """The score ``a`` is expected to make against ``b`` under the fitted model.

    >>> round(expected_score(1900.0, 1500.0), 4)
    0.9091
    """
    return float(1.0 / (1.0 + 10.0 ** ((rating_b - rating_a) / RATING_SCALE)))


def score_interval(
    wins: int, draws: int, losses: int, z: float = 1.96
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
        ss = wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean**2
        var = ss / (n - 1)
    half = z * math.sqrt(var / n)
    return (max(mean - half, 0.0), mean, min(mean + half, 1.0))
