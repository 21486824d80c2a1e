"""An in-process agent runs on its own thread and event loop (bridge/agent_thread.py): the episode ends
the same ways as before, no agent thread outlives its episode (its run, when the run reuses them), and a
cancelled episode stops its agent."""

from __future__ import annotations

import asyncio
import contextvars
import functools
import json
import threading
from pathlib import Path
from typing import Any

import anyio

from a320bench.bridge import agent_thread
from a320bench.bridge.inprocess_episode import run_episode
from a320bench.bridge.providers.base import OnHarnessLoop
from a320bench.server.scenario.loader import load
from a320bench.server.surface.profiles import load_profile

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = load(ROOT / "scenarios" / "elec" / "gen1_fault_reset_fails.yaml")


def agent_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "a320bench-agent"]


def reasons(path: Path) -> list[str]:
    return [json.loads(line).get("reason") for line in path.read_text().splitlines() if '"final"' in line]


class Reader:
    """Reads the ECAM, notes the thread and loop it runs on, reports done."""

    name, model = "reader", None

    def __init__(self) -> None:
        self.seen: dict[str, Any] = {}

    def meta(self) -> dict[str, Any]:
        return {}

    async def run(self, view: Any) -> None:
        self.seen["thread"] = threading.get_ident()
        self.seen["ecam"] = (await view.tools.call("read_ecam")).is_error
        await view.tools.call("report_done", {"diagnosis": "GEN 1 fault", "actions_summary": "none"})
        self.seen["over"] = view.tools.over


def test_the_agent_runs_on_its_own_thread_and_no_agent_thread_outlives_the_episode(tmp_path):
    agent = Reader()

    async def main() -> Any:
        return await run_episode(SCENARIO, agent, profile=load_profile("benchmark"), path=tmp_path / "t.jsonl"), \
            threading.get_ident()

    res, harness_thread = anyio.run(main)
    assert (res.reason, res.error) == ("agent_done", None)
    assert agent.seen["thread"] != harness_thread
    assert (agent.seen["ecam"], agent.seen["over"]) == (False, True)
    assert agent_threads() == []


class Stuck:
    """Reads the ECAM, says so, then waits: on an await (`blocking=False`) or blocking its thread."""

    name, model = "stuck", None

    def __init__(self, blocking: bool) -> None:
        self.blocking = blocking
        self.waiting = threading.Event()
        self.release = threading.Event()
        self.cancelled = False

    def meta(self) -> dict[str, Any]:
        return {}

    async def run(self, view: Any) -> None:
        await view.tools.call("read_ecam")
        self.waiting.set()
        if self.blocking:
            self.release.wait(30)  # ignores any cancel: holds its own thread
            return
        try:
            await anyio.sleep_forever()
        except anyio.get_cancelled_exc_class():
            self.cancelled = True
            raise


async def _cancel_when_waiting(agent: Stuck, path: Path) -> None:
    async with anyio.create_task_group() as tg:
        tg.start_soon(functools.partial(run_episode, SCENARIO, agent, profile=load_profile("benchmark"), path=path))
        assert await anyio.to_thread.run_sync(agent.waiting.wait, 30)
        tg.cancel_scope.cancel()


def test_a_cancelled_episode_cancels_its_agent_on_the_agents_loop_and_ends_interrupted(tmp_path):
    agent = Stuck(blocking=False)
    anyio.run(_cancel_when_waiting, agent, tmp_path / "t.jsonl")
    assert reasons(tmp_path / "t.jsonl") == ["interrupted"]
    assert agent.cancelled is True
    assert agent_threads() == []


def test_an_agent_that_ignores_the_cancel_is_left_on_its_thread_after_the_grace(tmp_path, monkeypatch):
    monkeypatch.setattr(agent_thread, "STOP_GRACE_S", 0.2)
    agent = Stuck(blocking=True)
    try:
        anyio.run(_cancel_when_waiting, agent, tmp_path / "t.jsonl")
        assert reasons(tmp_path / "t.jsonl") == ["interrupted"]
        assert [t.daemon for t in agent_threads()] == [True]  # it cannot keep the process alive
    finally:
        agent.release.set()
        for t in agent_threads():
            t.join(30)
    assert agent_threads() == []


class Raises:
    name, model = "raises", None

    def meta(self) -> dict[str, Any]:
        return {}

    async def run(self, view: Any) -> None:
        await view.tools.call("read_ecam")
        raise KeyError("a bug in a built-in")


def test_a_built_ins_exception_on_its_thread_is_a_harness_error_with_its_traceback(tmp_path):
    res = anyio.run(functools.partial(run_episode, SCENARIO, Raises(), profile=load_profile("benchmark"),
                                      path=tmp_path / "t.jsonl"))
    assert (res.reason, res.error) == ("harness_error", "harness error: KeyError: 'a bug in a built-in'")
    events = [json.loads(line) for line in (tmp_path / "t.jsonl").read_text().splitlines()]
    (err,) = [e for e in events if e["type"] == "harness_error"]
    assert 'raise KeyError("a bug in a built-in")' in err["exception"]
    assert agent_threads() == []


def test_a_connection_that_fails_on_the_agents_thread_is_a_harness_error_never_the_agents(tmp_path, monkeypatch):
    def refuse(sock: Any) -> Any:
        raise OSError("no socket today")

    monkeypatch.setattr(agent_thread, "_over_socket", refuse)
    agent = Reader()
    res = anyio.run(functools.partial(run_episode, SCENARIO, agent, profile=load_profile("benchmark"),
                                      path=tmp_path / "t.jsonl"))
    assert (res.reason, res.error) == ("harness_error", "harness error: OSError: no socket today")
    assert agent.seen == {}  # the agent never ran
    assert reasons(tmp_path / "t.jsonl") == ["harness_error"]
    assert agent_threads() == []


