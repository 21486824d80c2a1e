"""The replay provider: re-applies a recorded trajectory's calls to a fresh aircraft.

Same scenario, same actions must give the same final state (timestamps aside).
The runner compares the replayed final state hash with the recorded one; a
mismatch is a harness bug, not an agent failure. An oracle: the runner builds
it per episode (`for_episode`), which picks the recorded trajectory.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from a320bench.server.trajectory import read_events

from .base import AgentView


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

    def for_episode(self, scenario: Any, run_index: int) -> ReplayRun:
        path = self.find(scenario.id, run_index)
        if path is None:
            raise LookupError(f"no recorded trajectory for {scenario.id} run {run_index} in {self.source}")
        return ReplayRun(path)


class ReplayRun:
    def __init__(self, source: Path):
        self.replay_source = source  # the runner checks the replayed state against it

    async def run(self, view: AgentView) -> str | None:
        calls, _ = recorded_calls(self.replay_source)
        for ev in calls:
            if view.tools.over:
                break
            await view.tools.call(ev["name"], ev.get("arguments") or {})
        return None if view.tools.reported_done else "end_turn_without_done"
