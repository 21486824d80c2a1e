"""Run one episode in-process: fresh aircraft and server, in-memory MCP, a provider.

fresh Aircraft -> setup -> inject -> gate -> fresh MCP server of the profile ->
provider loop -> success evaluation -> verdict (DESIGN.md "Episodes").

Every episode ends with a `final` event whose reason says what it counts as
(server/end_reason.py): the provider's own end, `provider_error` / `agent_error`
(an EpisodeEnded from the provider), `harness_error` (any other exception: a bug
of ours, never the agent's), `storage_error` (the trajectory could not be
written), or `interrupted` (the run was cancelled: Ctrl-C, SIGTERM).
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio

from a320bench.secrets import NO_SECRETS, Scrubber
from a320bench.server.end_reason import EndReason
from a320bench.server.scenario.model import Scenario
from a320bench.server.session import open_episode
from a320bench.server.trajectory import Recorder

from .errors import EpisodeEnded
from .providers.base import AgentTask
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
    error: str | None = None  # one line for the console when the episode did not end as the agent's result


def _leaf(e: BaseException) -> BaseException:
    """The first real exception inside (nested) exception groups: what went wrong, not the task group."""
    while isinstance(e, BaseExceptionGroup) and e.exceptions:
        e = e.exceptions[0]
    return e


def _harness_error(recorder: Recorder, e: BaseException) -> str:
    leaf = _leaf(e)
    recorder.write("harness_error", exception="".join(
        traceback.format_exception(type(leaf), leaf, leaf.__traceback__, limit=-8)))
    return f"{type(leaf).__name__}: {leaf}"


async def run_episode(
    sc: Scenario,
    provider: Any,
    *,
    profile: Any,
    path: Path | None,
    run_index: int = 0,
    episode_id: str = "",
    scrubber: Scrubber = NO_SECRETS,
    extra: dict[str, Any] | None = None,
    recorder_sink: list[dict[str, Any]] | None = None,
) -> EpisodeResult:
    recorder = Recorder(path, scrubber=scrubber)
    ep = None
    error: str | None = None
    try:
        try:
            ep = open_episode(
                sc, recorder, profile=profile.name, tools=list(profile.tools), instructions=profile.instructions,
                meta={"provider": provider.name, "model": provider.model, "run_index": run_index,
                      "episode_id": episode_id, "client": None, **provider.meta()},
            )
        except Exception as e:  # the setup crashed: a simulator bug, never the scenario's or the agent's
            error = _harness_error(recorder, e)
            recorder.write("final", scenario_id=sc.id, reason=EndReason.HARNESS_ERROR, error=error)
            return EpisodeResult(sc.id, run_index, path, EndReason.HARNESS_ERROR, False, False,
                                 recorder.events[-1], error=error)
        replay_same = None
        if ep.ended is None and recorder.failure is None:
            task = AgentTask(sc, sc.task_prompt, profile.instructions, run_index, extra=dict(extra or {}))
            reason, error = await _drive(provider, ep, recorder, profile, task)
            if ep.ended is None:
                ep.end(reason, error=error)
            if provider.name == "replay" and ep.ended != EndReason.HARNESS_ERROR:
                replay_same = _check_replay(recorder, task, ep)
        if recorder.failure is not None:  # the file lacks events: never a result, whatever the verdict says
            if ep.ended is None:
                ep.end(EndReason.STORAGE_ERROR, error=recorder.failure)
            error = recorder.failure
            reason = EndReason.STORAGE_ERROR
        else:
            reason = ep.ended or ""
        final = ep.final or {}
        return EpisodeResult(sc.id, run_index, path, reason, bool(final.get("success", {}).get("passed")),
                             ep.gate.passed, final, replay_same, error)
    except anyio.get_cancelled_exc_class():
        # Interrupted (the run was cancelled): never the agent's result; resume reruns it.
        if ep is not None and ep.ended is None:
            ep.end(EndReason.INTERRUPTED, error="the run was interrupted")
        raise
    finally:
        recorder.close()
        if recorder_sink is not None:
            recorder_sink.extend(recorder.events)


async def _drive(provider: Any, ep: Any, recorder: Recorder, profile: Any, task: AgentTask
                 ) -> tuple[str, str | None]:
    """The provider's loop over a fresh in-memory MCP connection: (end reason, error line or None)."""
    from mcp import Client

    from a320bench.server.surface.factory import create_server

    server = create_server(ep, profile)
    outcome: tuple[str, str | None] = (EndReason.END_TURN_WITHOUT_DONE, None)
    try:
        async with Client(server) as client:
            tools = AgentTools(client, recorder, lambda: ep.ended is not None or recorder.failure is not None,
                               server.record_malformed_call)
            # Handled inside the connection, so that a provider's exception is not wrapped in
            # the client's task group.
            try:
                outcome = (await provider.run(tools, task) or EndReason.AGENT_DONE, None)
            except EpisodeEnded as e:
                recorder.write(e.reason.value, error=str(e), attempts=e.attempts)
                outcome = (e.reason, f"{e.reason}: {e}")
            except Exception as e:  # a bug of ours (or an SDK's): never blamed on the agent
                outcome = (EndReason.HARNESS_ERROR, f"harness error: {_harness_error(recorder, e)}")
    except Exception as e:  # the connection itself failed
        outcome = (EndReason.HARNESS_ERROR, f"harness error: {_harness_error(recorder, e)}")
    if outcome[0] == EndReason.AGENT_DONE and ep.ended is None:  # the provider stopped without report_done
        outcome = (EndReason.END_TURN_WITHOUT_DONE, None)
    return outcome


def _check_replay(recorder: Recorder, task: AgentTask, ep: Any) -> bool:
    from .providers.replay import recorded_calls

    _, recorded_final = recorded_calls(task.extra["replay_path"])
    same = bool(recorded_final) and recorded_final.get("state_hash") == ep.final["state_hash"]
    recorder.write("replay_check", source=str(task.extra["replay_path"]), same=same,
                   recorded_state_hash=(recorded_final or {}).get("state_hash"),
                   replayed_state_hash=ep.final["state_hash"])
    return same
