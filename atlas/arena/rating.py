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
with replacement (each game a Poisson number of times, from a hash of the game), and
the likelihood of superiority of one bot over another (the share of refits where it is
rated higher).  ``docs/ratings.md`` has the formulas.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

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
    "Spread",
    "DuelFit",
    "duel_fit",
    "PlackettLuceFit",
    "plackett_luce_fit",
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
        Stop when no log-strength moves by more than ``tol``, or after ``max_iter``
        Newton steps.

    Returns
    -------
    dict
        name -> rating, ``RATING_BASE + RATING_SCALE * log10(g / geomean(g))``.

    Notes
    -----
    The fit is the fixed point of Hunter's MM update
    ``g_i <- W_i / sum_j n_ij / (g_i + g_j)`` where ``W_i`` are the points of ``i`` and
    ``n_ij`` the games between ``i`` and ``j`` (the anchor counted as one more opponent
    with ``g = 1``), found by Newton's method on the concave log-likelihood in
    ``theta = log g`` (gradient ``W_i - sum_j n_ij p_ij``, Hessian
    ``-sum_j n_ij p_ij p_ji`` on the diagonal and ``n_ij p_ij p_ji`` off it, with
    ``p_ij = g_i / (g_i + g_j)``): a handful of steps of O(k^3) for ``k`` bots, where
    the MM iteration takes thousands of rounds on a lopsided table (the bootstrap refits
    hundreds of times).

    References
    ----------
    R. A. Bradley and M. E. Terry, "Rank analysis of incomplete block designs: I. The
    method of paired comparisons", Biometrika 39 (1952).
    D. R. Hunter, "MM algorithms for generalized Bradley-Terry models", Annals of
    Statistics 32 (2004).
    """
    index = {name: k for k, name in enumerate(names)}
    k = len(index)
    if k == 0:
        return {}
    rows = [(index[a], index[b], float(s)) for a, b, s in comparisons if a != b]
    games = np.zeros((k, k))
    points: np.ndarray = np.zeros(k)
    if rows:
        arr = np.array(rows)
        i, j, s = arr[:, 0].astype(np.int64), arr[:, 1].astype(np.int64), arr[:, 2]
        keep = i != j
        i, j, s = i[keep], j[keep], s[keep]
        np.add.at(games, (i, j), 1.0)
        np.add.at(games, (j, i), 1.0)
        points = np.bincount(i, s, minlength=k) + np.bincount(j, 1.0 - s, minlength=k)
    return _elo(index, np.exp(_bt_newton(games, points, prior, tol, max_iter)))


def _bt_newton(
    games: np.ndarray, points: np.ndarray, prior: float, tol: float, max_iter: int
) -> np.ndarray:
    """:func:`_bt_pairs` of the games given as a table: ``games[i, j]`` comparisons
    between ``i`` and ``j`` (the pairs that met are its cells above the diagonal)."""
    ii, jj = np.nonzero(np.triu(games, 1))
    return _bt_pairs(ii, jj, games[ii, jj], points, prior, tol, max_iter)


def _bt_pairs(
    ii: np.ndarray,
    jj: np.ndarray,
    met: np.ndarray,
    points: np.ndarray,
    prior: float,
    tol: float,
    max_iter: int,
    start: np.ndarray | None = None,
    chord: np.ndarray | None = None,
) -> np.ndarray:
    """The log-strengths ``theta`` that maximise the Bradley-Terry likelihood of
    ``met[p]`` comparisons between ``ii[p]`` and ``jj[p]`` (a pair with none adds
    nothing: the bootstrap's refits keep the pairs of the whole fit) in which ``i``
    made ``points[i]`` points in all, with ``prior`` virtual draws against an anchor
    (``theta = 0``) each: Newton's method on the concave log-likelihood, each step
    halved until the likelihood does not fall, from ``start`` (default all 0: the
    bootstrap starts its refits from the whole fit's).

    ``chord``, the inverse of minus the Hessian at ``start`` (the bootstrap's refits
    share the whole fit's), makes the first steps chord steps: no new matrix to solve
    (``O(k^2)``, not ``O(k^3)``) while they still move ``theta`` by more than
    :data:`CHORD_UNTIL` and close fast enough (:data:`CHORD_SLOW`); Newton's steps then
    settle it to ``tol`` in one or two.  The gradient and the Hessian are summed over
    the pairs (a season's 300 players meet a few of the others each)."""
    k = len(points)
    wins = points + 0.5 * prior

    def loglik(theta: np.ndarray) -> tuple[float, np.ndarray]:
        """The log-likelihood at ``theta`` and P(i beats j) for each pair met, from
        one exponential a pair (a season's 300 players meet in 45,000 pairs)."""
        a, b = theta[ii], theta[jj]
        d = a - b
        e = np.exp(-np.abs(d))
        pair = np.maximum(a, b) + np.log1p(e)  # log(exp(a) + exp(b))
        anchor = np.logaddexp(theta, 0.0)
        beats = np.where(d >= 0.0, 1.0, e) / (1.0 + e)
        return float(wins @ theta - met @ pair - prior * np.sum(anchor)), beats

    theta = np.zeros(k) if start is None else np.array(start, dtype=np.float64)
    refit = start is not None
    best, p = loglik(theta)  # p: P(i beats j), each pair met, at theta
    # a refit (from a start) may end a Newton step early; a fit from nothing goes to the
    # end, so that a refit of the same games from it stays where it is
    chords = 0 if chord is None else CHORD_STEPS
    moved = math.inf
    for _ in range(max_iter):
        q = 1.0 / (1.0 + np.exp(-theta))  # P(i beats the anchor)
        won = met * p
        grad = wins - np.bincount(ii, won, k) - np.bincount(jj, met - won, k) - prior * q
        if chords > 0 and chord is not None:
            chords -= 1
            step = chord @ grad
        else:
            cross = won * (1.0 - p)
            hess = np.zeros((k, k))
            hess[ii, jj] = cross
            hess[jj, ii] = cross
            hess[np.arange(k), np.arange(k)] = -(
                np.bincount(ii, cross, k) + np.bincount(jj, cross, k) + prior * q * (1.0 - q)
            )
            step = _newton_step(hess, grad, prior)
        for _ in range(60):
            trial = theta + step
            if prior == 0.0:
                trial -= trial.mean()
            value, beats = loglik(trial)
            if value >= best - 1e-12 * max(1.0, abs(best)):
                break
            step = step / 2.0
        theta, best, p = trial, value, beats
        moved, last = float(np.max(np.abs(step), initial=0.0)), moved
        if chords > 0 and (moved <= CHORD_UNTIL or moved > CHORD_SLOW * last):
            chords = 0  # close, or closing slowly: Newton's steps from here
        elif chords == 0 and (moved <= tol or (refit and moved * moved <= NEWTON_SQUARE * tol)):
            break  # a refit's next step would move less than ``tol``: Newton's squares it
    return theta


#: Chord steps a fit takes at most (:func:`_bt_pairs`), and the move below which it
#: turns to Newton's steps.
CHORD_STEPS, CHORD_UNTIL = 40, 1e-5
#: A chord step that moves more than this share of the last one's turns to Newton's
#: steps too: the refit's Hessian is far from the chord's (a sparse table: few games a
#: pair), and the chord would take dozens of steps.
CHORD_SLOW = 0.7
#: A Newton step of ``m`` leaves about ``m * m`` to go; one that moved less than
#: ``sqrt(NEWTON_SQUARE * tol)`` ends a refit started from another fit (the step after
#: it would move less than ``tol / 100``: a bootstrap's refits solve one system, not
#: two).
NEWTON_SQUARE = 1e-2


def _minus_hessian_inverse(games: np.ndarray, theta: np.ndarray, prior: float) -> np.ndarray:
    """The inverse of minus the Hessian of :func:`_bt_pairs`'s likelihood at ``theta``
    (with a ``prior``, positive definite): the chord of the bootstrap's refits."""
    k = len(theta)
    p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))
    q = 1.0 / (1.0 + np.exp(-theta))
    cross = games * p * p.T
    minus = np.diag(cross.sum(axis=1) + prior * q * (1.0 - q)) - cross
    inverse: np.ndarray = np.linalg.inv(minus) if k else np.zeros((0, 0))
    return inverse


def _newton_step(hess: np.ndarray, grad: np.ndarray, prior: float) -> np.ndarray:
    """The Newton step ``-hess^-1 grad``.  With a ``prior`` the Hessian is negative
    definite, and an LU solve is ten times faster than least squares at 300 bots (a
    course's season: the bootstrap solves thousands); without one it is singular along
    the common shift of every strength, and least squares takes the smallest step."""
    if prior > 0.0:
        try:
            step: np.ndarray = np.linalg.solve(hess, -grad)
            if np.all(np.isfinite(step)):
                return step
        except np.linalg.LinAlgError:
            pass
    least: np.ndarray = np.linalg.lstsq(hess, -grad, rcond=None)[0]
    return least


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
    blocks = _pl_blocks(index, rankings)
    theta = _pl_theta(k, [(idx, wts) for idx, wts, _ in blocks], prior, tol, max_iter)
    return _elo(index, np.exp(theta))


def _pl_blocks(
    index: dict[str, int], rankings: Iterable[Ranking]
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The strict orders of ``rankings`` (:func:`_orders`) as arrays, one block per
    length: ``(rows of bot indices, weights, the ranking each row comes from)``."""
    by_length: dict[int, tuple[list[list[int]], list[float], list[int]]] = {}
    for g, ranking in enumerate(rankings):
        for order, w in _orders(ranking):
            if len(order) < 2:
                continue
            rows, weights, owner = by_length.setdefault(len(order), ([], [], []))
            rows.append([index[n] for n in order])
            weights.append(w)
            owner.append(g)
    return [
        (np.array(rows, dtype=np.int64), np.array(weights), np.array(owner, dtype=np.int64))
        for rows, weights, owner in by_length.values()
    ]


def _pl_theta(
    k: int,
    blocks: Sequence[tuple[np.ndarray, np.ndarray]],
    prior: float,
    tol: float,
    max_iter: int,
) -> np.ndarray:
    """Newton's method on the Plackett-Luce log-likelihood of weighted orders
    (:func:`plackett_luce`'s Notes): the log-strengths."""
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
        step = _newton_step(hess, grad, prior)
        theta = theta + step
        if prior == 0.0:
            theta -= theta.mean()
        if float(np.max(np.abs(step))) < tol:
            break
    return theta


class PlackettLuceFit:
    """Plackett-Luce over the games' finishing orders (the fit of the standings when
    more than two play): ``fit(names, rankings)`` rates them, and :meth:`prepare` gives
    :func:`bootstrap_ratings` a refit from how many times each game was drawn, on the
    orders' arrays built once."""

    def __call__(self, names: Sequence[str], rankings: Sequence[Ranking]) -> dict[str, float]:
        return plackett_luce(names, rankings)

    def prepare(
        self, names: Sequence[str], rankings: Sequence[Ranking]
    ) -> Callable[[np.ndarray], np.ndarray]:
        """``refit(counts) -> ratings`` (in the order of ``names``)."""
        index = {name: k for k, name in enumerate(names)}
        blocks = _pl_blocks(index, rankings)

        def refit(counts: np.ndarray) -> np.ndarray:
            weighted = [(idx, wts * counts[owner]) for idx, wts, owner in blocks]
            theta = _pl_theta(len(index), weighted, 1.0, 1e-10, 10_000)
            logs = theta / math.log(10.0)
            out: np.ndarray = RATING_BASE + RATING_SCALE * (logs - logs.mean())
            return out

        return refit


#: The standings' fit of games of more than two seats (:class:`PlackettLuceFit`).
plackett_luce_fit = PlackettLuceFit()


@dataclass(frozen=True, eq=False)
class BootstrapRatings:
    """Ratings of all the games, with the refits on games drawn with replacement.

    ``ratings``, ``low`` and ``high`` map names to the fit on every game and the 2.5th
    and 97.5th percentiles of the refits (a 95 % interval); ``rank_low`` and
    ``rank_high`` bound each name's rank (1 = best) in the middle 95 % of the refits,
    widened to hold its rank in the full fit; a name tied with others may take any of
    their ranks (two names rated the same both rank 1-2).  ``units`` is what was drawn with
    replacement: ``"games"``, or ``"groups"`` when games were grouped
    (:func:`bootstrap_ratings`' ``clusters``); ``groups`` counts the groups of more
    than one game, ``singles`` the games alone in theirs.
    """

    names: tuple[str, ...]
    ratings: dict[str, float]
    low: dict[str, float]
    high: dict[str, float]
    draws: np.ndarray  # refits x names
    rank_low: dict[str, int] = field(default_factory=dict)
    rank_high: dict[str, int] = field(default_factory=dict)
    units: str = "games"
    groups: int = 0
    singles: int = 0

    def superiority(self, a: str, b: str) -> float:
        """Likelihood of superiority of ``a`` over ``b``: the share of refits that rate
        ``a`` higher (a tie counts one half)."""
        if len(self.draws) == 0:
            ra, rb = self.ratings[a], self.ratings[b]
            return 1.0 if ra > rb else 0.0 if ra < rb else 0.5
        i, j = self.names.index(a), self.names.index(b)
        diff = self.draws[:, i] - self.draws[:, j]
        return float(np.mean(np.where(diff > 0, 1.0, np.where(diff == 0, 0.5, 0.0))))


class DuelFit:
    """Bradley-Terry over games given as lists of comparisons (the two-seat fit of the
    standings): ``fit(names, games)`` rates them, and :meth:`prepare` gives
    :func:`bootstrap_ratings` a refit from how many times each game was drawn, on
    arrays, without rebuilding the comparisons (200 refits of thousands of games take a
    fraction of a second)."""

    def __call__(
        self, names: Sequence[str], games: Sequence[Sequence[Comparison]]
    ) -> dict[str, float]:
        return bradley_terry(names, [c for g in games for c in g])

    def prepare(
        self, names: Sequence[str], games: Sequence[Sequence[Comparison]]
    ) -> Callable[[np.ndarray], np.ndarray]:
        """``refit(counts) -> ratings`` (in the order of ``names``), ``counts[g]``
        being how many times game ``g`` was drawn."""
        index = {name: k for k, name in enumerate(names)}
        k = len(index)
        rows = [
            (index[a], index[b], float(s), g)
            for g, comps in enumerate(games)
            for a, b, s in comps
            if index[a] != index[b]
        ]
        arr = np.array(rows, dtype=np.float64).reshape(-1, 4)
        i, j = arr[:, 0].astype(np.int64), arr[:, 1].astype(np.int64)
        s, owner = arr[:, 2], arr[:, 3].astype(np.int64)
        # the pairs that met, each once (lower number first, in order), and each
        # comparison's pair
        cells, pair = np.unique(np.minimum(i, j) * k + np.maximum(i, j), return_inverse=True)
        ii, jj = cells // k, cells % k

        def played_of(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            w = counts[owner].astype(np.float64)
            met = np.bincount(pair, w, minlength=len(cells))
            points = np.bincount(i, w * s, minlength=k) + np.bincount(
                j, w * (1 - s), minlength=k
            )
            return met, points

        def theta_of(counts: np.ndarray, start: Any = None, chord: Any = None) -> np.ndarray:
            met, points = played_of(counts)
            drawn = met > 0.0  # a pair no refit's game drew adds nothing: left out
            return _bt_pairs(
                ii[drawn], jj[drawn], met[drawn], points, 1.0, 1e-10, 10_000, start, chord
            )

        # every refit starts from the fit of every game once, its chord that fit's
        # Hessian: fewer and cheaper steps to the same maximum (the likelihood is
        # strictly concave with the prior)
        once = np.ones(len(games), np.int64)
        whole = theta_of(once)
        table = np.zeros((k, k))
        table[ii, jj] = table[jj, ii] = played_of(once)[0]
        chord = _minus_hessian_inverse(table, whole, 1.0)

        def refit(counts: np.ndarray) -> np.ndarray:
            logs = theta_of(counts, whole, chord) / math.log(10.0)
            out: np.ndarray = RATING_BASE + RATING_SCALE * (logs - logs.mean())
            return out

        return refit


#: The two-seat fit of the standings (:class:`DuelFit`).
duel_fit = DuelFit()


#: Poisson(1)'s distribution function at 0, 1, 2, ... in units of 2**-53, rounded up: a
#: count is the number of these a uniform 53-bit draw reaches (the tail beyond 19 is
#: below 1e-17).
_POISSON_STEPS = np.array(
    [
        math.ceil(c * 2.0**53)
        for c in np.cumsum([math.exp(-1.0) / math.factorial(j) for j in range(20)])
    ],
    dtype=np.uint64,
)
_GOLDEN = 0x9E3779B97F4A7C15
_MASK = (1 << 64) - 1
#: SplitMix64's finaliser: its multipliers and shifts.
_MIX = tuple(np.uint64(v) for v in (0xBF58476D1CE4E5B9, 0x94D049BB133111EB, 30, 27, 31, 11))


def _unit_keys(labels: Sequence[Hashable], seed: int) -> np.ndarray:
    """A 64-bit key for each unit of a bootstrap: its label's text hashed with the seed
    (``repr`` of the label, so the same label gives the same key in every process)."""
    salt = f"{seed}:".encode()
    return np.array(
        [
            int.from_bytes(
                hashlib.blake2b(salt + repr(label).encode(), digest_size=8).digest(), "little"
            )
            for label in labels
        ],
        dtype=np.uint64,
    )


def poisson_counts(
    keys: np.ndarray, refit: int, work: tuple[np.ndarray, np.ndarray] | None = None
) -> np.ndarray:
    """How many times each unit is drawn in refit number ``refit`` of a Poisson
    bootstrap: a Poisson(1) count per unit, a function of the unit's key
    (:func:`_unit_keys`) and ``refit`` alone (SplitMix64's finaliser makes the uniform
    draw).  So a unit is drawn the same in every refit whatever other units there are,
    and a season's standings with ten more games move by what those games say, not by
    the generator's noise.  ``work``: two uint64 arrays the size of ``keys`` to reuse
    (a bootstrap's refits draw 200 times).

    >>> poisson_counts(np.array([1, 2, 3], dtype=np.uint64), 0).tolist()
    [1, 1, 0]
    """
    x, tmp = work if work is not None else (np.empty_like(keys), np.empty_like(keys))
    m1, m2, s30, s27, s31, s11 = _MIX
    np.add(keys, np.uint64((_GOLDEN * (refit + 1)) & _MASK), out=x)
    for shift, times in ((s30, m1), (s27, m2)):
        np.right_shift(x, shift, out=tmp)
        x ^= tmp
        x *= times
    np.right_shift(x, s31, out=tmp)
    x ^= tmp
    x >>= s11  # 53 uniform bits
    # the steps ``x`` reaches, counted: the first three by comparison (92 % of the units
    # stop there), the rest by search (a tenth of the time of a search for every unit)
    steps = _POISSON_STEPS
    counts: np.ndarray = (x >= steps[0]).view(np.int8).astype(np.intp)
    counts += x >= steps[1]
    counts += x >= steps[2]
    tail = np.flatnonzero(x >= steps[3])
    counts[tail] = np.searchsorted(steps, x[tail], side="right")
    return counts


#: How :func:`bootstrap_ratings` has its refits worked out (its ``spread``).
Spread = Callable[[Callable[[int, int], np.ndarray], int], np.ndarray]


def bootstrap_ratings(
    names: Sequence[str],
    games: Sequence[Any],
    fit: Callable[[Sequence[str], Sequence[Any]], dict[str, float]],
    *,
    samples: int = BOOTSTRAP_SAMPLES,
    seed: int = 0,
    clusters: Sequence[Hashable] | None = None,
    spread: Spread | None = None,
) -> BootstrapRatings:
    """Ratings with 95 % intervals, rank ranges and likelihoods of superiority.

    Parameters
    ----------
    names : sequence of str
    games : sequence
        One item per game, as ``fit`` takes them (the comparisons of a game, or its
        finishing order).
    fit : callable
        ``fit(names, games) -> {name: rating}``; one with a ``prepare(names, games)``
        method (:class:`DuelFit`) refits from each game's count instead.
    samples, seed
        Refits on games drawn with replacement (a Poisson bootstrap, see Notes); the
        same games and ``seed`` give the same intervals.
    clusters : sequence of hashable, optional
        A label per game: games with one label are drawn together, as one unit (games
        played in swapped seats, whose results are correlated); by default every game
        is a unit of its own, labelled by its position.  A label's ``repr`` makes its
        draws: use labels whose ``repr`` is the same in every process (strings,
        numbers, tuples of them), not objects shown by their address.
    spread : callable, optional
        ``spread(refits, samples) -> draws``: how the refits are worked out, given
        ``refits(first, end)``, the ratings of refits ``first .. end - 1`` (an array, a
        row a refit, in the order of ``names``); ``draws`` stacks the rows of every
        refit in order.  By default ``refits(0, samples)``, here; a caller with cores to
        spare may work parts out elsewhere (a site's build forks, and each refit is a
        function of its number alone, so the draws are the same).

    Notes
    -----
    Each refit draws every unit a Poisson(1) number of times (mean 1, so as many units
    as there are on average, with replacement) and fits their games: Hanley and
    MacGibbon's Poisson bootstrap, which agrees with drawing exactly as many units as
    there are but for a spread of ±√n in the total, negligible past a few dozen units.
    A unit's count in a refit follows from its label, ``seed`` and the refit's number
    alone (:func:`poisson_counts`), not from a generator's stream: with ``clusters``
    the refits do not depend on the order of the games, and games added to a season
    (or, by position, at the end of ``games``) leave the other units' counts as they
    were, so the intervals of the bots they do not concern stay where they were (a
    season's site rewrites the pages whose figures moved, not every player's).

    Drawing the seat-swapped games of a pair together keeps what the pair shares: when
    each pair is one win of each seat (a seat that decides the game, not the bots),
    every pair is one win each and the refits barely move, where drawing the games
    apart mixes wins and losses at random and widens the interval for nothing; on
    games that share nothing, the two ways agree (``docs/ratings.md``).
    """
    # one thread of the BLAS library: the same figures on any number of cores (a
    # threaded sum adds in another order), and sooner at these sizes (300 players:
    # threads that wait on each other's small solves cost a sixth more)
    with threadpool_limits(limits=1, user_api="blas"):
        return _bootstrap_ratings(tuple(names), games, fit, samples, seed, clusters, spread)


def _bootstrap_ratings(
    names: tuple[str, ...],
    games: Sequence[Any],
    fit: Callable[[Sequence[str], Sequence[Any]], dict[str, float]],
    samples: int,
    seed: int,
    clusters: Sequence[Hashable] | None,
    spread: Spread | None,
) -> BootstrapRatings:
    """:func:`bootstrap_ratings`, in the BLAS library's one thread."""
    full = fit(names, games)
    full_rank = {n: 1 + sum(full[m] > full[n] for m in names) for n in names}
    full_worst = {n: sum(full[m] >= full[n] for m in names) for n in names}
    labels: list[Hashable] = list(range(len(games))) if clusters is None else list(clusters)
    if len(labels) != len(games):
        raise ValueError(f"{len(labels)} cluster labels for {len(games)} games")
    unit_of: dict[Hashable, int] = {}
    owner = np.array([unit_of.setdefault(lab, len(unit_of)) for lab in labels], dtype=np.int64)
    sizes = np.bincount(owner, minlength=len(unit_of))
    grouped = clusters is not None and bool(np.any(sizes > 1))
    units = "groups" if grouped else "games"
    groups, singles = int(np.sum(sizes > 1)), int(np.sum(sizes == 1))
    if not games or samples <= 0:
        return BootstrapRatings(
            names,
            full,
            dict(full),
            dict(full),
            np.zeros((0, len(names))),
            dict(full_rank),
            dict(full_rank),
            units,
            groups,
            singles,
        )
    prepare = getattr(fit, "prepare", None)
    refit_counts = prepare(names, games) if prepare is not None else None
    keys = _unit_keys(list(unit_of), seed)
    every = np.arange(len(games))

    def refits(first: int, end: int) -> np.ndarray:
        """The ratings of refits ``first .. end - 1``, a row each."""
        out = np.empty((max(0, end - first), len(names)))
        work = (np.empty_like(keys), np.empty_like(keys))
        for row, s in enumerate(range(first, end)):
            counts = poisson_counts(keys, s, work)[owner]  # each game its unit's count
            if refit_counts is not None:
                out[row] = refit_counts(counts)
                continue
            refit = fit(names, [games[g] for g in np.repeat(every, counts).tolist()])
            out[row] = [refit[n] for n in names]
        return out

    draws = refits(0, samples) if spread is None else spread(refits, samples)
    if not isinstance(draws, np.ndarray) or draws.shape != (samples, len(names)):
        raise ValueError(f"spread gave {type(draws).__name__}, not {samples} refits' rows")
    low = np.percentile(draws, 2.5, axis=0)
    high = np.percentile(draws, 97.5, axis=0)
    # refits x names; a tie could go either way: the best rank counts only the names
    # rated strictly higher, the worst also those rated the same (self included)
    best = 1 + (draws[:, None, :] > draws[:, :, None]).sum(axis=2)
    worst = (draws[:, None, :] >= draws[:, :, None]).sum(axis=2)
    rank_lo = np.quantile(best, 0.025, axis=0, method="lower")
    rank_hi = np.quantile(worst, 0.975, axis=0, method="higher")
    return BootstrapRatings(
        names,
        full,
        {n: float(v) for n, v in zip(names, low)},
        {n: float(v) for n, v in zip(names, high)},
        draws,
        {n: int(min(v, full_rank[n])) for n, v in zip(names, rank_lo)},
        {n: int(max(v, full_worst[n])) for n, v in zip(names, rank_hi)},
        units,
        groups,
        singles,
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
