"""Hydraulics: EDPs, electric pumps, PTU, RAT, reservoirs (domain reference §1.2, §4 H1-H9)."""

import json

from a320bench.server.sim import build
from a320bench.server.sim.hyd import FAILURES


def _lines(ac, title):
    for a in ac.read_ecam()["alerts"]:
        if a["title"] == title:
            return a["lines"]
    raise AssertionError(f"{title} not displayed; shown: {ac.ecam_titles()}")


def _hyd_titles(ac):
    return [t for t in ac.ecam_titles() if t.startswith("HYD")]


def test_a_normal_cruise_has_three_circuits_at_3000_psi_and_no_hyd_alert():
    """HYD-01."""
    ac = build("cruise")
    assert [ac.get(f"hyd.{c}_press_psi") for c in ("green", "blue", "yellow")] == [3000, 3000, 3000]
    assert ac.get("hyd.ptu_running") is False
    assert ac.get("hyd.rat_deployed") is False
    assert _hyd_titles(ac) == []
    assert ac.system_page("STATUS")["inop_sys"] == []


def test_cold_and_dark_has_no_hydraulic_pressure_and_no_alert():
    """HYD-01."""
    ac = build("cold_dark")
    assert [ac.get(f"hyd.{c}_press_psi") for c in ("green", "blue", "yellow")] == [0, 0, 0]
    assert ac.ecam_titles() == []


def test_the_ptu_keeps_green_pressurised_after_a_green_edp_failure_in_cruise():
    """HYD-02."""
    ac = build("cruise")
    ac.inject_failure("hyd_green_edp_fail")
    ac.advance(5.0)
    assert ac.get("hyd.eng1_pump_press_psi") == 0
    assert ac.get("hyd.ptu_running") is True
    assert ac.get("hyd.green_press_psi") == 2800
    assert ac.get("hyd.yellow_press_psi") == 3000
    assert ac.ecam_titles() == ["HYD G ENG 1 PUMP LO PR"]
    assert _lines(ac, "HYD G ENG 1 PUMP LO PR") == ["-GREEN ENG 1 PUMP....OFF"]
    ecam = ac.read_ecam()
    assert ecam["master_caution"] is True and ecam["master_warning"] is False
    assert "HYD PTU" in ecam["memos"]
    page = ac.system_page("HYD")
    assert page["GREEN"]["ENG 1 PUMP"] == {"pb": "AUTO", "state": "LO PR", "fault_light": True}
    assert page["PTU"]["state"] == "RUNNING Y>G"


def test_setting_the_failed_green_pump_off_clears_the_caution_and_the_ptu_still_feeds_green():
    """HYD-02, FWC-02."""
    ac = build("cruise")
    ac.inject_failure("hyd_green_edp_fail")
    ac.advance(5.0)
    ac.set_control("ENG 1 PUMP", "OFF")
    ac.advance(2.0)
    assert ac.ecam_titles() == []
    assert ac.get("hyd.green_press_psi") == 2800
    assert ac.system_page("HYD")["GREEN"]["ENG 1 PUMP"] == {"pb": "OFF", "state": "OFF", "fault_light": False}
    assert ac.system_page("STATUS")["inop_sys"] == ["G ENG 1 PUMP"]


def test_with_the_ptu_off_a_green_edp_failure_loses_green_without_a_duplicate_sys_lo_pr():
    """HYD-01."""
    ac = build("cruise")
    ac.set_control("PTU", "OFF")
    ac.inject_failure("hyd_green_edp_fail")
    ac.advance(30.0)
    assert ac.get("hyd.green_press_psi") == 0
    assert ac.get("hyd.green_lo_pr") is True
    assert _hyd_titles(ac) == ["HYD G ENG 1 PUMP LO PR"]
    assert ac.system_page("STATUS")["inop_sys"][:3] == ["G HYD", "G ENG 1 PUMP", "PTU"]


