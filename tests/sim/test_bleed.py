"""Pneumatic, air conditioning and anti-ice behaviour (domain reference §1.4, §4 B1-B5, O4)."""

import json

from a320bench.server.sim import FAILURES, build
from sim_bed import start_apu


def _lines(ac, title):
    for alert in ac.read_ecam()["alerts"]:
        if alert["title"] == title:
            return alert["lines"]
    raise AssertionError(f"{title} not displayed: {ac.ecam_titles()}")


def test_eng_1_bleed_overpressure_in_cruise_closes_the_valve_and_shows_a_bleed_fault_caution():
    """AIR-01."""
    ac = build("cruise")
    ac.inject_failure("air_eng1_bleed_overpressure")
    ac.advance(3.0)
    assert ac.get("bleed.eng_1_valve_open") is False
    assert ac.get("bleed.eng_1_bmc_fault") is True
    assert ac.ecam_titles() == ["AIR ENG 1 BLEED FAULT"]
    assert _lines(ac, "AIR ENG 1 BLEED FAULT") == ["-ENG 1 BLEED.........OFF"]
    assert ac.read_ecam()["master_caution"] is True
    assert ac.system_page("BLEED")["ENG 1"]["fault_light"] is True
    # X BLEED AUTO stays shut without APU bleed: pack 1 has no air, pack 2 goes to HI flow alone.
    assert ac.get("bleed.xbleed_valve_open") is False
    assert ac.get("bleed.pack_1_valve_open") is False
    assert ac.get("bleed.pack_2_flow_pct") == 120


def test_eng_1_bleed_off_clears_the_caution_and_status_lists_the_lost_bleed_and_pack():
    """AIR-01."""
    ac = build("cruise")
    ac.inject_failure("air_eng1_bleed_overpressure")
    ac.advance(3.0)
    ac.set_control("ENG 1 BLEED", "OFF")
    ac.advance(1.0)
    assert ac.ecam_titles() == []
    assert ac.system_page("BLEED")["ENG 1"]["fault_light"] is False
    assert ac.system_page("STATUS")["inop_sys"] == ["ENG 1 BLEED", "PACK 1"]


def test_pack_1_runs_on_eng_2_air_only_once_the_crew_opens_the_crossbleed():
    """AIR-03."""
    ac = build("cruise")
    ac.inject_failure("air_eng1_bleed_overpressure")
    ac.advance(3.0)
    ac.set_control("ENG 1 BLEED", "OFF")
    ac.advance(5.0)
    assert ac.get("bleed.duct_1_press_psi") == 0.0
    assert ac.get("bleed.pack_1_valve_open") is False
    ac.set_control("X BLEED", "OPEN")
    ac.advance(1.0)
    assert ac.get("bleed.xbleed_valve_open") is True
    assert ac.get("bleed.duct_1_press_psi") == 45.0
    assert ac.get("bleed.pack_1_valve_open") is True
    assert ac.get("bleed.pack_1_flow_pct") == 100
    assert ac.get("bleed.pack_2_flow_pct") == 100


def test_reselecting_a_bleed_with_a_persistent_overpressure_trips_it_again():
    """AIR-01."""
    ac = build("cruise")
    ac.inject_failure("air_eng1_bleed_overpressure")
    ac.advance(3.0)
    ac.set_control("ENG 1 BLEED", "OFF")
    ac.advance(2.0)
    ac.set_control("ENG 1 BLEED", "ON")
    ac.advance(0.2)
    assert ac.get("bleed.eng_1_valve_open") is True  # the BMC was reset by the OFF selection
    ac.advance(3.0)
    assert ac.get("bleed.eng_1_valve_open") is False
    assert ac.ecam_titles() == ["AIR ENG 1 BLEED FAULT"]


def test_precooler_overheat_trips_the_bleed_after_a_few_seconds():
    """AIR-01."""
    ac = build("cruise")
    ac.inject_failure("air_eng2_bleed_overheat")
    ac.advance(2.0)
    assert ac.get("bleed.eng_2_valve_open") is True
    ac.advance(10.0)
    assert ac.get("bleed.eng_2_valve_open") is False
    assert ac.ecam_titles() == ["AIR ENG 2 BLEED FAULT"]


