"""Command-line paths -> the trajectory files to score.

Files are taken as given; folders contribute every *.jsonl below them; globs
their matches (a320bench.paths.expand_paths). A missing path, a glob matching
nothing, or a folder without any trajectory is an input error.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from a320bench.paths import PathSpecError, expand_paths

SUFFIXES = (".jsonl",)


class ScoreInputError(ValueError):
    """The inputs cannot be scored (one line for the user; exit code USAGE)."""


def trajectory_files(specs: Iterable[str | Path]) -> list[Path]:
    specs = list(specs)
    out: list[Path] = []
    seen: set[Path] = set()
    for spec in specs:
        try:
            files = expand_paths([spec], SUFFIXES)
        except PathSpecError as e:
            raise ScoreInputError(str(e)) from None
        if not files:
            raise ScoreInputError(f"{spec}: no trajectory (*.jsonl) found there")
        if len(specs) == 1:
            return files  # expand_paths already listed each file once
        for f in files:
            key = f.resolve()
            if key not in seen:
                seen.add(key)
                out.append(f)
    return out
