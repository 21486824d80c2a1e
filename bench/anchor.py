"""The anchor the simulator benches print their figures against: a fixed piece of pure Python,
timed in the same run, so that a loaded machine shows in it as in the figures."""

from __future__ import annotations

import random
import statistics
import time

LABEL = "sort 100,000 random floats"
_RNG = random.Random(0)
_NUMBERS = [_RNG.random() for _ in range(100_000)]


def anchor_s(repeat: int = 5) -> float:
    """Median seconds to sort the same 100,000 floats."""
    samples = []
    for _ in range(repeat):
        t = time.perf_counter()
        sorted(_NUMBERS)
        samples.append(time.perf_counter() - t)
    return statistics.median(samples)
