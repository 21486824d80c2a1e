"""Fixtures of the external-client tests: the sandbox's program, and the real `claude` offline against a
fake Messages API."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from a320bench.bridge.clients.fake_messages_api import FakeAnthropic
from tests.fakes.node_tools import require

# Claude Code offline: the environment bridge/clients/claude.py forces, plus no telemetry or error reports,
# and no retries: a scripted 529 would otherwise cost minutes of Claude Code's backoff per test.
OFFLINE_ENV = {
    "CLAUDE_CODE_MAX_RETRIES": "0",
    "ANTHROPIC_API_KEY": "dummy",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "DISABLE_TELEMETRY": "1",
    "DISABLE_AUTOUPDATER": "1",
    "DISABLE_ERROR_REPORTING": "1",
    "ENABLE_TOOL_SEARCH": "false",
}


@pytest.fixture
def sandboxed() -> None:
    """Skip, saying why, where bubblewrap is missing: every client runs in its sandbox."""
    if shutil.which("bwrap") is None:
        pytest.skip("bwrap not found: clients run in a bubblewrap sandbox; run `.ci/install-system-tools` (CI does)")


@dataclass
class ClaudeBed:
    exe: Path
    home: Path
    monkeypatch: pytest.MonkeyPatch

    @contextmanager
    def api(self, script: list, **kw) -> Iterator[FakeAnthropic]:
        """A fake Messages API serving `script`, with ANTHROPIC_BASE_URL pointing at it."""
        with FakeAnthropic(script, **kw) as fake:
            self.monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.url)
            yield fake


@pytest.fixture
def claude(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sandboxed: None) -> ClaudeBed:
    """The pinned claude, a fresh HOME, no credentials or Claude settings from the caller's environment."""
    exe = require("claude")
    home = tmp_path / "home"
    home.mkdir()
    for key in list(os.environ):
        if key.startswith(("ANTHROPIC_", "CLAUDE_", "AWS_", "GOOGLE_", "VERTEX_")) or key == "A320_BENCH_CLAUDE":
            monkeypatch.delenv(key)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    for key, value in OFFLINE_ENV.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("A320_BENCH_CLAUDE", str(exe))
    return ClaudeBed(exe, home, monkeypatch)
