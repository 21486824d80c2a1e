"""What an episode page shows, from a trajectory: alert bars, calls with their class, the procedure, the end."""

from __future__ import annotations

import json

from a320bench.bridge.report.load import load
from score_builder import Traj, compliant, gen1

GEN1 = {"title": "ELEC GEN 1 FAULT", "level": 2}


def timeline(traj: Traj, tmp_path) -> dict:
    loaded = load([traj.write(tmp_path / "t.jsonl")])
    return json.loads(loaded.episodes[0])


def changes(traj: Traj, *items: dict) -> Traj:
    """Attach `ecam_changes` to the last recorded call, as server/alert_log.py does."""
    traj.events[-1]["ecam_changes"] = list(items)
    return traj


def test_alert_bars_open_on_an_onset_and_close_on_a_clear_with_the_span_when_only_that_is_known(tmp_path):
    t = gen1()
    changes(t.read(), {**GEN1, "shown": True, "t_s": 0.0})
    changes(t.set("GEN 1", "OFF"), {**GEN1, "shown": False, "t_s": 2.0, "since_s": 0.0})
    changes(t.wait(60), {"title": "ELEC GEN 2 FAULT", "level": 2, "shown": True, "t_s": 31.4},
            {"title": "ELEC EMER CONFIG", "level": 3, "shown": True, "t_s": 62.0, "since_s": 2.0})
    t.done().final()
    assert timeline(t, tmp_path)["alerts"] == [
        {**GEN1, "on": 0.0, "on_since": None, "off": 2.0, "off_since": 0.0},
        {"title": "ELEC GEN 2 FAULT", "level": 2, "on": 31.4, "on_since": None, "off": None, "off_since": None},
        {"title": "ELEC EMER CONFIG", "level": 3, "on": 62.0, "on_since": 2.0, "off": None, "off_since": None},
    ]


def test_an_alert_that_returns_gets_a_second_bar(tmp_path):
    t = gen1()
    changes(t.read(), {**GEN1, "shown": True, "t_s": 0.0})
    changes(t.set("GEN 1", "OFF"), {**GEN1, "shown": False, "t_s": 2.0, "since_s": 0.0})
    changes(t.set("GEN 1", "ON"), {**GEN1, "shown": True, "t_s": 4.0, "since_s": 2.0})
    t.final()
    assert [(a["on"], a["off"]) for a in timeline(t, tmp_path)["alerts"]] == [(0.0, 2.0), (4.0, None)]


def test_a_trajectory_from_before_alert_changes_were_recorded_has_no_bars_rather_than_wrong_ones(tmp_path):
    t = gen1().call("read_ecam", {}, {"alerts": [{"title": "ELEC GEN 1 FAULT", "level": 2}]}).final()
    assert timeline(t, tmp_path)["alerts"] is None


def test_without_any_call_the_final_ecam_is_the_whole_story(tmp_path):
    t = gen1()
    t._add("final", scenario_id=t.scenario_id, gate=t.gate, reason="end_turn_without_done", report_done=None,
           success={"passed": False, "criteria": []}, final_ecam={"alerts": [{"title": "ELEC GEN 1 FAULT", "level": 2}]},
           tool_calls_used=0, sim_time_s=0.0, state_hash="h")
    assert timeline(t, tmp_path)["alerts"] == [{**GEN1, "on": 0.0, "on_since": None, "off": None, "off_since": None}]


def test_each_call_carries_its_time_its_class_from_scoring_and_what_it_matched(tmp_path):
    t = (gen1().read().set("GEN 1", "ON", changed=False).set("GEN 2", "OFF").set("GEN 1", "OFF")
         .set("NO SUCH", "ON", is_error=True).wait(10).set("GEN 1", "OFF").done().final())
    calls = timeline(t, tmp_path)["calls"]
    assert [(c["seq"], c["tool"], c["cls"], c["label"], c["t0"], c["t1"]) for c in calls] == [
        (1, "read_ecam", "observation", "read", 0.0, 0.0),
        (2, "set_control", "redundant", "no-op", 0.0, 2.0),
        (3, "set_control", "forbidden_dangerous", "forbidden (dangerous)", 2.0, 4.0),
        (4, "set_control", "required", "correct", 4.0, 6.0),
        (5, "set_control", "invalid", "invalid", 6.0, 8.0),
        (6, "wait", "observation", "wait", 8.0, 18.0),
        (7, "set_control", "out_of_order", "out of order", 18.0, 20.0),
        (8, "report_done", "observation", "report", 20.0, 20.0),
    ]
    assert calls[2]["match"] == "dangerous: test"
    assert calls[3]["match"] == "step 1 of gen_1_reset"
    assert calls[4]["note"] == "unknown control 'NO SUCH'"
    assert calls[7]["args"] == {}  # the report is shown in full in its own section


