"""Confidence intervals: every estimate of the package carries n, a count and an interval.

>>> est = proportion(30, 1000)
>>> est.n, est.count, round(est.estimate, 3), (round(est.low, 4), round(est.high, 4))
(1000, 30, 0.03, (0.0211, 0.0425))
"""

from __future__ import annotations

from dataclasses import dataclass
from math import exp, sqrt

import numpy as np
from scipy.special import ndtri, stdtrit

CONFIDENCE = 0.95


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its confidence interval, and the counts behind it."""

    estimate: float
    low: float
    high: float
    n: int
    count: float
    confidence: float = CONFIDENCE

    def __str__(self) -> str:
        return f"{self.estimate:.4g} [{self.low:.4g}, {self.high:.4g}] (n={self.n:,})"


def z_value(confidence: float = CONFIDENCE) -> float:
    """The two-sided normal quantile: 1.96 for 95%."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    return float(ndtri(0.5 + confidence / 2))  # the normal quantile (scipy's norm.ppf)


def wilson_interval(
    count: np.ndarray | float, n: np.ndarray | float, confidence: float = CONFIDENCE
) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval of a binomial proportion, vectorised; [0, 1] where n = 0. The
    counts may be fractional (an effective sample size: ``clustered_proportion``).

    >>> low, high = wilson_interval(0, 100)
    >>> float(low), round(float(high), 4)
    (0.0, 0.037)
    """
    count = np.asarray(count, dtype=float)
    n = np.asarray(n, dtype=float)
    if np.any(count < 0) or np.any(count > n):
        raise ValueError("counts must lie in 0..n")
    z = z_value(confidence)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = count / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low = np.where(count == 0, 0.0, np.clip(centre - half, 0, 1))  # exact ends, no round-off
    high = np.where(count == n, 1.0, np.clip(centre + half, 0, 1))
    return low, high


def proportion(count: int, n: int, confidence: float = CONFIDENCE) -> Estimate:
    """A binomial proportion with its Wilson interval."""
    if n <= 0:
        raise ValueError(f"n must be positive, got {n}")
    low, high = wilson_interval(count, n, confidence)
    return Estimate(count / n, float(low), float(high), int(n), count, confidence)


def mean_estimate(values: np.ndarray, confidence: float = CONFIDENCE) -> Estimate:
    """A sample mean with its normal-approximation interval (t for small samples).

    >>> str(mean_estimate(np.array([0.0, 1.0, 2.0, 3.0])))
    '1.5 [-0.5543, 3.554] (n=4)'
    """
    values = np.asarray(values, dtype=float)
    n = values.size
    if n < 2:
        raise ValueError("a mean's interval needs at least 2 values")
    mean = float(values.mean())
    t = float(stdtrit(n - 1, 0.5 + confidence / 2))  # Student's t quantile (scipy's t.ppf)
    half = t * float(values.std(ddof=1)) / sqrt(n)
    return Estimate(mean, mean - half, mean + half, n, float(values.sum()), confidence)


def ratio_of_proportions(
    count_a: int, count_b: int, n: int, count_both: int = 0, confidence: float = CONFIDENCE
) -> Estimate:
    """The ratio p_a / p_b of two event frequencies in the same n trials, with a delta-method
    interval on the log scale; ``count_both`` trials had both events (0 if they exclude).

    Var(log p̂_a − log p̂_b) ≈ 1/c_a + 1/c_b − 2·c_ab/(c_a·c_b) (multinomial delta method).

    >>> r = ratio_of_proportions(200, 100, 10_000)
    >>> r.estimate, round(r.low, 3), round(r.high, 3)
    (2.0, 1.573, 2.543)
    """
    if min(count_a, count_b) <= 0:
        raise ValueError("a ratio needs both counts positive")
    if count_both > min(count_a, count_b) or max(count_a, count_b) > n:
        raise ValueError("counts are inconsistent with n")
    variance = 1 / count_a + 1 / count_b - 2 * count_both / (count_a * count_b)
    half = z_value(confidence) * sqrt(max(variance, 0.0))
    ratio = count_a / count_b
    return Estimate(ratio, ratio * exp(-half), ratio * exp(half), n, count_a, confidence)


def clustered_proportion(
    counts: np.ndarray, sizes: np.ndarray, confidence: float = CONFIDENCE
) -> Estimate:
    """A proportion over trials that come in clusters (``counts[h]`` successes of ``sizes[h]``
    trials in cluster h: the layouts of one hand, say), with the Wilson interval at the
    effective sample size n / deff. The design effect deff is the cluster-robust variance of
    the ratio estimator Σc / Σm over the same estimate with every trial its own cluster,
    p(1 − p)/(n − 1), taken as at least 1 (Korn and Graubard's rule); with one trial a
    cluster, or no spread between clusters, it is the plain Wilson interval.

    >>> str(clustered_proportion(np.array([10, 0, 10, 0]), np.array([10, 10, 10, 10])))
    '0.5 [0.1274, 0.8726] (n=40)'
    >>> str(clustered_proportion(np.array([5, 5, 5, 5]), np.array([10, 10, 10, 10])))
    '0.5 [0.352, 0.648] (n=40)'
    """
    c, m = np.asarray(counts, dtype=float), np.asarray(sizes, dtype=float)
    if len(c) < 2 or np.any(m <= 0) or np.any(c < 0) or np.any(c > m):
        raise ValueError("a clustered proportion needs two clusters, each with 0..size successes")
    n, count = int(m.sum()), float(c.sum())
    p = count / n
    n_effective = float(n)
    binomial = p * (1 - p) / (n - 1)  # the same estimate with every trial its own cluster
    variance = _ratio_se(c, m) ** 2
    if 0 < p < 1 and variance > binomial:
        n_effective = n * binomial / variance
    low, high = wilson_interval(p * n_effective, n_effective, confidence)
    return Estimate(p, float(low), float(high), n, count, confidence)


def _ratio_se(x: np.ndarray, y: np.ndarray) -> float:
    """The standard error of the ratio estimator Σx / Σy from the pairs' spread (delta
    method)."""
    ratio = x.sum() / y.sum()
    return float(np.sqrt((x - ratio * y).var(ddof=1) / len(x)) / y.mean())


def ratio_of_means(
    numerators: np.ndarray, denominators: np.ndarray, confidence: float = CONFIDENCE
) -> Estimate:
    """The ratio Σx / Σy of paired observations, with a delta-method interval (the ratio
    estimator's standard error from the pairs' spread).

    >>> est = ratio_of_means(np.array([2.0, 4.0, 3.0, 1.0]), np.array([1.0, 2.0, 1.0, 1.0]))
    >>> round(est.estimate, 3), est.n
    (2.0, 4)
    """
    x, y = np.asarray(numerators, dtype=float), np.asarray(denominators, dtype=float)
    n = len(x)
    if n < 2 or y.sum() <= 0:
        raise ValueError("a ratio of means needs at least two pairs and a positive denominator")
    ratio = x.sum() / y.sum()
    half = z_value(confidence) * _ratio_se(x, y)
    return Estimate(
        float(ratio), float(ratio - half), float(ratio + half), n, float(x.sum()), confidence
    )
