"""Every tool call of an episode passes through `EpisodeServer.call_tool`.

There, once for all tools:

- the budget is counted (`Episode.begin_call`); once the episode is over every
  call, known or not, answers with an error saying why;
- a name outside the profile (an unknown tool, or a privileged one on a
  `benchmark` server) is an error result listing the tools, not a protocol error;
- the call is recorded (`Episode.record_call`), errors included;
- failures become messages the agent can act on. The error tree:

    ToolError (SDK) ........................ the agent reads the message
    ├── bad arguments (schema validation) .. one sentence per argument, valid choices
    ├── SimError / ValueError from a tool .. the simulator's own message
    └── EpisodeOver ........................ why the episode is over
    anything else .......................... harness error: recorded, the episode
                                             ends with reason `harness_error`, the
                                             agent is told it is not its mistake

Only `ToolError` text reaches a 2.x client (any other exception is reduced to
"Error executing tool X"), so every path above raises a `ToolError`.
"""

from __future__ import annotations

import logging
import time
import traceback
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp_types import CallToolResult, InputRequiredResult
from pydantic import ValidationError

from ..episode import EpisodeOver
from ..sim import SimError
from . import messages
from .registry import get_tool
from .state import EpisodeState

log = logging.getLogger(__name__)


class EpisodeServer(MCPServer[EpisodeState]):
    """An `MCPServer` bound to one episode (a fresh one per episode)."""

    def __init__(self, state: EpisodeState, **kwargs: Any):
        super().__init__(**kwargs)
        self.state = state
        # One call at a time: a client may send calls concurrently (parallel tool use), but the
        # aircraft is one and the trajectory must say in which order the calls acted.
        self._one_at_a_time = anyio.Lock(fast_acquire=True)  # no event-loop trip when uncontended

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None
                        ) -> CallToolResult | InputRequiredResult:
        async with self._one_at_a_time:
            return await self._call(name, arguments, context)

    async def read_resource(self, uri: Any, context: Any = None) -> Any:
        # A resource read is counted and recorded like a call (surface/resources.py): one at a time too.
        async with self._one_at_a_time:
            return await super().read_resource(uri, context)

    async def _call(self, name: str, arguments: dict[str, Any], context: Any) -> CallToolResult | InputRequiredResult:
        st = self.state
        ep = st.episode
        wall = time.perf_counter()
        before = ep.sim_elapsed
        try:
            ep.begin_call()
        except EpisodeOver as e:
            raise self._error(name, arguments, str(e), before, wall) from None
        if name not in st.tool_names:
            raise self._error(name, arguments, messages.unknown_tool(name, st.tool_names), before, wall) from None
        try:
            result = await super().call_tool(name, arguments, context)
        except ToolError as exc:
            message, crash = self._translate(name, exc)
            if crash is None:
                raise self._error(name, arguments, message, before, wall) from None
            detail = {"harness_error": True, "exception": "".join(
                traceback.format_exception(type(crash), crash, crash.__traceback__, limit=-8))}
            err = self._error(name, arguments, message, before, wall, detail)
            try:
                ep.end("harness_error")
            except Exception:  # the verdict itself needs the broken simulator: keep serving errors
                log.exception("could not write the final event after a harness error in %s", name)
            raise err from None
        finally:
            pending, st.end_after_call = st.end_after_call, None
        recorded = result.structured_content if isinstance(result, CallToolResult) else None
        ep.record_call(name, arguments, recorded, False, before, wall)
        if pending is not None:
            ep.end(*pending)
        return result

    def _translate(self, name: str, exc: ToolError) -> tuple[str, BaseException | None]:
        """(message for the agent, the crash if this is a harness fault)."""
        cause = exc.__cause__
        if isinstance(exc, UnexpectedToolError):
            if isinstance(cause, (SimError, EpisodeOver)):
                return f"{name}: {cause}", None
            if isinstance(cause, ValueError) and not isinstance(cause, ValidationError):
                # Bad input the simulator caught without a SimError: its text, minus any failure id.
                return f"{name}: {messages.scrub(str(cause))}", None
            crash = cause if cause is not None else exc
            return messages.harness_error(name, crash), crash
        if isinstance(cause, ValidationError):
            return messages.invalid_arguments(name, cause, get_tool(name).parameters), None
        return str(exc), None

    def _error(self, name: str, arguments: dict[str, Any], message: str, before: float, wall: float,
               detail: dict[str, Any] | None = None) -> ToolError:
        self.state.episode.record_call(name, arguments, {"error": message, **(detail or {})}, True, before, wall)
        return ToolError(message)
