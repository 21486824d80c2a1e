"""Kill `a320-bench run` at random instants, resume it, and compare with a run never stopped.

    python -m tools.kill_at_random [--config NAME ...] [--trials K] [--signal SIG ...] [--seed S] [--work DIR]

A research tool (not part of the suite): issue 11 claims that a kill of `run` at any point,
followed by the same command, gives the scores of an uninterrupted run and leaves no child
process behind. The tests check chosen kill points; this draws them at random.

Per configuration: one uninterrupted reference run (its wall time is the range the kill
instants are drawn from), then per signal K trials. A trial starts the same command in a
fresh --out, sends the signal after a random delay (SIGINT to the process group, as a
terminal's Ctrl-C does; SIGTERM and SIGKILL to the driver alone, as `kill` does), waits for the run to end, checks that
no process of it survives, and does that again up to 3 times in a row (the count drawn
too) before a last, uninterrupted resume. Then it compares with the reference:

- `score --json` of both folders (per-episode cards and aggregates; paths and the
  identity's wall-clock fields aside),
- every trajectory, event by event (timestamps and wall-clock fields aside),
- every learning store, byte for byte,
- the set of files in the folder (run records aside).

One line per trial: config, signal, trial seed, delays, exit codes (`*`: that run had written its
closing run record -- interrupted or not -- before it ended: a -2 or -15 with `*` is a signal in the
interpreter's shutdown, after the run's work), OK or the difference. A trial's seed fixes the number
of kills and each instant as a fraction of the reference run's wall time, so `--replay CONFIG SIG
SEED` flies that trial again (the instants scale with the machine's load). Survivors are found by a
marker in the environment every process of the run inherits (the worker processes run in sessions
of their own) and, for a client, by a tag in its command line (the sandbox clears the environment).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "scenarios"
# Event keys that hold wall-clock values or versions: they may differ between two runs.
VOLATILE_EVENT_KEYS = {"ts", "wall_ms", "wall_s", "latency_ms", "versions", "started_at", "ended_at", "duration_s",
                       "agent_episode_id",  # a client's episode id: random per episode, by design
                       "duration_ms", "duration_api_ms", "session_id"}  # what claude reports of its session
# A client's server URL: a fresh port and the random episode id.
CLIENT_URL = re.compile(r"http://127\.0\.0\.1:\d+/[0-9a-f]{16}/mcp")
# Score card keys that name where a file is or when it was written.
VOLATILE_CARD_KEYS = {"path", "identity"}
MAX_KILLS = 3
END_GRACE_S = 120.0  # a deadline for a signalled run to end: never a measure of speed
SURVIVOR_GRACE_S = 10.0  # the kernel's parent-death signals are asynchronous
MARKER_VAR = "A320_KILLER_MARKER"


@dataclass
class Config:
    name: str
    args: list[str]
    env: dict[str, str] = field(default_factory=dict)
    client_tag: bool = False  # the command carries a {tag} placeholder: the client's processes hold it
    volatile: frozenset[str] = frozenset()  # more keys that may differ between two uninterrupted runs


def scenario_folder(work: Path) -> Path:
    """A handful of small scenarios, copied once so that every configuration flies the same files."""
    folder = work / "scenarios"
    if not folder.exists():
        folder.mkdir(parents=True)
        for rel in ("elec/gen1_fault_reset_fails.yaml", "elec/gen1_fault_reset_works.yaml",
                    "elec/emer_config_cruise.yaml", "hyd/green_edp_fail_cruise.yaml"):
            src = SCENARIOS / rel
            if src.exists():
                shutil.copy(src, folder / src.name)
    return folder


def learning_folder(work: Path) -> Path:
    folder = work / "again"
    if not folder.exists():
        folder.mkdir(parents=True)
        text = (SCENARIOS / "elec" / "gen1_fault_reset_works.yaml").read_text()
        for n in (1, 2, 3):
            (folder / f"again_{n}.yaml").write_text(
                text.replace("id: elec_gen1_fault_reset_works", f"id: again_{n}"))
    return folder


def configs(work: Path, *wanted: Any) -> dict[str, Config]:
    small = str(scenario_folder(work))
    agent = ROOT / "tests" / "clients" / "sandboxed_agent.py"
    procedure = [["read_ecam", {}],
                 ["set_control", {"control": "GEN 1", "position": "OFF"}],
                 ["set_control", {"control": "GEN 1", "position": "ON"}],
                 ["set_control", {"control": "GEN 1", "position": "OFF"}],
                 ["report_done", {"diagnosis": "GEN 1 fault, reset unsuccessful",
                                  "actions_summary": "GEN 1 off, on, off"}]]
    client_cmd = shlex.join([sys.executable, str(agent), "play", "{config}", "{server}", json.dumps(procedure),
                             "--tag", "TAG"])
    gen1 = str(SCENARIOS / "elec" / "gen1_fault_reset_fails.yaml")
    return {
        "a-inproc-w1": Config("a-inproc-w1", ["--scenario", small, "--runs", "2", "--workers", "1"],
                              {"A320_BENCH_WORKER_PROCESSES": "1"}),
        "a-inproc-w4": Config("a-inproc-w4", ["--scenario", small, "--runs", "2", "--workers", "4"],
                              {"A320_BENCH_WORKER_PROCESSES": "1"}),
        "b-procs-w2": Config("b-procs-w2", ["--scenario", small, "--runs", "2", "--workers", "2"],
                             {"A320_BENCH_WORKER_PROCESSES": "2"}),
        "c-learning": Config("c-learning", ["--profile", "learning", "--agent",
                                            f"{ROOT / 'tests' / 'bridge' / 'learner.py'}:Learner",
                                            "--scenario", str(learning_folder(work)), "--runs", "2",
                                            "--workers", "2"], {"A320_BENCH_WORKER_PROCESSES": "2"}),
        "d-client-cmd": Config("d-client-cmd", ["--scenario", gen1, "--client", "cmd", "--client-cmd", client_cmd,
                                                "--runs", "2", "--workers", "2"], client_tag=True),
        "d-offline-demo": Config("d-offline-demo", ["--scenario", gen1, "--client", "claude", "--offline-demo",
                                                    "--runs", "2", "--workers", "2"],
                                 {"A320_BENCH_NODE_TOOLS": os.environ.get("A320_BENCH_NODE_TOOLS",
                                                                          "/work/main/.cache/node-tools")}),
    } | ({"e-litellm": litellm_config(work, small)} if "e-litellm" in str(wanted) else {})


def litellm_config(work: Path, scenarios: str) -> Config:
    """A litellm model against the tests' fake OpenAI server, started here for the whole session: it
    answers every request with the same tool call, so an episode flies to its tool-call budget
    whatever the order of the requests. Its token counts number the requests it has served, so they
    are not compared."""
    sys.path.insert(0, str(ROOT))
    from tests.fakes.openai_server import FakeOpenAI, tool_call

    fake = FakeOpenAI([{"tool_calls": [tool_call("read_ecam", {})]}], repeat_last=True).__enter__()
    env_file = work / "fake.env"
    env_file.write_text("OPENAI_API_KEY=sk-fake-for-kill-trials\n")
    return Config("e-litellm", ["--scenario", scenarios, "--model", "openai/fake-model", "--env-file", str(env_file),
                                "--sampling", json.dumps({"api_base": fake.url}), "--runs", "1", "--workers", "2"],
                  volatile=frozenset({"usage", "input_tokens", "output_tokens", "cost_usd", "id", "tool_call_id",
                                      "response_id"}))


# --- processes ---------------------------------------------------------------------------------------------

def live_processes_with(marker: str) -> list[tuple[int, str]]:
    """Live processes (zombies aside) whose environment or command line holds `marker`."""
    found = []
    needle = marker.encode()
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
            if state in ("Z", "X"):
                continue
            cmdline = (proc / "cmdline").read_bytes()
            try:
                environ = (proc / "environ").read_bytes()
            except OSError:
                environ = b""
        except OSError:
            continue
        if needle in cmdline or needle in environ:
            found.append((int(proc.name), cmdline.replace(b"\0", b" ").decode(errors="replace")[:160]))
    return found


def survivors(marker: str) -> list[tuple[int, str]]:
    deadline = time.monotonic() + SURVIVOR_GRACE_S
    while True:
        left = live_processes_with(marker)
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.1)


def reap(marker: str) -> None:
    """Kill what a trial left behind, so that the next trial starts clean (it was already reported)."""
    for pid, _ in live_processes_with(marker):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


# --- runs --------------------------------------------------------------------------------------------------

def command(cfg: Config, out: Path, marker: str) -> list[str]:
    args = [a.replace("TAG", marker) for a in cfg.args]
    return [sys.executable, "-m", "a320bench", "run", *args, "--out", str(out), "--no-progress"]


def environment(cfg: Config, marker: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return env | cfg.env | {MARKER_VAR: marker, "PYTHONPATH": str(ROOT.parent)}


@dataclass
class Ended:
    returncode: int
    stderr: str
    wall_s: float


def run_whole(cfg: Config, out: Path, marker: str) -> Ended:
    t0 = time.monotonic()
    p = subprocess.run(command(cfg, out, marker), env=environment(cfg, marker), cwd=ROOT, capture_output=True,
                       text=True, stdin=subprocess.DEVNULL, timeout=600)
    return Ended(p.returncode, p.stderr, time.monotonic() - t0)


def run_killed(cfg: Config, out: Path, marker: str, sig: signal.Signals, delay_s: float) -> Ended:
    t0 = time.monotonic()
    p = subprocess.Popen(command(cfg, out, marker), env=environment(cfg, marker), cwd=ROOT, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        try:
            p.wait(timeout=delay_s)
        except subprocess.TimeoutExpired:
            if sig == signal.SIGINT:  # Ctrl-C at a terminal: the whole foreground process group
                os.killpg(p.pid, sig)
            else:  # `kill PID`, the OOM killer: the driver alone
                p.send_signal(sig)
        try:
            _, err = p.communicate(timeout=END_GRACE_S)
        except subprocess.TimeoutExpired:
            p.kill()
            _, err = p.communicate()
            err += f"\n[killer] the run did not end within {END_GRACE_S:.0f} s of {sig.name}"
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    return Ended(p.returncode, err, time.monotonic() - t0)


def finished(out: Path) -> bool:
    """Had the run written its closing run record when it ended? Shown as `*` after its exit code."""
    records = sorted(out.glob("run-*.json"))
    try:
        return bool(records) and bool(json.loads(records[-1].read_text()).get("finished_at"))
    except (OSError, ValueError):
        return False


# --- comparison --------------------------------------------------------------------------------------------

def strip(value: Any, volatile: set[str]) -> Any:
    if isinstance(value, dict):
        return {k: strip(v, volatile) for k, v in value.items() if k not in volatile}
    if isinstance(value, list):
        return [strip(v, volatile) for v in value]
    return value


def score_json(out: Path, volatile: set[str]) -> Any:
    p = subprocess.run([sys.executable, "-m", "a320bench", "score", "--json", str(out)], cwd=ROOT,
                       capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        return {"score exit": p.returncode, "stderr": p.stderr.strip().splitlines()[-3:]}
    doc = json.loads(p.stdout)
    doc.get("plan", {}).pop("records", None)  # the run records: one per invocation, named by its time
    return strip(doc, VOLATILE_CARD_KEYS | volatile)


def files(out: Path) -> set[str]:
    return {str(p.relative_to(out)) for p in out.rglob("*") if p.is_file() and not p.name.startswith("run-")}


def trajectory(path: Path, marker: str, volatile: set[str]) -> list[Any]:
    events = []
    text = CLIENT_URL.sub("URL", path.read_text(encoding="utf-8").replace(marker, "TAG"))
    for line in text.splitlines():
        try:
            events.append(strip(json.loads(line), volatile))
        except json.JSONDecodeError:
            events.append({"unparsable line": line[:80]})
    return events


def first_difference(a: Any, b: Any, where: str = "") -> str | None:
    if type(a) is not type(b):
        return f"{where or '.'}: {short(a)} != {short(b)}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                left, right = (short(side[k]) if k in side else "missing" for side in (a, b))
                return f"{where}.{k}: {left} != {right}"
            d = first_difference(a[k], b[k], f"{where}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{where}[{i}]")
            if d:
                return d
        if len(a) != len(b):
            return f"{where}: {len(a)} items != {len(b)}"
        return None
    return None if a == b else f"{where or '.'}: {short(a)} != {short(b)}"


def short(v: Any) -> str:
    text = json.dumps(v, default=str)
    return text if len(text) <= 100 else text[:97] + "..."


def compare(ref: Path, ref_marker: str, got: Path, got_marker: str, more_volatile: frozenset[str]) -> list[str]:
    volatile = VOLATILE_EVENT_KEYS | more_volatile
    problems = []
    a_files, b_files = files(ref), files(got)
    if a_files != b_files:
        problems.append(f"files: missing {sorted(a_files - b_files)}, extra {sorted(b_files - a_files)}")
    d = first_difference(score_json(ref, volatile), score_json(got, volatile))
    if d:
        problems.append(f"score --json{d}")
    for rel in sorted(a_files & b_files):
        a, b = ref / rel, got / rel
        if rel.endswith(".jsonl"):
            d = first_difference(trajectory(a, ref_marker, volatile), trajectory(b, got_marker, volatile))
            if d:
                problems.append(f"{rel}{d}")
        elif rel.startswith("learning/") and a.read_bytes() != b.read_bytes():
            problems.append(f"{rel}: " + (first_difference(json.loads(a.read_text()), json.loads(b.read_text()))
                                          or "bytes differ"))
    return problems


# --- trials ------------------------------------------------------------------------------------------------

def trial(cfg: Config, sig: signal.Signals, seed: int, ref: Path, ref_marker: str, ref_wall_s: float,
          work: Path) -> str:
    rng = random.Random(seed)
    kills = rng.randint(1, MAX_KILLS)
    delays = [round(rng.uniform(0.0, ref_wall_s), 3) for _ in range(kills)]
    out = work / f"{cfg.name}-{sig.name}-{seed}"
    shutil.rmtree(out, ignore_errors=True)
    marker = f"a320killer{uuid.uuid4().hex}"
    problems: list[str] = []
    codes = []
    for delay in delays:
        ended = run_killed(cfg, out, marker, sig, delay)
        codes.append(f"{ended.returncode}{'*' if finished(out) else ''}")
        if "Traceback" in ended.stderr or "[killer]" in ended.stderr:
            problems.append(f"after {sig.name} at {delay} s: " + " | ".join(ended.stderr.strip().splitlines()[-4:]))
        if sig != signal.SIGKILL and ended.returncode not in (0, 130, -sig, 128 + sig):
            problems.append(f"after {sig.name} at {delay} s: exit {ended.returncode}: "
                            + " | ".join(ended.stderr.strip().splitlines()[-3:]))
        left = survivors(marker)
        if left:
            problems.append(f"after {sig.name} at {delay} s: {len(left)} process(es) survive: {left[:3]}")
            reap(marker)
    final = run_whole(cfg, out, marker)
    if final.returncode != 0:
        problems.append(f"resume exit {final.returncode}: " + " | ".join(final.stderr.strip().splitlines()[-3:]))
    left = survivors(marker)
    if left:
        problems.append(f"after the resume: {len(left)} process(es) survive: {left[:3]}")
        reap(marker)
    problems += compare(ref, ref_marker, out, marker, cfg.volatile)
    verdict = "OK" if not problems else "MISMATCH " + " ;; ".join(problems)
    if not problems:
        shutil.rmtree(out, ignore_errors=True)
    return f"{cfg.name} {sig.name} seed={seed} kills={delays} exits={codes} {verdict}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--config", action="append", help="configuration name (default: a-inproc-w1 .. c-learning)")
    ap.add_argument("--signal", action="append", choices=["SIGKILL", "SIGTERM", "SIGINT"])
    ap.add_argument("--trials", type=int, default=20)
    ap.add_argument("--seed", type=int, default=None, help="the seed of the seeds (printed)")
    ap.add_argument("--work", type=Path, default=None, help="where the run folders go (default: a fresh temp dir)")
    ap.add_argument("--replay", nargs=3, metavar=("CONFIG", "SIG", "SEED"), help="one trial again")
    a = ap.parse_args(argv)
    work = a.work or Path(tempfile.mkdtemp(prefix="a320-killer-"))
    work.mkdir(parents=True, exist_ok=True)
    known = configs(work, a.replay[0] if a.replay else None, a.config)
    if a.replay:
        names, sigs = [a.replay[0]], [signal.Signals[a.replay[1]]]
    else:
        names = a.config or ["a-inproc-w1", "a-inproc-w4", "b-procs-w2", "c-learning"]
        sigs = [signal.Signals[s] for s in (a.signal or ["SIGKILL", "SIGTERM", "SIGINT"])]
    master = a.seed if a.seed is not None else random.randrange(1 << 30)
    print(f"work {work}; seed {master}; load {os.getloadavg()}", flush=True)
    rng = random.Random(master)
    mismatches = 0
    for name in names:
        cfg = known[name]
        ref = work / f"{name}-reference"
        shutil.rmtree(ref, ignore_errors=True)
        marker = f"a320killer{uuid.uuid4().hex}"
        whole = run_whole(cfg, ref, marker)
        if whole.returncode != 0:
            print(f"{name}: the reference run failed (exit {whole.returncode}): {whole.stderr.strip()[-400:]}")
            mismatches += 1
            continue
        print(f"{name}: reference {whole.wall_s:.2f} s", flush=True)
        for sig in sigs:
            seeds = [int(a.replay[2])] if a.replay else [rng.randrange(1 << 30) for _ in range(a.trials)]
            for seed in seeds:
                line = trial(cfg, sig, seed, ref, marker, whole.wall_s, work)
                mismatches += "MISMATCH" in line
                print(line, flush=True)
    print(f"{mismatches} mismatch(es)", flush=True)
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
