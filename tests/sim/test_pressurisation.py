"""Cabin pressurisation behaviour (domain reference §1.7, §4 B6-B8)."""

import time

from a320bench.server.sim import build
from sim_bed import emergency_descent, level_off_thrust, open_descent, until_level

EXCESS_CAB_ALT_LINES = [
    "-CREW OXY MASKS......USE",
    ".EMER DESCENT :",
    "-DESCENT........INITIATE",
    "-THR LEVERS.........IDLE",
    "-SPD BRK............FULL",
    "SPD......MAX/APPROPRIATE",
    "-ENG MODE SEL........IGN",
    "-ATC..............NOTIFY",
    "-CABIN CREW.......ADVISE",
    "-EMER DES (PA)..ANNOUNCE",
    "-XPDR 7700......CONSIDER",
    "MAX FL......100/MEA-MORA",
]


def _lines(ac, title):
    for alert in ac.read_ecam()["alerts"]:
        if alert["title"] == title:
            return alert["lines"]
    raise AssertionError(f"{title} not displayed: {ac.ecam_titles()}")


def _both_packs_lost_until_excess_cab_alt(ac) -> float:
    ac.inject_failure("air_pack1_fault")
    ac.inject_failure("air_pack2_fault")
    t0 = ac.sim_time
    while not ac.get("press.excess_cab_alt"):
        ac.advance(1.0)
        assert ac.sim_time - t0 < 600, "cabin never reached 9550 ft"
    return ac.sim_time - t0


def test_cruise_cabin_holds_its_schedule_at_fl350_and_reports_steady():
    """PRESS-01."""
    ac = build("cruise")
    assert ac.get("press.cabin_alt_ft") == 7179
    assert ac.get("press.diff_psi") == 7.8
    assert ac.get("press.cabin_vs_fpm") == 0
    assert ac.get("press.active_cpc") == 1
    ac.advance(600.0)
    assert ac.get("press.cabin_alt_ft") == 7179
    assert ac.press.transient is False
    assert ac.system_page("PRESS")["cabin_alt_ft"] == 7180


def test_losing_both_packs_at_fl350_climbs_the_cabin_past_9550_ft_into_excess_cab_alt():
    """PRESS-02."""
    ac = build("cruise")
    ac.inject_failure("air_pack1_fault")
    ac.inject_failure("air_pack2_fault")
    ac.advance(1.0)
    assert ac.ecam_titles() == ["AIR PACK 1+2 FAULT"]
    assert _lines(ac, "AIR PACK 1+2 FAULT") == [
        "-PACK 1..............OFF", "-PACK 2..............OFF", "-DES TO FL 100/MEA-MORA", ".WHEN DIFF PR <1 PSI",
        "AND FL BELOW 100:", "MAX FL......100/MEA-MORA",
    ]
    ac.advance(30.0)
    assert 900 < ac.get("press.cabin_vs_fpm") < 1300
    assert ac.get("press.outflow_valve_pct") == 0.0
    elapsed = _both_packs_lost_until_excess_cab_alt(ac) + 31.0
    assert 100.0 < elapsed < 180.0
    assert ac.get("press.cabin_alt_ft") > 9550
    ecam = ac.read_ecam()
    assert ecam["master_warning"] is True
    assert ac.ecam_titles() == ["CAB PR EXCESS CAB ALT", "AIR PACK 1+2 FAULT"]
    assert _lines(ac, "CAB PR EXCESS CAB ALT") == EXCESS_CAB_ALT_LINES
    assert ac.system_page("STATUS")["procedures"] == ["MAX FL 100/MEA-MORA"]


def test_emergency_descent_brings_the_aircraft_to_fl100_and_clears_the_descent_lines():
    """FLT-03: an emergency descent at idle, maximum speed and full speed brakes comes down at 6,000-7,000
    ft/min (FCOM-style EMER DESCENT figures)."""
    ac = build("cruise")
    _both_packs_lost_until_excess_cab_alt(ac)
    emergency_descent(ac)
    ac.set_control("ENG MODE", "IGN START")
    ac.advance(60.0)
    assert -7500 < ac.get("flight.vs_fpm") < -5500
    assert _lines(ac, "CAB PR EXCESS CAB ALT") == [
        "-CREW OXY MASKS......USE", ".EMER DESCENT :", "SPD......MAX/APPROPRIATE", "-ATC..............NOTIFY",
        "-CABIN CREW.......ADVISE", "-EMER DES (PA)..ANNOUNCE", "-XPDR 7700......CONSIDER", "MAX FL......100/MEA-MORA",
    ]
    until_level(ac)
    level_off_thrust(ac)
    ac.advance(60.0)
    assert ac.get("flight.altitude_ft") == 10000.0
    assert ac.get("flight.vs_fpm") == 0
    # Unpressurised, the cabin settles at the aircraft altitude: still above 9550 ft at FL100.
    assert 9900 < ac.get("press.cabin_alt_ft") < 10700
    assert ac.ecam_titles()[0] == "CAB PR EXCESS CAB ALT"
    assert "-RAM AIR..............ON" in _lines(ac, "AIR PACK 1+2 FAULT")