def test_bleed_fault_in_icing_asks_for_pack_off_and_x_bleed_open_to_keep_the_wing_anti_ice():
    """AIR-01, FWC-02."""
    ac = build("cruise", {"icing": True})
    ac.set_control("WING ANTI ICE", "ON")
    ac.advance(2.0)
    ac.inject_failure("air_eng1_bleed_overpressure")
    ac.advance(3.0)
    assert ac.ecam_titles() == ["AIR ENG 1 BLEED FAULT", "WING A.ICE SYS FAULT"]
    assert _lines(ac, "AIR ENG 1 BLEED FAULT") == [
        "-ENG 1 BLEED.........OFF", ".IF WING A.I. REQUIRED (AND PACK 2 AVAIL):", "-PACK 1..............OFF", "-X BLEED............OPEN",
    ]
    assert _lines(ac, "WING A.ICE SYS FAULT") == ["-X BLEED............OPEN", "AVOID ICING CONDITIONS"]
    ac.set_control("ENG 1 BLEED", "OFF")
    ac.set_control("PACK 1", "OFF")
    ac.advance(1.0)
    assert _lines(ac, "AIR ENG 1 BLEED FAULT") == [".IF WING A.I. REQUIRED (AND PACK 2 AVAIL):", "-X BLEED............OPEN"]
    ac.set_control("X BLEED", "OPEN")
    ac.advance(1.0)
    assert ac.ecam_titles() == []
    assert ac.get("bleed.wing_anti_ice_l_valve_open") is True
    assert ac.get("bleed.wing_anti_ice_r_valve_open") is True


def test_eng_1_pylon_leak_shuts_the_crossbleed_in_auto_and_keeps_apu_air_out():
    """AIR-02."""
    ac = build("engines_running")
    ac.set_control("APU BLEED", "ON")
    ac.advance(3.0)
    assert ac.get("bleed.xbleed_valve_open") is True
    assert ac.get("bleed.apu_valve_open") is True
    ac.inject_failure("air_eng1_pylon_leak")
    ac.advance(12.0)
    assert ac.get("bleed.leak_eng_1_pylon_detected") is True
    assert ac.get("bleed.xbleed_valve_open") is False
    assert ac.get("bleed.apu_valve_open") is False
    assert ac.bleed.apu_valve_leak_closure is True  # for the APU's own valve logic
    assert ac.get("bleed.eng_1_valve_open") is False
    assert ac.get("bleed.duct_1_press_psi") == 0.0
    assert ac.ecam_titles() == ["AIR ENG 1 BLEED LEAK"]
    assert _lines(ac, "AIR ENG 1 BLEED LEAK") == [
        "-ENG 1 BLEED.........OFF", "-X BLEED............SHUT", "-APU BLEED...........OFF",
    ]


def test_pylon_leak_lines_clear_one_by_one_as_the_crew_isolates_the_leak():
    """AIR-02, FWC-02."""
    ac = build("cruise")
    ac.inject_failure("air_eng1_pylon_leak")
    ac.advance(15.0)
    assert _lines(ac, "AIR ENG 1 BLEED LEAK") == ["-ENG 1 BLEED.........OFF", "-X BLEED............SHUT"]
    ac.set_control("ENG 1 BLEED", "OFF")
    ac.advance(1.0)
    assert _lines(ac, "AIR ENG 1 BLEED LEAK") == ["-X BLEED............SHUT"]
    ac.set_control("X BLEED", "SHUT")
    ac.advance(1.0)
    assert ac.ecam_titles() == []
    assert "ENG 1 BLEED" in ac.system_page("STATUS")["inop_sys"]


def test_opening_the_crossbleed_toward_a_pylon_leak_feeds_it_from_the_other_engine():
    """AIR-02."""
    ac = build("cruise")
    ac.inject_failure("air_eng1_pylon_leak")
    ac.advance(15.0)
    ac.advance(60.0)
    assert ac.get("bleed.leak_eng_1_pylon_loop_temp_c") < 60
    ac.set_control("X BLEED", "OPEN")
    ac.advance(20.0)
    assert ac.get("bleed.duct_1_press_psi") > 30.0
    assert ac.get("bleed.leak_eng_1_pylon_loop_temp_c") > 204
    assert ac.ecam_titles() == ["AIR ENG 1 BLEED LEAK"]


