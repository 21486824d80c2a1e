"""The final verdict's hands-off flight: what reading a passing end again 120 s later costs.

    python bench/bench_hands_off.py

Every catalogue scenario is flown in-process by the scripted provider (its end passes, so the
final verdict flies a copy of the aircraft on for 120 s hands off: server/scenario/hands_off.py);
that flight is timed on each end state (median of 3, wall time, the process's kept flights
forgotten before each), and so is the same verdict again once kept (what `--runs N` of a
deterministic agent pays from its second run), beside the anchor measured in the same run
(bench/anchor.py). An end that failed already is not flown on and costs nothing.
"""

from __future__ import annotations

import os
import statistics
import time
from pathlib import Path

import anyio

import a320bench.server.episode as episode_module
import a320bench.server.scenario.hands_off as hands_off_module
from a320bench.bridge.agent_thread import reusing_agent_threads
from a320bench.bridge.inprocess_episode import run_episode
from a320bench.bridge.providers.scripted import ScriptedProvider
from a320bench.server.scenario.loader import load
from a320bench.server.surface.profiles import load_profile
from anchor import LABEL as ANCHOR_LABEL, anchor_s

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    real = episode_module.hands_off
    timings: dict[str, float] = {}
    kept: dict[str, float] = {}

    def timed(ac, sc, *args, **kwargs):
        samples = []
        for _ in range(3):  # the flight is on a copy: the same end state each time
            hands_off_module._FLOWN.clear()
            t = time.perf_counter()
            result = real(ac, sc, *args, **kwargs)
            samples.append(time.perf_counter() - t)
        timings[sc.id] = statistics.median(samples) * 1000
        t = time.perf_counter()
        real(ac, sc, *args, **kwargs)
        kept[sc.id] = (time.perf_counter() - t) * 1000
        return result

    scenarios = [load(f) for f in sorted((ROOT / "scenarios").glob("*/*.yaml"))]
    profile = load_profile("benchmark")

    async def fly_all() -> None:
        with reusing_agent_threads():
            for sc in scenarios:
                await run_episode(sc, ScriptedProvider(), profile=profile, path=None)

    anchors = [anchor_s() * 1000]
    episode_module.hands_off = timed
    try:
        anyio.run(fly_all)
    finally:
        episode_module.hands_off = real
    anchors.append(anchor_s() * 1000)
    anchor = statistics.median(anchors)
    ms = sorted(timings.values())
    worst = max(timings, key=timings.__getitem__)
    print(f"load average {os.getloadavg()[0]:.1f}; anchor ({ANCHOR_LABEL}) {anchor:.1f} ms")
    print(f"hands-off flight of a passing end, {len(ms)} of {len(scenarios)} scenarios: median {statistics.median(ms):.1f} ms "
          f"({statistics.median(ms) / anchor:.2f}x the anchor), 90th percentile {ms[int(0.9 * (len(ms) - 1))]:.1f} ms, "
          f"worst {ms[-1]:.1f} ms ({ms[-1] / anchor:.2f}x, {worst})")
    again = sorted(kept.values())
    print(f"the same verdict again, kept by the end state: median {statistics.median(again):.2f} ms, "
          f"worst {again[-1]:.2f} ms ({again[-1] / anchor:.3f}x the anchor)")


if __name__ == "__main__":
    main()
