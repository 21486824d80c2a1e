"""Engines: flame-out and relight, damage, oil, dual failure (domain reference §1.5, §4 N3-N7)."""

from a320bench.server.sim import build


def _lines(ac, title):
    for a in ac.read_ecam()["alerts"]:
        if a["title"] == title:
            return a["lines"]
    raise AssertionError(f"{title} not displayed; shown: {ac.ecam_titles()}")


def test_a_flame_out_in_cruise_shows_eng_1_fail_once_the_core_runs_down():
    """ENG-01."""
    ac = build("cruise")
    ac.inject_failure("eng1_flameout")
    ac.advance(2.0)
    assert ac.get("eng1.running") is False
    assert ac.ecam_titles() == []  # N2 still above idle: the core is running down
    ac.advance(6.0)
    assert ac.ecam_titles() == ["ENG 1 FAIL"]
    assert ac.read_ecam()["master_caution"] is True
    assert _lines(ac, "ENG 1 FAIL") == ["-ENG MODE SEL........IGN", "-THR LEVER 1........IDLE", ".IF NO RELIGHT AFTER 30S"]
    assert "LAND ASAP (AMBER)" in ac.read_ecam()["memos"]


def test_eng_fail_shows_the_damage_branches_30_s_after_the_alert():
    """ENG-01, FWC-02."""
    ac = build("cruise")
    ac.inject_failure("eng1_flameout")
    ac.advance(8.0)
    ac.set_control("ENG MODE", "IGN START")
    ac.set_control("THR LEVER 1", "IDLE")
    ac.advance(30.0)
    assert _lines(ac, "ENG 1 FAIL") == [
        ".IF NO RELIGHT AFTER 30S",
        "-ENG MASTER 1........OFF",
        ".IF DAMAGE :",
        "-ENG 1 FIRE P/B.....PUSH",
        "-AGENT1 AFTER 10S..DISCH",
        ".IF NO DAMAGE :",
        "-ENG 1 RELIGHT..CONSIDER",
    ]
    assert ac.read_ecam()["memos"][:2] == ["LAND ASAP (AMBER)", "IGNITION"]


def test_a_flame_out_relights_after_master_off_then_on_with_ignition():
    """ENG-01, ENG-10."""
    ac = build("descent")  # FL240, 290 kt: inside the relight envelope (ENG-10)
    ac.inject_failure("eng1_flameout")
    ac.advance(8.0)
    ac.set_control("ENG MODE", "IGN START")
    ac.set_control("THR LEVER 1", "IDLE")
    ac.set_control("ENG MASTER 1", "OFF")
    ac.advance(2.0)
    assert "ENG 1 SHUT DOWN" in ac.ecam_titles()
    assert ac.active_failures() == []
    ac.set_control("ENG MASTER 1", "ON")
    ac.advance(30.0)
    assert ac.get("eng1.running") is True
    assert 60.0 < ac.get("eng1.n2_pct") < 70.0  # flight idle: above ground idle, rising with ram air
    assert ac.get("elec.gen_1_online") is True
    assert ac.ecam_titles() == []


def test_a_flame_out_does_not_relight_without_ignition():
    """ENG-01."""
    ac = build("cruise")
    ac.inject_failure("eng1_flameout")
    ac.advance(8.0)
    ac.set_control("ENG MASTER 1", "OFF")
    ac.advance(2.0)
    ac.set_control("ENG MASTER 1", "ON")
    ac.advance(30.0)
    assert ac.get("eng1.running") is False
    assert ac.get("eng1.ignition") is False
    assert ac.ecam_titles()[0] == "ENG 1 FAIL"


def test_a_damaged_engine_shows_a_seized_core_and_high_vibration_and_does_not_relight():
    """ENG-02."""
    ac = build("cruise")
    ac.inject_failure("eng2_flameout_damage")
    ac.advance(20.0)
    page = ac.system_page("ENG")["ENG 2"]
    assert page["n2_pct"] == 0.0
    assert page["n1_pct"] == round(0.09 * ac.get("flight.ias_kt"), 1)  # the fan windmills with the airspeed
    assert page["vib_n1"] == 9.0
    assert page["vib_advisory"] is True
    assert ac.system_page("ENG")["ENG 1"]["vib_advisory"] is False
    ac.set_control("ENG MODE", "IGN START")
    ac.set_control("ENG MASTER 2", "OFF")
    ac.advance(2.0)
    ac.set_control("ENG MASTER 2", "ON")
    ac.advance(30.0)
    assert ac.get("eng2.running") is False
    assert ac.active_failures() == ["eng2_flameout_damage"]