def test_l_wing_leak_closes_the_left_wing_anti_ice_and_asks_to_avoid_icing():
    """AIR-02."""
    ac = build("cruise", {"icing": True})
    ac.set_control("WING ANTI ICE", "ON")
    ac.advance(2.0)
    ac.inject_failure("air_l_wing_leak")
    ac.advance(8.0)
    assert ac.get("bleed.wing_anti_ice_l_valve_open") is False
    assert ac.ecam_titles() == ["AIR L WING LEAK", "WING A.ICE SYS FAULT"]
    assert _lines(ac, "AIR L WING LEAK") == [
        "-ENG 1 BLEED.........OFF", "-X BLEED............SHUT", "-WING ANTI ICE.......OFF", "AVOID ICING CONDITIONS",
    ]
    # Never suggest the crossbleed toward a leak.
    assert _lines(ac, "WING A.ICE SYS FAULT") == ["-WING ANTI ICE.......OFF", "AVOID ICING CONDITIONS"]
    for control, position in (("ENG 1 BLEED", "OFF"), ("X BLEED", "SHUT"), ("WING ANTI ICE", "OFF")):
        ac.set_control(control, position)
    ac.advance(1.0)
    assert ac.ecam_titles() == []
    assert ac.system_page("STATUS")["inop_sys"] == ["ENG 1 BLEED", "PACK 1", "WING A.ICE"]


def test_apu_bleed_leak_closes_the_apu_bleed_valve_until_the_crew_selects_apu_bleed_off():
    """AIR-02."""
    ac = build("apu_running")
    assert ac.get("apu.bleed_valve_open") is True
    ac.inject_failure("air_apu_bleed_leak")
    ac.advance(5.0)
    assert ac.get("bleed.apu_leak_isolated") is True
    assert ac.get("apu.bleed_valve_open") is False
    assert ac.get("bleed.xbleed_valve_open") is False
    assert ac.ecam_titles() == ["AIR APU BLEED LEAK"]
    assert _lines(ac, "AIR APU BLEED LEAK") == ["-APU BLEED...........OFF"]
    ac.set_control("APU BLEED", "OFF")
    ac.advance(1.0)
    assert ac.ecam_titles() == []
    assert ac.get("apu.avail") is True  # the APU keeps running for electrics


def test_pack_overheat_closes_the_pack_which_comes_back_after_cooling_with_pb_off_then_on():
    """AIR-04."""
    ac = build("cruise")
    ac.inject_failure("air_pack1_overheat")
    ac.advance(20.0)
    assert ac.get("bleed.pack_1_overheat") is True
    assert ac.get("bleed.pack_1_valve_open") is False
    assert ac.ecam_titles() == ["AIR PACK 1 OVHT"]
    assert _lines(ac, "AIR PACK 1 OVHT") == ["-PACK 1..............OFF"]
    ac.set_control("PACK 1", "OFF")
    ac.advance(1.0)
    assert _lines(ac, "AIR PACK 1 OVHT") == [".WHEN PACK OVHT OUT :"]
    ac.advance(30.0)
    assert ac.get("bleed.pack_1_overheat") is False
    assert _lines(ac, "AIR PACK 1 OVHT") == [".WHEN PACK OVHT OUT :", "-PACK 1...............ON"]
    ac.set_control("PACK 1", "ON")
    ac.advance(60.0)
    assert ac.get("bleed.pack_1_valve_open") is True
    assert ac.get("bleed.pack_1_comp_outlet_temp_c") == 170
    assert ac.ecam_titles() == []
    assert ac.active_failures() == []


def test_a_pack_overheat_left_alone_keeps_the_pack_shut_and_the_caution_displayed():
    """AIR-04."""
    ac = build("cruise")
    ac.inject_failure("air_pack2_overheat_persistent")
    ac.advance(300.0)
    assert ac.get("bleed.pack_2_valve_open") is False
    assert ac.ecam_titles() == ["AIR PACK 2 OVHT"]


def test_pack_valve_fault_shows_pack_fault_until_the_pb_is_off():
    """AIR-04."""
    ac = build("cruise")
    ac.inject_failure("air_pack2_fault")
    ac.advance(1.0)
    assert ac.ecam_titles() == ["AIR PACK 2 FAULT"]
    assert _lines(ac, "AIR PACK 2 FAULT") == ["-PACK 2..............OFF"]
    ac.set_control("PACK 2", "OFF")
    ac.advance(1.0)
    assert ac.ecam_titles() == []
    assert ac.system_page("STATUS")["inop_sys"] == ["PACK 2"]


