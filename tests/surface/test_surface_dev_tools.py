"""The dev profile's privileged tools: for people probing the simulator by hand."""

from __future__ import annotations

import pytest

from a320bench.server.sim import FAILURES

from surface_bed import connect, error_text, new_episode, tool_calls

pytestmark = pytest.mark.anyio


async def test_inject_and_clear_a_failure_show_in_active_failures(mode):
    ep = new_episode(profile="dev")
    async with connect(ep, "dev", mode) as c:
        r = await c.call_tool("inject_failure", {"failure_id": "elec_gen2_gcu_trip"})
        assert r.structured_content["active_failures"] == ["elec_gen1_gcu_trip", "elec_gen2_gcu_trip"]
        await c.call_tool("clear_failure", {"failure_id": "elec_gen1_gcu_trip"})
        active = await c.call_tool("active_failures", {})
    assert active.structured_content == {"failures": ["elec_gen2_gcu_trip"], "sim_time_s": 0.0}
    assert [e["name"] for e in tool_calls(ep)] == ["inject_failure", "clear_failure", "active_failures"]


async def test_an_injected_failure_shows_on_the_ecam_after_time_passes():
    ep = new_episode(profile="dev")
    async with connect(ep, "dev") as c:
        await c.call_tool("inject_failure", {"failure_id": "elec_gen2_gcu_trip"})
        await c.call_tool("wait", {"seconds": 3})
        ecam = await c.call_tool("read_ecam", {})
    assert "ELEC GEN 2 FAULT" in [a["title"] for a in ecam.structured_content["alerts"]]


async def test_list_failures_gives_the_whole_catalogue():
    async with connect(new_episode(profile="dev"), "dev") as c:
        r = await c.call_tool("list_failures", {})
    assert [f["id"] for f in r.structured_content["failures"]] == list(FAILURES)


async def test_set_world_sets_an_outside_condition():
    ep = new_episode(profile="dev")
    async with connect(ep, "dev") as c:
        r = await c.call_tool("set_world", {"name": "gpu_available", "value": True})
        bad = await c.call_tool("set_world", {"name": "weather", "value": True})
    assert r.structured_content["value"] is True
    assert ep.ac.world.gpu_available is True
    assert "'name': 'weather' is not valid." in error_text(bad)


async def test_reset_rebuilds_the_aircraft_without_failures_and_restarts_the_clock():
    ep = new_episode(profile="dev")
    async with connect(ep, "dev") as c:
        await c.call_tool("wait", {"seconds": 20})
        r = await c.call_tool("reset", {"start_state": "cold_dark"})
        ecam = await c.call_tool("read_ecam", {})
    assert r.structured_content["sim_time_s"] == 0.0
    assert ep.ac.active_failures() == []
    assert "ELEC GEN 1 FAULT" not in [a["title"] for a in ecam.structured_content["alerts"]]


async def test_an_unknown_failure_id_lists_the_valid_ones():
    async with connect(new_episode(profile="dev"), "dev") as c:
        r = await c.call_tool("inject_failure", {"failure_id": "elec_gen3_gcu_trip"})
    text = error_text(r)
    assert text.startswith("inject_failure: invalid arguments. 'failure_id': 'elec_gen3_gcu_trip' is not valid. "
                           "Did you mean 'elec_gen")
    assert all(fid in text for fid in FAILURES)
