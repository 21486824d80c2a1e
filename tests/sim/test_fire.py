"""Engine fire detection and extinguishing (domain reference §1.5, §4 N1, N2, N8)."""

from a320bench.server.sim import build



def burning(failure: str = "fire_eng1", start: str = "cruise"):
    """The test bed: an aircraft in `start` with `failure` injected and detected (3 s)."""
    ac = build(start)
    ac.inject_failure(failure)
    ac.advance(3.0)
    return ac

def _lines(ac, title):
    for a in ac.read_ecam()["alerts"]:
        if a["title"] == title:
            return a["lines"]
    raise AssertionError(f"{title} not displayed; shown: {ac.ecam_titles()}")


def _isolate_engine_1(ac):
    ac.set_control("THR LEVER 1", "IDLE")
    ac.set_control("ENG MASTER 1", "OFF")
    ac.set_control("ENG 1 FIRE", "RELEASED")


def test_an_engine_1_fire_in_cruise_is_detected_on_both_loops_and_is_the_first_warning():
    """FIRE-01, FWC-01."""
    ac = burning()
    assert ac.get("fire.eng1_loop_a_detect") is True
    assert ac.get("fire.eng1_loop_b_detect") is True
    assert ac.get("fire.eng1_warning") is True
    assert ac.ecam_titles()[0] == "ENG 1 FIRE"
    ecam = ac.read_ecam()
    assert ecam["master_warning"] is True
    assert ecam["memos"][0] == "LAND ASAP (RED)"
    assert _lines(ac, "ENG 1 FIRE") == [
        "-THR LEVER 1........IDLE",
        "-ENG MASTER 1........OFF",
        "-ENG 1 FIRE P/B.....PUSH",
        "-AGENT1 AFTER 10S..DISCH",
        "-ATC..............NOTIFY",
    ]


def test_pushing_agent_1_before_the_fire_pb_is_released_has_no_effect():
    """FIRE-02."""
    ac = burning()
    ac.set_control("ENG 1 AGENT 1", "PUSH")
    ac.advance(1.0)
    assert ac.get("fire.eng1_agent_1_discharged") is False
    assert ac.get("fire.eng1_squib_armed") is False
    assert ac.get("fire.eng1_unarmed_agent_pushes") == 1
    assert ac.get("fire.eng1_warning") is True


def test_master_off_and_fire_pb_release_close_the_lp_valve_drop_generator_1_and_arm_the_squibs():
    """FIRE-02."""
    ac = burning()
    _isolate_engine_1(ac)
    ac.advance(1.0)
    assert ac.get("fuel.lp_valve_1_open") is False
    assert ac.get("elec.gen_1_online") is False
    assert ac.get("fire.eng1_squib_armed") is True
    assert ac.get("eng1.running") is False
    assert ac.get("eng2.running") is True
    assert ac.system_page("FIRE")["ENG 1"]["agents"] == {"AGENT 1": "SQUIB", "AGENT 2": "SQUIB"}


def test_the_agent_1_line_counts_down_from_the_fire_pb_release_and_then_asks_for_the_discharge():
    """FWC-02."""
    ac = burning()
    _isolate_engine_1(ac)
    ac.advance(0.2)
    assert _lines(ac, "ENG 1 FIRE") == ["-AGENT1 AFTER 10S..DISCH", "-ATC..............NOTIFY"]
    ac.advance(4.8)
    assert _lines(ac, "ENG 1 FIRE")[0] == "-AGENT1 AFTER 5S...DISCH"
    ac.advance(5.0)
    assert _lines(ac, "ENG 1 FIRE") == ["-AGENT 1...........DISCH", "-ATC..............NOTIFY"]


def test_a_fire_that_needs_one_agent_goes_out_after_agent_1_and_leaves_eng_1_shut_down():
    """FIRE-03."""
    ac = burning()
    _isolate_engine_1(ac)
    ac.advance(10.0)
    ac.set_control("ENG 1 AGENT 1", "PUSH")
    ac.advance(1.0)
    assert ac.get("fire.eng1_agent_1_discharged") is True
    assert ac.get("fire.eng1_burning") is False
    ac.advance(5.0)
    assert ac.get("fire.eng1_warning") is False
    assert ac.get("fire.eng1_agent_2_discharged") is False
    assert ac.ecam_titles()[0] == "ENG 1 SHUT DOWN"
    assert "ENG 1 FIRE" not in ac.ecam_titles()
    assert ac.read_ecam()["master_warning"] is False
    assert ac.system_page("STATUS")["inop_sys"][0] == "ENG 1"


