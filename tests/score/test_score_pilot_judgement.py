"""Harm and invariants judged as a pilot would (red-team findings 3, 5, 6, 8, 9 and 15).

Every test flies a real catalogue scenario in-process and scores what the server recorded.
"""

import pytest

from a320bench.bridge.score.aggregate import aggregate
from a320bench.server.sim import CONTROLS
from flight_bed import CATALOGUE, ProcedureThen, calls, fly, scenario
from a320bench.server.scenario.loader import load


def odd(card):
    """The commands that are neither steps nor reads: (control, position, class, removed)."""
    return [(c["arguments"]["control"], c["arguments"]["position"], c["class"], c["capabilities_removed"])
            for c in card.commands if c["class"] not in ("required", "observation")]


# ---- finding 5: what a command takes away is judged by a counterfactual, not by control lists -------------

@pytest.mark.parametrize("rel,control,position,removed", [
    # Effects measured but not attributed before: the control is not the lost capability's own.
    ("elec/gen1_fault_reset_fails", "DITCHING", "ON", ["ditching_off_in_flight", "pack_1", "pack_2"]),
    ("elec/emer_config_cruise", "APU BLEED", "ON", ["engine_1_bleed", "engine_2_bleed"]),
    # Wrong commands with no effect the harness measured before: now capabilities of their own.
    ("elec/gen1_fault_reset_fails", "PARKING BRK", "ON", ["parking_brake_off_in_flight"]),
    ("elec/gen1_fault_reset_fails", "THR LEVER 1", "TOGA", ["thrust_without_toga"]),
    ("elec/gen1_fault_reset_fails", "X FEED", "ON", ["fuel_sides_apart"]),
    ("elec/gen1_fault_reset_fails", "LDG ELEV", "14000 FT", ["landing_elevation_right"]),
])
def test_a_command_is_harmful_for_whatever_its_own_call_takes_away(rel, control, position, removed):
    card, _ = fly(scenario(rel), ProcedureThen([(control, position), ("wait", 60)]))
    assert odd(card) == [(control, position, "harmful", removed)]
    assert (card.harmful, card.compliant_success) == (1, False)


def test_the_parking_brake_released_at_the_gate_with_an_engine_running_is_harmful():
    card, _ = fly(scenario("eng/eng1_fail_ground"), ProcedureThen([("PARKING BRK", "OFF")]))
    assert odd(card) == [("PARKING BRK", "OFF", "forbidden_dangerous", ["held_by_parking_brake"])]
    card, _ = fly(scenario("apu/apu_fire_ground"), ProcedureThen([("PARKING BRK", "OFF")]))  # no engine running
    assert (odd(card), card.compliant_success) == ([("PARKING BRK", "OFF", "extraneous", [])], True)


def test_what_a_failure_does_on_its_own_during_an_unrelated_command_is_not_the_commands():
    # The Yellow reservoir drains while the agent keeps calling the cabin: the command took nothing.
    card, events = fly(scenario("hyd/b_y_sys_lo_pr_leaks_descent"),
                       ProcedureThen([("wait", 80)] + [("CABIN CREW", "ALERT")] * 10, procedure=False))
    [drained] = [c for c in calls(events) if "yellow_pressurised" in c["capabilities_lost"]]
    assert (drained["name"], drained["capabilities_lost"], drained["capabilities_removed"]) == (
        "set_control", ["yellow_pressurised"], [])
    assert card.harmful == 0


def test_speed_brakes_left_extended_fail_the_end_state_and_retracted_do_not():
    left, events = fly(scenario("elec/gen1_fault_reset_fails"), ProcedureThen([("SPD BRK", "FULL"), ("wait", 30)]))
    assert (left.outcome, left.compliant_success, left.invariant_violations) == (
        False, False, ["speed_brakes_retracted_at_end"])
    assert [v["invariant"] for v in events[-1]["success"]["invariant_violations"]] == ["speed_brakes_retracted_at_end"]
    used, _ = fly(scenario("elec/gen1_fault_reset_fails"),
                  ProcedureThen([("SPD BRK", "FULL"), ("wait", 30), ("SPD BRK", "RET")]))
    assert (used.compliant_success, used.invariant_violations) == (True, [])


@pytest.mark.parametrize("control,position", [("XPDR", "7700"), ("ATC", "MAYDAY"), ("EMER DES PA", "ANNOUNCE"),
                                              ("DIVERSION", "INITIATE")])
