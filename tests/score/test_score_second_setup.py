"""A trajectory holds one `setup` event, before its calls (server/session.py writes it once). Red team
round 11: a forged setup put after the real one, its ground truth calling ATC MAYDAY optional, with a copy
of the real one at the end of the file: scoring classified the calls by the forged one, the check of the
embedded scenario and `score --verify` read the last one, and the `declared` column lost the episode's
MAYDAY with no warning and a verify that passed."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import anyio

from a320bench.bridge import exitcodes
from a320bench.bridge.cli import main
from a320bench.bridge.inprocess_episode import run_episode
from a320bench.bridge.score.scorecard import score_file
from a320bench.server.surface.profiles import load_profile
from flight_bed import Sends, scenario


def test_a_second_setup_is_an_edit_that_plain_score_warns_of_and_verify_fails(tmp_path, capsys):
    path = tmp_path / "t.jsonl"
    agent = Sends(("set_control", {"control": "ATC", "position": "MAYDAY"}),
                  ("set_control", {"control": "GEN 1", "position": "OFF"}),
                  ("report_done", {"diagnosis": "GEN 1 fault", "actions_summary": "GEN 1 OFF"}))
    anyio.run(lambda: run_episode(scenario("elec/gen1_fault_reset_fails"), agent, profile=load_profile("benchmark"),
                                  path=path, episode_id="setup"))
    assert score_file(path).declarations == 1
    events = [json.loads(line) for line in path.read_text().splitlines()]
    i = next(i for i, e in enumerate(events) if e["type"] == "setup")
    forged = copy.deepcopy(events[i])
    forged["ground_truth"]["optional_actions"].append(
        {"control": "ATC", "position": "MAYDAY", "then_wait_s": 0.0, "note": ""})
    events[i + 1:i + 1] = [forged]
    events.append(copy.deepcopy(events[i]))
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    capsys.readouterr()
    main(["score", str(path)])
    assert f"{path}: a second setup event at line 3: the recorder writes one, before the calls " \
           f"(edited? score --verify checks it)" in capsys.readouterr().err
    assert main(["score", "--verify", str(path)]) != exitcodes.OK
    err = capsys.readouterr().err
    assert "verify: FAILED" in err and "verdict.counts.optional: recorded 1, re-simulated 0" in err
