"""Command-line paths -> the trajectory files to score, and the paths that give none.

Files are taken as given; folders contribute every *.jsonl below them; globs
their matches (a320bench.paths.expand_paths). A missing path, a glob matching
nothing, a folder without any trajectory, or a *.jsonl link that leads nowhere
is a problem named in one line; the other paths are still scored.
"""

from __future__ import annotations

from collections.abc import Iterable
from fnmatch import fnmatch
from pathlib import Path

from a320bench.paths import PathSpecError, RealPaths, expand_paths, unreadable_problem

from .coverage import RECORD_GLOB

SUFFIXES = (".jsonl",)


class ScoreInputError(ValueError):
    """A path gives no trajectory (one line for the user)."""


def trajectory_files(specs: Iterable[str | Path]) -> list[Path]:
    """The files, for callers that stop at the first problem (raises ScoreInputError naming it)."""
    files, problems = find_trajectory_files(specs)
    if problems:
        raise ScoreInputError(problems[0])
    return files


def find_trajectory_files(specs: Iterable[str | Path]) -> tuple[list[Path], list[str]]:
    """(the files, each once, in a stable order; one line per path that gives no file)."""
    out: list[Path] = []
    problems: list[str] = []
    seen: set[str] = set()  # real paths: a file named twice (or through a link) is read once
    real = RealPaths()
    for spec in specs:
        unreadable: list[Path] = []
        try:
            files = expand_paths([spec], SUFFIXES, unreadable=unreadable)
        except PathSpecError as e:
            problems.append(str(e))
            continue
        problems += [f"{name}: cannot read: {unreadable_problem(name)}" for name in unreadable]
        if len(files) == 1 and files[0] == Path(spec) and fnmatch(files[0].name, RECORD_GLOB):
            # `run` ends by naming its run record: the likeliest file to be given by mistake.
            problems.append(f"{spec}: a run record, not a trajectory; give its folder ({files[0].parent}), "
                            "which holds the trajectories and the record")
            continue
        if not files and not unreadable:
            problems.append(f"{spec}: no trajectory (*.jsonl) found there")
        for f in files:
            key = real.of(f)
            if key not in seen:
                seen.add(key)
                out.append(f)
    return out, problems
