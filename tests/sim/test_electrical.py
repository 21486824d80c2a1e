"""Electrical network behaviour (domain reference §1.1, §4 E-series)."""

from a320bench.server.sim import build
from sim_bed import emer_config, ess_buses_on_bat, lines, off_then_on, start_apu


def test_ac_bus_1_stays_powered_from_gen_2_when_gen_1_trips_with_bus_tie_auto():
    """ELEC-01, ELEC-12."""
    ac = build("cruise")
    ac.inject_failure("elec_gen1_gcu_trip")
    ac.advance(2.0)
    assert ac.get("elec.gen_1_online") is False
    assert ac.get("elec.ac_bus_1_source") == "GEN 2"
    assert ac.get("elec.bus_tie_1_closed") is True
    assert ac.get("elec.main_galley_shed") is True
    assert ac.ecam_titles() == ["ELEC GEN 1 FAULT"]


def test_gen_1_fault_with_bus_tie_off_cascades_to_ac_bus_1_fault():
    """ELEC-01."""
    ac = build("cruise")
    ac.set_control("BUS TIE", "OFF")
    ac.inject_failure("elec_gen1_gcu_trip")
    ac.advance(2.0)
    assert ac.get("elec.ac_bus_1_powered") is False
    assert "ELEC AC BUS 1 FAULT" in ac.ecam_titles()
    assert "ELEC GEN 1 FAULT" in ac.ecam_titles()


def test_gen_fault_lines_follow_the_off_then_on_latch():
    """ELEC-02, FWC-02."""
    ac = build("cruise")
    ac.inject_failure("elec_gen1_gcu_trip")
    ac.advance(2.0)
    assert ac.read_ecam()["alerts"][0]["lines"] == ["-GEN 1.......OFF THEN ON"]
    ac.set_control("GEN 1", "OFF")
    ac.advance(2.0)
    assert ac.ecam_titles() == []  # PB OFF: no FAULT light, no caution
    ac.set_control("GEN 1", "ON")
    ac.advance(2.0)
    assert ac.read_ecam()["alerts"][0]["lines"] == [".IF UNSUCCESSFUL :", "-GEN 1...............OFF"]
    ac.set_control("GEN 1", "OFF")
    ac.advance(2.0)
    assert ac.ecam_titles() == []
    assert ac.system_page("STATUS")["inop_sys"] == ["GEN 1"]


def test_resettable_gcu_trip_comes_back_on_line_after_off_then_on():
    """ELEC-02."""
    ac = build("cruise")
    ac.inject_failure("elec_gen1_gcu_trip_resettable")
    ac.advance(2.0)
    off_then_on(ac, "GEN 1")
    assert ac.get("elec.gen_1_online") is True
    assert ac.get("elec.ac_bus_1_source") == "GEN 1"
    assert ac.ecam_titles() == []
    assert ac.active_failures() == []


def test_losing_both_generators_in_flight_deploys_the_rat_and_powers_ac_ess_from_the_emergency_generator():
    """ELEC-03."""
    ac = build("cruise")
    ac.inject_failure("elec_gen1_gcu_trip")
    ac.inject_failure("elec_gen2_gcu_trip")
    ac.advance(1.0)
    assert ac.get("elec.ac_bus_1_powered") is False
    assert ac.get("elec.ac_bus_2_powered") is False
    ac.advance(10.0)
    assert ac.get("hyd.rat_deployed") is True
    assert ac.get("elec.emer_gen_online") is True
    assert ac.get("elec.ac_ess_source") == "EMER GEN"
    assert ac.get("elec.dc_ess_source") == "ESS TR"
    assert ac.ecam_titles()[0] == "ELEC EMER CONFIG"
    assert ac.read_ecam()["master_warning"] is True


def test_both_tie_contactors_close_when_one_generator_feeds_the_other_side():
    """ELEC-01."""
    ac = build("cruise")
    ac.set_control("GEN 1", "OFF")
    ac.advance(2.0)
    assert ac.get("elec.ac_bus_1_source") == "GEN 2"
    assert (ac.get("elec.bus_tie_1_closed"), ac.get("elec.bus_tie_2_closed")) == (True, True)


