"""A seat's score over seat-swapped groups and its 95 % interval (atlas.arena.paired).

Hand-computed cases (pairs all won, all drawn, mixed; two-valued groups against the
textbook Wilson interval), the interval's definition checked by a brute-force scan that
builds each shifted distribution explicitly, its agreement with the plain pentanomial
interval for many pairs, and its coverage of a known mean in seeded simulations.
"""

from __future__ import annotations

import doctest
import math

import numpy as np
import pytest

from atlas.arena import paired
from atlas.arena.paired import Z95, paired_interval, pentanomial

Z2 = 1.959963984540054**2  # 3.841458820694124


def test_the_docstring_examples_hold():
    assert doctest.testmod(paired, raise_on_error=False).failed == 0


def test_every_pair_won_is_wilsons_interval_for_all_successes():
    # n pairs, each won twice by the seat: Wilson's interval for n of n is [n/(n+z^2), 1]
    for n, low in ((1, 1 / (1 + Z2)), (4, 4 / (4 + Z2)), (10, 10 / (10 + Z2))):
        s = paired_interval([1.0] * n)
        assert s.mean == 1.0 and s.high == 1.0 and s.groups == n and s.sd == 0.0
        assert s.low == pytest.approx(low, abs=1e-12)
    assert paired_interval([1.0] * 10).low == pytest.approx(0.722467, abs=1e-6)
    # and every pair lost: the mirror image
    s = paired_interval([0.0] * 10)
    assert (s.low, s.mean) == (0.0, 0.0)
    assert s.high == pytest.approx(1 - 10 / (10 + Z2), abs=1e-12)


def test_every_pair_drawn_is_an_interval_about_one_half_that_shrinks_with_the_pairs():
    # values all 1/2: m = 1/2, variance 0.  Above m the shifted distribution puts weight
    # w = 2d at 1: V = (1 - w) / 4 + w - (1/2 + d)^2 = d / 2 - d^2.  The end solves
    # d^2 = (z^2 / n) (d / 2 - d^2), so d = (z^2 / 2n) / (1 + z^2 / n).
    for n in (1, 10, 100):
        d = (Z2 / (2 * n)) / (1 + Z2 / n)
        s = paired_interval([0.5] * n)
        assert s.mean == 0.5
        assert s.low == pytest.approx(0.5 - d, abs=1e-12)
        assert s.high == pytest.approx(0.5 + d, abs=1e-12)
    assert paired_interval([0.5] * 10).high == pytest.approx(0.638767, abs=1e-6)
    # a hundred drawn pairs: within 5 points of 1/2, ten are not
    assert paired_interval([0.5] * 100).high < 0.55 < paired_interval([0.5] * 10).high


def test_pairs_won_and_lost_whole_give_the_textbook_wilson_interval():
    # 7 pairs won twice, 3 lost twice: a binomial 7 of 10
    n, p = 10, 0.7
    centre = (p + Z2 / (2 * n)) / (1 + Z2 / n)
    half = math.sqrt(p * (1 - p) / n + Z2 / (4 * n * n)) * Z95 / (1 + Z2 / n)
    s = paired_interval([1.0] * 7 + [0.0] * 3)
    assert s.low == pytest.approx(centre - half, abs=1e-12)
    assert s.high == pytest.approx(centre + half, abs=1e-12)
    assert (round(s.low, 4), round(s.high, 4)) == (0.3968, 0.8922)


def _shifted_variance(values: list[float], mu: float) -> float:
    """The variance of the values' distribution moved to mean ``mu`` by weight on the
    nearer end, built as an explicit weighted list (the definition, no closed form)."""
    n = len(values)
    m = sum(values) / n
    end = 1.0 if mu >= m else 0.0
    w = 0.0 if mu == m else (mu - m) / (end - m)
    atoms = [(v, (1 - w) / n) for v in values] + [(end, w)]
    mean = sum(v * p for v, p in atoms)
    assert mean == pytest.approx(mu, abs=1e-9)
    return sum(p * (v - mean) ** 2 for v, p in atoms)


def _scan(values: list[float], step: float = 1e-4) -> tuple[float, float]:
    """The interval by brute force: every mu on a grid that passes the score test."""
    n = len(values)
    m = sum(values) / n
    inside = [
        mu
        for mu in np.arange(0.0, 1.0 + step / 2, step)
        if (m - mu) ** 2 <= Z2 * _shifted_variance(values, float(mu)) / n + 1e-15
    ]
    return float(min(inside)), float(max(inside))


