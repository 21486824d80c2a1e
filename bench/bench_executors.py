"""Executors: every core for CPU-bound episodes, a model's latency overlapped, Ray's cost per episode.

    python bench/bench_executors.py [--quick] [--no-ray]

Each figure is a ratio against an anchor measured in the same run (docs/architecture.md
"Performance targets"; issue 14 item 2):

  cores    the scripted catalogue with --runs 5, `run --workers 2` against `--workers 1`
           (wall time of the whole command, best of two interleaved runs each):
           target >= 1.7x on 2 cores; beside it the CPU of all the command's processes, which
           shows work done twice (a scenario's first setup in both workers) whatever the load
  latency  a litellm model behind a fake OpenAI server that answers every request after
           200 ms, 16 workers, T episodes of S model calls each: the batch (first episode's
           start to last episode's end, from the trajectories) against the ideal T*L*S/W:
           target <= 1.15x; the same batch in the driver's own loop is the anchor. Twice: with a
           model id litellm has a price for (as a researcher runs) and with one it has none for
  ray      the scripted catalogue (--runs 2) with the local executor and with Ray on a local
           cluster of this machine's cores: episodes per second of the batch, the Ray overhead
           per episode, and the cluster's start

Prints the load average first: the figures mean something on a quiet machine only.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GEN1 = ROOT / "scenarios" / "elec" / "gen1_fault_reset_fails.yaml"
PROCEDURE = [("read_ecam", {}), ("set_control", {"control": "GEN 1", "position": "OFF"}),
             ("set_control", {"control": "GEN 1", "position": "ON"}),
             ("set_control", {"control": "GEN 1", "position": "OFF"}),
             ("report_done", {"diagnosis": "GEN 1 fault", "actions_summary": "GEN 1 off, on, off"})]


def run(*args: str, env: dict[str, str] | None = None) -> float:
    """Wall seconds of `a320-bench ARGS` (it must succeed)."""
    return run_with_cpu(*args, env=env)[0]


def run_with_cpu(*args: str, env: dict[str, str] | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the command and its worker processes) of `a320-bench ARGS`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "a320bench", *args, "--no-progress"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, **(env or {})})
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def batch_span(out: Path) -> tuple[float, int]:
    """(seconds from the first episode's meta to the last episode's final, episodes) of a run folder."""
    starts, ends = [], []
    for f in out.rglob("*.jsonl"):
        lines = f.read_text().splitlines()
        starts.append(datetime.fromisoformat(json.loads(lines[0])["ts"]))
        ends.append(datetime.fromisoformat(json.loads(lines[-1])["ts"]))
    return (max(ends) - min(starts)).total_seconds(), len(starts)


def cores(runs: int) -> None:
    times: dict[int, list[float]] = {1: [], 2: []}
    cpu: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(2):
        for workers in (1, 2):
            with tempfile.TemporaryDirectory() as d:
                wall, used = run_with_cpu("run", "--runs", str(runs), "--workers", str(workers), "--out", d)
                times[workers].append(wall)
                cpu[workers].append(used)
    one, two = min(times[1]), min(times[2])
    print(f"cores: scripted catalogue --runs {runs}: --workers 1 {one:.1f} s, --workers 2 {two:.1f} s: "
          f"{one / two:.2f}x   target >= 1.7x on 2 cores")
    # Work done twice (a setup paid in both workers) shows here whatever the load: the CPU of every process.
    print(f"       CPU of all processes: --workers 1 {min(cpu[1]):.1f} s, --workers 2 {min(cpu[2]):.1f} s: "
          f"{min(cpu[2]) / min(cpu[1]):.2f}x the work")


class _FakeModel(ThreadingHTTPServer):
    """Answers every chat completion after `latency_s` with the next step of PROCEDURE (by the number of
    tool results the conversation already holds)."""

    daemon_threads = True
    request_queue_size = 128  # 16 clients connect at once: socketserver's backlog of 5 would drop SYNs (1 s retries)

    def __init__(self, latency_s: float):
        self.latency_s = latency_s
        super().__init__(("127.0.0.1", 0), _Handler)


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *a) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
        time.sleep(self.server.latency_s)
        step = sum(1 for m in body["messages"] if m.get("role") == "tool")
        name, args = PROCEDURE[min(step, len(PROCEDURE) - 1)]
        message = {"role": "assistant", "content": None, "tool_calls": [
            {"id": f"call_{step}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]}
        payload = json.dumps({"id": "x", "object": "chat.completion", "created": 1700000000, "model": body["model"],
                              "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
                              "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


# A model litellm has a price for, as a researcher runs one (litellm finds it in its bundled
# map), and one it has none for (a self-hosted model's name): litellm then searches its map for
# a lookalike on every call, about 3 ms more CPU per call on this machine (4 of 9.5 ms).
PRICED_MODEL, UNPRICED_MODEL = "openai/gpt-4o-mini", "openai/bench-model"


def latency(episodes: int, workers: int = 16, latency_s: float = 0.2) -> None:
    server = _FakeModel(latency_s)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    steps = len(PROCEDURE)
    ideal = episodes * latency_s * steps / workers
    try:
        for model in (PRICED_MODEL, UNPRICED_MODEL):
            spans = {}
            for processes in ("1", ""):  # the driver's own loop (the anchor), then the worker processes
                with tempfile.TemporaryDirectory() as d:
                    env_file = Path(d) / "creds.env"
                    env_file.write_text("OPENAI_API_KEY=sk-bench-0123456789\n")
                    out = Path(d) / "out"
                    wall = run("run", "--scenario", str(GEN1), "--runs", str(episodes), "--workers", str(workers),
                               "--model", model, "--env-file", str(env_file),
                               "--sampling", json.dumps({"api_base": url}), "--out", str(out),
                               env={"A320_BENCH_WORKER_PROCESSES": processes})
                    spans[processes], _ = batch_span(out)
            one, pool = spans["1"], spans[""]
            print(f"latency ({model}): {episodes} litellm episodes x {steps} model calls, {workers} workers, "
                  f"{latency_s * 1000:.0f} ms per call: batch {pool:.2f} s vs ideal {ideal:.2f} s: {pool / ideal:.3f}x"
                  f"   target <= 1.15x (in one process: {one:.2f} s, {one / ideal:.3f}x; whole command {wall:.1f} s, "
                  f"imports included)")
    finally:
        server.shutdown()


def ray_vs_local(runs: int) -> None:
    with tempfile.TemporaryDirectory() as d:
        local_wall = run("run", "--runs", str(runs), "--workers", "2", "--out", f"{d}/local")
        local_span, n = batch_span(Path(d) / "local")
        ray_wall = run("run", "--runs", str(runs), "--workers", "2", "--executor", "ray", "--out", f"{d}/ray",
                       env={"RAY_AUTH_MODE": "disabled", "TMPDIR": d})
        ray_span, _ = batch_span(Path(d) / "ray")
    print(f"ray: scripted catalogue --runs {runs} ({n} episodes), 2 workers: local executor {n / local_span:.1f} "
          f"episodes/s, Ray local mode {n / ray_span:.1f} episodes/s (batch); Ray overhead "
          f"{(ray_span - local_span) / n * 1000:.1f} ms per episode; whole command {local_wall:.1f} s vs "
          f"{ray_wall:.1f} s (the cluster's start: {ray_wall - ray_span - (local_wall - local_span):.1f} s)")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--quick", action="store_true", help="smaller batches (a smoke test, not the figures)")
    p.add_argument("--no-ray", action="store_true")
    args = p.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}, "
          f"{os.cpu_count()} cores")
    cores(1 if args.quick else 5)
    latency(32 if args.quick else 128)
    if not args.no_ray:
        ray_vs_local(1 if args.quick else 2)


if __name__ == "__main__":
    main()
