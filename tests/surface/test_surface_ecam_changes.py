"""Each recorded call carries the ECAM alerts that appeared or cleared during it (server/alert_log.py)."""

from __future__ import annotations

import json

import pytest

from a320bench.server.scenario.loader import load
from a320bench.server.sim.aircraft import STEADY_STEP_S

from surface_bed import SCENARIOS, connect, new_episode, tool_calls

pytestmark = pytest.mark.anyio


def changes(ep) -> list[tuple]:
    return [(c["seq"], c["name"], c.get("ecam_changes")) for c in tool_calls(ep)]


async def test_the_first_call_records_the_alerts_shown_at_the_start_and_each_clear_or_return_after():
    ep = new_episode()
    async with connect(ep) as c:
        await c.call_tool("read_ecam", {})
        await c.call_tool("read_ecam", {})
        await c.call_tool("set_control", {"control": "GEN 1", "position": "OFF"})
        await c.call_tool("set_control", {"control": "GEN 1", "position": "ON"})
    gen1 = {"title": "ELEC GEN 1 FAULT", "level": 2}
    assert changes(ep) == [
        (1, "read_ecam", [{**gen1, "shown": True, "t_s": 0.0}]),
        (2, "read_ecam", None),  # nothing changed: no field at all
        # Known only to within the 2 s the action took.
        (3, "set_control", [{**gen1, "shown": False, "t_s": 2.0, "since_s": 0.0}]),
        (4, "set_control", [{**gen1, "shown": True, "t_s": 4.0, "since_s": 2.0}]),
    ]


async def test_a_failure_arriving_during_a_wait_is_timed_by_the_warning_computers_onset():
    ep = new_episode(load(SCENARIOS / "air" / "pack1_ovht_then_pack2_fault_cruise.yaml"))
    async with connect(ep) as c:
        await c.call_tool("wait", {"seconds": 300})
    [(_, _, recorded)] = changes(ep)
    # PACK 2 fails at 40 s with PACK 1 already off line: both packs lost, and the cabin climbs.
    # (In the order seen: the wait is looked at after every 10 s step of the simulation.)
    assert recorded == [{"title": "AIR PACK 1 OVHT", "level": 2, "shown": True, "t_s": 0.0},
                        {"title": "AIR PACK 1+2 FAULT", "level": 2, "shown": True, "t_s": 40.0},
                        {"title": "CAB PR EXCESS CAB ALT", "level": 3, "shown": True, "t_s": 161.2}]


async def test_a_refused_call_after_the_end_records_no_change():
    ep = new_episode()
    async with connect(ep) as c:
        await c.call_tool("report_done", {"diagnosis": "gen 1", "actions_summary": "none"})
        r = await c.call_tool("read_ecam", {})
    assert r.is_error
    assert [x[2] for x in changes(ep)] == [[{"title": "ELEC GEN 1 FAULT", "level": 2, "shown": True, "t_s": 0.0}],
                                           None]


def test_a_clear_inside_a_long_wait_is_known_to_within_one_step_of_the_simulation(tmp_path):
    from a320bench.bridge.cli import main

    scenario = SCENARIOS / "eng" / "eng1_flameout_then_gen2_fault_cruise.yaml"
    assert main(["run", "--scenario", str(scenario), "--out", str(tmp_path), "--no-progress"]) == 0
    [path] = tmp_path.rglob("*.jsonl")
    events = [json.loads(line) for line in path.read_text().splitlines()]
    [(wait, change)] = [(e, ch) for e in events if e["type"] == "tool_call" and e["name"] == "wait"
                        for ch in e.get("ecam_changes", []) if not ch["shown"]]
    # The relight (below FL250, after the descent) clears ENG 1 FAIL some 20-30 s into a 60 s wait: the
    # record narrows it to one step.
    assert (change["title"], wait["sim_time_before_s"], wait["sim_time_after_s"]) == ("ENG 1 FAIL", 374.0, 434.0)
    assert wait["sim_time_before_s"] <= change["since_s"] < change["t_s"] <= change["since_s"] + STEADY_STEP_S
    assert change["t_s"] < wait["sim_time_after_s"]
