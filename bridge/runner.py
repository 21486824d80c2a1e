"""Run one episode in-process: fresh aircraft and server, in-memory MCP, a provider.

fresh Aircraft -> setup -> inject -> gate -> fresh MCP server of the profile ->
provider loop -> success evaluation -> verdict (DESIGN.md "Episodes").
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from a320bench.server.scenario.model import Scenario
from a320bench.server.session import open_episode
from a320bench.server.trajectory import Recorder

from .providers.base import AgentTask, ProviderFailed
from .tool_session import AgentTools


@dataclass
class EpisodeResult:
    scenario_id: str
    run_index: int
    path: Path | None
    reason: str
    success: bool
    gate_passed: bool
    final: dict[str, Any]
    replay_same: bool | None = None


async def run_episode(
    sc: Scenario,
    provider: Any,
    *,
    profile: Any,
    path: Path | None,
    run_index: int = 0,
    episode_id: str = "",
    secrets: tuple[str, ...] = (),
    extra: dict[str, Any] | None = None,
    recorder_sink: list[dict[str, Any]] | None = None,
) -> EpisodeResult:
    from mcp import Client

    from a320bench.server.surface.factory import create_server

    recorder = Recorder(path, secrets=secrets)
    try:
        ep = open_episode(
            sc, recorder, profile=profile.name, tools=list(profile.tools), instructions=profile.instructions,
            meta={"provider": provider.name, "model": provider.model, "run_index": run_index,
                  "episode_id": episode_id, "client": None, **provider.meta()},
        )
        replay_same = None
        if ep.ended is None:
            task = AgentTask(sc, sc.task_prompt, profile.instructions, run_index, extra=dict(extra or {}))
            server = create_server(ep, profile)
            reason: str | None
            async with Client(server) as client:
                tools = AgentTools(client, recorder, lambda: ep.ended is not None)
                try:
                    reason = await provider.run(tools, task)
                except ProviderFailed as e:
                    recorder.write("provider_error", error=str(e), attempts=e.attempts)
                    reason = "provider_error"
            if ep.ended is None:
                ep.end(reason or "end_turn_without_done")
            if provider.name == "replay":
                from .providers.replay import recorded_calls

                _, recorded_final = recorded_calls(task.extra["replay_path"])
                recorded_final = recorded_final or {}
                # The same state *and* the same verdict: a file whose success was edited is not "the same".
                replay_same = all(recorded_final.get(k) == ep.final[k] for k in ("state_hash", "success"))
                recorder.write("replay_check", source=str(task.extra["replay_path"]), same=replay_same,
                               recorded_state_hash=recorded_final.get("state_hash"),
                               replayed_state_hash=ep.final["state_hash"])
        final = ep.final or {}
        return EpisodeResult(sc.id, run_index, path, ep.ended or "", bool(final.get("success", {}).get("passed")),
                             ep.gate.passed, final, replay_same)
    finally:
        recorder.close()
        if recorder_sink is not None:
            recorder_sink.extend(recorder.events)
