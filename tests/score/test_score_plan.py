"""Rates against the plan (red-team findings 1 and 2): the run record lists every planned episode with
its trajectory's sha256; `score` names missing, modified and extra files, counts planned episodes
without a result as failures, and compares models over the same scenarios."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from a320bench.bridge.cli import main
from a320bench.bridge.score.aggregate import aggregate
from a320bench.bridge.score.coverage import file_sha256
from a320bench.bridge.score.scorecard import score_file
from a320bench.bridge.score.stats import wilson
from score_builder import compliant, gen1, score_cli, sha256_of

ROOT = Path(__file__).resolve().parents[2]

A, B = "scenarios/elec/gen1_fault_reset_fails.yaml", "scenarios/air/pack1_ovht_then_pack2_fault_cruise.yaml"
A_ID, B_ID = "elec_gen1_fault_reset_fails", "air_pack1_ovht_then_pack2_fault_cruise"


@pytest.fixture(scope="module")
def flown(tmp_path_factory):
    out = tmp_path_factory.mktemp("plan") / "out"
    # --scenario given twice: both are flown (before, the first was dropped silently).
    assert main(["run", "--scenario", A, "--scenario", B, "--out", str(out), "--no-progress"]) == 0
    return out


def copy_of(flown, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(flown, out)
    return out


def test_repeated_scenario_flags_fly_every_scenario_and_the_record_lists_each_episode(flown):
    (record,) = flown.glob("run-*.json")
    doc = json.loads(record.read_text())
    assert doc["scenarios"] == [A_ID, B_ID]
    assert doc["episodes"] == [
        {"scenario_id": sid, "system": system, "run_index": 0, "path": f"{sid}/scripted__run000.jsonl",
         "sha256": file_sha256(flown / sid / "scripted__run000.jsonl")}
        for sid, system in ((A_ID, "ELEC"), (B_ID, "AIR"))]


def test_a_run_folder_as_written_scores_against_its_plan_with_nothing_to_say(flown, capsys):
    code, out, err = score_cli(capsys, flown, "--json")
    assert (code, err) == (0, "")
    doc = json.loads(out)
    assert (doc["plan"]["planned"], doc["plan"]["missing"], doc["plan"]["modified"], doc["plan"]["extra"]) == (
        2, [], [], [])
    (overall,) = doc["aggregates"]["overall"]
    assert (overall["n"], overall["not_flown"], overall["coverage"]) == (2, 0, {"scenarios": 2, "of": 2})
    assert overall["compliant_success"]["rate"] == 1.0


def test_a_deleted_failure_is_named_and_still_counts_against_the_model(flown, tmp_path, capsys):
    out = copy_of(flown, tmp_path)
    gone = out / B_ID / "scripted__run000.jsonl"
    gone.unlink()
    code, stdout, err = score_cli(capsys, out, "--json")
    assert code == 0
    assert err == (f"warning: {gone}: missing: {next(out.glob('run-*.json')).name} planned it ({B_ID} "
                   "run 0); counted as not flown\n")
    (overall,) = json.loads(stdout)["aggregates"]["overall"]
    # Before: 1 scenario, n 1, 100 %. Now the deleted one is a failed trial of its scenario.
    assert (overall["scenarios"], overall["n"], overall["not_flown"]) == (2, 1, 1)
    assert overall["coverage"] == {"scenarios": 1, "of": 2}
    assert overall["compliant_success"] == {"count": 1, "rate": 0.5, "ci95": list(wilson(1, 2))}
    code, _, err = score_cli(capsys, out, "--verify")
    assert code == 1 and "missing:" in err


def test_an_edited_file_is_not_scored_and_an_extra_one_is_named(flown, tmp_path, capsys):
    out = copy_of(flown, tmp_path)
    edited = out / A_ID / "scripted__run000.jsonl"
    events = [json.loads(line) for line in edited.read_text().splitlines()]
    events[0]["ts"] = "2026-01-01T00:00:00.000+00:00"  # any byte: the run record's sha256 no longer matches
    edited.write_text("".join(json.dumps(e) + "\n" for e in events))
    extra = out / B_ID / "scripted__run001.jsonl"  # T3: a success passed off as a second run
    forged = [json.loads(line) for line in (out / B_ID / "scripted__run000.jsonl").read_text().splitlines()]
    forged[0].update(run_index=1, episode_id=f"{B_ID}/scripted__run001")
    extra.write_text("".join(json.dumps(e) + "\n" for e in forged))
    code, stdout, err = score_cli(capsys, out, "--json")
    record = next(out.glob("run-*.json")).name
    assert code == 0
    assert err.splitlines() == [
        f"warning: {edited}: modified since {record} recorded it (sha256 differs); not scored, counted "
        "as not flown",
        f"warning: {extra}: extra: no run record planned it; scored as given"]
    doc = json.loads(stdout)
    assert sorted(c["path"] for c in doc["scorecards"]) == sorted([str(out / B_ID / "scripted__run000.jsonl"),
                                                                   str(extra)])
    a_row = next(r for r in doc["aggregates"]["by_scenario"] if r["scenario_id"] == A_ID)
    assert (a_row["n"], a_row["not_flown"], a_row["compliant_success"]["rate"]) == (0, 1, 0.0)


def test_a_copied_run_folder_is_counted_once_and_nothing_is_not_flown(flown, tmp_path, capsys):
    copy = tmp_path / "copy"
    shutil.copytree(flown, copy)
    code, out, err = score_cli(capsys, flown, copy, "--json")
    assert code == 0 and len(err.splitlines()) == 2 and all("duplicate of episode" in line for line in err.splitlines())
    (overall,) = json.loads(out)["aggregates"]["overall"]
    assert (overall["n"], overall["not_flown"], overall["compliant_success"]["rate"]) == (2, 0, 1.0)


def test_a_run_record_from_before_episode_lists_is_named_and_its_files_are_not_called_extra(flown, tmp_path,
                                                                                           capsys):
    out = copy_of(flown, tmp_path)
    old = out / "run-20200101T000000000000Z.json"
    old.write_text(json.dumps({"started_at": "2020-01-01T00:00:00+00:00", "scenarios": [A_ID]}))
    older = [json.loads(line) for line in (out / A_ID / "scripted__run000.jsonl").read_text().splitlines()]
    older[0]["run_index"] = 7  # an episode of that older run, which listed nothing
    older[0]["episode_id"] = f"{A_ID}/scripted__run007"  # as that run named it
    (out / A_ID / "scripted__run007.jsonl").write_text("".join(json.dumps(e) + "\n" for e in older))
    code, _, err = score_cli(capsys, out)
    assert err == (f"warning: {old.resolve()}: lists no planned episodes (written before a320-bench recorded them): "
                   "its plan is not checked\n")


def test_a_copy_with_a_new_timestamp_is_still_the_same_episode(flown, tmp_path, capsys):
    src = flown / A_ID / "scripted__run000.jsonl"
    events = [json.loads(line) for line in src.read_text().splitlines()]
    events[0]["ts"] = "2026-01-01T00:00:00.000+00:00"
    events[0]["episode_id"] = "someone/else"
    copy = tmp_path / "copy.jsonl"
    copy.write_text("".join(json.dumps(e) + "\n" for e in events))
    code, out, err = score_cli(capsys, src, copy, "--json")
    assert err == f"warning: {copy}: duplicate of episode someone/else in {src}; counted once\n"
    assert len(json.loads(out)["scorecards"]) == 1


def test_without_a_run_record_the_table_says_the_rates_are_over_the_files_given(flown, capsys):
    code, out, err = score_cli(capsys, flown / A_ID / "scripted__run000.jsonl")
    assert (code, err) == (0, "")
    assert out.rstrip().splitlines()[-2] == ("No run record (run-*.json) among the inputs (served trajectories, loose "
                                             "files): rates are over the episodes given, not against a plan.")


def edited_copy(events):
    """The episode as flown against an edited copy of its scenario (hashed as the server hashes it)."""
    events[0]["scenario"]["title"] += " (an edited copy)"
    events[0]["scenario_sha256"] = sha256_of(events[0]["scenario"])
    return events[0]["scenario_sha256"]


def test_one_scenario_id_flown_in_two_versions_is_named_without_verify(flown, tmp_path, capsys):
    src = flown / A_ID / "scripted__run000.jsonl"
    events = [json.loads(line) for line in src.read_text().splitlines()]
    edited = edited_copy(events)
    events[0]["run_index"] = 1
    events[0]["episode_id"] = f"{A_ID}/scripted__run001"  # as its run named it
    other = tmp_path / "other.jsonl"
    other.write_text("".join(json.dumps(e) + "\n" for e in events))
    code, out, err = score_cli(capsys, src, other)
    assert code == 0
    real = json.loads(src.read_text().splitlines()[0])["scenario_sha256"]
    assert err == (f"warning: scenario {A_ID} was flown in 2 versions (scenario_sha256 {real[:12]}… ({src}), "
                   f"{edited[:12]}… ({other})): its results mix catalogues; --verify checks each against one\n")


def abstainer(scenario_id: str, **kw):
    """Reads the ECAM, then ends provider_error before any change: excluded, rerun on resume."""
    return gen1(scenario_id=scenario_id, model="abstain", **kw).read().final(reason="provider_error")


def test_selective_abstention_no_longer_raises_a_models_headline(tmp_path):
    # Finding 1: a model that opts out of every scenario it would fail, and flies the easy one, had
    # 100 % over its own subset beside a model that flew all three.
    trajs = [compliant(scenario_id="s1", model="abstain"), abstainer("s2"), abstainer("s3"),
             compliant(scenario_id="s1", model="plain"), gen1(scenario_id="s2", model="plain").done().final(False),
             gen1(scenario_id="s3", model="plain").done().final(False)]
    cards = [score_file(t.write(tmp_path / f"{i}.jsonl")) for i, t in enumerate(trajs)]
    overall = {r["model"]: r for r in aggregate(cards)["overall"]}
    a, p = overall["abstain"], overall["plain"]
    assert (a["scenarios"], a["n"], a["coverage"], a["compliant_success"]["rate"]) == (
        3, 1, {"scenarios": 1, "of": 3}, pytest.approx(1 / 3))
    assert (p["scenarios"], p["n"], p["coverage"], p["compliant_success"]["rate"]) == (
        3, 3, {"scenarios": 3, "of": 3}, pytest.approx(1 / 3))
    assert a["pass_hat_k"] == {"1": pytest.approx(1 / 3)}


def test_a_model_that_skipped_a_scenario_others_flew_fails_it_in_its_overall_row(tmp_path):
    cards = [score_file(t.write(tmp_path / f"{i}.jsonl")) for i, t in enumerate(
        [compliant(scenario_id="s1", model="x"), compliant(scenario_id="s1", model="y"),
         compliant(scenario_id="s2", model="y")])]
    agg = aggregate(cards)
    x = next(r for r in agg["overall"] if r["model"] == "x")
    assert (x["scenarios"], x["coverage"], x["compliant_success"]["rate"]) == (2, {"scenarios": 1, "of": 2}, 0.5)
    assert [(r["scenario_id"], r["model"]) for r in agg["by_scenario"]] == [("s1", "x"), ("s1", "y"), ("s2", "y")]


def test_episodes_recorded_by_two_versions_of_a320_bench_are_named_without_verify(flown, tmp_path, capsys):
    # Red team round 7: a table mixing results of two harness versions (0.1.0's outcome had no hands-off
    # reading) said nothing unless --verify; each version's verdicts compare only with its own.
    src = flown / A_ID / "scripted__run000.jsonl"
    events = [json.loads(line) for line in src.read_text().splitlines()]
    now = events[0]["versions"]["a320-bench"]
    events[0]["versions"]["a320-bench"] = "0.1.0"  # the same calls, recorded by another harness: not a copy
    old = tmp_path / "old.jsonl"
    old.write_text("".join(json.dumps(e) + "\n" for e in events))
    code, out, err = score_cli(capsys, src, old)
    assert code == 0
    assert err == (f"warning: these episodes were recorded by 2 versions of a320-bench (0.1.0: 1, e.g. {old}; "
                   f"{now}: 1, e.g. {src}): how a verdict is reached changes between versions; compare results of "
                   "one version (--verify names each episode's)\n")
    code, out, err = score_cli(capsys, src, old, "--json")
    assert sorted(c["a320bench_version"] for c in json.loads(out)["scorecards"]) == ["0.1.0", now]


def test_the_same_calls_flown_against_two_versions_of_a_scenario_are_two_episodes(flown, tmp_path, capsys):
    # Red team round 7: noop flown against a lenient copy of a scenario (same id) and against the
    # catalogue's made the same calls, so the second file was taken for a copy of the first and dropped:
    # the outcome shown (100% or 0%) followed the order of the arguments, and the two-versions warning,
    # which runs on the episodes kept, never came.
    src = flown / A_ID / "scripted__run000.jsonl"
    events = [json.loads(line) for line in src.read_text().splitlines()]
    edited = edited_copy(events)
    other = tmp_path / "other.jsonl"
    other.write_text("".join(json.dumps(e) + "\n" for e in events))
    code, out, err = score_cli(capsys, src, other, "--json")
    assert code == 0
    assert len(json.loads(out)["scorecards"]) == 2
    real = json.loads(src.read_text().splitlines()[0])["scenario_sha256"]
    assert err == (f"warning: scenario {A_ID} was flown in 2 versions (scenario_sha256 {real[:12]}… ({src}), "
                   f"{edited[:12]}… ({other})): its results mix catalogues; --verify checks each against one\n")


def forge_extra(out):
    """A success passed off as a second run of B (T3), in the run folder `out`."""
    extra = out / B_ID / "scripted__run001.jsonl"
    forged = [json.loads(line) for line in (out / B_ID / "scripted__run000.jsonl").read_text().splitlines()]
    forged[0].update(run_index=1, episode_id=f"{B_ID}/scripted__run001")
    extra.write_text("".join(json.dumps(e) + "\n" for e in forged))
    return extra


def test_a_dry_runs_record_does_not_switch_the_plan_check_off(flown, tmp_path, capsys):
    # Red team round 7: a dry run's record lists no episodes (it flies none), so score took it for a
    # record older than episode lists, said so, and called nothing in its folder extra again.
    out = copy_of(flown, tmp_path)
    assert main(["run", "--scenario", A, "--scenario", B, "--out", str(out), "--dry-run"]) == 0
    capsys.readouterr()
    extra = forge_extra(out)
    code, _, err = score_cli(capsys, out)
    assert (code, err) == (0, f"warning: {extra}: extra: no run record planned it; scored as given\n")


def test_a_killed_runs_record_is_covered_by_the_rerun_that_completed_it(flown, tmp_path, capsys):
    # A run killed (SIGKILL) leaves the record it wrote at its start, without episodes; the rerun lists them
    # all, those it skipped as complete included. The killed record switched the plan check off as well.
    out = copy_of(flown, tmp_path)
    (done,) = out.glob("run-*.json")
    killed = {k: v for k, v in json.loads(done.read_text()).items() if k != "episodes"}
    killed.update(started_at="2020-01-01T00:00:00+00:00", finished_at=None, counts={})
    (out / "run-20200101T000000000000Z.json").write_text(json.dumps(killed))
    extra = forge_extra(out)
    code, _, err = score_cli(capsys, out)
    assert (code, err) == (0, f"warning: {extra}: extra: no run record planned it; scored as given\n")


def test_a_killed_run_never_rerun_is_named_as_such(flown, tmp_path, capsys):
    out = copy_of(flown, tmp_path)
    (record,) = out.glob("run-*.json")
    killed = {k: v for k, v in json.loads(record.read_text()).items() if k != "episodes"}
    record.write_text(json.dumps({**killed, "finished_at": None}))
    code, _, err = score_cli(capsys, out)
    assert (code, err) == (0, f"warning: {record.resolve()}: a run that did not finish (killed?) lists no planned "
                              "episodes: its plan is not checked; rerun its command to complete it\n")


def test_a_scenario_whose_gate_failed_is_invalid_not_failed_in_the_overall_row(tmp_path, capsys):
    # Red team round 8: one scenario of two failed its gate (the agent was never asked, and a rerun fails
    # it again), and the oracle's overall rate was 50 %: its episode counted as not flown, the scenario 0.
    broken = tmp_path / "gate_fails.yaml"
    text = (ROOT / A).read_text().replace(f"id: {A_ID}", "id: elec_gate_fails_copy")
    broken.write_text(text.replace("must_appear: [ELEC GEN 1 FAULT]", "must_appear: [HYD B SYS LO PR]"))
    out = tmp_path / "out"
    assert main(["run", "--scenario", str(ROOT / A), "--scenario", str(broken), "--out", str(out),
                 "--no-progress"]) == 3  # a gate failed: said by the exit code
    capsys.readouterr()
    code, stdout, err = score_cli(capsys, out, "--json")
    assert (code, err) == (0, "")
    doc = json.loads(stdout)
    (overall,) = doc["aggregates"]["overall"]
    assert (overall["scenarios"], overall["n"], overall["not_flown"], overall["coverage"], overall["statuses"]) == (
        1, 1, 0, {"scenarios": 1, "of": 1}, {"invalid_scenario": 1, "valid": 1})
    assert overall["compliant_success"]["rate"] == 1.0
    row = next(r for r in doc["aggregates"]["by_scenario"] if r["scenario_id"] == "elec_gate_fails_copy")
    assert (row["n"], row["not_flown"], row["statuses"], row["compliant_success"]["rate"]) == (
        0, 0, {"invalid_scenario": 1}, None)
    code, stdout, _ = score_cli(capsys, out, "--json", "--include-errors")  # counted as failures when asked
    (overall,) = json.loads(stdout)["aggregates"]["overall"]
    assert (overall["scenarios"], overall["n"], overall["compliant_success"]["rate"]) == (2, 2, 0.5)
    code, stdout, _ = score_cli(capsys, out)
    assert "one whose gate failed for every model is left out of them." in " ".join(stdout.split())
