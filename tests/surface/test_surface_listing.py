"""What a client sees when it connects: tools, schemas, annotations, instructions, prompt, resources."""

from __future__ import annotations

import json

import pytest

from a320bench.server.episode import ACTION_TIME_S, MAX_WAIT_S, MIN_WAIT_S
from a320bench.server.sim import CONTROLS, FAILURES, PAGES, START_STATES
from a320bench.server.surface import load_profile

from surface_bed import BENCHMARK_TOOLS, DEV_ONLY_TOOLS, connect, elec_scenario, new_episode, tool_calls

pytestmark = pytest.mark.anyio


async def _tools(profile: str, mode: str) -> dict:
    async with connect(new_episode(profile=profile), profile, mode) as c:
        return {t.name: t for t in (await c.list_tools()).tools}


async def test_benchmark_lists_exactly_the_six_agent_tools(mode):
    assert list(await _tools("benchmark", mode)) == BENCHMARK_TOOLS


async def test_dev_lists_exactly_the_twelve_tools(mode):
    assert list(await _tools("dev", mode)) == BENCHMARK_TOOLS + DEV_ONLY_TOOLS


async def test_input_schemas_enumerate_controls_positions_and_pages_from_the_catalogues():
    tools = await _tools("benchmark", "auto")
    props = tools["set_control"].input_schema["properties"]
    assert props["control"]["enum"] == list(CONTROLS)
    assert set(props["position"]["enum"]) == {p for c in CONTROLS.values() for p in c.positions}
    assert tools["set_control"].input_schema["required"] == ["control", "position"]
    assert tools["read_system_page"].input_schema["properties"]["page"]["enum"] == list(PAGES)
    seconds = tools["wait"].input_schema["properties"]["seconds"]
    assert (seconds["type"], seconds["minimum"], seconds["maximum"]) == ("number", MIN_WAIT_S, MAX_WAIT_S)
    assert tools["report_done"].input_schema["required"] == ["diagnosis", "actions_summary"]


async def test_dev_schemas_enumerate_failures_and_start_states():
    tools = await _tools("dev", "auto")
    assert tools["inject_failure"].input_schema["properties"]["failure_id"]["enum"] == list(FAILURES)
    assert tools["clear_failure"].input_schema["properties"]["failure_id"]["enum"] == list(FAILURES)
    assert tools["reset"].input_schema["properties"]["start_state"]["enum"] == list(START_STATES)


async def test_every_tool_has_an_output_schema_and_a_title():
    for t in (await _tools("dev", "auto")).values():
        assert t.output_schema and t.output_schema["type"] == "object", t.name
        assert t.title and t.annotations.title == t.title, t.name


async def test_annotations_say_reads_are_read_only_and_actions_are_destructive():
    tools = await _tools("dev", "legacy")
    ann = {n: t.annotations for n, t in tools.items()}
    for name in ("read_ecam", "read_system_page", "list_controls", "list_failures", "active_failures"):
        assert (ann[name].read_only_hint, ann[name].idempotent_hint) == (True, True), name
        assert ann[name].destructive_hint is None, name
    for name in ("set_control", "report_done", "inject_failure", "reset"):
        assert (ann[name].read_only_hint, ann[name].destructive_hint) == (False, True), name
    assert (ann["wait"].read_only_hint, ann["wait"].destructive_hint, ann["wait"].idempotent_hint) == (False, False, False)
    assert ann["set_control"].idempotent_hint is False
    assert ann["report_done"].idempotent_hint is False
    assert all(a.open_world_hint is False for a in ann.values())


async def test_descriptions_tell_the_agent_how_simulated_time_passes():
    tools = await _tools("benchmark", "auto")
    assert f"Takes {ACTION_TIME_S:g} s of simulated time" in tools["set_control"].description
    for name in ("read_ecam", "read_system_page", "list_controls"):
        assert "no simulated time" in tools[name].description, name
    assert f"{MIN_WAIT_S:g} to {MAX_WAIT_S:g} s per call" in tools["wait"].description
    assert "ends the episode" in tools["report_done"].description


async def test_the_server_sends_the_profiles_locked_instructions(mode):
    for profile in ("benchmark", "dev"):
        async with connect(new_episode(profile=profile), profile, mode) as c:
            assert c.instructions == load_profile(profile).instructions


async def test_the_task_prompt_is_the_scenarios_task_prompt(mode):
    ep = new_episode()
    async with connect(ep, "benchmark", mode) as c:
        prompts = (await c.list_prompts()).prompts
        assert [p.name for p in prompts] == ["task"]
        got = await c.get_prompt("task")
        assert [(m.role, m.content.text) for m in got.messages] == [("user", ep.scenario.task_prompt)]