def test_a_yellow_edp_failure_is_covered_by_the_ptu_from_green():
    """HYD-02."""
    ac = build("cruise")
    ac.inject_failure("hyd_yellow_edp_fail")
    ac.advance(5.0)
    assert ac.get("hyd.yellow_press_psi") == 2800
    assert ac.ecam_titles() == ["HYD Y ENG 2 PUMP LO PR"]
    assert _lines(ac, "HYD Y ENG 2 PUMP LO PR") == ["-YELLOW ENG 2 PUMP...OFF"]
    assert ac.system_page("HYD")["PTU"]["state"] == "RUNNING G>Y"


def test_a_blue_elec_pump_failure_loses_blue_and_shows_only_the_pump_caution():
    """HYD-01."""
    ac = build("cruise")
    ac.inject_failure("hyd_blue_elec_pump_fail")
    ac.advance(30.0)
    assert ac.get("hyd.blue_press_psi") == 0
    assert _hyd_titles(ac) == ["HYD B ELEC PUMP LO PR"]
    assert _lines(ac, "HYD B ELEC PUMP LO PR") == ["-BLUE ELEC PUMP......OFF"]
    assert ac.get("hyd.rat_deployed") is False  # RAT MAN ON is not part of this procedure
    ac.set_control("BLUE ELEC PUMP", "OFF")
    ac.advance(2.0)
    assert _hyd_titles(ac) == ["HYD B SYS LO PR"]  # the circuit stays lost; no action lines
    assert _lines(ac, "HYD B SYS LO PR") == []
    assert ac.system_page("STATUS")["inop_sys"][:2] == ["B HYD", "B ELEC PUMP"]


def test_a_green_reservoir_leak_drops_the_level_first_then_the_pressure():
    """HYD-03."""
    ac = build("cruise")
    ac.inject_failure("hyd_green_reservoir_leak")
    ac.advance(60.0)
    assert ac.get("hyd.green_rsvr_qty_l") == 5.0
    assert ac.get("hyd.green_press_psi") == 3000
    assert ac.ecam_titles() == []
    ac.advance(15.0)
    assert ac.get("hyd.green_rsvr_qty_l") == 2.75
    assert ac.ecam_titles() == ["HYD G RSVR LO LVL"]
    assert _lines(ac, "HYD G RSVR LO LVL") == ["-PTU.................OFF", "-GREEN ENG 1 PUMP....OFF"]
    page = ac.system_page("HYD")
    assert page["GREEN"]["reservoir"]["lo_lvl"] is True
    assert page["GREEN"]["ENG 1 PUMP"]["fault_light"] is True
    assert page["PTU"]["fault_light"] is True
    ac.advance(30.0)
    assert ac.get("hyd.green_press_psi") < 1450
    # The reservoir is the cause: no pump LO PR beside it, but the circuit is lost.
    assert _hyd_titles(ac) == ["HYD G RSVR LO LVL", "HYD G SYS LO PR"]


def test_ptu_off_and_green_pump_off_after_a_green_leak_protect_yellow():
    """HYD-03."""
    ac = build("cruise")
    ac.inject_failure("hyd_green_reservoir_leak")
    ac.advance(75.0)
    ac.set_control("PTU", "OFF")
    ac.set_control("ENG 1 PUMP", "OFF")
    ac.advance(5.0)
    assert _lines(ac, "HYD G RSVR LO LVL") == []
    ac.advance(600.0)
    assert ac.get("hyd.green_press_psi") == 0
    assert ac.get("hyd.green_rsvr_qty_l") > 2.0  # a depressurised circuit stops leaking
    assert ac.get("hyd.yellow_press_psi") == 3000
    assert ac.get("hyd.yellow_rsvr_temp_c") == 45.0
    assert ac.get("hyd.blue_press_psi") == 3000
    assert _hyd_titles(ac) == ["HYD G RSVR LO LVL", "HYD G SYS LO PR"]


