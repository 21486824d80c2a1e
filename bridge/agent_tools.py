"""The agent's side of an in-process episode: its MCP tools and its journal.

`AgentTools` lists and calls the episode's tools over an MCP client session
(messages, not objects: nothing it holds leads to the server, the episode or
the scenario). Tool calls are recorded by the server itself, a model's malformed
tool call too: it travels as an MCP call whose request `_meta` carries the raw
arguments (`messages.MALFORMED_ARGUMENTS_META`), so the server counts it against
the budget and records it in order with the others.

`AgentJournal` is where a provider records its own turns (assistant, nudge,
provider_retry). It holds only what the provider wrote until the harness's
recorder takes it, just before the next event the harness writes (a tool call,
the final), so the trajectory keeps the order in which things happened; and it
is told when the episode is over. `JournalRecorder` is that harness side.
"""

from __future__ import annotations

import collections
import json
import types
from dataclasses import dataclass
from typing import Any

import jsonschema_rs
import orjson

from a320bench.secrets import NO_SECRETS, Scrubber
from a320bench.server.surface.messages import MALFORMED_ARGUMENTS_META
from a320bench.server.trajectory import Recorder, now_iso

JOURNAL_EVENTS = frozenset({"assistant", "nudge", "provider_retry", "usage"})


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
        # Written on the agent's thread, taken on the harness's: a deque's append and popleft are atomic.
        self._pending: collections.deque[tuple[str, str, dict[str, Any]]] = collections.deque()
        self.over = False  # set by the harness when the episode's final is written

    def write(self, kind: str, **fields: Any) -> None:
        if kind not in JOURNAL_EVENTS:
            raise ValueError(f"a provider records only {', '.join(sorted(JOURNAL_EVENTS))}, not {kind!r}")
        self._pending.append((kind, now_iso(), fields))

    def take(self) -> list[tuple[str, str, dict[str, Any]]]:
        taken = []
        while self._pending:
            taken.append(self._pending.popleft())
        return taken


class JournalRecorder(Recorder):
    """The episode's recorder, writing the provider's journal in before each of its own events."""

    def __init__(self, path: Any, journal: AgentJournal, scrubber: Scrubber = NO_SECRETS):
        super().__init__(path, scrubber=scrubber)
        self.journal = journal

    def write(self, type_: str, **fields: Any) -> dict[str, Any]:
        self.flush_journal()
        if type_ == "final":
            self.journal.over = True
        return super().write(type_, **fields)

    def flush_journal(self) -> None:
        """Write what the agent recorded since the last event (after the end too: its usage counts)."""
        for kind, ts, provider_fields in self.journal.take():
            super().write(kind, **provider_fields, ts=ts)


# The SDK client compiles a validator for each tool's output schema once per session
# (jsonschema's check_schema: about 1 ms a tool) - with a fresh session per episode that was
# most of an episode's fixed cost. Compiled validators are stateless: share them per process.
_VALIDATORS: dict[tuple[str, str], Any] = {}


def fast_first(sdk: Any, schema: dict[str, Any]) -> Any:
    """The SDK's output-schema validator behind a compiled one (jsonschema-rs, ~100x faster): a result the
    fast one finds valid has no errors; any other is the SDK validator's to describe, so an invalid
    result fails with the SDK's own message. The SDK only calls `iter_errors`."""
    try:  # formats unchecked and no $ref fetched, as the SDK's validator does
        is_valid = jsonschema_rs.validator_for(schema, validate_formats=False, offline=True).is_valid
    except Exception:  # a schema it does not take: the SDK's validator alone
        return sdk

    def iter_errors(instance: Any) -> Any:
        return iter(()) if is_valid(instance) else sdk.iter_errors(instance)

    # A plain namespace, no class of the package: what the agent's session holds stays plainly the
    # agent's own (tests/bridge/test_provider_view.py lists every class of ours an agent may reach).
    return types.SimpleNamespace(iter_errors=iter_errors)


