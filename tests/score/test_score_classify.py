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


def test_a_step_of_a_later_block_is_out_of_order_while_an_earlier_block_is_incomplete():
    t = tracker([block("first", "A ON", "B ON", ordered=False), block("second", "C ON", "D ON")])
    assert classes(t, "A ON", "C ON", "B ON", "D ON") == [C.REQUIRED, C.OUT_OF_ORDER, C.REQUIRED, C.REQUIRED]
    assert t.completion == 1.0


def test_blocks_are_done_in_listed_order_once_the_earlier_one_completes():
    t = tracker([block("first", "A ON"), block("second", "B ON", "C ON")])
    assert classes(t, "A ON", "B ON", "C ON") == [C.REQUIRED] * 3


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
