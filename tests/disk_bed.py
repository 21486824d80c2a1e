"""A disk that refuses: a small tmpfs mounted for one test (root only; skipped, saying why, elsewhere)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


@contextmanager
def small_disk(where: Path, size: str = "64k", options: str = "") -> Iterator[Path]:
    """A tmpfs of `size` at `where` (needs root), unmounted afterwards."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    where.mkdir()
    opts = f"size={size}" + (f",{options}" if options else "")
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "a320-bench-test", str(where)], capture_output=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {r.stderr.decode().strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=True)