def test_only_the_apu_side_tie_closes_when_the_apu_feeds_one_bus():
    """ELEC-01."""
    ac = build("apu_running")
    ac.set_control("ENG MODE", "IGN START")
    ac.set_control("ENG MASTER 1", "ON")
    ac.advance(60.0)
    assert ac.get("elec.ac_bus_1_source") == "GEN 1" and ac.get("elec.ac_bus_2_source") == "APU GEN"
    assert (ac.get("elec.bus_tie_1_closed"), ac.get("elec.bus_tie_2_closed")) == (False, True)


# ---- the emergency electrical configuration and the essential network on batteries -------------


def test_in_emer_config_above_100_kt_the_batteries_stay_off_dc_bat_and_keep_their_charge():
    """ELEC-08: with the EMER GEN on line above 100 kt the battery contactors are open and the batteries keep
    their charge; the hot buses stay powered (FBW battery_charge_limiter.rs, emergency elec)."""
    ac = emer_config()
    assert ac.get("elec.emer_gen_online") is True
    assert (ac.get("elec.bat_1_contactor_closed"), ac.get("elec.bat_2_contactor_closed")) == (False, False)
    ac.advance(3600.0)
    assert (ac.get("elec.bat_1_voltage_v"), ac.get("elec.bat_2_voltage_v")) == (28.0, 28.0)
    assert (ac.get("elec.hot_bus_1_powered"), ac.get("elec.hot_bus_2_powered")) == (True, True)
    assert ac.get("elec.dc_ess_source") == "ESS TR"
    assert ac.get("elec.dc_bat_powered") is False


def test_in_emer_config_below_100_kt_the_batteries_close_on_dc_bat():
    """ELEC-09: AC BUS 1 and 2 lost below 100 kt: the battery contactors close (FBW BCL, domain reference
    §1.1 rule 7). Speeds are set directly, flight held."""
    ac = emer_config()
    ac.set_flight_conditions(ias_kt=90.0, hold=True)
    ac.advance(2.0)
    assert (ac.get("elec.bat_1_contactor_closed"), ac.get("elec.bat_2_contactor_closed")) == (True, True)
    assert ac.get("elec.dc_bat_powered") is True


def test_the_emergency_generator_needs_the_rat_turning_fast_enough():
    """ELEC-10, SIM-04: the EMER GEN stays on line down to about 125 kt of RAT speed and drops below it, leaving the
    essential buses on batteries (FBW emergency_generator, QRH: "the RAT can supply the EMER GEN down to
    125 kt"); the static inverter feeds AC ESS only above 50 kt (FBW 2XB/7XB)."""
    ac = emer_config()
    ac.set_flight_conditions(ias_kt=130.0, hold=True)
    ac.advance(5.0)
    assert ac.get("elec.emer_gen_online") is True
    ac.set_flight_conditions(ias_kt=115.0)
    ac.advance(5.0)
    assert ac.get("elec.emer_gen_online") is False
    assert ac.get("elec.ac_ess_source") == "STAT INV"
    assert ac.get("elec.dc_ess_source") == "BAT 2"
    assert "ELEC ESS BUSES ON BAT" in ac.ecam_titles()
    ac.set_flight_conditions(ias_kt=45.0)
    ac.advance(2.0)
    assert ac.get("elec.ac_ess_powered") is False
    assert ac.get("elec.dc_ess_source") == "BAT 2"  # both batteries on DC BAT below 100 kt keep 2XB closed


def test_bat_off_on_batteries_in_flight_keeps_the_static_inverter_and_dc_ess_on_the_hot_buses():
    """ELEC-11: with no AC and no EMER GEN above 50 kt the static inverter (HOT BUS 1) and DC ESS (HOT BUS 2)
    are fed whatever the BAT pushbuttons (FBW direct_current.rs, 2XB contactors)."""
    ac = ess_buses_on_bat()
    ac.set_control("BAT 1", "OFF")
    ac.set_control("BAT 2", "OFF")
    ac.advance(5.0)
    assert ac.get("elec.ac_ess_source") == "STAT INV"
    assert ac.get("elec.dc_ess_source") == "BAT 2"
    assert ac.get("fctl.law") == "ALTN"


