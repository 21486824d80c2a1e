"""ScoreCards -> aggregates per (scenario, model), per (system, model) and per model.

Rates are over the *included* episodes: the valid ones, plus, with
`include_errors`, the non-valid ones counted as failures (neither outcome nor
compliant success). Every group also counts its episodes by status; token and
cost totals cover all its episodes (errors cost money too).

The headline rates (compliant success, outcome, reported done, pass@k, pass^k) are
against the plan: a planned episode without a result -- its file missing, edited
since the run, cut short, or excluded (an infrastructure end before any change) --
is a failed trial, counted in `not_flown` (`not_flown` comes from the run records,
coverage.py). An episode on disk without a result -- no `final` event (interrupted,
killed, its last line cut) or an excluded end -- is not flown with or without a run
record: its meta proves it was planned, so neither cutting the final off a failure nor
relabelling its end, with the run record deleted, takes it out of the rates. A system
or overall row is over the union of the scenarios of every model in the table: a scenario a model has no result on counts as failed for it
(`coverage`: scenarios with a result / scenarios of the row). No model can raise
its rates by not flying what it was given.

A (scenario, model) group is one task: its runs are the trials, its rates are
shares of runs with 95 % Wilson intervals, and pass@k / pass^k are the per-task
estimators for k = 1..n. A system or overall group averages its tasks: every rate
is the mean over its scenarios of their rates (so the overall rate is the mean
pass^1, whatever the runs per scenario), with an interval that treats scenarios,
not runs, as the trials (stats.clustered); pass@k and pass^k are the means of the
per-scenario values for k = 1..(the smallest n among them), as in HumanEval and
tau-bench. A scenario without a result counts 0 in the headline rates, unless no model
was asked it (its gate failed every time: invalid, not failed, so it leaves the system and
overall rows); the other means (completion, harm, tool calls) are over the scenarios with a result.

With runs of the `ecam` baseline among the inputs, each scenario row says whether
the scenario needs judgement: the baseline that executes the displayed ECAM lines
literally did not pass every run of it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .scorecard import NEVER_ASKED, ScoreCard
from .stats import clustered, pass_at_k, pass_hat_k, wilson

ECAM_BASELINE = "ecam"  # the model label of the literal-ECAM baseline provider

# Per-episode measures averaged into rates: name -> the card's value (bool or number).
_MEASURES = {
    "compliant_success": lambda c: c.valid and c.compliant_success,
    "outcome_success": lambda c: c.valid and c.outcome,
    "reported_done": lambda c: c.valid and c.reported_done,
    "completion": lambda c: c.completion,
    "in_order": lambda c: c.in_order,
    "unsafe": lambda c: c.unsafe,
    "dangerous": lambda c: c.dangerous > 0,
    "harmful": lambda c: c.harmful > 0,
    "invariant_violated": lambda c: bool(c.invariant_violations),
    "diagnosis": lambda c: c.diagnosis_match,
    "extraneous": lambda c: c.extraneous,
    "declaration": lambda c: c.declarations > 0,  # an emergency declared that the scenario does not call for
    "tool_calls": lambda c: c.tool_calls,
    "crew_violation": lambda c: c.crew_ok is False,  # crew track: a failed crew-coordination check
}
_WITH_INTERVAL = ("compliant_success", "outcome_success")
_AGAINST_PLAN = ("compliant_success", "outcome_success", "reported_done")  # not flown: a failure
# Output names of the plain means (the two rates with intervals are dicts of their own).
_MEAN_NAMES = {"reported_done": "reported_done_rate", "completion": "completion_mean", "in_order": "in_order_rate",
               "unsafe": "unsafe_rate", "dangerous": "dangerous_rate", "harmful": "harmful_rate",
               "invariant_violated": "violation_rate", "diagnosis": "diagnosis_rate",
               "extraneous": "extraneous_mean", "declaration": "declaration_rate", "tool_calls": "tool_calls_mean",
               "crew_violation": "crew_violation_rate"}


@dataclass(slots=True)
class _Task:
    """The episodes of one (scenario, model)."""

    system: str
    episodes: int = 0
    statuses: Counter = field(default_factory=Counter)
    n: int = 0
    not_flown: int = 0  # planned episodes without a result: failed trials of the headline rates
    sums: dict[str, float] = field(default_factory=lambda: dict.fromkeys(_MEASURES, 0.0))
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = None
    beyond_n: int = 0  # episodes where the diagnosis is graded beyond the ECAM
    beyond_ok: int = 0

    def add(self, card: ScoreCard, include_errors: bool) -> None:
        self.episodes += 1
        self.statuses[card.status] += 1
        self.input_tokens += card.input_tokens
        self.output_tokens += card.output_tokens
        if card.cost_usd is not None:
            self.cost_usd = (self.cost_usd or 0.0) + card.cost_usd
        if not (card.valid or include_errors):
            # planned (its meta says so) and without a result: a failed trial, whether or not a run record is given
            self.not_flown += card.planned_without_result
            return
        self.n += 1
        for name, value in _MEASURES.items():
            self.sums[name] += value(card)
        if card.diagnosis_beyond_ecam is not None:
            self.beyond_n += 1
            self.beyond_ok += card.diagnosis_beyond_ecam

    @property
    def beyond_rate(self) -> float | None:
        return self.beyond_ok / self.beyond_n if self.beyond_n else None

    def mean(self, name: str) -> float:
        return self.sums[name] / self.n

    @property
    def trials(self) -> int:
        return self.n + self.not_flown

    def rate(self, name: str) -> float:
        """A headline rate against the plan (0 for a scenario without a result)."""
        return self.sums[name] / self.trials if self.trials else 0.0

    @property
    def compliant(self) -> int:
        return round(self.sums["compliant_success"])


def _totals(tasks: list[_Task]) -> dict[str, Any]:
    statuses: Counter = Counter()
    cost = None
    for t in tasks:
        statuses += t.statuses
        if t.cost_usd is not None:
            cost = (cost or 0.0) + t.cost_usd
    return {"episodes": sum(t.episodes for t in tasks), "n": sum(t.n for t in tasks),
            "not_flown": sum(t.not_flown for t in tasks), "statuses": dict(sorted(statuses.items())),
            "input_tokens": sum(t.input_tokens for t in tasks), "output_tokens": sum(t.output_tokens for t in tasks),
            "cost_usd": cost}


def _ks(values: list[float]) -> dict[str, float]:
    return {str(k): v for k, v in enumerate(values, start=1)}


def _task_row(t: _Task) -> dict[str, Any]:
    n, trials = t.n, t.trials
    row = _totals([t])
    for name in _WITH_INTERVAL:
        count = round(t.sums[name])
        ci = wilson(count, trials)
        row[name] = {"count": count, "rate": count / trials if trials else None, "ci95": list(ci) if ci else None}
    row.update({out: (t.mean(name) if n else None) for name, out in _MEAN_NAMES.items()})
    row["reported_done_rate"] = t.rate("reported_done") if trials else None
    row["diagnosis_beyond_ecam_rate"] = t.beyond_rate
    row["pass_at_k"] = _ks(pass_at_k(trials, t.compliant))
    row["pass_hat_k"] = _ks(pass_hat_k(trials, t.compliant))
    return row


def _group_row(tasks: list[_Task], never_asked: list[_Task] = ()) -> dict[str, Any]:
    """Headline rates over every scenario of the row (one without a result counts 0), the other means
    over the scenarios with included episodes; intervals over scenarios. `never_asked`: the row's scenarios
    whose gate failed for every model, in its episode counts only."""
    row = _totals([*tasks, *never_asked])
    scored = [t for t in tasks if t.n > 0]
    row["scenarios"] = len(tasks)
    row["coverage"] = {"scenarios": len(scored), "of": len(tasks)}
    for name in _WITH_INTERVAL:
        c = clustered([t.rate(name) for t in tasks])
        row[name] = {"count": sum(round(t.sums[name]) for t in tasks),
                     "rate": c[0] if c else None, "ci95": list(c[1]) if c else None}
    row.update({out: (sum(t.mean(name) for t in scored) / len(scored) if scored else None)
                for name, out in _MEAN_NAMES.items()})
    row["reported_done_rate"] = sum(t.rate("reported_done") for t in tasks) / len(tasks) if tasks else None
    beyond = [t.beyond_rate for t in scored if t.beyond_rate is not None]  # scenarios where it applies
    row["diagnosis_beyond_ecam_rate"] = sum(beyond) / len(beyond) if beyond else None
    row["pass_at_k"], row["pass_hat_k"] = _mean_over_tasks(tasks)
    return row


def _mean_over_tasks(tasks: list[_Task]) -> tuple[dict[str, float], dict[str, float]]:
    """Mean of per-scenario pass@k and pass^k, for k up to the smallest number of trials of a scenario
    with any; a scenario without a result counts 0 at every k."""
    tried = [t for t in tasks if t.trials > 0]
    if not tried:
        return {}, {}
    k_max = min(t.trials for t in tried)
    at = [pass_at_k(t.trials, t.compliant)[:k_max] if t.trials else [0.0] * k_max for t in tasks]
    hat = [pass_hat_k(t.trials, t.compliant)[:k_max] if t.trials else [0.0] * k_max for t in tasks]
    return (_ks([sum(col) / len(tasks) for col in zip(*at)]),
            _ks([sum(col) / len(tasks) for col in zip(*hat)]))


def aggregate(cards: Iterable[ScoreCard], include_errors: bool = False,
              not_flown: dict[tuple[str, str], tuple[str, int]] | None = None,
              learning_not_flown: dict[str, list[int]] | None = None) -> dict[str, list[dict[str, Any]]]:
    """`not_flown`: (scenario, model) -> (system, planned episodes without a result), from the run records;
    `learning_not_flown`: model -> chain positions of those among them on the learning track that have no file."""
    tasks: dict[tuple[str, str], _Task] = {}
    learning: list[ScoreCard] = []  # the learning track's cards, for its curve
    for card in cards:
        if card.track == "learning":
            learning.append(card)
        key = (card.scenario_id, card.model)
        if key not in tasks:
            tasks[key] = _Task(card.system or "?")
        tasks[key].add(card, include_errors)
    for key, (system, count) in (not_flown or {}).items():
        tasks.setdefault(key, _Task(system)).not_flown += count
    by_row = _union_of_scenarios(tasks)
    never_asked = _never_asked(tasks)

    judgement = _needs_judgement(tasks)
    by_scenario = []
    # (the tasks a row rates, those it only counts: scenarios no model was asked)
    of_system: dict[tuple[str, str], tuple[list[_Task], list[_Task]]] = {}
    of_model: dict[str, tuple[list[_Task], list[_Task]]] = {}
    for (scenario_id, model), t in sorted(by_row.items()):
        apart = int(scenario_id in never_asked)
        of_system.setdefault((t.system, model), ([], []))[apart].append(t)
        of_model.setdefault(model, ([], []))[apart].append(t)
        if (scenario_id, model) not in tasks:
            continue  # a scenario of another model only: counted in this model's groups, no row of its own
        row = {"scenario_id": scenario_id, "system": t.system, "model": model, **_task_row(t)}
        if judgement is not None:
            row["needs_judgement"] = judgement.get(scenario_id)
        by_scenario.append(row)
    by_system = [{"system": system, "model": model, **_group_row(*ts)} for (system, model), ts in sorted(of_system.items())]
    overall = [{"model": model, **_group_row(*ts)} for model, ts in sorted(of_model.items())]
    out: dict[str, list[dict[str, Any]]] = {"by_scenario": by_scenario, "by_system": by_system, "overall": overall}
    curve = learning_curve(learning, learning_not_flown)
    if curve:
        out["learning_curve"] = curve
    return out


def _never_asked(tasks: dict[tuple[str, str], _Task]) -> set[str]:
    """The scenarios no model was asked: every episode of every model failed the gate (invalid, not failed:
    the gate is the harness's, before the agent acts, and fails again on a rerun). They leave the system and
    overall rows rather than count 0 there; their scenario rows still show them (n 0, not valid)."""
    asked = {sid for (sid, _), t in tasks.items() if t.n or t.not_flown or set(t.statuses) - {NEVER_ASKED}}
    return {sid for sid, _ in tasks} - asked


def _union_of_scenarios(tasks: dict[tuple[str, str], _Task]) -> dict[tuple[str, str], _Task]:
    """The tasks, plus an empty one for every (scenario, model) where another model has the scenario: a
    model's system and overall rows are over the same scenarios as every other model's."""
    systems = {sid: t.system for (sid, _), t in tasks.items()}
    models = {model for _, model in tasks}
    out = dict(tasks)
    for sid, system in systems.items():
        for model in models:
            out.setdefault((sid, model), _Task(system))
    return out


def learning_curve(cards: Iterable[ScoreCard],
                   not_flown: dict[str, list[int]] | None = None) -> list[dict[str, Any]]:
    """Learning track: per model, compliant success by episode position in the chain (1 = the first
    episode), over the episodes at that position (one per run index), with a Wilson interval. As in the
    headline rates, a planned episode without a result is a failed trial where it fell: cut short or
    excluded (its card says its position), or without a file (`not_flown`, from the chains' stores)."""
    at: dict[str, dict[int, list[bool]]] = {}
    for c in cards:
        if c.track == "learning" and (c.valid or c.planned_without_result) and c.learning_position is not None:
            at.setdefault(c.model, {}).setdefault(c.learning_position, []).append(c.valid and c.compliant_success)
    for model, positions in (not_flown or {}).items():
        for pos in positions:
            at.setdefault(model, {}).setdefault(pos, []).append(False)
    rows = []
    for model, positions in sorted(at.items()):
        points = []
        for pos, outcomes in sorted(positions.items()):
            n, k = len(outcomes), sum(outcomes)
            ci = wilson(k, n)
            points.append({"position": pos + 1, "n": n, "compliant": k, "rate": k / n, "ci95": list(ci) if ci else None})
        rows.append({"model": model, "points": points})
    return rows


def _needs_judgement(tasks: dict[tuple[str, str], _Task]) -> dict[str, bool | None] | None:
    """scenario -> the ecam baseline failed at least one run (None: it has no scored run there);
    None when no ecam run is among the inputs."""
    ecam = {sid: t for (sid, model), t in tasks.items() if model == ECAM_BASELINE}
    if not ecam:
        return None
    return {sid: (t.compliant < t.n if t.n else None) for sid, t in ecam.items()}


def excluded_counts(cards: Iterable[ScoreCard], include_errors: bool = False) -> dict[str, int]:
    """Episodes left out of the means, by status (none with include_errors)."""
    if include_errors:
        return {}
    return dict(sorted(Counter(c.status for c in cards if not c.valid).items()))
