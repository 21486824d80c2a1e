"""Red team round 12: on the learning track an agent must not learn its scenario from its place in the chain.

`retrieve_learnings` tells in which episode each note was saved (`saved_in_episode`); an agent that saves a
note every episode counts its place. When a chain flew the selection in the selection's order, the public
catalogue's order named the scenario, hence its ground truth. Each chain now flies in an order drawn from
the system's randomness and kept in its store (bridge/learning_track.py), so the place tells nothing."""

from __future__ import annotations

import json
import random
from pathlib import Path

from a320bench.bridge import exitcodes
from a320bench.bridge.cli import main
from a320bench.bridge.learning_track import draw_order
from tests.bridge.learning_bed import repeated_scenarios
from tests.bridge.position_counter import ORDER

COUNTER = f"{Path(__file__).with_name('position_counter.py')}:PositionCounter"


def test_an_agent_counting_its_notes_cannot_name_its_scenario_on_the_learning_track(tmp_path, monkeypatch):
    # The system's randomness, seeded here so that the test knows what it drew (the harness never seeds it).
    drawn = random.Random(12)
    monkeypatch.setattr("a320bench.bridge.learning_track.random.SystemRandom", lambda: drawn)
    scenarios = repeated_scenarios(tmp_path)
    out = tmp_path / "runs"
    assert main(["run", "--profile", "learning", "--agent", COUNTER, "--scenario", str(scenarios), "--out", str(out),
                 "--runs", "3", "--no-progress"]) == exitcodes.OK
    orders = [json.loads((out / "learning" / f"PositionCounter__run{r:03d}.json").read_text())["order"]
              for r in range(3)]
    assert orders == [["again_2", "again_3", "again_1"], ["again_1", "again_2", "again_3"],
                      ["again_2", "again_3", "again_1"]]
    named = {}
    for path in sorted(out.glob("again_*/PositionCounter__run*.jsonl")):
        events = [json.loads(line) for line in path.read_text().splitlines()]
        final = events[-1]
        assert final["type"] == "final" and final["reason"] == "agent_done"
        named[(events[0]["run_index"], events[0]["scenario_id"])] = final["report_done"]["diagnosis"]
    # The agent names the catalogue's scenario at its place: right only where the drawn order happens to agree.
    assert named == {(r, sc): ORDER[order.index(sc)] for r, order in enumerate(orders) for sc in order}
    # Run 1 drew the selection's order (3 of 9 named); the selection's order for every chain named all 9.
    assert sum(sc == guess for (_, sc), guess in named.items()) == 3


def test_a_chain_order_is_drawn_afresh_from_the_systems_randomness():
    selection = ["again_1", "again_2", "again_3"]
    drawn = {tuple(draw_order(selection)) for _ in range(60)}
    assert all(sorted(order) == selection for order in drawn)
    assert len(drawn) > 1  # one order 60 times running: a chance of 6 ** -59