def test_losing_ac_bus_1_on_the_old_standard_leaves_dc_ess_unpowered_until_ac_ess_feed_altn():
    """ELEC-06: DC ESS takes DC BAT only while TR 1 and TR 2 are both available; otherwise the ESS TR, which
    needs AC ESS: without the automatic transfer DC ESS is lost until AC ESS FEED ALTN (FBW direct_current.rs
    4PC/3PE; domain reference §1.1 rule 5)."""
    ac = build("cruise")
    ac.inject_failure("elec_ac_bus_1_short")
    ac.advance(5.0)
    assert ac.get("elec.ac_ess_powered") is False
    assert ac.get("elec.dc_ess_powered") is False
    ac.set_control("AC ESS FEED", "ALTN")
    ac.advance(2.0)
    assert ac.get("elec.ac_ess_source") == "AC BUS 2"
    assert ac.get("elec.dc_ess_source") == "ESS TR"


def test_losing_tr_1_moves_dc_ess_to_the_ess_tr():
    """ELEC-06, ELEC-05: one TR lost, AC ESS powered: the ESS TR takes DC ESS (FBW 3PE); TR 2 alone feeds
    DC 1, DC 2 and DC BAT through the DC ties."""
    ac = build("cruise")
    ac.inject_failure("elec_tr1_fail")
    ac.advance(2.0)
    assert ac.get("elec.dc_ess_source") == "ESS TR"
    assert ac.get("elec.dc_bus_1_powered") is True


def test_emer_config_puts_the_flight_controls_in_alternate_law():
    """FCTL-03: in the emergency electrical configuration only ADR 1 is left: ALTN law, protections lost, with
    the F/CTL ALTN LAW caution and its STATUS lines (QRH ELEC EMER CONFIG summary)."""
    ac = emer_config()
    assert ac.get("fctl.law") == "ALTN"
    assert ac.ecam_titles()[0] == "ELEC EMER CONFIG" and "F/CTL ALTN LAW" in ac.ecam_titles()
    assert {"ALTN LAW: PROT LOST", "MAX SPEED 320 KT"} <= set(ac.system_page("STATUS")["procedures"])


def test_emer_config_lists_gravity_feeding_once_the_fuel_pumps_are_lost():
    """FUEL-10: AC BUS 1 and 2 lost: every fuel pump stops and the engines are gravity fed; EMER CONFIG lists
    FUEL GRVTY FEED and PROC:GRVTY FUEL FEEDING (FG ECAM messages)."""
    ac = emer_config()
    assert ac.get("fuel.eng_1_gravity_feed") is True and ac.get("fuel.eng_2_gravity_feed") is True
    assert {"FUEL GRVTY FEED", "PROC:GRVTY FUEL FEEDING"} <= set(lines(ac, "ELEC EMER CONFIG"))


def test_emer_config_asks_for_a_second_gen_reset_once_the_bus_tie_is_off():
    """FWC-07: .IF UNSUCCESSFUL : BUS TIE OFF, then GEN 1+2 OFF THEN ON again with the buses split (domain
    reference E8, FG emerconfigGen3); the avionics ventilation lines stay until both are in OVRD (FG)."""
    ac = emer_config()
    for gen in ("GEN 1", "GEN 2", "GEN 1", "GEN 2"):
        ac.set_control(gen, "OFF" if ac.controls[gen] == "ON" else "ON")
    ac.advance(2.0)
    actions = [ln for ln in lines(ac, "ELEC EMER CONFIG") if ln.startswith(("-", "."))]
    assert actions == [".IF UNSUCCESSFUL :", "-BUS TIE.............OFF", "-GEN 1+2.....OFF THEN ON",
                       "-ENG MODE SEL........IGN", "-VHF1/ATC1...........USE", "-APU (IF AVAIL)....START",
                       "-BLOWER.............OVRD", "-EXTRACT............OVRD"]
    ac.set_control("BUS TIE", "OFF")
    ac.advance(1.0)
    assert "-GEN 1+2.....OFF THEN ON" in lines(ac, "ELEC EMER CONFIG")  # the first cycle came before the split
    for gen, pos in (("GEN 1", "OFF"), ("GEN 2", "OFF"), ("GEN 1", "ON"), ("GEN 2", "ON"),
                     ("BLOWER", "OVRD"), ("EXTRACT", "OVRD")):
        ac.set_control(gen, pos)
    ac.advance(1.0)
    actions = [ln for ln in lines(ac, "ELEC EMER CONFIG") if ln.startswith(("-", "."))]
    assert actions == [".IF UNSUCCESSFUL :", "-ENG MODE SEL........IGN", "-VHF1/ATC1...........USE",
                       "-APU (IF AVAIL)....START"]


