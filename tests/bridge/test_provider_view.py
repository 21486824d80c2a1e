"""A provider is handed a view without the answer: a provider that goes looking for the ground truth
from what it is given -- the view's fields, what refers to the view, the tools object, the MCP client
session and what the session can ask the server -- finds none of it."""

from __future__ import annotations

import collections
import dataclasses
import functools
import gc
import types
from pathlib import Path
from typing import Any

import anyio

from a320bench.bridge.agent_tools import AgentJournal, AgentTools
from a320bench.bridge.providers.base import AgentView
from a320bench.bridge.inprocess_episode import run_episode
from a320bench.server.episode import Episode
from a320bench.server.scenario.loader import load
from a320bench.server.scenario.model import GroundTruth, Scenario
from a320bench.server.sim import Aircraft
from a320bench.server.surface.dispatch import EpisodeServer
from a320bench.server.surface.profiles import load_profile
from a320bench.server.surface.resources import page_uri
from a320bench.server.sim.pages import PAGES
from a320bench.server.trajectory import Recorder

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = load(ROOT / "scenarios" / "elec" / "gen1_fault_reset_fails.yaml")
PRIVILEGED = (Scenario, GroundTruth, Episode, EpisodeServer, Recorder, Aircraft)
SECRETS = ("elec_gen1_gcu_trip", SCENARIO.id, "gen_1_reset", "ground_truth", "forbidden_actions")
# Whose objects the walk opens: ours, the MCP SDK's, anyio's streams, and plain containers and callables.
# It does not enter another task's stack (anyio's TaskInfo of a task waiting on a stream): any code in
# the process can list the event loop's tasks; what matters is what a provider is handed.
OPENED = ("a320bench", "mcp", "mcp_types", "anyio", "builtins", "collections", "functools", "types")
SCHEDULER = (anyio.TaskInfo,)


def children(obj: Any) -> list[Any]:
    """Everything an attribute, an item, a closure or a bound method leads to from `obj`."""
    if isinstance(obj, dict):
        return [*obj.keys(), *obj.values()]
    if isinstance(obj, (list, tuple, set, frozenset, collections.deque)):
        return list(obj)
    if isinstance(obj, types.FrameType):
        return list(obj.f_locals.values())
    if isinstance(obj, types.CoroutineType):
        return [obj.cr_frame, obj.cr_await] if obj.cr_frame is not None else []
    if isinstance(obj, types.MethodType):
        return [obj.__self__, obj.__func__]
    if isinstance(obj, types.FunctionType):
        return [c.cell_contents for c in obj.__closure__ or () if _filled(c)] + list(obj.__defaults__ or ())
    if isinstance(obj, functools.partial):
        return [obj.func, *obj.args, *obj.keywords.values()]
    if not type(obj).__module__.startswith(OPENED) or isinstance(obj, SCHEDULER):
        return []
    found = list(vars(obj).values()) if hasattr(obj, "__dict__") else []
    for cls in type(obj).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if hasattr(obj, name):
                found.append(getattr(obj, name))
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        found += [getattr(obj, f.name, None) for f in dataclasses.fields(obj)]
    return found


def reachable(*roots: Any, limit: int = 200_000) -> dict[int, tuple[Any, Any]]:
    """Every object the roots lead to: id -> (object, the object it was reached from)."""
    seen: dict[int, tuple[Any, Any]] = {}
    todo = collections.deque((r, None) for r in roots)
    while todo and len(seen) < limit:
        obj, parent = todo.popleft()
        if id(obj) in seen or isinstance(obj, (int, float, bool, type(None), type, types.ModuleType)):
            continue
        seen[id(obj)] = (obj, parent)
        todo.extend((child, obj) for child in children(obj))
    assert len(seen) < limit, "the walk did not finish"
    return seen


def path_to(seen: dict[int, tuple[Any, Any]], obj: Any) -> str:
    chain = []
    while obj is not None:
        chain.append(type(obj).__name__)
        obj = seen[id(obj)][1]
    return " <- ".join(chain)


def _filled(cell: Any) -> bool:
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True