def test_leaving_the_ptu_in_auto_after_a_green_leak_runs_it_dry_and_overheats_yellow():
    """HYD-03."""
    ac = build("cruise")
    ac.inject_failure("hyd_green_reservoir_leak")
    ac.advance(400.0)
    assert ac.get("hyd.ptu_running") is True
    assert ac.get("hyd.yellow_rsvr_temp_c") > 95.0
    assert "HYD Y RSVR OVHT" in ac.ecam_titles()
    assert _lines(ac, "HYD Y RSVR OVHT") == ["-PTU.................OFF", "-YELLOW ENG 2 PUMP...OFF"]


def test_a_green_edp_overheat_shows_rsvr_ovht_and_clears_once_the_fluid_cools():
    """HYD-04."""
    ac = build("cruise")
    ac.inject_failure("hyd_green_edp_overheat")
    ac.advance(60.0)
    assert ac.ecam_titles() == ["HYD G RSVR OVHT"]
    assert _lines(ac, "HYD G RSVR OVHT") == ["-PTU.................OFF", "-GREEN ENG 1 PUMP....OFF"]
    assert "IF G RSVR OVHT OUT: GREEN ENG 1 PUMP ON, PTU AUTO" in ac.system_page("STATUS")["procedures"]
    ac.set_control("PTU", "OFF")
    ac.set_control("ENG 1 PUMP", "OFF")
    ac.advance(5.0)
    # Overheat keeps the FAULT light on with the PB OFF.
    assert ac.system_page("HYD")["GREEN"]["ENG 1 PUMP"]["fault_light"] is True
    ac.advance(120.0)
    assert ac.get("hyd.green_rsvr_temp_c") < 85.0
    assert ac.ecam_titles() == ["HYD G SYS LO PR"]
    assert ac.system_page("HYD")["GREEN"]["ENG 1 PUMP"]["fault_light"] is False


def test_a_transient_green_edp_overheat_is_gone_once_the_pump_was_off_and_the_overheat_out():
    # FCOM STATUS `IF G RSVR OVHT OUT: GREEN ENG 1 PUMP ON, PTU AUTO` (domain reference §4 H7):
    # after the cool-down the crew re-enables the pump and the circuit works again.
    """HYD-04."""
    ac = build("climb")
    ac.inject_failure("hyd_green_edp_overheat_transient")
    ac.advance(60.0)
    assert ac.ecam_titles() == ["HYD G RSVR OVHT"]
    ac.set_control("PTU", "OFF")
    ac.set_control("ENG 1 PUMP", "OFF")
    ac.advance(5.0)
    assert "hyd_green_edp_overheat_transient" in ac.active_failures()  # still hot
    ac.advance(90.0)
    assert ac.get("hyd.green_rsvr_temp_c") < 85.0
    assert ac.active_failures() == []
    assert ac.ecam_titles() == ["HYD G SYS LO PR"]
    ac.set_control("ENG 1 PUMP", "AUTO")
    ac.set_control("PTU", "AUTO")
    ac.advance(300.0)
    assert ac.get("hyd.green_press_psi") == 3000
    assert ac.get("hyd.green_rsvr_temp_c") < 50.0
    assert _hyd_titles(ac) == []


def test_a_transient_overheat_returns_if_the_pump_is_re_enabled_before_the_overheat_is_out():
    """HYD-04."""
    ac = build("cruise")
    ac.inject_failure("hyd_yellow_edp_overheat_transient")
    ac.advance(60.0)
    assert "HYD Y RSVR OVHT" in ac.ecam_titles()
    ac.set_control("PTU", "OFF")
    ac.set_control("ENG 2 PUMP", "OFF")
    ac.advance(10.0)
    ac.set_control("ENG 2 PUMP", "AUTO")
    ac.advance(120.0)
    assert "hyd_yellow_edp_overheat_transient" in ac.active_failures()
    assert ac.get("hyd.yellow_rsvr_temp_c") > 95.0
    assert "HYD Y RSVR OVHT" in ac.ecam_titles()


