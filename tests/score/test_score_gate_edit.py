"""A failed validity gate ends the episode `invalid_scenario` before the agent is asked (server/session.py), and
such an episode is left out of the means. Red team round 12: a failed episode whose gate was edited to `passed:
false` (its reason and its answered calls left as they were) left the means, and a scenario failed by every
model left the system and overall rows, with no word from plain score."""

from __future__ import annotations

import json
from pathlib import Path

import anyio

from a320bench.bridge import exitcodes
from a320bench.bridge.cli import main
from a320bench.bridge.inprocess_episode import run_episode
from a320bench.bridge.score.scorecard import score_file
from a320bench.server.surface.profiles import load_profile
from flight_bed import Sends, scenario


def failed_episode(path: Path) -> list[dict]:
    agent = Sends(("read_ecam", {}), ("set_control", {"control": "GEN 2", "position": "OFF"}),
                  ("report_done", {"diagnosis": "GEN 1 fault", "actions_summary": "GEN 2 OFF"}))
    anyio.run(lambda: run_episode(scenario("elec/gen1_fault_reset_fails"), agent, profile=load_profile("benchmark"),
                                  path=path, episode_id="gate"))
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_gate_edited_to_failed_under_answered_calls_keeps_the_episode_in_the_means_and_is_warned_of(
        tmp_path, capsys):
    path = tmp_path / "t.jsonl"
    events = failed_episode(path)
    assert score_file(path).status == "valid" and not score_file(path).compliant_success
    for ev in events:
        if ev["type"] in ("setup", "final"):
            ev["gate"]["passed"] = False
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    warnings: list[str] = []
    card = score_file(path, warn=warnings.append)
    assert card.status == "valid" and card.valid and not card.compliant_success
    assert warnings == [f"{path}: the gate failed, yet 3 call(s) were answered and the episode ended agent_done: "
                        "a failed gate ends it invalid_scenario before the agent is asked "
                        "(edited? score --verify checks it)"]
    capsys.readouterr()
    assert main(["score", "--verify", str(path)]) != exitcodes.OK
    assert "setup.gate.passed: recorded false, re-simulated true" in capsys.readouterr().err


def test_an_honest_failed_gate_is_still_left_out_without_a_word(tmp_path):
    from score_builder import gen1

    path = gen1(gate_passed=False).final("invalid_scenario").write(tmp_path / "t.jsonl")
    warnings: list[str] = []
    assert score_file(path, warn=warnings.append).status == "invalid_scenario" and warnings == []
