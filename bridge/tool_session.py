"""The agent's side of the MCP connection: list and call tools, record model turns.

Tool calls are recorded by the server itself; this side records only what the
model said (assistant turns, nudges, provider errors).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from a320bench.server.trajectory import Recorder


@dataclass
class ToolOutcome:
    text: str
    data: Any  # structured content when the server sent it, else the text
    is_error: bool

    def for_model(self) -> str:
        """What a model reads back: JSON of the structured content (as Claude Code does), else the text."""
        if self.data is not None and not isinstance(self.data, str):
            return json.dumps(self.data, ensure_ascii=False)
        return self.text


# The SDK client compiles a validator for each tool's output schema once per session
# (jsonschema's check_schema: about 1 ms a tool) - with a fresh session per episode that was
# most of an episode's fixed cost. Compiled validators are stateless: share them per process.
_VALIDATORS: dict[tuple[str, str], Any] = {}


class AgentTools:
    def __init__(self, client: Any, recorder: Recorder, is_over: Callable[[], bool],
                 record_malformed: Callable[[str, Any], Awaitable[str]] | None = None):
        self.client = client
        self.recorder = recorder
        self._is_over = is_over
        self._record_malformed = record_malformed
        self.reported_done = False
        self._primed = False

    async def _prime(self) -> None:
        self._primed = True
        listing = await self.client.list_tools()
        session = self.client.session
        cache = getattr(session, "_tool_output_validators", None)
        if not isinstance(cache, dict):  # pragma: no cover - another SDK version: no sharing
            return
        for t in listing.tools:
            if t.output_schema is None:
                continue
            key = (t.name, json.dumps(t.output_schema, sort_keys=True))
            if key in _VALIDATORS:
                cache[t.name] = _VALIDATORS[key]
            else:
                _VALIDATORS[key] = session._output_schema_validator(t.name, t.output_schema)

    @property
    def over(self) -> bool:
        return self._is_over()

    async def list(self) -> list[Any]:
        if not self._primed:
            await self._prime()
        return list((await self.client.list_tools()).tools)

    async def call(self, name: str, arguments: dict[str, Any] | None = None) -> ToolOutcome:
        from mcp.shared.exceptions import MCPError

        if not self._primed:
            await self._prime()

        try:
            res = await self.client.call_tool(name, arguments or {})
        except MCPError as e:  # protocol-level refusal (e.g. unknown tool): the model sees the message
            return ToolOutcome(f"Error: {e}", None, True)
        text = "\n".join(getattr(c, "text", "") for c in res.content if getattr(c, "type", "") == "text")
        if name == "report_done" and not res.is_error:
            self.reported_done = True
        return ToolOutcome(text, res.structured_content, bool(res.is_error))

    async def malformed(self, name: str, raw_arguments: Any) -> ToolOutcome:
        """A tool call whose arguments are not a JSON object: the server counts it against the
        budget and records it like any call (MCP itself cannot carry it); the model reads the error."""
        if self._record_malformed is None:  # pragma: no cover - every in-process episode passes one
            raise RuntimeError("this session cannot record malformed tool calls")
        return ToolOutcome(await self._record_malformed(name, raw_arguments), None, True)
