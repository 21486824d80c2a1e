"""`a320-bench score` end to end through the CLI (bridge/score/cli.py)."""

import csv
import json

import pytest

from a320bench.bridge.cli import main
from score_builder import compliant, gen1, score_cli


@pytest.fixture
def runs(tmp_path):
    """runs/<scenario>/<run>.jsonl: two compliant, one failed, one provider error."""
    root = tmp_path / "runs"
    compliant(run_index=0).write(root / "elec_test" / "r0.jsonl")
    compliant(run_index=1).write(root / "elec_test" / "r1.jsonl")
    gen1(run_index=2).set("GEN 2", "OFF").done("no idea").final(passed=False).write(root / "elec_test" / "r2.jsonl")
    gen1(run_index=3).read().final(reason="provider_error").write(root / "elec_test" / "r3.jsonl")
    (root / "elec_test" / "result.json").write_text("{}")  # not *.jsonl: ignored in a folder
    return root


def test_json_output_has_scorecards_aggregates_excluded_and_the_plan(runs, capsys):
    code, out, err = score_cli(capsys, runs, "--json")
    assert (code, err) == (0, "")
    doc = json.loads(out)
    assert set(doc) == {"scorecards", "aggregates", "excluded", "plan"}
    assert doc["plan"] is None  # built files, no run record: rates over the episodes given
    assert [c["run_index"] for c in doc["scorecards"]] == [0, 1, 2, 3]
    assert [c["compliant_success"] for c in doc["scorecards"]] == [True, True, False, False]
    assert [c["status"] for c in doc["scorecards"]] == ["valid", "valid", "valid", "provider_error"]
    assert set(doc["aggregates"]) == {"by_scenario", "by_system", "overall"}
    (a,) = doc["aggregates"]["by_scenario"]
    # The provider error: not flown, a failed trial (4 in all): pass^2 = C(2,2)/C(4,2)
    assert (a["n"], a["not_flown"], a["compliant_success"]["count"], a["pass_hat_k"]["2"]) == (
        3, 1, 2, pytest.approx(1 / 6))
    assert doc["excluded"] == {"provider_error": 1}
    assert "commands" not in doc["scorecards"][0]


def test_include_errors_counts_the_provider_error_as_a_failure(runs, capsys):
    doc = json.loads(score_cli(capsys, runs, "--json", "--include-errors")[1])
    (a,) = doc["aggregates"]["overall"]
    assert (a["n"], a["compliant_success"]["rate"]) == (4, 0.5)
    assert doc["excluded"] == {}


def test_detail_adds_the_per_command_classification_to_the_json(runs, capsys):
    doc = json.loads(score_cli(capsys, runs / "elec_test" / "r2.jsonl", "--json", "--detail")[1])
    (c,) = doc["scorecards"]
    assert [(x["seq"], x["name"], x["class"]) for x in c["commands"]] == [
        (1, "set_control", "forbidden_dangerous"), (2, "report_done", "observation")]
    assert c["commands"][0]["matched"]["kind"] == "forbidden"


def test_the_human_table_shows_compliant_success_per_scenario_system_and_model(runs, capsys):
    code, out, err = score_cli(capsys, runs)
    assert (code, err) == (0, "")
    for text in ("By scenario and model", "By system and model", "Overall", "elec_test", "ELEC", "m-1",
                 "compliant success", "50% [15%–85%]", "provider_error 1",
                 "4 episodes scored, 3 in the means. Excluded from means: provider_error 1",
                 "An episode without a result (cut short, or an end before any change) counts as not flown, a failed "
                 "trial of the headline rates, run record or not: rerun to fly it."):
        assert text in out, text


def test_the_human_detail_lists_every_command(runs, capsys):
    out = score_cli(capsys, runs / "elec_test" / "r0.jsonl", "--detail")[1]
    assert "set_control(control=GEN 1, position=OFF)  required  step gen_1_reset[0]" in out
    assert "read_ecam()  observation" in out


def test_csv_writes_one_row_per_episode(runs, tmp_path, capsys):
    target = tmp_path / "out.csv"
    code, out, _ = score_cli(capsys, runs, "--csv", target, "--json")
    assert code == 0 and json.loads(out)
    rows = list(csv.DictReader(target.open(encoding="utf-8")))
    assert len(rows) == 4
    first = rows[0]
    assert (first["scenario_id"], first["model"], first["status"], first["compliant_success"]) == (
        "elec_test", "m-1", "valid", "True")
    assert (first["required"], first["observation"], first["completion"], first["cost_usd"]) == ("3", "3", "1.0", "")
    assert rows[3]["status"] == "provider_error"


def test_globs_and_repeated_paths_score_each_file_once(runs, capsys):
    doc = json.loads(score_cli(capsys, runs / "*" / "r[01].jsonl", runs / "elec_test" / "r0.jsonl", "--json")[1])
    assert [c["run_index"] for c in doc["scorecards"]] == [0, 1]


