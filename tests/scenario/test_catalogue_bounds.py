"""The catalogue's bounds (issue 13), flown in-process by the deterministic baselines.

scripted reaches compliant success everywhere; noop nowhere; the literal-ECAM
baseline on at most half the catalogue, exactly on the scenarios the README's
`ecam` column marks. About 30 s of CPU: marked slow.
"""

from __future__ import annotations

from collections import Counter

import pytest

from a320bench.bridge.catalogue import catalogue, fly, listed_ecam, readme_path

# One xdist worker for the module: its catalogue flights (module fixtures, the longest setup of the suite)
# are flown once, not once per worker.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("catalogue_bounds")]


@pytest.fixture(scope="module")
def scenarios():
    return [sc for sc, _ in catalogue()]


@pytest.fixture(scope="module")
def cards(scenarios):
    return {name: fly(name, scenarios) for name in ("scripted", "ecam", "noop")}


def passed(cards_of):
    return sorted(sid for sid, card in cards_of.items() if card.compliant_success)


def test_the_catalogue_has_at_least_100_scenarios_on_every_system(scenarios):
    systems = Counter(sc.system for sc in scenarios)
    assert len(scenarios) >= 100
    assert set(systems) == {"ELEC", "HYD", "FUEL", "AIR", "ENG", "FIRE", "APU", "OTHER"}


def test_scripted_reaches_compliant_success_on_every_scenario(cards, scenarios):
    assert passed(cards["scripted"]) == sorted(sc.id for sc in scenarios)


def test_noop_passes_no_scenario_so_no_system_reaches_the_floor_bound(cards, scenarios):
    assert passed(cards["noop"]) == []


def test_the_ecam_baseline_passes_at_most_half_and_exactly_the_scenarios_the_readme_marks(cards, scenarios):
    ecam = passed(cards["ecam"])
    assert len(ecam) <= len(scenarios) // 2
    listed = listed_ecam(readme_path().read_text())
    assert sorted(sid for sid, ok in listed.items() if ok) == ecam, \
        "run: python -m a320bench.bridge.catalogue --readme"
    assert set(listed) == {sc.id for sc in scenarios}

