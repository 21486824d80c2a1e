"""Classification of each command against the procedure (bridge/score/classify.py)."""

from a320bench.bridge.score.classify import CommandClass as C
from a320bench.bridge.score.classify import ProcedureTracker
from a320bench.bridge.score.groundtruth import GroundTruth
from score_builder import block, forbidden


def tracker(procedure, optional=(), forbid=()):
    return ProcedureTracker(GroundTruth.from_dict({
        "procedure": procedure,
        "optional_actions": [{"control": c.rsplit(" ", 1)[0], "position": c.rsplit(" ", 1)[1]} for c in optional],
        "forbidden_actions": list(forbid),
    }))


def classes(t, *commands, changed=None):
    out = []
    for cmd in commands:
        control, position = cmd.rsplit(" ", 1)
        out.append(t.set_control(control, position, changed).cls)
    return out


def test_repeated_steps_of_an_ordered_block_are_each_required_in_turn():
    t = tracker([block("reset", "GEN 1 OFF", "GEN 1 ON", "GEN 1 OFF")])
    assert classes(t, "GEN 1 OFF", "GEN 1 ON", "GEN 1 OFF") == [C.REQUIRED] * 3
    assert (t.satisfied, t.total, t.completion) == (3, 3, 1.0)


def test_a_later_step_of_an_ordered_block_is_out_of_order_and_counts_as_satisfied():
    t = tracker([block("b", "A ON", "B ON", "C ON")])
    assert classes(t, "B ON", "A ON", "C ON") == [C.OUT_OF_ORDER, C.REQUIRED, C.REQUIRED]
    assert t.completion == 1.0


def test_repeating_a_step_with_a_later_repeat_pending_is_out_of_order():
    # OFF, OFF: the second OFF matches the third (unsatisfied, not next) step.
    t = tracker([block("reset", "GEN 1 OFF", "GEN 1 ON", "GEN 1 OFF")])
    assert classes(t, "GEN 1 OFF", "GEN 1 OFF", "GEN 1 ON", "GEN 1 OFF") == [
        C.REQUIRED, C.OUT_OF_ORDER, C.REQUIRED, C.REDUNDANT]


def test_any_unsatisfied_step_of_an_unordered_block_is_required():
    t = tracker([block("b", "A ON", "B ON", "C ON", ordered=False)])
    assert classes(t, "C ON", "A ON", "B ON") == [C.REQUIRED] * 3


def test_blocks_are_groups_so_a_step_of_a_later_block_with_no_predecessor_is_required():
    t = tracker([block("first", "A ON", "B ON", ordered=False), block("second", "C ON", "D ON")])
    assert classes(t, "A ON", "C ON", "B ON", "D ON") == [C.REQUIRED] * 4
    assert t.completion == 1.0


def test_a_step_named_in_after_is_a_predecessor_across_blocks():
    t = tracker([block("idle", "THR LEVER 1 IDLE", ordered=False),
                 {"name": "shut", "steps": [{"control": "ENG MASTER 1", "position": "OFF", "after": ["THR LEVER 1 IDLE"],
                                             "why": "idle first"}, {"control": "ATC", "position": "NOTIFY"}]}])
    assert classes(t, "ATC NOTIFY", "ENG MASTER 1 OFF", "THR LEVER 1 IDLE") == [C.REQUIRED, C.OUT_OF_ORDER, C.REQUIRED]
    assert t.completion == 1.0


def test_after_may_name_a_repeated_action_by_its_step_id():
    t = tracker([{"name": "reset", "steps": [
        {"control": "GEN 1", "position": "OFF"}, {"control": "GEN 1", "position": "ON"},
        {"control": "GEN 1", "position": "OFF", "id": "gen_1_off_again"},
        {"control": "BUS TIE", "position": "OFF", "after": ["gen_1_off_again"], "why": "after the failed reset"}]}])
    assert classes(t, "GEN 1 OFF", "GEN 1 ON", "BUS TIE OFF", "GEN 1 OFF") == [
        C.REQUIRED, C.REQUIRED, C.OUT_OF_ORDER, C.REQUIRED]