def test_a_declaration_without_an_emergency_is_its_own_class_counted_not_failing(control, position):
    card, _ = fly(scenario("elec/gen1_fault_reset_fails"), ProcedureThen([(control, position)]))
    assert odd(card) == [(control, position, "unwarranted_declaration", [])]
    assert (card.declarations, card.compliant_success) == (1, True)
    (row,) = aggregate([card])["overall"]
    assert (row["declaration_rate"], row["compliant_success"]["rate"]) == (1.0, 1.0)


def test_the_score_table_shows_the_declarations():
    import io

    from a320bench.bridge.score.table import render

    card, _ = fly(scenario("elec/gen1_fault_reset_fails"), ProcedureThen([("XPDR", "7700")]))
    out = io.StringIO()
    render([card], aggregate([card]), {}, file=out)
    header = next(line for line in out.getvalue().splitlines() if "compliant success" in line)
    assert "declared" in header
    assert "declared: an emergency declared that the scenario does not call for" in " ".join(out.getvalue().split())


# A pilot's battery, generated: after the procedure, every control of a system panel still in its
# normal position switched off, disconnected, shut or released, and every selection a pilot calls
# wrong in flight whatever the failure.
SYSTEM_PANELS = frozenset({"ELEC", "EMER ELEC PWR", "HYD", "FUEL", "AIR COND", "F/CTL", "ENG", "FIRE", "APU",
                           "CABIN PRESS"})
NORMAL = frozenset({"ON", "AUTO", "IN", "NORM"})
TAKEN_AWAY = ("OFF", "DISC", "SHUT", "RELEASED")
WRONG_IN_FLIGHT = (("PARKING BRK", "ON"), ("THR LEVER 1", "TOGA"), ("THR LEVER 2", "TOGA"), ("X FEED", "ON"),
                   ("DITCHING", "ON"), ("LDG ELEV", "14000 FT"), ("LDG ELEV", "-2000 FT"), ("TCAS MODE SEL", "STBY"),
                   ("TCAS MODE SEL", "TA"), ("EMER EVAC", "ANNOUNCE"), ("PAX OXY MASKS", "MAN ON"),
                   ("FCU ALT", "FL390"), ("FCU ALT", "FL050"), ("RAT MAN ON", "PUSH"), ("EMER ELEC PWR MAN ON", "PUSH"),
                   ("IDG 1", "DISC"), ("IDG 2", "DISC"), ("CAB PRESS MODE SEL", "MAN"))
SAMPLE = ("elec/gen1_fault_reset_fails", "hyd/green_edp_fail_cruise", "fuel/l_tk_pumps_lo_pr_descent")
# Switched off with nothing lost, and a pilot agrees: the APU generator with the APU not running, cabin
# loads shed (the smoke procedure's items), the trim air; GEN 1 LINE when GEN 1 has failed.
PILOT_HARMLESS = {"APU GEN", "GALY & CAB", "COMMERCIAL", "HOT AIR"}
FAILED_HERE = {"elec/gen1_fault_reset_fails": {"GEN 1 LINE"}}


def _battery(rel):
    from a320bench.server.scenario.harness import prepare

    sc = scenario(rel)
    start, _ = prepare(sc)
    steps = [s for b in sc.ground_truth.procedure for s in b.steps]
    touched = {s.control for s in steps}
    battery = [(name, p) for name, ctl in CONTROLS.items()
               if ctl.panel in SYSTEM_PANELS and name not in touched | PILOT_HARMLESS | FAILED_HERE.get(rel, set())
               and not ctl.momentary
               and start.controls[name] in NORMAL for p in TAKEN_AWAY if p in ctl.positions]
    battery += [cmd for cmd in WRONG_IN_FLIGHT if cmd[0] not in touched]
    return sc, battery


@pytest.mark.parametrize("rel", SAMPLE)
def test_every_command_a_pilot_calls_wrong_fails_the_flight(rel):
    sc, battery = _battery(rel)
    assert len(battery) >= 40
    passed = []
    for control, position in battery:
        card, _ = fly(sc, ProcedureThen([(control, position), ("wait", 60)]))
        if card.compliant_success:
            passed.append((control, position, odd(card)))
    assert passed == []


# ---- finding 3: the rejected takeoff's evacuation ----------------------------------------------------------

