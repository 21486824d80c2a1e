"""The Inspect AI task `a320bench.inspect:a320`: the catalogue, flown by Inspect's own model providers.

    inspect eval a320bench/inspect.py@a320 --model openai/gpt-4.1 [-T scenarios=elec] [--epochs 5]
    inspect_ai.eval(a320(scenarios=[...]), model="mockllm/model")

Each sample is one scenario (id = scenario id, input = its task prompt). The solver flies
one episode through our own harness (bridge/inprocess_episode.run_episode: fresh aircraft,
setup, injection, validity gate, the profile's MCP server over the in-memory transport,
the verdict), with Inspect's model as the agent: `InspectAgent` offers the model the
benchmark profile's tools as Inspect ToolInfo, asks `get_model().generate`, calls the tools
it chose over MCP, and keeps the conversation in the sample's messages. It knows no more
of the scenario than any provider (providers/base.py: an AgentView).

The scorer is ours: the episode's trajectory (kept in the sample's store, and written to
`out/<scenario>/inspect-<model>__runNNN.jsonl` when `out` is given) scored by
bridge/score/scorecard.py; the Score's value holds compliant_success, outcome,
completion and the unsafe counts. A scenario whose gate fails never reaches the model; such an episode, like one a fault of ours or of the
infrastructure cut short, is a sample error for Inspect, never a score -- as is every episode `score` leaves out of
its means (a profile that is not scored, such as dev; an eval stopped mid-sample: `interrupted`).
Inspect's token and message limits are the agent's budget: the episode ends `agent_error`, the agent's result, scored;
its time and working limits are the agent's wall-clock time: `client_timeout`, as for an external client, scored.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageTool, ChatMessageUser, get_model
from inspect_ai.scorer import Score, Target, mean, scorer
from inspect_ai.solver import Generate, TaskState, solver
from inspect_ai.tool import ToolInfo, ToolParams
from inspect_ai.util import LimitExceededError, sample_limits

from a320bench.server.end_reason import EndReason

from ..errors import AgentFailed, ProviderFailed
from ..providers.base import OnHarnessLoop
from .export import HEADLINE

TRAJECTORY = "a320bench_trajectory"
MAX_TURNS = 60  # a model that never stops: the tool budget ends the episode well before this
NUDGE = "Continue. When you have finished, call report_done."


@task
def a320(scenarios: str | list[str] | None = None, profile: str = "benchmark", out: str | None = None) -> Task:
    """The a320-bench catalogue (or `scenarios`: files, folders, globs, or folders of the built-in
    catalogue such as `elec`) as an Inspect task."""
    from a320bench.server.scenario.loader import load_all

    from ..selection import builtin_scenarios_dir, scenario_files

    specs = [scenarios] if isinstance(scenarios, str) else scenarios
    # `inspect eval` runs a task from its file's folder: a name of the built-in catalogue still works.
    specs = [s if Path(s).exists() or not (builtin_scenarios_dir() / s).exists() else str(builtin_scenarios_dir() / s)
             for s in specs or []] or None
    loaded, problems = load_all(scenario_files(specs))
    if problems:
        raise ValueError("; ".join(str(p) for p in problems))
    by_id = {sc.id: sc for sc in loaded}
    dataset = [Sample(id=sc.id, input=sc.task_prompt, metadata={"system": sc.system, "phase": sc.phase})
               for sc in loaded]
    return Task(dataset=dataset, solver=fly_episode(by_id, profile, out), scorer=a320_scorer(), name="a320")


@solver
def fly_episode(scenarios: dict[str, Any], profile_name: str = "benchmark", out: str | None = None):
    """One episode through the privileged harness, with Inspect's model as the agent."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        from a320bench.server.end_reason import counts_as_result
        from a320bench.server.surface.profiles import load_profile
        from a320bench.server.trajectory import changed_aircraft

        from ..inprocess_episode import run_episode
        from ..selection import source_label

        sc = scenarios[str(state.sample_id)]
        profile = load_profile(profile_name)
        run_index = state.epoch - 1
        agent = InspectAgent(state)
        # Named as `run` names its files: models sharing `out` (`--model a,b`) never overwrite each other's.
        name = f"{source_label(agent.name, agent.model)}__run{run_index:03d}"
        path = Path(out) / sc.id / f"{name}.jsonl" if out else None
        if path is not None and path.exists():  # an earlier eval's episode: never overwritten
            raise EpisodeNotScored(f"{path} exists (an earlier eval of {agent.model} into out={out}); nothing flown, "
                                   "nothing overwritten: give another out= or move that folder away")
        events: list[dict[str, Any]] = []
        try:
            res = await run_episode(sc, agent, profile=profile, path=path, run_index=run_index,
                                    episode_id=f"{sc.id}/{name}", recorder_sink=events)
        finally:  # an Inspect time limit cancels the solver: the scorer still scores the episode
            state.store.set(TRAJECTORY, events)
        state.completed = True
        changed = any(changed_aircraft(e) for e in events)
        if not counts_as_result(res.reason, changed):
            # An invalid scenario, a bug of ours, an infrastructure fault: Inspect records a sample error
            # (and `--retry-on-error` flies it again), never a score.
            raise EpisodeNotScored(f"{sc.id}: the episode ended {res.reason}" + (f" ({res.error})" if res.error else "")
                                   + "; it is not the agent's result")
        return state

    return solve


