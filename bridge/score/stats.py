"""Estimators used by the aggregates: Wilson interval, pass@k and pass^k, clustered rates.

With n runs of a task of which c succeeded (unbiased, Chen et al. 2021; Yao et al. 2024):

    pass@k = 1 - C(n-c, k) / C(n, k)    at least one of k runs succeeds
    pass^k =     C(c, k)   / C(n, k)    all k runs succeed

Both are computed as running products, so k = 1..n costs O(n) and never
builds the huge binomials of a large n.

Runs are nested in scenarios: repeats of one scenario are not independent trials
of the benchmark (noop's five identical runs carry the information of one). A rate
over several scenarios is therefore the mean over scenarios of each scenario's rate
(so it equals the mean pass^1, whatever the runs per scenario), and its interval
is a Wilson interval with the *scenarios* as the trials: p = that mean, n = the
number of scenarios (`clustered`). With one run per scenario it is the plain
Wilson interval; with more runs it stays as wide as the scenarios allow. It is
conservative: a scenario's mean varies at most as a single 0/1 trial would.
"""

from __future__ import annotations

import math

Z_95 = 1.959963984540054  # the 97.5th percentile of the standard normal


def wilson(successes: float, n: int, z: float = Z_95) -> tuple[float, float] | None:
    """Wilson score interval of a proportion; None when there are no trials. `successes`
    may be fractional (n times a mean of per-task rates, see `clustered`)."""
    if n <= 0:
        return None
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    lo = 0.0 if successes == 0 else max(0.0, centre - half)  # exact at the ends, not 1e-17 off
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return lo, hi


def pass_hat_k(n: int, c: int) -> list[float]:
    """[pass^1, ..., pass^n]: C(c, k) / C(n, k) = prod_{i<k} (c - i) / (n - i)."""
    out, r = [], 1.0
    for i in range(n):
        r = r * (c - i) / (n - i) if c > i else 0.0
        out.append(r)
    return out


def pass_at_k(n: int, c: int) -> list[float]:
    """[pass@1, ..., pass@n]: 1 - C(n - c, k) / C(n, k), with C(n - c, k) / C(n, k) = prod_{i<k} (n - c - i) / (n - i)."""
    out, r = [], 1.0
    for i in range(n):
        r = r * (n - c - i) / (n - i) if n - c > i else 0.0
        out.append(1.0 - r)
    return out


def clustered(per_task_rates: list[float], z: float = Z_95) -> tuple[float, tuple[float, float]] | None:
    """(mean over tasks, 95 % Wilson interval with the tasks as trials); None without tasks."""
    s = len(per_task_rates)
    if s == 0:
        return None
    mean = sum(per_task_rates) / s
    ci = wilson(mean * s, s, z)
    assert ci is not None
    return mean, ci
