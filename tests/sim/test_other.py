"""Flight control computers, cargo smoke and avionics ventilation (domain reference §1.7, §4 O1-O3)."""

import json

import pytest

from a320bench.server.sim import FAILURES, PAGES, build


def _lines(ac, title):
    for a in ac.read_ecam()["alerts"]:
        if a["title"] == title:
            return a["lines"]
    raise AssertionError(f"{title} not displayed; shown: {ac.ecam_titles()}")


def test_a_resettable_elac_1_fault_comes_back_after_off_then_on():
    """FCTL-01."""
    ac = build("cruise")
    ac.inject_failure("fctl_elac1_fault_resettable")
    ac.advance(1.0)
    assert ac.ecam_titles() == ["F/CTL ELAC 1 FAULT"]
    assert _lines(ac, "F/CTL ELAC 1 FAULT") == ["-ELAC 1......OFF THEN ON", "FUEL CONSUMPT INCRSD", "FMS PRED UNRELIABLE"]
    assert ac.system_page("F/CTL")["computers"]["ELAC 1"] == {"pb": "ON", "status": "FAULT", "fault_light": True}
    ac.set_control("ELAC 1", "OFF")
    ac.advance(1.0)
    ac.set_control("ELAC 1", "ON")
    ac.advance(1.0)
    assert ac.get("fctl.elac1_engaged") is True
    assert ac.active_failures() == []
    assert ac.ecam_titles() == []


def test_a_hard_elac_1_fault_asks_for_elac_1_off_after_an_unsuccessful_reset():
    """FCTL-01."""
    ac = build("cruise")
    ac.inject_failure("fctl_elac1_fault")
    ac.advance(1.0)
    ac.set_control("ELAC 1", "OFF")
    ac.advance(1.0)
    assert ac.ecam_titles() == []  # PB OFF: no FAULT light, no caution
    ac.set_control("ELAC 1", "ON")
    ac.advance(1.0)
    assert _lines(ac, "F/CTL ELAC 1 FAULT") == [".IF UNSUCCESSFUL :", "-ELAC 1..............OFF", "FUEL CONSUMPT INCRSD",
                                                "FMS PRED UNRELIABLE"]
    ac.set_control("ELAC 1", "OFF")
    ac.advance(1.0)
    assert ac.ecam_titles() == []
    assert ac.get("fctl.law") == "NORMAL"  # ELAC 2 keeps normal law
    assert ac.system_page("STATUS")["inop_sys"] == ["ELAC 1"]


def test_a_sec_1_fault_forbids_the_speed_brakes():
    """FCTL-01."""
    ac = build("cruise")
    ac.inject_failure("fctl_sec1_fault")
    ac.advance(1.0)
    assert _lines(ac, "F/CTL SEC 1 FAULT") == ["-SEC 1.......OFF THEN ON", "SPD BRK.......DO NOT USE"]
    assert ac.system_page("F/CTL")["spoilers"] == {"SPLR 1": "AVAIL", "SPLR 2": "AVAIL", "SPLR 3": "LOST",
                                                   "SPLR 4": "LOST", "SPLR 5": "AVAIL"}


def test_losing_both_elacs_gives_alternate_law_and_losing_both_facs_too_gives_direct_law():
    """FCTL-02."""
    ac = build("cruise")
    assert ac.get("fctl.law") == "NORMAL"
    ac.inject_failure("fctl_elac1_fault")
    ac.inject_failure("fctl_elac2_fault")
    ac.advance(1.0)
    assert ac.get("fctl.law") == "ALTN"
    assert ac.ecam_titles() == ["F/CTL ALTN LAW", "F/CTL ELAC 1 FAULT", "F/CTL ELAC 2 FAULT"]
    assert ac.system_page("F/CTL")["elevators"] == "SEC 2"
    ac.inject_failure("fctl_fac1_fault")
    ac.inject_failure("fctl_fac2_fault")
    ac.advance(1.0)
    assert ac.get("fctl.law") == "DIRECT"
    assert ac.ecam_titles()[0] == "F/CTL DIRECT LAW"
    assert "F/CTL PROT" in ac.system_page("STATUS")["inop_sys"]


