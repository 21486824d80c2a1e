"""Find the `claude` executable: $A320_BENCH_CLAUDE, else PATH, else the test cache.

The test cache is where `.ci/install-node-tools` puts pinned Node programs:
$A320_BENCH_NODE_TOOLS, else `.cache/node-tools` in the source checkout.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

ENV_CLAUDE = "A320_BENCH_CLAUDE"
ENV_NODE_TOOLS = "A320_BENCH_NODE_TOOLS"
INSTALL_HINT = ("install Claude Code (`npm install -g @anthropic-ai/claude-code`, or `.ci/install-node-tools` "
                f"in a checkout) or set {ENV_CLAUDE}=/path/to/claude")


class ClientNotFound(Exception):
    """The client program is not there; the message says how to get it."""


def node_tools_dir() -> Path:
    """Where `.ci/install-node-tools` installs (the checkout's .cache/node-tools by default)."""
    env = os.environ.get(ENV_NODE_TOOLS)
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / ".cache" / "node-tools"


def node_tool(name: str) -> Path | None:
    """An executable from the test cache's node_modules/.bin, if installed."""
    p = node_tools_dir() / "node_modules" / ".bin" / name
    return p if p.is_file() and os.access(p, os.X_OK) else None


def find_claude() -> Path:
    """$A320_BENCH_CLAUDE (must then be there: no silent fallback), PATH, the test cache."""
    env = os.environ.get(ENV_CLAUDE)
    if env:
        p = Path(env).expanduser()
        if p.is_file() and os.access(p, os.X_OK):
            return p
        raise ClientNotFound(f"claude not found: {ENV_CLAUDE}={env} is not an executable file; {INSTALL_HINT}")
    on_path = shutil.which("claude")
    if on_path:
        return Path(on_path)
    cached = node_tool("claude")
    if cached is not None:
        return cached
    raise ClientNotFound(f"claude not found on PATH; {INSTALL_HINT}")
