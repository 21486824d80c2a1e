"""Red team round 12, not fixed: on the learning track an agent learns its scenario from its place in the chain.

A chain flies the selection's episodes in the selection's order (bridge/learning_track.py), and
`retrieve_learnings` tells in which episode each note was saved (`saved_in_episode`); an agent that saves
a note every episode counts its place, and the public catalogue's order names the scenario, hence its
ground truth. A fix flies each chain in an order the agent cannot know (a permutation drawn per chain from
a secret the run keeps, and the store and resume keep to it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from a320bench.bridge import exitcodes
from a320bench.bridge.cli import main
from tests.bridge.learning_bed import repeated_scenarios

COUNTER = f"{Path(__file__).with_name('position_counter.py')}:PositionCounter"


@pytest.mark.xfail(strict=True, reason="red team round 12: a learning chain flies the selection in its order, so an "
                                       "agent counting its notes names its scenario (learning track order leak)")
def test_an_agent_counting_its_notes_cannot_name_its_scenario_on_the_learning_track(tmp_path):
    scenarios = repeated_scenarios(tmp_path)
    out = tmp_path / "runs"
    assert main(["run", "--profile", "learning", "--agent", COUNTER, "--scenario", str(scenarios), "--out", str(out),
                 "--runs", "3", "--no-progress"]) == exitcodes.OK
    named = []
    for path in sorted(out.glob("again_*/PositionCounter__run*.jsonl")):
        events = [json.loads(line) for line in path.read_text().splitlines()]
        final = events[-1]
        assert final["type"] == "final" and final["reason"] == "agent_done"
        named.append(final["report_done"]["diagnosis"] == events[0]["scenario_id"])
    assert len(named) == 9
    assert not all(named), "every episode of every chain named its own scenario from its place in the chain"
