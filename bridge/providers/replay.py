"""The replay provider: re-applies a recorded trajectory's calls to a fresh aircraft.

Same scenario, same actions must give the same final state (timestamps aside).
The runner compares the replayed final state hash with the recorded one; a
mismatch is a harness bug, not an agent failure. An oracle: the runner builds
it per episode (`for_episode`), which hands it the recording it replays.

Which recording: the one of the same scenario and run index in --replay-from,
by whoever drove it (its label: provider, model or client, as in the file
names). When the folder holds several, --replay-of LABEL chooses; without it
the run is refused rather than replaying an arbitrary one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from a320bench.server.trajectory import read_events

from ..errors import UsageError
from ..selection import label_of
from .base import AgentConfig, AgentView


def recorded_calls(path: Path) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    calls, final = [], None
    for ev in read_events(path):
        if ev.get("type") == "tool_call":
            calls.append(ev)
        elif ev.get("type") == "final":
            final = ev
    return calls, final


def _meta(path: Path) -> dict[str, Any] | None:
    try:
        with open(path, encoding="utf-8") as fh:
            first = json.loads(fh.readline())
    except (OSError, ValueError):
        return None
    return first if isinstance(first, dict) and first.get("type") == "meta" else None


class ReplayProvider:
    name = "replay"
    model = None

    def __init__(self, source: str | Path, of: str | None = None):
        self.source = Path(source)  # a runs folder: <source>/<scenario_id>/<episode>.jsonl
        self.of = of
        self.selected: dict[tuple[str, int], Path] = {}
        if not self.source.is_dir():
            raise UsageError(f"--replay-from {self.source}: no such folder")

    @classmethod
    def from_config(cls, config: AgentConfig) -> ReplayProvider:
        if not config.replay_from:
            raise UsageError("--provider replay needs --replay-from RUNS_FOLDER")
        return cls(config.replay_from, of=config.replay_of)

    def recordings(self, scenario_id: str, run_index: int) -> dict[str, Path]:
        """label -> trajectory, for every recording (not itself a replay) of this scenario and run."""
        found: dict[str, Path] = {}
        folder = self.source / scenario_id
        for p in sorted(folder.glob("*.jsonl")) if folder.is_dir() else ():
            meta = _meta(p)
            if meta is None or meta.get("provider") == "replay" or meta.get("run_index") != run_index:
                continue
            found.setdefault(label_of(meta), p)
        return found

    def select(self, plan: list[Any]) -> None:
        """Choose the recording of every planned episode; UsageError when one is missing or ambiguous."""
        for p in plan:
            sid, r = p.scenario.id, p.run_index
            found = self.recordings(sid, r)
            where = f"--replay-from {self.source}"
            if self.of is not None:
                if self.of not in found:
                    holds = f" (it holds: {', '.join(sorted(found))})" if found else ""
                    raise UsageError(f"{where}: no recording of {self.of} for {sid} run {r}{holds}")
                self.selected[(sid, r)] = found[self.of]
            elif len(found) == 1:
                self.selected[(sid, r)] = next(iter(found.values()))
            elif not found:
                raise UsageError(f"{where}: no recorded trajectory for {sid} run {r}")
            else:
                raise UsageError(f"{where} holds recordings of {sid} run {r} by {', '.join(sorted(found))}: "
                                 "choose one with --replay-of LABEL")

    def meta(self) -> dict[str, Any]:
        return {"replay_source": str(self.source), "replay_of": self.of}

    def for_episode(self, scenario: Any, run_index: int) -> ReplayRun:
        key = (scenario.id, run_index)
        if key not in self.selected:  # not planned through `select` (a single episode): choose it now
            self.select([_Planned(scenario, run_index)])
        return ReplayRun(self.selected[key])


@dataclass(frozen=True)
class _Planned:
    scenario: Any
    run_index: int


class ReplayRun:
    def __init__(self, source: Path):
        self.replay_source = source  # the runner checks the replayed state against it

    async def run(self, view: AgentView) -> str | None:
        tools = view.tools
        calls, _ = recorded_calls(self.replay_source)
        for ev in calls:
            if tools.over:
                break
            args = ev.get("arguments")
            args = {} if args is None else args
            if isinstance(args, dict):
                await tools.call(ev["name"], args)
            else:  # a malformed call of the model: replayed as one (it used a tool call)
                await tools.malformed(ev["name"], args)
        return None if tools.reported_done else "end_turn_without_done"