def test_the_damage_branch_fire_pb_and_agent_clear_eng_fail_and_leave_eng_shut_down():
    """ENG-02, FWC-05."""
    ac = build("cruise")
    ac.inject_failure("eng2_flameout_damage")
    ac.advance(40.0)
    ac.set_control("THR LEVER 2", "IDLE")
    ac.set_control("ENG MASTER 2", "OFF")
    ac.set_control("ENG 2 FIRE", "RELEASED")
    ac.advance(10.0)
    assert _lines(ac, "ENG 2 FAIL") == ["-ENG MODE SEL........IGN", ".IF NO RELIGHT AFTER 30S", ".IF DAMAGE :",
                                        "-AGENT 1...........DISCH"]
    ac.set_control("ENG 2 AGENT 1", "PUSH")
    ac.advance(1.0)
    assert ac.ecam_titles() == ["ENG 2 SHUT DOWN"]


def test_an_engine_shut_down_in_flight_drops_its_generator_and_shows_eng_shut_down():
    """FWC-05."""
    ac = build("cruise")
    ac.set_control("THR LEVER 1", "IDLE")
    ac.set_control("ENG MASTER 1", "OFF")
    ac.advance(10.0)
    assert ac.get("elec.gen_1_online") is False
    assert ac.get("elec.ac_bus_1_source") == "GEN 2"
    assert ac.ecam_titles()[0] == "ENG 1 SHUT DOWN"
    assert _lines(ac, "ENG 1 SHUT DOWN") == ["-ENG MODE SEL........IGN", ".IF NO FUEL LEAK :", "-IMBALANCE.......MONITOR",
                                             "-TCAS MODE SEL........TA"]
    ac.set_control("ENG MODE", "IGN START")
    ac.set_control("TCAS MODE SEL", "TA")
    ac.advance(1.0)
    assert _lines(ac, "ENG 1 SHUT DOWN") == [".IF NO FUEL LEAK :", "-IMBALANCE.......MONITOR"]
    assert ac.system_page("STATUS")["procedures"][0] == "CAT 3 SINGLE ONLY"


def test_a_dual_flame_out_shows_eng_all_engines_failure_first():
    """ENG-04."""
    ac = build("cruise")
    ac.inject_failure("eng_dual_flameout")
    ac.advance(15.0)
    assert ac.ecam_titles()[0] == "ENG ALL ENGINES FAILURE"
    assert "ENG 1 FAIL" not in ac.ecam_titles()
    ecam = ac.read_ecam()
    assert ecam["master_warning"] is True
    assert ecam["memos"][0] == "LAND ASAP (RED)"
    assert ac.get("elec.emer_gen_online") is True
    assert _lines(ac, "ENG ALL ENGINES FAILURE") == [
        "OPT RELIGHT SPD..280/.77",
        "-THR LEVERS.........IDLE",
        "GLDG DIST: 2NM/1000FT",
        "-DIVERSION......INITIATE",
        "-ALL ENG FAIL PROC..APPLY",
    ]


def test_the_all_engines_failure_asks_for_emer_elec_pwr_while_the_emer_gen_is_off_line():
    """ENG-04."""
    ac = build("cruise")
    ac.inject_failure("eng_dual_flameout")
    ac.advance(6.0)
    assert ac.get("elec.emer_gen_online") is False
    assert _lines(ac, "ENG ALL ENGINES FAILURE")[0] == "-EMER ELEC PWR....MAN ON"


def test_after_a_dual_flame_out_each_engine_relights_after_its_own_master_cycle():
    """ENG-04, ENG-01, ENG-10."""
    ac = build("descent")  # FL240, 290 kt: inside the relight envelope (ENG-10)
    ac.inject_failure("eng_dual_flameout")
    ac.advance(15.0)
    ac.set_control("ENG MODE", "IGN START")
    ac.set_control("THR LEVER 1", "IDLE")
    ac.set_control("THR LEVER 2", "IDLE")
    ac.set_control("ENG MASTER 1", "OFF")
    ac.advance(1.0)
    ac.set_control("ENG MASTER 1", "ON")
    ac.advance(30.0)
    assert ac.get("eng1.running") is True
    assert ac.get("eng2.running") is False
    assert ac.ecam_titles()[0] == "ENG 2 FAIL"
    assert ac.active_failures() == ["eng_dual_flameout"]
    ac.set_control("ENG MASTER 2", "OFF")
    ac.advance(1.0)
    ac.set_control("ENG MASTER 2", "ON")
    ac.advance(30.0)
    assert ac.get("eng2.running") is True
    assert ac.active_failures() == []


