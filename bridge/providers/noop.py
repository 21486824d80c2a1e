"""The noop provider: reads the ECAM and reports done. A floor: it never acts."""

from __future__ import annotations

from typing import Any

from .base import AgentView


class NoopProvider:
    name = "noop"
    model = None

    def meta(self) -> dict[str, Any]:
        return {}

    async def run(self, view: AgentView) -> str | None:
        ecam = await view.tools.call("read_ecam")
        titles = [a["title"] for a in ecam.data.get("alerts", [])] if isinstance(ecam.data, dict) else []
        await view.tools.call("report_done", {"diagnosis": "; ".join(titles) or "nothing shown",
                                              "actions_summary": "No action taken."})
        return None
