"""Simulator speed: simulated seconds per wall second, and setup time of every start state.

    python bench/bench_sim.py

First-round targets (docs/architecture.md "Performance targets" has the current ones):
>= 10,000 simulated s per wall s in cruise; every start
state < 50 ms (built from scratch, and as the per-episode copy).
"""

from __future__ import annotations

import statistics
import time

from a320bench.server.sim import START_STATES, build


def timed(fn, repeat: int = 5) -> float:
    best = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best.append(time.perf_counter() - t)
    return statistics.median(best)


def rate(start: str, seconds: float, prepare=None) -> float:
    ac = build(start)
    if prepare:
        prepare(ac)
    t = time.perf_counter()
    ac.advance(seconds)
    return seconds / (time.perf_counter() - t)


def main() -> None:
    print("start state setup (median of 5):")
    print(f"  {'state':<18}{'from scratch':>14}{'episode copy':>14}")
    for name in START_STATES:
        scratch = timed(lambda: build(name, cached=False))
        build(name)
        copy = timed(lambda: build(name))
        print(f"  {name:<18}{scratch * 1000:>11.1f} ms{copy * 1000:>11.2f} ms")
    print("simulated seconds per wall second:")
    print(f"  cruise, steady, 3 h:           {rate('cruise', 10800):>12,.0f}")

    def start_engine(ac):
        ac.set_control("ENG MODE", "IGN START")
        ac.set_control("ENG MASTER 2", "ON")

    print(f"  engine 2 start (transient):    {rate('apu_running', 60, start_engine):>12,.0f}")

    def dual_gen(ac):
        ac.inject_failure("elec_gen1_gcu_trip")
        ac.inject_failure("elec_gen2_gcu_trip")

    print(f"  dual generator loss cascade:   {rate('cruise', 60, dual_gen):>12,.0f}")


if __name__ == "__main__":
    main()
