"""Models compared scenario by scenario on compliant success, so a reader sees which differences are real.

For each pair of models (A, B), episodes are paired by (scenario, its version
(scenario_sha256), run index), over the episodes the means count: valid ones, and planned ones
cut short or excluded, each a failure as in the headline (a planned file that is missing has no
run index here to pair by: it shows as unpaired); episodes
of a model that share all three (served episodes have no run index; two run folders
both start at run 0) pair in turn. Per scenario: both rates, the
difference A − B, the discordant pairs and an exact McNemar p-value, adjusted
across the pair's scenarios by Holm. Overall: the mean over scenarios of the
per-scenario differences with a paired bootstrap interval over scenarios
(seeded). A difference is called real when its interval excludes 0 (overall) or
its Holm-adjusted p is below ALPHA (one scenario).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from ..score.scorecard import ScoreCard
from .paired import BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, holm, mcnemar_exact, paired_bootstrap

ALPHA = 0.05


def compare_models(cards: Sequence[ScoreCard]) -> list[dict[str, Any]]:
    """One comparison per pair of models (none with fewer than two models)."""
    outcomes: dict[str, dict[tuple[str, str, int, int], bool]] = {}
    # In a fixed order, so which episodes pair does not hang on the order the files were given in.
    for c in sorted((c for c in cards if c.valid or c.planned_without_result), key=lambda c: (c.identity, c.path)):
        # The scenario's version too: an edited copy of a scenario is another task. Episodes that share a
        # run index (served ones have none; two run folders both have run 0) pair in turn: each one counts.
        mine = outcomes.setdefault(c.model, {})
        base = (c.scenario_id, c.scenario_sha256 or "", _run(c.run_index))
        turn = 0
        while (*base, turn) in mine:
            turn += 1
        mine[(*base, turn)] = c.valid and c.compliant_success
    models = sorted({c.model for c in cards})
    return [_pair(a, b, outcomes.get(a, {}), outcomes.get(b, {})) for a, b in combinations(models, 2)]


def _run(run_index: Any) -> int:
    return run_index if isinstance(run_index, int) else -1


def _pair(a: str, b: str, oa: dict[tuple[str, str, int, int], bool], ob: dict[tuple[str, str, int, int], bool]
          ) -> dict[str, Any]:
    shared = sorted(oa.keys() & ob.keys())
    by_scenario: dict[str, list[tuple[bool, bool]]] = {}
    for key in shared:
        by_scenario.setdefault(key[0], []).append((oa[key], ob[key]))
    rows = []
    for scenario, pairs in by_scenario.items():
        n = len(pairs)
        only_a = sum(x and not y for x, y in pairs)
        only_b = sum(y and not x for x, y in pairs)
        rate_a = sum(x for x, _ in pairs) / n
        rate_b = sum(y for _, y in pairs) / n
        rows.append({"scenario_id": scenario, "pairs": n, "rate_a": rate_a, "rate_b": rate_b,
                     "diff": rate_a - rate_b, "only_a": only_a, "only_b": only_b, "p": mcnemar_exact(only_a, only_b)})
    for row, p_adj in zip(rows, holm([r["p"] for r in rows])):
        row["p_holm"] = p_adj
        row["real"] = p_adj < ALPHA
    diffs = [r["diff"] for r in rows]
    ci = paired_bootstrap(diffs)
    return {
        "a": a, "b": b, "scenarios": len(rows), "pairs": len(shared),
        "unpaired": len(oa) + len(ob) - 2 * len(shared),
        "mean_diff": sum(diffs) / len(diffs) if diffs else None,
        "ci95": list(ci) if ci else None,
        "real": ci is not None and (ci[0] > 0 or ci[1] < 0),
        "only_a": sum(r["only_a"] for r in rows), "only_b": sum(r["only_b"] for r in rows),
        "bootstrap": {"seed": BOOTSTRAP_SEED, "resamples": BOOTSTRAP_RESAMPLES},
        "by_scenario": rows,
    }
