"""Harm by waiting: where a scenario sets `ground_truth.act_within_s` (the fires), the first required
action must come within it on the agent's clock, else the episode is no compliant success (`late`),
however well it ends. Checked offline from the recorded sim times; never shown to the agent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from a320bench.bridge.cli import main
from a320bench.bridge.score.scorecard import score_file
from score_builder import block, gen1

ROOT = Path(__file__).resolve().parents[2]
SLOW = f"{Path(__file__).with_name('slow_agent.py')}:SlowEcam"
FIRST_THEN_SLOW = f"{Path(__file__).with_name('slow_agent.py')}:FirstStepThenSlow"


def _episode(tmp_path, waited_s: float, act_within_s: float | None = 60):
    t = (gen1(act_within_s=act_within_s).read().wait(waited_s).set("GEN 1", "OFF").set("GEN 1", "ON").wait(10)
         .set("GEN 1", "OFF").done("GEN 1 fault, reset unsuccessful").final())
    return score_file(t.write(tmp_path / "t.jsonl"))


@pytest.mark.parametrize("waited_s, late", [(59, False), (60, False), (61, True), (600, True)])
def test_the_first_required_action_is_due_within_the_limit_on_the_agents_clock(tmp_path, waited_s, late):
    card = _episode(tmp_path, waited_s)
    assert (card.first_required_sim_s, card.act_within_s, card.late) == (float(waited_s), 60.0, late)
    assert (card.outcome, card.completion, card.in_order, card.compliant_success) == (True, 1.0, True, not late)


def test_without_a_limit_waiting_is_not_judged(tmp_path):
    card = _episode(tmp_path, 600, act_within_s=None)
    assert (card.act_within_s, card.late, card.compliant_success) == (None, False, True)


@pytest.mark.parametrize("waited_s, reason", [(5, None), (6, None), (7, "gen_1_reset done at 21 s, due by 20 s")])
def test_a_block_with_a_deadline_must_be_done_by_it(tmp_path, waited_s, reason):
    """The block's last step counts, at the sim time before its call: GEN 1 OFF at 0 s (a command takes
    2 s here), the wait, ON at 2 + waited_s, the 10 s wait, OFF again at 14 + waited_s."""
    due = block("gen_1_reset", "GEN 1 OFF", "GEN 1 ON", "GEN 1 OFF") | {"due_within_s": 20}
    t = (gen1(procedure=[due]).set("GEN 1", "OFF").wait(waited_s).set("GEN 1", "ON").wait(10).set("GEN 1", "OFF")
         .done("GEN 1 fault, reset unsuccessful").final())
    card = score_file(t.write(tmp_path / "t.jsonl"))
    assert (card.late_reason, card.late, card.completion, card.compliant_success) == \
        (reason, reason is not None, 1.0, reason is None)


def test_a_fire_left_burning_ten_minutes_is_late_where_the_prompt_ecam_agent_passes(tmp_path, capsys):
    """Real episodes of the catalogue's APU fire: the slow agent does the same ECAM lines 600 s later; the
    other pushes the FIRE pushbutton at once (its first required action is in time) and then waits: the
    block's deadline (due_within_s) still finds it late."""
    scenario = str(ROOT / "scenarios" / "apu" / "apu_fire_cruise.yaml")
    for agent in ("ecam", SLOW, FIRST_THEN_SLOW):
        assert main(["run", "--agent", agent, "--scenario", scenario, "--out", str(tmp_path / "runs"),
                     "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["score", "--json", str(tmp_path / "runs")]) == 0
    cards = {c["model"]: c for c in json.loads(capsys.readouterr().out)["scorecards"]}
    got = {m: (c["first_required_sim_s"], c["late_reason"], c["outcome"], c["compliant_success"])
           for m, c in cards.items()}
    assert got == {
        "ecam": (0.0, None, True, True),
        "SlowEcam": (600.0, "first required action at 600 s, due by 60 s", True, False),
        "FirstStepThenSlow": (0.0, "apu_fire done at 604 s, due by 120 s", True, False),
    }
