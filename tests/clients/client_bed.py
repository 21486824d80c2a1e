"""Helpers of the external-client tests: run `a320-bench run --client ...` in-process, read what it wrote."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from a320bench.bridge.cli import main

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios" / "elec" / "gen1_fault_reset_fails.yaml"
SCENARIO_ID = "elec_gen1_fault_reset_fails"
SERVER = "a320"  # the server's name in the MCP config: tools are mcp__a320__<tool>


def mcp(tool: str) -> str:
    return f"mcp__{SERVER}__{tool}"


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
