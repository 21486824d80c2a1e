"""APU protection and APU fire (domain reference §1.6, §4 A1, A2)."""

from a320bench.server.sim import build
from sim_bed import emer_config, start_apu


def _lines(ac, title):
    for a in ac.read_ecam()["alerts"]:
        if a["title"] == title:
            return a["lines"]
    raise AssertionError(f"{title} not displayed; shown: {ac.ecam_titles()}")


def test_an_apu_fire_on_ground_shuts_the_apu_down_and_discharges_its_bottle_3_s_later():
    """APU-03, APU-02."""
    ac = build("apu_running")
    ac.inject_failure("fire_apu")
    ac.advance(1.0)
    assert ac.get("fire.apu_warning") is True
    assert ac.get("fire.apu_ground_auto_shutdown") is True
    assert ac.get("apu.running") is False
    assert ac.get("fire.apu_agent_discharged") is False
    assert ac.ecam_titles() == ["APU FIRE"]
    ac.advance(3.0)
    assert ac.get("fire.apu_agent_discharged") is True
    ac.advance(5.0)
    assert ac.get("fire.apu_warning") is False
    assert ac.get("fire.apu_burning") is False
    # The ECB's shutdown stays latched on the MASTER SW until the crew selects it OFF.
    assert ac.ecam_titles() == ["APU AUTO SHUT DOWN"]
    assert _lines(ac, "APU AUTO SHUT DOWN") == ["-MASTER SW...........OFF"]
    ac.set_control("APU MASTER SW", "OFF")
    ac.advance(1.0)
    assert ac.ecam_titles() == []


def _cruise_with_apu():
    ac = build("cruise")
    ac.set_control("APU MASTER SW", "ON")
    ac.advance(5.0)
    ac.set_control("APU START", "ON")
    ac.advance(60.0)
    assert ac.get("apu.avail") is True
    return ac


def test_an_apu_fire_in_flight_waits_for_the_crew_and_goes_out_after_the_agent():
    """FIRE-02, FIRE-03."""
    ac = _cruise_with_apu()
    ac.inject_failure("fire_apu")
    ac.advance(20.0)
    assert ac.get("apu.running") is True
    assert ac.get("fire.apu_agent_discharged") is False
    assert _lines(ac, "APU FIRE") == ["-APU FIRE P/B.......PUSH", "-AGENT AFTER 10S...DISCH", "-MASTER SW...........OFF"]
    ac.set_control("APU FIRE", "RELEASED")
    ac.advance(1.0)
    assert ac.get("apu.running") is False
    assert ac.get("elec.apu_gen_online") is False
    assert ac.get("apu.bleed_valve_open") is False
    assert _lines(ac, "APU FIRE") == ["-AGENT AFTER 9S....DISCH", "-MASTER SW...........OFF"]
    ac.advance(9.0)
    assert _lines(ac, "APU FIRE")[0] == "-AGENT.............DISCH"
    ac.set_control("APU AGENT", "PUSH")
    ac.set_control("APU MASTER SW", "OFF")
    ac.advance(6.0)
    assert ac.get("fire.apu_warning") is False
    assert ac.ecam_titles() == []
    assert ac.system_page("STATUS")["inop_sys"] == ["APU"]


def test_an_egt_over_temperature_makes_the_ecb_shut_the_apu_down():
    """APU-02."""
    ac = build("apu_running")
    ac.inject_failure("apu_egt_overtemp_shutdown")
    ac.advance(1.0)
    assert ac.get("apu.running") is True  # the EGT is still climbing to the ECB limit
    ac.advance(5.0)
    assert ac.get("apu.running") is False
    assert ac.get("apu.fault") is True
    assert ac.get("elec.apu_gen_online") is False
    assert ac.ecam_titles() == ["APU AUTO SHUT DOWN"]
    assert ac.system_page("APU")["master_fault_light"] is True