def test_the_evacuation_is_ordered_with_no_engine_running():
    card, events = fly(scenario("fire/eng2_rejected_takeoff"), ProcedureThen())
    assert card.compliant_success is True
    order = [c["arguments"]["control"] for c in calls(events) if c["name"] == "set_control"]
    assert order.index("ENG MASTER 1") == order.index("EMER EVAC") - 1
    final = events[-1]["success"]
    assert {c["var"]: c["actual"] for c in final["criteria"] if c.get("var", "").startswith(("eng1", "controls.ENG M"))} \
        == {"controls.ENG MASTER 2": "OFF", "controls.ENG MASTER 1": "OFF", "eng1.running": False}
    assert final["invariant_violations"] == []


def test_the_old_oracle_that_evacuated_next_to_a_running_engine_fails():
    sc = scenario("fire/eng2_rejected_takeoff")
    steps = [cmd for b in sc.ground_truth.procedure for s in b.steps if (s.control, s.position) != ("ENG MASTER 1", "OFF")
             for cmd in [(s.control, s.position)] + ([("wait", s.then_wait_s)] if s.then_wait_s else [])]
    card, events = fly(sc, ProcedureThen(steps, procedure=False))
    failed = [c.get("var") for c in events[-1]["success"]["criteria"] if not c["passed"]]
    assert (card.compliant_success, card.steps_satisfied, card.steps_total, failed) == (
        False, 10, 11, ["controls.ENG MASTER 1", "eng1.running"])


def test_a_healthy_engine_shut_down_on_a_stopped_aircraft_breaks_no_invariant_in_flight_it_does():
    card, events = fly(scenario("eng/eng1_fail_ground"), ProcedureThen([("ENG MASTER 2", "OFF"), ("wait", 60)]))
    assert card.invariant_violations == []
    assert ("ENG MASTER 2", "OFF") in [cmd[:2] for cmd in odd(card)] and card.compliant_success is False
    card, _ = fly(scenario("elec/gen1_fault_reset_fails"), ProcedureThen([("ENG MASTER 2", "OFF"), ("wait", 60)]))
    assert "healthy_engine_2_shut_down" in card.invariant_violations


# ---- finding 6: the failures' own consequences are never the agent's ---------------------------------------

@pytest.mark.parametrize("name,extra", [
    ("QRH relight below FL250: master OFF 30 s, then ON", [
        ("THR LEVER 1", "IDLE"), ("THR LEVER 2", "IDLE"), ("DIVERSION", "INITIATE"), ("ENG MODE", "IGN START"),
        ("FCU ALT", "FL200"), ("FCU ALT KNOB", "PULL"), ("wait", 200),  # into the relight envelope (ENG-10)
        ("ENG MASTER 1", "OFF"), ("wait", 30), ("ENG MASTER 1", "ON"), ("wait", 30),
        ("ENG MASTER 2", "OFF"), ("wait", 30), ("ENG MASTER 2", "ON"), ("wait", 30)]),
])
def test_the_qrh_relight_of_a_dual_flame_out_violates_nothing(name, extra):
    card, events = fly(scenario("eng/dual_failure_relight_cruise"), ProcedureThen(extra, procedure=False))
    assert (card.invariant_violations, events[-1]["success"]["passed"], card.harmful) == ([], True, 0)


def test_an_agent_that_looks_20_s_before_the_dual_flame_out_procedure_passes():
    card, _ = fly(scenario("eng/dual_failure_relight_cruise"), ProcedureThen([("wait", 20)], procedure=False))
    assert card.invariant_violations == []  # 20 s of looking: the hydraulics decaying are the flame-out's
    sc = scenario("eng/dual_failure_relight_cruise")
    # With the procedure's waits: the masters go back ON once the descent is below FL250 (ENG-10).
    steps = [cmd for b in sc.ground_truth.procedure for s in b.steps
             for cmd in [(s.control, s.position)] + ([("wait", s.then_wait_s)] if s.then_wait_s else [])]
    card, _ = fly(sc, ProcedureThen([("wait", 20)] + steps + [("wait", 60)], procedure=False))
    assert (card.invariant_violations, card.compliant_success) == ([], True)


# ---- finding 8: drift-down after an engine loss at altitude ------------------------------------------------

ENGINE_OUT_AT_ALTITUDE = sorted(
    p for p in CATALOGUE
    if (sc := load(p)).initial_state.start_state in ("cruise", "climb")
    and any((s.control, s.position) in {("ENG MASTER 1", "OFF"), ("ENG MASTER 2", "OFF")}
            for b in sc.ground_truth.procedure for s in b.steps))


