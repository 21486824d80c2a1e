"""The random provider: seeded random legal actions. A floor for every model result."""

from __future__ import annotations

import random
from typing import Any

from ..tool_session import AgentTools
from .base import AgentTask

ACTIONS = 12


class RandomProvider:
    name = "random"
    model = None

    def __init__(self, seed: int = 0):
        self.seed = seed

    def meta(self) -> dict[str, Any]:
        return {"seed": self.seed}

    async def run(self, tools: AgentTools, task: AgentTask) -> str | None:
        # Seeded per (seed, scenario, run): reruns are reproducible, runs differ.
        rng = random.Random(f"{self.seed}:{task.scenario.id}:{task.run_index}")
        await tools.call("read_ecam")
        listing = await tools.call("list_controls")
        controls = listing.data.get("controls", []) if isinstance(listing.data, dict) else []
        for _ in range(ACTIONS):
            if tools.over or not controls:
                break
            c = rng.choice(controls)
            await tools.call("set_control", {"control": c["name"], "position": rng.choice(c["positions"])})
            if rng.random() < 0.3:
                await tools.call("wait", {"seconds": rng.choice([5, 10, 30])})
        if not tools.over:
            await tools.call("report_done", {"diagnosis": "unknown", "actions_summary": "random actions"})
        return None