def test_oil_low_pressure_is_a_red_warning_that_clears_once_the_engine_is_shut_down():
    """ENG-03."""
    ac = build("cruise")
    ac.inject_failure("eng2_oil_pressure_loss")
    ac.advance(8.0)
    assert ac.get("eng2.oil_press_psi") < 13.0
    assert ac.ecam_titles() == ["ENG 2 OIL LO PR"]
    assert ac.read_ecam()["master_warning"] is True
    assert _lines(ac, "ENG 2 OIL LO PR") == ["-THR LEVER 2........IDLE", "-ENG MASTER 2........OFF"]
    ac.set_control("THR LEVER 2", "IDLE")
    ac.advance(5.0)
    assert _lines(ac, "ENG 2 OIL LO PR") == ["-ENG MASTER 2........OFF"]
    ac.set_control("ENG MASTER 2", "OFF")
    ac.advance(2.0)
    assert ac.ecam_titles() == ["ENG 2 SHUT DOWN"]


def test_oil_hi_temp_clears_at_idle_when_the_overheat_depends_on_power():
    """ENG-03."""
    ac = build("cruise")
    ac.inject_failure("eng1_oil_overheat")
    ac.advance(40.0)
    assert ac.get("eng1.oil_temp_c") > 155.0
    assert ac.ecam_titles() == ["ENG 1 OIL HI TEMP"]
    assert _lines(ac, "ENG 1 OIL HI TEMP") == ["-THR LEVER 1........IDLE"]
    ac.set_control("THR LEVER 1", "IDLE")
    ac.advance(10.0)
    assert ac.get("eng1.oil_temp_c") < 155.0
    assert ac.ecam_titles() == []


def test_a_persistent_oil_hi_temp_asks_for_master_off_after_30_s_at_idle():
    """ENG-03."""
    ac = build("cruise")
    ac.inject_failure("eng1_oil_overheat_persistent")
    ac.advance(40.0)
    ac.set_control("THR LEVER 1", "IDLE")
    ac.advance(29.8)
    assert _lines(ac, "ENG 1 OIL HI TEMP") == []
    ac.advance(0.2)
    assert _lines(ac, "ENG 1 OIL HI TEMP") == [".IF UNSUCCESSFUL :", "-ENG MASTER 1........OFF"]
    ac.set_control("ENG MASTER 1", "OFF")
    ac.advance(30.0)
    assert "ENG 1 OIL HI TEMP" not in ac.ecam_titles()
    assert ac.ecam_titles()[0] == "ENG 1 SHUT DOWN"


def test_reselecting_idle_does_not_restart_the_oil_hi_temp_30_s_count():
    """ENG-03: the lever stood at IDLE all along; a repeated IDLE selection is no new selection."""
    ac = build("cruise")
    ac.inject_failure("eng1_oil_overheat_persistent")
    ac.advance(40.0)
    ac.set_control("THR LEVER 1", "IDLE")
    ac.advance(20.0)
    ac.set_control("THR LEVER 1", "IDLE")
    ac.advance(10.0)
    assert _lines(ac, "ENG 1 OIL HI TEMP") == [".IF UNSUCCESSFUL :", "-ENG MASTER 1........OFF"]


def test_the_oil_hi_temp_count_starts_again_after_the_lever_left_idle():
    """ENG-03."""
    ac = build("cruise")
    ac.inject_failure("eng1_oil_overheat_persistent")
    ac.advance(40.0)
    ac.set_control("THR LEVER 1", "IDLE")
    ac.advance(20.0)
    ac.set_control("THR LEVER 1", "CL")
    ac.set_control("THR LEVER 1", "IDLE")
    ac.advance(10.0)
    assert _lines(ac, "ENG 1 OIL HI TEMP") == []
    ac.advance(20.0)
    assert _lines(ac, "ENG 1 OIL HI TEMP") == [".IF UNSUCCESSFUL :", "-ENG MASTER 1........OFF"]


def test_steady_cruise_engines_are_not_transient_and_three_hours_take_few_steps():
    """SIM-02."""
    ac = build("cruise")
    ac.advance(600.0)
    assert ac.eng.transient is False
    ticks = ac.ticks
    ac.advance(10800.0)
    assert ac.ticks - ticks <= 10800 / 5 + 25  # 5 s steps, a few fine ticks for fuel transfers and the like
    assert ac.ecam_titles() == []


