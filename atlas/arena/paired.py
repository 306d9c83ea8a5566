"""A seat's score over groups of seat-swapped games, with a 95 % interval.

Games played with the same players in rotated seats (both seatings of a two-player
pairing, the four rotations of an Outpost table) are not independent: the players'
strengths are the same in each, so their results are correlated.  Chess engine testers
therefore count *pairs*: a pair of games with colours swapped scores 0, 1/2, 1, 3/2 or 2
for one side (the *pentanomial* model), and the variance of the mean is taken from
the pair totals, not from the games (Fishtest, cutechess).  Here the groups are of any
size: a group's *value* for a seat is its mean score over the group's games, a number
in ``[0, 1]``, and the groups are the independent observations.

The interval (:func:`paired_interval`) is a *score interval* in Wilson's construction:
every mean ``mu`` in ``[0, 1]`` for which the observed mean ``m`` of ``n`` group values
lies within ``z`` standard errors, ``(m - mu)^2 <= z^2 V(mu) / n``, where ``V(mu)`` is
the variance of the observed distribution of group values moved to mean ``mu`` by
putting weight on the nearer end (``1`` above ``m``, ``0`` below).  It needs no
normal approximation at ``mu = m``, so it never collapses to a point:

* every group won (or lost) whole: exactly Wilson's interval for ``n`` successes
  (``n`` all won gives ``[n / (n + z^2), 1]``);
* every group drawn: an interval about 1/2 that shrinks as ``z / sqrt(n)`` does;
* many groups: ``m +- z s / sqrt(n)``, ``s`` the standard deviation of the group
  values (the pentanomial interval the testers use).

References
----------
E. B. Wilson, "Probable inference, the law of succession, and statistical inference",
Journal of the American Statistical Association 22 (1927), 209-212.  The pentanomial
model: the Fishtest and cutechess documentation on game pairs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Z95", "PairedScore", "paired_interval", "pentanomial", "METHOD"]

#: The two-sided 95 % quantile of the normal distribution.
Z95 = 1.959963984540054

#: The method in one sentence, as reports state it.
METHOD = (
    "pentanomial: each group of seat-swapped games (a pair for two seats) is one "
    "observation, its value the seat's mean score in the group; 95 % score interval "
    "(Wilson's construction) with the variance of the group values"
)


@dataclass(frozen=True)
class PairedScore:
    """A mean over groups with its interval.

    Attributes
    ----------
    mean : float or None
        The mean of the group values (``None`` with no groups).
    low, high : float
        The 95 % interval (``0`` and ``1`` with no groups).
    groups : int
        Groups counted.
    sd : float
        The standard deviation of the group values (population form, as the
        pentanomial frequencies give it).
    """

    mean: float | None
    low: float
    high: float
    groups: int
    sd: float = 0.0


def _upper(values: Sequence[float], z: float) -> float:
    """The upper end of the score interval (see the module docstring)."""
    n = len(values)
    m = sum(values) / n
    if m >= 1.0:
        return 1.0
    var = max(sum((v - m) ** 2 for v in values) / n, 0.0)
    m2 = var + m * m
    k = z * z / n
    # mu = m + d: V = var + d * B - d^2, with weight w = d / (1 - m) on the value 1
    b = (1.0 - m2) / (1.0 - m) - 2.0 * m
    d = (k * b + math.sqrt(max(k * k * b * b + 4.0 * (1.0 + k) * k * var, 0.0))) / (
        2.0 * (1.0 + k)
    )
    return min(1.0, m + d)


def paired_interval(values: Sequence[float], z: float = Z95) -> PairedScore:
    """The mean of ``values`` (one per group, each in ``[0, 1]``) and its score interval.

    Parameters
    ----------
    values : sequence of float
        One value per group of seat-swapped games: the seat's mean score in it.
    z : float
        The normal quantile (default :data:`Z95`, a 95 % interval).

    Returns
    -------
    PairedScore
        With no values: mean ``None``, interval ``[0, 1]``.

    Raises
    ------
    ValueError
        A value outside ``[0, 1]``.

    Notes
    -----
    O(n).  The interval is the set of means ``mu`` with ``(m - mu)^2 <= z^2 V(mu) / n``
    (module docstring); each end solves one quadratic, the lower end as the upper end
    of the values reflected (``1 - v``).

    Examples
    --------
    >>> s = paired_interval([1.0] * 10)   # ten pairs, each won twice by the seat
    >>> round(s.low, 4), s.high
    (0.7225, 1.0)
    >>> s = paired_interval([0.5] * 10)   # ten pairs drawn (or split)
    >>> round(s.low, 4), round(s.high, 4)
    (0.3612, 0.6388)
    """
    vals = [float(v) for v in values]
    for v in vals:
        if not (0.0 <= v <= 1.0) or math.isnan(v):
            raise ValueError(f"a group value must lie in [0, 1], got {v!r}")
    if not vals:
        return PairedScore(None, 0.0, 1.0, 0, 0.0)
    n = len(vals)
    m = sum(vals) / n
    sd = math.sqrt(max(sum((v - m) ** 2 for v in vals) / n, 0.0))
    high = _upper(vals, z)
    low = 1.0 - _upper([1.0 - v for v in vals], z)
    return PairedScore(m, max(0.0, min(low, m)), max(high, m), n, sd)


def pentanomial(values: Sequence[float]) -> list[int]:
    """How many pairs scored 0, 1/2, 1, 3/2 and 2 for the seat, from the pair values
    (a pair's mean score, so ``total = 2 * value``); values between are rounded to the
    nearest half point.

    >>> pentanomial([1.0, 0.5, 0.5, 0.75, 0.0])
    [1, 0, 2, 1, 1]
    """
    counts = [0] * 5
    for v in values:
        counts[min(4, max(0, int(round(4 * float(v)))))] += 1
    return counts
