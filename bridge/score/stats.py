"""Estimators used by the aggregates: Wilson interval, pass@k and pass^k.

With n runs of a task of which c succeeded (unbiased, Chen et al. 2021; Yao et al. 2024):

    pass@k = 1 - C(n-c, k) / C(n, k)    at least one of k runs succeeds
    pass^k =     C(c, k)   / C(n, k)    all k runs succeed

Both are computed as running products, so k = 1..n costs O(n) and never
builds the huge binomials of a large n.
"""

from __future__ import annotations

import math

Z_95 = 1.959963984540054  # the 97.5th percentile of the standard normal


def wilson(successes: int, n: int, z: float = Z_95) -> tuple[float, float] | None:
    """Wilson score interval of a proportion; None when there are no trials."""
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
