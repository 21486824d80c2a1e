"""Scenario files at the edges: wrong world types, non-finite numbers, long ids, huge files."""

from __future__ import annotations

from pathlib import Path

import pytest

from a320bench.bridge.cli import main
from a320bench.server.scenario.loader import MAX_PROBLEMS, parse

ROOT = Path(__file__).resolve().parents[2]
ELEC = (ROOT / "scenarios/elec/gen1_fault_reset_fails.yaml").read_text()


def edited(tmp_path: Path, old: str, new: str) -> Path:
    assert old in ELEC
    f = tmp_path / "edited.yaml"
    f.write_text(ELEC.replace(old, new, 1))
    return f


@pytest.mark.parametrize("world, says", [
    ("{gpu_available: maybe}", "initial_state.world.gpu_available: world control 'gpu_available' takes true or "
                               "false, got 'maybe'"),
    ("{oat_isa_dev_c: warm}", "initial_state.world.oat_isa_dev_c: world control 'oat_isa_dev_c' takes a number, "
                              "got 'warm'"),
    ("{oat_isa_dev_c: .nan}", "initial_state.world.oat_isa_dev_c: expected true/false, a finite number or a text"),
    ("{icing: [1, 2]}", "initial_state.world.icing: expected true/false, a finite number or a text"),
])
def test_world_values_are_checked_against_the_simulators_world_catalogue(tmp_path, capsys, world, says):
    f = edited(tmp_path, "  start_state: cruise\n", f"  start_state: cruise\n  world: {world}\n")
    assert main(["validate", str(f)]) == 2
    assert capsys.readouterr().err.splitlines() == [f"error: {f}: {says}", "1 problem(s) in 1 file(s)"]
    assert main(["run", "--scenario", str(f), "--out", str(tmp_path / "out"), "--no-progress"]) == 2
    assert capsys.readouterr().err.splitlines() == [f"error: {f}: {says}"]


@pytest.mark.parametrize("value", [".inf", ".nan", "-.inf"])
def test_non_finite_numbers_are_refused_so_no_trajectory_gets_invalid_json(tmp_path, value):
    f = edited(tmp_path, "max_sim_time_s: 900", f"max_sim_time_s: {value}")
    sc, problems = parse(f)
    assert sc is None
    assert [(p.path, p.message) for p in problems] == [("budget.max_sim_time_s", "Input should be a finite number")]


def test_an_id_too_long_for_a_folder_name_is_refused(tmp_path):
    f = edited(tmp_path, "id: elec_gen1_fault_reset_fails", "id: " + "a" * 300)
    _, problems = parse(f)
    assert [str(p) for p in problems] == [f"{f}: id: String should have at most 80 characters"]


