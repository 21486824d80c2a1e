"""The run record's list of planned episodes: what `score` checks a run folder against.

Written when the run ends (also when it is interrupted or the disk fills): every
episode the invocation planned -- scenario x run, those already complete included --
with the sha256 of its trajectory file as the run leaves it (null when there is
none). `score` then names missing, extra and modified trajectories and counts
planned episodes without a result as failures (bridge/score/coverage.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .score.coverage import file_sha256


def episode_path(out: Path, scenario_id: str, label: str, run_index: int) -> Path:
    """Where `run` writes an episode's trajectory."""
    return out / scenario_id / f"{label}__run{run_index:03d}.jsonl"


def planned_episodes(out: Path, scenarios: list[Any], runs: int, label: str) -> list[dict[str, Any]]:
    """One entry per planned episode: scenario, system, run index, path (relative to `out`) and sha256."""
    entries = []
    for sc in scenarios:
        for r in range(runs):
            path = episode_path(out, sc.id, label, r)
            entries.append({"scenario_id": sc.id, "system": sc.system, "run_index": r,
                            "path": path.relative_to(out).as_posix(), "sha256": file_sha256(path)})
    return entries
