"""A trajectory is the episode of the scenario it embeds. Red team round 12: a passing episode of
elec_gen1_fault_reset_fails with only `meta.scenario_id` edited to elec_tr1_fault_cruise scored as a pass of
elec_tr1_fault_cruise in plain score, with no word (verify failed it)."""

from __future__ import annotations

import json

from a320bench.bridge.score.scorecard import score_file
from score_builder import compliant


def test_an_episode_relabelled_as_another_scenario_is_scored_as_the_one_it_embeds_and_warned_of(tmp_path):
    path = compliant(scenario_id="elec_gen1_fault_reset_fails").write(tmp_path / "t.jsonl")
    assert score_file(path).compliant_success
    lines = path.read_text().splitlines()
    meta = json.loads(lines[0])
    meta["scenario_id"] = "elec_tr1_fault_cruise"
    path.write_text("\n".join([json.dumps(meta), *lines[1:]]) + "\n")
    warnings: list[str] = []
    card = score_file(path, warn=warnings.append)
    assert card.scenario_id == "elec_gen1_fault_reset_fails"
    assert warnings == [f"{path}: meta.scenario_id 'elec_tr1_fault_cruise' is not the embedded scenario's id "
                        "'elec_gen1_fault_reset_fails' (edited? score --verify checks it)"]


def test_a_copy_given_another_run_index_is_warned_of(tmp_path):
    # Red team round 12: a passing run 0 copied as run 1 (meta.run_index edited) counted as a second episode.
    path = compliant(scenario_id="elec_gen1_fault_reset_fails").write(tmp_path / "t.jsonl")
    lines = path.read_text().splitlines()
    meta = json.loads(lines[0])
    meta["episode_id"] = "elec_gen1_fault_reset_fails/m-1__run000"  # as run names it
    path.write_text("\n".join([json.dumps(meta), *lines[1:]]) + "\n")
    warnings: list[str] = []
    score_file(path, warn=warnings.append)
    assert warnings == []
    meta["run_index"] = 1
    path.write_text("\n".join([json.dumps(meta), *lines[1:]]) + "\n")
    score_file(path, warn=warnings.append)
    assert warnings == [f"{path}: meta.episode_id 'elec_gen1_fault_reset_fails/m-1__run000' names "
                        "elec_gen1_fault_reset_fails run 0, the file elec_gen1_fault_reset_fails run 1 (a copy?) "
                        "(edited? score --verify checks it)"]


def test_verify_fails_a_copy_of_another_runs_episode(tmp_path, capsys):
    from pathlib import Path

    from a320bench.bridge import exitcodes
    from a320bench.bridge.cli import main

    root = Path(__file__).resolve().parents[2]
    out = tmp_path / "runs"
    assert main(["run", "--scenario", str(root / "scenarios/elec/gen1_fault_reset_fails.yaml"), "--out", str(out),
                 "--no-progress"]) == exitcodes.OK
    run0 = out / "elec_gen1_fault_reset_fails" / "scripted__run000.jsonl"
    lines = run0.read_text().splitlines()
    meta = json.loads(lines[0])
    meta["run_index"] = 1  # the oracle's run 0, passed off as its run 1
    copy = run0.with_name("scripted__run001.jsonl")
    copy.write_text("\n".join([json.dumps(meta), *lines[1:]]) + "\n")
    capsys.readouterr()
    assert main(["score", "--verify", str(run0), str(copy)]) == exitcodes.FAILED_CHECKS
    err = capsys.readouterr().err
    assert f"verify: FAILED {copy} (episode elec_gen1_fault_reset_fails/scripted__run000): meta.episode_id " \
           "'elec_gen1_fault_reset_fails/scripted__run000' names elec_gen1_fault_reset_fails run 0, the file " \
           "elec_gen1_fault_reset_fails run 1 (a copy?)" in err
    assert "verify: 1 of 2 episode(s) reproduce" in err
