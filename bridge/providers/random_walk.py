"""The random provider: seeded random legal actions. A floor for every model result."""

from __future__ import annotations

import random
from typing import Any

from .base import AgentConfig, AgentView

ACTIONS = 12


class RandomProvider:
    name = "random"
    model = None

    def __init__(self, seed: int = 0):
        self.seed = seed  # --seed; the runner derives each episode's view.seed from it

    @classmethod
    def from_config(cls, config: AgentConfig) -> RandomProvider:
        return cls(seed=config.seed)

    def meta(self) -> dict[str, Any]:
        return {"seed": self.seed}

    async def run(self, view: AgentView) -> str | None:
        rng = random.Random(view.seed)  # per (seed, scenario, run): reruns are reproducible, runs differ
        tools = view.tools
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
