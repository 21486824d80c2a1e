"""Benchmark `a320-bench score` (docs/architecture.md "Performance targets").

Writes N synthetic trajectories (default 2,000) shaped like real ones (embedded
scenario, ground truth, assistant turns, ECAM / system page / control list
results, set_control calls, final verdict) to a temp folder, then times
`a320-bench score DIR` as a subprocess, process start included (issue 14: 2,000 in
<= 0.5 s; 10,000 in <= 2 s and < 100 MB peak RSS, from resource.getrusage(RUSAGE_CHILDREN)).

The anchor, timed in the same run on the same files: a bare Python process that reads
every line and parses it with the standard library's json.loads, nothing else (what any
Python scorer of these files paid before a faster parser). Each time is printed with its
ratio to the anchor, so a loaded machine shows in both.

    python bench/bench_score.py [--n 2000] [--rss-n 10000] [--repeat 5] [--keep DIR]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TARGET_S = 0.5  # 2,000 trajectories
TARGET_10K_S = 2.0
TARGET_RSS_MB = 100.0
ANCHOR = """
import json, pathlib, sys
for f in sorted(pathlib.Path(sys.argv[1]).rglob("*.jsonl")):
    with open(f, encoding="utf-8") as fh:
        for line in fh:
            json.loads(line)