def test_the_law_is_ground_law_on_the_ground_and_no_computer_fault_shows_without_power():
    """FCTL-02."""
    ac = build("cold_dark")
    assert ac.get("fctl.law") == "GROUND"
    assert ac.system_page("F/CTL")["computers"]["FAC 2"]["status"] == "UNPOWERED"
    assert ac.ecam_titles() == []


def test_a_forward_cargo_fire_is_smoke_warning_that_clears_after_the_cargo_agent():
    """FWC-02."""
    ac = build("cruise")
    ac.inject_failure("smoke_fwd_cargo_fire")
    ac.advance(3.0)
    assert ac.ecam_titles() == ["SMOKE FWD CARGO SMOKE"]
    ecam = ac.read_ecam()
    assert ecam["master_warning"] is True
    assert ecam["memos"][0] == "LAND ASAP (RED)"
    assert _lines(ac, "SMOKE FWD CARGO SMOKE") == [
        "-FWD ISOL VALVE......OFF",
        "-CAB FANS............OFF",
        ".IF FWD CARG CLOSED:",
        "-AGENT.............DISCH",
        ".WHEN ON GROUND:",
        ".BEFORE OPEN CRG DOORS:",
        "-PAX...........DISEMBARK",
    ]
    assert ac.get("vent.fwd_isol_valves_open") is False  # closed automatically on detection
    ac.set_control("FWD ISOL VALVE", "OFF")
    ac.set_control("CAB FANS", "OFF")
    ac.set_control("CARGO AGENT", "PUSH")
    ac.advance(1.0)
    assert ac.get("vent.cargo_agent_discharged") is True
    assert ac.get("vent.cab_fans_running") is False
    assert _lines(ac, "SMOKE FWD CARGO SMOKE") == [".WHEN ON GROUND:", ".BEFORE OPEN CRG DOORS:", "-PAX...........DISEMBARK"]
    ac.advance(20.0)
    assert ac.get("vent.fwd_cargo_smoke_detected") is False
    assert ac.ecam_titles() == []
    assert ac.system_page("FIRE")["CARGO"]["AGENT"] == "DISCH"


def test_a_blower_fault_asks_for_blower_ovrd():
    """FWC-02."""
    ac = build("cruise")
    ac.inject_failure("vent_blower_fault")
    ac.advance(1.0)
    assert ac.ecam_titles() == ["VENT BLOWER FAULT"]
    assert _lines(ac, "VENT BLOWER FAULT") == ["-BLOWER.............OVRD"]
    ac.set_control("BLOWER", "OVRD")
    ac.advance(1.0)
    assert ac.ecam_titles() == []
    assert ac.system_page("STATUS")["inop_sys"] == ["BLOWER"]


MINE = ("eng", "fire", "apu", "fctl", "smoke", "vent")


@pytest.mark.parametrize("failure_id", [f for f in FAILURES if f.split("_")[0] in MINE])
def test_no_failure_id_appears_on_the_ecam_or_a_system_page(failure_id):
    """FWC-01."""
    ac = build("cruise")
    ac.inject_failure(failure_id)
    ac.advance(40.0)
    text = json.dumps([ac.read_ecam()] + [ac.system_page(p) for p in PAGES])
    for fid in FAILURES:
        if fid.split("_")[0] in MINE:
            assert fid not in text


def test_every_start_state_is_free_of_alerts_and_of_my_status_items():
    """FWC-01."""
    for name in ("cold_dark", "apu_running", "engines_running", "takeoff_roll", "climb", "cruise"):
        ac = build(name)
        assert ac.ecam_titles() == [], name
        assert ac.system_page("STATUS")["inop_sys"] == [], name


def test_clearing_a_vent_failure_puts_the_fan_back_in_service():
    """FWC-01."""
    ac = build("cruise")
    ac.inject_failure("vent_extract_fault")
    ac.advance(1.0)
    assert ac.ecam_titles() == ["VENT EXTRACT FAULT"]
    ac.clear_failure("vent_extract_fault")
    ac.advance(1.0)
    assert ac.get("vent.extract_running") is True
    assert ac.ecam_titles() == []
