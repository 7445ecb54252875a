"""Confidence intervals: known values, coverage by simulation, and errors."""

import numpy as np
import pytest

from prefstats.stats import (
    clustered_proportion,
    mean_estimate,
    proportion,
    ratio_of_proportions,
    wilson_interval,
    z_value,
)


def test_wilson_known_values():
    # Wilson (1927) / Newcombe (1998) example: 81 of 263 → [0.2553, 0.3662].
    low, high = wilson_interval(81, 263)
    assert (round(float(low), 4), round(float(high), 4)) == (0.2553, 0.3662)
    low, high = wilson_interval(np.array([0, 10]), np.array([10, 10]))
    assert low[0] == 0 and high[1] == 1
    assert 0 < high[0] < 0.35 and 0.65 < low[1] < 1


def test_wilson_coverage():
    # 2,000 binomial samples with p = 0.03, n = 500: a 95% interval covers p in 95% of them.
    # The coverage count is Binomial(2000, ~0.95); bounds 0.93..0.97 are > 4 sd away from 0.95
    # (false-failure probability < 1e-4). Wilson's actual coverage here is about 0.94-0.96.
    rng = np.random.default_rng(5)
    counts = rng.binomial(500, 0.03, size=2000)
    low, high = wilson_interval(counts, 500)
    coverage = np.mean((low <= 0.03) & (high >= 0.03))
    assert 0.93 < coverage < 0.97


def test_ratio_coverage_for_exclusive_and_overlapping_events():
    # Multinomial trials with events a only, b only, both: the ratio interval covers the true
    # p_a / p_b in about 95% of 1,000 samples (bounds > 4 sd of the coverage count).
    rng = np.random.default_rng(8)
    for p_both in (0.0, 0.004):
        probs = [0.01, 0.02, p_both, 1 - 0.03 - p_both]  # a only, b only, both, neither
        true = (0.01 + p_both) / (0.02 + p_both)
        hits = 0
        for sample in rng.multinomial(20_000, probs, size=1000):
            a, b, both = sample[0] + sample[2], sample[1] + sample[2], sample[2]
            est = ratio_of_proportions(int(a), int(b), 20_000, int(both))
            hits += est.low <= true <= est.high
        assert 0.92 < hits / 1000 < 0.975


def test_clustered_proportion_with_one_trial_a_cluster_is_wilson():
    rng = np.random.default_rng(3)
    for _ in range(50):
        outcomes = rng.integers(0, 2, size=int(rng.integers(2, 60)))
        plain = proportion(int(outcomes.sum()), len(outcomes))
        clustered = clustered_proportion(outcomes, np.ones_like(outcomes))
        assert clustered.n == plain.n and clustered.count == plain.count
        assert np.isclose(clustered.low, plain.low) and np.isclose(clustered.high, plain.high)


def test_clustered_proportion_covers_where_wilson_does_not():
    # 40 clusters of 10 trials, each cluster's p drawn from Beta with mean 0.3 and
    # intra-cluster correlation 0.3 (layouts of one hand are alike). Over 1,000 samples the
    # clustered interval covers 0.3 in about 93.5% (simulated 0.933 over 2,000), the plain
    # Wilson interval over the 400 trials in about 67%. Bounds 0.90..0.97 and < 0.80 lie more
    # than 4 sd of the coverage count away (false-failure probability < 1e-4).
    rng = np.random.default_rng(11)
    p, icc = 0.3, 0.3
    clustered_hits = plain_hits = 0
    for _ in range(1000):
        counts = rng.binomial(10, rng.beta(p * (1 - icc) / icc, (1 - p) * (1 - icc) / icc, 40))
        clustered = clustered_proportion(counts, np.full(40, 10))
        plain = proportion(int(counts.sum()), 400)
        clustered_hits += clustered.low <= p <= clustered.high
        plain_hits += plain.low <= p <= plain.high
    assert 0.90 < clustered_hits / 1000 < 0.97
    assert plain_hits / 1000 < 0.80


def test_proportion_and_mean():
    est = proportion(50, 200)
    assert est.estimate == 0.25 and est.n == 200 and est.count == 50
    assert est.low < 0.25 < est.high
    m = mean_estimate(np.array([1.0, 1.0, 1.0, 1.0]))
    assert m.estimate == m.low == m.high == 1.0
    assert "n=200" in str(est)


def test_errors():
    with pytest.raises(ValueError, match="confidence"):
        z_value(1.5)
    with pytest.raises(ValueError, match="counts must lie"):
        wilson_interval(11, 10)
    with pytest.raises(ValueError, match="n must be positive"):
        proportion(0, 0)
    with pytest.raises(ValueError, match="both counts positive"):
        ratio_of_proportions(0, 5, 100)
    with pytest.raises(ValueError, match="inconsistent"):
        ratio_of_proportions(5, 5, 100, count_both=6)
    with pytest.raises(ValueError, match="at least 2"):
        mean_estimate(np.array([1.0]))
    with pytest.raises(ValueError, match="two clusters"):
        clustered_proportion(np.array([3]), np.array([2]))