def test_an_engine_start_on_ground_reaches_idle_with_the_start_valve_closed():
    """ENG-08."""
    ac = build("apu_running")
    ac.set_control("ENG MODE", "IGN START")
    ac.set_control("ENG MASTER 2", "ON")
    ac.advance(5.0)
    assert ac.get("eng2.start_valve_open") is True
    assert ac.get("eng2.starting") is True
    ac.advance(55.0)
    assert ac.get("eng2.running") is True
    assert ac.get("eng2.start_valve_open") is False
    assert ac.get("eng2.n2_pct") == 60.0
    assert ac.ecam_titles() == []


def test_an_engine_failure_scenario_is_deterministic():
    """SIM-01."""
    def run():
        ac = build("cruise")
        ac.inject_failure("eng_dual_flameout")
        ac.advance(15.0)
        ac.set_control("ENG MODE", "IGN START")
        ac.set_control("ENG MASTER 1", "OFF")
        ac.advance(1.0)
        ac.set_control("ENG MASTER 1", "ON")
        ac.advance(60.0)
        return ac.state_hash(), ac.read_ecam(), ac.system_page("ENG")

    assert run() == run()


def test_a_rejected_takeoff_is_a_landing_roll_for_the_fwc_phases_8_then_9():
    """FWC-03."""
    from a320bench.server.sim import build

    ac = build("takeoff_roll")
    ac.advance(15.0)
    assert ac.flight.ias_kt >= 80.0 and ac.flight.fwc_phase(ac) == 4
    ac.set_control("THR LEVER 1", "IDLE")
    ac.set_control("THR LEVER 2", "IDLE")
    ac.advance(1.0)
    assert ac.flight.phase == "rejected_takeoff" and ac.flight.fwc_phase(ac) == 8
    ac.advance(60.0)
    assert ac.flight.phase == "stopped" and ac.flight.ias_kt == 0.0 and ac.flight.fwc_phase(ac) == 9


def test_an_eng_fire_pb_pushed_in_flight_with_the_master_still_on_shows_eng_shut_down():
    """FWC-05: ENG SHUT DOWN follows the FIRE PB in flight (and in phases 1, 2, 9, 10), the master lever in phases 3-8
    (FG a320-fwc.xml eng-1-shutdown)."""
    ac = build("cruise")
    ac.set_control("ENG 2 FIRE", "RELEASED")
    ac.advance(5.0)
    assert ac.get("controls.ENG MASTER 2") == "ON"
    assert "ENG 2 SHUT DOWN" in ac.ecam_titles()


def test_with_no_engine_the_aircraft_glides_about_2_nm_per_1000_ft_at_green_dot():
    """FLT-06: ENG ALL ENGINES FAILURE gives GLDG DIST 2NM/1000FT (FBW 7700027), a planning figure (ratio
    12) below the clean polar's best glide with two windmilling engines (about 15)."""
    ac = build("cruise")
    ac.inject_failure("eng_dual_flameout")
    ac.advance(15.0)
    ac.set_control("FCU SPD", "240 KT")
    ac.set_control("FCU SPD KNOB", "PULL")
    ac.set_control("FCU ALT", "FL200")
    ac.set_control("FCU ALT KNOB", "PULL")
    ac.advance(180.0)
    assert ac.get("fg.vertical_mode") == "OP DES"
    tas_fpm = ac.get("flight.mach") * 576.0 * 6076.0 / 60.0  # M * a(FL300s, kt) in ft/min
    assert 12.0 < tas_fpm / -ac.get("flight.vs_fpm") < 18.0


def test_an_engine_starts_to_idle_in_35_to_60_s_and_idles_at_20_pct_n1_60_pct_n2_and_300_kg_h():
    """ENG-08: CFM56-5B start: light-off near 22 % N2, starter cut-out at 50 %, stable idle ~45 s after
    the master ON; ground idle about 20 % N1, 60 % N2, 300 kg/h (FCOM-style engine figures)."""
    ac = build("apu_running")
    ac.set_control("ENG MODE", "IGN START")
    ac.set_control("ENG MASTER 2", "ON")
    t0 = ac.sim_time
    while not ac.get("eng2.running"):
        ac.advance(1.0)
    while ac.get("eng2.n2_pct") < 59.5:
        ac.advance(1.0)
    assert 35.0 <= ac.sim_time - t0 <= 60.0
    ac.advance(30.0)
    assert (ac.get("eng2.n1_pct"), ac.get("eng2.n2_pct"), ac.get("eng2.ff_kgh")) == (20.0, 60.0, 300)


