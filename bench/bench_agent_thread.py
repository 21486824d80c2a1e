"""The in-process agent's tool call: through its own thread and a socket (run's path) vs in-memory.

    python bench/bench_agent_thread.py [--calls 2000]

An in-process agent runs on its own thread and event loop and reaches the episode's server,
on run's loop, over a socket pair carrying JSON-RPC lines (bridge/agent_thread.py). This
measures what that hop costs per tool call. From inside a real episode's agent, call by call
in turn (so background load hits all alike), median round trips of:

  bare     a bare `MCPServer` echo tool, in-memory on the agent's loop (the anchor);
  direct   `read_ecam` on our server in-memory on the agent's loop (the path before the thread);
  agent    `read_ecam` through the agent's own tools, i.e. the thread hop (run's path).

All three use the legacy JSON-RPC session; ratios are against `bare` measured in the same run.
Twice, in alternating runs of episodes: as `run` flies them, its harness thread and agent thread
held on one CPU (bridge/cpu_affinity.py), and free (A320_BENCH_NO_CPU_PIN=1).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_mcp import SCENARIO, bare_server, our_server  # noqa: E402


class Timer:
    """An agent that times its tool calls against two in-memory servers on its own loop."""

    name, model = "bench", None

    def __init__(self) -> None:
        self.calls = 0
        self.times: dict[str, list[float]] = {"bare": [], "direct": [], "agent": []}

    def meta(self) -> dict[str, Any]:
        return {}

    async def run(self, view: Any) -> None:
        from mcp import Client

        async def timed(kind: str, call: Any, *args: Any) -> None:
            t = time.perf_counter()
            res = await call(*args)
            self.times[kind].append(time.perf_counter() - t)
            assert not getattr(res, "is_error", False), res

        async with Client(bare_server(), mode="legacy") as bare, \
                Client(our_server(), mode="legacy", cache=None) as direct:
            for _ in range(WARM_UP):  # caches, validators, first-call paths
                await bare.call_tool("echo", {"text": "hello"})
                await direct.call_tool("read_ecam", {})
                await view.tools.call("read_ecam")
            # In blocks, not call by call: a call through the thread that overlaps the in-memory servers'
            # leftover work on this loop waits for the interpreter lock, which a real agent awaiting its
            # tools does not.
            for done in range(0, self.calls, BLOCK):
                n = min(BLOCK, self.calls - done)
                for _ in range(n):
                    await timed("bare", bare.call_tool, "echo", {"text": "hello"})
                for _ in range(n):
                    await timed("direct", direct.call_tool, "read_ecam", {})
                await anyio.sleep(0.001)
                for _ in range(n):
                    await timed("agent", view.tools.call, "read_ecam")


WARM_UP = 30
BLOCK = 50
PER_EPISODE = 300  # a fresh run of one episode every 300 calls, pinned and free in turn (budget: 1,000)


async def measure(calls: int) -> dict[str, dict[str, float]]:
    from a320bench.bridge.agent_thread import reusing_agent_threads
    from a320bench.bridge.cpu_affinity import OPT_OUT_ENV
    from a320bench.bridge.inprocess_episode import run_episode
    from a320bench.server.scenario.loader import load
    from a320bench.server.scenario.model import Budget
    from a320bench.server.surface import load_profile

    sc = load(SCENARIO).model_copy(update={"budget": Budget(max_tool_calls=1000, max_sim_time_s=3600)})
    timers = {"pinned": Timer(), "free": Timer()}
    opted_out = os.environ.get(OPT_OUT_ENV)
    try:
        rounds = 0
        while any(len(t.times["agent"]) < calls for t in timers.values()):
            # Alternating which goes first, so that a change of load hits both alike.
            for mode in ("pinned", "free") if rounds % 2 == 0 else ("free", "pinned"):
                timer = timers[mode]
                if mode == "free":
                    os.environ[OPT_OUT_ENV] = "1"
                else:
                    os.environ.pop(OPT_OUT_ENV, None)
                with reusing_agent_threads():  # as `run` flies its episodes
                    timer.calls = min(PER_EPISODE, calls - len(timer.times["agent"]))
                    if timer.calls > 0:
                        res = await run_episode(sc, timer, profile=load_profile("benchmark"), path=None)
                        assert res.error is None, res.error
            rounds += 1
    finally:
        if opted_out is None:
            os.environ.pop(OPT_OUT_ENV, None)
        else:
            os.environ[OPT_OUT_ENV] = opted_out
    return {mode: {k: statistics.median(v) for k, v in timer.times.items()} for mode, timer in timers.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=2000, help="round trips of each kind, pinned and free")
    a = ap.parse_args()
    both = anyio.run(measure, a.calls)
    print(f"load average {os.getloadavg()[0]:.1f}")
    for mode, label in (("pinned", "held on one CPU (as run flies)"), ("free", "free (A320_BENCH_NO_CPU_PIN=1)")):
        t = both[mode]
        print(f"{'tool call round trip (median), ' + label:<68}{'us':>9}{'vs bare':>9}")
        for kind, what in (("bare", "bare echo, in-memory (anchor)"), ("direct", "read_ecam, in-memory on the agent's loop"),
                           ("agent", "read_ecam, agent thread -> socket -> run")):
            print(f"  {what:<66}{t[kind] * 1e6:>9.1f}{t[kind] / t['bare']:>8.2f}x")
        print(f"  the thread hop adds {(t['agent'] - t['direct']) * 1e6:.1f} us a call "
              f"({t['agent'] / t['direct']:.2f}x the in-memory path)")


if __name__ == "__main__":
    main()
