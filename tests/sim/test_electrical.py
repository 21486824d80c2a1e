"""Electrical network behaviour (domain reference §1.1, §4 E-series)."""

from a320bench.server.sim import build


def test_ac_bus_1_stays_powered_from_gen_2_when_gen_1_trips_with_bus_tie_auto():
    ac = build("cruise")
    ac.inject_failure("elec_gen1_gcu_trip")
    ac.advance(2.0)
    assert ac.get("elec.gen_1_online") is False
    assert ac.get("elec.ac_bus_1_source") == "GEN 2"
    assert ac.get("elec.bus_tie_1_closed") is True
    assert ac.get("elec.main_galley_shed") is True
    assert ac.ecam_titles() == ["ELEC GEN 1 FAULT"]


def test_gen_1_fault_with_bus_tie_off_cascades_to_ac_bus_1_fault():
    ac = build("cruise")
    ac.set_control("BUS TIE", "OFF")
    ac.inject_failure("elec_gen1_gcu_trip")
    ac.advance(2.0)
    assert ac.get("elec.ac_bus_1_powered") is False
    assert "ELEC AC BUS 1 FAULT" in ac.ecam_titles()
    assert "ELEC GEN 1 FAULT" in ac.ecam_titles()


def test_gen_fault_lines_follow_the_off_then_on_latch():
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
    ac = build("cruise")
    ac.inject_failure("elec_gen1_gcu_trip_resettable")
    ac.advance(2.0)
    ac.set_control("GEN 1", "OFF")
    ac.advance(2.0)
    ac.set_control("GEN 1", "ON")
    ac.advance(2.0)
    assert ac.get("elec.gen_1_online") is True
    assert ac.get("elec.ac_bus_1_source") == "GEN 1"
    assert ac.ecam_titles() == []
    assert ac.active_failures() == []


def test_losing_both_generators_in_flight_deploys_the_rat_and_powers_ac_ess_from_the_emergency_generator():
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
    ac = build("cruise")
    ac.set_control("GEN 1", "OFF")
    ac.advance(2.0)
    assert ac.get("elec.ac_bus_1_source") == "GEN 2"
    assert (ac.get("elec.bus_tie_1_closed"), ac.get("elec.bus_tie_2_closed")) == (True, True)


def test_only_the_apu_side_tie_closes_when_the_apu_feeds_one_bus():
    ac = build("apu_running")
    ac.set_control("ENG MODE", "IGN START")
    ac.set_control("ENG MASTER 1", "ON")
    ac.advance(60.0)
    assert ac.get("elec.ac_bus_1_source") == "GEN 1" and ac.get("elec.ac_bus_2_source") == "APU GEN"
    assert (ac.get("elec.bus_tie_1_closed"), ac.get("elec.bus_tie_2_closed")) == (False, True)
