"""The scripted provider: flies the scenario's ground-truth procedure, no LLM.

It is the ceiling every model is compared against and the test double every
end-to-end test uses. An oracle: the runner builds it per episode with the
scenario (`for_episode`, on the harness side); what it then flies goes through
the same view and tools as any agent's.

With the `crew` profile's captain among its tools it also does what the crew
track asks: it briefs the captain first, asks the captain to confirm every action
that needs it (server/crew/confirmation.py) before taking it, and carries out the
captain's instructions (the scenario's captain script) once the procedure is flown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from a320bench.server.crew.confirmation import needs_confirmation
from a320bench.server.scenario.model import Scenario

from .base import AgentView


class ScriptedProvider:
    """`then`: more commands after the procedure (validate flies each optional action so)."""

    name = "scripted"
    model = None

    def __init__(self, order: Sequence[tuple[int, int]] | None = None, own_waits: bool = False,
                 then: tuple[tuple[str, str], ...] = ()):
        self.order = order  # (block, step) in the order to fly; None: as listed (validate permutes it)
        self.own_waits = own_waits
        self.then = then  # commands flown after the procedure (validate's optional actions)

    def meta(self) -> dict[str, Any]:
        return {}

    def for_episode(self, scenario: Scenario, run_index: int) -> ScriptedRun:
        return ScriptedRun(scenario, self.order, self.own_waits, self.then)


class ScriptedRun:
    def __init__(self, scenario: Scenario, order: Sequence[tuple[int, int]] | None = None, own_waits: bool = False,
                 then: tuple[tuple[str, str], ...] = ()):
        self.ground_truth = scenario.ground_truth
        self.captain_script = scenario.captain
        self.then = then
        listed = [(bi, j) for bi, b in enumerate(scenario.ground_truth.procedure) for j in range(len(b.steps))]
        self.order = list(order) if order is not None else listed
        # A permuted order keeps the timeline by default: the k-th action is followed by the wait
        # listed k-th (the wait for the aircraft to stop stays after the second lever, whichever
        # lever that is); `own_waits`: each step keeps its own (a relight's wait follows its master).
        self.waits = [scenario.ground_truth.procedure[bi].steps[j].then_wait_s
                      for bi, j in (self.order if own_waits else listed)]

    async def run(self, view: AgentView) -> None:
        gt, tools = self.ground_truth, view.tools
        crew = any(t.name == "captain" for t in await tools.list())
        ecam = await tools.call("read_ecam")
        titles = [a["title"] for a in (ecam.data or {}).get("alerts", [])] if isinstance(ecam.data, dict) else []
        now_s = 0.0
        if crew:
            await tools.call("captain", {"message": f"Captain, the ECAM shows: {', '.join(titles) or 'nothing'}. "
                                                    "Any instructions?"})
        actions: list[str] = []

        async def act(control: str, position: str, then_wait_s: float = 0) -> None:
            nonlocal now_s
            if crew and needs_confirmation(control, position):
                await tools.call("captain", {"message": f"Confirm {control} {position}?"})
            done = await tools.call("set_control", {"control": control, "position": position})
            actions.append(f"{control} {position}")
            if then_wait_s > 0:
                done = await tools.call("wait", {"seconds": then_wait_s})
            if isinstance(done.data, dict) and isinstance(done.data.get("sim_time_s"), (int, float)):
                now_s = float(done.data["sim_time_s"])

        for (bi, j), then_wait_s in zip(self.order, self.waits):
            if tools.over:
                return
            step = gt.procedure[bi].steps[j]
            await act(step.control, step.position, then_wait_s)
        if crew and self.captain_script is not None:
            for ins in sorted(self.captain_script.instructions, key=lambda i: i.after_s):
                if tools.over:
                    return
                if ins.after_s > now_s:  # given on the first answer from its time on: be there to hear it
                    await tools.call("wait", {"seconds": ins.after_s - now_s})
                    now_s = ins.after_s
                    await tools.call("captain", {"message": "Procedure done. Anything else, captain?"})
                if ins.expect is not None:
                    await act(ins.expect.control, ins.expect.position)
        for control, position in self.then:
            if tools.over:
                return
            await act(control, position)
        if tools.over:
            return
        await tools.call("read_ecam")
        words = [group[0] for group in gt.diagnosis_keywords]
        diagnosis = "; ".join(words + titles) or "No failure: all systems normal."
        await tools.call("report_done", {"diagnosis": diagnosis,
                                         "actions_summary": ", ".join(actions) or "No action needed."})