def test_a_file_with_120000_unknown_keys_is_a_screen_of_problems(tmp_path, capsys):
    f = tmp_path / "many.yaml"
    f.write_text(ELEC + "".join(f"k{i}: 1\n" for i in range(120_000)))
    assert main(["validate", str(f)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == MAX_PROBLEMS + 2
    assert err[0] == f"error: {f}: k0: unknown field (not in the scenario schema)"
    assert err[-2] == f"error: {f}: … and {120_000 - MAX_PROBLEMS} more problem(s)"


def test_a_key_with_a_line_break_stays_on_one_line(tmp_path):
    f = tmp_path / "odd.yaml"
    f.write_text(ELEC + '"bad\\nkey": 1\n')
    _, problems = parse(f)
    assert [str(p) for p in problems] == [f"{f}: 'bad\\nkey': unknown field (not in the scenario schema)"]


def test_a_step_wait_longer_than_one_wait_call_is_refused_so_the_scripted_provider_can_fly_it(tmp_path):
    from a320bench.server.episode import MAX_WAIT_S
    from a320bench.server.scenario.model import MAX_STEP_WAIT_S

    assert MAX_STEP_WAIT_S == MAX_WAIT_S == 300
    f = edited(tmp_path, '{control: GEN 1, position: "ON"}', '{control: GEN 1, position: "ON", then_wait_s: 301}')
    _, problems = parse(f)
    assert [(p.path, p.message) for p in problems] == [
        ("ground_truth.procedure[0].steps[1].then_wait_s", "Input should be less than or equal to 300")]
    ok = edited(tmp_path, '{control: GEN 1, position: "ON"}', '{control: GEN 1, position: "ON", then_wait_s: 300}')
    assert parse(ok)[1] == []


LAST_STEP = '{control: GEN 1, position: "OFF", note: "IF UNSUCCESSFUL"}'


@pytest.mark.parametrize("step, says", [
    ('{control: GEN 1, position: "OFF", after: [APU START ON], why: "a test reason"}',
     "'APU START ON' names no step of the procedure (a step id, or 'CONTROL POSITION')"),
    ('{control: GEN 1, position: "OFF", after: [GEN 1 OFF], why: "a test reason"}',
     "'GEN 1 OFF' occurs 2 times in the procedure: give the step an id"),
    ('{control: GEN 1, position: "OFF", id: again}\n        - {control: ATC, position: NOTIFY, after: [again], '
     'why: "a test reason"}',
     "ATC NOTIFY is a communication: order-free, it may be neither ordered nor named in after: "
     "(GEN 1 OFF before ATC NOTIFY)"),
    ('{control: GEN 1, position: "OFF", id: again, after: [BUS TIE OFF], why: "a test reason"}\n'
     '        - {control: BUS TIE, position: "OFF", after: [again], why: "a test reason"}',
     "the order constraints form a cycle: GEN 1 OFF -> BUS TIE OFF -> GEN 1 OFF"),
    ('{control: GEN 1, position: "OFF", id: again, after: [GEN 1 ON]}',
     "ground_truth.procedure[0].steps[2]: a step with after: or when: needs a why: saying why the order or the "
     "condition matters"),
])
def test_an_order_constraint_that_does_not_resolve_is_one_line_naming_it(tmp_path, step, says):
    f = edited(tmp_path, LAST_STEP, step)
    _, problems = parse(f)
    assert [p.message if p.path == "ground_truth" else f"{p.path}: {p.message}" for p in problems] == [says]


def test_an_ordered_block_needs_a_why_and_a_since_condition_names_a_step(tmp_path):
    f = edited(tmp_path, "    - name: gen_1_reset\n", "    - name: gen_1_reset\n      ordered: true\n")
    assert [(p.path, p.message) for p in parse(f)[1]] == [
        ("ground_truth.procedure[0]", "an ordered block needs a why: saying why its steps must keep their order")]
    f = edited(tmp_path, LAST_STEP, '{control: GEN 1, position: "OFF", when: [{since: GEN 2 OFF, min_s: 30}], '
                                    'why: "IF UNSUCCESSFUL after 30 s"}')
    assert [p.message for p in parse(f)[1]] == ["'GEN 2 OFF' names no step of the procedure (a step id, or "
                                                "'CONTROL POSITION')"]
    f = edited(tmp_path, LAST_STEP, '{control: GEN 1, position: "OFF", when: [{var: elec.gen_1_on_fire, op: eq, '
                                    'value: true}], why: "a test reason"}')
    assert [(p.path, p.message) for p in parse(f)[1]] == [
        ("ground_truth.procedure[0].steps[2].when[0].var", "unknown state variable 'elec.gen_1_on_fire'")]


def test_validate_flies_every_adjacent_swap_and_names_an_order_the_file_leaves_free_that_fails(tmp_path, capsys):
    src = (ROOT / "scenarios/air/pack_1_2_fault_climb.yaml").read_text()
    pull = ', after: [FCU ALT FL100], why: "the pull engages the descent to the altitude shown: the altitude is set first"'
    assert pull in src
    (tmp_path / "ok.yaml").write_text(src)
    assert main(["validate", str(tmp_path / "ok.yaml")]) == 0
    assert "1 of 1 scenario(s) pass gate, success, compliance, order and optional actions" in capsys.readouterr().out
    (tmp_path / "free.yaml").write_text(src.replace(pull, ""))
    assert main(["validate", str(tmp_path / "free.yaml")]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "order: FCU ALT KNOB PULL before FCU ALT FL100 must pass (no constraint), failed" in out
    assert "0 of 1 scenario(s) pass gate, success, compliance, order and optional actions" in out


def test_a_steps_other_positions_are_checked_against_its_control(tmp_path):
    f = edited(tmp_path, LAST_STEP, '{control: GEN 1, position: "OFF", also: ["ON", "HALF"]}')
    _, problems = parse(f)
    assert [(p.path, p.message) for p in problems] == [
        ("ground_truth.procedure[0].steps[2].also[1]", "control 'GEN 1' has no position 'HALF' (positions: ON, OFF)")]


@pytest.mark.parametrize("extra", ['also: ["OFF"]', 'after: [GEN 1 OFF], why: "after the reset of generator 1"',
                                   'when: [{var: elec.gen1_online, op: eq, value: false}], why: "once it is off"',
                                   "id: start"])
def test_an_optional_action_refuses_what_only_a_procedure_step_honours(tmp_path, extra):
    # Scoring matches an optional action by its position alone: an also:, after:, when: or id: there was
    # silently without effect (red team round 10).
    f = edited(tmp_path, '- {control: APU MASTER SW, position: "ON"}',
               '- {control: APU MASTER SW, position: "ON", ' + extra + "}")
    _, problems = parse(f)
    assert [(p.path, p.message) for p in problems] == [
        ("ground_truth.optional_actions[0]", f"{extra.split(':')[0]}: applies to procedure steps only (an optional "
                                             "action is matched by its control and position)")]


def test_a_scenario_of_0_3_with_captain_refusals_is_told_the_field_is_gone_and_why(tmp_path):
    f = tmp_path / "old.yaml"
    f.write_text(ELEC + "captain:\n  refusals:\n    - {control: ENG MASTER 2, position: \"OFF\", reason: \"no\"}\n")
    _, problems = parse(f)
    assert [str(p) for p in problems] == [f"{f}: captain.refusals: removed in 0.4.0: delete it (the captain refuses "
                                          "from what the E/WD shows, never from the scenario)"]


@pytest.mark.parametrize("content, says", [
    ("", "the file is empty: no scenario fields"),
    ("# yaml-language-server: $schema=../schema/scenario.schema.json\n\n", "the file is empty: no scenario fields"),
    ("hello\n", "expected a mapping of scenario fields, got a text"),
    ("- 1\n", "expected a mapping of scenario fields, got a list"),
    ("id: a\ntitle: \x00\n", "not valid YAML: line 2, column 8: the control character #x0000 is not allowed"),
    ("id: a\x07\n", "not valid YAML: line 1, column 6: the control character #x0007 is not allowed"),
])
def test_an_empty_file_a_scalar_or_a_control_character_is_one_plain_line(tmp_path, content, says):
    f = tmp_path / "odd.yaml"
    f.write_text(content)
    _, problems = parse(f)
    assert [p.message for p in problems] == [says]


@pytest.mark.parametrize("target, says", [("gone.yaml", "a symbolic link that leads nowhere"),
                                          ("odd.yaml", "a symbolic link that loops")])
def test_a_scenario_read_through_a_broken_link_says_the_link_is_broken(tmp_path, target, says):
    link = tmp_path / "odd.yaml"
    link.symlink_to(target)
    _, problems = parse(link)
    assert [p.message for p in problems] == [f"cannot read: {says}"]



def _budget_line() -> int:
    return next(i for i, line in enumerate(ELEC.splitlines(), 1) if line.startswith("budget: {"))


def test_a_key_given_twice_is_refused_naming_both_lines(tmp_path):
    """YAML keeps the last of two equal keys: a second `budget:` pasted below would quietly change what
    the scenario measures, so the file is refused instead."""
    f = tmp_path / "twice.yaml"
    f.write_text(ELEC + "budget: {max_tool_calls: 5, max_sim_time_s: 900}\n")
    scenario, problems = parse(f)
    assert scenario is None
    assert [p.message for p in problems] == [
        f"line {len(ELEC.splitlines()) + 1}, column 1: the key budget is given twice (first on line {_budget_line()}); "
        "YAML would keep only the last"]


def test_a_nested_key_given_twice_is_refused(tmp_path):
    f = tmp_path / "twice.yaml"
    f.write_text(ELEC.replace("budget: {", "budget: {max_tool_calls: 3, ", 1))
    _, problems = parse(f)
    column = len("budget: {max_tool_calls: 3, ") + 1
    assert [p.message for p in problems] == [
        f"line {_budget_line()}, column {column}: the key max_tool_calls is given twice (first on line {_budget_line()}); "
        "YAML would keep only the last"]
