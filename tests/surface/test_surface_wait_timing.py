"""`wait` steps the simulation the same way whether or not a failure is still to arrive (issue 9 finding 8).

A wall-clock side channel cannot be asserted on (machines slow down), so this checks
its cause: the sequence of simulator steps and the work done per step. Before a
scheduled failure arrives, an episode that has one pending and an episode without it
must call the simulator with the same steps and reach the same state.
"""

from __future__ import annotations

from typing import Any

import pytest

from a320bench.server.scenario.model import Scenario
from a320bench.server.sim.aircraft import STEADY_STEP_S

from surface_bed import SCENARIOS, new_episode
from a320bench.server.scenario.loader import load


def _without_pending(sc: Scenario) -> Scenario:
    return sc.model_copy(update={"failures": [f for f in sc.failures if not f.during_episode]})


def _steps(sc: Scenario, waits: list[float]) -> tuple[list[float], str, list[Any]]:
    ep = new_episode(sc)
    steps: list[float] = []
    advance = ep.ac.advance

    def recording(seconds: float) -> None:
        steps.append(round(seconds, 3))
        advance(seconds)

    ep.ac.advance = recording  # type: ignore[method-assign]
    for s in waits:
        ep.advance(s)
    return steps, ep.ac.state_hash(), sorted(ep.ac.failures)


@pytest.mark.parametrize("rel,waits", [
    ("air/pack1_ovht_then_pack2_fault_cruise.yaml", [2.0, 20.0, 7.4, 8.0]),  # timed: arrives at 40 s
    ("eng/eng1_flameout_then_gen2_fault_cruise.yaml", [2.0, 300.0, 300.0]),  # on a predicate (engine 1 relit)
])
def test_a_pending_failure_does_not_change_how_wait_steps_the_simulation(rel, waits):
    sc = load(SCENARIOS / rel)
    pending = _steps(sc, waits)
    none = _steps(_without_pending(sc), waits)
    assert pending[2] == none[2]  # not arrived yet
    assert pending == none
    assert max(pending[0]) == STEADY_STEP_S == 10.0  # chunks of the simulator's steady step


def test_a_timed_failure_splits_only_the_chunk_it_arrives_in():
    sc = load(SCENARIOS / "air" / "pack1_ovht_then_pack2_fault_cruise.yaml")
    steps, _, failures = _steps(sc, [38.0, 20.0])
    assert "air_pack2_fault" in failures
    assert steps[-3:] == [2.0, 10.0, 8.0]  # 38 -> 40 (arrival), then the rest of the 20 s in 10 s chunks


def test_a_predicate_trigger_is_read_at_every_chunk_before_and_after_its_failure_arrives(monkeypatch):
    import a320bench.server.episode as episode

    reads: list[float] = []
    real = episode.holds
    monkeypatch.setattr(episode, "holds", lambda ac, p: reads.append(ac.sim_time) or real(ac, p))
    ep = new_episode(load(SCENARIOS / "eng" / "eng1_flameout_then_gen2_fault_cruise.yaml"))
    ep.advance(50.0)
    before = len(reads)
    ep.pending.clear()  # as if the failure had arrived
    ep.advance(50.0)
    assert (before, len(reads) - before) == (5, 5)  # one read per 10 s chunk
