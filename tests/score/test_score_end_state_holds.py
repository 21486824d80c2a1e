"""The outcome is judged on an end state that holds by itself, not only at the instant of report_done.

Red-team round 6: after the procedure, an agent sets the FCU altitude back to the cruise level,
pulls the knob (a repeat of a done step: `redundant`) and reports done at once. The climb has
not shown yet, so every criterion held at the end: compliant success for undoing an emergency
descent, a drift-down, or the descent a gravity feed needs. The final verdict now also flies a
copy of the aircraft on, hands off (server/scenario/hands_off.py).
"""

from __future__ import annotations

import pytest

from a320bench.server.scenario.hands_off import HANDS_OFF_S

from flight_bed import ProcedureThen, fly, scenario

CLIMB_BACK = [("FCU ALT", "FL350"), ("FCU ALT KNOB", "PULL")]


def _final(events):
    return next(e for e in events if e["type"] == "final")


@pytest.mark.parametrize(("rel", "failed"), [
    # the outflow valve still jammed open: climbing back to FL350 with the cabin following
    ("air/excess_cab_alt_cruise", [("flight.altitude_ft", 14014.0)]),
    # one engine out: the speed decays below the drift-down's band
    ("eng/eng1_fail_drift_down_cruise", [("flight.ias_kt", 200.5)]),
    # both left pumps lost: above the gravity feed ceiling engine 1 flames out
    ("fuel/l_tk_pumps_gravity_feed_climb", [("eng1.running", False), ("fuel.eng_1_feed_source", ""),
                                            ("flight.altitude_ft", 19598.1)]),
])
def test_a_climb_back_set_going_just_before_report_done_fails_the_outcome(rel, failed):
    card, events = fly(scenario(rel), ProcedureThen(CLIMB_BACK))
    success = _final(events)["success"]
    assert all(c["passed"] for c in success["criteria"])  # at the instant of report_done all looked well
    assert success["hands_off"]["after_s"] == HANDS_OFF_S == 120.0
    assert [(c["var"], c["actual"]) for c in success["hands_off"]["failed"] if c["kind"] == "state"] == failed
    assert (success["passed"], card.reported_done, card.outcome, card.compliant_success) == (False, True, False, False)
    assert [c["class"] for c in card.commands[-3:]] == ["extraneous", "redundant", "observation"]


def test_the_procedure_alone_holds_hands_off():
    card, events = fly(scenario("air/excess_cab_alt_cruise"), ProcedureThen())
    assert _final(events)["success"]["hands_off"] == {"after_s": 120.0, "failed": [], "passed": True}
    assert (card.outcome, card.compliant_success) == (True, True)


def test_the_hands_off_flight_leaves_the_episode_as_it_was():
    card, events = fly(scenario("air/excess_cab_alt_cruise"), ProcedureThen())
    final = _final(events)
    last = [e for e in events if e["type"] == "tool_call"][-1]
    assert final["sim_time_s"] == last["sim_time_after_s"]  # the copy flew on, not the episode's aircraft


def test_an_end_that_already_failed_is_not_flown_on():
    # No procedure: the cabin altitude criteria fail at report_done; 120 s more could not pass them.
    card, events = fly(scenario("air/excess_cab_alt_cruise"), ProcedureThen(procedure=False))
    success = _final(events)["success"]
    assert not all(c["passed"] for c in success["criteria"])
    assert (success["hands_off"], success["passed"], card.outcome) == (None, False, False)


def test_an_end_state_flown_before_gives_the_same_verdict_without_flying_again(monkeypatch):
    """`--runs N` of a deterministic agent ends N times in one state: the flight is kept by the whole state."""
    from a320bench.server.scenario import hands_off as module
    from a320bench.server.scenario.harness import prepare

    sc = scenario("eng/eng1_fail_drift_down_cruise")
    monkeypatch.setattr(module, "_FLOWN", type(module._FLOWN)())
    flown = []
    real = module._fly
    monkeypatch.setattr(module, "_fly", lambda twin, sc, s: flown.append(twin.sim_time) or real(twin, sc, s))
    ac, _ = prepare(sc)
    first = module.hands_off(ac, sc)
    first["failed"].append("a reader's edit")  # what a caller does with its verdict stays its own
    again = module.hands_off(prepare(sc)[0], sc)  # another aircraft in the very same state
    # Nobody flew the procedure: the speed decays below the drift-down's band and ENG 1 FAIL stays.
    assert (len(flown), again) == (1, {"after_s": 120.0, "failed": [
        {"kind": "state", "var": "controls.ENG MASTER 1", "op": "eq", "actual": "ON", "value": "OFF"},
        {"kind": "state", "var": "controls.THR LEVER 2", "op": "eq", "actual": "CL", "value": "FLX/MCT"},
        {"kind": "state", "var": "fire.eng1_agent_1_discharged", "op": "eq", "actual": False, "value": True},
        {"kind": "state", "var": "flight.ias_kt", "op": "between", "actual": 213.0, "low": 220.0, "high": 250.0},
        {"kind": "ecam_clear_of", "titles": ["ENG 1 FAIL"], "present": ["ENG 1 FAIL"]}], "passed": False})
    ac.advance(0.2)  # a tick later is another state: flown
    module.hands_off(ac, sc)
    ac.rng.random()  # and so is the same aircraft whose random generator moved on
    module.hands_off(ac, sc)
    assert module.hands_off(ac, sc, seconds=60.0)["after_s"] == 60.0
    assert len(flown) == 4
