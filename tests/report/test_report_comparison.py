"""Models compared scenario by scenario: pairs by (scenario, run), McNemar per scenario, bootstrap overall."""

from __future__ import annotations

import pytest

from a320bench.bridge.report.comparison import compare_models
from a320bench.bridge.score.scorecard import score_file
from score_builder import compliant, gen1


def card(tmp_path, model: str, scenario: str, run: int, ok: bool, reason: str = "agent_done"):
    t = compliant if ok else (lambda **kw: gen1(**kw).read().done().final())
    path = t(model=model, scenario_id=scenario, run_index=run).write(tmp_path / f"{model}-{scenario}-{run}.jsonl")
    c = score_file(path)
    if reason != "agent_done":
        c.status = reason  # as score marks an excluded episode
    return c


def test_one_model_has_nothing_to_compare_with(tmp_path):
    assert compare_models([card(tmp_path, "a", "s1", 0, True)]) == []


def test_pairs_are_matched_by_scenario_and_run_and_each_scenario_gets_an_exact_mcnemar_p(tmp_path):
    cards = []
    for run in range(6):  # s1: a succeeds every time, b never; s2: both always
        cards += [card(tmp_path, "a", "s1", run, True), card(tmp_path, "b", "s1", run, False),
                  card(tmp_path, "a", "s2", run, True), card(tmp_path, "b", "s2", run, True)]
    cards.append(card(tmp_path, "a", "s3", 0, True))  # b never flew s3: unpaired, left out
    [cmp] = compare_models(cards)
    assert (cmp["a"], cmp["b"], cmp["scenarios"], cmp["pairs"], cmp["unpaired"]) == ("a", "b", 2, 12, 1)
    s1, s2 = cmp["by_scenario"]
    assert (s1["scenario_id"], s1["rate_a"], s1["rate_b"], s1["diff"], s1["only_a"], s1["only_b"]) == \
        ("s1", 1.0, 0.0, 1.0, 6, 0)
    assert s1["p"] == pytest.approx(2 / 64)
    assert s1["p_holm"] == pytest.approx(2 * 2 / 64)  # two scenarios tested
    assert s1["real"] is False  # 0.0625: six runs are not enough after the adjustment
    assert (s2["diff"], s2["p"], s2["p_holm"], s2["real"]) == (0.0, 1.0, 1.0, False)
    assert cmp["mean_diff"] == 0.5
    assert cmp["ci95"] == [0.0, 1.0] and cmp["real"] is False  # two scenarios: the bootstrap cannot exclude 0


def test_a_difference_on_many_scenarios_is_real_and_an_excluded_episode_is_a_failure_as_in_the_headline(tmp_path):
    cards = []
    for i in range(12):
        cards += [card(tmp_path, "good", f"s{i:02d}", 0, True), card(tmp_path, "noop", f"s{i:02d}", 0, i == 0)]
    cards.append(card(tmp_path, "good", "s99", 0, True))
    cards.append(card(tmp_path, "noop", "s99", 0, True, reason="provider_error"))  # no result: a failed trial
    [cmp] = compare_models(cards)
    assert (cmp["a"], cmp["b"], cmp["scenarios"], cmp["pairs"], cmp["unpaired"]) == ("good", "noop", 13, 13, 0)
    assert cmp["mean_diff"] == pytest.approx(12 / 13)
    assert cmp["ci95"][0] > 0 and cmp["real"] is True
    assert (cmp["only_a"], cmp["only_b"]) == (12, 0)


def test_three_models_give_three_pairs_in_name_order(tmp_path):
    cards = [card(tmp_path, m, "s1", 0, True) for m in ("scripted", "noop", "random")]
    assert [(c["a"], c["b"]) for c in compare_models(cards)] == [("noop", "random"), ("noop", "scripted"),
                                                                 ("random", "scripted")]


def test_episodes_of_two_versions_of_a_scenario_are_not_paired(tmp_path):
    # b flew an edited copy of s1 (another scenario_sha256): a McNemar test over those "pairs" would compare
    # two different tasks. They are left out as unpaired; the same version still pairs.
    cards = [card(tmp_path, "a", "s1", 0, True), card(tmp_path, "b", "s1", 0, False),
             card(tmp_path, "a", "s2", 0, True), card(tmp_path, "b", "s2", 0, False)]
    cards[1].scenario_sha256 = "1" * 64
    [cmp] = compare_models(cards)
    assert (cmp["scenarios"], cmp["pairs"], cmp["unpaired"]) == (1, 1, 2)
    assert [r["scenario_id"] for r in cmp["by_scenario"]] == ["s2"]


@pytest.mark.parametrize("run", [None, 0], ids=["served, no run index", "two run folders, both run 0"])
def test_episodes_that_share_a_run_index_each_pair_and_none_is_dropped(tmp_path, run):
    # Found: they folded into one pair per scenario (the first file read), the rest dropped unseen.
    cards = []
    for i in range(3):
        for model, ok in (("a", True), ("b", False)):
            folder = tmp_path / f"{model}{i}"
            folder.mkdir()
            cards.append(card(folder, model, "s1", run, ok))
    [cmp] = compare_models(cards)
    assert (cmp["scenarios"], cmp["pairs"], cmp["unpaired"], cmp["only_a"], cmp["only_b"]) == (1, 3, 0, 3, 0)
    assert compare_models(cards[::-1]) == [cmp]  # the order the files came in changes nothing
