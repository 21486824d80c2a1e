"""An in-process agent runs on its own thread and event loop (bridge/agent_thread.py): the episode ends
the same ways as before, no agent thread outlives its episode, and a cancelled episode stops its agent."""

from __future__ import annotations

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
