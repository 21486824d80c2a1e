"""The scripted provider: flies the scenario's ground-truth procedure, no LLM.

It is the ceiling every model is compared against and the test double every
end-to-end test uses.
"""

from __future__ import annotations

from typing import Any

from ..tool_session import AgentTools
from .base import AgentTask


class ScriptedProvider:
    name = "scripted"
    model = None

    def meta(self) -> dict[str, Any]:
        return {}

    async def run(self, tools: AgentTools, task: AgentTask) -> str | None:
        gt = task.scenario.ground_truth
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