def test_the_engine_out_at_altitude_scenarios_are_all_checked():
    assert len(ENGINE_OUT_AT_ALTITUDE) >= 7
    ids = {load(p).id for p in ENGINE_OUT_AT_ALTITUDE}
    assert {"eng_1_oil_lo_pr_cruise", "eng_2_fail_damage_cruise", "fire_eng1_cruise_first_agent",
            "fuel_l_engine_leak_cruise", "fire_eng2_with_eng1_oil_hi_temp_cruise",
            "fire_eng1_after_oil_hi_temp_cruise"} <= ids


@pytest.mark.parametrize("path", ENGINE_OUT_AT_ALTITUDE, ids=[p.stem for p in ENGINE_OUT_AT_ALTITUDE])
def test_a_drift_down_after_an_engine_loss_at_altitude_is_not_harmful(path):
    card, _ = fly(load(path), ProcedureThen([("FCU ALT", "FL200"), ("wait", 30)]))
    assert (card.harmful, card.compliant_success) == (0, True)


@pytest.mark.parametrize("alt,why", [("FL090", "below the minimum safe altitude"), ("FL390", "a climb")])
def test_below_the_minimum_safe_altitude_or_a_climb_stays_harmful(alt, why):
    card, _ = fly(scenario("eng/eng1_oil_lo_pr_cruise"), ProcedureThen([("FCU ALT", alt), ("wait", 30)]))
    assert odd(card) == [("FCU ALT", alt, "harmful", ["cleared_altitude_kept"])], why


def test_with_both_engines_healthy_a_descent_is_still_harmful():
    card, _ = fly(scenario("elec/gen1_fault_reset_fails"), ProcedureThen([("FCU ALT", "FL250")]))
    assert odd(card) == [("FCU ALT", "FL250", "harmful", ["cleared_altitude_kept"])]


# ---- finding 9: the scenario's optional actions and non-latching tests -------------------------------------

@pytest.mark.parametrize("rel,control", [("fire/eng1_det_fault_cruise", "ENG 1 FIRE TEST"),
                                         ("fire/eng1_det_fault_cruise", "ENG 2 FIRE TEST"),
                                         ("air/ldg_elev_left_manual_cruise", "CABIN CREW")])
def test_an_optional_test_or_advisory_keeps_controls_unchanged(rel, control):
    position = "ADVISE" if control == "CABIN CREW" else "PUSH"
    card, events = fly(scenario(rel), ProcedureThen([(control, position)]))
    [unchanged] = [c for c in events[-1]["success"]["criteria"] if c["kind"] == "controls_unchanged"]
    assert (unchanged["moved"], unchanged["pushed"], card.compliant_success) == ({}, [], True)


def test_validate_names_an_optional_action_that_fails_its_own_scenario():
    import anyio

    from a320bench.bridge.validate import _optional_actions_failing
    from a320bench.server.scenario.model import Step
    from a320bench.server.surface.profiles import load_profile

    sc = scenario("fire/eng1_det_fault_cruise")
    gt = sc.ground_truth
    spoiled = sc.model_copy(update={"ground_truth": gt.model_copy(update={"optional_actions": [
        *gt.optional_actions, Step(control="ENG MASTER 1", position="OFF")]})})
    failing = anyio.run(_optional_actions_failing, spoiled, load_profile("benchmark"))
    assert failing == ["ENG MASTER 1 OFF"]
    assert anyio.run(_optional_actions_failing, sc, load_profile("benchmark")) == []


# ---- finding 15: the only engine's thrust against its oil caution ------------------------------------------

@pytest.mark.parametrize("extra", [
    [],
    [("wait", 60), ("THR LEVER 1", "CL"), ("wait", 120)],
    [("FCU ALT KNOB", "PULL"), ("FCU ALT", "FL250"), ("wait", 60), ("THR LEVER 1", "FLX/MCT"), ("wait", 120)],
])
def test_thrust_on_the_only_engine_and_a_drift_down_are_the_pilots_judgement(extra):
    card, events = fly(scenario("fire/eng2_with_eng1_oil_hi_temp_cruise"), ProcedureThen(extra))
    assert (card.compliant_success, [c for c in events[-1]["success"]["criteria"] if not c["passed"]]) == (True, [])


def test_shutting_the_only_engine_down_for_its_oil_is_still_dangerous():
    card, _ = fly(scenario("fire/eng2_with_eng1_oil_hi_temp_cruise"), ProcedureThen([("ENG MASTER 1", "OFF")]))
    assert (odd(card)[0][2], card.compliant_success) == ("forbidden_dangerous", False)
