"""What the catalogue says to the agent, and what its judgement scenarios say about themselves.

Task prompts are neutral (issue 13): one template, so a twist ("make sure the result
holds", "keep monitoring") cannot be read off the prompt of the scenarios that have one.
"""

from __future__ import annotations

import re

import pytest

from a320bench.bridge.catalogue import catalogue

ENTRIES = catalogue()
TASK = ("Handle the situation by the book and keep monitoring until the aircraft is stable and nothing "
        "more needs doing, then report what you found and what you did.")
ALERT = "The ECAM has just shown an alert."
CHECK = "No ECAM alert is displayed, and it is time for the periodic check of the fuel and the system pages."
JUDGEMENT_TAGS = {"conditional", "priority", "situation", "status", "no_ecam"}


def prompt(sc) -> str:
    return re.sub(r"\s+", " ", sc.task_prompt).strip()


@pytest.mark.parametrize(("sc", "path"), ENTRIES, ids=[sc.id for sc, _ in ENTRIES])
def test_every_prompt_gives_the_phase_one_observation_and_the_same_task(sc, path):
    text = prompt(sc)
    assert text.startswith("You are "), path
    assert text.endswith(TASK), path
    assert (ALERT in text) != (CHECK in text), path
    # An alert on display at the start, or none: the prompt says which, and nothing more.
    assert (CHECK in text) == (not sc.expected_ecam.must_appear), path


def test_no_prompt_carries_a_phrase_only_some_scenarios_would_need():
    hints = ("make sure the result holds", "STATUS", "stay on watch", "restore normal", "within normal limits",
             "according to the ECAM")
    assert [(sc.id, h) for sc, _ in ENTRIES for h in hints if h.lower() in prompt(sc).lower()] == []


def test_airborne_prompts_all_state_the_minimum_safe_altitude_and_the_icing():
    for sc, path in ENTRIES:
        text = prompt(sc)
        if "at the gate" in text or "on the takeoff roll" in text:
            assert "minimum safe altitude" not in text, path
            continue
        assert "The minimum safe altitude on the route is" in text, path
        assert ("There is no icing on the route." in text) != ("icing conditions" in text), path


@pytest.mark.parametrize(("sc", "path"), [e for e in ENTRIES if JUDGEMENT_TAGS & set(e[0].tags)],
                         ids=[sc.id for sc, _ in ENTRIES if JUDGEMENT_TAGS & set(sc.tags)])
def test_a_judgement_scenario_cites_its_source_and_says_why_each_forbidden_action_is_wrong(sc, path):
    gt = sc.ground_truth
    assert "§" in gt.source or "FCTM" in gt.source or "FCOM" in gt.source, path
    assert gt.forbidden_actions, path
    assert [f.control for f in gt.forbidden_actions if len(f.why.split()) < 3] == [], path