def test_a_low_oil_pressure_shutdown_latches_the_fault_until_master_sw_off():
    """APU-02."""
    ac = build("apu_running")
    ac.inject_failure("apu_low_oil_pressure_shutdown")
    ac.advance(1.0)
    assert ac.get("apu.fault") is True
    ac.set_control("APU MASTER SW", "OFF")
    ac.advance(1.0)
    assert ac.get("apu.fault") is False
    assert ac.ecam_titles() == []


def test_an_apu_that_fails_to_light_aborts_its_start():
    """APU-02, APU-01."""
    ac = build("cold_dark")
    ac.set_control("BAT 1", "AUTO")
    ac.set_control("BAT 2", "AUTO")
    ac.inject_failure("apu_no_start")
    ac.set_control("APU MASTER SW", "ON")
    ac.advance(5.0)
    ac.set_control("APU START", "ON")
    ac.advance(30.0)
    assert ac.get("apu.avail") is False
    assert ac.get("apu.fault") is True
    assert ac.get("controls.APU START") == "OFF"
    assert ac.ecam_titles() == ["APU AUTO SHUT DOWN"]


def test_the_apu_stops_60_s_after_master_sw_off_when_its_bleed_was_used():
    """APU-04."""
    ac = build("apu_running")
    assert ac.get("apu.bleed_valve_open") is True
    ac.set_control("APU BLEED", "OFF")
    ac.set_control("APU MASTER SW", "OFF")
    ac.advance(59.0)
    assert ac.get("apu.running") is True
    ac.advance(1.2)
    assert ac.get("apu.running") is False


def test_status_keeps_the_apu_inop_after_a_protective_shutdown_and_master_sw_off():
    """APU-02."""
    ac = build("apu_running")
    ac.inject_failure("apu_low_oil_pressure_shutdown")
    ac.advance(1.0)
    assert ac.system_page("STATUS")["inop_sys"] == ["APU"]
    ac.set_control("APU MASTER SW", "OFF")
    ac.advance(2.0)
    assert ac.ecam_titles() == []
    assert ac.system_page("STATUS")["inop_sys"] == ["APU"]
    # A normal shutdown leaves nothing inoperative.
    ok = build("apu_running")
    ok.set_control("APU BLEED", "OFF")
    ok.set_control("APU MASTER SW", "OFF")
    ok.advance(70.0)
    assert ok.get("apu.running") is False
    assert ok.system_page("STATUS")["inop_sys"] == []


def test_an_apu_start_on_batteries_above_fl250_does_not_light_and_the_ecb_aborts():
    """APU-05: in flight the APU starts on the batteries alone only up to FL250 (FCOM APU start envelope);
    above it the start does not light, the ECB aborts it and latches the FAULT light."""
    ac = emer_config()
    start_apu(ac, wait_s=90.0)  # the battery contactors close 45 s into the emergency, for the start
    assert ac.get("apu.avail") is False
    assert ac.get("apu.fault") is True
    assert "APU AUTO SHUT DOWN" in ac.ecam_titles()


def test_an_apu_start_on_batteries_below_fl250_brings_the_apu_gen_on_line():
    """APU-05, ELEC-08: below FL250 the battery start lights; the battery contactors close for the start
    once the emergency configuration is 45 s old (FBW BCL), and the APU GEN then takes both AC buses."""
    ac = emer_config()
    ac.set_flight_conditions(altitude_ft=20000.0, hold=True)
    ac.advance(40.0)
    start_apu(ac, wait_s=90.0)
    assert ac.get("apu.avail") is True
    assert ac.get("elec.ac_bus_1_source") == "APU GEN"
    assert ac.get("elec.ac_bus_2_source") == "APU GEN"
    assert "ELEC EMER CONFIG" not in ac.ecam_titles()


def test_an_apu_start_at_fl350_on_normal_power_lights():
    """APU-05: the FL250 limit is for a start on the batteries alone; with the TRs on line it starts."""
    ac = build("cruise")
    start_apu(ac, wait_s=60.0)
    assert ac.get("apu.avail") is True
