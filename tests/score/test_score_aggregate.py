"""Aggregates per (scenario, model), per (system, model) and per model (bridge/score/aggregate.py)."""

import pytest

from a320bench.bridge.score.aggregate import aggregate, excluded_counts
from a320bench.bridge.score.scorecard import score_file
from a320bench.bridge.score.stats import wilson
from score_builder import compliant, gen1


def dangerous(**kw):
    return gen1(**kw).set("GEN 1", "OFF").set("GEN 2", "OFF").set("GEN 1", "ON").set("GEN 1", "OFF").done().final()


def failed(**kw):
    return gen1(**kw).set("GEN 1", "OFF").done().final(passed=False)


def provider_error(**kw):
    # The provider failed before the agent changed anything: not a result (excluded, rerun).
    return gen1(**kw).read().read("read_system_page", page="ELEC").final(reason="provider_error")


def provider_error_after_acting(**kw):
    # The agent switched GEN 2 OFF, then the provider failed: the episode is the agent's result.
    return gen1(**kw).set("GEN 2", "OFF").final(reason="provider_error", passed=False)


def cards(tmp_path, *trajs):
    return [score_file(t.write(tmp_path / f"{i}.jsonl")) for i, t in enumerate(trajs)]


@pytest.fixture
def four_runs_and_an_error(tmp_path):
    return cards(tmp_path, compliant(run_index=0), compliant(run_index=1), dangerous(run_index=2),
                 failed(run_index=3), provider_error(run_index=4))


def test_a_scenario_group_reports_rates_with_wilson_intervals(four_runs_and_an_error):
    (a,) = aggregate(four_runs_and_an_error)["by_scenario"]
    assert (a["scenario_id"], a["system"], a["model"]) == ("elec_test", "ELEC", "m-1")
    assert (a["episodes"], a["n"], a["not_flown"]) == (5, 4, 1)
    assert a["statuses"] == {"provider_error": 1, "valid": 4}
    # The provider error is a planned episode without a result: a failed trial of the headline rates, run
    # record or not (rerun to fly it); the other means are over the four results.
    assert a["compliant_success"] == {"count": 2, "rate": 0.4, "ci95": list(wilson(2, 5))}
    assert a["outcome_success"] == {"count": 3, "rate": 0.6, "ci95": list(wilson(3, 5))}
    assert a["completion_mean"] == pytest.approx((1 + 1 + 1 + 1 / 3) / 4)
    assert a["dangerous_rate"] == 0.25
    assert a["in_order_rate"] == 1.0


def test_a_scenario_group_reports_pass_at_k_and_pass_hat_k_for_k_up_to_n(four_runs_and_an_error):
    (a,) = aggregate(four_runs_and_an_error)["by_scenario"]
    # n = 5 trials (the provider error not flown, a failure), c = 2: pass@k = 1 - C(3,k)/C(5,k);
    # pass^k = C(2,k)/C(5,k)
    assert a["pass_at_k"] == pytest.approx({"1": 1 - 3 / 5, "2": 1 - 3 / 10, "3": 1 - 1 / 10, "4": 1.0, "5": 1.0})
    assert a["pass_hat_k"] == pytest.approx({"1": 2 / 5, "2": 1 / 10, "3": 0.0, "4": 0.0, "5": 0.0})


def test_non_valid_episodes_are_excluded_from_means_and_counted_by_status(four_runs_and_an_error, tmp_path):
    more = cards(tmp_path / "more", gen1().set("GEN 1", "OFF"), gen1(gate_passed=False).final("invalid_scenario"))
    assert excluded_counts(four_runs_and_an_error + more) == {"incomplete": 1, "invalid_scenario": 1,
                                                              "provider_error": 1}


def test_include_errors_counts_non_valid_episodes_as_failures(four_runs_and_an_error):
    (a,) = aggregate(four_runs_and_an_error, include_errors=True)["by_scenario"]
    assert a["n"] == 5
    assert a["compliant_success"] == {"count": 2, "rate": 0.4, "ci95": list(wilson(2, 5))}
    assert a["outcome_success"]["count"] == 3  # the provider error's passed outcome does not count
    assert a["completion_mean"] == pytest.approx((1 + 1 + 1 + 1 / 3 + 0) / 5)
    assert a["pass_hat_k"]["2"] == pytest.approx(1 / 10)  # C(2,2)/C(5,2)
    assert excluded_counts(four_runs_and_an_error, include_errors=True) == {}


def test_a_group_with_only_errors_fails_its_headline_rates_and_has_no_other_means(tmp_path):
    # One planned episode, without a result: a failed trial (not flown), and nothing to average otherwise.
    (a,) = aggregate(cards(tmp_path, provider_error()))["by_scenario"]
    assert (a["n"], a["not_flown"], a["compliant_success"], a["completion_mean"], a["pass_at_k"]) == (
        0, 1, {"count": 0, "rate": 0.0, "ci95": list(wilson(0, 1))}, None, {"1": 0.0})


