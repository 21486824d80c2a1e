"""`a320-bench score PATH...`: score trajectories offline and print the results.

Exit codes: 0 when the inputs were scored (non-valid episodes are reported, not
errors); USAGE (2) with one line on stderr for a missing path, an empty folder,
a file that is not a trajectory, or an unwritable --csv file.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

from .. import exitcodes
from .aggregate import aggregate, excluded_counts
from .inputs import ScoreInputError, trajectory_files
from .scorecard import NotATrajectory, score_file


def _warn(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr)


def run_score(args: Any) -> int:
    try:
        files = trajectory_files(args.paths)
        cards = [score_file(p, detail=args.detail, warn=_warn) for p in files]
    except (ScoreInputError, NotATrajectory) as e:
        print(f"error: {e}", file=sys.stderr)
        return exitcodes.USAGE

    include_errors = bool(getattr(args, "include_errors", False))
    aggregates = aggregate(cards, include_errors)
    excluded = excluded_counts(cards, include_errors)

    if getattr(args, "csv", None):
        from .export import write_csv

        try:
            write_csv(args.csv, cards)
        except OSError as e:
            print(f"error: {args.csv}: cannot write: {e.strerror or e}", file=sys.stderr)
            return exitcodes.USAGE

    if args.json:
        from .export import json_document

        json.dump(json_document(cards, aggregates, excluded), sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        from .table import render

        render(cards, aggregates, excluded, detail=args.detail, include_errors=include_errors)
    return exitcodes.OK


def print_table_for(files: Iterable[str | Path], *, file: TextIO | None = None) -> bool:
    """The human table of these trajectory files (the summary `a320-bench run` prints).

    Returns False, after one line on stderr, when a file cannot be scored."""
    try:
        cards = [score_file(p, warn=_warn) for p in files]
    except NotATrajectory as e:
        print(f"error: {e}", file=sys.stderr)
        return False
    from .table import render

    render(cards, aggregate(cards), excluded_counts(cards), file=file)
    return True