def test_a_step_taken_before_its_when_held_is_out_of_order_or_dangerous_as_the_step_says():
    steps = [{"control": "PARKING BRK", "position": "ON", "when": [{"var": "flight.ias_kt", "op": "eq", "value": 0}]},
             {"control": "ENG 2 AGENT 2", "position": "PUSH", "early": "dangerous",
              "when": [{"since": "ENG 2 AGENT 1 PUSH", "min_s": 30}]}]
    early = [{"block": 0, "step": 0, "held": False}]
    t = tracker([{"name": "b", "steps": steps}])
    c = t.classify("set_control", {"control": "PARKING BRK", "position": "ON"}, {"changed": True}, False, (), early)
    assert (c.cls, c.matched["when_unmet"]) == (C.OUT_OF_ORDER, True)
    c = t.classify("set_control", {"control": "ENG 2 AGENT 2", "position": "PUSH"}, {"changed": True}, False, (),
                   [{"block": 0, "step": 1, "held": False}])
    assert c.cls is C.FORBIDDEN_DANGEROUS
    assert t.completion == 1.0
    held = tracker([{"name": "b", "steps": steps}])
    c = held.classify("set_control", {"control": "PARKING BRK", "position": "ON"}, {"changed": True}, False, (),
                      [{"block": 0, "step": 0, "held": True}])
    assert (c.cls, "when_unmet" in c.matched) == (C.REQUIRED, False)


def test_a_forbidden_action_wins_over_a_procedure_step():
    t = tracker([block("b", "GEN 2 OFF")], forbid=[forbidden("GEN 2 OFF")])
    c = t.set_control("GEN 2", "OFF")
    assert c.cls is C.FORBIDDEN_DANGEROUS
    assert c.matched["severity"] == "dangerous"
    assert t.satisfied == 0


def test_anti_procedure_actions_are_classified_by_their_severity():
    t = tracker([], forbid=[forbidden("BAT 1 OFF", "anti_procedure")])
    assert classes(t, "BAT 1 OFF") == [C.FORBIDDEN_ANTI_PROCEDURE]


def test_optional_actions_are_optional_and_do_not_count_towards_completion():
    t = tracker([block("b", "A ON")], optional=["APU MASTER SW ON"])
    assert classes(t, "APU MASTER SW ON") == [C.OPTIONAL]
    assert t.satisfied == 0


def test_repeating_a_satisfied_step_is_redundant():
    t = tracker([block("first", "A ON"), block("second", "B ON")])
    assert classes(t, "A ON", "A ON") == [C.REQUIRED, C.REDUNDANT]
    assert t.satisfied == 1


def test_a_command_that_changed_nothing_is_redundant_not_extraneous():
    t = tracker([block("b", "A ON")])
    assert classes(t, "X ON", changed=False) == [C.REDUNDANT]
    assert classes(t, "X ON", changed=True) == [C.EXTRANEOUS]


def test_a_step_that_changed_nothing_neither_counts_nor_skips_ahead():
    # GEN 1 OFF, OFF (no-op), ON, OFF is the full reset-then-off procedure done right.
    t = tracker([block("reset", "G OFF", "G ON", "G OFF")])
    assert classes(t, "G OFF") == [C.REQUIRED]
    assert classes(t, "G OFF", changed=False) == [C.REDUNDANT]
    assert classes(t, "G ON", "G OFF") == [C.REQUIRED, C.REQUIRED]
    assert t.satisfied == 3 and t.completion == 1.0


def test_a_no_op_is_not_credited_as_the_step_it_names():
    t = tracker([block("reset", "G OFF", "G ON", "G OFF")])
    assert classes(t, "G ON", changed=False) == [C.REDUNDANT]
    assert t.satisfied == 0


def test_a_forbidden_action_is_forbidden_even_when_it_changed_nothing():
    t = tracker([block("b", "A ON")], forbid=[{"control": "B", "position": "OFF", "severity": "dangerous"}])
    assert classes(t, "B OFF", changed=False) == [C.FORBIDDEN_DANGEROUS]


def test_an_unrelated_command_is_extraneous():
    t = tracker([block("b", "A ON")])
    assert classes(t, "A OFF") == [C.EXTRANEOUS]


def test_controls_and_positions_match_regardless_of_case_and_spacing():
    t = tracker([block("b", "GEN 1 OFF")])
    assert classes(t, "gen  1 off") == [C.REQUIRED]


def test_reads_are_observations_and_tool_errors_are_invalid():
    t = tracker([block("b", "A ON")])
    for name in ("read_ecam", "read_system_page", "list_controls", "wait", "report_done"):
        assert t.classify(name, {}, {}, False).cls is C.OBSERVATION
    assert t.classify("set_control", {"control": "A", "position": "ON"}, "no such control", True).cls is C.INVALID
    assert t.classify("set_control", {"control": "A", "position": "ON"}, {"changed": True}, False).cls is C.REQUIRED


def test_an_empty_procedure_is_complete():
    assert tracker([]).completion == 1.0