async def test_the_ecam_and_every_system_page_are_readable_resources(mode):
    async with connect(new_episode(), "benchmark", mode) as c:
        resources = (await c.list_resources()).resources
        uris = [str(r.uri) for r in resources]
        assert uris[0] == "a320://ecam"
        assert len(uris) == 1 + len(PAGES)
        assert "a320://pages/f-ctl" in uris
        assert all(r.mime_type == "application/json" for r in resources)
        ecam = await c.read_resource("a320://ecam")
        assert '"ELEC GEN 1 FAULT"' in ecam.contents[0].text
        elec = await c.read_resource("a320://pages/elec")
        assert '"page": "ELEC"' in elec.contents[0].text


async def test_reading_a_resource_counts_against_the_budget_is_recorded_and_takes_no_simulated_time():
    """Issue 9 finding 8: resources were neither counted nor recorded."""
    ep = new_episode()
    async with connect(ep) as c:
        uris = [str(r.uri) for r in (await c.list_resources()).resources]
        for uri in uris:
            await c.read_resource(uri)
    assert (ep.tool_calls, ep.sim_elapsed) == (len(uris), 0.0)
    calls = tool_calls(ep)
    assert [(e["name"], e["arguments"], e["is_error"]) for e in calls] == [
        ("read_resource", {"uri": uri}, False) for uri in uris]
    assert calls[0]["result"]["alerts"][0]["title"] == "ELEC GEN 1 FAULT"


async def test_a_resource_is_refused_after_the_end_and_when_the_budget_is_spent():
    from mcp.shared.exceptions import MCPError

    ep = new_episode(elec_scenario(max_tool_calls=2))
    async with connect(ep) as c:
        await c.read_resource("a320://ecam")
        await c.read_resource("a320://pages/elec")
        with pytest.raises(MCPError, match="tool-call budget"):
            await c.read_resource("a320://ecam")
        assert ep.ended == "budget_tool_calls"
        with pytest.raises(MCPError, match="The episode is over"):
            await c.read_resource("a320://pages/hyd")
    names = [(e["type"], e.get("name"), e.get("is_error")) for e in ep.recorder.events[2:]]
    assert names == [("tool_call", "read_resource", False), ("tool_call", "read_resource", False),
                     ("tool_call", "read_resource", True), ("final", None, None),
                     ("tool_call", "read_resource", True)]


async def test_no_tool_schema_or_description_names_an_alert_or_a_failure():
    # The static surface is the same for every scenario: it must not prime the agent about any of them.
    from a320bench.server.sim import ALERT_TITLES

    for profile in ("benchmark", "dev"):
        text = json.dumps([t.model_dump(mode="json") for t in (await _tools(profile, "auto")).values()])
        assert [t for t in ALERT_TITLES if t in text and t not in CONTROLS] == []  # ENG 1 FIRE is a pushbutton too
        if profile == "benchmark":
            assert [f for f in FAILURES if f in text] == []


@pytest.mark.parametrize("profile", ["benchmark", "dev", "crew", "learning"])
async def test_the_kept_listing_is_the_one_the_sdk_builds_for_every_profile(profile):
    from mcp.server.mcpserver import MCPServer

    from a320bench.server.surface.factory import create_server

    first = create_server(new_episode(profile=profile), profile)
    second = create_server(new_episode(profile=profile), profile)
    kept = await first.list_tools()
    built = await MCPServer.list_tools(first)  # the SDK's own, built afresh
    assert [t.model_dump() for t in kept] == [t.model_dump() for t in built]
    assert [t.name for t in kept] == list(load_profile(profile).tools)
    again = await second.list_tools()
    assert again == kept and again is not kept  # the same entries, a list of its own
    from mcp_types import ListToolsResult

    wire = ListToolsResult(tools=built).model_dump(by_alias=True, mode="json", exclude_none=True)
    assert await first._handle_list_tools(None, None) == wire == await second._handle_list_tools(None, None)
    async with connect(new_episode(profile=profile), profile) as c:  # what a client receives
        assert (await c.list_tools()).model_dump(by_alias=True, mode="json", exclude_none=True)["tools"] \
            == wire["tools"]


async def test_two_servers_resources_read_and_record_their_own_episode_only():
    first, second = new_episode(), new_episode()
    second.advance(30.0)  # a different state: the reads must differ
    async with connect(first) as a, connect(second) as b:
        read_a = await a.read_resource("a320://pages/elec")
        read_b = await b.read_resource("a320://pages/elec")
        await b.read_resource("a320://ecam")
    assert json.loads(read_a.contents[0].text) != json.loads(read_b.contents[0].text)
    assert [e["arguments"]["uri"] for e in tool_calls(first)] == ["a320://pages/elec"]
    assert [e["arguments"]["uri"] for e in tool_calls(second)] == ["a320://pages/elec", "a320://ecam"]
    assert (first.tool_calls, second.tool_calls) == (1, 2)
