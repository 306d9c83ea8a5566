"""Tests of atlas.arena.rating: Bradley-Terry by MM against a plain gradient-ascent fit."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from atlas.arena.rating import (
    RATING_BASE,
    RATING_SCALE,
    bradley_terry,
    expected_score,
    pairwise_comparisons,
)


def _reference_fit(names, comparisons, prior):
    """Maximise the BT log-likelihood (plus the anchor's virtual draws) by gradient ascent."""
    idx = {n: k for k, n in enumerate(names)}
    theta = [0.0] * len(names)
    for _ in range(6000):
        grad = [0.0] * len(names)
        for a, b, s in comparisons:
            i, j = idx[a], idx[b]
            p = 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
            grad[i] += s - p
            grad[j] -= s - p
        for i in range(len(names)):
            p = 1.0 / (1.0 + math.exp(-theta[i]))  # against the anchor, theta = 0
            grad[i] += prior * (0.5 - p)
        theta = [t + 0.03 * g for t, g in zip(theta, grad)]
    mean = sum(theta) / len(theta)
    return {
        n: RATING_BASE + RATING_SCALE * (theta[idx[n]] - mean) / math.log(10) for n in names
    }


def test_two_players_three_to_one_is_odds_three():
    comps = [("a", "b", 1.0)] * 3 + [("a", "b", 0.0)]
    r = bradley_terry(["a", "b"], comps, prior=0.0)
    assert r["a"] - r["b"] == pytest.approx(RATING_SCALE * math.log10(3), abs=1e-6)
    assert (r["a"] + r["b"]) / 2 == pytest.approx(RATING_BASE)
    assert expected_score(r["a"], r["b"]) == pytest.approx(0.75, abs=1e-9)


@pytest.mark.parametrize("prior", [0.0, 1.0, 3.0])
def test_matches_reference_fit(prior):
    rng = np.random.default_rng(5)
    names = ["a", "b", "c", "d"]
    strength = {"a": 2.0, "b": 1.0, "c": 0.5, "d": 0.2}
    comps = []
    for _ in range(60):
        i, j = rng.choice(4, size=2, replace=False)
        a, b = names[i], names[j]
        p = strength[a] / (strength[a] + strength[b])
        u = rng.random()
        comps.append((a, b, 1.0 if u < p * 0.9 else 0.5 if u < p * 0.9 + 0.1 else 0.0))
    got = bradley_terry(names, comps, prior=prior)
    want = _reference_fit(names, comps, prior)
    for n in names:
        assert got[n] == pytest.approx(want[n], abs=1e-3)
    assert got["a"] > got["d"]


def test_perfect_record_stays_finite_with_prior_and_order_does_not_matter():
    comps = [("a", "b", 1.0), ("a", "c", 1.0), ("b", "c", 0.5), ("b", "c", 1.0)]
    r1 = bradley_terry(["a", "b", "c", "x"], comps)
    r2 = bradley_terry(["x", "c", "b", "a"], list(reversed(comps)))
    assert all(math.isfinite(v) for v in r1.values())
    assert r1 == pytest.approx(r2, abs=1e-9)
    assert r1["a"] > r1["b"] > r1["c"]
    # x played nobody: the prior holds it at the anchor, between b and c here
    assert r1["x"] == pytest.approx(
        _reference_fit(["a", "b", "c", "x"], comps, 1.0)["x"], abs=1e-3
    )


def test_pairwise_comparisons_rank_by_score_and_skip_same_bot():
    assert pairwise_comparisons(["a", "b", "c", "a"], [5, 2, 2, 1]) == [
        ("a", "b", 1.0),
        ("a", "c", 1.0),
        ("b", "c", 0.5),
        ("b", "a", 1.0),
        ("c", "a", 1.0),
    ]
    assert bradley_terry([], []) == {}


# --------------------------------------------------------------------------- Plackett-Luce

from atlas.arena import rating as rating_mod  # noqa: E402
from atlas.arena.rating import bootstrap_ratings, plackett_luce, ranking_of  # noqa: E402


def _pl_loglik(theta, rankings):
    total = 0.0
    for order in rankings:
        g = [math.exp(theta[n]) for n in order]
        for j in range(len(order) - 1):
            total += math.log(g[j] / sum(g[j:]))
    return total


def test_plackett_luce_by_hand():
    # Two games, a > b > c and c > b > a.  By symmetry g_a = g_c = x with g_b = 1, and
    # each game has likelihood x / (2x + 1) * 1 / (x + 1).  Setting the derivative of
    # log x - log(2x + 1) - log(x + 1) to zero gives 1 - 2x^2 = 0: x = 1 / sqrt(2), so b
    # is rated 400 log10(sqrt 2) = 60.2 points above a and c, and the mean is 1500.
    rankings = [(("a",), ("b",), ("c",)), (("c",), ("b",), ("a",))]
    r = plackett_luce(["a", "b", "c"], rankings, prior=0.0)
    gap = 200 * math.log10(2)
    assert r["b"] - r["a"] == pytest.approx(gap, abs=1e-6)
    assert r["a"] == pytest.approx(r["c"], abs=1e-9)
    assert r["b"] == pytest.approx(1500 + 2 * gap / 3, abs=1e-6)
    # the same three players, each first once, second once and last once: all equal
    cyc = [(("a",), ("b",), ("c",)), (("b",), ("c",), ("a",)), (("c",), ("a",), ("b",))]
    assert plackett_luce(["a", "b", "c"], cyc, prior=0.0) == pytest.approx(
        {"a": 1500.0, "b": 1500.0, "c": 1500.0}
    )
    # two seats, no ties: Bradley-Terry without draws (3 wins to 1: odds 3)
    duel = [(("a",), ("b",))] * 3 + [(("b",), ("a",))]
    r2 = plackett_luce(["a", "b"], duel, prior=0.0)
    assert r2["a"] - r2["b"] == pytest.approx(RATING_SCALE * math.log10(3), abs=1e-6)


def test_plackett_luce_is_the_maximum_likelihood():
    rng = np.random.default_rng(3)
    names = ["a", "b", "c", "d"]
    strength = {"a": 3.0, "b": 1.5, "c": 1.0, "d": 0.5}
    rankings = []
    for _ in range(40):
        left, order = list(names), []
        while left:
            w = np.array([strength[n] for n in left])
            pick = left[int(rng.choice(len(left), p=w / w.sum()))]
            order.append(pick)
            left.remove(pick)
        rankings.append(tuple(order))
    got = plackett_luce(names, [tuple((n,) for n in o) for o in rankings], prior=0.0)
    theta = {n: (got[n] - RATING_BASE) * math.log(10) / RATING_SCALE for n in names}
    best = _pl_loglik(theta, rankings)
    for n in names:  # every small step away from the fit lowers the likelihood
        for eps in (-0.01, 0.01):
            moved = dict(theta)
            moved[n] += eps
            assert _pl_loglik(moved, rankings) < best
    assert got["a"] > got["b"] > got["d"]


def test_ranking_of_groups_ties_and_a_tie_is_both_orders():
    assert ranking_of(["a", "b", "c"], [1, 0, 1]) == (("a", "c"), ("b",))
    tied = plackett_luce(["a", "b"], [(("a", "b"),)] * 4, prior=0.0)
    assert tied["a"] == pytest.approx(tied["b"])


def test_bootstrap_intervals_hold_the_fit_and_are_repeatable():
    games = [[("a", "b", 1.0)]] * 7 + [[("a", "b", 0.0)]] * 3

    def fit(names, gs):
        return bradley_terry(names, [c for g in gs for c in g])

    one = bootstrap_ratings(["a", "b"], games, fit, samples=100, seed=1)
    two = bootstrap_ratings(["a", "b"], games, fit, samples=100, seed=1)
    assert one.low == two.low and one.high == two.high
    for n in "ab":
        assert one.low[n] <= one.ratings[n] <= one.high[n]
    assert one.high["a"] - one.low["a"] > 50  # ten games: a wide interval
    assert 0.8 < one.superiority("a", "b") <= 1.0
    assert one.superiority("a", "b") + one.superiority("b", "a") == pytest.approx(1.0)


def _season(n_players: int, n_games: int, seed: int = 3):
    """Random two-seat games between ``n_players`` players of spread strengths."""
    rng = np.random.default_rng(seed)
    names = [f"p{k}" for k in range(n_players)]
    strength = rng.normal(0.0, 1.0, n_players)
    games = []
    for _ in range(n_games):
        a, b = rng.choice(n_players, 2, replace=False)
        win = rng.random() < 1.0 / (1.0 + math.exp(strength[b] - strength[a]))
        games.append([(names[a], names[b], 1.0 if win else 0.0)])
    return names, games


def test_a_newton_step_solved_directly_is_the_least_squares_step():
    from atlas.arena.rating import _newton_step

    rng = np.random.default_rng(8)
    for k in (2, 5, 40):
        m = rng.normal(size=(k, k))
        hess = -(m @ m.T) - k * np.eye(k)  # negative definite, as with a prior
        grad = rng.normal(size=k)
        lsq = np.linalg.lstsq(hess, -grad, rcond=None)[0]
        assert np.allclose(_newton_step(hess, grad, 1.0), lsq, rtol=1e-10, atol=1e-12)
    singular = np.array([[-1.0, 1.0], [1.0, -1.0]])  # no prior: the common shift is free
    step = _newton_step(singular, np.array([1.0, -1.0]), 0.0)
    assert step.sum() == pytest.approx(0.0) and step[0] == pytest.approx(0.5)


def test_refits_started_from_the_whole_fit_and_its_chord_reach_the_same_ratings(monkeypatch):
    import atlas.arena.rating as rating

    names, games = _season(60, 400)
    warm = bootstrap_ratings(names, games, rating.duel_fit, samples=30)
    real = rating._bt_pairs
    monkeypatch.setattr(
        rating,
        "_bt_pairs",
        lambda i, j, m, p, prior, tol, it, start=None, chord=None: real(
            i, j, m, p, prior, tol, it
        ),
    )
    cold = bootstrap_ratings(names, games, rating.duel_fit, samples=30)
    assert np.allclose(warm.draws, cold.draws, atol=1e-6)
    assert warm.low == pytest.approx(cold.low) and warm.high == pytest.approx(cold.high)
    # and the whole fit is Bradley-Terry's, whichever way it is solved
    whole = bradley_terry(names, [c for g in games for c in g])
    assert all(warm.ratings[name] == pytest.approx(whole[name]) for name in names)


def test_refits_that_stop_one_newton_step_early_agree_with_refits_run_to_the_end(
    monkeypatch,
):
    # a Newton step of m leaves about m * m: a refit ends when its next step would move
    # less than the tolerance, and lands where the steps taken to the end land; the
    # whole fit goes to the end, so a refit of the same games stays on it
    import atlas.arena.rating as rating

    names, games = _season(60, 400)
    early = bootstrap_ratings(names, games, rating.duel_fit, samples=20)
    monkeypatch.setattr(rating, "NEWTON_SQUARE", 0.0)
    to_the_end = bootstrap_ratings(names, games, rating.duel_fit, samples=20)
    assert np.allclose(early.draws, to_the_end.draws, rtol=0.0, atol=1e-7)
    assert early.ratings == to_the_end.ratings  # the whole fit: the same steps
    one = [[("a", "b", 1.0)], [("b", "a", 0.0)]]  # every refit draws the same games
    alone = bootstrap_ratings(["a", "b"], one, rating.duel_fit, samples=5, clusters=[0, 0])
    assert alone.low["a"] <= alone.ratings["a"] <= alone.high["a"]


def test_poisson_counts_are_poisson_one_and_a_function_of_the_key_alone():
    from atlas.arena.rating import _unit_keys, poisson_counts

    keys = _unit_keys(range(20_000), seed=0)
    counts = np.stack([poisson_counts(keys, s) for s in range(10)])
    # Poisson(1): mean 1, variance 1, P(0) = P(1) = 1/e, P(2) = 1/(2e)
    assert counts.mean() == pytest.approx(1.0, abs=0.02)
    assert counts.var() == pytest.approx(1.0, abs=0.03)
    for j, p in enumerate([math.exp(-1), math.exp(-1), math.exp(-1) / 2]):
        assert np.mean(counts == j) == pytest.approx(p, abs=0.01)
    # refits differ, and a key's count does not depend on the other keys
    assert not np.array_equal(counts[0], counts[1])
    assert np.array_equal(poisson_counts(keys[5000:], 3), counts[3][5000:])
    # the seed and the label's text make the key, the same in a process whose string
    # hashes are salted otherwise (Python's own hash() would differ there)
    import os
    import subprocess
    import sys

    code = (
        "from atlas.arena.rating import _unit_keys; "
        "print(_unit_keys(['a', ('b', 1)], 0).tolist())"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    there = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True
    )
    assert there.stdout.strip() == str(_unit_keys(["a", ("b", 1)], 0).tolist())
    assert _unit_keys(["a"], 0)[0] != _unit_keys(["a"], 1)[0]


def test_poisson_counts_are_the_steps_each_draw_reaches_tail_included():
    # counted by comparison for the first three steps and searched past them: the same
    # counts as a search of every step, for draws that reach far into the tail
    from atlas.arena import rating

    keys = rating._unit_keys(range(50_000), seed=7)
    counts = np.concatenate([rating.poisson_counts(keys, s) for s in range(20)])
    assert counts.max() >= 6  # the tail is there: P(6 or more) = 6e-4 a draw
    m1, m2, s30, s27, s31, s11 = rating._MIX
    for s in range(20):
        x = keys + np.uint64((rating._GOLDEN * (s + 1)) & rating._MASK)
        x = (x ^ (x >> s30)) * m1
        x = (x ^ (x >> s27)) * m2
        x = (x ^ (x >> s31)) >> s11
        searched = np.searchsorted(rating._POISSON_STEPS, x, side="right")
        assert np.array_equal(rating.poisson_counts(keys, s), searched)


def _duels(n_players: int, n_games: int, seed: int = 0) -> tuple[list[str], list[Any]]:
    rng = np.random.default_rng(seed)
    names = [f"p{k}" for k in range(n_players)]
    games = []
    for _ in range(n_games):
        a, b = rng.choice(n_players, 2, replace=False)
        games.append([(names[a], names[b], float(rng.choice([0.0, 0.5, 1.0])))])
    return names, games


def test_a_spread_of_the_refits_gives_the_same_ratings_and_a_wrong_one_is_refused():
    from atlas.arena.rating import bootstrap_ratings, duel_fit

    names, games = _duels(6, 120)
    here = bootstrap_ratings(names, games, duel_fit, samples=30)
    asked = []

    def by_parts(refits, samples):  # three parts, worked out backwards
        bounds = [0, 7, 19, samples]
        parts = [refits(a, b) for a, b in reversed(list(zip(bounds, bounds[1:])))]
        asked.append(samples)
        return np.concatenate(parts[::-1])

    spread = bootstrap_ratings(names, games, duel_fit, samples=30, spread=by_parts)
    assert asked == [30]
    assert np.array_equal(spread.draws, here.draws)
    assert (spread.low, spread.high, spread.rank_low) == (here.low, here.high, here.rank_low)
    with pytest.raises(ValueError, match="30 refits"):
        bootstrap_ratings(names, games, duel_fit, samples=30, spread=lambda f, n: f(0, n - 1))


def test_games_added_between_other_players_leave_the_other_refits_as_they_were():
    # a Poisson bootstrap keyed by the units' labels: games of two newcomers added to a
    # season move no other unit's counts, so each refit of the others only shifts all
    # together (the ratings are centred on the mean); a generator's stream would
    # redraw every game and move every interval by the bootstrap's noise
    names, games = _season(30, 300)
    labels = [("season", g) for g in range(len(games))]
    before = bootstrap_ratings(names, games, rating_mod.duel_fit, samples=50, clusters=labels)
    extra = [[("new1", "new2", 1.0)], [("new2", "new1", 0.5)], [("new1", "new2", 0.0)]]
    after = bootstrap_ratings(
        [*names, "new1", "new2"],
        games + extra,
        rating_mod.duel_fit,
        samples=50,
        clusters=labels + [("extra", g) for g in range(3)],
    )
    old = len(names)
    moved = after.draws[:, :old] - before.draws  # each refit shifted all together
    assert np.allclose(moved, moved[:, :1], atol=1e-6)
    assert np.ptp(moved[:, 0]) > 1.0  # by the newcomers' share of the centring
    for n in names:
        assert after.ratings[n] - after.ratings[names[0]] == pytest.approx(
            before.ratings[n] - before.ratings[names[0]]
        )
    assert after.rank_low["p3"] >= before.rank_low["p3"]  # newcomers can only push down
    # and the order the games come in does not matter, with labels
    order = np.random.default_rng(1).permutation(len(games))
    shuffled = bootstrap_ratings(
        names,
        [games[k] for k in order],
        rating_mod.duel_fit,
        samples=50,
        clusters=[labels[k] for k in order],
    )
    assert shuffled.low == pytest.approx(before.low) and shuffled.high == pytest.approx(
        before.high
    )
