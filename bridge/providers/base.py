"""The agent protocol: what an agent is given for an episode, and what it implements.

Every agent -- the built-in baselines, the litellm loop and a researcher's own
plug-in (`run --agent package.module:Class`, `--agent path/to/file.py:Class`, or
a name an installed package registers in the `a320bench.agents` entry-point
group) -- is found through one registry (providers/registry.py) and drives an
episode the same way, through an `AgentView`, the agent's whole world:

    task_prompt   the scenario's task prompt (the first user turn)
    instructions  the profile's locked instructions (the system prompt)
    tools         the episode's MCP tools: `await tools.list()`, `await tools.call(name, args)`
                  -> ToolOutcome(text, data, is_error), `await tools.malformed(name, raw)` (a
                  model's tool call whose arguments are not a JSON object: it still counts),
                  `await tools.read_resource(uri)` (counts too), `tools.over` (no call works
                  after the end), `tools.reported_done`
    journal       where it records its own turns: `journal.write("assistant" | "nudge" |
                  "provider_retry" | "usage", **fields)`
    run_index     which run of this scenario (0-based)
    episode_id    an opaque, random id: it names nothing
    seed          an integer from the runner (--seed, the scenario and the run hashed together),
                  for agents that draw random numbers
    add_usage(input_tokens=, output_tokens=, cost_usd=)   report what the agent spent (a
    add_cost_usd(usd)                                     `usage` event; `score` sums them)

The view has no field for the scenario, its ground truth, success criteria or
forbidden actions, and no reference leads to them. The agent runs on its own
thread with its own event loop (bridge/agent_thread.py), and its tools reach the
episode's server, on run's loop, as JSON-RPC lines over a socket: following
attributes, closures, bound methods, tasks and their callbacks, coroutines,
frames and their callers, the event loop and the thread object from the view
leads only to the agent's own side. The journal holds only what the agent wrote.
tests/bridge/test_provider_view.py walks all of that, between tool calls, while
one is in flight and from every task of the agent's loop, and finds no scenario,
episode, server, recorder or verdict and no failure id. Keeping the answer from a
model is therefore not left to each agent.

The protocol, in full (only `run` is required):

    class MyAgent:
        model: str | None = None        # recorded as meta.model (default: --model)
        def meta(self) -> dict: ...     # extra fields for the trajectory's meta event
        @classmethod
        def from_config(cls, config: AgentConfig) -> MyAgent: ...   # else MyAgent() is called
        async def run(self, view: AgentView) -> None: ...           # drive the episode, return when done

`run` returns when the agent is done; its return value is not used. The episode
then ends `agent_done` if the agent called report_done, else `end_turn_without_done`
(a budget may have ended it first). To end it for a reason outside the tools,
raise an EpisodeEnded (ProviderFailed: the model provider failed; AgentFailed: the
conversation broke the model). Any other exception is the agent's own failure if
the agent is a plug-in (`agent_error`, one line on the console), and a bug of ours
if it is a built-in (`harness_error`): bridge/errors.py draws the tree.

Oracle baselines that fly the answer on purpose (`scripted`, `replay`) are
harness-side factories: the runner calls `for_episode(scenario, run_index)` with
the privileged scenario and runs the agent it returns, through the same view as
everyone else. Only built-ins may be oracles.

    class OracleFactory(Protocol):   model, meta(), for_episode(scenario, run_index) -> Agent

An agent is still code we run in our own process: the wall is the references it
is handed, not what Python lets any code do. Hostile code can go around it --
`gc.get_objects()`, `sys._current_frames()` (run's own thread's frames hold the
scenario), importing the package or any module, a function's `__globals__` (a
module's namespace leads to every other), reading the scenario files. Those are not protected against.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from a320bench.server.scenario.model import Scenario

    from ..agent_tools import AgentJournal, AgentTools

from ..errors import AgentFailed, EpisodeEnded, ProviderFailed  # noqa: F401  (what agents raise)


@dataclass(frozen=True, slots=True)
class AgentView:
    task_prompt: str
    instructions: str
    tools: AgentTools
    journal: AgentJournal
    run_index: int
    episode_id: str
    seed: int

    def add_usage(self, input_tokens: int = 0, output_tokens: int = 0, cost_usd: float | None = None) -> None:
        """Record tokens (and optionally the cost in US dollars) the agent spent: a `usage` event."""
        for name, n in (("input_tokens", input_tokens), ("output_tokens", output_tokens)):
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise ValueError(f"add_usage: {name} must be a whole number of tokens, 0 or more (got {n!r})")
        fields: dict[str, Any] = {"input_tokens": input_tokens, "output_tokens": output_tokens}
        if cost_usd is not None:
            fields["cost_usd"] = _usd(cost_usd, "add_usage: cost_usd")
        self.journal.write("usage", **fields)

    def add_cost_usd(self, usd: float) -> None:
        """Record money the agent spent, in US dollars: a `usage` event."""
        self.journal.write("usage", cost_usd=_usd(usd, "add_cost_usd"))


def _usd(x: Any, where: str) -> float:
    if not isinstance(x, (int, float)) or isinstance(x, bool) or not math.isfinite(x) or x < 0:
        raise ValueError(f"{where} must be a finite amount of US dollars, 0 or more (got {x!r})")
    return float(x)


@dataclass(frozen=True, slots=True)
class AgentConfig:
    """What `run` hands an agent class's `from_config`: the command line's settings for agents."""

    model: str | None = None  # --model
    reasoning_level: str | None = None  # --reasoning-level (the agent decides what it means)
    sampling: dict[str, Any] = field(default_factory=dict)  # --sampling
    seed: int = 0  # --seed
    max_retries: int = 3  # --max-retries
    request_timeout_s: float = 120.0  # --request-timeout
    replay_from: str | None = None  # --replay-from (the replay baseline)
    replay_of: str | None = None  # --replay-of


class Agent(Protocol):
    async def run(self, view: AgentView) -> Any:
        """Drive the episode; return when done (the return value is not used)."""
        ...


class OnHarnessLoop:
    """A built-in whose run() must share the harness's event loop and context: Inspect's solver
    (bridge/inspect/task.py), whose model and sample live there and which holds the sample (its id is
    the scenario's) anyway. It runs in-memory on run's loop, without the agent thread's isolation.
    A plug-in cannot be one: the registry wraps every plug-in in a PluginAgent."""

    def cancelled_end(self) -> tuple[str, str] | None:
        """When the harness's loop is cancelled around this agent: (end reason, error line) if the
        cancel was the agent's own wall-clock limit (a result, as a client's timeout is), None if
        the run itself was stopped (an interrupt: never the agent's result)."""
        return None


@runtime_checkable
class OracleFactory(Protocol):
    model: str | None

    def meta(self) -> dict[str, Any]:
        ...

    def for_episode(self, scenario: Scenario, run_index: int) -> Agent:
        """The agent of one episode, built with privileged knowledge of it."""
        ...
