"""The ECAM and the system display pages as read-only MCP resources.

The same read-outs as the read tools (and, like them, no simulated time), for
clients that show resources to a person or a model. A resource read is an agent
action like a tool call: it counts against the tool-call budget, it is recorded
in the trajectory (a `tool_call` event named `read_resource`, arguments `{"uri"}`),
and once the episode is over it is refused with the reason, as a tool is.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable

from mcp.server.mcpserver.exceptions import ResourceError
from mcp.server.mcpserver.resources import Resource
from pydantic import BaseModel, PrivateAttr

from ..episode import Episode, EpisodeOver
from ..sim import PAGES
from .state import EpisodeState
from .views import ecam_display, system_page

URI_PREFIX = "a320://"
READ_RESOURCE = "read_resource"  # the name a resource read is recorded under


def page_uri(page: str) -> str:
    return f"{URI_PREFIX}pages/{page.lower().replace('/', '-')}"


def recorded_read(ep: Episode, uri: str, produce: Callable[[Episode], BaseModel]) -> str:
    """Count, produce and record one resource read; refuse it (ResourceError) once the episode is over."""
    wall = time.perf_counter()
    before = ep.sim_elapsed
    arguments = {"uri": uri}
    try:
        ep.begin_call()
    except EpisodeOver as e:
        ep.record_call(READ_RESOURCE, arguments, {"error": str(e)}, True, before, wall)
        raise ResourceError(str(e)) from None
    result = produce(ep)
    ep.record_call(READ_RESOURCE, arguments, result.model_dump(mode="json"), False, before, wall)
    return result.model_dump_json(indent=1)


class _EpisodeResource(Resource):
    _state: EpisodeState = PrivateAttr()

    def bind(self, state: EpisodeState) -> _EpisodeResource:
        self._state = state
        return self


class EcamResource(_EpisodeResource):
    async def read(self) -> str:
        return recorded_read(self._state.episode, str(self.uri), ecam_display)


class PageResource(_EpisodeResource):
    page: str

    async def read(self) -> str:
        return recorded_read(self._state.episode, str(self.uri), lambda ep: system_page(ep, self.page))


def episode_resources(state: EpisodeState) -> list[Resource]:
    # Copies of resources validated once: validating twelve models (their URIs parsed) cost more
    # than the rest of a server's creation.
    return [resource.model_copy().bind(state) for resource in _unbound()]


@functools.cache
def _unbound() -> tuple[_EpisodeResource, ...]:
    out: list[_EpisodeResource] = [EcamResource(
        uri=f"{URI_PREFIX}ecam", name="ecam", title="ECAM",
        description="The ECAM alerts, their procedure lines and memos (same as read_ecam; counts as a tool call).",
        mime_type="application/json")]
    for page in PAGES:
        out.append(PageResource(
            uri=page_uri(page), name=f"page-{page.lower().replace('/', '-')}", title=f"{page} page", page=page,
            description=f"The {page} system display page (same as read_system_page; counts as a tool call).",
            mime_type="application/json"))
    return tuple(out)