def test_emer_config_shows_fac_1_off_then_on_only_while_fac_1_is_disengaged():
    """FWC-07: FG shows FAC 1 OFF THEN ON while FAC 1 is lost; here FAC 1 keeps DC ESS through the transfer."""
    ac = emer_config()
    assert ac.get("fctl.fac1_engaged") is True
    assert "-FAC 1.......OFF THEN ON" not in lines(ac, "ELEC EMER CONFIG")
    ac.set_control("FAC 1", "OFF")
    ac.advance(1.0)
    assert "-FAC 1.......OFF THEN ON" in lines(ac, "ELEC EMER CONFIG")
    ac.set_control("FAC 1", "ON")
    ac.advance(1.0)
    assert "-FAC 1.......OFF THEN ON" not in lines(ac, "ELEC EMER CONFIG")


def test_a_gen_fault_that_recurs_after_a_successful_reset_starts_again_at_off_then_on():
    """FWC-04: the OFF THEN ON latch resets when the fault clears with the PB ON, so a new occurrence shows
    the reset line again, not `.IF UNSUCCESSFUL` (FG a320-fwc.xml GEN FAULT flip-flop)."""
    ac = build("cruise")
    ac.inject_failure("elec_gen1_gcu_trip_resettable")
    ac.advance(2.0)
    off_then_on(ac, "GEN 1")
    assert ac.ecam_titles() == []
    ac.advance(60.0)
    ac.inject_failure("elec_gen1_gcu_trip")
    ac.advance(2.0)
    assert lines(ac, "ELEC GEN 1 FAULT") == ["-GEN 1.......OFF THEN ON"]


def test_a_gen_fault_hidden_by_its_pb_off_keeps_its_reset_history():
    """FWC-04: gone while the PB is OFF is the same occurrence: back ON, the reset counts as done."""
    ac = build("cruise")
    ac.inject_failure("elec_gen1_gcu_trip")
    ac.advance(2.0)
    off_then_on(ac, "GEN 1", off_s=30.0)
    assert lines(ac, "ELEC GEN 1 FAULT") == [".IF UNSUCCESSFUL :", "-GEN 1...............OFF"]


def test_the_newer_standard_moves_ac_ess_to_ac_bus_2_by_itself_after_3_s():
    """ELEC-04: with the automatic transfer (newer standard) a lost AC BUS 1 hands AC ESS to AC BUS 2 after
    about 3 s (FBW 2021 code); the older standard waits for AC ESS FEED ALTN (ELEC-06)."""
    ac = build("cruise", {"ac_ess_auto_transfer": True})
    ac.inject_failure("elec_ac_bus_1_short")
    ac.advance(1.0)
    assert ac.get("elec.ac_ess_powered") is False
    ac.advance(3.0)
    assert ac.get("elec.ac_ess_source") == "AC BUS 2"
    assert ac.get("elec.dc_ess_source") == "ESS TR"


def test_the_batteries_discharge_on_dc_bat_below_100_kt_and_recharge_from_a_tr_afterwards():
    """ELEC-07, ELEC-09: below 100 kt with AC BUS 1+2 lost the batteries carry DC BAT and discharge; once a TR
    is back (the APU GEN) they connect to recharge and disconnect when full (FBW battery charge limiter)."""
    ac = emer_config()
    ac.set_flight_conditions(altitude_ft=20000.0, ias_kt=90.0, hold=True)
    ac.advance(600.0)
    assert ac.get("elec.bat_1_voltage_v") < 27.0
    ac.set_flight_conditions(ias_kt=250.0)
    start_apu(ac, wait_s=90.0)
    assert ac.get("elec.apu_gen_online") is True
    assert (ac.get("elec.bat_1_contactor_closed"), ac.get("elec.bat_2_contactor_closed")) == (True, True)
    ac.advance(900.0)
    assert (ac.get("elec.bat_1_voltage_v"), ac.get("elec.bat_1_contactor_closed")) == (28.0, False)
