"""`create_server(episode, profile)`: a fresh MCP server for one episode.

It exposes exactly the profile's tools (prebuilt once per process), the
profile's locked instructions, the scenario's task prompt as an MCP prompt and
the ECAM and system pages as read-only resources. The episode reaches the tools
through the lifespan context. Creating one costs well under a millisecond.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from mcp.server.mcpserver.tools import Tool

from a320bench import __version__

from ..episode import Episode
from .dispatch import EpisodeServer
from .profiles import Profile, ProfileError, load_profile
from .prompts import TASK_PROMPT
from .registry import TOOL_NAMES, get_tool
from .resources import episode_resources
from .state import EpisodeState

SERVER_NAME = "a320-bench"


def profile_tools(profile: Profile) -> list[Tool]:
    """The prebuilt tools of a profile, in its order; an unknown name is a ProfileError."""
    unknown = [n for n in profile.tools if n not in TOOL_NAMES]
    if unknown:
        raise ProfileError(f"profile {profile.name}: unknown tool(s) {', '.join(unknown)} "
                           f"(tools: {', '.join(TOOL_NAMES)})")
    return [get_tool(n) for n in profile.tools]


@asynccontextmanager
async def _lifespan(server: EpisodeServer) -> AsyncIterator[EpisodeState]:
    # Entered once per connection; the episode outlives it. Ending the episode when a
    # client leaves is the caller's decision (serve: end_turn_without_done; run: its reason).
    yield server.state


def create_server(episode: Episode, profile: Profile | str, *, captain: Any = None, learnings: Any = None,
                  **transport: Any) -> EpisodeServer:
    """`transport`: options a transport adds to the server (the HTTP module's bearer auth).

    A profile with the `captain` tool gets the scripted captain unless `captain` is given (an
    LLM captain, bridge/crew_llm.py); one with the learning tools needs `learnings`, the run's
    store (server/learning), else they answer that there is none."""
    if isinstance(profile, str):
        profile = load_profile(profile)
    tools = profile_tools(profile)
    if captain is None and "captain" in profile.tools:
        from ..crew.captain import ScriptedCaptain

        captain = ScriptedCaptain(episode.scenario)
    state = EpisodeState(episode=episode, profile=profile.name, tool_names=frozenset(profile.tools),
                         captain=captain, learnings=learnings)
    server = EpisodeServer(
        state,
        name=SERVER_NAME,
        title="a320-bench: a simulated A320",
        version=__version__,
        instructions=profile.instructions,
        tools=tools,
        lifespan=_lifespan,
        # MCPServer() configures root logging when nobody has; never at INFO (one line per agent mistake).
        log_level="WARNING",
        **transport,
    )
    server.add_prompt(TASK_PROMPT)
    for resource in episode_resources(state):
        server.add_resource(resource)
    return server
