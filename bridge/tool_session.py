"""The agent's side of the MCP connection: list and call tools, record model turns.

Tool calls are recorded by the server itself; this side records only what the
model said (assistant turns, nudges, provider errors).
"""

from __future__ import annotations

import json
from collections.abc import Callable
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


class AgentTools:
    def __init__(self, client: Any, recorder: Recorder, is_over: Callable[[], bool]):
        self.client = client
        self.recorder = recorder
        self._is_over = is_over
        self.reported_done = False

    @property
    def over(self) -> bool:
        return self._is_over()

    async def list(self) -> list[Any]:
        return list((await self.client.list_tools()).tools)

    async def call(self, name: str, arguments: dict[str, Any] | None = None) -> ToolOutcome:
        from mcp.shared.exceptions import MCPError

        try:
            res = await self.client.call_tool(name, arguments or {})
        except MCPError as e:  # protocol-level refusal (e.g. unknown tool): the model sees the message
            return ToolOutcome(f"Error: {e}", None, True)
        text = "\n".join(getattr(c, "text", "") for c in res.content if getattr(c, "type", "") == "text")
        if name == "report_done" and not res.is_error:
            self.reported_done = True
        return ToolOutcome(text, res.structured_content, bool(res.is_error))
