"""ELEC EMER CONFIG's lines beyond the scored procedure (domain reference E8, FG): the second GEN 1+2
reset after BUS TIE OFF, FAC 1 OFF THEN ON and the avionics ventilation OVRD. A crew doing them where
the emergency configuration shows is not failed, in every scenario that shows it."""

import pytest

from flight_bed import ProcedureWith, fly, scenario

E8_LINES = [("GEN 1", "OFF"), ("GEN 2", "OFF"), ("GEN 1", "ON"), ("GEN 2", "ON"),
            ("FAC 1", "OFF"), ("FAC 1", "ON"), ("BLOWER", "OVRD"), ("EXTRACT", "OVRD")]


@pytest.mark.parametrize("rel,after", [
    ("elec/emer_config_cruise", ("BUS TIE", "OFF")),
    ("elec/emer_config_apu_no_start_cruise", ("BUS TIE", "OFF")),
    ("elec/emer_config_apu_no_start_descent", ("BUS TIE", "OFF")),
    ("elec/ess_buses_on_bat_descent", ("BUS TIE", "OFF")),
    ("fire/eng1_then_gen2_fault_cruise", ("BUS TIE", "OFF")),
    ("fire/eng2_then_gen1_fault_climb", ("BUS TIE", "OFF")),
    ("eng/dual_failure_one_damaged_cruise", ("ENG MODE", "IGN START")),
    ("eng/dual_failure_relight_cruise", ("ENG MODE", "IGN START")),
    ("eng/dual_failure_relight_descent", ("ENG MODE", "IGN START")),
])
def test_a_crew_doing_every_e8_line_in_the_emergency_configuration_is_not_failed(rel, after):
    card, _ = fly(scenario(rel), ProcedureWith(after, E8_LINES))
    extra = [c["class"] for c in card.commands if c["name"] == "set_control"
             and (c["arguments"]["control"], c["arguments"]["position"]) in E8_LINES[4:]]
    assert extra == ["optional"] * 4
    assert (card.compliant_success, card.harmful, card.in_order) == (True, 0, True)
