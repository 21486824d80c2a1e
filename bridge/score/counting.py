"""What every reader of a results folder counts, the same way: `score`, `report` and `export --inspect`.

    planned(paths, files)   the run records' plan (coverage.py): the files to score (not one modified
                            since the run); report_plan names every missing, modified, extra or
                            absent episode
    counted(flown, plan)    each episode once (a duplicate named), mixed catalogues or harness
                            versions named, and the aggregates against the plan

One place, so that the page and the Inspect log cannot show a number `score` would not (a
deleted failure, a copied folder). Every problem is one line through `warn`, "warning: " and
the text, as `score` prints it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .aggregate import aggregate, excluded_counts
from .coverage import PlanCheck, check_plan
from .scorecard import ScoreCard

Warn = Callable[[str], None]
NO_PLAN = ("No run record (run-*.json) among the inputs (served trajectories, loose files): rates are over the "
           "episodes given, not against a plan.")


def stderr_warning(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)


def planned(paths: Sequence[str | Path], files: list[Path]) -> tuple[list[Path], PlanCheck | None]:
    """(the files to score: not one modified since its run wrote it; the plan, None without a run record).
    `report_plan` names what the plan found."""
    plan = check_plan(list(paths), files)
    if plan is None or not plan.modified:
        return files, plan
    modified = {p.path for p in plan.modified}
    return [f for f in files if f.resolve() not in modified], plan


def report_plan(plan: PlanCheck | None, warn: Warn = stderr_warning) -> bool:
    """One line per trajectory the run records disagree with; True when there was one."""
    if plan is None:
        return False
    for problem in plan.problems:
        warn(problem)
    for p in plan.missing:
        warn(f"{p.shown}: missing: {p.record.name} planned it ({p.scenario_id} run {p.run_index}); counted as "
             "not flown")
    for p in plan.modified:
        warn(f"{p.shown}: modified since {p.record.name} recorded it (sha256 differs); not scored, counted as "
             "not flown")
    for f in plan.extra:
        warn(f"{f}: extra: no run record planned it; scored as given")
    for line in plan.absent:
        warn(line)
    return bool(plan.missing or plan.modified or plan.extra or plan.absent)


@dataclass(slots=True)
class Counted:
    cards: list[ScoreCard]  # each episode once
    aggregates: dict[str, list[dict[str, Any]]]
    excluded: dict[str, int]


def counted(flown: list[ScoreCard], plan: PlanCheck | None, *, include_errors: bool = False,
            warn: Warn = stderr_warning) -> Counted:
    """`flown`: every file scored, duplicates included (each answers its own planned path)."""
    cards = unique_episodes(flown, warn)
    warn_mixed_catalogues(cards, warn)
    warn_mixed_harnesses(cards, warn)
    warn_served(cards, warn)
    not_flown = plan.not_flown(flown, include_errors) if plan else None
    learning_not_flown = plan.learning_not_flown(flown, include_errors) if plan else None
    return Counted(cards, aggregate(cards, include_errors, not_flown, learning_not_flown),
                   excluded_counts(cards, include_errors))


def unique_episodes(cards: Iterable[ScoreCard], warn: Warn = stderr_warning) -> list[ScoreCard]:
    """Each episode once: a file with the identity of an earlier one is named and dropped."""
    first: dict[str, ScoreCard] = {}
    out: list[ScoreCard] = []
    for card in cards:
        seen = first.get(card.identity)
        if seen is None:
            first[card.identity] = card
            out.append(card)
            continue
        differs = "" if card.verdict() == seen.verdict() else " with a different verdict (one was edited? --verify)"
        warn(f"{card.path}: duplicate of episode {card.episode_id or card.scenario_id} in {seen.path}{differs}; "
             f"counted once")
    return out


def warn_mixed_catalogues(cards: Iterable[ScoreCard], warn: Warn = stderr_warning) -> None:
    """One line per scenario id flown in several versions (scenario_sha256): its rows mix catalogues."""
    versions: dict[str, dict[str, str]] = {}
    for card in cards:
        if card.scenario_sha256:
            versions.setdefault(card.scenario_id, {}).setdefault(card.scenario_sha256, card.path)
    for sid, seen in sorted(versions.items()):
        if len(seen) > 1:
            shown = ", ".join(f"{h[:12]}… ({path})" for h, path in seen.items())
            warn(f"scenario {sid} was flown in {len(seen)} versions (scenario_sha256 {shown}): its results mix "
                 "catalogues; --verify checks each against one")


def warn_mixed_harnesses(cards: Iterable[ScoreCard], warn: Warn = stderr_warning) -> None:
    """One line when the episodes were recorded by several a320-bench versions: what a version records and
    how it reaches a verdict can change (0.2.0 added the hands-off reading of the outcome), so one table
    would compare verdicts of different harnesses."""
    seen: dict[str, list[str]] = {}
    for card in cards:
        seen.setdefault(card.a320bench_version or "unknown", []).append(card.path)
    if len(seen) > 1:
        shown = "; ".join(f"{v}: {len(paths)}, e.g. {paths[0]}" for v, paths in sorted(seen.items()))
        warn(f"these episodes were recorded by {len(seen)} versions of a320-bench ({shown}): how a verdict is "
             "reached changes between versions; compare results of one version (--verify names each episode's)")


def warn_served(cards: Iterable[ScoreCard], warn: Warn = stderr_warning) -> None:
    """One line when episodes were served by `a320-bench serve` (a client driving them by hand or another
    harness), not flown by `a320-bench run`: scored as given, in rows of their own marked [served]."""
    served = [c.path for c in cards if c.served]
    if served:
        warn(f"{len(served)} episode(s) served by `a320-bench serve`, not flown by `a320-bench run` (e.g. "
             f"{served[0]}): scored as given in rows marked [served]; not a benchmark run")
