"""Expand command-line path arguments: files, folders (recursive) and globs."""

from __future__ import annotations

import glob
from collections.abc import Iterable
from pathlib import Path


class PathSpecError(ValueError):
    pass


def expand_paths(specs: Iterable[str | Path], suffixes: tuple[str, ...]) -> list[Path]:
    """Files matching `suffixes`, in a stable order, each once.

    A folder contributes every matching file below it; a glob its matches; a
    missing path or a glob matching nothing is an error naming it.
    """
    out: list[Path] = []
    seen: set[Path] = set()
    for spec in specs:
        s = str(spec)
        if any(ch in s for ch in "*?["):
            matches = [Path(m) for m in sorted(glob.glob(s, recursive=True))]
            if not matches:
                raise PathSpecError(f"{s}: no file matches this pattern")
        else:
            p = Path(s)
            if not p.exists():
                raise PathSpecError(f"{s}: no such file or folder")
            matches = [p]
        for m in matches:
            if m.is_dir():
                files = sorted(f for f in m.rglob("*") if f.is_file() and f.name.endswith(suffixes))
            elif m == Path(s) or m.name.endswith(suffixes):
                files = [m]  # a file named outright is taken whatever its name
            else:
                files = []  # a glob's other matches (e.g. run records beside trajectories)
            for f in files:
                key = f.resolve()
                if key not in seen:
                    seen.add(key)
                    out.append(f)
    return out
