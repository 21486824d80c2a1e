"""The paired statistics of the model comparison: exact McNemar, Holm, the seeded bootstrap."""

import pytest

from a320bench.bridge.report.paired import holm, mcnemar_exact, paired_bootstrap


@pytest.mark.parametrize(("b", "c", "p"), [
    (0, 0, 1.0),  # no discordant pair: no evidence of any difference
    (3, 0, 0.25),  # 2 * (1/2)^3
    (0, 3, 0.25),  # symmetric
    (5, 1, 2 * (1 + 6) / 64),  # 2 * P[Bin(6, 1/2) <= 1]
    (2, 2, 1.0),  # capped at 1
    (10, 0, 2 / 1024),
])
def test_the_exact_mcnemar_p_value_is_twice_the_binomial_tail_of_the_discordant_pairs(b, c, p):
    assert mcnemar_exact(b, c) == pytest.approx(p, abs=1e-12)


def test_holm_multiplies_by_the_remaining_count_and_keeps_the_order_monotone():
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    assert holm([]) == []


def test_the_bootstrap_interval_is_the_same_for_the_same_inputs_and_brackets_the_mean():
    diffs = [1.0, 0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0]
    lo, hi = paired_bootstrap(diffs)
    assert (lo, hi) == paired_bootstrap(diffs)
    assert 0.0 < lo < sum(diffs) / len(diffs) < hi == 1.0


def test_the_bootstrap_of_identical_differences_is_that_difference_and_of_nothing_is_none():
    assert paired_bootstrap([-0.5] * 4) == (-0.5, -0.5)
    assert paired_bootstrap([]) is None