class Sneaky(OnHarnessLoop):
    """A plug-in that claims the harness's loop: the registry wraps it, so it gets its own thread anyway."""

    name, model = "sneaky", None

    def __init__(self) -> None:
        self.thread: int | None = None

    async def run(self, view: Any) -> None:
        self.thread = threading.get_ident()
        await view.tools.call("report_done", {"diagnosis": "x", "actions_summary": "none"})


def test_a_plug_in_cannot_claim_the_harness_loop(tmp_path):
    from a320bench.bridge.providers import AgentConfig, make_agent, resolve

    agent = make_agent(resolve(f"{Path(__file__)}:Sneaky"), AgentConfig())

    async def main() -> Any:
        return await run_episode(SCENARIO, agent, profile=load_profile("benchmark"), path=tmp_path / "t.jsonl"), \
            threading.get_ident()

    res, harness_thread = anyio.run(main)
    assert res.reason == "agent_done"
    assert agent.agent.thread not in (None, harness_thread)


# A run reuses its agent threads (agent_thread.reusing_agent_threads): one episode after another on
# the same thread and loop, each with its own session and context, nothing of one left for the next.

MARK: contextvars.ContextVar[str] = contextvars.ContextVar("mark", default="unset")


class Leaver:
    """Notes its thread, loop, context and the other tasks of its loop; leaves a task (or a timer) behind."""

    name, model = "leaver", None

    def __init__(self, leave: str | None) -> None:
        self.leave = leave
        self.seen: dict[str, Any] = {}
        self.left: asyncio.Task[None] | None = None

    def meta(self) -> dict[str, Any]:
        return {}

    async def run(self, view: Any) -> None:
        me = asyncio.current_task()
        # The objects themselves, not ids: a retired thread's ident may be the next thread's.
        self.seen.update(thread=threading.current_thread(), loop=asyncio.get_running_loop(), mark=MARK.get(),
                         others=sorted(t.get_coro().__qualname__ for t in asyncio.all_tasks() if t is not me))
        MARK.set("set by an earlier episode")
        await view.tools.call("read_ecam")
        if self.leave == "task":
            self.left = asyncio.get_running_loop().create_task(asyncio.sleep(3600))
        elif self.leave == "timer":
            asyncio.get_running_loop().call_later(3600, print, "late")
        await view.tools.call("report_done", {"diagnosis": "GEN 1 fault", "actions_summary": "none"})


def _fly_in_a_run(agents: list[Leaver], tmp_path: Path) -> list[Any]:
    async def main() -> list[Any]:
        with agent_thread.reusing_agent_threads():
            out = [await run_episode(SCENARIO, a, profile=load_profile("benchmark"), path=tmp_path / f"{i}.jsonl",
                                     run_index=i) for i, a in enumerate(agents)]
            out.append(len(agent_threads()))
        return out

    return anyio.run(main)


def test_a_run_flies_its_episodes_on_one_agent_thread_and_none_outlives_the_run(tmp_path):
    agents = [Leaver(None), Leaver(None), Leaver(None)]
    *results, threads_during_run = _fly_in_a_run(agents, tmp_path)
    assert [(r.reason, r.error) for r in results] == [("agent_done", None)] * 3
    assert agents[0].seen["thread"] is agents[1].seen["thread"] is agents[2].seen["thread"]
    assert agents[0].seen["loop"] is agents[1].seen["loop"] is agents[2].seen["loop"]
    assert [a.seen["mark"] for a in agents] == ["unset"] * 3  # a fresh context per episode
    assert threads_during_run == 1
    assert agent_threads() == []


def test_a_task_an_agent_leaves_running_is_cancelled_at_its_episodes_end_and_the_thread_is_reused(tmp_path):
    agents = [Leaver("task"), Leaver(None)]
    *results, _ = _fly_in_a_run(agents, tmp_path)
    assert [r.reason for r in results] == ["agent_done", "agent_done"]
    assert agents[0].left is not None and agents[0].left.cancelled()
    # The next episode's agent finds only its own session's tasks on the loop, as the first one did.
    assert agents[1].seen["others"] == agents[0].seen["others"] == ["TaskHandle._run_coro"]
    assert agents[1].seen["thread"] is agents[0].seen["thread"]
    assert agent_threads() == []


def test_an_agent_thread_whose_agent_left_a_timer_is_not_reused(tmp_path):
    agents = [Leaver("timer"), Leaver(None)]
    *results, _ = _fly_in_a_run(agents, tmp_path)
    assert [r.reason for r in results] == ["agent_done", "agent_done"]
    assert agents[1].seen["thread"] is not agents[0].seen["thread"]
    assert agents[0].seen["loop"].is_closed()
    assert agent_threads() == []


def test_a_reused_agent_thread_leads_the_next_episodes_agent_to_nothing_of_the_harness(tmp_path):
    from tests.bridge.test_provider_view import Snoop, assert_found_nothing

    snoops = [Snoop(), Snoop()]

    async def main() -> tuple[list[Any], int]:
        with agent_thread.reusing_agent_threads():
            out = [await run_episode(SCENARIO, s, profile=load_profile("benchmark"), path=tmp_path / f"{i}.jsonl",
                                     run_index=i) for i, s in enumerate(snoops)]
        return out, id(asyncio.get_running_loop())

    results, harness_loop = anyio.run(main)
    assert [r.reason for r in results] == ["agent_done", "agent_done"]
    assert snoops[0].seen["agent_loop"] == snoops[1].seen["agent_loop"]  # the same loop, reused
    for snoop in snoops:
        assert_found_nothing(snoop.seen, harness_loop)
