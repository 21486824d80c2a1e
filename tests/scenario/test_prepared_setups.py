"""A setup is prepared once per process and content, then copied: the copy is the same aircraft,
gate and setup event as a setup run afresh, and every episode gets its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from a320bench.server.scenario import harness
from a320bench.server.scenario.loader import load

ROOT = Path(__file__).resolve().parents[2]
CASES = [
    "scenarios/elec/gen1_fault_reset_fails.yaml",  # a timed failure
    "scenarios/fuel/auto_feed_fault_cruise.yaml",  # a failure waiting on a state predicate
    "scenarios/hyd/g_y_sys_lo_pr_leaks_cruise.yaml",  # leaks draining through the gate
    "tests/scenarios/controls/tr1_fault_only.yaml",  # control overrides before the failure
    "tests/scenarios/invalid_gate/gate_never_shows.yaml",  # the gate refuses
    "tests/scenarios/invalid_gate/trigger_never_holds.yaml",  # the setup itself fails
]


@pytest.mark.parametrize("rel", CASES, ids=lambda r: Path(r).stem)
def test_a_kept_setup_gives_the_aircraft_gate_and_hash_of_a_fresh_one(rel):
    sc = load(ROOT / rel)
    harness.prepared(sc)  # kept from here on
    kept = harness.prepared(sc)
    fresh_ac, fresh_gate = harness._prepare(sc)
    assert kept.gate == fresh_gate
    assert kept.state_hash == fresh_ac.state_hash() == kept.aircraft.state_hash()
    assert (kept.aircraft.sim_time, kept.aircraft.ticks) == (fresh_ac.sim_time, fresh_ac.ticks)
    assert kept.aircraft.snapshot() == fresh_ac.snapshot()
    assert kept.aircraft.read_ecam() == fresh_ac.read_ecam()
    # ...and they fly on alike.
    for ac in (kept.aircraft, fresh_ac):
        ac.set_control("GALY & CAB", "OFF")
        ac.advance(30.0)
    assert kept.aircraft.state_hash() == fresh_ac.state_hash()
    assert kept.aircraft.read_ecam() == fresh_ac.read_ecam()


def test_every_episode_gets_its_own_aircraft_and_gate():
    sc = load(ROOT / "scenarios/elec/gen1_fault_reset_fails.yaml")
    first = harness.prepared(sc)
    first.aircraft.set_control("GEN 2", "OFF")
    first.aircraft.advance(10.0)
    first.gate.displayed.append("SCRIBBLED")
    second = harness.prepared(sc)
    assert second.aircraft is not first.aircraft
    assert second.aircraft.controls["GEN 2"] == "ON"
    assert second.aircraft.state_hash() == second.state_hash
    assert "SCRIBBLED" not in second.gate.displayed


def test_the_setup_key_follows_what_the_setup_depends_on_only():
    sc = load(ROOT / "scenarios/elec/gen1_fault_reset_fails.yaml")
    key = harness.setup_key(sc)
    assert harness.setup_key(sc.model_copy(update={"task_prompt": "another prompt"})) == key
    assert harness.setup_key(sc.model_copy(update={"budget": sc.budget.model_copy(update={"max_tool_calls": 3})})) \
        == key
    other_world = sc.initial_state.model_copy(update={"world": {"icing": True}})
    assert harness.setup_key(sc.model_copy(update={"initial_state": other_world})) != key
    later = [f.model_copy(update={"settle_s": f.settle_s + 1}) for f in sc.failures]
    assert harness.setup_key(sc.model_copy(update={"failures": later})) != key
    gate = sc.expected_ecam.model_copy(update={"must_appear": []})
    assert harness.setup_key(sc.model_copy(update={"expected_ecam": gate})) != key


def test_the_kept_setups_are_bounded(monkeypatch):
    monkeypatch.setattr(harness, "KEPT_SETUPS", 2)
    monkeypatch.setattr(harness, "_KEPT", type(harness._KEPT)())
    sc = load(ROOT / "scenarios/elec/gen1_fault_reset_fails.yaml")
    for settle in (1, 2, 3):
        harness.prepared(sc.model_copy(update={"failures": [f.model_copy(update={"settle_s": settle})
                                                             for f in sc.failures]}))
    assert len(harness._KEPT) == 2


@pytest.mark.parametrize("rel", CASES[:4], ids=lambda r: Path(r).stem)
def test_the_kept_start_effects_are_those_measured_on_a_fresh_setup(rel):
    from a320bench.server.scenario.effects import start_effects

    sc = load(ROOT / rel)
    harness.prepared(sc)
    kept = harness.prepared(sc)
    fresh_ac, _ = harness._prepare(sc)
    assert kept.effects == start_effects(fresh_ac) == start_effects(kept.aircraft)
    assert kept.effects.capabilities  # a real measure: an aircraft in flight has capabilities


def test_every_copy_gets_its_own_random_generator_in_the_kept_state():
    sc = load(ROOT / "scenarios/elec/gen1_fault_reset_fails.yaml")
    fresh_ac, _ = harness._prepare(sc)
    first, second = harness.prepared(sc).aircraft, harness.prepared(sc).aircraft
    assert first.rng is not second.rng
    assert first.rng.getstate() == second.rng.getstate() == fresh_ac.rng.getstate()
    drawn = [first.rng.random() for _ in range(3)]
    assert second.rng.getstate() == fresh_ac.rng.getstate()  # drawing from one moves only its own
    assert [second.rng.random() for _ in range(3)] == drawn


def test_a_scenario_hash_and_setup_key_are_never_those_of_the_scenario_it_was_copied_from():
    from a320bench.server.session import scenario_hash

    sc = load(ROOT / "scenarios/elec/gen1_fault_reset_fails.yaml")
    key, hashed = harness.setup_key(sc), scenario_hash(sc)  # kept for `sc` from here on
    other = sc.model_copy(update={"budget": sc.budget.model_copy(update={"max_tool_calls": 3})})
    assert scenario_hash(other) != hashed
    assert scenario_hash(load(ROOT / "scenarios/elec/gen1_fault_reset_fails.yaml")) == hashed
    later = sc.model_copy(update={"failures": [f.model_copy(update={"settle_s": f.settle_s + 1})
                                                for f in sc.failures]})
    assert harness.setup_key(later) != key == harness.setup_key(sc)
