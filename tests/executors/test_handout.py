"""The local pool's hand-out: a worker gets the scenarios it has prepared first, so each scenario's
first setup is paid once per run; a dead worker's chains still fly, each once."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import anyio
import pytest

from a320bench.bridge.executors import RunJob, RunState, single_episode_chains
from a320bench.bridge.executors.chain import Chain
from a320bench.bridge.executors.handout import Handout
from a320bench.bridge.executors.local import LocalExecutor
from a320bench.bridge.plan import Planned, build_plan
from a320bench.bridge.providers.scripted import ScriptedProvider
from a320bench.server.scenario.loader import load
from a320bench.server.surface.profiles import load_profile
from tests.executors.executor_bed import ROOT


def chains_of(runs: dict[str, int]) -> list[Chain]:
    """One single-episode chain per (scenario, run), in plan order."""
    planned = [(sid, r) for sid, n in runs.items() for r in range(n)]
    return [Chain(i, (Planned(i, SimpleNamespace(id=sid), r, Path(f"{sid}/{r}.jsonl")),))
            for i, (sid, r) in enumerate(planned)]


def name(chain: Chain | None) -> str | None:
    return None if chain is None else f"{chain.episodes[0].scenario.id}{chain.episodes[0].run_index}"


def alternate(handout: Handout, workers: list[str]) -> list[tuple[str, str]]:
    """The workers ask in turn until nothing is queued: (worker, chain) in hand-out order."""
    taken = []
    while len(handout):
        for w in workers:
            chain = handout.take(w)
            if chain is not None:
                taken.append((w, name(chain)))
    return taken


def test_each_worker_flies_the_runs_of_the_scenario_it_started_and_steals_only_when_nothing_is_left():
    h = Handout(chains_of({"a": 4, "b": 4, "c": 4}))
    assert len(h) == 12
    assert alternate(h, ["w1", "w2"]) == [
        ("w1", "a0"), ("w2", "b0"), ("w1", "a1"), ("w2", "b1"), ("w1", "a2"), ("w2", "b2"), ("w1", "a3"),
        ("w2", "b3"),
        ("w1", "c0"),  # the first scenario nobody has started
        ("w2", "c1"),  # nothing of its own, nothing new: the busiest scenario, rather than an idle core
        ("w1", "c2"), ("w2", "c3")]
    assert h.take("w1") is None and len(h) == 0


def test_handed_out_in_plan_order_both_workers_would_prepare_every_scenario():
    h = Handout(chains_of({s: 5 for s in "abcdefghij"}))
    taken = alternate(h, ["w1", "w2"])
    prepared = {(w, chain[0]) for w, chain in taken}
    assert len(prepared) == 10  # one setup per scenario; plan order, alternating, would make it 20
    assert sorted(chain for _, chain in taken) == sorted(f"{s}{r}" for s in "abcdefghij" for r in range(5))


def test_a_thief_keeps_the_scenario_it_stole_from():
    h = Handout(chains_of({"a": 1, "b": 5}))
    assert [name(h.take("w1")), name(h.take("w2"))] == ["a0", "b0"]
    assert name(h.take("w1")) == "b1"  # stolen: it now holds b's setup too
    assert [name(h.take("w1")), name(h.take("w2")), name(h.take("w1"))] == ["b2", "b3", "b4"]
    assert h.take("w2") is None


def test_a_dead_workers_chain_goes_back_first_and_its_scenarios_to_whoever_asks():
    chains = chains_of({"a": 3, "b": 1})
    h = Handout(chains)
    assert [name(h.take("w1")), name(h.take("w2")), name(h.take("w1"))] == ["a0", "b0", "a1"]
    h.forget("w1")
    h.put_back(chains[1])  # a1 was in flight on w1
    assert len(h) == 2
    assert [name(h.take("w2")), name(h.take("w2")), h.take("w2")] == ["a1", "a2", None]


def test_a_chain_put_back_while_its_scenario_has_a_live_owner_goes_to_that_owner():
    chains = chains_of({"a": 2, "b": 2})
    h = Handout(chains)
    assert [name(h.take("w1")), name(h.take("w2")), name(h.take("w1"))] == ["a0", "b0", "a1"]
    assert name(h.take("w2")) == "b1"
    h.put_back(chains[0])  # a0's worker died; w1 also holds a (a1) and lives
    assert name(h.take("w1")) == "a0"
    assert len(h) == 0


@pytest.mark.slow
def test_two_worker_processes_prepare_each_scenario_once(tmp_path, monkeypatch):
    monkeypatch.setenv("A320_BENCH_WORKER_PROCESSES", "2")
    scenarios = [load(ROOT / "scenarios" / "elec" / "gen1_fault_reset_fails.yaml"),
                 load(ROOT / "scenarios" / "elec" / "tr1_fault_cruise.yaml")]
    plan = build_plan(scenarios, 2, tmp_path, "scripted")
    chains = single_episode_chains(plan.episodes)
    executor = LocalExecutor(4)  # 2 processes, 2 chains at a time each: all four go out at once
    job = RunJob(ScriptedProvider(), load_profile("benchmark"))
    assert executor.describe(chains, job) == "local, 2 worker processes, up to 2 episode(s) at a time each"
    state = RunState()
    anyio.run(executor.run, chains, job, state)
    assert sorted((r.scenario_id, r.run_index, str(r.reason)) for r in state.results) == [
        (s.id, r, "agent_done") for s in scenarios for r in range(2)]
    assert state.setups_run == 2  # in plan order each process would have prepared both: 4
