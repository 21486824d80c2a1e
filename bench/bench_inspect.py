"""Side by side with Inspect AI 0.3.285: the same agent work through our harness and through Inspect.

    python bench/bench_inspect.py [--episodes 20] [--short 4] [--long 44] [--rounds 3] [--peer-python PY]

Both sides fly K episodes in which a scripted model calls a read tool N times, then stops:
ours, `run_episode` on the ELEC GEN 1 scenario with a provider that calls `read_ecam` N
times and then `report_done` (in-memory MCP, budget, recording, trajectory written);
Inspect, `eval()` of a task whose solver is `use_tools(read_ecam) + generate()` with the
`mockllm` model answering with a tool call until N tool results are in the conversation,
its tool returning the same ECAM read-out as JSON (eval log written). Each side is timed
in its own process at N = short and N = long, interleaved over rounds (medians), so the
per-step cost is (T_long - T_short) / (K * (long - short)) and the fixed cost per episode
is T_short / K - short * step. Targets (docs/architecture.md): per step <= 0.1x Inspect,
fixed cost per episode <= 0.5x. Ours flies as `run` does, its harness and agent threads held on one
CPU (bridge/cpu_affinity.py); `A320_BENCH_NO_CPU_PIN=1` shows it free.

The peer is installed, pinned, into its own virtual environment under .cache/ the first
time (`--peer-python` uses an interpreter that already has inspect_ai 0.3.285).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PEER_VERSION = "0.3.285"
PEER_VENV = ROOT / ".cache" / f"inspect-ai-{PEER_VERSION}"

OURS = """
import gc, json, sys, tempfile, time
from pathlib import Path
import anyio
from a320bench.bridge.agent_thread import reusing_agent_threads
from a320bench.bridge.inprocess_episode import run_episode
from a320bench.server.scenario.loader import load
from a320bench.server.scenario.model import Budget
from a320bench.server.surface.profiles import load_profile

scenario_file, n, k = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
sc = load(scenario_file)
sc = sc.model_copy(update={"budget": Budget(max_tool_calls=n + 10, max_sim_time_s=3600)})
profile = load_profile("benchmark")


class Reads:
    name, model = "reads", None

    def meta(self):
        return {}

    async def run(self, view):
        for _ in range(n):
            await view.tools.call("read_ecam")
        await view.tools.call("report_done", {"diagnosis": "x", "actions_summary": "y"})


async def main():
    with tempfile.TemporaryDirectory() as d, reusing_agent_threads():  # as `run` flies its episodes
        await run_episode(sc, Reads(), profile=profile, path=Path(d) / "warm.jsonl")
        gc.freeze()  # as run does once the episode code is loaded (bridge/executors)
        t, c = time.perf_counter(), time.process_time()
        for i in range(k):
            await run_episode(sc, Reads(), profile=profile, path=Path(d) / f"{i}.jsonl", run_index=i)
        print(json.dumps({"seconds": time.perf_counter() - t, "cpu": time.process_time() - c}))

anyio.run(main)
"""

PEER = """
import json, sys, tempfile, time
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.solver import generate, use_tools
from inspect_ai.tool import tool

payload, n, k = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])


@tool
def read_ecam():
    async def execute() -> str:
        \"\"\"Read the ECAM.\"\"\"
        return payload
    return execute


def outputs(input, tools, tool_choice, config):
    done = sum(1 for m in input if m.role == "tool")
    if done < n:
        out = ModelOutput.for_tool_call("mockllm/model", "read_ecam", {})
    else:
        out = ModelOutput.from_content("mockllm/model", "done")
    out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # else mockllm counts with tiktoken
    return out


def run(samples, log_dir):
    task = Task(dataset=[Sample(input="Handle the ECAM.") for _ in range(samples)],
                solver=[use_tools(read_ecam()), generate()])
    logs = eval(task, model=get_model("mockllm/model", custom_outputs=outputs), log_dir=log_dir,
                display="none")
    assert logs[0].status == "success", logs[0].status