def test_a_harmful_command_says_which_capabilities_it_removed_in_words(tmp_path):
    t = gen1().set("GEN 1", "OFF").set("BUS TIE", "OFF", removed=["bus_tie_auto", "ac_bus_2"]).done().final()
    harmful = timeline(t, tmp_path)["calls"][1]
    assert (harmful["cls"], harmful["label"], harmful["match"]) == ("harmful", "harmful", "removed bus_tie_auto, ac_bus_2")


def test_the_procedure_says_which_command_did_each_step_and_the_forbidden_list_which_were_done(tmp_path):
    t = gen1().set("GEN 1", "OFF").set("GEN 2", "OFF").set("GEN 1", "OFF").done().final()
    ep = timeline(t, tmp_path)
    assert ep["procedure"] == [{"name": "gen_1_reset", "ordered": True, "steps": [
        {"action": "GEN 1 OFF", "note": "", "wait_s": 0, "seq": 1, "cls": "required"},
        {"action": "GEN 1 ON", "note": "", "wait_s": 0, "seq": None, "cls": None},
        {"action": "GEN 1 OFF", "note": "", "wait_s": 0, "seq": 3, "cls": "out_of_order"}]}]
    assert ep["forbidden"] == [{"action": "GEN 2 OFF", "severity": "dangerous", "why": "test", "seqs": [2]},
                               {"action": "BAT 1 OFF", "severity": "anti_procedure", "why": "test", "seqs": []}]
    assert ep["optional"] == ["APU MASTER SW ON"]
    assert (ep["steps"], ep["in_order"], ep["dangerous"], ep["compliant"]) == ([2, 3], False, 1, False)


def test_the_diagnosis_shows_which_synonym_of_each_keyword_group_it_matched(tmp_path):
    t = gen1(keywords=[["GEN 1", "generator 1"], ["reset", "recycle"]]).done("Generator 1 tripped", "none").final()
    ep = timeline(t, tmp_path)
    assert ep["report"] == {"diagnosis": "Generator 1 tripped", "actions_summary": "none"}
    assert ep["keywords"] == [{"any": ["GEN 1", "generator 1"], "hit": ["generator 1"]},
                              {"any": ["reset", "recycle"], "hit": []}]
    assert ep["diagnosis_match"] is False


def test_success_criteria_are_shown_with_the_value_each_had_at_the_end(tmp_path):
    t = compliant()
    t.events[-1]["success"] = {"passed": False, "criteria": [
        {"kind": "state", "var": "elec.ac_bus_1_powered", "op": "eq", "value": True, "actual": True, "passed": True},
        {"kind": "state", "var": "press.cabin_alt_ft", "op": "between", "low": 0, "high": 9000, "actual": 9550.5,
         "passed": False},
        {"kind": "ecam_clear_of", "titles": ["ELEC GEN 1 FAULT"], "present": ["ELEC GEN 1 FAULT"], "passed": False},
        {"kind": "controls_unchanged", "panels": ["ELEC"], "moved": {"GEN 1": ["ON", "OFF"]}, "pushed": ["IDG 1"],
         "passed": False}]}
    assert timeline(t, tmp_path)["criteria"] == [
        {"what": "elec.ac_bus_1_powered eq true", "actual": "true", "passed": True},
        {"what": "press.cabin_alt_ft between 0 and 9000", "actual": "9550.5", "passed": False},
        {"what": "ECAM clear of ELEC GEN 1 FAULT", "actual": "still shown: ELEC GEN 1 FAULT", "passed": False},
        {"what": "no control moved on the ELEC panels", "actual": "GEN 1 ON → OFF; IDG 1 pushed", "passed": False},
    ]


