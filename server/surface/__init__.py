"""The MCP surface of an episode: the tools an agent calls, per profile.

    profiles      tool profiles as data (profiles/*.yaml): tools and locked instructions
    results       pydantic results of every tool (their output schemas)
    state         the per-episode state tools reach through the lifespan context
    views         read-outs shared by the read tools and the resources
    tools         the agent's tools (benchmark profile)
    dev_tools     privileged tools (dev profile only)
    registry      every tool prebuilt once per process, with its annotations
    messages      error messages written for the agent
    dispatch      EpisodeServer: budget, recording and error translation of every call
    resources     the ECAM and system pages as MCP resources
    prompts       the scenario's task prompt as an MCP prompt
    factory       create_server(episode, profile): a fresh server per episode
    verdict_file  serve's --result file, kept current off the call path
    serve         `a320-bench serve`: one episode over stdio
    http          one episode over Streamable HTTP on loopback, behind a bearer token

`profiles` imports neither mcp nor the simulator; the names below load lazily.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .factory import create_server
    from .profiles import Profile, ProfileError, load_profile

__all__ = ["Profile", "ProfileError", "create_server", "load_profile"]


def __getattr__(name: str) -> Any:
    if name == "create_server":
        from .factory import create_server

        return create_server
    if name in ("Profile", "ProfileError", "load_profile"):
        from . import profiles

        return getattr(profiles, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
