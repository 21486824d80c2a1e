"""An in-process episode is freed as soon as `run_episode` returns: the SDK's server is a reference
cycle, and an episode it held would wait for a garbage collection (its aircraft, watches and
recorder walked by every collection until then)."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import anyio

from a320bench.bridge import inprocess_episode
from a320bench.bridge.providers.scripted import ScriptedProvider
from a320bench.server.scenario.loader import load
from a320bench.server.surface.profiles import load_profile

ROOT = Path(__file__).resolve().parents[2]


def test_an_episode_is_freed_when_it_returns_without_a_garbage_collection(monkeypatch, tmp_path):
    aircraft: list[weakref.ref] = []
    real = inprocess_episode.open_episode

    def keep_a_weak_ref(*args, **kwargs):
        ep = real(*args, **kwargs)
        aircraft.append(weakref.ref(ep.ac))
        return ep

    monkeypatch.setattr(inprocess_episode, "open_episode", keep_a_weak_ref)
    sc = load(ROOT / "scenarios/elec/gen1_fault_reset_fails.yaml")
    gc.collect()
    gc.disable()
    try:
        result = anyio.run(lambda: inprocess_episode.run_episode(
            sc, ScriptedProvider(), profile=load_profile("benchmark"), path=tmp_path / "t.jsonl"))
        assert result.reason == "agent_done" and result.final["tool_calls_used"] > 3
        assert len(aircraft) == 1 and aircraft[0]() is None
    finally:
        gc.enable()
