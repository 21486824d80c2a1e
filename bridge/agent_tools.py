"""The agent's side of an in-process episode: its MCP tools and its journal.

`AgentTools` lists and calls the episode's tools over an MCP client session
(messages, not objects: nothing it holds leads to the server, the episode or
the scenario). Tool calls are recorded by the server itself.

`AgentJournal` is where a provider records its own turns (assistant, nudge,
provider_retry). It holds only what the provider wrote until the harness's
recorder takes it, just before the next event the harness writes (a tool call,
the final), so the trajectory keeps the order in which things happened; and it
is told when the episode is over. `JournalRecorder` is that harness side.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from a320bench.server.trajectory import Recorder, now_iso

JOURNAL_EVENTS = frozenset({"assistant", "nudge", "provider_retry"})


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


class AgentJournal:
    __slots__ = ("_pending", "over")

    def __init__(self) -> None:
        self._pending: list[tuple[str, str, dict[str, Any]]] = []
        self.over = False  # set by the harness when the episode's final is written

    def write(self, kind: str, **fields: Any) -> None:
        if kind not in JOURNAL_EVENTS:
            raise ValueError(f"a provider records only {', '.join(sorted(JOURNAL_EVENTS))}, not {kind!r}")
        self._pending.append((kind, now_iso(), fields))

    def take(self) -> list[tuple[str, str, dict[str, Any]]]:
        pending, self._pending = self._pending, []
        return pending


class JournalRecorder(Recorder):
    """The episode's recorder, writing the provider's journal in before each of its own events."""

    def __init__(self, path: Any, journal: AgentJournal, secrets: tuple[str, ...] = ()):
        super().__init__(path, secrets=secrets)
        self.journal = journal

    def write(self, type_: str, **fields: Any) -> dict[str, Any]:
        for kind, ts, provider_fields in self.journal.take():
            super().write(kind, **provider_fields, ts=ts)
        if type_ == "final":
            self.journal.over = True
        return super().write(type_, **fields)


# The SDK client compiles a validator for each tool's output schema once per session
# (jsonschema's check_schema: about 1 ms a tool) - with a fresh session per episode that was
# most of an episode's fixed cost. Compiled validators are stateless: share them per process.
_VALIDATORS: dict[tuple[str, str], Any] = {}


class AgentTools:
    __slots__ = ("_session", "_journal", "reported_done", "_primed")

    def __init__(self, session: Any, journal: AgentJournal):
        self._session = session  # an MCP ClientSession
        self._journal = journal
        self.reported_done = False
        self._primed = False

    async def _prime(self) -> None:
        self._primed = True
        listing = await self._session.list_tools()
        cache = getattr(self._session, "_tool_output_validators", None)
        if not isinstance(cache, dict):  # pragma: no cover - another SDK version: no sharing
            return
        for t in listing.tools:
            if t.output_schema is None:
                continue
            key = (t.name, json.dumps(t.output_schema, sort_keys=True))
            if key in _VALIDATORS:
                cache[t.name] = _VALIDATORS[key]
            else:
                _VALIDATORS[key] = self._session._output_schema_validator(t.name, t.output_schema)

    @property
    def over(self) -> bool:
        """Has the episode ended (report_done, a budget, a harness error)? No call works after."""
        return self._journal.over

    async def list(self) -> list[Any]:
        if not self._primed:
            await self._prime()
        return list((await self._session.list_tools()).tools)

    async def call(self, name: str, arguments: dict[str, Any] | None = None) -> ToolOutcome:
        from mcp.shared.exceptions import MCPError

        if not self._primed:
            await self._prime()
        try:
            res = await self._session.call_tool(name, arguments or {})
        except MCPError as e:  # protocol-level refusal (e.g. unknown tool): the model sees the message
            return ToolOutcome(f"Error: {e}", None, True)
        text = "\n".join(getattr(c, "text", "") for c in res.content if getattr(c, "type", "") == "text")
        if name == "report_done" and not res.is_error:
            self.reported_done = True
        return ToolOutcome(text, res.structured_content, bool(res.is_error))
