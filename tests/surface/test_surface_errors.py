"""Agent mistakes give an is_error result that says what to change; nothing crashes the server."""

from __future__ import annotations

import pytest

from surface_bed import BENCHMARK_TOOLS, DEV_ONLY_TOOLS, connect, error_text, finals, new_episode, tool_calls

pytestmark = pytest.mark.anyio

BAD_CALLS = [
    # (tool, arguments, what the message must say)
    ("set_control", {"control": "GEN1", "position": "OFF"},
     "set_control: invalid arguments. 'control': 'GEN1' is not valid. Did you mean 'GEN 1'"),
    ("set_control", {"control": "GEN 1", "position": "DISC"},
     "set_control: control 'GEN 1' has no position 'DISC'; its positions are: ON, OFF"),
    ("set_control", {"control": "GEN 1", "position": "SIDEWAYS"},
     "set_control: invalid arguments. 'position': 'SIDEWAYS' is not valid."),
    ("set_control", {"control": 7, "position": "OFF"}, "set_control: invalid arguments. 'control': 7 is not valid."),
    ("set_control", {"control": "GEN 1"}, "set_control: invalid arguments. 'position' is required."),
    ("read_system_page", {"page": "ELECTRICAL"},
     "read_system_page: invalid arguments. 'page': 'ELECTRICAL' is not valid."),
    ("wait", {"seconds": -5}, "wait: invalid arguments. 'seconds' must be between 1 and 300 (got -5)."),
    ("wait", {"seconds": 0}, "wait: invalid arguments. 'seconds' must be between 1 and 300 (got 0)."),
    ("wait", {"seconds": 100000}, "wait: invalid arguments. 'seconds' must be between 1 and 300 (got 100000)."),
    ("wait", {"seconds": "soon"}, "wait: invalid arguments. 'seconds': input should be a valid number"),
    ("wait", {}, "wait: invalid arguments. 'seconds' is required."),
    ("report_done", {"diagnosis": "GEN 1"}, "report_done: invalid arguments. 'actions_summary' is required."),
    ("report_done", {"diagnosis": "", "actions_summary": "none"},
     "report_done: invalid arguments. 'diagnosis': string should have at least 1 character"),
    ("fly_the_plane", {}, "Unknown tool 'fly_the_plane'. The tools are: list_controls, read_ecam, read_system_page, "
                          "report_done, set_control, wait."),
    ("read_ecm", {}, "Unknown tool 'read_ecm'. Did you mean 'read_ecam'?"),
]


@pytest.mark.parametrize(("tool", "arguments", "says"), BAD_CALLS, ids=[f"{t}-{i}" for i, (t, _, _) in enumerate(BAD_CALLS)])
async def test_a_bad_call_is_an_error_result_that_says_what_to_change_and_changes_nothing(mode, tool, arguments, says):
    ep = new_episode()
    before = ep.ac.state_hash()
    async with connect(ep, mode=mode) as c:
        r = await c.call_tool(tool, arguments)
        assert says in error_text(r)
        ok = await c.call_tool("read_ecam", {})  # the server is still serving
    assert not ok.is_error
    assert ep.ac.state_hash() == before
    assert ep.ended is None
    call = tool_calls(ep)[0]
    assert (call["name"], call["arguments"], call["is_error"], call["sim_time_after_s"]) == (tool, arguments, True, 0.0)
    assert call["result"]["error"] == error_text(r)
    assert ep.tool_calls == 2  # a mistake uses a tool call


@pytest.mark.parametrize("tool", DEV_ONLY_TOOLS)
async def test_a_privileged_tool_on_the_benchmark_server_is_just_an_unknown_tool(tool):
    ep = new_episode()
    async with connect(ep) as c:
        r = await c.call_tool(tool, {"failure_id": "x", "start_state": "cruise", "name": "icing", "value": True})
    assert error_text(r).startswith(f"Unknown tool '{tool}'.")
    assert ep.ac.active_failures() == ["elec_gen1_gcu_trip"]


async def test_after_report_done_every_tool_answers_that_the_episode_is_over(mode):
    ep = new_episode()
    async with connect(ep, mode=mode) as c:
        await c.call_tool("report_done", {"diagnosis": "d", "actions_summary": "a"})
        for tool in [*BENCHMARK_TOOLS, "no_such_tool"]:
            r = await c.call_tool(tool, {"seconds": 5, "page": "ELEC", "control": "GEN 1", "position": "OFF",
                                         "diagnosis": "d", "actions_summary": "a"})
            assert error_text(r) == "The episode is over: you reported done. No further actions are possible."
    assert ep.ac.controls["GEN 1"] == "ON"
    assert [e["reason"] for e in finals(ep)] == ["agent_done"]
    assert len(tool_calls(ep)) == 1 + len(BENCHMARK_TOOLS) + 1


async def test_a_simulator_crash_is_a_harness_error_that_ends_the_episode_and_blames_no_one(monkeypatch):
    ep = new_episode()

    def broken(*_a, **_k):
        raise RuntimeError("table index out of range")

    monkeypatch.setattr(ep.ac, "list_controls", broken)
    async with connect(ep) as c:
        r = await c.call_tool("list_controls", {})
        after = await c.call_tool("read_ecam", {})
    assert error_text(r) == (
        "list_controls: the simulator failed while handling this call (RuntimeError: table index out of range). "
        "This is a fault of the benchmark harness, not your mistake; the episode has been stopped.")
    assert after.is_error
    call = tool_calls(ep)[0]
    assert call["result"]["harness_error"] is True
    assert "RuntimeError" in call["result"]["exception"]
    assert ep.ended == "harness_error"
    assert [e["reason"] for e in finals(ep)] == ["harness_error"]


async def test_a_crash_message_never_carries_a_failure_id(monkeypatch):
    ep = new_episode()

    def broken(*_a, **_k):
        raise KeyError("elec_gen1_gcu_trip")

    monkeypatch.setattr(ep.ac, "list_controls", broken)
    async with connect(ep) as c:
        r = await c.call_tool("list_controls", {})
    assert "elec_gen1_gcu_trip" not in error_text(r)
    assert "[redacted]" in error_text(r)


async def test_a_plain_value_error_from_the_simulator_is_a_harness_error_not_the_agents_invalid_command(monkeypatch):
    # Only typed bad input (SimError, bad arguments) is the agent's mistake: a simulator bug that
    # happens to raise ValueError must not score as an invalid command.
    ep = new_episode()

    def refuses(*_a, **_k):
        raise ValueError("GEN 1 cannot move while elec_gen1_gcu_trip is latched")

    monkeypatch.setattr(ep.ac, "set_control", refuses)
    async with connect(ep) as c:
        r = await c.call_tool("set_control", {"control": "GEN 1", "position": "OFF"})
    assert error_text(r) == (
        "set_control: the simulator failed while handling this call (ValueError: GEN 1 cannot move while "
        "[redacted] is latched). This is a fault of the benchmark harness, not your mistake; the episode has "
        "been stopped.")
    call = tool_calls(ep)[0]
    assert (call["is_error"], call["result"]["harness_error"]) == (True, True)
    assert [e["reason"] for e in finals(ep)] == ["harness_error"]
