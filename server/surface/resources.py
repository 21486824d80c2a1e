"""The ECAM and the system display pages as read-only MCP resources.

The same read-outs as the read tools (and, like them, no simulated time), for
clients that show resources to a person or a model. A resource read is not a
tool call: it uses no budget and is not recorded in the trajectory.
"""

from __future__ import annotations

from mcp.server.mcpserver.resources import Resource
from pydantic import PrivateAttr

from ..sim import PAGES
from .state import EpisodeState
from .views import ecam_display, system_page

URI_PREFIX = "a320://"


def page_uri(page: str) -> str:
    return f"{URI_PREFIX}pages/{page.lower().replace('/', '-')}"


class _EpisodeResource(Resource):
    _state: EpisodeState = PrivateAttr()

    def bind(self, state: EpisodeState) -> _EpisodeResource:
        self._state = state
        return self


class EcamResource(_EpisodeResource):
    async def read(self) -> str:
        return ecam_display(self._state.episode).model_dump_json(indent=1)


class PageResource(_EpisodeResource):
    page: str

    async def read(self) -> str:
        return system_page(self._state.episode, self.page).model_dump_json(indent=1)


def episode_resources(state: EpisodeState) -> list[Resource]:
    out: list[Resource] = [EcamResource(
        uri=f"{URI_PREFIX}ecam", name="ecam", title="ECAM",
        description="The ECAM alerts, their procedure lines and memos (same as read_ecam).",
        mime_type="application/json").bind(state)]
    for page in PAGES:
        out.append(PageResource(
            uri=page_uri(page), name=f"page-{page.lower().replace('/', '-')}", title=f"{page} page", page=page,
            description=f"The {page} system display page (same as read_system_page).",
            mime_type="application/json").bind(state))
    return out
