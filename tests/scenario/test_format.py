"""The scenario format: committed schema, loader errors, the validity gate."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from a320bench.bridge import exitcodes
from a320bench.bridge.cli import main
from a320bench.server.scenario.loader import parse
from a320bench.server.scenario.schema import SCHEMA_PATH, render

ROOT = Path(__file__).resolve().parents[2]
BROKEN = ROOT / "tests" / "scenarios" / "broken"
GATE = ROOT / "tests" / "scenarios" / "invalid_gate" / "gate_never_shows.yaml"
CATALOGUE = sorted((ROOT / "scenarios").rglob("*.yaml"))


def test_the_committed_json_schema_is_up_to_date():
    assert SCHEMA_PATH.read_text() == render(), "run: python -m a320bench.server.scenario.schema --write"


@pytest.mark.parametrize("path", CATALOGUE, ids=lambda p: p.stem)
def test_every_catalogue_scenario_matches_the_committed_schema_and_points_editors_at_it(path):
    text = path.read_text()
    assert text.startswith("# yaml-language-server: $schema=../schema/scenario.schema.json\n")
    jsonschema.validate(yaml.safe_load(text), json.loads(SCHEMA_PATH.read_text()))


EXPECTED = {
    "bad_id.yaml": ["id: String should match pattern '^[a-z0-9][a-z0-9_]*$'"],
    "bad_operator.yaml": ["success[2].op: Input should be 'eq', 'ne', 'gt', 'ge', 'lt', 'le' or 'between'"],
    "bad_yaml.yaml": ["not valid YAML: line 5, column 7: expected ',' or ']', but got ':'"],
    "between_without_bounds.yaml": ["success[2]: op 'between' needs 'low' and 'high'"],
    "duplicate_key.yaml": ["line 46, column 1: the key success is given twice (first on line 40); "
                           "YAML would keep only the last"],
    "impossible_position.yaml": [
        "ground_truth.procedure[0].steps[1].position: control 'GEN 1' has no position 'MAYBE' (positions: ON, OFF)"],
    "missing_task_prompt.yaml": ["task_prompt: required field is missing"],
    "not_a_mapping.yaml": ["expected a mapping of scenario fields, got a list"],
    "unknown_control.yaml": ["ground_truth.procedure[0].steps[1].control: unknown control 'GEN 9'"],
    "unknown_ecam_title.yaml": ["expected_ecam.must_appear[0]: unknown ECAM alert title 'ELEC GEN 1 KAPUTT'"],
    "unknown_failure.yaml": ["failures[0].id: unknown failure id 'elec_gen1_exploded'"],
    "unknown_field.yaml": ["difficulty: unknown field (not in the scenario schema)"],
    "unknown_start_state.yaml": [
        "initial_state.start_state: unknown start state 'hovering' (valid: cold_dark, apu_running, "
        "engines_running, takeoff_roll, climb, cruise, descent, approach)"],
    "unknown_variable.yaml": ["success[1].var: unknown state variable 'elec.ac_bus_one_powered'"],
    "unknown_world.yaml": [
        "initial_state.world.weather: unknown world control (valid: gpu_available, icing, oat_isa_dev_c, "
        "ac_ess_auto_transfer, min_safe_altitude_ft)"],
    "wrong_type_budget.yaml": [
        "budget.max_tool_calls: Input should be a valid integer, unable to parse string as an integer"],
}


def test_the_broken_folder_has_at_least_ten_files_each_with_its_expected_problem():
    files = sorted(p.name for p in BROKEN.glob("*.yaml"))
    assert len(files) >= 10
    assert files == sorted(EXPECTED)
    for name, messages in EXPECTED.items():
        _, problems = parse(BROKEN / name)
        assert [f"{p.path}: {p.message}" if p.path else p.message for p in problems] == messages, name


def test_validate_on_broken_files_prints_one_line_per_problem_and_exits_2(capsys):
    assert main(["validate", str(BROKEN)]) == exitcodes.USAGE
    err = capsys.readouterr().err.strip().splitlines()
    assert "Traceback" not in "\n".join(err)
    problem_lines = [line for line in err if line.startswith("error: ")]
    assert len(problem_lines) == sum(len(m) for m in EXPECTED.values())
    for line in problem_lines:
        assert line.startswith(f"error: {BROKEN}/") and line.split(": ", 2)[1].endswith(".yaml")
    assert err[-1] == f"{len(problem_lines)} problem(s) in {len(EXPECTED)} file(s)"


def test_a_scenario_whose_gate_fails_ends_invalid_before_the_agent_is_asked(tmp_path, capsys):
    rc = main(["run", "--scenario", str(GATE), "--out", str(tmp_path), "--no-progress"])
    assert rc == exitcodes.INVALID_SCENARIO
    traj = tmp_path / "test_gate_never_shows" / "scripted__run000.jsonl"
    events = [json.loads(line) for line in traj.read_text().splitlines()]
    assert [e["type"] for e in events] == ["meta", "setup", "final"]
    assert events[-1]["reason"] == "invalid_scenario"
    assert events[-1]["gate"] == {"passed": False, "displayed": ["ELEC GEN 1 FAULT"], "missing": ["ELEC GEN 2 FAULT"],
                                  "unexpected": []}


def test_validate_reports_a_failed_gate_and_exits_1(capsys):
    assert main(["validate", str(GATE)]) == exitcodes.FAILED_CHECKS
    out = capsys.readouterr().out
    assert "0 of 1 scenario(s) pass gate, success, compliance, order and optional actions" in out


def test_a_trigger_that_never_holds_makes_the_scenario_invalid_not_a_crash(tmp_path):
    path = GATE.parent / "trigger_never_holds.yaml"
    assert main(["run", "--scenario", str(path), "--out", str(tmp_path), "--no-progress"]) == exitcodes.INVALID_SCENARIO
    (traj,) = tmp_path.rglob("*.jsonl")
    final = json.loads(traj.read_text().splitlines()[-1])
    assert final["reason"] == "invalid_scenario"
    assert final["gate"]["setup_error"] == (
        "failure elec_gen1_gcu_trip: trigger flight.altitude_ft ge 99999 did not hold within 30 s")


def test_controls_unchanged_fails_on_a_moved_control_or_a_pushed_momentary_one():
    from a320bench.server.scenario.harness import evaluate_success, prepare
    from a320bench.server.scenario.loader import load

    sc = load(ROOT / "scenarios" / "elec" / "tr1_fault_cruise.yaml")
    ac, gate = prepare(sc)
    baseline = dict(ac.controls)
    crit = lambda: [c for c in evaluate_success(ac, sc, baseline)["criteria"]  # noqa: E731
                    if c["kind"] == "controls_unchanged"][0]
    assert crit()["passed"] is True
    ac.set_control("PACK 1", "OFF")
    assert crit()["moved"] == {"PACK 1": ["ON", "OFF"]} and crit()["passed"] is False
    ac.set_control("PACK 1", "ON")
    assert crit()["passed"] is True
    ac.set_control("RAT MAN ON", "PUSH")
    assert crit()["pushed"] == ["RAT MAN ON"] and crit()["passed"] is False


@pytest.mark.parametrize("control,position", [
    ("FCU ALT", "FL100"), ("ATC", "MAYDAY"), ("EMER EVAC", "ANNOUNCE"), ("DIVERSION", "INITIATE"),
    ("CREW OXY MASKS", "USE"), ("PAX OXY MASKS", "MAN ON"),
])
def test_controls_unchanged_also_covers_the_crew_action_panels_fcu_radio_cabin_fms_crew(control, position):
    """Issue 9 finding 8: a restraint check listing every system panel ignored altitude, radio,
    cabin, FMS and crew actions."""
    from a320bench.server.scenario.harness import evaluate_success, prepare
    from a320bench.server.scenario.loader import load

    sc = load(ROOT / "scenarios" / "elec" / "tr1_fault_cruise.yaml")
    ac, _ = prepare(sc)
    baseline = dict(ac.controls)
    ac.set_control(control, position)
    (crit,) = [c for c in evaluate_success(ac, sc, baseline)["criteria"] if c["kind"] == "controls_unchanged"]
    assert (crit["moved"], crit["passed"]) == ({control: [baseline[control], position]}, False)
    assert {"FCU", "RADIO", "CABIN", "FMS", "CREW"} <= set(crit["panels"])


def test_an_unknown_panel_in_controls_unchanged_is_a_load_error(tmp_path):
    text = (ROOT / "scenarios" / "elec" / "tr1_fault_cruise.yaml").read_text().replace(
        '"CARGO SMOKE", "F/CTL"]', '"CARGO SMOKE", GALLEY]')
    bad = tmp_path / "bad.yaml"
    bad.write_text(text)
    _, problems = parse(bad)
    assert [p.path for p in problems] == ["success[11].controls_unchanged[11]"]
    assert problems[0].message.startswith("unknown panel 'GALLEY' (panels: AIR COND, ANTI ICE, APU,")
