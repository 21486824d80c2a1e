"""The provider protocol: what a provider is given for an episode, and what it implements.

A provider drives one episode through an `AgentView`, the agent's whole world:

    task_prompt   the scenario's task prompt (the first user turn)
    instructions  the profile's locked instructions (the system prompt)
    tools         the episode's MCP tools: `await tools.list()`, `await tools.call(name, args)`,
                  `tools.over` (no call works after the end), `tools.reported_done`
    journal       where it records its own turns: `journal.write("assistant" | "nudge" |
                  "provider_retry", **fields)`
    run_index     which run of this scenario (0-based)
    episode_id    an opaque, random id: it names nothing
    seed          an integer from the runner (--seed, the scenario and the run hashed together),
                  for providers that draw random numbers

The view has no field for the scenario, its ground truth, success criteria or
forbidden actions, and nothing it holds leads to them: the tools reach the
episode's server as MCP messages over a session, not as objects, and the journal
holds only what the provider wrote (tests/bridge/test_provider_view.py tries).
Keeping the answer from a model is therefore not left to each provider.

    class Provider(Protocol):        name, model, meta(), async run(view) -> end reason | None

Oracle baselines that fly the answer on purpose (`scripted`, `replay`) are
harness-side factories: the runner calls `for_episode(scenario, run_index)` with
the privileged scenario and runs the Provider it returns, through the same view
as everyone else.

    class OracleFactory(Protocol):   name, model, meta(), for_episode(scenario, run_index) -> Provider

A provider is code we run in our own process, so it is trusted: the view limits
what it is handed, not what Python lets code do (import the package, read files).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from a320bench.server.scenario.model import Scenario

    from ..agent_tools import AgentJournal, AgentTools


@dataclass(frozen=True, slots=True)
class AgentView:
    task_prompt: str
    instructions: str
    tools: AgentTools
    journal: AgentJournal
    run_index: int
    episode_id: str
    seed: int


class ProviderFailed(Exception):
    """The model provider failed after retries; the episode ends as provider_error."""

    def __init__(self, message: str, attempts: int):
        super().__init__(message)
        self.attempts = attempts


class Provider(Protocol):
    name: str  # recorded as meta.provider
    model: str | None  # recorded as meta.model

    def meta(self) -> dict[str, Any]:
        """Extra fields for the trajectory's meta event (sampling, versions)."""
        ...

    async def run(self, view: AgentView) -> str | None:
        """Drive the episode. Return None after report_done, else the end reason
        (e.g. end_turn_without_done). Raise ProviderFailed for provider faults."""
        ...


@runtime_checkable
class OracleFactory(Protocol):
    name: str
    model: str | None

    def meta(self) -> dict[str, Any]:
        ...

    def for_episode(self, scenario: Scenario, run_index: int) -> Provider:
        """The provider of one episode, built with privileged knowledge of it."""
        ...
