"""Run one episode in-process: fresh aircraft and server, in-memory MCP, a provider.

fresh Aircraft -> setup -> inject -> gate -> fresh MCP server of the profile ->
provider loop -> success evaluation -> verdict (docs/architecture.md "Episodes, trajectories and verdicts").

The provider sees the episode through an `AgentView` (providers/base.py): the
prompt, the instructions, an MCP session to the server and its journal, from its
own thread and event loop (agent_thread.py), so that nothing it holds leads here. An
oracle baseline gets its privileged knowledge here, on the harness side, when
`for_episode` builds it.

Every episode ends with a `final` event whose reason says what it counts as
(server/end_reason.py): the agent's own end, `provider_error` / `agent_error`
(an EpisodeEnded from the agent; a plug-in's own exception arrives as
PluginFailed), `harness_error` (any other exception: a bug of ours, never the
agent's), `storage_error` (the trajectory could not be written), or
`interrupted` (the run was cancelled: Ctrl-C, SIGTERM).
"""

from __future__ import annotations

import hashlib
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

from .agent_tools import AgentJournal, JournalRecorder
from .errors import EpisodeEnded, PluginFailed
from .providers.base import OnHarnessLoop, OracleFactory


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
    warning: str | None = None  # one line for the console about the agent's own failure (a plug-in's)


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
    seed: int = 0,
    scrubber: Scrubber = NO_SECRETS,
    recorder_sink: list[dict[str, Any]] | None = None,
    captain_factory: Any = None,
    learnings: Any = None,
) -> EpisodeResult:
    """`captain_factory(scenario, recorder)`: the crew profile's captain when it is not the scripted one
    (bridge/crew_llm.py); `learnings`: the learning track's store (server/learning/store.py)."""
    journal = AgentJournal()
    recorder = JournalRecorder(path, journal, scrubber=scrubber)
    opaque_id = agent_episode_id(seed, sc.id, run_index)
    per_episode_seed = episode_seed(seed, sc.id, run_index)
    ep = None
    error: str | None = None
    try:
        try:
            agent = provider.for_episode(sc, run_index) if isinstance(provider, OracleFactory) else provider
            extra = provider.meta() if hasattr(provider, "meta") else {}
            ep = open_episode(
                sc, recorder, profile=profile.name, tools=list(profile.tools), instructions=profile.instructions,
                meta={"provider": getattr(provider, "name", type(provider).__name__),
                      "model": getattr(provider, "model", None),
                      "reasoning_level": getattr(provider, "reasoning_level", None), "run_index": run_index,
                      "episode_id": episode_id, "agent_episode_id": opaque_id, "episode_seed": per_episode_seed,
                      "client": None, **companions(profile, captain_factory, learnings), **extra},
            )
        except Exception as e:  # the setup crashed: a simulator bug, never the scenario's or the agent's
            error = _harness_error(recorder, e)
            recorder.write("final", scenario_id=sc.id, reason=EndReason.HARNESS_ERROR, error=error)
            return EpisodeResult(sc.id, run_index, path, EndReason.HARNESS_ERROR, False, False,
                                 recorder.events[-1], error=error)
        replay_same = None
        warning = None
        if ep.ended is None and recorder.failure is None:
            captain = captain_factory(sc, recorder) if captain_factory is not None and "captain" in profile.tools \
                else None
            server_options = {"captain": captain, "learnings": learnings}
            reason, error, warning = await _drive(agent, ep, recorder, journal, profile, server_options,
                                                  task_prompt=sc.task_prompt, instructions=profile.instructions,
                                                  run_index=run_index, episode_id=opaque_id, seed=per_episode_seed)
            ep.finish(reason, error=error)
            recorder.flush_journal()  # what the agent wrote after the end (its usage, say) still counts
            source = getattr(agent, "replay_source", None)
            if source is not None and ep.ended != EndReason.HARNESS_ERROR:
                replay_same = _check_replay(recorder, source, ep)
        if recorder.failure is not None:  # the file lacks events: never a result, whatever the verdict says
            ep.finish(EndReason.STORAGE_ERROR, error=recorder.failure)
            error = recorder.failure
            reason = EndReason.STORAGE_ERROR
        else:
            reason = ep.ended or ""
        final = ep.final or {}
        return EpisodeResult(sc.id, run_index, path, reason, bool(final.get("success", {}).get("passed")),
                             ep.gate.passed, final, replay_same, error, warning)
    except anyio.get_cancelled_exc_class():
        # Interrupted (the run was cancelled): never the agent's result; resume reruns it. Unless the
        # cancel was the agent's own time limit (Inspect's, around its solver): its result, as a timeout.
        if ep is not None and ep.ended is None:
            own = provider.cancelled_end() if isinstance(provider, OnHarnessLoop) else None
            reason, error = own or (EndReason.INTERRUPTED, "the run was interrupted")
            ep.finish(reason, error=error)
        raise
    finally:
        recorder.close()
        if recorder_sink is not None:
            recorder_sink.extend(recorder.events)