@pytest.mark.parametrize(
    "values",
    [
        [1.0, 0.5, 0.5, 0.75],  # mixed pairs: 2, 1, 1, 3/2 points of 2
        [0.25, 0.5, 0.75, 1.0, 0.0, 0.5],
        [0.75] * 3 + [0.5] * 5,
        [0.0, 1.0],
        [1.0, 1.0, 1.0, 0.75],
    ],
)
def test_the_interval_is_every_mean_that_passes_the_score_test(values):
    s = paired_interval(values)
    low, high = _scan(values)
    assert s.low == pytest.approx(low, abs=2e-4)
    assert s.high == pytest.approx(high, abs=2e-4)
    assert s.low <= s.mean <= s.high


def test_mixed_pairs_by_hand():
    # pairs scoring 2, 1, 1 and 3/2 of 2 points: m = 11/16 = 0.6875
    s = paired_interval([1.0, 0.5, 0.5, 0.75])
    assert s.mean == 0.6875
    # population variance of the pair values: (0.3125^2 + 2 * 0.1875^2 + 0.0625^2) / 4
    assert s.sd**2 == pytest.approx(0.04296875, abs=1e-15)
    # the upper end by hand: k = z^2 / 4 = 0.96036, second moment 0.515625, the slope
    # B = (1 - 0.515625) / (1 - 0.6875) - 2 * 0.6875 = 0.175, and
    # d = (kB + sqrt((kB)^2 + 4 (1 + k) k var)) / (2 (1 + k))
    #   = (0.16806 + sqrt(0.028245 + 0.32358)) / 3.92073 = 0.19415
    assert s.high == pytest.approx(0.6875 + 0.19415, abs=1e-4)
    # both ends as the brute-force scan finds them, written down
    assert (round(s.low, 3), round(s.high, 3)) == (0.323, 0.882)
    assert pentanomial([1.0, 0.5, 0.5, 0.75]) == [0, 0, 2, 1, 1]


def test_many_pairs_give_the_plain_pentanomial_interval():
    rng = np.random.default_rng(5)
    values = rng.choice([0.0, 0.25, 0.5, 0.75, 1.0], size=20_000, p=[0.1, 0.2, 0.3, 0.25, 0.15])
    s = paired_interval(values.tolist())
    half = Z95 * float(values.std()) / math.sqrt(len(values))
    assert s.low == pytest.approx(s.mean - half, rel=0, abs=0.02 * half + 1e-4)
    assert s.high == pytest.approx(s.mean + half, rel=0, abs=0.02 * half + 1e-4)


@pytest.mark.parametrize(
    ("probs", "pairs"),
    [
        ([0.05, 0.15, 0.4, 0.25, 0.15], 8),  # seat 1 ahead: mean 0.575
        ([0.05, 0.15, 0.4, 0.25, 0.15], 40),
        ([0.5, 0.0, 0.0, 0.0, 0.5], 20),  # each pair won whole by one seat or the other
        ([0.02, 0.08, 0.3, 0.3, 0.3], 25),  # a strong seat advantage: mean 0.695
    ],
)
def test_the_interval_covers_a_known_seat_advantage(probs, pairs):
    """Seeded simulations of pairs from a known pentanomial distribution: the interval
    holds the true mean at least 95 % of the time less sampling noise, and it is not
    uselessly wide (it excludes an even share when the advantage is large)."""
    rng = np.random.default_rng(1234)
    levels = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
    mu = float(np.dot(probs, levels))
    reps = 2000
    hits = 0
    widths = []
    for _ in range(reps):
        s = paired_interval(rng.choice(levels, size=pairs, p=probs).tolist())
        hits += s.low <= mu <= s.high
        widths.append(s.high - s.low)
    assert hits / reps >= 0.93  # 95 % less three standard errors of the simulation
    assert hits / reps <= 1.0
    # never a point: every interval has width, and it narrows with the pairs
    assert min(widths) > 0
    if pairs >= 25 and mu > 0.65:
        assert float(np.mean(widths)) < 0.3


def test_no_groups_and_bad_values():
    s = paired_interval([])
    assert (s.mean, s.low, s.high, s.groups) == (None, 0.0, 1.0, 0)
    with pytest.raises(ValueError, match=r"\[0, 1\], got 1.5"):
        paired_interval([0.5, 1.5])
    with pytest.raises(ValueError, match="nan"):
        paired_interval([float("nan")])
