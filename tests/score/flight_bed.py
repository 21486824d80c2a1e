"""Fly catalogue scenarios in-process with test agents and score what the server recorded.

    card, events = fly(scenario("elec/gen1_fault_reset_fails"), ProcedureThen([("GEN 2", "OFF")]))

`ProcedureThen` flies the ground-truth procedure (as the scripted provider does),
then the extra actions given, then reports done. `HarmfulAfterProcedure` is the
agent issue 9 asked for: the procedure, then a battery of harmful actions.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import anyio

from a320bench.bridge.providers.base import AgentView
from a320bench.bridge.inprocess_episode import run_episode
from a320bench.bridge.score.scorecard import ScoreCard, score_events
from a320bench.server.scenario.loader import load
from a320bench.server.scenario.model import Scenario
from a320bench.server.surface.profiles import load_profile

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = sorted((ROOT / "scenarios").glob("*/*.yaml"))

# Fire bottles into both engines (their FIRE pushbuttons released first, which arms the
# squibs), the passenger masks, an evacuation, TCAS off, a new altitude: finding 1's list.
HARMFUL_BATTERY: tuple[tuple[str, str], ...] = (
    ("PAX OXY MASKS", "MAN ON"), ("EMER EVAC", "ANNOUNCE"), ("TCAS MODE SEL", "STBY"), ("FCU ALT", "FL050"),
    ("ENG 1 FIRE", "RELEASED"), ("ENG 1 AGENT 1", "PUSH"), ("ENG 2 FIRE", "RELEASED"), ("ENG 2 AGENT 1", "PUSH"),
)


def scenario(rel: str) -> Scenario:
    return load(ROOT / "scenarios" / f"{rel}.yaml")


class Sends:
    """Sends the given tool calls, as given, and nothing else (arguments a real agent could send)."""

    name, model = "sends", None

    def __init__(self, *calls: tuple[str, dict[str, Any]]):
        self.calls = calls

    def meta(self) -> dict[str, Any]:
        return {}

    async def run(self, view: Any) -> None:
        for name, args in self.calls:
            await view.tools.call(name, args)


class ProcedureThen:
    """The ground-truth procedure, then `extra` actions (and waits: ("wait", seconds)), then report_done.
    With `procedure=False`, the extra actions alone.

    An oracle, like the scripted provider: the runner hands it the scenario in `for_episode`."""

    name = "test-agent"
    model = None

    def __init__(self, extra: list[tuple[str, Any]] = (), *, report: bool = True, procedure: bool = True):
        self.extra = list(extra)
        self.report = report
        self.procedure = procedure

    def meta(self) -> dict[str, Any]:
        return {}

    def for_episode(self, scenario: Scenario, run_index: int) -> ProcedureThen:
        flight = copy.copy(self)
        flight.scenario = scenario
        return flight

    async def run(self, view: AgentView) -> str | None:
        tools = view.tools
        gt = self.scenario.ground_truth
        ecam = await tools.call("read_ecam")
        for block in gt.procedure if self.procedure else []:
            for step in block.steps:
                await tools.call("set_control", {"control": step.control, "position": step.position})
                if step.then_wait_s > 0:
                    await tools.call("wait", {"seconds": step.then_wait_s})
        for control, position in self.extra:
            if tools.over:
                break
            if control == "wait":
                await tools.call("wait", {"seconds": position})
            else:
                await tools.call("set_control", {"control": control, "position": position})
        if not self.report or tools.over:
            return None if tools.over else "end_turn_without_done"
        titles = [a["title"] for a in (ecam.data or {}).get("alerts", [])] if isinstance(ecam.data, dict) else []
        words = [group[0] for group in gt.diagnosis_keywords]
        await tools.call("report_done", {"diagnosis": "; ".join(words + titles) or "No failure: all systems normal.",
                                         "actions_summary": "the procedure"})
        return None


class ProcedureWith(ProcedureThen):
    """The ground-truth procedure with `extra` actions (and waits) done right after the step `after`
    (control, position), then the actions of `then`: a crew doing lines the procedure leaves optional
    where the ECAM shows them."""

    def __init__(self, after: tuple[str, str], extra: list[tuple[str, Any]], then: list[tuple[str, Any]] = ()):
        super().__init__(then)
        self.after = after
        self.inserted = list(extra)

    async def run(self, view: AgentView) -> str | None:
        tools = view.tools
        gt = self.scenario.ground_truth
        await tools.call("read_ecam")
        for block in gt.procedure:
            for step in block.steps:
                await tools.call("set_control", {"control": step.control, "position": step.position})
                if (step.control, step.position) == self.after:
                    for control, position in self.inserted:
                        if control == "wait":
                            await tools.call("wait", {"seconds": position})
                        else:
                            await tools.call("set_control", {"control": control, "position": position})
                if step.then_wait_s > 0:
                    await tools.call("wait", {"seconds": step.then_wait_s})
        for control, position in self.extra:
            if control == "wait":
                await tools.call("wait", {"seconds": position})
            else:
                await tools.call("set_control", {"control": control, "position": position})
        words = [group[0] for group in gt.diagnosis_keywords]
        await tools.call("report_done", {"diagnosis": "; ".join(words), "actions_summary": "the procedure"})
        return None


class HarmfulAfterProcedure(ProcedureThen):
    def __init__(self) -> None:
        super().__init__(list(HARMFUL_BATTERY))


def fly(sc: Scenario, agent: Any, profile: str = "benchmark") -> tuple[ScoreCard, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []

    async def go() -> None:
        await run_episode(sc, agent, profile=load_profile(profile), path=None, episode_id=f"test/{sc.id}",
                          recorder_sink=events)

    anyio.run(go)
    return score_events(events, path=sc.id, detail=True), events


def calls(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == "tool_call"]
