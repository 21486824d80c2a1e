"""A provider is handed a view without the answer. A provider that goes looking for the ground truth
from what it is given -- following every attribute, item, closure cell, bound method's self, task,
coroutine and frame (its locals and its callers) from the view, between tool calls and while one is
in flight, and from every task of its event loop -- finds none of it: no scenario, episode, server,
recorder or verdict object, no failure id. The walk uses no gc, no sys._current_frames and no
import of a320bench (which would reach anything: the README's isolation section says so)."""

from __future__ import annotations

import asyncio
import collections
import contextvars
import dataclasses
import functools
import types
import weakref
from pathlib import Path
from typing import Any

import anyio

from a320bench.bridge.agent_tools import AgentJournal, AgentTools
from a320bench.bridge.providers.base import AgentView
from a320bench.bridge.inprocess_episode import run_episode
from a320bench.server.scenario.loader import load
from a320bench.server.surface.profiles import load_profile
from a320bench.server.surface.resources import page_uri
from a320bench.server.sim.pages import PAGES

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = load(ROOT / "scenarios" / "elec" / "gen1_fault_reset_fails.yaml")
SECRETS = ("elec_gen1_gcu_trip", SCENARIO.id, "gen_1_reset", "ground_truth", "forbidden_actions")
# The package's objects an agent may hold: its view and what the view is made of, the two ends of
# the agent's thread (bridge/agent_thread.py), and the plug-in wrapper with its spec and config.
AGENT_SIDE = frozenset({"AgentView", "AgentTools", "AgentJournal", "ToolOutcome", "AgentRun", "LineReader",
                        "LineWriter", "PluginAgent", "AgentSpec", "AgentConfig"})
LEAVES = (str, bytes, bytearray, int, float, complex, bool, type(None), type, types.ModuleType, types.CodeType)


def children(obj: Any) -> list[Any]:
    """Everything an attribute, an item, a closure, a bound method, a task or a frame leads to from `obj`.
    Not followed: a function's globals, a class's or a module's namespace (they lead to every module)."""
    if isinstance(obj, dict):
        return [*obj.keys(), *obj.values()]
    if isinstance(obj, (list, tuple, set, frozenset, collections.deque)):
        return list(obj)
    if isinstance(obj, types.FrameType):
        return [*obj.f_locals.values(), obj.f_back]
    if isinstance(obj, types.CoroutineType):
        return [obj.cr_frame, obj.cr_await]
    if isinstance(obj, types.GeneratorType):
        return [obj.gi_frame, obj.gi_yieldfrom]
    if isinstance(obj, types.AsyncGeneratorType):
        return [obj.ag_frame, obj.ag_await]
    if isinstance(obj, types.TracebackType):
        return [obj.tb_frame, obj.tb_next]
    if isinstance(obj, types.MethodType):
        return [obj.__self__, obj.__func__]
    if isinstance(obj, types.BuiltinMethodType):
        return [obj.__self__]
    if isinstance(obj, types.FunctionType):
        return [*(c.cell_contents for c in obj.__closure__ or () if _filled(c)), *(obj.__defaults__ or ()),
                *(obj.__kwdefaults__ or {}).values()]
    if isinstance(obj, types.CellType):
        return [obj.cell_contents] if _filled(obj) else []
    if isinstance(obj, functools.partial):
        return [obj.func, *obj.args, *obj.keywords.values()]
    if isinstance(obj, weakref.ref):
        return [obj()]
    if isinstance(obj, contextvars.Context):
        return [*obj.keys(), *obj.values()]
    found: list[Any] = []
    if isinstance(obj, asyncio.Future):  # tasks too: their coroutine, loop, callbacks and what they wait on
        found += [obj.get_loop(), *(getattr(obj, "_callbacks", None) or ()), getattr(obj, "_fut_waiter", None)]
        if isinstance(obj, asyncio.Task):
            found.append(obj.get_coro())
    if isinstance(obj, BaseException):
        found += [*obj.args, obj.__traceback__, obj.__context__, obj.__cause__]
    if hasattr(obj, "__dict__"):
        found += list(vars(obj).values())
    for cls in type(obj).__mro__:
        for name in getattr(cls, "__slots__", ()):
            try:
                found.append(getattr(obj, name))
            except AttributeError:
                pass
    return found


def reachable(*roots: Any, limit: int = 400_000) -> dict[int, tuple[Any, Any]]:
    """Every object the roots lead to: id -> (object, the object it was reached from)."""
    seen: dict[int, tuple[Any, Any]] = {}
    todo = collections.deque((r, None) for r in roots)
    while todo:
        obj, parent = todo.popleft()
        if id(obj) in seen:
            continue
        seen[id(obj)] = (obj, parent)
        assert len(seen) < limit, "the walk did not finish"
        if not isinstance(obj, LEAVES):
            todo.extend((child, obj) for child in children(obj))
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


