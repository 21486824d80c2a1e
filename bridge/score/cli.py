"""`a320-bench score PATH...`: score trajectories offline and print the results.

Every input problem is one line on stderr naming the file, and the rest is scored:

    a path that gives no trajectory (missing, a glob matching nothing, an empty folder,
    a link to nothing, a FIFO) "error: <path>: <why>[; skipped]"
    a file that is not one trajectory (not JSON lines, no `meta` first, two episodes
    concatenated, unreadable)  "error: <path>: <why>; skipped"
    folders of a sharded run that do not merge (different selections, an overlap: shards.py)
                               "error: <folder> and <folder> ...; not merged" (nothing scored)
    the same episode given twice (same content: scenario and its sha256, a320-bench version, model, run index, the
    hash of its calls)         "warning: <path>: duplicate of episode <id> in <first path>
                               [with a different verdict ...]; counted once"
    one scenario id flown with several scenario sha256 (two catalogues mixed)
                               "warning: scenario <id> was flown in N versions ..."
    episodes recorded by several versions of a320-bench (verdicts reached differently)
                               "warning: these episodes were recorded by N versions of a320-bench ..."
    episodes served by `a320-bench serve` (meta.entry "serve"), not flown by `run`
                               "warning: N episode(s) served by `a320-bench serve` ...": scored in rows
                               of their own, the model marked [served]

Run records (`run-*.json`) in the folders given set the plan (coverage.py): a
missing, modified or extra trajectory is named in one line, a modified one is not
scored, and planned episodes without a result count as failures ("not flown"); with
no run record, one line under the table (`plan: null` in --json) says the rates are
over the episodes given.

`--verify` then re-simulates every episode (bridge/score/verify.py, which alone
imports the simulator and MCP): an episode that does not reproduce is named with
the fields that differ and left out of the table.

Exit codes: 0 when every input was scored (and verified); FAILED_CHECKS (1) when
--verify found an episode that does not reproduce, or a planned trajectory missing,
modified or extra; USAGE (2) for a missing path,
an empty folder, a file that could not be scored (the others still are), or an
unwritable --csv file.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TextIO

from .. import exitcodes
from .aggregate import aggregate, excluded_counts
from .batch import score_all
from .counting import NO_PLAN, counted, planned, report_plan, unique_episodes
from .coverage import PlanCheck
from .inputs import find_trajectory_files
from .scorecard import ScoreCard


def _warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)


def score_files(files: Iterable[str | Path], *, detail: bool = False, parallel: bool = False
                ) -> tuple[list[ScoreCard], int]:
    """Score every file that can be, one line on stderr per file that cannot (skipped).
    Returns (cards, number of files that could not be scored). `parallel`: see batch.py."""
    cards: list[ScoreCard] = []
    bad = 0
    for outcome in score_all(files, detail=detail, parallel=parallel):
        for message in outcome.warnings:
            _warn(message)
        if outcome.card is not None:
            cards.append(outcome.card)
        else:
            print(f"error: {outcome.error}; skipped", file=sys.stderr)
            bad += 1
    return cards, bad


def run_score(args: Any) -> int:
    verify = bool(getattr(args, "verify", False))
    if getattr(args, "catalogue", None) and not verify:
        print("error: --catalogue applies only with --verify", file=sys.stderr)
        return exitcodes.USAGE
    from .shards import shard_conflict

    conflict = shard_conflict(args.paths)
    if conflict:
        print(f"error: {conflict}", file=sys.stderr)
        return exitcodes.USAGE
    files, problems = find_trajectory_files(args.paths)
    for problem in problems:
        print(f"error: {problem}" + ("; skipped" if files else ""), file=sys.stderr)
    if not files:
        return exitcodes.USAGE
    to_score, plan = planned(args.paths, files)
    cards, bad = score_files(to_score, detail=args.detail, parallel=True)
    bad += len(problems)
    plan_failed = report_plan(plan)

    failed_verify = False
    if verify:  # every file, duplicates included: an edited copy must be named too
        from .verify import VerifyError, verify_cards

        try:
            cards, failed = verify_cards(cards, catalogue=args.catalogue)
        except VerifyError as e:
            print(f"error: {e}", file=sys.stderr)
            return exitcodes.USAGE
        failed_verify = failed > 0
    include_errors = bool(getattr(args, "include_errors", False))
    # every file scored (and verified), duplicates included: each answers its own planned path
    result = counted(cards, plan, include_errors=include_errors)
    cards, aggregates, excluded = result.cards, result.aggregates, result.excluded
    if not cards:
        print("error: nothing to score: no input could be scored" if bad or failed_verify
              else "error: nothing to score", file=sys.stderr)
        return exitcodes.USAGE if bad else exitcodes.FAILED_CHECKS

    if getattr(args, "csv", None):
        from .export import write_csv

        try:
            write_csv(args.csv, cards)
        except OSError as e:
            print(f"error: {args.csv}: cannot write: {e.strerror or e}", file=sys.stderr)
            return exitcodes.USAGE

    if args.json:
        from .export import json_document

        # One write: json.dump would make one per token (~330,000 for 2,000 episodes)
        document = {**json_document(cards, aggregates, excluded), "plan": _plan_document(plan)}
        sys.stdout.write(json.dumps(document, ensure_ascii=False) + "\n")
    else:
        from .table import render

        render(cards, aggregates, excluded, detail=args.detail, include_errors=include_errors,
               plan_note=NO_PLAN if plan is None else None)
    if bad:
        return exitcodes.USAGE
    return exitcodes.FAILED_CHECKS if failed_verify or (verify and plan_failed) else exitcodes.OK


def _plan_document(plan: PlanCheck | None) -> dict[str, Any] | None:
    if plan is None:
        return None
    return {"records": [str(r) for r in plan.records], "planned": len(plan.planned),
            "missing": [str(p.path) for p in plan.missing], "modified": [str(p.path) for p in plan.modified],
            "extra": [str(f) for f in plan.extra], "absent_shards": plan.absent}


def print_table_for(files: Sequence[str | Path], *, file: TextIO | None = None) -> bool:
    """The human table of these trajectory files (the summary `a320-bench run` prints).

    Returns False when a file could not be scored (named on stderr; the rest is shown)."""
    cards, bad = score_files(files)
    cards = unique_episodes(cards)
    if cards:
        from .table import render

        render(cards, aggregate(cards), excluded_counts(cards), file=file)
    return bad == 0
