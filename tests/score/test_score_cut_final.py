"""Red team round 12: cutting the `final` line off a failed episode must not take the failure out of the
rates. A trajectory without its final (interrupted, killed, cut) was planned -- its meta says which
scenario and run -- so it is a failed trial (`not flown`), with or without the run record."""

from __future__ import annotations

import json

import pytest

from a320bench.bridge.score.coverage import file_sha256
from a320bench.bridge.score.stats import wilson
from score_builder import compliant, gen1, score_cli


def failed():
    return gen1(run_index=1).set("GEN 2", "OFF").done("no idea").final(passed=False)


def cut_final(path):
    """The episode's file without its last line (the final event)."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    assert json.loads(lines[-1])["type"] == "final"
    path.write_text("".join(lines[:-1]), encoding="utf-8")


@pytest.fixture
def runs(tmp_path):
    """runs/elec_test: run 0 compliant, run 1 a failure."""
    root = tmp_path / "runs"
    compliant(run_index=0).write(root / "elec_test" / "r0.jsonl")
    failed().write(root / "elec_test" / "r1.jsonl")
    return root


def record(root, **sha256):
    """A run record planning r0 and r1 with these sha256 (by file stem)."""
    episodes = [{"scenario_id": "elec_test", "system": "ELEC", "run_index": i, "path": f"elec_test/r{i}.jsonl",
                 "sha256": sha256[f"r{i}"]} for i in (0, 1)]
    (root / "run-20261203T000000000000Z.json").write_text(json.dumps(
        {"model": "m-1", "started_at": "2026-12-03T00:00:00+00:00", "finished_at": "2026-12-03T00:01:00+00:00",
         "episodes": episodes}), encoding="utf-8")


def scenario_row(capsys, *argv):
    code, out, err = score_cli(capsys, *argv, "--json")
    assert code == 0
    doc = json.loads(out)
    (row,) = doc["aggregates"]["overall"]
    (scen,) = doc["aggregates"]["by_scenario"]
    assert (row["n"], row["not_flown"], row["compliant_success"]["rate"]) == (
        scen["n"], scen["not_flown"], scen["compliant_success"]["rate"])
    return scen, doc, err


def test_the_failure_as_flown_rates_half(runs, capsys):
    row, doc, _ = scenario_row(capsys, runs)
    assert (row["n"], row["not_flown"], row["compliant_success"]) == (
        2, 0, {"count": 1, "rate": 0.5, "ci95": list(wilson(1, 2))})


def test_without_a_run_record_a_cut_failure_counts_as_not_flown(runs, capsys):
    cut_final(runs / "elec_test" / "r1.jsonl")
    row, doc, _ = scenario_row(capsys, runs)
    # Before: n 1, not flown 0, 100 % -- the cut raised the rate from 50 %. Now it stays 50 %.
    assert (row["n"], row["not_flown"], row["compliant_success"]) == (
        1, 1, {"count": 1, "rate": 0.5, "ci95": list(wilson(1, 2))})
    assert row["outcome_success"]["rate"] == 0.5 and row["reported_done_rate"] == 0.5
    assert row["pass_hat_k"] == {"1": 0.5, "2": 0.0}
    assert doc["excluded"] == {"incomplete": 1}
    assert doc["plan"] is None


def test_with_the_run_record_a_cut_failure_is_modified_and_not_flown(runs, capsys):
    record(runs, r0=file_sha256(runs / "elec_test" / "r0.jsonl"), r1=file_sha256(runs / "elec_test" / "r1.jsonl"))
    cut_final(runs / "elec_test" / "r1.jsonl")
    row, doc, err = scenario_row(capsys, runs)
    assert (row["n"], row["not_flown"], row["compliant_success"]["rate"]) == (1, 1, 0.5)
    assert "modified since" in err


def test_an_episode_the_run_recorded_without_its_final_is_not_flown_once(runs, capsys):
    # The run itself was interrupted on r1: its record holds the sha256 of the file without a final.
    cut_final(runs / "elec_test" / "r1.jsonl")
    record(runs, r0=file_sha256(runs / "elec_test" / "r0.jsonl"), r1=file_sha256(runs / "elec_test" / "r1.jsonl"))
    row, doc, err = scenario_row(capsys, runs)
    assert err == ""
    # counted by the aggregation, not a second time by the plan
    assert (row["n"], row["not_flown"], row["compliant_success"]) == (
        1, 1, {"count": 1, "rate": 0.5, "ci95": list(wilson(1, 2))})


def test_include_errors_counts_a_cut_episode_once_as_a_failed_episode(runs, capsys):
    cut_final(runs / "elec_test" / "r1.jsonl")
    row, doc, _ = scenario_row(capsys, runs, "--include-errors")
    assert (row["n"], row["not_flown"], row["compliant_success"]["rate"]) == (2, 0, 0.5)


def test_the_table_shows_the_cut_episode_as_not_flown(runs, capsys):
    cut_final(runs / "elec_test" / "r1.jsonl")
    code, out, _ = score_cli(capsys, runs)
    assert code == 0
    assert ("An episode without a result (cut short, or an end before any change) counts as not flown, a failed "
            "trial of the headline rates, run record or not: rerun to fly it.") in " ".join(out.split())
    (row,) = [line for line in out.splitlines() if line.startswith("│ elec_test")]
    low, high = wilson(1, 2)
    assert [c.strip() for c in row.split("│")[3:6]] == ["1", "1", f"50% [{low:.0%}–{high:.0%}]"]


# (A client or provider end after the agent changed the aircraft is the agent's result: scored as such.)
@pytest.mark.parametrize("reason", ["interrupted", "harness_error"])
def test_a_failure_relabelled_an_excluded_end_without_the_run_record_still_counts_as_not_flown(
        runs, capsys, reason):
    # The failure's final edited to an end that is not the agent's result, the run record absent: before, it left
    # the rates (100 %); now it is a planned episode without a result, as it would be with the record.
    path = runs / "elec_test" / "r1.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    final = json.loads(lines[-1])
    final["reason"] = reason
    path.write_text("\n".join([*lines[:-1], json.dumps(final)]) + "\n", encoding="utf-8")
    row, doc, _ = scenario_row(capsys, runs)
    assert (row["n"], row["not_flown"], row["compliant_success"]) == (
        1, 1, {"count": 1, "rate": 0.5, "ci95": list(wilson(1, 2))})
    assert doc["excluded"] == {reason: 1}