def test_the_persistent_overheat_comes_back_when_the_pump_is_re_enabled_after_cooling():
    """HYD-04."""
    ac = build("cruise")
    ac.inject_failure("hyd_blue_elec_pump_overheat")
    ac.advance(60.0)
    ac.set_control("BLUE ELEC PUMP", "OFF")
    ac.advance(120.0)
    assert "HYD B RSVR OVHT" not in ac.ecam_titles()
    ac.set_control("BLUE ELEC PUMP", "AUTO")
    ac.advance(120.0)
    assert "HYD B RSVR OVHT" in ac.ecam_titles()


def test_a_yellow_reservoir_air_loss_makes_the_yellow_pressure_fluctuate():
    """HYD-01."""
    ac = build("cruise")
    ac.inject_failure("hyd_yellow_reservoir_air_loss")
    ac.advance(20.0)
    assert ac.ecam_titles() == ["HYD Y RSVR LO AIR PR"]
    assert _lines(ac, "HYD Y RSVR LO AIR PR") == [
        ".IF PRESS FLUCTUATES:", "-PTU.................OFF", "-YELLOW ENG 2 PUMP...OFF"]
    seen = set()
    for _ in range(6):
        ac.advance(1.0)
        seen.add(ac.get("hyd.eng2_pump_press_psi"))
    assert len(seen) == 6
    assert max(seen) < 3000


def test_losing_both_generators_in_flight_deploys_the_rat_and_pressurises_blue():
    """HYD-05."""
    ac = build("cruise")
    ac.inject_failure("elec_gen1_gcu_trip")
    ac.inject_failure("elec_gen2_gcu_trip")
    ac.advance(15.0)
    assert ac.get("hyd.rat_deployed") is True
    assert ac.get("hyd.blue_elec_pump_press_psi") == 0
    assert ac.get("hyd.rat_pump_press_psi") == 2500
    assert ac.get("hyd.blue_press_psi") == 2500
    assert ac.get("elec.emer_gen_online") is True
    assert _hyd_titles(ac) == []
    assert "RAT OUT" in ac.read_ecam()["memos"]
    assert ac.system_page("HYD")["BLUE"]["RAT"] == {"state": "DEPLOYED", "output": "PRESSURISING"}


def test_rat_man_on_on_the_ground_deploys_the_rat_but_it_gives_no_pressure_at_rest():
    """HYD-05."""
    ac = build("engines_running")
    assert ac.set_control("RAT MAN ON", "PUSH") == "NORM"
    ac.advance(10.0)
    assert ac.get("hyd.rat_deployed") is True
    assert ac.get("hyd.rat_pump_press_psi") == 0
    assert ac.get("hyd.emer_man_on") is False


def test_emer_elec_pwr_man_on_deploys_the_rat_too():
    """HYD-05."""
    ac = build("cruise")
    ac.set_control("EMER ELEC PWR MAN ON", "PUSH")
    ac.advance(10.0)
    assert ac.get("hyd.rat_deployed") is True
    assert ac.get("hyd.emer_man_on") is True
    assert ac.get("hyd.rat_pump_press_psi") == 2500


def test_green_and_yellow_edp_failures_give_the_level_3_dual_warning_with_land_asap():
    """HYD-06."""
    ac = build("cruise")
    ac.inject_failure("hyd_green_edp_fail")
    ac.inject_failure("hyd_yellow_edp_fail")
    ac.advance(10.0)
    assert _hyd_titles(ac) == ["HYD G+Y SYS LO PR"]
    ecam = ac.read_ecam()
    assert ecam["alerts"][0]["title"] == "HYD G+Y SYS LO PR"
    assert ecam["alerts"][0]["level"] == 3
    assert ecam["master_warning"] is True
    assert "LAND ASAP (RED)" in ecam["memos"]
    assert _lines(ac, "HYD G+Y SYS LO PR") == [
        "-PTU.................OFF",
        "-GREEN ENG 1 PUMP....OFF",
        "-YELLOW ENG 2 PUMP...OFF",
        "-YELLOW ELEC PUMP.....ON",
        "MANEUVER WITH CARE",
        "FUEL CONSUMPT INCRSD",
        "FMS PRED UNRELIABLE",
    ]
    assert "APPR PROC: DUAL HYD LO PR" in ac.system_page("STATUS")["procedures"]


