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
