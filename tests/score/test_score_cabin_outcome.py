"""Manual pressurisation is judged on the cabin, held for a minute, not on the valve (red-team finding 11)."""

from __future__ import annotations

import pytest

from flight_bed import ProcedureThen, fly, scenario


def man_dn(seconds_dn: float, hold_s: float = 120):
    ops = [("CAB PRESS MODE SEL", "MAN"), ("MAN V/S CTL", "DN"), ("wait", seconds_dn - 2), ("MAN V/S CTL", "NEUTRAL")]
    return ops + ([("wait", hold_s)] if hold_s else [])


def cabin(events):
    final = [e for e in events if e["type"] == "final"][-1]
    crits = final["success"]["criteria"]
    seen = {c["var"]: c["actual"] for c in crits if c.get("var", "").startswith("press.")}
    return seen, [c.get("var") or c.get("titles") for c in crits if not c["passed"]]


@pytest.mark.parametrize(("dn_s", "seen", "failed", "hands_off_failed"), [
    # a few seconds of DN: a normal cabin, and it stays so; the valve % no longer matters
    (5, {"press.cabin_alt_ft": 6196, "press.cabin_vs_fpm": -92, "press.diff_psi": 8.04}, [], []),
    # a normal cabin at the end, but still sinking at 280 fpm: 120 s later (hands off, round 6) the
    # differential passes 8.6 psi and the safety valve opens -- it did not hold
    (8, {"press.cabin_alt_ft": 5742, "press.cabin_vs_fpm": -280, "press.diff_psi": 8.25}, [],
     ["press.diff_psi", ["CAB PR EXCESS CAB ALT", "CAB PR SAFETY VALVE OPEN"]]),
    # too much: the cabin dives toward the safety valve, then the valve opens (failed at the end:
    # not flown on, hands_off null)
    (12, {"press.cabin_alt_ft": 5145, "press.cabin_vs_fpm": -520, "press.diff_psi": 8.52}, ["press.cabin_vs_fpm"],
     None),
    (16, {"press.cabin_alt_ft": 4906, "press.cabin_vs_fpm": 275, "press.diff_psi": 8.64},
     ["press.cabin_vs_fpm", "press.diff_psi", ["CAB PR EXCESS CAB ALT", "CAB PR SAFETY VALVE OPEN"]], None),
])
def test_the_cabin_decides_not_the_outflow_valve_percentage(dn_s, seen, failed, hands_off_failed):
    card, events = fly(scenario("air/cab_pr_sys_1_2_fault_climb"), ProcedureThen(man_dn(dn_s), procedure=False))
    assert cabin(events) == (seen, failed)
    hands_off = [e for e in events if e["type"] == "final"][-1]["success"]["hands_off"]
    if hands_off_failed is None:
        assert hands_off is None
    else:
        assert [c.get("var") or c.get("titles") for c in hands_off["failed"]] == hands_off_failed
    assert card.compliant_success is (not failed and not hands_off_failed)


def test_a_cabin_that_has_not_yet_held_for_a_minute_does_not_pass():
    _, events = fly(scenario("air/cab_pr_sys_1_2_fault_climb"), ProcedureThen(man_dn(5, hold_s=0), procedure=False))
    final = [e for e in events if e["type"] == "final"][-1]
    held = {c["var"]: (c["held_for_s"], c["passed"]) for c in final["success"]["criteria"] if "held_s" in c}
    assert held == {"press.cabin_alt_ft": (9.0, False), "press.cabin_vs_fpm": (9.0, False),
                    "press.diff_psi": (9.0, False)}
