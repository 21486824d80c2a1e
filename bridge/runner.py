"""Run one episode in-process: fresh aircraft and server, in-memory MCP, a provider.

fresh Aircraft -> setup -> inject -> gate -> fresh MCP server of the profile ->
provider loop -> success evaluation -> verdict (DESIGN.md "Episodes").

The provider sees the episode through an `AgentView` (providers/base.py): the
prompt, the instructions, an MCP session to the server and its journal. An
oracle baseline gets its privileged knowledge here, on the harness side, when
`for_episode` builds it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from a320bench.server.end_reason import EndReason
from a320bench.server.scenario.model import Scenario
from a320bench.server.session import open_episode

from .agent_tools import AgentJournal, AgentTools, JournalRecorder
from .providers.base import AgentView, OracleFactory, ProviderFailed


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


def episode_seed(base_seed: int, scenario_id: str, run_index: int) -> int:
    """The seed a provider gets: reruns are reproducible, runs and scenarios differ, and the
    provider is handed a number, not the scenario's name."""
    return int.from_bytes(_digest("seed", base_seed, scenario_id, run_index)[:8], "big") >> 1


def agent_episode_id(base_seed: int, scenario_id: str, run_index: int) -> str:
    """The episode's name on the agent's side: opaque, and (like the seed) the same on a rerun,
    so that the same actions still give the same trajectory."""
    return _digest("id", base_seed, scenario_id, run_index)[:8].hex()


def _digest(purpose: str, base_seed: int, scenario_id: str, run_index: int) -> bytes:
    return hashlib.sha256(f"{purpose}:{base_seed}:{scenario_id}:{run_index}".encode()).digest()


async def run_episode(
    sc: Scenario,
    provider: Any,
    *,
    profile: Any,
    path: Path | None,
    run_index: int = 0,
    episode_id: str = "",
    seed: int = 0,
    secrets: tuple[str, ...] = (),
    recorder_sink: list[dict[str, Any]] | None = None,
) -> EpisodeResult:
    from a320bench.server.surface.factory import create_server

    agent = provider.for_episode(sc, run_index) if isinstance(provider, OracleFactory) else provider
    journal = AgentJournal()
    recorder = JournalRecorder(path, journal, secrets=secrets)
    opaque_id = agent_episode_id(seed, sc.id, run_index)
    per_episode_seed = episode_seed(seed, sc.id, run_index)
    try:
        ep = open_episode(
            sc, recorder, profile=profile.name, tools=list(profile.tools), instructions=profile.instructions,
            meta={"provider": provider.name, "model": provider.model, "run_index": run_index,
                  "episode_id": episode_id, "agent_episode_id": opaque_id, "episode_seed": per_episode_seed,
                  "client": None, **provider.meta()},
        )
        replay_same = None
        if ep.ended is None:
            server = create_server(ep, profile)
            try:
                reason = await _drive(agent, server, journal, task_prompt=sc.task_prompt,
                                      instructions=profile.instructions, run_index=run_index,
                                      episode_id=opaque_id, seed=per_episode_seed)
            except ProviderFailed as e:
                recorder.write("provider_error", error=str(e), attempts=e.attempts)
                reason = EndReason.PROVIDER_ERROR
            if ep.ended is None:
                ep.end(reason or EndReason.END_TURN_WITHOUT_DONE)
            source = getattr(agent, "replay_source", None)
            if source is not None:
                from .providers.replay import recorded_calls

                _, recorded_final = recorded_calls(source)
                replay_same = bool(recorded_final) and recorded_final.get("state_hash") == ep.final["state_hash"]
                recorder.write("replay_check", source=str(source), same=replay_same,
                               recorded_state_hash=(recorded_final or {}).get("state_hash"),
                               replayed_state_hash=ep.final["state_hash"])
        final = ep.final or {}
        return EpisodeResult(sc.id, run_index, path, ep.ended or "", bool(final.get("success", {}).get("passed")),
                             ep.gate.passed, final, replay_same)
    finally:
        recorder.close()
        if recorder_sink is not None:
            recorder_sink.extend(recorder.events)


async def _drive(agent: Any, server: Any, journal: AgentJournal, **view: Any) -> str | None:
    """Connect the agent's session to the server and let the agent run.

    The session speaks JSON-RPC over in-memory streams (`legacy` mode, no response
    cache): unlike the direct in-process dispatcher, it holds nothing that leads back
    to the server. The view is built in the call, so this frame never holds it."""
    from mcp import Client

    failed: ProviderFailed | None = None
    async with Client(server, mode="legacy", cache=None) as client:
        try:
            return await agent.run(AgentView(tools=AgentTools(client.session, journal), journal=journal, **view))
        except ProviderFailed as e:  # raised here, not out of the transport's task group (an ExceptionGroup)
            failed = e
    raise failed