class AgentTools:
    __slots__ = ("_session", "_journal", "reported_done", "_primed", "fault")

    def __init__(self, session: Any, journal: AgentJournal):
        self._session = session  # an MCP ClientSession
        self._journal = journal
        self.reported_done = False
        self._primed = False
        # An exception that started here (the session broke, a bug of ours): it stays ours even when it
        # passes through a plug-in's run() (registry.PluginAgent).
        self.fault: BaseException | None = None

    async def _prime(self) -> Any:
        self._primed = True
        listing = await self._session.list_tools()
        cache = getattr(self._session, "_tool_output_validators", None)
        if not isinstance(cache, dict):  # pragma: no cover - another SDK version: no sharing
            return listing
        for t in listing.tools:
            if t.output_schema is None:
                continue
            key = (t.name, orjson.dumps(t.output_schema, option=orjson.OPT_SORT_KEYS))  # 5x json.dumps
            if key not in _VALIDATORS:
                _VALIDATORS[key] = fast_first(self._session._output_schema_validator(t.name, t.output_schema),
                                              t.output_schema)
            cache[t.name] = _VALIDATORS[key]
        return listing

    @property
    def over(self) -> bool:
        """Has the episode ended (report_done, a budget, a harness error)? No call works after."""
        return self._journal.over

    async def list(self) -> list[Any]:
        try:
            listing = await self._prime() if not self._primed else await self._session.list_tools()
            return list(listing.tools)
        except Exception as e:
            self.fault = e
            raise

    async def call(self, name: str, arguments: dict[str, Any] | None = None) -> ToolOutcome:
        # A wrong call is the caller's mistake, raised before anything of ours runs (not a `fault`).
        if not isinstance(name, str):
            raise TypeError(f"tools.call: the tool name must be a str, not {type(name).__name__}")
        if arguments is not None and not isinstance(arguments, dict):
            raise TypeError(f"tools.call({name!r}, ...): the arguments must be a dict, not {type(arguments).__name__}")
        try:
            json.dumps(arguments)
        except (TypeError, ValueError) as e:
            raise TypeError(f"tools.call({name!r}, ...): the arguments are not JSON: {e}") from None
        return await self._call(name, arguments or {})

    async def malformed(self, name: str, raw_arguments: Any) -> ToolOutcome:
        """A model's tool call whose arguments are not a JSON object: it still used a tool call. The
        server counts and records it like any call (nothing runs); the model reads the error."""
        if not isinstance(name, str):
            raise TypeError(f"tools.malformed: the tool name must be a str, not {type(name).__name__}")
        return await self._call(name, {}, meta={MALFORMED_ARGUMENTS_META: raw_arguments})

    async def read_resource(self, uri: str) -> ToolOutcome:
        """Read one of the episode's resources (the ECAM, a system page): it counts as a tool call."""
        from mcp.shared.exceptions import MCPError

        if not isinstance(uri, str):
            raise TypeError(f"tools.read_resource: the uri must be a str, not {type(uri).__name__}")
        try:
            res = await self._session.read_resource(uri)
        except MCPError as e:  # refused (the episode is over, no such resource): the model sees the message
            return ToolOutcome(f"Error: {e}", None, True)
        except Exception as e:
            self.fault = e
            raise
        return ToolOutcome("\n".join(getattr(c, "text", "") for c in res.contents), None, False)

    async def _call(self, name: str, arguments: dict[str, Any], meta: dict[str, Any] | None = None) -> ToolOutcome:
        from mcp.shared.exceptions import MCPError

        try:
            if not self._primed:
                await self._prime()
            res = await self._session.call_tool(name, arguments, meta=meta)
        except MCPError as e:  # protocol-level refusal (e.g. unknown tool): the model sees the message
            return ToolOutcome(f"Error: {e}", None, True)
        except Exception as e:
            self.fault = e
            raise
        text = "\n".join(getattr(c, "text", "") for c in res.content if getattr(c, "type", "") == "text")
        if name == "report_done" and not res.is_error:
            self.reported_done = True
        return ToolOutcome(text, res.structured_content, bool(res.is_error))
