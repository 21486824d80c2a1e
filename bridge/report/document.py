"""Everything the page needs, built once: the overview's rows (rendered by Jinja2), the
comparisons, the chart specs, and the data embedded once as JSON (episodes, rendered
lazily by the page's script).

Episodes are ordered by scenario, model and run; an episode's number is its place
in that order (the page's links use it: #/episode/12). They stay JSON texts until
the writer embeds them (`data.episodes` in the page).
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timezone
from typing import Any

from ..score.counting import NO_PLAN
from ..score.scorecard import ScoreCard
from . import charts
from .comparison import compare_models
from .load import Loaded

# Said beside the statuses score counts apart (infrastructure, harness, invalid, incomplete).
INFRASTRUCTURE_HINT = ("not the agent's result: left out of the means, and, but for a failed gate, counted as not "
                       "flown (a failed trial) in the headline rates until flown again (score --include-errors "
                       "counts them as failed episodes)")


def _order(card: ScoreCard) -> tuple[str, str, int, str]:
    return card.scenario_id, card.model, card.run_index if isinstance(card.run_index, int) else -1, card.path


def build_document(loaded: Loaded, *, sources: list[str], version: str | None = None,
                   generated: datetime | None = None) -> dict[str, Any]:
    aggs = loaded.aggregates
    order = sorted(range(len(loaded.cards)), key=lambda i: _order(loaded.cards[i]))
    episodes = [loaded.episodes[i] for i in order]
    models = [m["model"] for m in aggs["overall"]]
    colours = charts.colour_of(models)
    comparisons = compare_models(loaded.cards)
    figures = {
        "overall-rates": charts.overall_rates(aggs["overall"], colours),
        "pass-curves": charts.pass_curves(aggs["overall"], colours),
        "system-rates": charts.system_rates(aggs["by_system"], colours),
        "scenario-rates": charts.scenario_rates(aggs["by_scenario"], colours),
        "cost-tokens": charts.cost_tokens(aggs["overall"], colours),
        "comparison-forest": charts.comparison_forest(comparisons),
    }
    scenarios = sorted({a["scenario_id"] for a in aggs["by_scenario"]})
    return {
        "title": f"a320-bench report: {len(episodes)} episode{'s' if len(episodes) != 1 else ''}",
        "generated": (generated or datetime.now(timezone.utc)).strftime("%Y-%m-%d %H:%M UTC"),
        "version": version,
        "sources": sources,
        "n_episodes": len(episodes),
        "models": models,
        "colours": colours,
        "overall": aggs["overall"],
        "by_system": aggs["by_system"],
        "by_scenario": aggs["by_scenario"],
        "pivot": _pivot(aggs["by_scenario"], scenarios, models),
        "excluded": loaded.excluded,
        "excluded_hint": INFRASTRUCTURE_HINT,
        "plan_note": None if loaded.planned else NO_PLAN,
        "statuses": dict(sorted(Counter(c.status for c in loaded.cards).items())),
        "comparisons": comparisons,
        "episodes_json": episodes,
        "data": {"models": models, "scenarios": scenarios, "colours": colours,
                 "figures": {k: v for k, v in figures.items() if v is not None}},
    }


def _pivot(by_scenario: list[dict[str, Any]], scenarios: list[str], models: list[str]) -> list[dict[str, Any]]:
    """One row per scenario: its system and each model's aggregate (None where it did not fly it)."""
    cell = {(a["scenario_id"], a["model"]): a for a in by_scenario}
    rows = []
    for s in scenarios:
        cells = [cell.get((s, m)) for m in models]
        system = next((c["system"] for c in cells if c is not None), "?")
        rows.append({"scenario_id": s, "system": system, "cells": cells})
    return rows
