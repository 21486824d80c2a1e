"""The pinned Node programs that tests/clients drives, or a skip that says how to get them.

`.ci/install-node-tools` installs them into the checkout's .cache/node-tools, or into
$A320_BENCH_NODE_TOOLS (`a320bench.bridge.clients.locate` reads the same variable).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

INSTALL = ".ci/install-node-tools"


def tools_dir() -> Path:
    env = os.environ.get("A320_BENCH_NODE_TOOLS")
    return Path(env) if env else Path(__file__).resolve().parents[2] / ".cache" / "node-tools"


def require(name: str) -> Path:
    """The executable `name` from the test cache; skip the test when Node or the install is missing."""
    missing = [p for p in ("node", "npm") if shutil.which(p) is None]
    if missing:
        pytest.skip(f"{' and '.join(missing)} not found: real-client tests need Node 20+ and `{INSTALL}`")
    path = tools_dir() / "node_modules" / ".bin" / name
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.skip(f"{name} is not installed in {tools_dir()}: run `{INSTALL}` (CI does)")
    return path
