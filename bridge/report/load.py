"""Paths -> ScoreCards and episode timelines, through the score package's public functions.

Each trajectory is scored by `score_file(detail=True)` (the per-command
classification) and read once more for what only the episode page needs
(alert changes, call times, the transcript): scoring stays the one place that
decides classes and verdicts, and score/counting.py what is counted -- against the
run records, each episode once -- so the page shows the numbers `score` prints.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from a320bench.server.trajectory import read_events

from ..score.counting import counted, planned, report_plan
from ..score.inputs import ScoreInputError, trajectory_files
from ..score.scorecard import NotATrajectory, ScoreCard, score_file
from ..score.shards import shard_conflict
from .timeline import episode_timeline


class ReportInputError(ValueError):
    """The inputs cannot be reported on (one line for the user; exit code USAGE)."""


@dataclass(slots=True)
class Loaded:
    cards: list[ScoreCard]  # without their per-command lists (the timelines hold what the page shows)
    episodes: list[str]  # one timeline per card, same order, as JSON text (a fraction of a dict's memory)
    aggregates: dict[str, list[dict[str, Any]]]
    excluded: dict[str, int]
    planned: bool = False  # a run record set the plan (else the rates are over the episodes given)


def load(paths: Iterable[str | Path], *, warn: Callable[[str], None] | None = None) -> Loaded:
    """Counted as `score` counts (score/counting.py): against the run records, each episode once."""
    paths = list(paths)
    say = warn or (lambda _message: None)
    conflict = shard_conflict(paths)
    if conflict:
        raise ReportInputError(conflict)
    try:
        files, plan = planned(paths, trajectory_files(paths))
        flown = [score_file(p, detail=True, warn=warn) for p in files]
    except (ScoreInputError, NotATrajectory) as e:
        raise ReportInputError(str(e)) from None
    report_plan(plan, say)
    result = counted(flown, plan, warn=say)
    cards = result.cards
    if not cards:
        raise ReportInputError("nothing to report: no trajectory is as its run wrote it")
    episodes = []
    for card in cards:
        path = Path(card.path)
        try:
            events = list(read_events(path))
        except (OSError, ValueError, UnicodeDecodeError) as e:  # changed since it was scored
            raise ReportInputError(f"{path}: cannot read it again: {e}") from None
        try:
            timeline = episode_timeline(events, card)
        except Exception as e:  # scored, but a field has a shape no a320-bench writes: name the file
            raise ReportInputError(f"{path}: cannot be shown ({type(e).__name__}: {e}); was it edited?") from None
        episodes.append(json.dumps(timeline, ensure_ascii=False, separators=(",", ":"), default=str))
        card.commands = None
    return Loaded(cards, episodes, result.aggregates, result.excluded, plan is not None)
