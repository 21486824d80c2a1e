"""The per-episode state a server's tools reach through the lifespan context.

Tools are defined once per process; the episode they act on arrives with each
request as `ctx.request_context.lifespan_context` (an `EpisodeState`), so no
tool holds a module global.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mcp.server.mcpserver import Context

from ..episode import Episode


@dataclass(slots=True)
class EpisodeState:
    episode: Episode
    profile: str
    tool_names: frozenset[str]
    # Set by a tool whose call ends the episode (report_done): the dispatcher ends the
    # episode after recording the call, so the `final` event follows its `tool_call`.
    end_after_call: tuple[str, dict[str, Any] | None] | None = field(default=None)
    # Harness-side companions of the crew and learning profiles (server/crew, server/learning):
    # the agent reaches them only through their tools.
    captain: Any = None
    learnings: Any = None


def request_context_of(ctx: Context) -> Any:
    """`ctx.request_context`, read without pydantic's `BaseModel.__getattr__` (a `Context` keeps it
    as a private attribute, and that path costs about 5 us per access, twice or more per call).
    Outside a request it raises the same ValueError as `ctx.request_context`."""
    private = getattr(ctx, "__pydantic_private__", None)
    found = private.get("_request_context") if private else None
    return found if found is not None else ctx.request_context


def state_of(ctx: Context) -> EpisodeState:
    return request_context_of(ctx).lifespan_context


def episode_of(ctx: Context) -> Episode:
    return request_context_of(ctx).lifespan_context.episode
