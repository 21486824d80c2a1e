"""Open an episode the same way for every path (in-process run, `serve`, validate).

prepare -> gate -> `meta` + `setup` events -> Episode (or the gate's refusal,
recorded as a `final` event with reason `invalid_scenario`).
"""

from __future__ import annotations

import functools
import hashlib
import json
import platform
from collections.abc import Callable
from importlib import metadata
from typing import Any

from .episode import Episode
from .scenario.harness import prepared
from .scenario.memo import per_scenario
from .scenario.model import Scenario
from .trajectory import Recorder


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@per_scenario
def scenario_hash(sc: Scenario) -> str:
    return sha256_text(json.dumps(sc.model_dump(mode="json"), sort_keys=True))


@functools.cache
def _versions() -> tuple[tuple[str, str | None], ...]:
    def v(dist: str) -> str | None:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return None

    return (("a320-bench", v("a320-bench")), ("mcp", v("mcp")), ("litellm", v("litellm")),
            ("pydantic", v("pydantic")), ("python", platform.python_version()))


def versions() -> dict[str, str | None]:
    """Versions recorded in every trajectory (read once per process: metadata lookups are slow)."""
    return dict(_versions())


def open_episode(
    sc: Scenario,
    recorder: Recorder,
    *,
    profile: str,
    tools: list[str],
    instructions: str,
    meta: dict[str, Any] | None = None,
    on_verdict: Callable[[dict[str, Any]], None] | None = None,
) -> Episode:
    """Set up, inject and gate; record meta and setup. The returned episode has
    `ended == "invalid_scenario"` (and a final event) when the gate failed."""
    recorder.write(
        "meta",
        scenario_id=sc.id,
        scenario=sc.model_dump(mode="json"),
        scenario_sha256=scenario_hash(sc),
        profile=profile,
        tools=tools,
        instructions_sha256=sha256_text(instructions),
        versions=versions(),
        **(meta or {}),
    )
    p = prepared(sc)
    ac, gate = p.aircraft, p.gate
    recorder.write(
        "setup",
        gate=gate.to_dict(),
        ground_truth=sc.ground_truth.model_dump(mode="json"),
        success_criteria=[c.model_dump(mode="json") for c in sc.success],
        budget=sc.budget.model_dump(mode="json"),
        start_state=sc.initial_state.start_state,
        sim_time_s=ac.sim_time,
        state_hash=p.state_hash,
    )
    ep = Episode(sc, ac, gate, recorder, on_verdict=on_verdict, with_captain="captain" in tools,
                 start_effects=p.effects)
    if not gate.passed:
        ep.end("invalid_scenario")
    return ep