def test_eng_fail_gives_the_relight_30_s_with_ignition_and_idle_before_the_master_line():
    """ENG-01, FWC-02: .IF NO RELIGHT AFTER 30S counts from the IGN and IDLE selections (the scenarios'
    `when:` does too), not from the failure: a crew acting on the line is never early."""
    ac = build("cruise")
    ac.inject_failure("eng1_flameout")
    ac.advance(28.0)
    ac.set_control("ENG MODE", "IGN START")
    ac.set_control("THR LEVER 1", "IDLE")
    ac.advance(25.0)
    assert ac.get("eng1.running") is False
    assert _lines(ac, "ENG 1 FAIL") == [".IF NO RELIGHT AFTER 30S"]
    ac.advance(5.0)
    assert _lines(ac, "ENG 1 FAIL")[:2] == [".IF NO RELIGHT AFTER 30S", "-ENG MASTER 1........OFF"]


def test_eng_fail_shows_the_damage_branches_once_the_master_is_off():
    """ENG-01, FWC-02: a master set OFF is the crew's verdict that the engine did not relight."""
    ac = build("cruise")
    ac.inject_failure("eng2_flameout_damage")
    ac.advance(10.0)
    ac.set_control("ENG MODE", "IGN START")
    ac.set_control("THR LEVER 2", "IDLE")
    ac.set_control("ENG MASTER 2", "OFF")
    ac.advance(1.0)
    assert _lines(ac, "ENG 2 FAIL") == [".IF NO RELIGHT AFTER 30S", ".IF DAMAGE :", "-ENG 2 FIRE P/B.....PUSH",
                                        "-AGENT1 AFTER 10S..DISCH", ".IF NO DAMAGE :", "-ENG 2 RELIGHT..CONSIDER"]


def _flamed_out_and_windmilling(altitude_ft: float, ias_kt: float):
    """Engine 1 flamed out, its master OFF and ignition on, the aircraft held at this altitude and
    speed for 90 s: N2 has settled at the windmill (0.08 % per kt)."""
    ac = build("descent")
    ac.set_flight_conditions(altitude_ft=altitude_ft, ias_kt=ias_kt, hold=True)
    ac.inject_failure("eng1_flameout")
    ac.set_control("ENG MODE", "IGN START")
    ac.set_control("THR LEVER 1", "IDLE")
    ac.set_control("ENG MASTER 1", "OFF")
    ac.advance(90.0)
    return ac


def _seconds_to(ac, what, limit_s: float = 80.0) -> float | None:
    """Simulated seconds until `what(engine 1)` holds, in 0.2 s ticks; None within `limit_s`."""
    for i in range(1, round(limit_s / 0.2) + 1):
        ac.advance(0.2)
        if what(ac.eng.engines[0]):
            return round(i * 0.2, 1)
    return None


def test_a_windmill_relight_inside_the_envelope_lights_off_10_s_after_the_master_and_runs_18_s_later():
    """ENG-10: FL240, 290 kt: the windmill alone turns N2 at 23.2 % (above the 19.2 % relight N2);
    light-off takes 10 s of ignition and fuel, then the core accelerates to idle."""
    ac = _flamed_out_and_windmilling(24000.0, 290.0)
    assert ac.get("eng1.n2_pct") == 23.2
    ac.set_control("ENG MASTER 1", "ON")
    assert _seconds_to(ac, lambda e: e.combustion) == 10.0
    assert ac.get("eng1.start_valve_open") is False  # windmill relight: no starter
    assert _seconds_to(ac, lambda e: e.running) == 17.8


def test_no_relight_above_the_relight_ceiling_until_the_aircraft_is_below_fl250():
    """ENG-10: FL300, 290 kt: N2 windmills fast enough but the engine hangs unlit above the ceiling;
    at FL240 it lights off 10 s later."""
    ac = _flamed_out_and_windmilling(30000.0, 290.0)
    ac.set_control("ENG MASTER 1", "ON")
    assert _seconds_to(ac, lambda e: e.combustion) is None
    assert ac.get("eng1.n2_pct") == 23.2
    assert ac.get("eng1.running") is False
    ac.set_flight_conditions(altitude_ft=24000.0)
    assert _seconds_to(ac, lambda e: e.combustion) == 10.0