def test_a_fire_that_needs_agent_2_shows_the_if_fire_after_30s_branch_30_s_after_agent_1():
    """FIRE-03, FWC-02."""
    ac = build("cruise")
    ac.inject_failure("fire_eng1_needs_agent2")
    ac.advance(3.0)
    _isolate_engine_1(ac)
    ac.advance(10.0)
    ac.set_control("ENG 1 AGENT 1", "PUSH")
    ac.advance(29.8)
    assert _lines(ac, "ENG 1 FIRE") == ["-ATC..............NOTIFY"]
    ac.advance(0.2)
    assert _lines(ac, "ENG 1 FIRE") == ["-ATC..............NOTIFY", ".IF FIRE AFTER 30S:", "-AGENT 2...........DISCH"]
    ac.set_control("ATC", "NOTIFY")
    ac.set_control("ENG 1 AGENT 2", "PUSH")
    ac.advance(6.0)
    assert ac.get("fire.eng1_agent_2_discharged") is True
    assert ac.get("fire.eng1_warning") is False
    assert "ENG 1 FIRE" not in ac.ecam_titles()


def test_an_engine_2_fire_on_the_takeoff_roll_shows_the_ground_procedure():
    """FWC-03."""
    ac = build("takeoff_roll")
    ac.inject_failure("fire_eng2")
    ac.advance(2.0)
    assert ac.ecam_titles()[0] == "ENG 2 FIRE"
    assert _lines(ac, "ENG 2 FIRE") == [
        "-THR LEVERS.........IDLE",
        ".WHEN A/C IS STOPPED:",
        "-PARKING BRK..........ON",
        "-ATC..............NOTIFY",
        "-CABIN CREW........ALERT",
        "-ENG MASTER 2........OFF",
        "-ENG 2 FIRE P/B.....PUSH",
        "-AGENT 1...........DISCH",
        "-AGENT 2...........DISCH",
        "-EMER EVAC PROC....APPLY",
    ]


def test_the_ground_engine_fire_procedure_stops_the_aircraft_and_puts_the_fire_out():
    """FIRE-03."""
    ac = build("takeoff_roll")
    ac.inject_failure("fire_eng2")
    ac.advance(2.0)
    ac.set_control("THR LEVER 1", "IDLE")
    ac.set_control("THR LEVER 2", "IDLE")
    ac.advance(15.0)
    assert ac.get("flight.ias_kt") == 0.0
    for control, position in (("PARKING BRK", "ON"), ("ATC", "NOTIFY"), ("CABIN CREW", "ALERT"),
                              ("ENG MASTER 2", "OFF"), ("ENG 2 FIRE", "RELEASED"),
                              ("ENG 2 AGENT 1", "PUSH"), ("ENG 2 AGENT 2", "PUSH")):
        ac.set_control(control, position)
        ac.advance(0.2)
    assert _lines(ac, "ENG 2 FIRE") == [".WHEN A/C IS STOPPED:", "-EMER EVAC PROC....APPLY"]
    ac.set_control("EMER EVAC", "ANNOUNCE")
    ac.advance(6.0)
    assert ac.get("fire.eng2_warning") is False
    assert "ENG 2 FIRE" not in ac.ecam_titles()


def test_a_single_loop_fault_is_a_level_1_caution_and_the_other_loop_still_detects_a_fire():
    """FIRE-04, FIRE-01."""
    ac = build("cruise")
    ac.inject_failure("fire_eng1_loop_a_fault")
    ac.advance(1.0)
    ecam = ac.read_ecam()
    assert [(a["title"], a["level"], a["lines"]) for a in ecam["alerts"]] == [("ENG 1 FIRE LOOP A FAULT", 1, [])]
    assert ecam["master_caution"] is False
    assert ac.system_page("STATUS")["inop_sys"] == ["ENG 1 LOOP A"]
    ac.inject_failure("fire_eng1")
    ac.advance(3.0)
    assert ac.get("fire.eng1_loop_a_detect") is False
    assert ac.get("fire.eng1_loop_b_detect") is True
    assert ac.ecam_titles() == ["ENG 1 FIRE", "ENG 1 FIRE LOOP A FAULT"]