def test_system_and_overall_groups_average_rates_and_pass_k_over_scenarios(tmp_path):
    cs = cards(tmp_path,
               compliant(scenario_id="a"), compliant(scenario_id="a"), failed(scenario_id="a"), failed(scenario_id="a"),
               compliant(scenario_id="b"), compliant(scenario_id="b"),
               compliant(scenario_id="h", system="HYD"))
    agg = aggregate(cs)
    elec = next(s for s in agg["by_system"] if s["system"] == "ELEC")
    assert (elec["scenarios"], elec["n"]) == (2, 6)
    # a: 2/4, b: 2/2 -> (0.5 + 1) / 2, with the two scenarios as the trials
    assert elec["compliant_success"] == {"count": 4, "rate": 0.75, "ci95": list(wilson(1.5, 2))}
    # a: n=4, c=2; b: n=2, c=2; k up to min n = 2
    assert elec["pass_hat_k"] == pytest.approx({"1": (2 / 4 + 1) / 2, "2": (1 / 6 + 1) / 2})
    assert elec["pass_at_k"] == pytest.approx({"1": (2 / 4 + 1) / 2, "2": (5 / 6 + 1) / 2})
    (overall,) = agg["overall"]
    assert (overall["model"], overall["scenarios"], overall["n"]) == ("m-1", 3, 7)
    assert overall["compliant_success"]["count"] == 5
    assert overall["pass_hat_k"] == pytest.approx({"1": (0.5 + 1 + 1) / 3})
    assert overall["compliant_success"]["rate"] == pytest.approx(overall["pass_hat_k"]["1"])


def test_models_are_aggregated_apart(tmp_path):
    cs = cards(tmp_path, compliant(model="m-1"), failed(model="m-2"), failed(model=None, provider="noop"))
    agg = aggregate(cs)
    assert [(a["model"], a["compliant_success"]["count"]) for a in agg["overall"]] == [
        ("m-1", 1), ("m-2", 0), ("noop", 0)]
    assert [(a["scenario_id"], a["model"]) for a in agg["by_scenario"]] == [
        ("elec_test", "m-1"), ("elec_test", "m-2"), ("elec_test", "noop")]


def test_token_and_cost_totals_cover_every_episode(tmp_path):
    cs = cards(tmp_path, compliant().assistant(10, 1, 0.5), provider_error().assistant(20, 2, 0.25),
               compliant().assistant(5, 5, None))
    (a,) = aggregate(cs)["overall"]
    assert (a["input_tokens"], a["output_tokens"], a["cost_usd"]) == (35, 8, 0.75)


def test_an_infrastructure_end_after_the_agent_changed_the_aircraft_is_scored_as_a_failure(tmp_path):
    (card,) = cards(tmp_path, provider_error_after_acting(run_index=0))
    assert (card.status, card.valid, card.compliant_success, card.dangerous) == ("valid", True, False, 1)
    (a,) = aggregate([card])["by_scenario"]
    assert (a["n"], a["compliant_success"]["count"]) == (1, 0)


def test_an_infrastructure_end_before_any_change_is_excluded(tmp_path):
    (card,) = cards(tmp_path, provider_error(run_index=0))
    assert (card.status, card.valid) == ("provider_error", False)
    assert excluded_counts([card]) == {"provider_error": 1}


def test_identical_repeated_runs_do_not_narrow_the_interval(tmp_path):
    """Finding 6: noop's 5 identical runs gave 7% [4-10%] against [3-16%] for one run."""
    from a320bench.bridge.score.stats import clustered

    def floor(runs):
        trajs = [(compliant if i < 4 else failed)(scenario_id=f"s{i:02d}", run_index=r)
                 for i in range(59) for r in range(runs)]
        return aggregate(cards(tmp_path / f"runs{runs}", *trajs))["overall"][0]["compliant_success"]

    one, five = floor(1), floor(5)
    assert one == {"count": 4, "rate": 4 / 59, "ci95": list(wilson(4, 59))}
    assert five == {"count": 20, "rate": 4 / 59, "ci95": list(wilson(4, 59))}
    assert [round(x, 2) for x in five["ci95"]] == [0.03, 0.16]
    assert clustered([]) is None


def test_the_overall_rate_is_the_mean_pass_1_whatever_the_runs_per_scenario(tmp_path):
    """Finding 6: with different numbers of runs per scenario the pooled rate and pass^1 disagreed."""
    cs = cards(tmp_path, *[compliant(scenario_id="a", run_index=r) for r in range(9)], failed(scenario_id="a"),
               failed(scenario_id="b"))
    (overall,) = aggregate(cs)["overall"]
    assert overall["compliant_success"]["rate"] == pytest.approx((0.9 + 0.0) / 2)
    assert overall["compliant_success"]["rate"] == pytest.approx(overall["pass_hat_k"]["1"])
    assert overall["compliant_success"]["ci95"] == pytest.approx(list(wilson(0.9, 2)))


def test_needs_judgement_marks_the_scenarios_the_ecam_baseline_fails(tmp_path):
    cs = cards(tmp_path, compliant(scenario_id="read", model=None, provider="ecam"),
               failed(scenario_id="think", model=None, provider="ecam"),
               compliant(scenario_id="read"), compliant(scenario_id="think"), compliant(scenario_id="other"))
    rows = {(a["scenario_id"], a["model"]): a.get("needs_judgement") for a in aggregate(cs)["by_scenario"]}
    assert rows == {("other", "m-1"): None, ("read", "ecam"): False, ("read", "m-1"): False,
                    ("think", "ecam"): True, ("think", "m-1"): True}
    assert all("needs_judgement" not in a for a in aggregate(cs[2:])["by_scenario"])
