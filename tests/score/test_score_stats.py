"""Wilson interval, pass@k and pass^k (bridge/score/stats.py), against values worked out by hand."""

import math

import pytest

from a320bench.bridge.score.stats import Z_95, pass_at_k, pass_hat_k, wilson


def test_pass_at_k_and_pass_hat_k_for_two_successes_in_five_runs():
    # pass@k = 1 - C(3,k)/C(5,k): 1 - 3/5, 1 - 3/10, 1 - 1/10, 1 - 0/5, 1 - 0/1
    assert pass_at_k(5, 2) == pytest.approx([0.4, 0.7, 0.9, 1.0, 1.0], abs=1e-15)
    # pass^k = C(2,k)/C(5,k): 2/5, 1/10, 0, 0, 0
    assert pass_hat_k(5, 2) == pytest.approx([0.4, 0.1, 0.0, 0.0, 0.0], abs=1e-15)


def test_pass_k_estimators_match_the_binomial_formulas_for_a_larger_n():
    n, c = 12, 7
    for k in range(1, n + 1):
        assert pass_at_k(n, c)[k - 1] == pytest.approx(1 - math.comb(n - c, k) / math.comb(n, k), rel=1e-12)
        assert pass_hat_k(n, c)[k - 1] == pytest.approx(math.comb(c, k) / math.comb(n, k), rel=1e-12, abs=1e-15)


def test_all_or_nothing_runs_give_certain_pass_k():
    assert pass_at_k(3, 3) == [1.0, 1.0, 1.0] and pass_hat_k(3, 3) == [1.0, 1.0, 1.0]
    assert pass_at_k(3, 0) == [0.0, 0.0, 0.0] and pass_hat_k(3, 0) == [0.0, 0.0, 0.0]


def test_pass_k_of_no_runs_is_empty():
    assert pass_at_k(0, 0) == [] and pass_hat_k(0, 0) == []


def test_wilson_interval_of_two_in_four_is_symmetric_around_one_half():
    z2 = Z_95 ** 2
    half = Z_95 * math.sqrt(0.25 / 4 + z2 / 64) / (1 + z2 / 4)
    lo, hi = wilson(2, 4)
    assert (lo, hi) == pytest.approx((0.5 - half, 0.5 + half), rel=1e-12)
    assert (lo, hi) == pytest.approx((0.15004, 0.84996), abs=1e-5)


def test_wilson_interval_of_zero_successes_starts_at_zero():
    # p = 0: centre = half = (z²/2n) / (1 + z²/n), so the upper bound is z² / (n + z²)
    lo, hi = wilson(0, 3)
    assert lo == 0.0
    assert hi == pytest.approx(Z_95 ** 2 / (3 + Z_95 ** 2), rel=1e-12)
    assert hi == pytest.approx(0.56150, abs=1e-5)


def test_wilson_interval_of_all_successes_ends_at_one():
    lo, hi = wilson(3, 3)
    assert hi == 1.0
    assert lo == pytest.approx(3 / (3 + Z_95 ** 2), rel=1e-12)


def test_wilson_interval_of_seven_in_ten():
    z, n, p = Z_95, 10, 0.7
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    assert wilson(7, 10) == pytest.approx((centre - half, centre + half), rel=1e-12)
    assert wilson(7, 10) == pytest.approx((0.39678, 0.89221), abs=1e-5)


def test_wilson_interval_of_no_trials_is_none():
    assert wilson(0, 0) is None
