"""A run's harness thread and its agent threads share one CPU while it flies (bridge/cpu_affinity.py): the
agent thread has the harness thread's one-CPU mask, the old mask comes back when the run ends, worker
processes take different CPUs, and where pinning is off or impossible nothing changes."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

import anyio
import pytest

from a320bench.bridge import agent_thread, cpu_affinity, exitcodes
from a320bench.bridge.cli import main
from a320bench.bridge.inprocess_episode import run_episode
from a320bench.server.surface.profiles import load_profile
from tests.bridge.test_agent_thread import SCENARIO

pytestmark = pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no CPU affinity API here")


class MaskReader:
    """Notes its own thread's CPU mask, and reports it done."""

    name, model = "mask-reader", None

    def __init__(self) -> None:
        self.mask: set[int] | None = None
        self.thread: int | None = None

    def meta(self) -> dict[str, Any]:
        return {}

    async def run(self, view: Any) -> None:
        self.mask, self.thread = os.sched_getaffinity(0), threading.get_ident()
        await view.tools.call("report_done", {"diagnosis": "GEN 1 fault", "actions_summary": "none"})


def fly_a_run(tmp_path: Path, episodes: int = 2, cpu: int | None = None) -> dict[str, Any]:
    """Episodes one after another as a run flies them; the harness thread's mask before, during and after."""
    agents = [MaskReader() for _ in range(episodes)]

    async def fly() -> dict[str, Any]:
        seen: dict[str, Any] = {"before": os.sched_getaffinity(0)}
        with agent_thread.reusing_agent_threads(cpu):
            seen["results"] = [(await run_episode(SCENARIO, a, profile=load_profile("benchmark"),
                                                  path=tmp_path / f"{i}.jsonl", run_index=i)).reason
                               for i, a in enumerate(agents)]
            seen["during"] = os.sched_getaffinity(0)
        seen["after"] = os.sched_getaffinity(0)
        seen["agents"] = [a.mask for a in agents]
        seen["agent_threads"] = {a.thread for a in agents}
        return seen

    return anyio.run(fly)


@pytest.fixture
def own_mask():
    """The test thread's mask, put back however the test ends."""
    mask = os.sched_getaffinity(0)
    yield mask
    os.sched_setaffinity(0, mask)


def test_the_agent_thread_shares_the_harness_threads_one_cpu_while_the_run_lasts_and_the_mask_comes_back(
        tmp_path, own_mask, monkeypatch):
    monkeypatch.delenv(cpu_affinity.OPT_OUT_ENV, raising=False)
    seen = fly_a_run(tmp_path)
    assert seen["results"] == ["agent_done", "agent_done"]
    assert len(seen["agent_threads"]) == 1  # one reused agent thread, made after the pin
    (cpu,) = seen["during"]
    assert cpu in own_mask
    assert seen["agents"] == [{cpu}, {cpu}]
    assert seen["before"] == seen["after"] == own_mask


def test_a_given_cpu_is_taken_and_one_outside_the_mask_is_not(tmp_path, own_mask, monkeypatch):
    monkeypatch.delenv(cpu_affinity.OPT_OUT_ENV, raising=False)
    last = max(own_mask)
    seen = fly_a_run(tmp_path, episodes=1, cpu=last)
    assert seen["during"] == {last} and seen["agents"] == [{last}]
    outside = max(own_mask) + 1
    seen = fly_a_run(tmp_path, episodes=1, cpu=outside)
    assert len(seen["during"]) == 1 and seen["during"] < own_mask  # one of its own instead
    assert seen["after"] == own_mask


def test_a_process_held_to_one_cpu_flies_on_it(tmp_path, own_mask, monkeypatch):
    monkeypatch.delenv(cpu_affinity.OPT_OUT_ENV, raising=False)
    only = min(own_mask)
    os.sched_setaffinity(0, {only})
    seen = fly_a_run(tmp_path, cpu=only + 1)
    assert seen["results"] == ["agent_done", "agent_done"]
    assert seen["during"] == seen["after"] == {only}
    assert seen["agents"] == [{only}, {only}]
    assert cpu_affinity.cpus_for_workers(2) == [only, only]


def test_the_opt_out_variable_leaves_every_mask_as_it_is(tmp_path, own_mask, monkeypatch):
    monkeypatch.setenv(cpu_affinity.OPT_OUT_ENV, "1")
    seen = fly_a_run(tmp_path)
    assert seen["results"] == ["agent_done", "agent_done"]
    assert seen["during"] == seen["after"] == own_mask
    assert seen["agents"] == [own_mask, own_mask]
    assert cpu_affinity.cpus_for_workers(2) == [None, None]


def test_without_an_affinity_api_nothing_is_pinned_and_the_run_flies(tmp_path, own_mask, monkeypatch):
    monkeypatch.delenv(cpu_affinity.OPT_OUT_ENV, raising=False)
    monkeypatch.delattr(os, "sched_setaffinity")
    seen = fly_a_run(tmp_path)
    assert seen["results"] == ["agent_done", "agent_done"]
    assert seen["during"] == seen["after"] == own_mask
    assert seen["agents"] == [own_mask, own_mask]
    assert cpu_affinity.cpus_for_workers(2) == [None, None]
    monkeypatch.delattr(os, "sched_getaffinity")
    assert cpu_affinity.usable_cpus() == []


