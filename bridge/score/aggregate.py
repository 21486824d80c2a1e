"""ScoreCards -> aggregates per (scenario, model), per (system, model) and per model.

Rates are over the *included* episodes: the valid ones, plus, with
`include_errors`, the non-valid ones counted as failures (neither outcome nor
compliant success). Every group also counts its episodes by status; token and
cost totals cover all its episodes (errors cost money too).

pass@k / pass^k (of compliant success) are per-task estimators: a
(scenario, model) group gets k = 1..n. A system or overall group reports the mean
over its scenarios of their per-scenario values, for k = 1..(the smallest n among
them), as in HumanEval and tau-bench: pooling runs of different scenarios would
treat different tasks as repeats of one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .scorecard import ScoreCard
from .stats import pass_at_k, pass_hat_k, wilson


@dataclass(slots=True)
class _Tally:
    episodes: int = 0
    statuses: Counter = field(default_factory=Counter)
    n: int = 0
    compliant: int = 0
    outcome: int = 0
    completion_sum: float = 0.0
    in_order: int = 0
    dangerous: int = 0
    diagnosis: int = 0
    tool_calls_sum: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = None

    def add(self, card: ScoreCard, include_errors: bool) -> None:
        self.episodes += 1
        self.statuses[card.status] += 1
        self.input_tokens += card.input_tokens
        self.output_tokens += card.output_tokens
        if card.cost_usd is not None:
            self.cost_usd = (self.cost_usd or 0.0) + card.cost_usd
        if not (card.valid or include_errors):
            return
        self.n += 1
        self.compliant += card.valid and card.compliant_success
        self.outcome += card.valid and card.outcome
        self.completion_sum += card.completion
        self.in_order += card.in_order
        self.dangerous += card.dangerous > 0
        self.diagnosis += card.diagnosis_match
        self.tool_calls_sum += card.tool_calls

    def to_dict(self) -> dict[str, Any]:
        n = self.n
        return {
            "episodes": self.episodes,
            "n": n,
            "statuses": dict(sorted(self.statuses.items())),
            "compliant_success": _rate(self.compliant, n),
            "outcome_success": _rate(self.outcome, n),
            "completion_mean": self.completion_sum / n if n else None,
            "in_order_rate": self.in_order / n if n else None,
            "dangerous_rate": self.dangerous / n if n else None,
            "diagnosis_rate": self.diagnosis / n if n else None,
            "tool_calls_mean": self.tool_calls_sum / n if n else None,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cost_usd": self.cost_usd,
        }


def _rate(count: int, n: int) -> dict[str, Any]:
    ci = wilson(count, n)
    return {"count": count, "rate": count / n if n else None, "ci95": list(ci) if ci else None}


def _ks(values: list[float]) -> dict[str, float]:
    return {str(k): v for k, v in enumerate(values, start=1)}


def _mean_over_tasks(per_task: list[tuple[int, int]]) -> tuple[dict[str, float], dict[str, float]]:
    """Mean of per-scenario pass@k and pass^k, for k up to the smallest scenario n."""
    tasks = [(n, c) for n, c in per_task if n > 0]
    if not tasks:
        return {}, {}
    k_max = min(n for n, _ in tasks)
    at = [pass_at_k(n, c)[:k_max] for n, c in tasks]
    hat = [pass_hat_k(n, c)[:k_max] for n, c in tasks]
    return (_ks([sum(col) / len(tasks) for col in zip(*at)]),
            _ks([sum(col) / len(tasks) for col in zip(*hat)]))


def aggregate(cards: Iterable[ScoreCard], include_errors: bool = False) -> dict[str, list[dict[str, Any]]]:
    scen: dict[tuple[str, str], _Tally] = {}
    system_of: dict[tuple[str, str], str] = {}
    syst: dict[tuple[str, str], _Tally] = {}
    overall: dict[str, _Tally] = {}
    for card in cards:
        key = (card.scenario_id, card.model)
        system = card.system or "?"
        system_of.setdefault(key, system)
        scen.setdefault(key, _Tally()).add(card, include_errors)
        syst.setdefault((system, card.model), _Tally()).add(card, include_errors)
        overall.setdefault(card.model, _Tally()).add(card, include_errors)

    by_scenario = []
    tasks_of_system: dict[tuple[str, str], list[tuple[int, int]]] = {}
    tasks_of_model: dict[str, list[tuple[int, int]]] = {}
    for (scenario_id, model), t in sorted(scen.items()):
        system = system_of[(scenario_id, model)]
        tasks_of_system.setdefault((system, model), []).append((t.n, t.compliant))
        tasks_of_model.setdefault(model, []).append((t.n, t.compliant))
        by_scenario.append({"scenario_id": scenario_id, "system": system, "model": model, **t.to_dict(),
                            "pass_at_k": _ks(pass_at_k(t.n, t.compliant)),
                            "pass_hat_k": _ks(pass_hat_k(t.n, t.compliant))})

    by_system = []
    for (system, model), t in sorted(syst.items()):
        tasks = tasks_of_system[(system, model)]
        at, hat = _mean_over_tasks(tasks)
        by_system.append({"system": system, "model": model, "scenarios": len(tasks), **t.to_dict(),
                          "pass_at_k": at, "pass_hat_k": hat})

    per_model = []
    for model, t in sorted(overall.items()):
        tasks = tasks_of_model[model]
        at, hat = _mean_over_tasks(tasks)
        per_model.append({"model": model, "scenarios": len(tasks), **t.to_dict(), "pass_at_k": at, "pass_hat_k": hat})

    return {"by_scenario": by_scenario, "by_system": by_system, "overall": per_model}


def excluded_counts(cards: Iterable[ScoreCard], include_errors: bool = False) -> dict[str, int]:
    """Episodes left out of the means, by status (none with include_errors)."""
    if include_errors:
        return {}
    return dict(sorted(Counter(c.status for c in cards if not c.valid).items()))