def test_engines_start_at_the_gate_on_apu_bleed_through_the_crossbleed():
    """AIR-03."""
    ac = build("engines_running")
    assert ac.get("eng1.running") is True
    assert ac.get("eng2.running") is True
    assert ac.get("bleed.eng_1_valve_open") is True
    assert ac.get("bleed.eng_2_valve_open") is True
    assert ac.get("bleed.xbleed_valve_open") is False  # AUTO shuts once APU BLEED is OFF
    assert ac.ecam_titles() == []


def test_an_engine_does_not_start_without_bleed_air_in_its_duct():
    """AIR-03."""
    ac = build("apu_running")
    ac.set_control("APU BLEED", "OFF")
    ac.set_control("ENG MODE", "IGN START")
    ac.advance(2.0)
    ac.set_control("ENG MASTER 2", "ON")
    ac.advance(10.0)
    assert ac.get("eng2.start_valve_open") is False
    assert ac.get("eng2.n2_pct") < 1.0


def test_apu_bleed_closes_the_engine_bleeds_and_the_packs_close_during_an_engine_start():
    """AIR-03, AIR-04."""
    ac = build("engines_running")
    ac.set_control("APU BLEED", "ON")
    ac.advance(2.0)
    assert ac.get("bleed.eng_1_valve_open") is False
    assert ac.get("bleed.eng_2_valve_open") is False
    assert ac.get("bleed.pack_1_flow_pct") == 120  # APU bleed: HI flow
    ac.set_control("ENG MASTER 1", "OFF")
    ac.advance(60.0)
    ac.set_control("ENG MODE", "IGN START")
    ac.set_control("ENG MASTER 1", "ON")
    ac.advance(3.0)
    assert ac.get("eng1.start_valve_open") is True
    assert ac.get("bleed.pack_1_valve_open") is False
    assert ac.get("bleed.pack_2_valve_open") is False


def test_eng_fire_pb_closes_that_sides_bleed_and_pack_valves():
    """FIRE-02."""
    ac = build("cruise")
    ac.set_control("ENG 2 FIRE", "RELEASED")
    ac.advance(1.0)
    assert ac.get("bleed.eng_2_valve_open") is False
    assert ac.get("bleed.pack_2_valve_open") is False
    assert ac.get("bleed.eng_1_valve_open") is True
    assert ac.get("bleed.pack_1_valve_open") is True
    assert not [t for t in ac.ecam_titles() if t.startswith("AIR")]


def test_wing_anti_ice_on_the_ground_is_a_30_second_test():
    """AIR-03."""
    ac = build("engines_running")
    ac.set_control("WING ANTI ICE", "ON")
    ac.advance(2.0)
    assert ac.get("bleed.wing_anti_ice_l_valve_open") is True
    ac.advance(30.0)
    assert ac.get("bleed.wing_anti_ice_l_valve_open") is False
    assert ac.ecam_titles() == []


def test_wing_anti_ice_does_not_run_on_apu_bleed():
    """AIR-03."""
    ac = build("cruise")
    ac.set_control("ENG 1 BLEED", "OFF")
    ac.set_control("ENG 2 BLEED", "OFF")
    ac.set_control("WING ANTI ICE", "ON")
    ac.advance(1.0)
    assert ac.get("bleed.wing_anti_ice_l_valve_open") is False
    assert ac.get("bleed.wing_anti_ice_r_valve_open") is False
    assert "WING A.ICE SYS FAULT" in ac.ecam_titles()


def test_engine_anti_ice_valve_stuck_closed_gives_a_valve_clsd_caution():
    """FWC-01."""
    ac = build("cruise")
    ac.inject_failure("anti_ice_eng1_valve_stuck_closed")
    ac.set_control("ENG 1 ANTI ICE", "ON")
    ac.set_control("ENG 2 ANTI ICE", "ON")
    ac.advance(1.0)
    assert ac.get("bleed.eng_2_anti_ice_valve_open") is True
    assert ac.ecam_titles() == ["ANTI ICE ENG 1 VALVE CLSD"]
    assert _lines(ac, "ANTI ICE ENG 1 VALVE CLSD") == ["AVOID ICING CONDITIONS"]
    assert ac.read_ecam()["memos"] == ["ENG A. ICE"]


def test_memos_show_ram_air_and_anti_ice_selections():
    """FWC-01."""
    ac = build("cruise")
    for control in ("RAM AIR", "WING ANTI ICE", "ENG 2 ANTI ICE"):
        ac.set_control(control, "ON")
    ac.advance(1.0)
    memos = ac.read_ecam()["memos"]
    assert [m for m in memos if m in ("RAM AIR ON", "WING A. ICE", "ENG A. ICE")] == ["RAM AIR ON", "WING A. ICE", "ENG A. ICE"]


