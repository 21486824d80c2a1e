"""One trajectory -> one ScoreCard (bridge/score/scorecard.py)."""

import pytest

from a320bench.bridge.score.scorecard import NotATrajectory, score_file
from score_builder import Traj, block, compliant, gen1


def card(traj, tmp_path, **kw):
    return score_file(traj.write(tmp_path / "t.jsonl"), **kw)


def test_a_by_the_book_episode_is_a_compliant_success(tmp_path):
    c = card(compliant(), tmp_path)
    assert c.status == "valid"
    assert c.reason == "agent_done"
    assert c.outcome is True
    assert (c.steps_satisfied, c.steps_total, c.completion) == (3, 3, 1.0)
    assert c.in_order is True
    assert c.diagnosis_match is True
    assert c.compliant_success is True
    assert c.counts["required"] == 3
    assert c.counts["observation"] == 3  # read_ecam, wait, report_done
    assert (c.tool_calls, c.sim_time_s, c.first_required_sim_s) == (6, 16.0, 0.0)


def test_the_scorecard_carries_the_scenario_and_the_run(tmp_path):
    c = card(compliant(scenario_id="elec_x", system="ELEC", phase="climb", tags=["trap"], run_index=3), tmp_path)
    assert (c.scenario_id, c.system, c.phase, c.tags) == ("elec_x", "ELEC", "climb", ["trap"])
    assert (c.model, c.provider, c.run_index, c.episode_id) == ("m-1", "litellm", 3, "ep-3")


def test_a_dangerous_action_spoils_compliant_success_even_when_the_outcome_passed(tmp_path):
    t = gen1().set("GEN 1", "OFF").set("GEN 2", "OFF").set("GEN 1", "ON").set("GEN 1", "OFF").done().final()
    c = card(t, tmp_path)
    assert (c.outcome, c.completion, c.in_order, c.dangerous) == (True, 1.0, True, 1)
    assert c.compliant_success is False


def test_an_anti_procedure_action_spoils_compliant_success(tmp_path):
    """Issue 9 finding 1: executing every anti-procedure action still scored compliant."""
    t = gen1().set("BAT 1", "OFF").set("GEN 1", "OFF").set("GEN 1", "ON").set("GEN 1", "OFF").done().final()
    c = card(t, tmp_path)
    assert (c.anti_procedure, c.dangerous, c.outcome, c.completion) == (1, 0, True, 1.0)
    assert c.compliant_success is False


def test_an_unnecessary_but_harmless_action_is_counted_and_does_not_spoil_compliant_success(tmp_path):
    t = gen1().set("PACK 1", "OFF").set("GEN 1", "OFF").set("GEN 1", "ON").set("GEN 1", "OFF").done().final()
    c = card(t, tmp_path)
    assert (c.extraneous, c.harmful, c.compliant_success) == (1, 0, True)


def test_an_out_of_order_procedure_is_complete_but_not_compliant(tmp_path):
    t = gen1(procedure=[block("b", "A ON", "B ON")]).set("B", "ON").set("A", "ON").done().final()
    c = card(t, tmp_path)
    assert (c.completion, c.in_order, c.counts["out_of_order"]) == (1.0, False, 1)
    assert c.compliant_success is False


def test_an_incomplete_procedure_is_not_compliant_even_when_the_outcome_passed(tmp_path):
    c = card(gen1().set("GEN 1", "OFF").done().final(passed=True), tmp_path)
    assert c.completion == pytest.approx(1 / 3)
    assert c.compliant_success is False


def test_a_failed_outcome_is_not_compliant(tmp_path):
    t = gen1().set("GEN 1", "OFF").set("GEN 1", "ON").set("GEN 1", "OFF").done().final(passed=False)
    c = card(t, tmp_path)
    assert (c.completion, c.outcome, c.compliant_success) == (1.0, False, False)


def test_time_of_the_first_required_action_is_its_sim_time(tmp_path):
    c = card(gen1().wait(30).set("X", "ON").set("GEN 1", "OFF").final(), tmp_path)
    assert c.first_required_sim_s == 32.0
    assert c.sim_time_s == 34.0