def test_non_sensed_excess_cab_alt_lines_clear_once_the_crew_has_acted():
    """FWC-02."""
    ac = build("cruise")
    _both_packs_lost_until_excess_cab_alt(ac)
    for control, position in (("CREW OXY MASKS", "USE"), ("ATC", "MAYDAY"), ("CABIN CREW", "ADVISE"),
                              ("EMER DES PA", "ANNOUNCE"), ("XPDR", "7700")):
        ac.set_control(control, position)
    ac.advance(1.0)
    assert _lines(ac, "CAB PR EXCESS CAB ALT") == [
        ".EMER DESCENT :", "-DESCENT........INITIATE", "-THR LEVERS.........IDLE", "-SPD BRK............FULL",
        "SPD......MAX/APPROPRIATE", "-ENG MODE SEL........IGN", "MAX FL......100/MEA-MORA",
    ]


def test_signs_line_is_sensed_from_the_switch():
    """FWC-02."""
    ac = build("cruise")
    ac.set_control("SIGNS", "OFF")
    _both_packs_lost_until_excess_cab_alt(ac)
    assert _lines(ac, "CAB PR EXCESS CAB ALT")[1] == "-SIGNS................ON"
    ac.set_control("SIGNS", "ON")
    ac.advance(0.2)
    assert "-SIGNS................ON" not in _lines(ac, "CAB PR EXCESS CAB ALT")


def test_ram_air_flows_only_once_the_cabin_diff_pressure_is_below_1_psi():
    """PRESS-01."""
    ac = build("cruise")
    ac.set_control("RAM AIR", "ON")
    ac.advance(2.0)
    assert ac.get("bleed.ram_air_inlet_open") is True
    assert ac.get("press.ram_air_flowing") is False
    assert ac.read_ecam()["memos"] == ["RAM AIR ON"]
    ac.set_control("PACK 1", "OFF")
    ac.set_control("PACK 2", "OFF")
    open_descent(ac, "FL100")
    ac.advance(900.0)
    assert ac.get("press.diff_psi") < 1.0
    assert ac.get("press.ram_air_flowing") is True
    assert ac.get("press.outflow_valve_pct") == 50.0


def test_outflow_valve_stuck_open_depressurises_the_cabin_and_a_descent_recovers_it():
    """PRESS-01, PRESS-02."""
    ac = build("cruise")
    ac.inject_failure("press_outflow_valve_stuck_open")
    ac.advance(10.0)
    assert ac.get("press.outflow_valve_pct") == 20.0
    assert 4000 < ac.get("press.cabin_vs_fpm") < 5000
    ac.advance(30.0)
    assert ac.ecam_titles() == ["CAB PR EXCESS CAB ALT"]
    ac.set_control("CAB PRESS MODE SEL", "MAN")
    ac.set_control("MAN V/S CTL", "DN")
    ac.advance(20.0)
    assert ac.get("press.outflow_valve_pct") == 20.0  # jammed: manual control cannot close it
    emergency_descent(ac)
    until_level(ac)
    level_off_thrust(ac)
    ac.advance(70.0)
    assert ac.get("flight.altitude_ft") == 10000.0
    assert ac.get("press.cabin_alt_ft") < 9250
    assert ac.ecam_titles() == []


def test_cpc_1_fault_hands_over_to_cpc_2_with_a_level_1_caution():
    """PRESS-03."""
    ac = build("cruise")
    ac.inject_failure("press_cpc1_fault")
    ac.advance(2.0)
    assert ac.get("press.active_cpc") == 2
    assert ac.get("press.auto_control") is True
    ecam = ac.read_ecam()
    assert [(a["title"], a["level"], a["lines"]) for a in ecam["alerts"]] == [("CAB PR SYS 1 FAULT", 1, [])]
    assert ecam["master_caution"] is False
    assert ac.system_page("STATUS")["inop_sys"] == ["CAB PR 1"]
    ac.advance(300.0)
    assert ac.get("press.cabin_alt_ft") == 7179