def test_both_loops_lost_more_than_5_s_apart_give_a_fire_det_fault_caution_and_no_fire_warning():
    """FIRE-04: two loop faults more than 5 s apart are a detection fault (FCOM fire detection unit logic)."""
    ac = build("cruise")
    ac.inject_failure("fire_eng2_loop_a_fault")
    ac.advance(10.0)
    ac.inject_failure("fire_eng2_loop_b_fault")
    ac.advance(1.0)
    assert ac.ecam_titles() == ["ENG 2 FIRE DET FAULT"]
    assert ac.read_ecam()["master_caution"] is True
    assert ac.read_ecam()["alerts"][0]["lines"] == []
    ac.inject_failure("fire_eng2")
    ac.advance(3.0)
    assert ac.get("fire.eng2_burning") is True
    assert ac.get("fire.eng2_warning") is False
    assert ac.ecam_titles() == ["ENG 2 FIRE DET FAULT"]


def test_both_loops_lost_within_5_s_of_each_other_give_the_fire_warning():
    """FIRE-05: "fault on loop A and fault on loop B within 5 seconds" is a fire burning through both loops
    (FCOM fire detection unit logic): the FDU gives the fire warning, not a detection fault."""
    ac = build("cruise")
    ac.inject_failure("fire_eng2_loop_a_fault")
    ac.advance(4.0)
    ac.inject_failure("fire_eng2_loop_b_fault")
    ac.advance(1.0)
    assert ac.get("fire.eng2_burning") is False
    assert ac.get("fire.eng2_warning") is True
    assert ac.ecam_titles() == ["ENG 2 FIRE"]
    assert ac.read_ecam()["master_warning"] is True


def test_both_loops_lost_at_the_same_instant_give_the_fire_warning():
    """FIRE-05: a simultaneous loss of both loops is the limiting case of the 5 s rule."""
    ac = build("cruise")
    ac.inject_failure("fire_eng1_det_fault")
    ac.advance(1.0)
    assert ac.ecam_titles() == ["ENG 1 FIRE"]


def test_the_fire_test_reports_the_loop_faults_on_the_fire_page():
    """FIRE-04."""
    ac = build("cruise")
    ac.inject_failure("fire_eng1_loop_b_fault")
    ac.advance(1.0)
    ac.set_control("ENG 1 FIRE TEST", "PUSH")
    ac.set_control("ENG 2 FIRE TEST", "PUSH")
    ac.advance(0.2)
    page = ac.system_page("FIRE")
    assert page["ENG 1"]["last_test"] == "LOOP B FAULT"
    assert page["ENG 1"]["loop_b"] == "FAULT"
    assert page["ENG 2"]["last_test"] == "PASS"


def test_releasing_the_fire_pb_of_a_healthy_engine_in_flight_shuts_it_down():
    """FIRE-02."""
    ac = build("cruise")
    ac.set_control("ENG 2 FIRE", "RELEASED")
    ac.advance(10.0)
    assert ac.get("eng2.running") is False
    assert ac.get("elec.gen_2_online") is False
    assert ac.get("eng1.running") is True


def test_an_engine_fire_scenario_is_deterministic():
    """SIM-01."""
    def run():
        ac = build("cruise")
        ac.inject_failure("fire_eng1_needs_agent2")
        ac.advance(3.0)
        _isolate_engine_1(ac)
        ac.advance(10.0)
        ac.set_control("ENG 1 AGENT 1", "PUSH")
        ac.advance(31.0)
        ac.set_control("ENG 1 AGENT 2", "PUSH")
        ac.advance(20.0)
        return ac.state_hash(), ac.read_ecam()

    assert run() == run()


def test_a_fire_injected_again_after_being_put_out_burns_again():
    """FIRE-03."""
    ac = burning()
    _isolate_engine_1(ac)
    ac.advance(10.0)
    ac.set_control("ENG 1 AGENT 1", "PUSH")
    ac.advance(10.0)
    assert ac.get("fire.eng1_warning") is False
    ac.set_control("ENG 1 FIRE", "IN")
    ac.clear_failure("fire_eng1")
    ac.advance(5.0)
    ac.inject_failure("fire_eng1")
    ac.advance(3.0)
    assert ac.get("fire.eng1_burning") is True
    assert ac.ecam_titles()[0] == "ENG 1 FIRE"
