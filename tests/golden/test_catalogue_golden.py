"""No behaviour change from speed work: every catalogue scenario, flown by the scripted, random and
harmful agents, records the same trajectory (wall-clock fields aside) and the same scorecard as the
golden digests (tests/golden/catalogue_golden.py says how they are made and when to rewrite them)."""

from __future__ import annotations

import json

import pytest

from tests.golden.catalogue_golden import CATALOGUE, GOLDEN, agents, fly

EXPECTED = json.loads(GOLDEN.read_text(encoding="utf-8"))


def test_the_golden_covers_every_catalogue_scenario_with_every_agent():
    assert sorted(EXPECTED) == sorted(f"{f.parent.name}/{f.stem}/{a}" for f in CATALOGUE for a in agents())


@pytest.mark.parametrize("scenario_file", CATALOGUE, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_scenario_flies_to_the_golden_trajectory_and_scorecard(scenario_file, tmp_path):
    for name, agent in agents().items():
        key = f"{scenario_file.parent.name}/{scenario_file.stem}/{name}"
        assert fly(scenario_file, name, agent, tmp_path) == EXPECTED[key], \
            f"{key} differs from the golden (python -m tests.golden.catalogue_golden rewrites it, for a change meant)"
