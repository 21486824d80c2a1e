"""What each benchmark tool does and returns, and what the trajectory records."""

from __future__ import annotations

import pytest

from a320bench.server.sim import CONTROLS

from surface_bed import connect, finals, new_episode, tool_calls

pytestmark = pytest.mark.anyio


async def test_read_ecam_shows_the_caution_and_takes_no_simulated_time(mode):
    ep = new_episode()
    async with connect(ep, mode=mode) as c:
        r = await c.call_tool("read_ecam", {})
    assert not r.is_error
    assert r.structured_content == {
        "master_warning": False, "master_caution": True,
        "alerts": [{"title": "ELEC GEN 1 FAULT", "level": 2, "level_name": "CAUTION", "system": "ELEC",
                    "lines": ["-GEN 1.......OFF THEN ON"]}],
        "memos": [], "status_reminder": True, "sim_time_s": 0.0,
    }
    assert ep.sim_elapsed == 0.0


async def test_a_system_page_names_the_page_and_shows_its_values():
    ep = new_episode()
    async with connect(ep) as c:
        r = await c.call_tool("read_system_page", {"page": "ELEC"})
        status = await c.call_tool("read_system_page", {"page": "STATUS"})
    assert r.structured_content["page"] == "ELEC"
    assert r.structured_content["display"]["generators"]["GEN 1"]["fault_light"] is True
    assert r.structured_content["sim_time_s"] == 0.0
    assert "GEN 1" in status.structured_content["display"]["inop_sys"]


async def test_list_controls_gives_every_control_with_its_current_position():
    async with connect(new_episode()) as c:
        r = await c.call_tool("list_controls", {})
    controls = {x["name"]: x for x in r.structured_content["controls"]}
    assert list(controls) == list(CONTROLS)
    assert controls["GEN 1"]["position"] == "ON"
    assert controls["GEN 1"]["positions"] == list(CONTROLS["GEN 1"].positions)


async def test_set_control_moves_the_control_and_takes_two_seconds(mode):
    ep = new_episode()
    async with connect(ep, mode=mode) as c:
        r = await c.call_tool("set_control", {"control": "GEN 1", "position": "OFF"})
    assert r.structured_content == {
        "control": "GEN 1", "requested": "OFF", "previous": "ON", "position": "OFF", "changed": True,
        "momentary": False, "pushed": False, "action_time_s": 2.0, "sim_time_s": 2.0, "episode_over": False,
        "message": "GEN 1 moved from ON to OFF. The action took 2 s of simulated time; sim time is now 2 s.",
    }
    assert ep.ac.controls["GEN 1"] == "OFF"
    assert ep.sim_elapsed == 2.0


async def test_set_control_to_the_position_already_shown_reports_no_change_but_still_takes_time():
    ep = new_episode()
    async with connect(ep) as c:
        r = await c.call_tool("set_control", {"control": "GEN 2", "position": "ON"})
    assert (r.structured_content["changed"], r.structured_content["position"]) == (False, "ON")
    assert r.structured_content["message"].startswith("GEN 2 already was ON: nothing changed.")
    assert ep.sim_elapsed == 2.0


async def test_a_momentary_control_is_pushed_and_shows_its_rest_position_again():
    ep = new_episode()
    async with connect(ep) as c:
        r = await c.call_tool("set_control", {"control": "IDG 1", "position": "DISC"})
    s = r.structured_content
    assert (s["momentary"], s["pushed"], s["changed"], s["position"]) == (True, True, True, "NORM")
    assert s["message"].startswith("IDG 1 pushed (DISC); it springs back to NORM.")


async def test_wait_advances_simulated_time_by_the_seconds_asked(mode):
    ep = new_episode()
    async with connect(ep, mode=mode) as c:
        r = await c.call_tool("wait", {"seconds": 30})
    assert r.structured_content == {"requested_s": 30.0, "waited_s": 30.0, "sim_time_s": 30.0, "episode_over": False,
                                    "message": "Waited 30 s; sim time is now 30 s."}


async def test_the_procedure_clears_the_caution_and_report_done_ends_the_episode_without_revealing_the_outcome(mode):
    ep = new_episode()
    async with connect(ep, mode=mode) as c:
        for pos in ("OFF", "ON", "OFF"):
            await c.call_tool("set_control", {"control": "GEN 1", "position": pos})
        ecam = await c.call_tool("read_ecam", {})
        done = await c.call_tool("report_done", {"diagnosis": "GEN 1 fault", "actions_summary": "GEN 1 off, on, off"})
    assert ecam.structured_content["alerts"] == []
    assert done.structured_content == {
        "accepted": True, "message": "Report received. The episode is over; no further tool calls are accepted."}
    assert ep.ended == "agent_done"
    final = finals(ep)
    assert len(final) == 1
    assert final[0]["report_done"] == {"diagnosis": "GEN 1 fault", "actions_summary": "GEN 1 off, on, off"}
    assert final[0]["success"]["passed"] is True
    assert ep.recorder.events[-1]["type"] == "final"  # after report_done's own tool_call


async def test_the_trajectory_has_one_tool_call_event_per_call_with_sim_times():
    ep = new_episode()
    async with connect(ep) as c:
        await c.call_tool("read_ecam", {})
        await c.call_tool("set_control", {"control": "GEN 1", "position": "OFF"})
        await c.call_tool("set_control", {"control": "GEN 1", "position": "NOPE"})
        await c.call_tool("wait", {"seconds": 10})
    calls = tool_calls(ep)
    assert [(e["seq"], e["name"], e["is_error"], e["sim_time_before_s"], e["sim_time_after_s"]) for e in calls] == [
        (1, "read_ecam", False, 0.0, 0.0),
        (2, "set_control", False, 0.0, 2.0),
        (3, "set_control", True, 2.0, 2.0),
        (4, "wait", False, 2.0, 12.0),
    ]
    assert calls[1]["arguments"] == {"control": "GEN 1", "position": "OFF"}
    assert calls[1]["result"]["changed"] is True
    assert calls[2]["result"] == {"error": calls[2]["result"]["error"]}
    assert all(isinstance(e["wall_ms"], float) for e in calls)


async def test_concurrent_calls_act_one_at_a_time_in_a_recorded_order(mode):
    import anyio

    ep = new_episode()
    async with connect(ep, mode=mode) as c:
        async with anyio.create_task_group() as tg:
            for pos in ("OFF", "ON", "OFF", "ON"):
                tg.start_soon(c.call_tool, "set_control", {"control": "GEN 1", "position": pos})
            for _ in range(4):
                tg.start_soon(c.call_tool, "read_ecam", {})
    calls = tool_calls(ep)
    assert [e["seq"] for e in calls] == list(range(1, 9))
    assert ep.sim_elapsed == 8.0
    moves = [e for e in calls if e["name"] == "set_control"]
    assert [(e["sim_time_before_s"], e["sim_time_after_s"]) for e in moves] == [(0, 2), (2, 4), (4, 6), (6, 8)]
