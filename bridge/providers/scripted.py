"""The scripted provider: flies the scenario's ground-truth procedure, no LLM.

It is the ceiling every model is compared against and the test double every
end-to-end test uses. An oracle: the runner builds it per episode with the
scenario (`for_episode`, on the harness side); what it then flies goes through
the same view and tools as any agent's.
"""

from __future__ import annotations

from typing import Any

from a320bench.server.scenario.model import GroundTruth, Scenario

from .base import AgentView


class ScriptedProvider:
    name = "scripted"
    model = None

    def meta(self) -> dict[str, Any]:
        return {}

    def for_episode(self, scenario: Scenario, run_index: int) -> ScriptedRun:
        return ScriptedRun(scenario.ground_truth)


class ScriptedRun:
    def __init__(self, ground_truth: GroundTruth):
        self.ground_truth = ground_truth

    async def run(self, view: AgentView) -> str | None:
        gt, tools = self.ground_truth, view.tools
        ecam = await tools.call("read_ecam")
        actions: list[str] = []
        for block in gt.procedure:
            for step in block.steps:
                if tools.over:
                    return None
                await tools.call("set_control", {"control": step.control, "position": step.position})
                actions.append(f"{step.control} {step.position}")
                if step.then_wait_s > 0:
                    await tools.call("wait", {"seconds": step.then_wait_s})
        if tools.over:
            return None
        await tools.call("read_ecam")
        titles = [a["title"] for a in (ecam.data or {}).get("alerts", [])] if isinstance(ecam.data, dict) else []
        words = [group[0] for group in gt.diagnosis_keywords]
        diagnosis = "; ".join(words + titles) or "No failure: all systems normal."
        await tools.call("report_done", {"diagnosis": diagnosis,
                                         "actions_summary": ", ".join(actions) or "No action needed."})
        return None
