"""Tests of atlas.arena.rating: Bradley-Terry by MM against a plain gradient-ascent fit."""

from __future__ import annotations

import math

import numpy as np
import pytest

from atlas.arena.rating import (RATING_BASE, RATING_SCALE, bradley_terry, expected_score,
                              pairwise_comparisons)


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
    return {n: RATING_BASE + RATING_SCALE * (theta[idx[n]] - mean) / math.log(10) for n in names}


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
    assert r1["x"] == pytest.approx(_reference_fit(["a", "b", "c", "x"], comps, 1.0)["x"],
                                    abs=1e-3)


def test_pairwise_comparisons_rank_by_score_and_skip_same_bot():
    assert pairwise_comparisons(["a", "b", "c", "a"], [5, 2, 2, 1]) == [
        ("a", "b", 1.0), ("a", "c", 1.0), ("b", "c", 0.5), ("b", "a", 1.0), ("c", "a", 1.0)]
    assert bradley_terry([], []) == {}
