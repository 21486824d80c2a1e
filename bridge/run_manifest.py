"""The run record's list of planned episodes: what `score` checks a run folder against.

Written when the run ends (also when it is interrupted or the disk fills): every
episode this invocation's plan holds -- its shard of scenario x run, those resume
skipped as complete included -- with the sha256 of its trajectory file as the run
leaves it (null when there is none). `score` then names missing, extra and
modified trajectories and counts planned episodes without a result as failures
(bridge/score/coverage.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .plan import Plan, trajectory_path
from .score.coverage import file_sha256


def planned_episodes(out: Path, scenarios: list[Any], plan: Plan, label: str) -> list[dict[str, Any]]:
    """One entry per planned episode, in the selection's order: scenario, system, run index, path (relative
    to `out`) and sha256."""
    order = {sc.id: i for i, sc in enumerate(scenarios)}
    systems = {sc.id: sc.system for sc in scenarios}
    pairs = sorted({(p.scenario.id, p.run_index) for p in plan.episodes} | set(plan.skipped),
                   key=lambda pair: (order.get(pair[0], len(order)), pair[1]))
    entries = []
    for sid, r in pairs:
        path = trajectory_path(out, sid, label, r)
        entries.append({"scenario_id": sid, "system": systems.get(sid), "run_index": r,
                        "path": path.relative_to(out).as_posix(), "sha256": file_sha256(path)})
    return entries