def look_around(*roots: Any) -> dict[str, Any]:
    """What a walk from `roots` finds: the package's objects that are not the agent's, with their paths;
    the secret strings; the types it went through; the event loops of the tasks it opened."""
    walked = reachable(*roots)
    objects = [o for o, _ in walked.values()]
    ours = [o for o in objects if type(o).__module__.startswith("a320bench.")]
    return {
        "objects": len(objects),
        "privileged": sorted({path_to(walked, o) for o in ours if type(o).__name__ not in AGENT_SIDE}),
        "secret_strings": sorted({s for o in objects if isinstance(o, str) for s in SECRETS if s in o}),
        "types": {type(o).__name__ for o in objects},
        "task_loops": {id(o.get_loop()) for o in objects if isinstance(o, asyncio.Task)},
    }


class Snoop:
    """A provider that looks around -- before its first call, between calls, while a call is in flight,
    and from every task of its event loop -- then reports done."""

    name, model = "snoop", None

    def __init__(self) -> None:
        self.seen: dict[str, Any] = {}

    def meta(self) -> dict[str, Any]:
        return {}

    async def run(self, view: AgentView) -> str | None:
        self.seen["agent_loop"] = id(asyncio.get_running_loop())
        self.seen["start"] = look_around(view)
        await view.tools.call("read_ecam")
        self.seen["between_calls"] = look_around(view)
        self.seen["all_tasks"] = look_around(*asyncio.all_tasks())
        answered = anyio.Event()

        async def wait() -> None:
            await view.tools.call("wait", {"seconds": 30})
            answered.set()

        async with anyio.create_task_group() as tg:
            tg.start_soon(wait)
            pending = view.tools._session._dispatcher._pending  # the SDK's requests awaiting an answer
            while not pending:  # until the call's request is out; the walk below runs before any answer is read
                await anyio.sleep(0)
            self.seen["answered_before_the_walk"] = answered.is_set()
            self.seen["in_a_call"] = look_around(view)
        session = view.tools._session
        self.seen["resources"] = sorted(str(r.uri) for r in (await session.list_resources()).resources)
        self.seen["prompts"] = [p.name for p in (await session.list_prompts()).prompts]
        self.seen["privileged_call"] = (await view.tools.call("active_failures")).text
        self.seen["view"] = view
        await view.tools.call("report_done", {"diagnosis": "looked around", "actions_summary": "none"})
        return None


WALKS = ("start", "between_calls", "all_tasks", "in_a_call")


async def _fly(agent: Any, **kw: Any) -> tuple[Any, int]:
    """The episode, and the id of the harness's own event loop."""
    return await run_episode(SCENARIO, agent, **kw), id(asyncio.get_running_loop())


def assert_found_nothing(seen: dict[str, Any], harness_loop: int) -> None:
    assert seen["answered_before_the_walk"] is False
    for walk in WALKS:
        found = seen[walk]
        assert (walk, found["privileged"], found["secret_strings"]) == (walk, [], [])
        # The walk did open tasks, coroutines, frames, the loop and the thread: all the agent's own.
        assert {"ClientSession", "Task", "coroutine", "frame", "Thread", "_UnixSelectorEventLoop"} <= found["types"]
        if walk != "all_tasks":
            assert {"AgentView", "AgentTools", "AgentJournal"} <= found["types"], walk
        assert found["task_loops"] == {seen["agent_loop"]} and seen["agent_loop"] != harness_loop, walk
        assert found["objects"] > 1000, walk


def test_a_provider_that_looks_for_the_ground_truth_from_its_view_finds_none(tmp_path):
    snoop = Snoop()
    profile = load_profile("benchmark")
    res, harness_loop = anyio.run(functools.partial(_fly, snoop, profile=profile, path=tmp_path / "t.jsonl",
                                                    run_index=3, seed=7))
    assert res.reason == "agent_done"
    seen = snoop.seen
    assert_found_nothing(seen, harness_loop)
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


def test_the_walk_finds_the_scenario_from_an_agent_that_holds_it():
    # The same walk, from an object that leads to the scenario (as the harness's own frames do), finds it.
    leaky = {"tools": object(), "episode": types.SimpleNamespace(scenario=SCENARIO)}
    found = look_around(leaky)
    assert {"Scenario", "GroundTruth"} <= {p.split(" <- ")[0] for p in found["privileged"]}
    assert found["secret_strings"] == sorted(SECRETS)


def test_a_plug_in_found_through_the_registry_is_handed_the_same_view_and_finds_nothing_either(tmp_path):
    from a320bench.bridge.providers import AgentConfig, make_agent, resolve
    from a320bench.bridge.providers.registry import PluginAgent

    agent = make_agent(resolve(f"{Path(__file__)}:Snoop"), AgentConfig())
    assert isinstance(agent, PluginAgent)
    res, harness_loop = anyio.run(functools.partial(_fly, agent, profile=load_profile("benchmark"),
                                                    path=tmp_path / "t.jsonl"))
    seen = agent.agent.seen
    assert res.reason == "agent_done"
    assert_found_nothing(seen, harness_loop)
    assert "PluginAgent" in seen["between_calls"]["types"]  # the wrapper's frame was walked too
