"""`run --client claude --offline-demo`: the real Claude Code, in its sandbox, against a mock of the
Messages API on loopback that flies the scenario's scripted procedure.

The whole client path -- sandbox, MCP over HTTP, the transcript, the client_report, scoring -- without
an account or a network. The mock is harness-side and knows the answer on purpose, like the scripted
provider: its calls are the scripted provider's (`ScriptedRun`, recorded here without an aircraft).
Each episode gets its own mock (fake_messages_api.py) on a fresh port, behind a fresh key, so parallel
episodes never mix and nothing else on loopback can read the script.
The episodes are labelled `claude/offline-demo`, never the name of a real model, and the user's Claude
login and Anthropic settings are left out: nothing real is called, nothing is billed.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from types import SimpleNamespace
from typing import Any

from ..agent_tools import ToolOutcome
from .claude import ClaudeClient
from .fake_messages_api import FakeAnthropic, tool_use, turn
from .sandbox import DataFile

DEMO_MODEL = "offline-demo"
# The user's own Anthropic and Claude Code routing (a key, a proxy, Bedrock or Vertex) stays out.
USER_ROUTING = ("ANTHROPIC_", "CLAUDE_CODE_USE_")


class _RecordingTools:
    """What the scripted provider talks to here: every call is noted, none reaches an aircraft."""

    over = False

    def __init__(self, tool_names: list[str]):
        self.names = tool_names
        self.calls: list[tuple[str, dict[str, Any]]] = []

    async def list(self) -> list[Any]:
        return [SimpleNamespace(name=n) for n in self.names]

    async def call(self, name: str, arguments: dict[str, Any] | None = None) -> ToolOutcome:
        self.calls.append((name, dict(arguments or {})))
        return ToolOutcome(text="", data={}, is_error=False)


async def scripted_calls(scenario: Any, tool_names: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """The tool calls the scripted provider makes for `scenario` (its diagnosis then names the
    procedure's keywords only: the ECAM titles it adds come from a live read)."""
    from ..providers.scripted import ScriptedRun

    tools = _RecordingTools(tool_names)
    await ScriptedRun(scenario).run(SimpleNamespace(tools=tools))  # type: ignore[arg-type]
    return tools.calls


class OfflineDemoClaude(ClaudeClient):
    def __init__(self, timeout_s: float):
        super().__init__(DEMO_MODEL, timeout_s)

    def home_files(self) -> list[DataFile]:
        return []  # never the user's login: the demo must not reach a real account

    @asynccontextmanager
    async def episode_backend(self, scenario: Any, profile: Any, server: str) -> AsyncIterator[dict[str, str | None]]:
        """A mock Messages API for one episode; the environment changes that point claude at it
        (None: a variable removed)."""
        calls = await scripted_calls(scenario, list(profile.tools))
        script = [turn(tool_use(f"mcp__{server}__{name}", args)) for name, args in calls]
        key = f"offline-demo-{secrets.token_urlsafe(16)}"  # the mock answers this episode's claude only
        with FakeAnthropic([*script, turn(text="Procedure flown (offline demo).")], api_key=key) as api:
            removed: dict[str, str | None] = {k: None for k in os.environ if k.startswith(USER_ROUTING)}
            yield {**removed, "ANTHROPIC_BASE_URL": api.url, "ANTHROPIC_API_KEY": key}