class Snoop:
    """A provider that looks around before flying like noop."""

    name, model = "snoop", None

    def __init__(self) -> None:
        self.seen: dict[str, Any] = {}

    def meta(self) -> dict[str, Any]:
        return {}

    async def run(self, view: AgentView) -> str | None:
        # Asked from a thread: this coroutine is then suspended, and its frame counts among the referrers.
        referrers = await anyio.to_thread.run_sync(gc.get_referrers, view)
        walked = reachable(view, view.tools, view.tools._session, *referrers)
        objects = [o for o, _ in walked.values()]
        self.seen["objects"] = len(objects)
        self.seen["privileged"] = sorted({path_to(walked, o) for o in objects if isinstance(o, PRIVILEGED)})
        self.seen["secret_strings"] = sorted({s for o in objects if isinstance(o, str) for s in SECRETS if s in o})
        self.seen["types"] = {type(o).__name__ for o in objects}
        self.seen["referrers"] = sorted(type(r).__name__ for r in referrers)
        session = view.tools._session
        self.seen["resources"] = sorted(str(r.uri) for r in (await session.list_resources()).resources)
        self.seen["prompts"] = [p.name for p in (await session.list_prompts()).prompts]
        self.seen["privileged_call"] = (await view.tools.call("active_failures")).text
        self.seen["view"] = view
        await view.tools.call("report_done", {"diagnosis": "looked around", "actions_summary": "none"})
        return None


def test_a_provider_that_looks_for_the_ground_truth_from_its_view_finds_none(tmp_path):
    snoop = Snoop()
    profile = load_profile("benchmark")
    res = anyio.run(functools.partial(run_episode, SCENARIO, snoop, profile=profile, path=tmp_path / "t.jsonl",
                                      run_index=3, seed=7))
    assert res.reason == "agent_done"
    seen = snoop.seen
    # The walk did open what it was given: the tools, the session, its streams and the view's own frame.
    assert "coroutine" in seen["referrers"]  # this provider's own run(), holding the view
    assert {"AgentView", "AgentTools", "AgentJournal", "ClientSession", "frame"} <= seen["types"]
    assert seen["objects"] > 100
    assert seen["privileged"] == [] and seen["secret_strings"] == []
    # What the session can ask the server: the displays and the task prompt, no privileged tool.
    assert seen["resources"] == sorted(["a320://ecam", *(page_uri(p) for p in PAGES)])
    assert seen["prompts"] == ["task"]
    assert seen["privileged_call"].startswith("Unknown tool 'active_failures'. The tools are: list_controls,")

    view = seen["view"]
    assert [f.name for f in dataclasses.fields(view)] == \
        ["task_prompt", "instructions", "tools", "journal", "run_index", "episode_id", "seed"]
    assert not hasattr(view, "__dict__") and not hasattr(view, "scenario")
    assert (view.task_prompt, view.instructions, view.run_index) == (SCENARIO.task_prompt, profile.instructions, 3)
    assert isinstance(view.seed, int) and SCENARIO.id not in view.episode_id
    assert isinstance(view.tools, AgentTools) and isinstance(view.journal, AgentJournal)


def test_the_walk_would_find_the_scenario_were_it_handed_over(tmp_path):
    # The same walk from the old provider interface (the scenario handed over beside the tools) finds it.
    leaky = {"scenario": SCENARIO, "tools": object()}
    objects = [o for o, _ in reachable(leaky).values()]
    assert {type(o).__name__ for o in objects if isinstance(o, PRIVILEGED)} >= {"Scenario", "GroundTruth"}
    assert any("elec_gen1_gcu_trip" in o for o in objects if isinstance(o, str))


def test_a_plug_in_found_through_the_registry_is_handed_the_same_view_and_finds_nothing_either(tmp_path):
    from a320bench.bridge.providers import AgentConfig, make_agent, resolve
    from a320bench.bridge.providers.registry import PluginAgent

    agent = make_agent(resolve(f"{Path(__file__)}:Snoop"), AgentConfig())
    assert isinstance(agent, PluginAgent)
    res = anyio.run(functools.partial(run_episode, SCENARIO, agent, profile=load_profile("benchmark"),
                                      path=tmp_path / "t.jsonl"))
    seen = agent.agent.seen
    assert res.reason == "agent_done"
    assert "PluginAgent" in seen["types"] and seen["objects"] > 100  # the wrapper's frame was walked too
    assert seen["privileged"] == [] and seen["secret_strings"] == []