with tempfile.TemporaryDirectory() as d:
    run(1, d)  # warm: imports, first-call paths
    t, c = time.perf_counter(), time.process_time()
    run(k, d)
    print(json.dumps({"seconds": time.perf_counter() - t, "cpu": time.process_time() - c}))
"""


def peer_python(given: str | None) -> str:
    if given:
        return given
    py = PEER_VENV / "bin" / "python"
    if not py.exists():
        print(f"installing inspect_ai=={PEER_VERSION} into {PEER_VENV.relative_to(ROOT)} (once)", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(PEER_VENV)], check=True)
        subprocess.run([str(py), "-m", "pip", "install", "-q", f"inspect_ai=={PEER_VERSION}"], check=True)
    return str(py)


def seconds(cmd: list[str]) -> dict[str, float]:
    """{"seconds": wall, "cpu": process CPU time} of the timed part of one side's run."""
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=tempfile.gettempdir())
    if proc.returncode != 0:
        raise SystemExit(f"{cmd[0]} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def ecam_payload(scenario: Path) -> str:
    """Our read_ecam result on this scenario, as the JSON text Inspect's tool returns."""
    from a320bench.server.scenario.harness import prepare
    from a320bench.server.scenario.loader import load

    ac, _ = prepare(load(scenario))
    return json.dumps(ac.read_ecam())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--episodes", type=int, default=20, help="episodes (samples) per timing, K")
    ap.add_argument("--short", type=int, default=4, help="tool calls per episode, short run")
    ap.add_argument("--long", type=int, default=44, help="tool calls per episode, long run")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds (medians)")
    ap.add_argument("--peer-python", help="an interpreter that has inspect_ai 0.3.285 (default: .cache venv)")
    a = ap.parse_args()
    scenario = ROOT / "scenarios" / "elec" / "gen1_fault_reset_fails.yaml"
    peer = peer_python(a.peer_python)
    payload = ecam_payload(scenario)
    k = a.episodes
    runs: dict[tuple[str, int], list[dict[str, float]]] = {}
    for _ in range(a.rounds):
        for n in (a.short, a.long):
            runs.setdefault(("ours", n), []).append(
                seconds([sys.executable, "-c", OURS, str(scenario), str(n), str(k)]))
            runs.setdefault(("inspect", n), []).append(seconds([peer, "-c", PEER, payload, str(n), str(k)]))
    print(f"{k} episodes per timing, {a.short} and {a.long} read calls each, medians of {a.rounds} interleaved "
          f"rounds; load average {os.getloadavg()[0]:.1f}")
    # Wall time, and process CPU time: on a loaded machine a CPU-bound side waits for a core
    # more than one that mostly waits on its event loop, so CPU is the fairer of the two there.
    for measure in ("seconds", "cpu"):
        med = {key: statistics.median(r[measure] for r in v) for key, v in runs.items()}
        result = {}
        for side in ("ours", "inspect"):
            step = (med[side, a.long] - med[side, a.short]) / (k * (a.long - a.short))
            fixed = med[side, a.short] / k - a.short * step
            result[side] = (step, fixed)
            print(f"  {'wall' if measure == 'seconds' else 'CPU':<5}{side:<8} per step {step * 1000:8.3f} ms   "
                  f"fixed per episode {fixed * 1000:8.2f} ms   ({med[side, a.short]:.2f} s / {med[side, a.long]:.2f} s)")
        step_ratio = result["ours"][0] / result["inspect"][0]
        fixed_ratio = result["ours"][1] / result["inspect"][1]
        print(f"  ours / Inspect ({'wall' if measure == 'seconds' else 'CPU'}): per step {step_ratio:.2f}x (target "
              f"<= 0.1x: {'ok' if step_ratio <= 0.1 else 'OVER'}), fixed per episode {fixed_ratio:.2f}x (target "
              f"<= 0.5x: {'ok' if fixed_ratio <= 0.5 else 'OVER'})")

if __name__ == "__main__":
    main()
