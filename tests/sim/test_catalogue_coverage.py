"""Every failure of the domain reference's catalogue (series E, H, F, B, N, A; O where it fits)
can be injected and produces its ECAM alert through the modelled systems."""

from __future__ import annotations

import pytest

from a320bench.server.sim import build

# entry: (start state, failures, seconds to let it develop, the title it must produce); a failure
# given as (id, seconds) is injected that long after the previous one.
CATALOGUE = {
    "E1 GEN 1 FAULT": ("cruise", ["elec_gen1_gcu_trip"], 3, "ELEC GEN 1 FAULT"),
    "E2 GEN 2 FAULT": ("cruise", ["elec_gen2_gcu_trip"], 3, "ELEC GEN 2 FAULT"),
    "E3 APU GEN FAULT": ("apu_running", ["elec_apu_gen_gcu_trip"], 3, "ELEC APU GEN FAULT"),
    "E4 IDG 1 OIL LO PR": ("cruise", ["elec_idg1_oil_pressure_loss"], 3, "ELEC IDG 1 OIL LO PR"),
    "E4 IDG 1 OIL OVHT": ("cruise", ["elec_idg1_oil_overheat"], 120, "ELEC IDG 1 OIL OVHT"),
    "E5 AC BUS 1 FAULT": ("cruise", ["elec_ac_bus_1_short"], 3, "ELEC AC BUS 1 FAULT"),
    "E6 AC ESS BUS FAULT": ("cruise", ["elec_ac_ess_norm_contactor"], 3, "ELEC AC ESS BUS FAULT"),
    "E7 TR 1 FAULT": ("cruise", ["elec_tr1_fail"], 3, "ELEC TR 1 FAULT"),
    "E7 ESS TR FAULT": ("cruise", ["elec_ess_tr_fail"], 3, "ELEC ESS TR FAULT"),
    "E7 STATIC INV FAULT": ("cruise", ["elec_static_inverter_fail"], 3, "ELEC STATIC INV FAULT"),
    "E8 EMER CONFIG": ("cruise", ["elec_gen1_gcu_trip", "elec_gen2_gcu_trip"], 10, "ELEC EMER CONFIG"),
    "E9 ESS BUSES ON BAT": ("cruise", ["elec_gen1_gcu_trip", "elec_gen2_gcu_trip", "elec_emer_gen_fail"], 10,
                            "ELEC ESS BUSES ON BAT"),
    "H1 G ENG 1 PUMP LO PR": ("cruise", ["hyd_green_edp_fail"], 5, "HYD G ENG 1 PUMP LO PR"),
    "H2 Y ENG 2 PUMP LO PR": ("cruise", ["hyd_yellow_edp_fail"], 5, "HYD Y ENG 2 PUMP LO PR"),
    "H3 B ELEC PUMP LO PR": ("cruise", ["hyd_blue_elec_pump_fail"], 5, "HYD B ELEC PUMP LO PR"),
    "H4 G RSVR LO LVL": ("cruise", ["hyd_green_reservoir_leak"], 120, "HYD G RSVR LO LVL"),
    "H5 Y RSVR LO LVL": ("cruise", ["hyd_yellow_reservoir_leak"], 120, "HYD Y RSVR LO LVL"),
    "H6 B RSVR LO LVL": ("cruise", ["hyd_blue_reservoir_leak"], 120, "HYD B RSVR LO LVL"),
    "H7 G RSVR OVHT": ("cruise", ["hyd_green_edp_overheat"], 300, "HYD G RSVR OVHT"),
    "H8 G+Y SYS LO PR": ("cruise", ["hyd_green_reservoir_leak", "hyd_yellow_edp_fail"], 180, "HYD G+Y SYS LO PR"),
    "H9 B+Y SYS LO PR": ("cruise", ["hyd_blue_elec_pump_fail", "hyd_yellow_reservoir_leak"], 180,
                         "HYD B+Y SYS LO PR"),
    "H9 G+B SYS LO PR": ("cruise", ["hyd_blue_elec_pump_fail", "hyd_green_reservoir_leak"], 180,
                         "HYD G+B SYS LO PR"),
    "F1 L TK PUMP 1 LO PR": ("cruise", ["fuel_l_tk_pump_1_fail"], 5, "FUEL L TK PUMP 1 LO PR"),
    "F2 L TK PUMP 1+2 LO PR": ("cruise", ["fuel_l_tk_pump_1_fail", "fuel_l_tk_pump_2_fail"], 5,
                               "FUEL L TK PUMP 1+2 LO PR"),
    "F3 CTR TK PUMPS LO PR": ("cruise", ["fuel_ctr_tk_pump_1_fail", "fuel_ctr_tk_pump_2_fail"], 5,
                              "FUEL CTR TK PUMPS LO PR"),
    "F4 L WING TK LO LVL": ("cruise", ["fuel_left_wing_tank_leak"], 3 * 3600, "FUEL L WING TK LO LVL"),
    "F6 AUTO FEED FAULT": ("cruise", ["fuel_ctr_tk_auto_ctl_fail"], 2 * 3600, "FUEL AUTO FEED FAULT"),
    "B1 ENG 1 BLEED FAULT": ("cruise", ["air_eng1_bleed_overpressure"], 10, "AIR ENG 1 BLEED FAULT"),
    "B2 ENG 1 BLEED LEAK": ("cruise", ["air_eng1_pylon_leak"], 60, "AIR ENG 1 BLEED LEAK"),
    "B3 L WING LEAK": ("cruise", ["air_l_wing_leak"], 60, "AIR L WING LEAK"),
    "B5 PACK 1 OVHT": ("cruise", ["air_pack1_overheat"], 120, "AIR PACK 1 OVHT"),
    "B6 PACK 1+2 FAULT": ("cruise", ["air_pack1_fault", "air_pack2_fault"], 10, "AIR PACK 1+2 FAULT"),
    "B7 EXCESS CAB ALT": ("cruise", ["press_outflow_valve_stuck_open"], 300, "CAB PR EXCESS CAB ALT"),
    "B8 CAB PR SYS 1+2 FAULT": ("cruise", ["press_cpc1_fault", "press_cpc2_fault"], 10, "CAB PR SYS 1+2 FAULT"),
    "N1 ENG 1 FIRE": ("cruise", ["fire_eng1"], 5, "ENG 1 FIRE"),
    "N2 ENG 2 FIRE on ground": ("takeoff_roll", ["fire_eng2"], 3, "ENG 2 FIRE"),
    "N3 ENG 1 FAIL": ("cruise", ["eng1_flameout"], 10, "ENG 1 FAIL"),
    "N5 ENG 1 OIL LO PR": ("cruise", ["eng1_oil_pressure_loss"], 10, "ENG 1 OIL LO PR"),
    "N6 ENG 1 OIL HI TEMP": ("cruise", ["eng1_oil_overheat"], 120, "ENG 1 OIL HI TEMP"),
    "N7 ALL ENGINES FAILURE": ("cruise", ["eng_dual_flameout"], 15, "ENG ALL ENGINES FAILURE"),
    "N8 ENG 1 FIRE DET FAULT": ("cruise", ["fire_eng1_loop_a_fault", ("fire_eng1_loop_b_fault", 10)], 3,
                                "ENG 1 FIRE DET FAULT"),
    "N8 ENG 1 FIRE LOOP A FAULT": ("cruise", ["fire_eng1_loop_a_fault"], 3, "ENG 1 FIRE LOOP A FAULT"),
    "A1 APU FIRE": ("climb", ["fire_apu"], 3, "APU FIRE"),
    "A2 APU AUTO SHUT DOWN": ("apu_running", ["apu_egt_overtemp_shutdown"], 60, "APU AUTO SHUT DOWN"),
    "O1 ELAC 1 FAULT": ("cruise", ["fctl_elac1_fault"], 3, "F/CTL ELAC 1 FAULT"),
    "O2 SEC 1 FAULT": ("cruise", ["fctl_sec1_fault"], 3, "F/CTL SEC 1 FAULT"),
    "O3 FWD CARGO SMOKE": ("cruise", ["smoke_fwd_cargo_fire"], 30, "SMOKE FWD CARGO SMOKE"),
}