def test_the_hands_off_reading_is_one_more_criterion_naming_what_no_longer_held(tmp_path):
    t = compliant()
    t.events[-1]["success"] = {"passed": False, "criteria": [
        {"kind": "state", "var": "flight.altitude_ft", "op": "between", "low": 9500, "high": 10500, "actual": 10001.0,
         "passed": True}],
        "hands_off": {"after_s": 120.0, "passed": False, "failed": [
            {"kind": "state", "var": "flight.altitude_ft", "op": "between", "low": 9500, "high": 10500,
             "actual": 14014.0},
            {"kind": "ecam_clear_of", "titles": ["ENG 1 FAIL"], "present": ["ENG 1 FAIL"]}]}}
    assert timeline(t, tmp_path)["criteria"][1:] == [
        {"what": "all of the above still hold after 120 s hands off",
         "actual": "flight.altitude_ft between 9500 and 10500: 14014.0; ECAM clear of ENG 1 FAIL: still shown: "
                   "ENG 1 FAIL", "passed": False}]
    t.events[-1]["success"]["hands_off"] = {"after_s": 120.0, "passed": True, "failed": []}
    assert timeline(t, tmp_path)["criteria"][1:] == [
        {"what": "all of the above still hold after 120 s hands off", "actual": "they do", "passed": True}]


def test_a_model_run_keeps_its_turns_and_a_client_run_its_report(tmp_path):
    t = gen1().assistant(1200, 80, 0.002)
    t.events[-1].update(text="I read the ECAM.", tool_calls=[{"name": "read_ecam", "arguments": "{}"}])
    t.read()._add("nudge", text="Please continue.").final()
    ep = timeline(t, tmp_path)
    assert ep["turns"] == [{"kind": "assistant", "text": "I read the ECAM.", "asked": ["read_ecam({})"],
                            "tokens": [1200, 80], "cost": 0.002},
                           {"kind": "nudge", "text": "Please continue."}]
    assert (ep["tokens"], ep["cost"], ep["client"]) == ([1200, 80], 0.002, None)

    c = compliant(provider="claude", model=None, client={"name": "claude", "model": "sonnet"}).client_report(900, 40, 0.01)
    c.events[-1].update(num_turns=7, tool_uses=["mcp__a320__read_ecam"], stop_reason="end_turn")
    ep = timeline(c, tmp_path)
    assert ep["client"] == {"client": "claude", "model": "sonnet", "turns": 7, "tool_uses": ["mcp__a320__read_ecam"],
                            "input_tokens": 900, "output_tokens": 40, "cost": 0.01, "stop_reason": "end_turn",
                            "error": None}
    assert ep["model"] == "claude/sonnet"


def test_long_texts_are_cut_and_say_by_how_much(tmp_path):
    t = gen1().done("x" * 2500, "y").final()
    assert timeline(t, tmp_path)["report"]["diagnosis"] == "x" * 2000 + "… [500 more characters]"


def test_a_read_of_the_ecam_shows_the_lines_the_agent_was_shown_not_only_the_titles(tmp_path):
    shown = {"alerts": [{"title": "ELEC GEN 1 FAULT", "level": 2, "lines": ["-GEN 1........OFF THEN ON"]},
                        {"title": "ELEC IDG 1 OIL LO PR", "level": 2, "lines": []}]}
    t = gen1().call("read_ecam", {}, shown).call("read_ecam", {}, {"alerts": []}).final()
    assert [c["note"] for c in timeline(t, tmp_path)["calls"]] == [
        "ECAM: ELEC GEN 1 FAULT -GEN 1........OFF THEN ON; ELEC IDG 1 OIL LO PR", "ECAM: no alert"]


def test_a_forged_second_setup_shows_the_ground_truth_the_calls_were_classified_by(tmp_path):
    # Red team round 12 (left from round 11): score classifies the calls by the setup before them, and a forged
    # one after the real setup made GEN 2 OFF optional; the page read the first setup and listed GEN 2 OFF as
    # forbidden beside a call it labelled optional.
    t = gen1().read()
    real = t.events[1]
    forged = json.loads(json.dumps(real))
    forged["ground_truth"]["optional_actions"].append({"control": "GEN 2", "position": "OFF", "then_wait_s": 0.0,
                                                       "note": ""})
    forged["ground_truth"]["forbidden_actions"] = []
    t.events.insert(2, forged)
    t.set("GEN 2", "OFF").done().final()
    t.events.append(json.loads(json.dumps(real)))
    page = timeline(t, tmp_path)
    assert [(c["tool"], c["cls"]) for c in page["calls"]][1] == ("set_control", "optional")
    assert page["optional"] == ["APU MASTER SW ON", "GEN 2 OFF"]
    assert page["forbidden"] == []
