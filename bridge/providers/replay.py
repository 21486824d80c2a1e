"""The replay provider: re-applies a recorded trajectory's calls to a fresh aircraft.

Same scenario, same actions must give the same final state (timestamps aside).
The runner compares the replayed final state hash with the recorded one; a
mismatch is a harness bug, not an agent failure.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from a320bench.server.trajectory import read_events

from ..tool_session import AgentTools
from .base import AgentTask


def recorded_calls(path: Path) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    calls, final = [], None
    for ev in read_events(path):
        if ev.get("type") == "tool_call":
            calls.append(ev)
        elif ev.get("type") == "final":
            final = ev
    return calls, final


class ReplayProvider:
    name = "replay"
    model = None

    def __init__(self, source: Path):
        self.source = source  # a runs folder: <source>/<scenario_id>/<episode>.jsonl

    def find(self, scenario_id: str, run_index: int) -> Path | None:
        folder = self.source / scenario_id
        if not folder.is_dir():
            return None
        for p in sorted(folder.glob("*.jsonl")):
            for ev in read_events(p):
                if ev.get("type") == "meta":
                    if ev.get("run_index") == run_index and ev.get("provider") != "replay":
                        return p
                    break
        return None

    def meta(self) -> dict[str, Any]:
        return {"replay_source": str(self.source)}

    async def run(self, tools: AgentTools, task: AgentTask) -> str | None:
        path = task.extra["replay_path"]
        calls, _ = recorded_calls(path)
        for ev in calls:
            if tools.over:
                break
            await tools.call(ev["name"], ev.get("arguments") or {})
        return None if tools.reported_done else "end_turn_without_done"
