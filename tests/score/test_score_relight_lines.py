"""A relight cycles the master OFF then ON; in flight the master OFF brings ENG n SHUT DOWN up until the
engine runs again (FG a320-fwc.xml eng-n-shutdown), and with it TCAS MODE SEL TA. A crew doing that
displayed line is not failed, in the dual relights as in the single-engine ones."""

import pytest

from flight_bed import ProcedureWith, fly, scenario


@pytest.mark.parametrize("rel", ["eng/dual_failure_relight_cruise", "eng/dual_failure_relight_descent",
                                 "eng/eng1_fail_relight_cruise", "eng/eng2_fail_relight_climb"])
def test_tcas_ta_from_the_shut_down_alert_of_a_relight_cycle_is_not_failed(rel):
    master = "ENG MASTER 1" if "eng1" in rel else "ENG MASTER 2"
    card, events = fly(scenario(rel), ProcedureWith((master, "OFF"), [("TCAS MODE SEL", "TA")]))
    (off,) = [e for e in events if e["type"] == "tool_call" and e["name"] == "set_control"
              and e["arguments"] == {"control": master, "position": "OFF"}]
    assert f"ENG {master[-1]} SHUT DOWN" in [c["title"] for c in off["ecam_changes"] if c.get("shown")]
    (tcas,) = [c["class"] for c in card.commands if c["arguments"].get("control") == "TCAS MODE SEL"]
    assert (tcas, card.compliant_success) == ("optional", True)