class EpisodeNotScored(RuntimeError):
    """The episode did not end as the agent's result (server/end_reason.py): a sample error for Inspect."""


class InspectAgent(OnHarnessLoop):
    """A provider (providers/base.py) whose model is Inspect's: what the model says goes into the
    sample's messages and into our trajectory's `assistant` events."""

    name = "inspect"

    def __init__(self, state: TaskState):
        self.state = state
        self.model = str(state.model)

    def meta(self) -> dict[str, Any]:
        return {"inspect_model": self.model}

    def cancelled_end(self) -> tuple[str, str] | None:
        """Inspect's time or working limit cancels the solver: the agent ran out of its wall-clock
        time, as a client past `--client-timeout` does (the agent's result). Any other cancel (Ctrl-C,
        Inspect stopping the eval) finds no limit exceeded: an interrupt."""
        try:
            limits = sample_limits()
        except RuntimeError:  # no running sample
            return None
        for what, limit in (("time", limits.time), ("working time", limits.working)):
            if limit.limit is not None and limit.usage >= limit.limit:
                return EndReason.CLIENT_TIMEOUT, f"Inspect {what} limit of {limit.limit:g} s"
        return None

    async def run(self, view: Any) -> str | None:
        model = get_model()
        tools = [ToolInfo(name=t.name, description=t.description or "", parameters=ToolParams.model_validate(
            {k: v for k, v in t.input_schema.items() if k in ("type", "properties", "required")}))
            for t in await view.tools.list()]
        messages: list[Any] = [ChatMessageSystem(content=view.instructions), ChatMessageUser(content=view.task_prompt)]
        try:
            return await self._loop(view, model, tools, messages)
        finally:
            self.state.messages = messages  # the conversation, for Inspect's log

    async def _loop(self, view: Any, model: Any, tools: list[ToolInfo], messages: list[Any]) -> str | None:
        nudged = False
        for turn in range(1, MAX_TURNS + 1):
            try:
                output = await model.generate(messages, tools=tools)
            except LimitExceededError as e:
                # Inspect's token or message limit is the agent's budget: its result, as a budget end is
                raise AgentFailed(f"Inspect {e.type} limit: {e.message}") from None
            except Exception as e:  # the model's API, after Inspect's own retries: as a litellm provider's fault
                text = " ".join(str(e).split())[:300]
                raise ProviderFailed(f"Inspect model {type(e).__name__}: {text}") from None
            msg = output.message
            calls = list(msg.tool_calls or [])
            usage = output.usage
            view.journal.write("assistant", turn=turn, text=msg.text or "",
                               tool_calls=[{"id": c.id, "name": c.function, "arguments": json.dumps(c.arguments)}
                                           for c in calls],
                               usage={"input_tokens": usage.input_tokens if usage else None,
                                      "output_tokens": usage.output_tokens if usage else None},
                               cost_usd=None, finish_reason=output.stop_reason)
            messages.append(msg)
            if not calls:
                if nudged:
                    return EndReason.END_TURN_WITHOUT_DONE
                nudged = True
                view.journal.write("nudge", text=NUDGE)
                messages.append(ChatMessageUser(content=NUDGE))
                continue
            for call in calls:
                outcome = await view.tools.call(call.function, call.arguments)
                messages.append(ChatMessageTool(content=outcome.for_model(), tool_call_id=call.id,
                                                function=call.function))
                if view.tools.over:
                    self.state.output = output
                    return None
        return EndReason.END_TURN_WITHOUT_DONE


@scorer(metrics={k: [mean()] for k in ("compliant_success", "outcome", "completion")})
def a320_scorer():
    """Our scorer over the episode's trajectory: the same ScoreCard as `a320-bench score`."""

    async def score(state: TaskState, target: Target) -> Score:
        from ..score.scorecard import score_events

        events = state.store.get(TRAJECTORY) or []
        card = score_events(events, path=f"inspect:{state.sample_id}:{state.epoch}")
        if not card.valid:  # what `score` leaves out of its means (another profile, an interrupt) is no score here
            ended = "" if card.reason == card.status else f" (the episode ended {card.reason})"
            raise EpisodeNotScored(f"{card.scenario_id}: status {card.status}{ended}; score leaves it out of every mean")
        final = next((e for e in reversed(events) if e.get("type") == "final"), {})
        report = final.get("report_done") if isinstance(final.get("report_done"), dict) else {}
        values = card.to_dict()
        return Score(value={k: values[k] for k in HEADLINE}, answer=report.get("diagnosis"),
                     explanation=f"ended {card.reason}; status {card.status}", metadata=values)

    return score
