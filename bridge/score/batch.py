"""Scoring many trajectory files: each file's card, or why it cannot be scored, in file order.

Scoring is CPU-bound and each file is independent, so `score` splits a large input in
two halves and scores the second in a forked process while this one scores the first:
a large input uses two cores when the machine has them free. The outcomes come back in file order and
the caller prints their warnings and errors in that order, so the output is the same
as one process gives. Only the `score` command asks for it: `run` prints its summary
from a process with threads, which must not fork.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .scorecard import NotATrajectory, ScoreCard, score_file

PARALLEL_FROM = 400  # files; below this a second process costs more than it saves


@dataclass(slots=True)
class Outcome:
    """One file: its card, or the one-line reason it cannot be scored; warnings either way."""

    card: ScoreCard | None
    error: str | None = None
    warnings: list[str] = field(default_factory=list)


def score_one(path: str | Path, detail: bool = False) -> Outcome:
    warnings: list[str] = []
    try:
        return Outcome(score_file(path, detail=detail, warn=warnings.append), None, warnings)
    except NotATrajectory as e:
        return Outcome(None, str(e), warnings)


def _score_chunk(paths: list[str | Path], detail: bool) -> list[Outcome]:
    return [score_one(p, detail) for p in paths]


def score_all(paths: Iterable[str | Path], *, detail: bool = False, parallel: bool = False) -> list[Outcome]:
    """Every file's outcome, in order (`parallel`: in two processes when the input is large)."""
    paths = list(paths)
    if not parallel or len(paths) < PARALLEL_FROM or not _two_cores():
        return _score_chunk(paths, detail)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    half = len(paths) // 2
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as pool:
        later = pool.submit(_score_chunk, paths[half:], detail)
        first = _score_chunk(paths[:half], detail)
        try:
            return first + later.result()
        except BrokenProcessPool:  # the helper process died (killed, out of memory): score here
            return first + _score_chunk(paths[half:], detail)


def _two_cores() -> bool:
    try:
        return len(os.sched_getaffinity(0)) >= 2
    except AttributeError:  # no affinity on this platform
        return (os.cpu_count() or 1) >= 2
