"""Budgets: after the tool-call or simulated-time budget runs out, every tool errors and the final event says why."""

from __future__ import annotations

import pytest

from surface_bed import BENCHMARK_TOOLS, connect, elec_scenario, error_text, finals, new_episode, tool_calls

pytestmark = pytest.mark.anyio

ANY_ARGS = {"seconds": 5, "page": "ELEC", "control": "GEN 1", "position": "OFF", "diagnosis": "d",
            "actions_summary": "a"}


async def test_the_call_after_the_last_budgeted_one_is_refused_and_ends_the_episode(mode):
    ep = new_episode(elec_scenario(max_tool_calls=3))
    async with connect(ep, mode=mode) as c:
        for _ in range(3):
            assert not (await c.call_tool("read_ecam", {})).is_error
        r = await c.call_tool("set_control", {"control": "GEN 1", "position": "OFF"})
        assert error_text(r) == ("The episode is over: the tool-call budget (3 calls) is spent. "
                                 "No further actions are possible.")
        for tool in BENCHMARK_TOOLS:
            assert "the tool-call budget (3 calls) is spent" in error_text(await c.call_tool(tool, ANY_ARGS))
    assert ep.ac.controls["GEN 1"] == "ON"
    assert [f["reason"] for f in finals(ep)] == ["budget_tool_calls"]
    assert finals(ep)[0]["tool_calls_used"] == 3
    assert [e["is_error"] for e in tool_calls(ep)] == [False] * 3 + [True] * (1 + len(BENCHMARK_TOOLS))


async def test_a_wait_past_the_time_budget_stops_at_the_budget_and_ends_the_episode(mode):
    ep = new_episode(elec_scenario(max_sim_time_s=100))
    async with connect(ep, mode=mode) as c:
        r = await c.call_tool("wait", {"seconds": 300})
        assert r.structured_content == {
            "requested_s": 300.0, "waited_s": 100.0, "sim_time_s": 100.0, "episode_over": True,
            "message": "Waited 100 s; sim time is now 100 s. The simulated-time budget is spent: the episode is over."}
        after = await c.call_tool("read_ecam", {})
    assert error_text(after) == ("The episode is over: the simulated-time budget (100 s) is spent. "
                                 "No further actions are possible.")
    assert [f["reason"] for f in finals(ep)] == ["budget_sim_time"]


async def test_an_action_that_runs_into_the_time_budget_says_the_episode_is_over():
    ep = new_episode(elec_scenario(max_sim_time_s=1))
    async with connect(ep) as c:
        r = await c.call_tool("set_control", {"control": "GEN 1", "position": "OFF"})
    s = r.structured_content
    assert (s["changed"], s["action_time_s"], s["episode_over"]) == (True, 1.0, True)
    assert s["message"].endswith("The simulated-time budget is spent: the episode is over.")
    assert ep.ended == "budget_sim_time"