@pytest.mark.parametrize("entry", CATALOGUE)
def test_the_catalogue_entry_produces_its_alert_through_the_systems(entry):
    """FWC-01."""
    start, failures, develop_s, title = CATALOGUE[entry]
    ac = build(start)
    assert title not in ac.ecam_titles()
    for f in failures:
        if isinstance(f, tuple):
            f, after_s = f
            ac.advance(after_s)
        ac.inject_failure(f)
    ac.advance(develop_s)
    assert title in ac.ecam_titles()


def test_n4_engine_shut_down_follows_a_precautionary_shutdown_in_flight():
    """FWC-05."""
    ac = build("cruise")
    ac.set_control("THR LEVER 1", "IDLE")
    ac.set_control("ENG MASTER 1", "OFF")
    ac.advance(30)
    assert "ENG 1 SHUT DOWN" in ac.ecam_titles()


def test_f8_an_engine_leak_is_not_sensed_but_shows_as_high_fuel_flow_for_the_same_n1():
    """FUEL-04."""
    ac = build("cruise")
    ac.inject_failure("fuel_left_engine_leak")
    ac.advance(1800)
    assert not any(t.startswith("FUEL") for t in ac.ecam_titles())
    eng = ac.system_page("ENG")
    assert eng["ENG 1"]["n1_pct"] == eng["ENG 2"]["n1_pct"]
    assert eng["ENG 1"]["ff_kgh"] > eng["ENG 2"]["ff_kgh"] + 1000
    assert ac.get("fuel.eng_1_used_kg") > ac.get("fuel.eng_2_used_kg") + 700


def test_f7_f8_a_tank_leak_is_not_sensed_but_fuel_on_board_plus_used_falls_short():
    """FUEL-04."""
    ac = build("cruise")
    ac.inject_failure("fuel_left_wing_tank_leak")
    ac.advance(1800)
    assert not any(t.startswith("FUEL") for t in ac.ecam_titles())
    missing = ac.get("fuel.fob_at_engine_start_kg") - ac.get("fuel.fob_kg") - ac.get("fuel.eng_1_used_kg") - ac.get(
        "fuel.eng_2_used_kg")
    assert missing > 700
    assert ac.get("fuel.wing_imbalance_kg") > 700  # and the wing tanks drift apart: an imbalance


def test_o4_engine_anti_ice_valve_stuck_closed_shows_when_anti_ice_is_selected():
    """FWC-01."""
    ac = build("cruise")
    ac.set_control("ENG 1 ANTI ICE", "ON")
    ac.inject_failure("anti_ice_eng1_valve_stuck_closed")
    ac.advance(10)
    assert "ANTI ICE ENG 1 VALVE CLSD" in ac.ecam_titles()
