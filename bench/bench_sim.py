"""Simulator speed: simulated seconds per wall second in cruise and in the transients, and the setup time
of every start state.

    python bench/bench_sim.py

Targets (docs/architecture.md "Performance targets"): >= 100,000 simulated s per wall s in cruise and
>= 20,000 in every transient; every start state < 50 ms (built from scratch, and as the per-episode copy).
Each rate is the median of 3 runs. The anchor, measured before and after in the same run, is a
fixed piece of pure Python (bench/anchor.py): a loaded machine
shows in it, and each rate is also printed as simulated seconds per anchor.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable

from a320bench.server.sim import START_STATES, Aircraft, build
from anchor import LABEL as ANCHOR_LABEL, anchor_s


def timed(fn: Callable[[], object], repeat: int = 5) -> float:
    samples = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t)
    return statistics.median(samples)


def rate(start: str, seconds: float, prepare: Callable[[Aircraft], None] | None = None, repeat: int = 3) -> float:
    """Simulated seconds per wall second over `seconds` after `prepare` (median of `repeat`)."""
    samples = []
    for _ in range(repeat):
        ac = build(start)
        if prepare:
            prepare(ac)
        t = time.perf_counter()
        ac.advance(seconds)
        samples.append(seconds / (time.perf_counter() - t))
    return statistics.median(samples)


def _set(*pairs: tuple[str, str]) -> Callable[[Aircraft], None]:
    def prepare(ac: Aircraft) -> None:
        for control, position in pairs:
            ac.set_control(control, position)
    return prepare


def _fail(*ids: str) -> Callable[[Aircraft], None]:
    def prepare(ac: Aircraft) -> None:
        for f in ids:
            ac.inject_failure(f)
    return prepare


def _drift_down(ac: Aircraft) -> None:
    ac.inject_failure("eng1_flameout_damage")
    _set(("THR LEVER 2", "FLX/MCT"), ("A/THR", "OFF"), ("FCU SPD", "230 KT"), ("FCU SPD KNOB", "PULL"),
         ("FCU ALT", "FL230"), ("FCU ALT KNOB", "PULL"))(ac)


CASES: tuple[tuple[str, str, float, Callable[[Aircraft], None] | None], ...] = (
    ("cruise, steady, 3 h (AP and A/THR on)", "cruise", 10800.0, None),
    ("engine 2 start", "apu_running", 60.0, _set(("ENG MODE", "IGN START"), ("ENG MASTER 2", "ON"))),
    ("engine 1 flame-out", "cruise", 60.0, _fail("eng1_flameout")),
    ("engine 1 fire", "cruise", 60.0, _fail("fire_eng1")),
    ("dual generator loss cascade", "cruise", 60.0, _fail("elec_gen1_gcu_trip", "elec_gen2_gcu_trip")),
    ("idle descent FL240-FL100 (DES)", "descent", 480.0, None),
    ("emergency descent FL350-FL100", "cruise", 300.0, _set(
        ("FCU ALT", "FL100"), ("FCU ALT KNOB", "PULL"), ("THR LEVER 1", "IDLE"), ("THR LEVER 2", "IDLE"),
        ("SPD BRK", "FULL"), ("FCU SPD", "340 KT"), ("FCU SPD KNOB", "PULL"))),
    ("single-engine drift-down, 20 min", "cruise", 1200.0, _drift_down),
)


def main() -> None:
    anchors = [anchor_s()]
    print("start state setup (median of 5):")
    print(f"  {'state':<18}{'from scratch':>14}{'episode copy':>14}")
    for name in START_STATES:
        scratch = timed(lambda: build(name, cached=False))
        build(name)
        copy = timed(lambda: build(name))
        print(f"  {name:<18}{scratch * 1000:>11.1f} ms{copy * 1000:>11.2f} ms")
    rates = [(label, rate(start, seconds, prepare)) for label, start, seconds, prepare in CASES]
    anchors.append(anchor_s())
    anchor = statistics.median(anchors)
    print(f"simulated seconds per wall second (median of 3); anchor ({ANCHOR_LABEL}) "
          f"{anchor * 1000:.1f} ms, load average {os.getloadavg()[0]:.1f}:")
    print(f"  {'':<40}{'per wall s':>12}{'per anchor':>12}  target")
    for label, r in rates:
        target = 100_000 if label.startswith("cruise") else 20_000
        print(f"  {label:<40}{r:>12,.0f}{r * anchor:>12,.0f}  {'ok' if r >= target else f'UNDER {target:,}'}")


if __name__ == "__main__":
    main()
