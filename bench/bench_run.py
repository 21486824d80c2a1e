"""Episode-loop costs: per agent step, per episode, batch scaling and memory.

    python bench/bench_run.py [--quick | --batch]

First-round targets (docs/architecture.md "Performance targets" has the current ones):
an agent step (scripted provider, in-memory MCP,
trajectory written) <= 0.5 ms; fixed cost per episode beyond the simulator's
setup <= 10 ms; with a fake model of fixed latency L, W workers finish T
episodes within 1.15x of T*L*steps/W; one live episode <= 5 MB; `run
--workers 64` (scripted) peaks below 1 GB RSS.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import anyio

import a320bench.server.episode as episode_module
from a320bench.bridge.agent_thread import reusing_agent_threads
from a320bench.bridge.providers.scripted import ScriptedProvider
from a320bench.bridge.inprocess_episode import run_episode
from a320bench.server.scenario.harness import prepare
from a320bench.server.scenario.loader import load
from a320bench.server.surface.profiles import load_profile

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "scenarios" / "elec" / "gen1_fault_reset_fails.yaml"


class LatencyProvider(ScriptedProvider):
    """The scripted procedure, with a fixed think time before every tool call."""

    name = "latency"

    def __init__(self, latency_s: float):
        super().__init__()
        self.latency_s = latency_s

    def for_episode(self, scenario, run_index):
        return _Slow(super().for_episode(scenario, run_index), self.latency_s)


class _Slow:
    def __init__(self, inner, latency_s: float):
        self.inner, self.latency_s = inner, latency_s

    async def run(self, view):
        return await self.inner.run(dataclasses.replace(view, tools=_SlowTools(view.tools, self.latency_s)))


class _SlowTools:
    def __init__(self, tools, latency_s: float):
        self.tools, self.latency_s = tools, latency_s

    def __getattr__(self, name):  # everything but call() as the real tools (list, over, read_resource...)
        return getattr(self.tools, name)

    async def call(self, name, args=None):
        await anyio.sleep(self.latency_s)
        return await self.tools.call(name, args)


async def episodes(n: int, provider, out: Path | None, workers: int = 1) -> tuple[float, int, float]:
    """(wall seconds, tool calls, process CPU seconds) of n episodes."""
    sc = load(SCENARIO)
    profile = load_profile("benchmark")
    limiter = anyio.CapacityLimiter(workers)
    calls = 0

    async def one(i: int) -> None:
        nonlocal calls
        async with limiter:
            path = out / f"{i}.jsonl" if out else None
            res = await run_episode(sc, provider, profile=profile, path=path, run_index=i)
            if res.error is not None:  # a broken bench must say why, not time a harness error
                raise SystemExit(f"episode {i}: {res.error}")
            calls += res.final["tool_calls_used"]

    t, cpu = time.perf_counter(), time.process_time()
    with reusing_agent_threads():  # as `run` flies its episodes
        async with anyio.create_task_group() as tg:
            for i in range(n):
                tg.start_soon(one, i)
    return time.perf_counter() - t, calls, time.process_time() - cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="the agent step and the fixed cost only")
    ap.add_argument("--batch", action="store_true", help="the batches only")
    a = ap.parse_args()
    sc = load(SCENARIO)
    if not a.batch:
        step_and_fixed(sc)
    if not a.quick:
        batches()
    if not (a.quick or a.batch):
        memory(sc)


class _HandsOffClock:
    """The CPU the final verdicts spend flying a passing end on hands off (server/scenario/hands_off.py):
    the scripted episodes pass and pay it, the noop ones fail and do not, so it is taken out of the
    step and shown on its own line."""

    def __init__(self) -> None:
        self.cpu, self.count, self._real = 0.0, 0, episode_module.hands_off

    def __enter__(self) -> _HandsOffClock:
        def timed(*args, **kwargs):
            c = time.process_time()
            try:
                return self._real(*args, **kwargs)
            finally:
                self.cpu += time.process_time() - c
                self.count += 1

        episode_module.hands_off = timed
        return self

    def __exit__(self, *exc) -> None:
        episode_module.hands_off = self._real


def step_and_fixed(sc) -> None:
    prepare(sc)  # build and cache the start state once
    setup = statistics.median(_time(lambda: prepare(sc)) for _ in range(50))
    with tempfile.TemporaryDirectory() as d:
        anyio.run(episodes, 20, ScriptedProvider(), Path(d))  # warm up
        n = 200
        with _HandsOffClock() as hands_off:
            wall, calls, cpu = anyio.run(episodes, n, ScriptedProvider(), Path(d))
        whole = wall / n
        wall, cpu = wall - hands_off.cpu, cpu - hands_off.cpu
    steps_per_episode = calls / n
    # Separate fixed cost from per-step cost with a second, shorter procedure (noop: 2 calls).
    from a320bench.bridge.providers.noop import NoopProvider

    with tempfile.TemporaryDirectory() as d:
        wall_noop, calls_noop, cpu_noop = anyio.run(episodes, n, NoopProvider(), Path(d))
    step = (wall - wall_noop) / (calls - calls_noop)
    fixed = wall_noop / n - setup - step * calls_noop / n
    # CPU time too: on a loaded machine the wall figures include waiting for a core.
    step_cpu = (cpu - cpu_noop) / (calls - calls_noop)
    fixed_cpu = cpu_noop / n - setup - step_cpu * calls_noop / n
    print(f"scenario: {SCENARIO.relative_to(ROOT)} ({steps_per_episode:.0f} tool calls per scripted episode); "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"  setup + injection + gate (simulator):    {setup * 1000:7.2f} ms")
    print(f"  agent step (in-memory MCP, trajectory):  {step * 1000:7.3f} ms wall, {step_cpu * 1000:7.3f} ms CPU   "
          f"target <= 0.5 ms")
    print(f"  fixed cost per episode beyond setup:     {fixed * 1000:7.2f} ms wall, {fixed_cpu * 1000:7.2f} ms CPU   "
          f"target <= 10 ms")
    print(f"  whole scripted episode:                  {whole * 1000:7.2f} ms")
    print(f"  the final verdict's hands-off flight:    {hands_off.cpu / max(hands_off.count, 1) * 1000:7.2f} ms CPU "
          f"per passing episode ({hands_off.count} of {n}, one end state: flown once, then kept; outside the "
          f"step and fixed figures above)")


def batches() -> None:
    # Untimed first: the episode code's imports and the scenario's first setup (~0.3 s, most of a 1 s
    # batch) are the start of a run, which `run` pays before its first episode (worker.py
    # _load_episode_code), not a cost of the batch. The batch's own agent threads are still started
    # inside the timed part, as `run` starts them.
    anyio.run(episodes, 8, LatencyProvider(0.0), None, 8)
    for latency, workers, total in ((0.05, 8, 32), (0.2, 16, 64)):
        wall, calls, _ = anyio.run(episodes, total, LatencyProvider(latency), None, workers)
        ideal = total * latency * (calls / total) / workers
        print(f"batch: {total} episodes, {workers} workers, fake model latency {latency * 1000:.0f} ms per step: "
              f"wall {wall:.2f} s vs ideal {ideal:.2f} s, ratio {wall / ideal:.3f}   target <= 1.15")


def memory(sc) -> None:
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    live = []

    async def hold() -> None:
        from mcp import Client

        from a320bench.server.session import open_episode
        from a320bench.server.surface.factory import create_server
        from a320bench.server.trajectory import Recorder

        profile = load_profile("benchmark")
        for _ in range(10):
            rec = Recorder(None)
            ep = open_episode(sc, rec, profile="benchmark", tools=list(profile.tools), instructions=profile.instructions)
            srv = create_server(ep, profile)
            async with Client(srv) as c:
                await c.call_tool("read_ecam", {})
            live.append((rec, ep, srv))

    anyio.run(hold)
    gc.collect()
    after = tracemalloc.take_snapshot()
    grown = sum(s.size_diff for s in after.compare_to(before, "filename"))
    tracemalloc.stop()
    print(f"memory: one live episode (aircraft, server, recorder): {grown / len(live) / 1e6:.2f} MB   target <= 5 MB")

    with tempfile.TemporaryDirectory() as d:
        cmd = [sys.executable, "-m", "a320bench", "run", "--scenario", str(ROOT / "scenarios"), "--runs", "4",
               "--workers", "64", "--out", d, "--no-progress"]
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - t
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"run --workers 64 --runs 4 over the catalogue (scripted): {wall:.1f} s, peak RSS {peak_mb:.0f} MB   "
          f"target < 1024 MB")


def _time(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


if __name__ == "__main__":
    main()