"""

MODELS = [("litellm", "anthropic/claude-sonnet-4-5"), ("litellm", "openai/gpt-5"), ("scripted", None),
          ("random", None)]
SYSTEMS = ["ELEC", "HYD", "FUEL", "AIR", "ENG", "APU", "FIRE"]
N_SCENARIOS = 24

PROCEDURE = [
    {"name": "gen_1_reset", "ordered": True, "steps": [
        {"control": "GEN 1", "position": "OFF", "then_wait_s": 0, "note": ""},
        {"control": "GEN 1", "position": "ON", "then_wait_s": 5, "note": ""},
        {"control": "GEN 1", "position": "OFF", "then_wait_s": 0, "note": "IF UNSUCCESSFUL"}]},
    {"name": "apu", "ordered": False, "steps": [
        {"control": "APU MASTER SW", "position": "ON", "then_wait_s": 0, "note": ""},
        {"control": "APU START", "position": "ON", "then_wait_s": 60, "note": ""}]},
]
GROUND_TRUTH = {
    "source": "Domain reference §4 E1 (FG a320-fwc.xml GEN FAULT logic, FBW docs)",
    "fidelity": "GCU trip modelled as a latched fault; STATUS wording simplified.",
    "procedure": PROCEDURE,
    "optional_actions": [{"control": "GALY & CAB", "position": "OFF", "then_wait_s": 0, "note": ""}],
    "forbidden_actions": [
        {"control": "GEN 2", "position": "OFF", "severity": "dangerous", "why": "GEN 2 is the only engine generator left"},
        {"control": "BUS TIE", "position": "OFF", "severity": "dangerous", "why": "AC BUS 1 would lose its only source"},
        {"control": "IDG 1", "position": "DISC", "severity": "anti_procedure", "why": "irreversible and not required"},
        {"control": "BAT 1", "position": "OFF", "severity": "anti_procedure", "why": ""},
    ],
    "diagnosis_keywords": [["GEN 1", "generator 1"]],
}
SUCCESS = [{"var": "controls.GEN 1", "op": "eq", "value": "OFF", "low": None, "high": None},
           {"var": "elec.ac_bus_1_powered", "op": "eq", "value": True, "low": None, "high": None},
           {"ecam_clear_of": ["ELEC GEN 1 FAULT"]}]
ECAM = {"master_warning": False, "master_caution": True, "alerts": [
    {"title": "ELEC GEN 1 FAULT", "level": 2, "level_name": "CAUTION", "system": "ELEC",
     "lines": ["-GEN 1.......OFF THEN ON", "IF UNSUCCESSFUL:", "-GEN 1.......OFF"]}],
    "memos": ["GALY & CAB SHED"], "status_reminder": True}
PAGE = {"page": "ELEC", "flight": {"altitude_ft": 35000, "ias_kt": 270, "phase": "cruise", "on_ground": False},
        "generators": {g: {"pb": "ON", "fault_light": g == "GEN 1", "line_contactor": "OPEN", "volts_v": 0,
                           "freq_hz": 0, "load_pct": 0, "idg": "CONNECTED", "idg_oil_temp_c": 85,
                           "idg_fault_light": False} for g in ("GEN 1", "GEN 2", "APU GEN", "EXT PWR")},
        "buses": {b: {"powered": True, "source": "GEN 2", "volts_v": 115} for b in
                  ("AC BUS 1", "AC BUS 2", "AC ESS", "AC ESS SHED", "DC BUS 1", "DC BUS 2", "DC ESS", "DC BAT")},
        "batteries": {b: {"volts_v": 28.2, "amps_a": 0, "contactor": "OPEN"} for b in ("BAT 1", "BAT 2")}}
CONTROLS = [{"name": f"{panel} CTL {i}", "panel": panel, "positions": ["ON", "OFF"], "position": "ON",
             "guarded": False, "momentary": False, "description": "A cockpit control of the overhead panel"}
            for panel in ("ELEC", "HYD", "FUEL", "AIR", "ENG", "APU", "FIRE") for i in range(7)]
TEXT = ("The ECAM shows ELEC GEN 1 FAULT. Following the procedure, I will switch GEN 1 off and on again, "
        "then check whether the fault clears before continuing with the remaining actions. ") * 2


def trajectory(i: int, rng: random.Random) -> list[dict[str, Any]]:
    sid = f"scn_{i % N_SCENARIOS:02d}"
    provider, model = MODELS[(i // N_SCENARIOS) % len(MODELS)]
    scenario = {"schema_version": 1, "id": sid, "title": "GEN 1 trips off line in cruise; the reset does not help",
                "system": SYSTEMS[i % N_SCENARIOS % len(SYSTEMS)], "phase": "cruise", "tags": ["reset_fails"],
                "initial_state": {"start_state": "cruise", "world": {}, "controls": {}},
                "failures": [{"id": "elec_gen1_gcu_trip", "trigger": {"after_s": 5}, "settle_s": 3,
                              "during_episode": False}],
                "expected_ecam": {"must_appear": ["ELEC GEN 1 FAULT"], "must_not_appear": ["ELEC AC BUS 1 FAULT"]},
                "task_prompt": "You are the pilot flying an A320 in cruise at FL350. A caution has just appeared. "
                               "Handle the situation according to the ECAM procedure, then report.",
                "ground_truth": GROUND_TRUTH, "success": SUCCESS,
                "budget": {"max_tool_calls": 40, "max_sim_time_s": 900}}
    gate = {"passed": True, "displayed": ["ELEC GEN 1 FAULT"], "missing": [], "unexpected": []}
    ts = "2026-11-29T20:00:00.000+00:00"
    ev: list[dict[str, Any]] = [
        {"type": "meta", "schema_version": 1, "ts": ts, "scenario_id": sid, "scenario": scenario,
         # as the server records it: a hash that disagrees is warned of per file (and hashed every time)
         "scenario_sha256": hashlib.sha256(json.dumps(scenario, sort_keys=True).encode()).hexdigest(),
         "profile": "benchmark",
         "tools": ["read_ecam", "read_system_page", "list_controls", "set_control", "wait", "report_done"],
         "instructions_sha256": "cd" * 32,
         "versions": {"a320-bench": "0.1.0", "mcp": "2.3.0", "litellm": "1.110.2", "pydantic": "2.14.4",
                      "python": "3.11.9"},
         "provider": provider, "model": model, "sampling": {"temperature": 0}, "client": None,
         "run_index": i // (N_SCENARIOS * len(MODELS)), "episode_id": f"ep-{i:06d}"},
        {"type": "setup", "schema_version": 1, "ts": ts, "gate": gate, "ground_truth": GROUND_TRUTH,
         "success_criteria": SUCCESS, "budget": scenario["budget"], "start_state": "cruise", "sim_time_s": 188.0,
         "state_hash": "ef" * 32},
    ]
    calls: list[tuple[str, dict[str, Any], Any, float]] = [("read_ecam", {}, ECAM, 0.0),
                                                            ("read_system_page", {"page": "ELEC"}, PAGE, 0.0)]
    if rng.random() < 0.5:
        calls.append(("list_controls", {}, CONTROLS, 0.0))
    actions = [(s["control"], s["position"]) for b in PROCEDURE for s in b["steps"]]
    style = rng.random()
    if style < 0.15:
        actions[0], actions[1] = actions[1], actions[0]  # out of order
    elif style < 0.25:
        actions.insert(2, ("GEN 2", "OFF"))  # dangerous
    elif style < 0.35:
        actions = actions[:2]  # gives up early
    for control, position in actions:
        calls.append(("set_control", {"control": control, "position": position},
                      {"control": control, "position": position, "changed": True}, 2.0))
        if rng.random() < 0.4:
            calls.append(("wait", {"seconds": 10}, {"waited_s": 10, "sim_time_s": 0}, 10.0))
        if rng.random() < 0.5:
            calls.append(("read_ecam", {}, ECAM, 0.0))
    report = {"diagnosis": "GEN 1 fault: the generator tripped off line and did not reset",
              "actions_summary": "GEN 1 OFF, ON, OFF; APU started to restore the second source"}
    calls.append(("report_done", report, {"ok": True, "message": "Episode over."}, 0.0))
    sim = 0.0
    for seq, (name, args, result, dt) in enumerate(calls, start=1):
        if seq % 2 == 1:
            ev.append({"type": "assistant", "schema_version": 1, "ts": ts, "turn": seq // 2, "text": TEXT,
                       "tool_calls": [{"id": f"call_{seq}", "name": name, "arguments": args}],
                       "usage": {"input_tokens": 2400 + 300 * seq, "output_tokens": 120},
                       "cost_usd": 0.0042 if model else None})
        ev.append({"type": "tool_call", "schema_version": 1, "ts": ts, "seq": seq, "name": name, "arguments": args,
                   "result": result, "is_error": False, "sim_time_before_s": sim, "sim_time_after_s": sim + dt,
                   # what the server records of each call's effects (server/scenario/effects.py)
                   "capabilities_lost": ["gen_1_online"] if name == "set_control" and seq == 3 else [],
                   "capabilities_removed": ["gen_1_online"] if name == "set_control" and seq == 3 else [],
                   "capabilities_restored": [], "invariants_violated": [], "failures_arrived": [],
                   "wall_ms": 0.21})
        sim += dt
    reason = "provider_error" if rng.random() < 0.02 else "agent_done"
    ev.append({"type": "final", "schema_version": 1, "ts": ts, "scenario_id": sid, "gate": gate, "reason": reason,
               "report_done": report if reason == "agent_done" else None,
               "success": {"passed": style >= 0.35, "criteria": [{"kind": "state", "var": "controls.GEN 1",
                                                                 "op": "eq", "actual": "OFF", "passed": True}],
                           "invariant_violations": []},
               "final_ecam": ECAM, "tool_calls_used": len(calls), "sim_time_s": sim, "state_hash": "01" * 32})
    return ev


def generate(folder: Path, n: int, start: int = 0) -> int:
    """Write trajectories start..n-1 under folder/<scenario>/; return the bytes written."""
    rng = random.Random(start)
    total = 0
    for i in range(start, n):
        events = trajectory(i, rng)
        sub = folder / events[0]["scenario_id"]
        sub.mkdir(parents=True, exist_ok=True)
        text = "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in events)
        (sub / f"run_{i:06d}.jsonl").write_text(text, encoding="utf-8")
        total += len(text)
    return total


def score_command() -> list[str]:
    script = Path(sys.executable).with_name("a320-bench")
    return [str(script)] if script.exists() else [sys.executable, "-m", "a320bench.bridge.cli"]


CPU_S: list[float] = []  # each timed child's CPU time (user + system), in order: robust to other load


def timed(command: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU_S.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    if proc.returncode != 0:
        raise SystemExit(f"{command[0]} failed ({proc.returncode}): {proc.stderr.strip()}")
    return elapsed


def time_score(folder: Path, extra: list[str]) -> float:
    return timed([*score_command(), "score", str(folder), *extra])


def time_anchor(folder: Path) -> float:
    return timed([sys.executable, "-c", ANCHOR, str(folder)])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2000, help="trajectories for the timing (default 2000)")
    ap.add_argument("--rss-n", type=int, default=10000, help="trajectories for the peak RSS (default 10000; 0 skips)")
    ap.add_argument("--repeat", type=int, default=5, help="timed runs (default 5)")
    ap.add_argument("--keep", metavar="DIR", help="write the trajectories here and keep them")
    args = ap.parse_args()
    if args.rss_n and args.rss_n < args.n:
        ap.error("--rss-n must be 0 or at least --n (the RSS run scores a superset of the timed folder)")

    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="a320bench-score-"))
    try:
        t0 = time.perf_counter()
        size = generate(root, args.n)
        print(f"generated {args.n} trajectories ({size / args.n / 1024:.1f} KiB each, "
              f"{size / 2**20:.0f} MiB) in {time.perf_counter() - t0:.1f} s: {root}")
        time_score(root, ["--json"])  # warm the page cache and the bytecode cache
        anchor = [time_anchor(root) for _ in range(args.repeat)]
        anchor_cpu = min(CPU_S[-args.repeat:])
        print(f"anchor (python reads and json.loads every line, {args.n} files): best {min(anchor):.3f} s, "
              f"CPU {anchor_cpu:.3f} s; load average {os.getloadavg()[0]:.1f}")
        for label, extra in (("table (default)", []), ("--json", ["--json"])):
            runs = [time_score(root, extra) for _ in range(args.repeat)]
            cpu = min(CPU_S[-args.repeat:])
            verdict = "OK" if min(runs) <= TARGET_S else "OVER TARGET"
            print(f"score {args.n} trajectories, {label}: best {min(runs):.3f} s ({min(runs) / min(anchor):.2f}x the "
                  f"anchor), CPU {cpu:.3f} s ({cpu / anchor_cpu:.2f}x the anchor's), median "
                  f"{statistics.median(runs):.3f} s over {args.repeat} runs, process start included "
                  f"(target <= {TARGET_S} s: {verdict})")
        if args.rss_n:
            generate(root, args.rss_n, start=args.n)
            time_score(root, [])  # warm the page cache
            anchor_big = time_anchor(root)
            elapsed = time_score(root, [])
            cpu_big, anchor_cpu_big = CPU_S[-1], CPU_S[-2]
            # ru_maxrss of children is the largest child so far (KiB on Linux): this run is the largest.
            peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
            verdict = "OK" if elapsed <= TARGET_10K_S and peak_mb < TARGET_RSS_MB else "OVER TARGET"
            print(f"score {args.rss_n} trajectories: {elapsed:.2f} s ({elapsed / anchor_big:.2f}x the anchor's "
                  f"{anchor_big:.2f} s), CPU {cpu_big:.2f} s ({cpu_big / anchor_cpu_big:.2f}x the anchor's), peak RSS {peak_mb:.0f} MB (target <= {TARGET_10K_S:.0f} s and "
                  f"< {TARGET_RSS_MB:.0f} MB: {verdict})")
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
