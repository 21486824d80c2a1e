"""Does `wait` take longer while a failure is still to arrive? (issue 9: a wall-clock side channel)

    python bench/bench_wait.py [--repeat 30]

For each scenario with a failure armed to arrive during the episode, times the same
waits in two episodes: as the scenario is (the failure pending, not yet due) and with
that failure removed. Prints the median wall time of each and their ratio; a ratio
within noise (about 1.00 +- 0.05) means an agent cannot tell from the clock that
something is scheduled. Timed waits stop before the failure is due.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from a320bench.server.scenario.loader import load
from a320bench.server.scenario.model import Scenario
from a320bench.server.session import open_episode
from a320bench.server.trajectory import Recorder

ROOT = Path(__file__).resolve().parents[1]
CASES = [
    ("air/pack1_ovht_then_pack2_fault_cruise.yaml", [2.0, 20.0, 15.0]),  # timed, due at 40 s
    ("eng/eng1_flameout_then_gen2_fault_cruise.yaml", [2.0, 300.0, 300.0]),  # on a predicate, never due here
]


def _without_pending(sc: Scenario) -> Scenario:
    return sc.model_copy(update={"failures": [f for f in sc.failures if not f.during_episode]})


def _time_waits(sc: Scenario, waits: list[float]) -> float:
    ep = open_episode(sc, Recorder(None), profile="benchmark", tools=[], instructions="")
    t = time.perf_counter()
    for s in waits:
        ep.advance(s)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=30)
    args = ap.parse_args()
    for rel, waits in CASES:
        sc = load(ROOT / "scenarios" / rel)
        bare = _without_pending(sc)
        pending, none = [], []
        for i in range(args.repeat):  # interleaved, the first of each pair alternating (ABBA): load and
            first, second = (sc, bare) if i % 2 == 0 else (bare, sc)  # warm-up hit both alike
            a, b = _time_waits(first, waits), _time_waits(second, waits)
            pending.append(a if first is sc else b)
            none.append(b if first is sc else a)
        p, n = statistics.median(pending), statistics.median(none)
        print(f"{sc.id}: waits {waits} s: failure pending {p * 1000:.2f} ms, none {n * 1000:.2f} ms: "
              f"ratio {p / n:.2f}")


if __name__ == "__main__":
    main()
