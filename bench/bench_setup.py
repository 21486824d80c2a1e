"""Scenario setup: every catalogue scenario's first setup in a process and a repeated one.

    python bench/bench_setup.py [--all]

Targets (docs/architecture.md "Performance targets"): every scenario's setup < 20 ms, a repeated
setup (same scenario, next run: a copy of the prepared aircraft) < 2 ms. A first setup is
`harness.prepare` with an empty setup cache and the start state already built (start states are
cached on their own, see bench_sim.py); a repeated one is `prepare` again. Each is the median of
3 (first) and 20 (repeated) runs.

The anchor, measured in the same run, is a fixed piece of pure Python (bench/anchor.py),
so a loaded machine shows in it too: each figure is printed with its ratio to the anchor.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from a320bench.server.scenario import harness
from a320bench.server.scenario.loader import load
from a320bench.server.sim import build
from anchor import LABEL as ANCHOR_LABEL, anchor_s

ROOT = Path(__file__).resolve().parents[1]
FIRST_TARGET_MS = 20.0
REPEATED_TARGET_MS = 2.0


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t)
    return statistics.median(samples) * 1000


def anchor_ms() -> float:
    return anchor_s() * 1000


def first_setup_ms(sc) -> float:
    def fresh() -> None:
        harness._KEPT.clear()
        harness.prepare(sc)
    return median_ms(fresh, 3)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--all", action="store_true", help="print every scenario (default: the slowest 12)")
    a = ap.parse_args()
    scenarios = [load(f) for f in sorted((ROOT / "scenarios").glob("*/*.yaml"))]
    anchors = [anchor_ms()]
    rows = []
    for sc in scenarios:
        build(sc.initial_state.start_state, sc.initial_state.world)  # the start state's own cache
        first = first_setup_ms(sc)
        repeated = median_ms(lambda: harness.prepare(sc), 20)
        rows.append((first, repeated, sc.id))
        anchors.append(anchor_ms())
    anchor = statistics.median(anchors)
    load_avg = os.getloadavg()[0]
    print(f"anchor ({ANCHOR_LABEL}): {anchor:.2f} ms, median over the run; load average {load_avg:.1f}")
    print(f"  {'scenario':<48}{'first':>10}{'x anchor':>10}{'repeated':>11}{'x anchor':>10}")
    shown = sorted(rows, reverse=True) if not a.all else sorted(rows, key=lambda r: r[2])
    for first, repeated, sid in shown if a.all else shown[:12]:
        print(f"  {sid:<48}{first:>8.1f} ms{first / anchor:>10.2f}{repeated:>9.2f} ms{repeated / anchor:>10.3f}")
    firsts = [r[0] for r in rows]
    repeats = [r[1] for r in rows]
    over = [r for r in rows if r[0] >= FIRST_TARGET_MS]
    print(f"{len(rows)} scenarios: first setup median {statistics.median(firsts):.1f} ms, worst {max(firsts):.0f} ms "
          f"({max(firsts) / anchor:.1f}x anchor), {len(over)} at or over {FIRST_TARGET_MS:g} ms "
          f"({'OK' if not over else 'OVER TARGET'}); total {sum(firsts) / 1000:.2f} s")
    print(f"repeated setup median {statistics.median(repeats):.2f} ms, worst {max(repeats):.2f} ms "
          f"({max(repeats) / anchor:.3f}x anchor; target < {REPEATED_TARGET_MS:g} ms: "
          f"{'OK' if max(repeats) < REPEATED_TARGET_MS else 'OVER TARGET'})")


if __name__ == "__main__":
    main()
