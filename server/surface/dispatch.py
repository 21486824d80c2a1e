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
    ├── SimError from a tool ............... the simulator's own message (typed bad input)
    ├── LearningError ...................... a learning tool's refusal (empty, too many, no store)
    ├── arguments that are not JSON ........ `record_malformed_call`: counted and recorded too (a
    │                                        bridge sends such a call with the raw arguments in the
    │                                        request `_meta`, messages.MALFORMED_ARGUMENTS_META)
    └── EpisodeOver ........................ why the episode is over
    anything else (a plain ValueError too).. harness error: recorded, the episode
                                             ends with reason `harness_error`, the
                                             agent is told it is not its mistake

Only `ToolError` text reaches a 2.x client (any other exception is reduced to
"Error executing tool X"), so every path above raises a `ToolError`. What the
agent sent is echoed and recorded capped (`messages.capped`), saying it was cut; the call acts on
its objects and lists as the record keeps them (`messages.bounded`), so that verify can send it again.

The trajectory is written by the episode's recorder; when the disk refuses it
(full, unwritable), the episode ends `storage_error` at once (the verdict says so)
and every later call is refused: nothing goes on unrecorded.
"""

from __future__ import annotations

import logging
import time
import traceback
from collections.abc import Callable
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp_types import CallToolResult, InputRequiredResult
from mcp_types import Tool as MCPTool
from pydantic import ValidationError

from ..end_reason import EndReason
from ..episode import EpisodeOver
from ..learning.store import LearningError
from ..sim import SimError
from . import messages
from .registry import get_tool, listed, listing_result
from .state import EpisodeState, request_context_of

log = logging.getLogger(__name__)


class EpisodeServer(MCPServer[EpisodeState]):
    """An `MCPServer` bound to one episode (a fresh one per episode)."""

    def __init__(self, state: EpisodeState, **kwargs: Any):
        super().__init__(**kwargs)
        self.state = state
        # One call at a time: a client may send calls concurrently (parallel tool use), but the
        # aircraft is one and the trajectory must say in which order the calls acted.
        self._one_at_a_time = anyio.Lock(fast_acquire=True)  # no event-loop trip when uncontended
        # `serve` sets it: called once with the client's MCP clientInfo ({name, version}) when the
        # client first names itself, so a served trajectory says who flew it (`run` knows already).
        self.on_client_identified: Callable[[dict[str, Any]], None] | None = None

    def release(self) -> None:
        """Let go of the episode once no connection will use this server again. The SDK's server is
        a reference cycle (its handlers are its own bound methods), freed only by a garbage
        collection: until then it would keep the episode alive too (its aircraft, watches and
        recorder, about 1,200 objects), for every young-generation collection to walk again."""
        self.state.episode = None  # type: ignore[assignment]

    def _identify_client(self, context: Any) -> None:
        if self.on_client_identified is None:
            return
        info = client_info(context)
        if info is not None:
            announce, self.on_client_identified = self.on_client_identified, None
            announce(info)

    async def list_tools(self) -> list[MCPTool]:
        return [listed(tool) for tool in self._tool_manager.list_tools()]

    async def _handle_list_tools(self, ctx: Any, params: Any) -> dict[str, Any]:  # type: ignore[override]
        # The SDK's handler dumps a fresh ListToolsResult; the prebuilt tools' dump is the same each
        # time (the SDK copies it, then validates it against the protocol's shape as for any result).
        return listing_result(self._tool_manager.list_tools())

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None
                        ) -> CallToolResult | InputRequiredResult:
        self._identify_client(context)
        meta = _request_meta(context)
        if messages.MALFORMED_ARGUMENTS_META in meta:
            raise ToolError(await self.record_malformed_call(name, meta[messages.MALFORMED_ARGUMENTS_META]))
        async with self._one_at_a_time:
            return await self._call(name, arguments, context)

    async def record_malformed_call(self, name: str, raw_arguments: Any) -> str:
        """A call whose arguments are not a JSON object (a model's malformed tool call): it counts
        against the budget and is recorded like any call; the error message is returned."""
        async with self._one_at_a_time:
            ep = self.state.episode
            wall = time.perf_counter()
            before = ep.sim_elapsed
            try:
                ep.begin_call()
                message = messages.malformed_arguments(name, messages.bounded(raw_arguments))
            except EpisodeOver as e:
                message = str(e)
            try:
                return str(self._error(name, raw_arguments, message, before, wall))
            finally:
                self._check_storage()

    async def read_resource(self, uri: Any, context: Any = None) -> Any:
        # A resource read is counted and recorded like a call (surface/resources.py): one at a time too.
        self._identify_client(context)
        async with self._one_at_a_time:
            try:
                return await super().read_resource(uri, context)
            finally:
                self._check_storage()

    async def _call(self, name: str, arguments: dict[str, Any], context: Any) -> CallToolResult | InputRequiredResult:
        try:
            return await self._counted_call(name, arguments, context)
        finally:
            self._check_storage()

    def _check_storage(self) -> None:
        """A trajectory that can no longer be written ends the episode: never an unrecorded call."""
        ep = self.state.episode
        failure = ep.recorder.failure
        if failure is not None and ep.ended is None:
            ep.end(EndReason.STORAGE_ERROR, error=failure)  # the owner (run, serve) tells the user

    async def _counted_call(self, name: str, arguments: dict[str, Any], context: Any
                            ) -> CallToolResult | InputRequiredResult:
        st = self.state
        ep = st.episode
        wall = time.perf_counter()
        before = ep.sim_elapsed
        if ep.recorder.failure is not None and ep.ended is None:
            self._check_storage()
        try:
            ep.begin_call()
        except EpisodeOver as e:
            raise self._error(name, arguments, str(e), before, wall) from None
        if name not in st.tool_names:
            raise self._error(name, arguments, messages.unknown_tool(name, st.tool_names), before, wall) from None
        # The call acts on what its record keeps (objects, lists and nesting cut as recorded), so that
        # score --verify, sending the record again, sees the same call.
        acting = messages.bounded(arguments)
        if name == "set_control" and isinstance(acting, dict):
            ep.before_command(acting)  # privileged: `when:` judged before the command acts
        try:
            result = await super().call_tool(name, acting, context)
        except anyio.get_cancelled_exc_class():
            # The run is being stopped: record the call (its effect, if any, is in the state) so
            # that the episode's `final` (interrupted) can follow it.
            self._error(name, arguments, "interrupted: the run was stopped during this call", before, wall)
            raise
        except ToolError as exc:
            message, crash = self._translate(name, exc)
            if crash is None:
                raise self._error(name, arguments, message, before, wall) from None
            detail = {"harness_error": True, "exception": "".join(
                traceback.format_exception(type(crash), crash, crash.__traceback__, limit=-8))}
            err = self._error(name, arguments, message, before, wall, detail)
            try:
                ep.end(EndReason.HARNESS_ERROR, error=f"{name}: {type(crash).__name__}: {crash}")
            except Exception:  # the verdict itself needs the broken simulator: keep serving errors
                log.exception("could not write the final event after a harness error in %s", name)
            raise err from None
        finally:
            pending, st.end_after_call = st.end_after_call, None
        recorded = result.structured_content if isinstance(result, CallToolResult) else None
        ep.record_call(name, messages.capped(arguments), recorded, False, before, wall)
        if pending is not None:
            ep.end(*pending)
        return result

    def _translate(self, name: str, exc: ToolError) -> tuple[str, BaseException | None]:
        """(message for the agent, the crash if this is a harness fault)."""
        cause = exc.__cause__
        if isinstance(exc, UnexpectedToolError):
            if isinstance(cause, (SimError, EpisodeOver, LearningError)):
                return f"{name}: {messages.cap_text(str(cause))}", None
            # Anything else, a plain ValueError included, is ours: a simulator bug must never
            # score as the agent's invalid command.
            crash = cause if cause is not None else exc
            return messages.harness_error(name, crash), crash
        if isinstance(cause, ValidationError):
            return messages.invalid_arguments(name, cause, get_tool(name).parameters), None
        return str(exc), None

    def _error(self, name: str, arguments: Any, message: str, before: float, wall: float,
               detail: dict[str, Any] | None = None) -> ToolError:
        self.state.episode.record_call(messages.capped(name), messages.capped(arguments),
                                       {"error": message, **(detail or {})}, True, before, wall)
        return ToolError(message)


def client_info(context: Any) -> dict[str, Any] | None:
    """The MCP clientInfo the client sent (initialize, or each request's envelope on 2026-07-28), capped."""
    try:
        params = context.request_context.session.client_params if context is not None else None
    except (AttributeError, ValueError):  # a Context built outside a request
        return None
    info = getattr(params, "client_info", None)
    if info is None:
        return None
    return {"name": messages.cap_text(str(info.name)),
            "version": messages.cap_text(str(info.version)) if getattr(info, "version", None) else None}


def _request_meta(context: Any) -> Any:
    """The request's `_meta` ({} for a call made outside a request, as tests do)."""
    try:
        return (request_context_of(context).meta if context is not None else None) or {}
    except ValueError:  # a Context built outside a request
        return {}
