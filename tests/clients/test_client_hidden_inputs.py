"""What `run` is given stays out of the client's sight even where the client's own command binds it:
scenario files, catalogue folders, the env file and the run folder, inside a folder the client lists."""

from __future__ import annotations

import json
import pickle

import pytest

from a320bench.bridge import exitcodes
from a320bench.bridge.cli import main
from tests.clients.client_bed import OTHER_SCENARIO, box_of_inputs, events, seen_in_box

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("sandboxed")]

EPISODES = [("elec_gen1_fault_reset_fails", "cmd__run000"), ("elec_ac_bus_1_fault_cruise", "cmd__run000")]


def seen(box, scenario_id: str, stem: str) -> dict[str, str]:
    lines = (box / "runs" / scenario_id / f"{stem}.cmd.log").read_text().splitlines()
    return json.loads(lines[-1])["seen"]


def test_a_client_listing_the_folder_its_command_names_sees_none_of_the_runs_inputs(tmp_path):
    box, args = box_of_inputs(tmp_path)
    assert main([*args, "--workers", "2"]) == exitcodes.OK
    for scenario_id, stem in EPISODES:
        assert seen(box, scenario_id, stem) == seen_in_box(box)
        assert events(box / "runs" / scenario_id / f"{stem}.jsonl")[-1]["reason"] == "end_turn_without_done"
    (record,) = [json.loads(p.read_text()) for p in (box / "runs").glob("run-*.json")]
    policy = record["sandbox"]
    assert policy["left_out"] == [str(box / "secret_scenario.yaml"), str(box / "secrets.env")]
    assert policy["masked"] == [str(box / "cat"), str(box / "runs")]
    assert {str(box / "secret_scenario.yaml"), str(box / "cat"), str(box / "secrets.env"), str(box / "runs")} \
        <= set(policy["hidden"])
    report = next(e for e in events(box / "runs" / EPISODES[0][0] / "cmd__run000.jsonl")
                  if e["type"] == "client_report")
    assert report["sandbox"] == policy


def test_the_inputs_travel_with_the_client_to_a_process_that_sets_its_sandbox_up_itself(tmp_path):
    from a320bench.bridge.cli import build_parser
    from a320bench.bridge.clients.client_episode import make_client

    box, args = box_of_inputs(tmp_path)
    (box / "runs").mkdir()
    parsed = build_parser().parse_args(args)
    client = make_client(parsed, [box / "secret_scenario.yaml", box / "cat" / OTHER_SCENARIO.name])
    fresh = pickle.loads(pickle.dumps(client))  # as a worker gets it, nothing set up yet
    policy = fresh.prepare(box / "runs")
    assert policy["left_out"] == [str(box / "secret_scenario.yaml"), str(box / "secrets.env")]
    assert policy["masked"] == [str(box / "cat"), str(box / "runs")]
