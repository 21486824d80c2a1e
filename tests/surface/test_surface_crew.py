"""The crew profile's captain through the real MCP server: in memory (both protocol paths) and over stdio
(`a320-bench serve --profile crew`), scored by the crew check from the trajectory the server wrote."""

from __future__ import annotations

import pytest

from a320bench.bridge.score.scorecard import score_events
from a320bench.server.scenario.loader import load
from a320bench.server.surface.profiles import load_profile

from surface_bed import BENCHMARK_TOOLS, SCENARIOS, connect, new_episode, read_events, stdio_params

pytestmark = pytest.mark.anyio

FIRE = SCENARIOS / "fire" / "eng1_cruise_first_agent.yaml"
CREW_TOOLS = [*BENCHMARK_TOOLS, "captain"]


async def _fly_with_the_captain(c) -> list[dict]:
    said = []
    for message, action in [("Status?", None), ("Confirm ENG MASTER 1 OFF", ("ENG MASTER 1", "OFF")),
                            ("Confirm ENG 1 FIRE RELEASED", ("ENG 1 FIRE", "RELEASED")),
                            ("Confirm ENG MASTER 2 OFF", None)]:
        r = await c.call_tool("captain", {"message": message})
        assert not r.is_error
        said.append(r.structured_content)
        if action:
            await c.call_tool("set_control", {"control": action[0], "position": action[1]})
    await c.call_tool("report_done", {"diagnosis": "ENG 1 fire", "actions_summary": "engine 1 secured"})
    return said


def _check(said: list[dict]) -> None:
    assert [(s["decision"], s["control"], s["position"]) for s in said] == [
        ("status", None, None), ("confirmed", "ENG MASTER 1", "OFF"), ("confirmed", "ENG 1 FIRE", "RELEASED"),
        ("refused", "ENG MASTER 2", "OFF")]
    assert said[0]["reply"].startswith("We are level at FL350, ")
    assert said[0]["instructions"] == [
        "I have the radios: I am declaring MAYDAY and we will divert.",
        "We cannot hold this level on one engine. When the ECAM actions are done, set FL250 on the FCU for the "
        "drift-down.", "Then pull the ALT knob to start it."]
    # Engine 1 shut down, the E/WD asks for nothing more of the masters: engine 2 stays running.
    assert said[3]["reply"] == ("Negative, not ENG MASTER 2 OFF: engine 2 is our only running engine, and the ECAM "
                                "does not call for it.")


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_the_captain_answers_in_memory_and_the_crew_check_reads_the_recording(mode):
    ep = new_episode(load(FIRE), profile="crew")
    async with connect(ep, "crew", mode=mode) as c:
        assert [t.name for t in (await c.list_tools()).tools] == CREW_TOOLS
        assert c.instructions == load_profile("crew").instructions
        _check(await _fly_with_the_captain(c))
    card = score_events(ep.recorder.events)
    # Both actions were confirmed; the FL250 instructions (the level, the ALT knob pulled) were not carried out.
    assert (card.track, card.crew_unconfirmed, card.crew_refused_taken, card.crew_missed_instructions) == (
        "crew", 0, 0, 2)


@pytest.mark.slow
async def test_the_captain_answers_over_stdio_from_a320_bench_serve(tmp_path):
    from mcp import Client

    traj = tmp_path / "episode.jsonl"
    async with Client(stdio_params(FIRE, "--profile", "crew", "--trajectory", str(traj), cwd=tmp_path)) as c:
        assert [t.name for t in (await c.list_tools()).tools] == CREW_TOOLS
        _check(await _fly_with_the_captain(c))
    events = read_events(traj)
    assert (events[0]["profile"], events[0]["tools"]) == ("crew", CREW_TOOLS)
    card = score_events(events)
    # Served: named after the MCP clientInfo the client sent (the SDK's default, "mcp"), marked [served].
    assert (card.model, card.crew_ok, card.crew_missed_instructions) == ("mcp [crew] [served]", False, 2)
