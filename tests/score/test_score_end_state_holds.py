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
    ("eng/eng1_fail_drift_down_cruise", [("flight.ias_kt", 200.6)]),
    # both left pumps lost: above the gravity feed ceiling engine 1 flames out
    ("fuel/l_tk_pumps_gravity_feed_climb", [("eng1.running", False), ("fuel.eng_1_feed_source", ""),
                                            ("flight.altitude_ft", 18924.1)]),
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
