"""Inspect AI interop (extra `[inspect]`): the task `a320bench.inspect:a320` (`inspect eval a320bench/inspect.py@a320`).

The task runs the catalogue with Inspect's model providers against our harness and MCP
tools, scored by our scorer (bridge/inspect/task.py). `a320-bench export --inspect` turns
trajectories into Inspect eval logs (bridge/inspect/export.py).
"""

from __future__ import annotations

try:
    import inspect_ai  # noqa: F401
except ImportError as e:  # pragma: no cover - exercised by the extra's absence
    raise ImportError(f"a320bench.inspect needs the inspect extra ({e.name} is not installed): "
                      "pip install 'a320-bench[inspect]'") from None

from a320bench.bridge.inspect.task import a320

__all__ = ["a320"]
