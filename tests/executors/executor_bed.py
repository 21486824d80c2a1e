"""What the executor tests compare: trajectories byte for byte (timestamps aside) and scores."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from a320bench.bridge.score.scorecard import score_file

ROOT = Path(__file__).resolve().parents[2]
# Wall-clock values: when an event was written and how long a call took. Nothing else may differ.
_VOLATILE = re.compile(r'"(ts|wall_ms)": ("[^"]*"|[0-9.e+-]+)')


def normalised(path: Path) -> bytes:
    return _VOLATILE.sub(r'"\1": 0', path.read_text(encoding="utf-8")).encode()


def trajectories(out: Path) -> dict[str, bytes]:
    """Every trajectory of a run folder by its place in it, wall-clock values blanked."""
    return {str(f.relative_to(out)): normalised(f) for f in sorted(out.rglob("*.jsonl"))}


def scores(out: Path) -> dict[str, dict]:
    """Every episode's ScoreCard, less where the file is and when it was written."""
    return {str(f.relative_to(out)): {k: v for k, v in score_file(f).to_dict().items() if k not in ("path", "identity")}
            for f in sorted(out.rglob("*.jsonl"))}


def record(out: Path) -> dict:
    (path,) = out.glob("run-*.json")
    return json.loads(path.read_text())


def cli(*args: str, env: dict[str, str] | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    """`a320-bench ARGS` in a fresh interpreter, as a user runs it."""
    return subprocess.run([sys.executable, "-m", "a320bench", *args], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=timeout, stdin=subprocess.DEVNULL)


def cli_without(module: str, *args: str) -> subprocess.CompletedProcess:
    """`a320-bench ARGS` in a fresh interpreter where `module` cannot be imported (an extra not installed)."""
    code = f"import sys\nsys.modules[{module!r}] = None\nfrom a320bench.bridge.cli import main\nsys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL)
