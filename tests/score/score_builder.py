"""Hand-made trajectories for the scoring tests: meta, setup, tool calls and final, written as JSONL.

    Traj(procedure=[block("reset", "GEN 1 OFF", "GEN 1 ON")]).set("GEN 1", "OFF").done("gen 1").final().write(path)
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any


def block(name: str, *steps: str, ordered: bool = True) -> dict[str, Any]:
    """A procedure block from "CONTROL POSITION" strings (the position is the last word)."""
    return {"name": name, "ordered": ordered, "steps": [_action(s) for s in steps]}


def _action(s: str) -> dict[str, Any]:
    control, position = s.rsplit(" ", 1)
    return {"control": control, "position": position, "then_wait_s": 0, "note": ""}


def forbidden(s: str, severity: str = "dangerous") -> dict[str, Any]:
    return {**{k: v for k, v in _action(s).items() if k in ("control", "position")}, "severity": severity, "why": "test"}


def sha256_of(scenario: dict[str, Any]) -> str:
    """The scenario_sha256 the server records for this scenario (server/session.py)."""
    return hashlib.sha256(json.dumps(scenario, sort_keys=True).encode()).hexdigest()


class Traj:
    def __init__(self, *, scenario_id: str = "elec_test", system: str = "ELEC", phase: str = "cruise",
                 tags: list[str] | None = None, procedure: list[dict[str, Any]] | None = None,
                 optional: list[str] = (), forbid: list[dict[str, Any]] = (),
                 keywords: list[list[str]] | None = None, provider: str = "litellm", model: str | None = "m-1",
                 client: dict[str, Any] | None = None, run_index: int = 0, gate_passed: bool = True,
                 setup: bool = True, act_within_s: float | None = None):
        gt = {"source": "test", "fidelity": "test", "procedure": procedure or [],
              "optional_actions": [_action(s) for s in optional], "forbidden_actions": list(forbid),
              "diagnosis_keywords": keywords if keywords is not None else [["GEN 1", "generator 1"]]}
        if act_within_s is not None:
            gt["act_within_s"] = act_within_s
        scenario = {"schema_version": 1, "id": scenario_id, "title": "t", "system": system, "phase": phase,
                    "tags": tags or [], "ground_truth": gt, "success": [], "budget": {"max_tool_calls": 40}}
        gate = {"passed": gate_passed, "displayed": ["ELEC GEN 1 FAULT"], "missing": [], "unexpected": []}
        self.scenario_id = scenario_id
        self.gate = gate
        self.events: list[dict[str, Any]] = []
        self.sim_s = 0.0
        self.seq = 0
        self.report: dict[str, Any] | None = None
        self._add("meta", scenario_id=scenario_id, scenario=scenario, scenario_sha256=sha256_of(scenario), profile="benchmark",
                  tools=["read_ecam", "set_control"], instructions_sha256="0" * 64, versions={},
                  provider=provider, model=model, sampling={}, client=client, run_index=run_index,
                  episode_id=f"ep-{run_index}")
        if setup:
            self._add("setup", gate=gate, ground_truth=gt, success_criteria=[], budget={}, sim_time_s=0.0)

    def _add(self, type_: str, **fields: Any) -> Traj:
        self.events.append({"type": type_, "schema_version": 1, "ts": "2026-01-01T00:00:00.000+00:00", **fields})
        return self

    def call(self, name: str, arguments: dict[str, Any] | None = None, result: Any = "ok", *,
             is_error: bool = False, sim_s: float = 0.0) -> Traj:
        self.seq += 1
        before = self.sim_s
        self.sim_s += sim_s
        return self._add("tool_call", seq=self.seq, name=name, arguments=arguments or {}, result=result,
                         is_error=is_error, sim_time_before_s=before, sim_time_after_s=self.sim_s, wall_ms=0.1)

    def set(self, control: str, position: str, *, changed: bool = True, is_error: bool = False,
            removed: list[str] = ()) -> Traj:
        """A set_control call; `removed`: the capabilities the server recorded it as taking away."""
        result = f"unknown control {control!r}" if is_error else {"control": control, "position": position,
                                                                   "changed": changed}
        self.call("set_control", {"control": control, "position": position}, result, is_error=is_error, sim_s=2.0)
        if removed:
            self.events[-1]["capabilities_removed"] = list(removed)
        return self

    def read(self, name: str = "read_ecam", **arguments: Any) -> Traj:
        return self.call(name, arguments, {"alerts": []})

    def wait(self, seconds: float) -> Traj:
        return self.call("wait", {"seconds": seconds}, {"waited_s": seconds}, sim_s=seconds)

    def done(self, diagnosis: str = "GEN 1 fault", actions: str = "reset GEN 1") -> Traj:
        self.report = {"diagnosis": diagnosis, "actions_summary": actions}
        return self.call("report_done", dict(self.report), {"ok": True})

    def assistant(self, input_tokens: int, output_tokens: int, cost_usd: float | None = None) -> Traj:
        return self._add("assistant", turn=len(self.events), text="", tool_calls=[],
                         usage={"input_tokens": input_tokens, "output_tokens": output_tokens}, cost_usd=cost_usd)

    def client_report(self, input_tokens: int, output_tokens: int, cost_usd: float | None) -> Traj:
        return self._add("client_report", client="claude", model="sonnet",
                         usage={"input_tokens": input_tokens, "output_tokens": output_tokens}, cost_usd=cost_usd,
                         permission_denials=[], mcp_status="connected")

    def final(self, reason: str = "agent_done", passed: bool = True) -> Traj:
        return self._add("final", scenario_id=self.scenario_id, gate=self.gate, reason=reason,
                         report_done=self.report if reason == "agent_done" else None,
                         success={"passed": passed, "criteria": []}, final_ecam={"alerts": []},
                         tool_calls_used=self.seq, sim_time_s=self.sim_s, state_hash="h")

    def lines(self) -> list[str]:
        return [json.dumps(e) for e in self.events]

    def write(self, path: str | Path, *, truncate_last: bool = False) -> Path:
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        lines = self.lines()
        text = "\n".join(lines) + "\n"
        if truncate_last:
            text = "\n".join(lines[:-1]) + "\n" + lines[-1][: len(lines[-1]) // 2]
        p.write_text(text, encoding="utf-8")
        return p


GEN1_RESET = [block("gen_1_reset", "GEN 1 OFF", "GEN 1 ON", "GEN 1 OFF")]


def gen1(**kw: Any) -> Traj:
    """The GEN 1 reset scenario of scenarios/elec, shortened."""
    kw.setdefault("procedure", GEN1_RESET)
    kw.setdefault("optional", ["APU MASTER SW ON"])
    kw.setdefault("forbid", [forbidden("GEN 2 OFF"), forbidden("BAT 1 OFF", "anti_procedure")])
    return Traj(**kw)


def compliant(**kw: Any) -> Traj:
    """A by-the-book episode of the GEN 1 reset scenario."""
    return (gen1(**kw).read().set("GEN 1", "OFF").set("GEN 1", "ON").wait(10).set("GEN 1", "OFF")
            .done("GEN 1 fault, reset unsuccessful").final())


def score_cli(capsys: Any, *argv: Any) -> tuple[int, str, str]:
    """`a320-bench score ARGV...` in-process: (exit code, stdout, stderr)."""
    from a320bench.bridge.cli import main

    code = main(["score", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err