def test_the_yellow_elec_pump_restores_yellow_after_a_dual_green_yellow_pump_loss():
    """HYD-06."""
    ac = build("cruise")
    ac.inject_failure("hyd_green_edp_fail")
    ac.inject_failure("hyd_yellow_edp_fail")
    ac.advance(10.0)
    ac.set_control("YELLOW ELEC PUMP", "ON")
    ac.advance(10.0)
    assert ac.get("hyd.yellow_press_psi") == 3000
    assert ac.get("hyd.green_press_psi") == 2800  # PTU from the yellow electric pump
    assert _hyd_titles(ac) == ["HYD G ENG 1 PUMP LO PR", "HYD Y ENG 2 PUMP LO PR"]
    assert ac.read_ecam()["master_warning"] is False


def test_a_green_leak_with_a_yellow_edp_failure_offers_the_yellow_elec_pump():
    """HYD-06."""
    ac = build("cruise")
    ac.inject_failure("hyd_green_reservoir_leak")
    ac.inject_failure("hyd_yellow_edp_fail")
    ac.advance(120.0)
    assert _hyd_titles(ac) == ["HYD G+Y SYS LO PR", "HYD G RSVR LO LVL"]
    assert "-YELLOW ELEC PUMP.....ON" in _lines(ac, "HYD G+Y SYS LO PR")  # yellow fluid is intact


def test_a_yellow_leak_with_a_green_edp_failure_does_not_offer_the_yellow_elec_pump():
    """HYD-06."""
    ac = build("cruise")
    ac.inject_failure("hyd_yellow_reservoir_leak")
    ac.inject_failure("hyd_green_edp_fail")
    ac.advance(150.0)
    assert _hyd_titles(ac) == ["HYD G+Y SYS LO PR", "HYD Y RSVR LO LVL"]
    assert _lines(ac, "HYD G+Y SYS LO PR") == [
        "-PTU.................OFF", "-GREEN ENG 1 PUMP....OFF", "-YELLOW ENG 2 PUMP...OFF",
        "MANEUVER WITH CARE", "FUEL CONSUMPT INCRSD", "FMS PRED UNRELIABLE"]


def test_blue_and_yellow_loss_asks_for_the_rat_and_the_rat_brings_blue_back():
    """HYD-06, HYD-05."""
    ac = build("cruise")
    ac.set_control("PTU", "OFF")
    ac.inject_failure("hyd_blue_elec_pump_fail")
    ac.inject_failure("hyd_yellow_edp_fail")
    ac.advance(10.0)
    assert _hyd_titles(ac) == ["HYD B+Y SYS LO PR"]
    assert _lines(ac, "HYD B+Y SYS LO PR") == [
        "MIN RAT SPD.......140 KT",
        "-YELLOW ELEC PUMP.....ON",
        "-RAT..............MAN ON",
        "-BLUE ELEC PUMP......OFF",
        "-YELLOW ENG 2 PUMP...OFF",
        "MAX SPEED........320/.77",
        "MANEUVER WITH CARE",
    ]
    ac.set_control("RAT MAN ON", "PUSH")
    ac.advance(10.0)
    assert ac.get("hyd.blue_press_psi") == 2500
    assert _hyd_titles(ac) == ["HYD Y ENG 2 PUMP LO PR", "HYD B ELEC PUMP LO PR"]


