"""Paired statistics the report needs beyond score's (which has Wilson and pass@k / pass^k).

    mcnemar_exact(b, c)   two-sided exact McNemar test on the discordant pairs: b pairs
                          where only A succeeded, c where only B did. Under "no
                          difference" each discordant pair is a fair coin, so
                          p = min(1, 2 * P[Binomial(b + c, 1/2) <= min(b, c)]).
                          Exact at any count (the chi-square version is not, at small ones).
    holm(ps)              Holm's step-down adjustment of a family of p-values (many
                          scenarios tested at once).
    paired_bootstrap(ds)  95 % interval of the mean of per-scenario differences, resampling
                          scenarios (runs are nested in scenarios, so scenarios are the
                          units), with a fixed seed: the same inputs give the same interval.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

BOOTSTRAP_SEED = 20240229
BOOTSTRAP_RESAMPLES = 2000


def mcnemar_exact(b: int, c: int) -> float:
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(b, c) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def holm(pvalues: Sequence[float]) -> list[float]:
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def paired_bootstrap(diffs: Sequence[float], *, seed: int = BOOTSTRAP_SEED,
                     resamples: int = BOOTSTRAP_RESAMPLES) -> tuple[float, float] | None:
    """Percentile 95 % interval of mean(diffs), or None without any difference to resample."""
    n = len(diffs)
    if n == 0:
        return None
    rng = random.Random(seed)
    means = sorted(math.fsum(rng.choices(diffs, k=n)) / n for _ in range(resamples))
    lo = means[int(0.025 * resamples)]
    hi = means[min(resamples - 1, int(math.ceil(0.975 * resamples)) - 1)]
    return lo, hi