def test_a_truncated_last_line_warns_once_on_stderr_and_scores_the_rest(tmp_path, capsys):
    p = compliant().write(tmp_path / "t.jsonl", truncate_last=True)
    code, out, err = score_cli(capsys, p, "--json")
    assert code == 0
    assert err.count("\n") == 1 and err.startswith("warning: ") and str(p) in err and "truncated" in err
    (c,) = json.loads(out)["scorecards"]
    assert (c["status"], c["completion"]) == ("incomplete", 1.0)
    assert json.loads(out)["excluded"] == {"incomplete": 1}


def assert_usage_error(code, out, err, *needles):
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert "Traceback" not in err
    for n in needles:
        assert n in err


def test_a_missing_path_is_a_usage_error(tmp_path, capsys):
    assert_usage_error(*score_cli(capsys, tmp_path / "nope"), "nope", "no such file or folder")


def test_an_empty_folder_is_a_usage_error(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert_usage_error(*score_cli(capsys, tmp_path / "empty"), "empty", "no trajectory")


def test_a_glob_matching_nothing_is_a_usage_error(tmp_path, capsys):
    assert_usage_error(*score_cli(capsys, tmp_path / "*.jsonl"), "no file matches")


def assert_skipped(code, out, err, *needles):
    """Issue 11 item 11: the bad file is named in one line and skipped, the rest is scored, exit 2."""
    assert code == 2
    assert "4 episodes scored" in out
    assert err.count("\n") == 1 and err.startswith("error: ") and err.rstrip().endswith("; skipped")
    assert "Traceback" not in err
    for n in needles:
        assert n in err


def test_a_file_that_is_not_a_trajectory_is_named_and_skipped(runs, tmp_path, capsys):
    bad = tmp_path / "notes.txt"
    bad.write_text("hello world\nsecond line\n")
    assert_skipped(*score_cli(capsys, runs, bad), "notes.txt", "not an a320-bench trajectory")


def test_a_scenario_file_among_trajectories_is_named_and_skipped(runs, capsys):
    (runs / "elec_test" / "scenario.jsonl").write_text('{"id": "elec_x"}\n')
    assert_skipped(*score_cli(capsys, runs), "scenario.jsonl")


def test_an_unwritable_csv_is_a_usage_error(runs, tmp_path, capsys):
    (tmp_path / "afile").write_text("")
    assert_usage_error(*score_cli(capsys, runs, "--csv", tmp_path / "afile" / "scores.csv"),
                       f"cannot write: {tmp_path / 'afile'} is a file where a folder goes")


def test_score_without_paths_is_a_usage_error(capsys):
    assert_usage_error(*score_cli(capsys))


def test_run_prints_the_same_table_for_its_own_episodes(runs, capsys):
    from a320bench.bridge.score.cli import print_table_for

    assert print_table_for(sorted((runs / "elec_test").glob("*.jsonl"))) is True
    out, err = capsys.readouterr()
    assert "50% [15%–85%]" in out and "4 episodes scored" in out and err == ""


def test_the_run_summary_reports_an_unscorable_file_in_one_line(tmp_path, capsys):
    from a320bench.bridge.score.cli import print_table_for

    bad = tmp_path / "x.jsonl"
    bad.write_text("oops\n")
    assert print_table_for([bad]) is False
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: ") and err.count("\n") == 1


def test_the_human_table_says_when_errors_count_as_failures(runs, capsys):
    out = score_cli(capsys, runs, "--include-errors")[1]
    assert "counted as failures (--include-errors)" in out and "Excluded from means" not in out
    assert "50% [15%–85%]" in out  # 2 of 4


def test_episodes_of_another_profile_are_reported_but_not_scored(tmp_path, capsys):
    out = tmp_path / "dev"
    assert main(["run", "--profile", "dev", "--scenario", "scenarios/elec/tr1_fault_cruise.yaml", "--out", str(out),
                 "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["score", "--json", str(out)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["scorecards"][0]["status"] == "not_benchmark_profile"
    assert doc["excluded"] == {"not_benchmark_profile": 1}


def test_csv_has_each_column_once_and_lists_joined(tmp_path, capsys):
    target = tmp_path / "out.csv"
    t = gen1().set("PAX OXY MASKS", "MAN ON", removed=["pax_oxygen_stowed"]).final(passed=False)
    assert score_cli(capsys, t.write(tmp_path / "t.jsonl"), "--csv", target)[0] == 0
    header, row = list(csv.reader(target.open(encoding="utf-8")))
    assert len(header) == len(set(header))
    got = dict(zip(header, row))
    assert (got["harmful"], got["capabilities_removed"], got["reported_done"]) == ("1", "pax_oxygen_stowed", "True")