def test_green_and_blue_loss_is_the_g_plus_b_warning():
    """HYD-06."""
    ac = build("cruise")
    ac.set_control("PTU", "OFF")
    ac.inject_failure("hyd_green_edp_fail")
    ac.inject_failure("hyd_blue_elec_pump_fail")
    ac.advance(10.0)
    assert _hyd_titles(ac) == ["HYD G+B SYS LO PR"]
    assert _lines(ac, "HYD G+B SYS LO PR") == [
        "MIN RAT SPD.......140 KT", "-RAT..............MAN ON", "-BLUE ELEC PUMP......OFF", "-GREEN ENG 1 PUMP....OFF"]


def test_the_ptu_is_inhibited_during_the_first_engine_start_and_runs_briefly_after_the_second():
    """HYD-02."""
    ac = build("apu_running")
    ac.set_control("ENG MODE", "IGN START")
    ac.set_control("ENG MASTER 2", "ON")
    ac.advance(60.0)
    assert ac.get("eng2.running") is True
    assert ac.get("hyd.yellow_press_psi") == 3000
    assert ac.get("hyd.green_press_psi") == 0
    assert ac.get("hyd.ptu_running") is False  # one master ON, parking brake ON
    assert ac.ecam_titles() == []  # one engine running on ground: pressure cautions not monitored
    ac.set_control("ENG MASTER 1", "ON")
    ac.advance(1.0)
    assert ac.get("hyd.ptu_running") is True
    ac.advance(60.0)
    assert ac.get("eng1.running") is True
    assert ac.get("hyd.ptu_running") is False
    assert [ac.get(f"hyd.{c}_press_psi") for c in ("green", "blue", "yellow")] == [3000, 3000, 3000]


def test_the_eng_1_fire_pb_closes_the_green_fire_valve_and_the_ptu_takes_over():
    """FIRE-02."""
    ac = build("cruise")
    ac.set_control("ENG 1 FIRE", "RELEASED")
    ac.advance(5.0)
    assert ac.get("hyd.green_fire_valve_open") is False
    assert ac.get("hyd.eng1_pump_press_psi") == 0
    assert ac.get("hyd.green_press_psi") == 2800
    assert "HYD G ENG 1 PUMP LO PR" not in ac.ecam_titles()
    assert ac.system_page("HYD")["GREEN"]["fire_valve"] == "CLOSED"


def test_hyd_pages_and_ecam_never_show_a_failure_id():
    """FWC-01."""
    ids = [f.id for f in FAILURES]
    for fid in ids:
        ac = build("cruise")
        ac.inject_failure(fid)
        ac.advance(90.0)
        text = json.dumps([ac.read_ecam(), ac.system_page("HYD"), ac.system_page("STATUS"), ac.list_controls()])
        assert not any(i in text for i in ids), fid


def test_the_hydraulic_model_is_deterministic():
    """SIM-01."""
    def run():
        ac = build("cruise")
        ac.inject_failure("hyd_green_reservoir_leak")
        ac.inject_failure("hyd_yellow_reservoir_air_loss")
        ac.advance(45.0)
        ac.set_control("PTU", "OFF")
        ac.advance(200.0)
        return ac.state_hash(), ac.snapshot()

    (h1, s1), (h2, s2) = run(), run()
    assert h1 == h2
    assert {k: v for k, v in s1.items() if k.startswith("hyd.")} == {k: v for k, v in s2.items() if k.startswith("hyd.")}


def test_steady_cruise_hydraulics_are_not_transient():
    """SIM-02."""
    ac = build("cruise")
    ac.advance(60.0)
    assert ac.hyd.transient is False
    ac.inject_failure("hyd_green_edp_fail")
    ac.advance(0.2)
    assert ac.hyd.transient is True
    ac.advance(30.0)
    assert ac.hyd.transient is False  # the PTU running steadily is a steady state
