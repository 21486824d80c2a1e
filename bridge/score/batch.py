"""Scoring many trajectory files: each file's card, or why it cannot be scored, in file order.

Scoring is CPU-bound and each file is independent, so `score` shares a large input with a
forked process: both take the next chunk of files from a shared counter until none is left,
so a large input uses two cores when the machine has them free, and when the helper's core
is busy (a loaded machine) this process simply takes more chunks instead of waiting for a
fixed half. The outcomes come back in file order and the caller prints their warnings and
errors in that order, so the output is the same as one process gives. Only the `score`
command asks for it: `run` prints its summary from a process with threads, which must not fork.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .scorecard import NotATrajectory, ScoreCard, score_file

PARALLEL_FROM = 400  # files; below this a second process costs more than it saves
CHUNK = 25  # files a process takes at a time: small enough to even out, large enough to cost nothing


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

    fork = multiprocessing.get_context("fork")
    global _NEXT_CHUNK
    _NEXT_CHUNK = fork.Value("i", 0)  # the forked helper inherits it: the one counter both take from
    try:
        with ProcessPoolExecutor(1, mp_context=fork) as pool:
            theirs = pool.submit(_take_chunks, paths, detail)
            done = _take_chunks(paths, detail)
            try:
                done.update(theirs.result())
            except BrokenProcessPool:  # the helper process died (killed, out of memory): score its chunks here
                pass
    finally:
        _NEXT_CHUNK = None
    starts = range(0, len(paths), CHUNK)
    return [o for i in starts for o in (done.get(i) or _score_chunk(paths[i:i + CHUNK], detail))]


_NEXT_CHUNK: Any = None  # while score_all shares its input: the index of the next chunk to take


def _take_chunks(paths: list[str | Path], detail: bool) -> dict[int, list[Outcome]]:
    """Score chunks taken from the shared counter until none is left: {first file's index: outcomes}."""
    counter, done = _NEXT_CHUNK, {}
    while True:
        with counter.get_lock():
            start = counter.value * CHUNK
            counter.value += 1
        if start >= len(paths):
            return done
        done[start] = _score_chunk(paths[start:start + CHUNK], detail)


def _two_cores() -> bool:
    try:
        return len(os.sched_getaffinity(0)) >= 2
    except AttributeError:  # no affinity on this platform
        return (os.cpu_count() or 1) >= 2