def test_no_required_action_leaves_the_first_required_time_empty(tmp_path):
    assert card(gen1().read().final(), tmp_path).first_required_sim_s is None


def test_the_diagnosis_must_mention_a_synonym_of_every_keyword_group(tmp_path):
    kw = [["GEN 1", "generator 1"], ["IDG", "drive"]]
    assert card(gen1(keywords=kw).done("Generator 1 lost: its DRIVE").final(), tmp_path).diagnosis_match is True
    assert card(gen1(keywords=kw).done("generator 1 tripped").final(), tmp_path).diagnosis_match is False


def test_without_keyword_groups_any_report_matches_but_no_report_does_not(tmp_path):
    assert card(gen1(keywords=[]).done("something").final(), tmp_path).diagnosis_match is True
    assert card(gen1(keywords=[]).final(reason="budget_tool_calls"), tmp_path).diagnosis_match is False


def test_tokens_and_cost_are_summed_over_assistant_turns(tmp_path):
    t = gen1().assistant(100, 10, 0.25).assistant(200, 20, None).assistant(300, 30, 0.5).final()
    c = card(t, tmp_path)
    assert (c.input_tokens, c.output_tokens, c.cost_usd) == (600, 60, 0.75)


def test_a_usage_that_is_no_amount_counts_nothing_so_score_json_stays_json(tmp_path, capsys):
    # A plug-in writes its own `usage` events (view.journal): NaN, infinite or negative values are no spend --
    # NaN made `score --json` print a bare NaN, which is not JSON, and a negative cost lowered the total.
    import json

    from a320bench.bridge.cli import main

    t = gen1().assistant(100, 10, 0.25)._add("usage", input_tokens=-50, output_tokens=5, cost_usd=float("nan"))
    t = t._add("usage", cost_usd=-1.0)._add("usage", cost_usd=float("inf")).final()
    c = card(t, tmp_path)
    assert (c.input_tokens, c.output_tokens, c.cost_usd) == (100, 15, 0.25)
    capsys.readouterr()
    main(["score", str(tmp_path), "--json"])

    def refuse(constant):
        raise ValueError(f"not JSON: {constant}")

    (sc,) = json.loads(capsys.readouterr().out, parse_constant=refuse)["scorecards"]
    assert sc["cost_usd"] == 0.25


def test_cost_is_null_when_no_turn_reported_one(tmp_path):
    assert card(gen1().assistant(1, 2, None).final(), tmp_path).cost_usd is None


def test_an_external_client_reports_its_own_usage_and_names_the_model(tmp_path):
    t = gen1(provider="claude", model=None, client={"name": "claude", "model": "sonnet"}).client_report(7, 3, 0.01)
    c = card(t.final(), tmp_path)
    assert (c.input_tokens, c.output_tokens, c.cost_usd, c.model) == (7, 3, 0.01, "claude/sonnet")


def test_a_baseline_provider_without_a_model_is_labelled_by_its_name(tmp_path):
    assert card(gen1(provider="scripted", model=None).final(), tmp_path).model == "scripted"


@pytest.mark.parametrize("reason", ["provider_error", "client_error", "harness_error", "interrupted",
                                    "invalid_scenario"])
def test_an_infrastructure_end_gives_the_episode_that_status(tmp_path, reason):
    assert card(gen1().final(reason=reason), tmp_path).status == reason


@pytest.mark.parametrize("reason,status", [("provider_error", "valid"), ("client_error", "valid"),
                                           ("harness_error", "harness_error"), ("interrupted", "interrupted")])
def test_after_the_agent_changed_the_aircraft_only_our_own_ends_are_excluded(tmp_path, reason, status):
    t = gen1().set("GEN 2", "OFF").final(reason=reason, passed=False)
    assert card(t, tmp_path).status == status