async def _drive(agent: Any, ep: Any, recorder: Recorder, journal: AgentJournal, profile: Any,
                 server_options: dict[str, Any], **view: Any) -> tuple[str, str | None, str | None]:
    """The agent's loop over a fresh MCP connection to the episode's server: (end reason, error line or
    None, a warning line about a plug-in's failure or None).

    The agent runs on its own thread and event loop and speaks JSON-RPC to the server over a socket
    (bridge/agent_thread.py): nothing it can reach leads back here. Its view is built there."""
    from a320bench.server.surface.factory import create_server

    from .agent_thread import run_agent_here, serve_agent_apart

    server = create_server(ep, profile, **server_options)
    fly = run_agent_here if isinstance(agent, OnHarnessLoop) else serve_agent_apart
    try:
        run = await fly(server, agent, journal, view)
    except Exception as e:  # the server failed
        return EndReason.HARNESS_ERROR, f"harness error: {_harness_error(recorder, e)}", None
    finally:
        server.release()  # its connection is over: the episode need not wait for the server's collection
    e = run.error
    if isinstance(e, EpisodeEnded):
        extra = {"exception": e.exception} if isinstance(e, PluginFailed) and e.exception else {}
        recorder.write(e.reason.value, error=str(e), attempts=e.attempts, **extra)
        return e.reason, f"{e.reason}: {e}", str(e) if isinstance(e, PluginFailed) else None
    if e is not None or run.fault is not None:  # a bug of ours (or an SDK's): never blamed on the agent
        return EndReason.HARNESS_ERROR, f"harness error: {_harness_error(recorder, e or run.fault)}", None
    # A built-in may name its end (verify's replay does); a plug-in's return value is not used
    # (PluginAgent returns None). An end the server already decided (report_done, a budget) stands.
    if (run.returned or EndReason.AGENT_DONE) == EndReason.AGENT_DONE and ep.ended is None:
        return EndReason.END_TURN_WITHOUT_DONE, None, None  # the agent stopped without report_done
    return run.returned or EndReason.AGENT_DONE, None, None


def companions(profile: Any, captain_factory: Any, learnings: Any) -> dict[str, Any]:
    """What the meta event says of the crew profile's captain and the learning track's store."""
    out: dict[str, Any] = {}
    if "captain" in profile.tools:
        model = getattr(captain_factory, "model", None)
        out["captain"] = {"kind": "litellm" if captain_factory is not None else "scripted", "model": model}
    if learnings is not None:
        out["learning"] = learnings.describe()
    return out


def _check_replay(recorder: Recorder, source: Path, ep: Any) -> bool:
    from .providers.replay import recorded_calls

    _, recorded_final = recorded_calls(source)
    recorded_final = recorded_final or {}
    # The same state *and* the same verdict: a file whose success was edited is not "the same".
    same = all(recorded_final.get(k) == ep.final[k] for k in ("state_hash", "success"))
    recorder.write("replay_check", source=str(source), same=same,
                   recorded_state_hash=recorded_final.get("state_hash"),
                   replayed_state_hash=ep.final["state_hash"])
    return same
