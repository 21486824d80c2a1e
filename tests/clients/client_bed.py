"""Helpers of the external-client tests: run `a320-bench run --client ...` in-process, read what it wrote."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

from a320bench.bridge.cli import main

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "elec" / "gen1_fault_reset_fails.yaml"
SCENARIO_ID = "elec_gen1_fault_reset_fails"
SERVER = "a320"  # the server's name in the MCP config: tools are mcp__a320__<tool>
AGENT = Path(__file__).with_name("sandboxed_agent.py")  # the standard-library client of `--client cmd` tests
# The scenario's procedure, flown by a client: [tool, arguments] per call.
PROCEDURE = [["read_ecam", {}],
             ["set_control", {"control": "GEN 1", "position": "OFF"}],
             ["set_control", {"control": "GEN 1", "position": "ON"}],
             ["set_control", {"control": "GEN 1", "position": "OFF"}],
             ["report_done", {"diagnosis": "GEN 1 fault, reset unsuccessful", "actions_summary": "GEN 1 off, on, off"}]]


def mcp(tool: str) -> str:
    return f"mcp__{SERVER}__{tool}"


def python_cmd(*args: str) -> str:
    """A --client-cmd running this Python (in the sandbox: the interpreter alone, not our venv)."""
    return shlex.join([sys.executable, *args])


def run(out: Path, *args: str) -> int:
    return main(["run", "--scenario", str(SCENARIO), "--out", str(out), "--no-progress", *args])


def events(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def trajectory(out: Path, label: str, run_index: int = 0) -> Path:
    return out / SCENARIO_ID / f"{label}__run{run_index:03d}.jsonl"


def tool_calls(evs: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    return [(e["name"], e["arguments"]) for e in evs if e["type"] == "tool_call"]


def last(evs: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    return [e for e in evs if e["type"] == kind][-1]


# ScoreCard fields that name the arm or count its tokens; everything else must match across arms.
IDENTITY_FIELDS = {"path", "model", "provider", "run_index", "episode_id", "input_tokens", "output_tokens", "cost_usd",
                   "identity"}


def processes_with(marker: str) -> list[int]:
    """Live processes (zombies aside) whose command line holds `marker`: what a client left behind."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes()
            state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in cmdline and state not in ("Z", "X"):
            found.append(int(proc.name))
    return found


OTHER_SCENARIO = ROOT / "scenarios" / "elec" / "ac_bus_1_fault_cruise.yaml"


def box_of_inputs(tmp_path: Path) -> tuple[Path, list[str]]:
    """A folder a client's command names, holding a note of its own and every input `run` is given
    there: a scenario file, a catalogue folder, an env file, and the run folder (not created yet).
    Returns the folder and the arguments of such a run, whose client lists the folder (look)."""
    box = tmp_path / "box"
    (box / "cat").mkdir(parents=True)
    (box / "notes.txt").write_text("the client's own notes")
    (box / "secret_scenario.yaml").write_text(SCENARIO.read_text())
    (box / "cat" / OTHER_SCENARIO.name).write_text(OTHER_SCENARIO.read_text())
    (box / "secrets.env").write_text("A320_HIDE_TEST_KEY=not-for-the-client\n")
    args = ["run", "--scenario", str(box / "secret_scenario.yaml"), str(box / "cat"),
            "--env-file", str(box / "secrets.env"), "--out", str(box / "runs"), "--no-progress",
            "--client", "cmd",
            "--client-cmd", python_cmd(str(AGENT), "look", "{config}", "{server}", "--root", str(box))]
    return box, args


def seen_in_box(box: Path) -> dict[str, str]:
    """What the client saw of the box: as long as the run's inputs are out of its sight, its own note
    and two empty folders (the catalogue's and the run folder, covered), nothing else."""
    return {f"list {box}": "cat notes.txt runs", f"read {box}/notes.txt": "the client's own notes",
            f"list {box}/cat": "", f"list {box}/runs": ""}