def test_episodes_without_a_run_pin_nothing(tmp_path, own_mask, monkeypatch):
    monkeypatch.delenv(cpu_affinity.OPT_OUT_ENV, raising=False)
    agent = MaskReader()

    async def fly() -> str:
        return (await run_episode(SCENARIO, agent, profile=load_profile("benchmark"), path=tmp_path / "t.jsonl")).reason

    assert anyio.run(fly) == "agent_done"
    assert os.sched_getaffinity(0) == own_mask and agent.mask == own_mask


def test_worker_processes_get_one_cpu_each_in_turn_from_the_drivers(own_mask, monkeypatch):
    monkeypatch.delenv(cpu_affinity.OPT_OUT_ENV, raising=False)
    cpus = sorted(own_mask)
    chosen = cpu_affinity.cpus_for_workers(len(cpus) + 1)
    start = cpus.index(chosen[0])
    assert chosen == [cpus[(start + i) % len(cpus)] for i in range(len(cpus) + 1)]


PLUG_IN = """
import json, os


class Agent:
    name, model = "mask-reporter", None

    def meta(self):
        return {}

    async def run(self, view):
        mask = sorted(os.sched_getaffinity(0))
        await view.tools.call("report_done", {"diagnosis": json.dumps([os.getpid(), mask]), "actions_summary": "-"})
"""


@pytest.mark.slow
@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two usable CPUs")
def test_the_worker_processes_of_a_two_process_run_fly_on_different_cpus(tmp_path, monkeypatch):
    monkeypatch.delenv(cpu_affinity.OPT_OUT_ENV, raising=False)
    monkeypatch.setenv("A320_BENCH_WORKER_PROCESSES", "2")
    plug_in = tmp_path / "reporter.py"
    plug_in.write_text(PLUG_IN)
    out = tmp_path / "out"
    assert main(["run", "--agent", f"{plug_in}:Agent", "--scenario", "scenarios/elec", "--workers", "2", "--out",
                 str(out), "--no-progress"]) == exitcodes.OK
    masks: dict[int, set[tuple[int, ...]]] = {}
    for f in out.rglob("*.jsonl"):
        for line in f.read_text().splitlines():
            event = json.loads(line)
            if event.get("name") == "report_done":
                pid, mask = json.loads(event["arguments"]["diagnosis"])
                masks.setdefault(pid, set()).add(tuple(mask))
    assert len(masks) == 2  # both workers flew
    (first,), (second,) = masks.values()  # each worker's agents on one mask, of one CPU, not the other's
    assert len(first) == len(second) == 1 and first != second


def kernel_says(monkeypatch, idle_share: dict[int, float], waited_share: float) -> None:
    """Every sample a second after the last: the held thread waited `waited_share` of it for its CPU, and
    each CPU stood idle its share of `idle_share`."""
    taken = []

    def take() -> cpu_affinity._Sample:
        n = len(taken)
        taken.append(n)
        return cpu_affinity._Sample(float(n), n * waited_share, {c: int(100 * n * s) for c, s in idle_share.items()},
                                    {c: 100 * n for c in idle_share})

    monkeypatch.setattr(cpu_affinity._Sample, "take", staticmethod(take))


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two usable CPUs")
def test_a_run_that_waits_for_its_cpu_while_another_stands_idle_moves_there_with_its_agent_thread(
        tmp_path, own_mask, monkeypatch):
    monkeypatch.delenv(cpu_affinity.OPT_OUT_ENV, raising=False)
    first, other = sorted(own_mask)[:2]
    kernel_says(monkeypatch, {first: 0.0, other: 0.9}, waited_share=0.5)
    seen = fly_a_run(tmp_path, episodes=3, cpu=first)
    assert seen["results"] == ["agent_done"] * 3
    assert len(seen["agent_threads"]) == 1
    # Pinned to the first CPU for the first episode; at the second, it moved, its agent thread with it.
    assert seen["agents"] == [{first}, {other}, {other}]
    assert seen["during"] == {other}
    assert seen["after"] == own_mask


@pytest.mark.parametrize("idle, waited", [(0.6, 0.5), (0.9, 0.1)], ids=["no CPU idle enough", "not waiting"])
@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two usable CPUs")
def test_a_run_stays_on_its_cpu_unless_it_waits_for_it_while_another_stands_idle(tmp_path, own_mask, monkeypatch,
                                                                                  idle, waited):
    monkeypatch.delenv(cpu_affinity.OPT_OUT_ENV, raising=False)
    first, other = sorted(own_mask)[:2]
    kernel_says(monkeypatch, {first: 0.0, other: idle}, waited_share=waited)
    seen = fly_a_run(tmp_path, episodes=3, cpu=first)
    assert seen["agents"] == [{first}] * 3
    assert seen["during"] == {first}
    assert seen["after"] == own_mask