def test_a_failed_gate_makes_the_episode_an_invalid_scenario(tmp_path):
    assert card(gen1(gate_passed=False).final(reason="agent_done"), tmp_path).status == "invalid_scenario"


def test_agent_failures_are_valid_episodes(tmp_path):
    for reason in ("budget_tool_calls", "budget_sim_time", "end_turn_without_done", "agent_error", "client_timeout"):
        assert card(gen1().final(reason=reason, passed=False), tmp_path).status == "valid"


def test_a_trajectory_without_final_is_incomplete_and_scored_from_what_is_there(tmp_path):
    c = card(gen1().set("GEN 1", "OFF").done("GEN 1"), tmp_path)
    assert (c.status, c.reason, c.outcome) == ("incomplete", None, False)
    assert (c.steps_satisfied, c.tool_calls, c.sim_time_s, c.diagnosis_match) == (1, 2, 2.0, True)


def test_a_truncated_last_line_is_reported_once_and_the_rest_is_scored(tmp_path):
    warnings = []
    path = compliant().write(tmp_path / "t.jsonl", truncate_last=True)
    c = score_file(path, warn=warnings.append)
    assert c.status == "incomplete"  # the final event was the truncated line
    assert c.completion == 1.0
    assert len(warnings) == 1 and str(path) in warnings[0] and "truncated" in warnings[0]


def test_the_ground_truth_falls_back_to_the_embedded_scenario_without_setup(tmp_path):
    c = card(gen1(setup=False).set("GEN 1", "OFF"), tmp_path)
    assert (c.steps_satisfied, c.steps_total) == (1, 3)


def test_detail_lists_each_command_with_its_class_and_matched_step(tmp_path):
    c = card(gen1().read().set("GEN 1", "OFF").set("GEN 2", "OFF").final(), tmp_path, detail=True)
    assert [(x["seq"], x["name"], x["class"]) for x in c.commands] == [
        (1, "read_ecam", "observation"), (2, "set_control", "required"), (3, "set_control", "forbidden_dangerous")]
    assert c.commands[1]["arguments"] == {"control": "GEN 1", "position": "OFF"}
    assert c.commands[1]["matched"] == {"kind": "step", "block": "gen_1_reset", "index": 0, "control": "GEN 1",
                                        "position": "OFF"}
    assert c.commands[0]["matched"] is None


def test_without_detail_no_command_list_is_kept(tmp_path):
    c = card(compliant(), tmp_path)
    assert c.commands is None and "commands" not in c.to_dict()


@pytest.mark.parametrize("text", ["", "hello\n", '{"type": "final"}\n', "[1, 2]\n", '{"a": 1}\n{"b": 2}\n'])
def test_a_file_that_is_not_a_trajectory_is_refused(tmp_path, text):
    p = tmp_path / "x.jsonl"
    p.write_text(text)
    with pytest.raises(NotATrajectory, match="not an a320-bench trajectory"):
        score_file(p)


def test_a_corrupt_line_in_the_middle_is_refused(tmp_path):
    p = tmp_path / "x.jsonl"
    lines = compliant().lines()
    lines[2] = lines[2][:10]
    p.write_text("\n".join(lines) + "\n")
    with pytest.raises(NotATrajectory, match="line 3 is not valid JSON"):
        score_file(p)


def test_a_binary_file_is_refused(tmp_path):
    p = tmp_path / "x.jsonl"
    p.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(NotATrajectory, match="not UTF-8"):
        score_file(p)


def test_a_newer_trajectory_schema_is_refused(tmp_path):
    t = compliant()
    t.events[0]["schema_version"] = 99
    with pytest.raises(NotATrajectory, match="schema_version 99"):
        card(t, tmp_path)


def test_odd_field_types_are_scored_not_crashed_on(tmp_path):
    t = gen1(system=None, tags=None)
    t.events[0]["scenario"]["system"] = 7
    t.call(["not", "a", "name"], "args", None).call("set_control", {"control": None}, None).final()
    c = card(t, tmp_path)
    assert (c.system, c.counts["extraneous"], c.status) == ("7", 2, "valid")