def test_pages_and_ecam_never_name_a_failure_id():
    """FWC-01."""
    ac = build("cruise", {"icing": True})
    ac.set_control("WING ANTI ICE", "ON")
    ac.set_control("ENG 1 ANTI ICE", "ON")
    ours = [f for f in FAILURES if f.startswith(("air_", "anti_ice_", "press_"))]
    for fid in ours:
        ac.inject_failure(fid)
    ac.advance(30.0)
    blob = json.dumps([ac.read_ecam(), ac.system_page("BLEED"), ac.system_page("COND"), ac.system_page("PRESS"),
                       ac.system_page("STATUS")])
    assert ours and not [fid for fid in ours if fid in blob]


def test_a_stuck_wing_anti_ice_valve_stays_inop_on_status_once_wing_anti_ice_is_off():
    """FWC-01."""
    ac = build("climb", {"icing": True})
    ac.set_control("WING ANTI ICE", "ON")
    ac.set_control("ENG 1 ANTI ICE", "ON")
    ac.advance(2.0)
    ac.inject_failure("anti_ice_l_wing_valve_stuck_closed")
    ac.inject_failure("anti_ice_eng1_valve_stuck_closed")
    ac.advance(2.0)
    assert "WING A.ICE SYS FAULT" in ac.ecam_titles()
    ac.set_control("WING ANTI ICE", "OFF")
    ac.set_control("ENG 1 ANTI ICE", "OFF")
    ac.advance(2.0)
    # The FAULT lights and cautions go out with the PBs OFF; STATUS keeps the lost anti-ice.
    assert ac.ecam_titles() == []
    assert ac.system_page("STATUS")["inop_sys"] == ["WING A.ICE", "ENG 1 A.ICE"]


def test_wing_anti_ice_restored_through_the_crossbleed_is_not_left_inop():
    """AIR-03."""
    ac = build("climb", {"icing": True})
    ac.set_control("WING ANTI ICE", "ON")
    ac.advance(2.0)
    ac.inject_failure("air_eng2_bleed_overpressure")
    ac.advance(3.0)
    assert "WING A.ICE SYS FAULT" in ac.ecam_titles()
    for name, pos in (("ENG 2 BLEED", "OFF"), ("PACK 2", "OFF"), ("X BLEED", "OPEN")):
        ac.set_control(name, pos)
    ac.advance(2.0)
    assert ac.get("bleed.wing_anti_ice_r_valve_open") is True
    assert "WING A.ICE" not in ac.system_page("STATUS")["inop_sys"]


def _apu_bleed_at(altitude_ft: float):
    ac = build("cruise")
    ac.set_flight_conditions(altitude_ft=altitude_ft, hold=True)
    start_apu(ac, wait_s=60.0)
    ac.set_control("APU BLEED", "ON")
    ac.advance(10.0)
    return ac


def test_apu_bleed_supplies_both_packs_up_to_about_15000_ft():
    """AIR-10: APU bleed: two packs up to about 15,000 ft (FCOM APU bleed limits)."""
    ac = _apu_bleed_at(14000.0)
    assert ac.get("bleed.apu_valve_open") is True
    assert (ac.get("bleed.pack_1_flow_pct"), ac.get("bleed.pack_2_flow_pct")) == (120, 120)


def test_above_15000_ft_the_apu_bleed_feeds_one_pack_up_to_about_22500_ft():
    """AIR-10: between 15,000 and 22,500 ft the APU air no longer keeps two packs at their flow; one pack it
    still does (FCOM APU bleed limits)."""
    ac = _apu_bleed_at(21000.0)
    assert ac.get("bleed.pack_1_flow_pct") < 80
    ac.set_control("PACK 2", "OFF")
    ac.advance(5.0)
    assert ac.get("bleed.pack_1_flow_pct") == 120


def test_at_fl350_apu_bleed_cannot_feed_the_packs():
    """AIR-10: far above the APU bleed ceiling the packs close for lack of pressure (the engine bleeds are
    closed by the open APU bleed valve): the cabin loses its inflow."""
    ac = _apu_bleed_at(35000.0)
    assert (ac.get("bleed.pack_1_valve_open"), ac.get("bleed.pack_2_valve_open")) == (False, False)
    assert ac.get("press.cabin_vs_fpm") > 0