def test_too_slow_to_windmill_the_engine_hangs_until_crossbleed_air_drives_the_starter():
    """ENG-10: FL150, 200 kt: N2 windmills at 16 %, below the relight N2; with no bleed air on its
    side (X BLEED AUTO shut, no APU) the start valve stays shut and the engine hangs unlit. The
    crossbleed brings engine 2's air: the starter cranks N2 to the relight N2, then 10 s to light-off."""
    ac = _flamed_out_and_windmilling(15000.0, 200.0)
    assert ac.get("eng1.n2_pct") == 16.0
    ac.set_control("ENG MASTER 1", "ON")
    assert _seconds_to(ac, lambda e: e.combustion) is None
    assert ac.get("eng1.start_valve_open") is False
    assert ac.get("eng1.n2_pct") == 16.0
    ac.set_control("X BLEED", "OPEN")
    assert _seconds_to(ac, lambda e: e.combustion) == 12.8
    assert _seconds_to(ac, lambda e: e.running) == 16.0
    ac.advance(0.2)
    assert ac.get("eng1.start_valve_open") is False  # the engine runs: the valve has closed


def test_in_flight_the_start_valve_opens_only_where_the_windmill_is_too_slow():
    """ENG-10: with crossbleed air at the start valve, at 290 kt (FL240) the relight is a windmill one and
    the valve stays shut (N2 stays at its windmill 23.2 %); slowed to 200 kt (FL150) it opens and the
    starter cranks N2 above the windmill's 16 %."""
    ac = _flamed_out_and_windmilling(24000.0, 290.0)
    ac.set_control("X BLEED", "OPEN")
    ac.set_control("ENG MASTER 1", "ON")
    ac.advance(2.0)
    assert (ac.get("eng1.start_valve_open"), ac.get("eng1.n2_pct")) == (False, 23.2)
    ac = _flamed_out_and_windmilling(15000.0, 200.0)
    ac.set_control("X BLEED", "OPEN")
    ac.set_control("ENG MASTER 1", "ON")
    ac.advance(2.0)
    assert (ac.get("eng1.start_valve_open"), ac.get("eng1.n2_pct")) == (True, 18.3)


def test_eng_shut_down_asks_for_x_bleed_shut_only_while_the_crossbleed_valve_is_open():
    """FWC-05, ref §3.5: after a FIRE PB in flight the X BLEED SHUT line is an undone line only while the
    crossbleed valve is open: not with X BLEED AUTO and no APU bleed (the valve is shut), shown once the
    valve opens (selected OPEN, or AUTO with APU bleed), gone once it is shut again."""
    ac = build("cruise")
    ac.set_control("THR LEVER 2", "IDLE")
    ac.set_control("ENG MASTER 2", "OFF")
    ac.set_control("ENG 2 FIRE", "RELEASED")
    ac.set_control("ENG MODE", "IGN START")
    ac.set_control("TCAS MODE SEL", "TA")
    ac.advance(5.0)
    assert ac.get("bleed.xbleed_valve_open") is False
    assert _lines(ac, "ENG 2 SHUT DOWN") == [".IF NO FUEL LEAK :", "-IMBALANCE.......MONITOR", "AVOID ICING CONDITIONS"]
    ac.set_control("X BLEED", "OPEN")
    ac.advance(1.0)
    assert _lines(ac, "ENG 2 SHUT DOWN") == [".IF NO FUEL LEAK :", "-IMBALANCE.......MONITOR", "-X BLEED............SHUT",
                                             "AVOID ICING CONDITIONS"]
    ac.set_control("X BLEED", "SHUT")
    ac.advance(1.0)
    assert _lines(ac, "ENG 2 SHUT DOWN") == [".IF NO FUEL LEAK :", "-IMBALANCE.......MONITOR", "AVOID ICING CONDITIONS"]
    # AUTO with APU bleed opens the valve: the line is back until the crew shuts it.
    ac.set_control("X BLEED", "AUTO")
    ac.set_flight_conditions(altitude_ft=15000.0, hold=True)
    ac.set_control("APU MASTER SW", "ON")
    ac.advance(5.0)
    ac.set_control("APU START", "ON")
    ac.advance(90.0)
    ac.set_control("APU BLEED", "ON")
    ac.advance(5.0)
    assert ac.get("bleed.xbleed_valve_open") is True
    assert "-X BLEED............SHUT" in _lines(ac, "ENG 2 SHUT DOWN")
