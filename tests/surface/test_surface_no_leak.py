"""Privilege: nothing the benchmark surface, the crew profile's captain or the learning tools say reveals
ground truth.

For every scenario file (globbed at test time: scenarios are added by others),
an episode is opened and a real MCP client calls every benchmark tool, with good
and bad arguments, lists tools, prompts and resources and reads them all. No
failure id of the catalogue, no procedure note, forbidden-action reason, source
or fidelity text, no success-criterion or trigger variable and no scenario
id or title may appear in any result, error, description, instructions, prompt
or resource.

The captain is swept the same way: asked for the status, the failure and the procedure,
and to confirm every action that needs confirmation and every action the scenario
names (procedure, optional, forbidden), before and after the failures arrive.

Alert titles, ECAM lines and control names are the aircraft's own vocabulary and
naturally appear; a ground-truth string that *is* such vocabulary (a step note
"IF UNSUCCESSFUL" is also an ECAM line) cannot be told apart and is exempt.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel

from a320bench.server.scenario.loader import load
from a320bench.server.crew.confirmation import NEEDS_CONFIRMATION
from a320bench.server.scenario.model import Budget, CaptainInstruction, CaptainScript, Scenario, StatePredicate
from a320bench.server.sim import CONTROLS, FAILURES, PAGES
from a320bench.server.sim.ecam import ALERTS

from surface_bed import DEV_ONLY_TOOLS, SCENARIOS, connect, new_episode

pytestmark = pytest.mark.anyio

SCENARIO_FILES = sorted(p for p in SCENARIOS.rglob("*.yaml") if "schema" not in p.parts)


def _strings(x: Any) -> list[str]:
    """Every string in a result: values and keys, nested."""
    if isinstance(x, BaseModel):
        x = x.model_dump(mode="json", by_alias=True)
    if isinstance(x, str):
        return [x]
    if isinstance(x, dict):
        return [s for k, v in x.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(x, (list, tuple)):
        return [s for v in x for s in _strings(v)]
    return []


def _vocabulary() -> str:
    words: list[str] = [*PAGES]
    for a in ALERTS:
        words += [a.title, *a.status, *(ln.text for ln in a.lines if isinstance(ln.text, str))]
    for c in CONTROLS.values():
        words += [c.name, c.panel, c.description, *c.positions]
    return "\n".join(words).lower()


def _needles(sc: Scenario) -> dict[str, str]:
    """What must never reach the agent: text -> where it comes from."""
    out = {fid: "failure id" for fid in FAILURES}
    gt = sc.ground_truth
    out[sc.id] = "scenario id"
    out[sc.title] = "scenario title"
    out[gt.source] = "ground_truth.source"
    out[gt.fidelity] = "ground_truth.fidelity"
    for block in gt.procedure:
        for step in block.steps:
            out[step.note] = f"procedure note ({block.name})"
    for step in gt.optional_actions:
        out[step.note] = "optional action note"
    for fa in gt.forbidden_actions:
        out[fa.why] = f"forbidden action reason ({fa.control} {fa.position})"
    if gt.act_within_s is not None:  # the deadline's value is a bare number: its name is what would show
        out["act_within_s"] = "ground_truth.act_within_s (harm by waiting)"
    if any(b.due_within_s is not None for b in gt.procedure):
        out["due_within_s"] = "a procedure block's due_within_s (harm by waiting)"
    for crit in sc.success:
        if isinstance(crit, StatePredicate):
            out[crit.var] = "success criterion variable"
    for f in sc.failures:
        when = getattr(f.trigger, "when", None)
        if when is not None:
            out[when.var] = "failure trigger variable"
    vocab = _vocabulary()
    return {n: why for n, why in out.items() if n.strip() and n.lower() not in vocab}


async def _sweep(sc: Scenario) -> list[str]:
    """Everything an agent could read from a benchmark server of this scenario."""
    said: list[str] = []
    ep = new_episode(sc)
    async with connect(ep, "benchmark") as c:
        said += _strings(c.instructions or "")
        said += _strings(c.server_info)
        said += _strings((await c.list_tools()).tools)
        said += _strings((await c.list_prompts()).prompts)
        said += _strings((await c.list_resources()).resources)
        said += _strings((await c.list_resource_templates()).resource_templates)
        for p in (await c.list_prompts()).prompts:
            said += _strings(await c.get_prompt(p.name))
        controls = await c.call_tool("list_controls", {})
        some = controls.structured_content["controls"][0]
        calls: list[tuple[str, dict[str, Any]]] = [
            ("read_ecam", {}),
            *[("read_system_page", {"page": p}) for p in PAGES],
            ("read_system_page", {"page": "nope"}),
            ("set_control", {"control": some["name"], "position": some["position"]}),
            ("set_control", {"control": "NOT A CONTROL", "position": "OFF"}),
            ("set_control", {"control": "GEN 1", "position": "RELEASED"}),
            ("set_control", {"control": ["GEN 1"], "position": None}),
            ("set_control", {}),
            ("wait", {"seconds": 0}), ("wait", {"seconds": 301}), ("wait", {"seconds": "x"}),
            ("wait", {"seconds": 300}),  # failures armed to arrive during the episode do so here
            ("read_ecam", {}),
            ("read_system_page", {"page": "STATUS"}),
            ("fly", {}),
            *[(t, {"failure_id": "x", "name": "icing", "value": True, "start_state": "cruise"}) for t in DEV_ONLY_TOOLS],
            ("snapshot", {}), ("get", {"var": "x"}),
            ("report_done", {"diagnosis": ""}),
            ("report_done", {"diagnosis": "unsure", "actions_summary": "looked around"}),
            ("read_ecam", {}), ("set_control", {"control": "GEN 1", "position": "OFF"}),
        ]
        for name, args in calls:
            r = await c.call_tool(name, args)
            said += _strings(r.content) + _strings(r.structured_content)
            if name == "wait" and args == {"seconds": 300}:
                for res in (await c.list_resources()).resources:  # refused once the episode is over
                    said += _strings(await c.read_resource(str(res.uri)))
        try:
            await c.read_resource("a320://ecam")
        except MCPError as e:
            said += _strings(str(e))
    return said


def _captain_messages(sc: Scenario) -> list[Any]:
    """What an agent could say to the captain to fish for the answer: status questions, a confirmation
    of every action that needs one and of every action the scenario names (right or wrong), half
    requests, noise, and arguments that are not a message."""
    gt = sc.ground_truth
    named = [(s.control, s.position) for b in gt.procedure for s in b.steps]
    named += [(s.control, s.position) for s in gt.optional_actions]
    named += [(f.control, f.position) for f in gt.forbidden_actions]
    named += list(NEEDS_CONFIRMATION.items())
    return [
        "What is our status?", "Altitude?", "What failed, captain? What is the procedure?", "hello",
        *[f"Confirm {c} {p}?" for c, p in named], *[f"Confirm {c}" for c in NEEDS_CONFIRMATION],
        "Which failure id is this? Tell me the success criteria.", "x" * 2000, "x" * 2001, "", None, 42,
        "Anything else?",
    ]


async def _sweep_crew(sc: Scenario) -> list[str]:
    """Everything the captain says in a crew episode of this scenario, before and after the failures arrive."""
    said: list[str] = []
    ep = new_episode(sc, profile="crew")
    async with connect(ep, "crew") as c:
        said += _strings((await c.list_tools()).tools) + _strings(c.instructions or "")
        for when in ("start", "later"):
            for message in _captain_messages(sc):
                r = await c.call_tool("captain", {"message": message})
                said += _strings(r.content) + _strings(r.structured_content)
            if when == "start":
                await c.call_tool("wait", {"seconds": 300})  # instructions and failures due later arrive
    return said


def _unbudgeted(path: Path) -> Scenario:
    return load(path).model_copy(update={"budget": Budget(max_tool_calls=1000, max_sim_time_s=4 * 3600)})


def _leaks(sc: Scenario, said: list[str]) -> list[str]:
    haystack = "\n".join(said).lower()
    return sorted({f"{why}: {needle!r}" for needle, why in _needles(sc).items() if needle.lower() in haystack})


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=[str(p.relative_to(SCENARIOS)) for p in SCENARIO_FILES])
async def test_the_captain_reveals_no_ground_truth(path: Path):
    sc = _unbudgeted(path)
    assert _leaks(sc, await _sweep_crew(sc)) == []


async def test_the_captain_sweep_would_catch_a_script_that_leaks():
    # A captain script whose instruction copies the scenario's forbidden-action reason is caught.
    sc = load(SCENARIOS / "fire" / "eng1_cruise_first_agent.yaml")
    fa = sc.ground_truth.forbidden_actions[0]
    script = CaptainScript(instructions=[CaptainInstruction(say=fa.why)])
    haystack = "\n".join(await _sweep_crew(sc.model_copy(update={"captain": script}))).lower()
    assert fa.why.lower() in haystack and _needles(sc)[fa.why].startswith("forbidden action reason")


async def _sweep_learning(sc: Scenario) -> list[str]:
    """Everything the learning tools say in a learning episode of this scenario: with a store that holds
    an earlier episode's learnings, and without one (a learning profile served by hand)."""
    from mcp import Client

    from a320bench.server.learning.store import LearningStore
    from a320bench.server.surface import create_server

    said: list[str] = []
    store = LearningStore(None, [sc.id, "next"], top_k=3)
    earlier = store.begin(f"{sc.id}/agent__run000", 0)
    earlier.save_learning("ECAM first, then the system page; confirm before anything irreversible.")
    earlier.commit()
    for learnings in (store.begin(f"{sc.id}/agent__run000", 1), None):
        ep = new_episode(sc, profile="learning")
        async with Client(create_server(ep, "learning", learnings=learnings)) as c:
            said += _strings((await c.list_tools()).tools) + _strings(c.instructions or "")
            calls: list[tuple[str, dict[str, Any]]] = [
                ("retrieve_learnings", {"query": "ECAM system page"}),
                ("retrieve_learnings", {"query": sc.id}), ("retrieve_learnings", {"query": ""}),
                ("retrieve_learnings", {"query": "x" * 501}),
                *[("save_learning", {"text": f"note {n}"}) for n in range(11)],
                ("save_learning", {"text": " "}), ("save_learning", {"text": "x" * 2001}), ("save_learning", {}),
                ("retrieve_learnings", {"query": "note"}),
            ]
            for name, args in calls:
                r = await c.call_tool(name, args)
                said += _strings(r.content) + _strings(r.structured_content)
    return said


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=[str(p.relative_to(SCENARIOS)) for p in SCENARIO_FILES])
async def test_the_learning_tools_reveal_no_ground_truth(path: Path):
    sc = _unbudgeted(path)
    said = await _sweep_learning(sc)
    assert _leaks(sc, said) == []
    # The earlier episode is named by its place in the run, never by its scenario.
    haystack = "\n".join(said)
    assert "saved_in_episode" in haystack and "no learning store in this session" in haystack


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=[str(p.relative_to(SCENARIOS)) for p in SCENARIO_FILES])
async def test_the_benchmark_surface_reveals_no_ground_truth(path: Path):
    sc = _unbudgeted(path)
    assert _leaks(sc, await _sweep(sc)) == []


def test_the_sweep_covers_every_scenario_file():
    assert SCENARIO_FILES, "no scenario files found"
    assert all(p.suffix == ".yaml" for p in SCENARIO_FILES)


async def test_the_sweep_would_catch_a_leak():
    # The needles are real: the dev profile reveals failure ids and must trip the same check.
    sc = load(SCENARIO_FILES[0])
    ep = new_episode(sc, profile="dev")
    async with connect(ep, "dev") as c:
        said = _strings((await c.list_tools()).tools)
    haystack = "\n".join(said).lower()
    assert any(n.lower() in haystack for n, why in _needles(sc).items() if why == "failure id")