def test_cpc_1_and_2_fault_with_mode_sel_man_lets_man_vs_ctl_drive_the_cabin_rate():
    """PRESS-03."""
    ac = build("cruise")
    ac.inject_failure("press_cpc1_fault")
    ac.inject_failure("press_cpc2_fault")
    ac.advance(2.0)
    assert ac.ecam_titles() == ["CAB PR SYS 1+2 FAULT"]
    assert _lines(ac, "CAB PR SYS 1+2 FAULT") == ["-MODE SEL............MAN", "-MAN V/S CTL.....AS RQRD"]
    assert ac.system_page("PRESS")["mode_sel_fault_light"] is True
    ac.advance(300.0)  # the outflow valve stays where it was: level flight keeps the cabin level
    assert ac.get("press.cabin_alt_ft") == 7179
    ac.set_control("CAB PRESS MODE SEL", "MAN")
    ac.advance(1.0)
    assert _lines(ac, "CAB PR SYS 1+2 FAULT") == ["-MAN V/S CTL.....AS RQRD"]
    ac.set_control("MAN V/S CTL", "UP")
    ac.advance(3.0)
    ac.set_control("MAN V/S CTL", "NEUTRAL")
    ac.advance(1.0)
    climbing = ac.get("press.cabin_vs_fpm")
    assert 200 < climbing < 350
    assert _lines(ac, "CAB PR SYS 1+2 FAULT") == []
    ac.set_control("MAN V/S CTL", "DN")
    ac.advance(6.0)
    ac.set_control("MAN V/S CTL", "NEUTRAL")
    ac.advance(1.0)
    assert -350 < ac.get("press.cabin_vs_fpm") < -200


def test_man_vs_ctl_does_nothing_in_auto_mode():
    """PRESS-03."""
    ac = build("cruise")
    ac.set_control("MAN V/S CTL", "UP")
    ac.advance(5.0)
    assert ac.get("press.cabin_vs_fpm") == 0
    assert ac.get("press.outflow_valve_pct") == 13.6


def test_closing_the_outflow_valve_in_man_mode_opens_the_safety_valve_near_8_6_psi():
    """PRESS-01."""
    ac = build("cruise")
    ac.set_control("CAB PRESS MODE SEL", "MAN")
    ac.set_control("MAN V/S CTL", "DN")
    ac.advance(300.0)
    assert ac.get("press.outflow_valve_pct") == 0.0
    assert ac.get("press.safety_valve_open") is True
    assert 8.6 < ac.get("press.diff_psi") < 8.9
    assert ac.ecam_titles() == ["CAB PR SAFETY VALVE OPEN"]
    assert _lines(ac, "CAB PR SAFETY VALVE OPEN") == ["-MAN V/S CTL.....AS RQRD"]


def test_ditching_closes_the_outflow_valve_and_the_packs():
    """PRESS-01, AIR-04."""
    ac = build("cruise")
    ac.set_control("DITCHING", "ON")
    ac.advance(10.0)
    assert ac.get("press.outflow_valve_pct") == 0.0
    assert ac.get("bleed.pack_1_valve_open") is False
    assert ac.get("bleed.pack_2_valve_open") is False
    assert ac.get("bleed.ram_air_inlet_open") is False
    assert ac.get("press.cabin_vs_fpm") > 900


def test_cabin_follows_the_schedule_in_the_climb_after_takeoff():
    """PRESS-01."""
    ac = build("takeoff_roll")
    assert ac.get("press.outflow_valve_pct") == 100.0
    ac.advance(60.0)  # above the thrust reduction altitude: climb thrust, the A/THR active
    ac.set_control("THR LEVER 1", "CL")
    ac.set_control("THR LEVER 2", "CL")
    ac.advance(420.0)
    assert ac.get("flight.altitude_ft") == 10000.0
    assert 2045 <= ac.get("press.cabin_alt_ft") <= 2051  # schedule: 8000 ft * 10000 / 39000
    assert 0 <= ac.get("press.cabin_vs_fpm") <= 5


def test_manual_landing_elevation_raises_the_cabin_schedule_and_shows_a_memo():
    """PRESS-01."""
    ac = build("descent")
    auto = build("descent")
    ac.set_control("LDG ELEV", "6000 FT")
    ac.advance(300.0)
    auto.advance(300.0)
    assert ac.get("press.cabin_alt_ft") > auto.get("press.cabin_alt_ft") + 500
    assert "MAN LDG ELEV" in ac.read_ecam()["memos"]


def test_pressurisation_is_deterministic():
    """SIM-01."""
    def run():
        ac = build("cruise")
        ac.inject_failure("air_pack1_fault")
        ac.inject_failure("air_eng2_pylon_leak")
        ac.advance(40.0)
        ac.set_control("PACK 1", "OFF")
        emergency_descent(ac)
        ac.advance(200.0)
        return ac.state_hash(), ac.snapshot(), ac.read_ecam()

    assert run() == run()


def test_three_hours_of_cruise_take_steady_steps_with_the_cabin_at_its_fixed_point():
    # Speed itself is measured by bench/bench_sim.py; here, that cruise is a fixed point taking 5 s steps.
    """SIM-02."""
    ac = build("cruise", cached=False)
    ac.advance(1.0)
    assert ac.bleed.transient is False
    assert ac.press.transient is False
    ticks = ac.ticks
    ac.advance(10800.0)
    assert ac.ticks - ticks <= 10800 / 5 + 25
    assert ac.get("press.cabin_alt_ft") == 7179
