"""What every provider implements, and what it is given."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from a320bench.server.scenario.model import Scenario

from ..errors import AgentFailed, EpisodeEnded, ProviderFailed  # noqa: F401  (what providers raise)
from ..tool_session import AgentTools


@dataclass
class AgentTask:
    scenario: Scenario  # the scripted and replay baselines read ground truth from it; models never see it
    task_prompt: str
    instructions: str
    run_index: int = 0
    seed: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


class Provider(Protocol):
    name: str  # recorded as meta.provider
    model: str | None  # recorded as meta.model

    def meta(self) -> dict[str, Any]:
        """Extra fields for the trajectory's meta event (sampling, versions)."""
        ...

    async def run(self, tools: AgentTools, task: AgentTask) -> str | None:
        """Drive the episode. Return None after report_done, else the end reason
        (e.g. end_turn_without_done). Raise an EpisodeEnded (ProviderFailed, AgentFailed)
        to end the episode for a reason outside the tools; anything else is a harness error."""
        ...
