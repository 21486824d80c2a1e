"""Property tests of the scorer (hypothesis, bounded example counts).

- any JSON in a trajectory's fields is scored or refused with NotATrajectory, never a crash;
- any bytes in a file are scored or refused with NotATrajectory;
- the verdicts keep their definitions: compliant success implies report_done, the outcome,
  a complete procedure in order and nothing unsafe; commands are counted once each;
- a harmless unnecessary command never spoils compliance, a command that removed a
  capability the procedure does not call for always does;
- the statistics: pass^1 is c/n, pass@k grows with k, a clustered interval holds its
  rate and does not narrow when every run is repeated.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from a320bench.bridge.score.aggregate import aggregate
from a320bench.bridge.score.scorecard import NotATrajectory, ScoreCard, score_events, score_file
from a320bench.bridge.score.stats import clustered, pass_at_k, pass_hat_k
from score_builder import compliant, gen1

# No example database: tests leave no files behind.
SETTINGS = settings(max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
EVENT_FIELDS = {
    "meta": ["scenario_id", "scenario", "profile", "model", "provider", "client", "run_index", "episode_id",
             "schema_version"],
    "setup": ["gate", "ground_truth"],
    "tool_call": ["seq", "name", "arguments", "result", "is_error", "sim_time_before_s", "sim_time_after_s",
                  "capabilities_removed", "invariants_violated"],
    "assistant": ["usage", "cost_usd"],
    "client_report": ["usage", "cost_usd", "client", "model", "run_index", "episode_id"],
    "final": ["reason", "gate", "success", "report_done", "tool_calls_used", "sim_time_s", "final_ecam"],
}


def event(kind: str) -> st.SearchStrategy[dict]:
    return st.fixed_dictionaries({"type": st.just(kind)},
                                 optional={f: json_values for f in EVENT_FIELDS[kind]})


def ground_truths() -> st.SearchStrategy:
    return st.fixed_dictionaries({}, optional={
        "procedure": json_values | st.lists(st.fixed_dictionaries({"steps": json_values}, optional={
            "name": json_values, "ordered": json_values}), max_size=3),
        "optional_actions": json_values, "forbidden_actions": json_values, "diagnosis_keywords": json_values})


trajectories = st.tuples(
    event("meta"),
    st.lists(st.one_of(event("setup"), event("tool_call"), event("assistant"), event("client_report"),
                       event("final"), st.fixed_dictionaries({"type": json_values}), json_values), max_size=8),
)


def assert_definitions(card: ScoreCard) -> None:
    if card.compliant_success:
        assert card.reported_done and card.outcome and card.completion == 1.0 and card.in_order
        assert not card.unsafe and not card.invariant_violations
    if card.outcome:
        assert not card.invariant_violations
    assert 0.0 <= card.completion <= 1.0
    json.dumps(card.to_dict(), default=str)


@SETTINGS
@given(trajectories, ground_truths())
def test_any_json_in_any_field_is_scored_or_refused_never_a_crash(traj, gt):
    meta, rest = traj
    events = [meta, {"type": "setup", "ground_truth": gt}, *rest]
    try:
        card = score_events(events)
    except NotATrajectory:
        return
    assert_definitions(card)
    assert sum(card.counts.values()) == sum(1 for e in rest if isinstance(e, dict) and e.get("type") == "tool_call")


@SETTINGS
@given(st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_any_bytes_in_a_file_are_scored_or_refused_never_a_crash(data):
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "t.jsonl"
        p.write_bytes(data)
        try:
            assert_definitions(score_file(p))
        except NotATrajectory as e:
            assert str(p) in str(e)


actions = st.sampled_from(["GEN 1 OFF", "GEN 1 ON", "GEN 2 OFF", "BAT 1 OFF", "PACK 1 OFF", "APU MASTER SW ON",
                           "TCAS MODE SEL STBY", "wait", "read"])


def flown(steps: list[str], *, done: bool, passed: bool):
    t = gen1()
    for s in steps:
        if s == "wait":
            t.wait(5)
        elif s == "read":
            t.read()
        else:
            control, position = s.rsplit(" ", 1)
            t.set(control, position)
    if done:
        t.done()
    return t.final(reason="agent_done" if done else "end_turn_without_done", passed=passed)


@SETTINGS
@given(st.lists(actions, max_size=10), st.booleans(), st.booleans())
def test_the_verdicts_keep_their_definitions_on_any_sequence_of_commands(steps, done, passed):
    card = score_events(flown(steps, done=done, passed=passed).events)
    assert_definitions(card)
    assert card.reported_done is done


@SETTINGS
@given(st.integers(min_value=0, max_value=5), st.sampled_from(["PACK 1 OFF", "CAB FANS OFF", "DIVERSION INITIATE"]))
def test_a_harmless_unnecessary_command_never_spoils_compliance(where, extra):
    t = compliant()
    control, position = extra.rsplit(" ", 1)
    calls = [e for e in t.events if e["type"] == "tool_call"]
    cut = t.events.index(calls[min(where, len(calls) - 2)])
    added = gen1().set(control, position).events[-1]
    card = score_events([*t.events[:cut], added, *t.events[cut:]])
    # a diversion nobody needed is counted as a declaration, the others as extraneous; none fails
    assert (card.extraneous, card.declarations, card.compliant_success) == (
        (0, 1, True) if extra == "DIVERSION INITIATE" else (1, 0, True))


@SETTINGS
@given(st.lists(st.sampled_from(["pax_oxygen_stowed", "engine_2_running", "gen_2_online", "rat_stowed"]),
                min_size=1, max_size=3, unique=True))
def test_a_command_that_removed_a_capability_the_procedure_did_not_call_for_always_spoils_compliance(removed):
    t = compliant()
    extra = gen1().set("PAX OXY MASKS", "MAN ON").events[-1]
    extra["capabilities_removed"] = removed
    card = score_events([*t.events[:-2], extra, *t.events[-2:]])
    assert (card.harmful, card.capabilities_removed, card.compliant_success) == (1, sorted(removed), False)


@SETTINGS
@given(st.integers(min_value=1, max_value=40).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n))))
def test_pass_k_estimators_hold_their_shape(nc):
    n, c = nc
    at, hat = pass_at_k(n, c), pass_hat_k(n, c)
    assert abs(hat[0] - c / n) < 1e-12 and abs(at[0] - c / n) < 1e-12
    assert all(x <= y + 1e-12 for x, y in zip(at, at[1:]))  # more tries: at least as likely
    assert all(x + 1e-12 >= y for x, y in zip(hat, hat[1:]))  # more runs that must all pass: no more likely
    assert all(0.0 <= v <= 1.0 for v in at + hat)


@SETTINGS
@given(st.lists(st.floats(min_value=0, max_value=1), min_size=1, max_size=30), st.integers(1, 4))
def test_a_clustered_interval_holds_its_rate(rates, _):
    mean, (lo, hi) = clustered(rates)
    assert 0.0 <= lo <= mean + 1e-12 and mean - 1e-12 <= hi <= 1.0


@settings(max_examples=25, deadline=None, database=None)
@given(st.lists(st.booleans(), min_size=1, max_size=8), st.integers(2, 4))
def test_repeating_every_run_leaves_the_overall_rate_and_interval_unchanged(outcomes, k):
    def cards(times):
        out = []
        for i, ok in enumerate(outcomes):
            for r in range(times):
                t = (compliant if ok else gen1)(scenario_id=f"s{i}", run_index=r)
                out.append(score_events((t if ok else t.final(passed=False)).events))
        return aggregate(out)["overall"][0]["compliant_success"]

    once, repeated = cards(1), cards(k)
    assert (once["rate"], once["ci95"]) == (repeated["rate"], repeated["ci95"])
