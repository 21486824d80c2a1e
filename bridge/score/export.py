"""Machine-readable output: the --json document and the --csv rows (one per episode)."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from a320bench.paths import make_parent_folders

from .scorecard import CLASSES, ScoreCard

CSV_COLUMNS = (
    "path", "scenario_id", "system", "phase", "tags", "model", "provider", "reasoning_level", "run_index",
    "episode_id",
    "status", "reason", "reported_done", "outcome", "compliant_success", "completion", "steps_satisfied",
    "steps_total", "in_order", *CLASSES, "dangerous", "anti_procedure",  # CLASSES has harmful, extraneous
    "capabilities_removed", "invariant_violations", "diagnosis_match", "diagnosis_beyond_ecam",
    "tool_calls", "sim_time_s", "first_required_sim_s", "act_within_s", "late", "late_reason", "input_tokens", "output_tokens", "cost_usd",
    "track", "crew_ok", "crew_unconfirmed", "crew_refused_taken", "crew_missed_instructions",
    "captain_input_tokens", "captain_output_tokens", "captain_cost_usd", "learning_position", "served",
)
_LISTS = ("tags", "capabilities_removed", "invariant_violations")  # joined with ";" in a cell


def json_document(cards: Sequence[ScoreCard], aggregates: dict[str, Any], excluded: dict[str, int]) -> dict[str, Any]:
    """{"scorecards": [...], "aggregates": {...}, "excluded": {status: count}}."""
    return {"scorecards": [c.to_dict() for c in cards], "aggregates": aggregates, "excluded": excluded}


def csv_row(card: ScoreCard) -> dict[str, Any]:
    row = {k: card.counts[k] if k in card.counts else getattr(card, k) for k in CSV_COLUMNS}
    for k in _LISTS:
        row[k] = ";".join(row[k])
    return {k: ("" if row.get(k) is None else row[k]) for k in CSV_COLUMNS}


def write_csv(path: str | Path, cards: Sequence[ScoreCard]) -> None:
    make_parent_folders(path)
    with open(path, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=CSV_COLUMNS)
        w.writeheader()
        for card in cards:
            w.writerow(csv_row(card))
