"""The procedures that fly the aircraft, through the real MCP server: the right one succeeds, a wrong one
(no descent, the wrong level, no speed brakes where they are needed) fails on the outcome itself, not
only on the procedure score."""

from __future__ import annotations

from typing import Any

import pytest

from a320bench.server.scenario.loader import load

from surface_bed import SCENARIOS, connect, finals, new_episode

pytestmark = pytest.mark.anyio

EXCESS_CAB_ALT = SCENARIOS / "air" / "excess_cab_alt_cruise.yaml"
EMER_CONFIG = SCENARIOS / "elec" / "emer_config_cruise.yaml"
DRIFT_DOWN = SCENARIOS / "eng" / "eng1_fail_drift_down_cruise.yaml"
GRAVITY = SCENARIOS / "fuel" / "l_tk_pumps_gravity_feed_climb.yaml"


async def fly(path, actions: list[tuple[str, ...]]) -> dict[str, Any]:
    """Fly `actions` ((control, position) or ("wait", seconds)) through the benchmark tools, report done,
    and return each success criterion's verdict by its variable (or kind)."""
    ep = new_episode(load(path))
    async with connect(ep) as c:
        for a in actions:
            if a[0] == "wait":
                r = await c.call_tool("wait", {"seconds": a[1]})
            else:
                r = await c.call_tool("set_control", {"control": a[0], "position": a[1]})
            assert not r.is_error, r
        await c.call_tool("report_done", {"diagnosis": "test", "actions_summary": "test"})
    (final,) = finals(ep)
    return {crit.get("var") or crit["kind"]: crit["passed"] for crit in final["success"]["criteria"]} | {
        "_all": final["success"]["passed"]}


def waits(total_s: int) -> list[tuple[str, ...]]:
    return [("wait", 300)] * (total_s // 300) + ([("wait", total_s % 300)] if total_s % 300 else [])


EMER_DESCENT_START = [("CREW OXY MASKS", "USE"), ("SIGNS", "ON")]
LEVEL_OFF = [("THR LEVER 1", "CL"), ("THR LEVER 2", "CL"), ("A/THR", "ON"), ("SPD BRK", "RET")]


def emer_descent(fcu_alt: str = "FL100", speed_brakes: bool = True) -> list[tuple[str, ...]]:
    brakes = [("SPD BRK", "FULL")] if speed_brakes else []
    return [*EMER_DESCENT_START, ("FCU ALT", fcu_alt), ("FCU ALT KNOB", "PULL"), ("THR LEVER 1", "IDLE"),
            ("THR LEVER 2", "IDLE"), *brakes, ("FCU SPD", "340 KT"), ("FCU SPD KNOB", "PULL")]


async def test_the_emergency_descent_with_speed_brakes_to_fl100_succeeds():
    verdict = await fly(EXCESS_CAB_ALT, [*emer_descent(), *waits(280), *LEVEL_OFF, ("wait", 60)])
    assert verdict["_all"] is True


async def test_an_excess_cabin_altitude_without_a_descent_fails_on_the_level_and_the_cabin():
    verdict = await fly(EXCESS_CAB_ALT, [*EMER_DESCENT_START, *waits(340)])
    assert (verdict["flight.altitude_ft"], verdict["press.cabin_alt_ft"], verdict["press.cabin_above_14000_ft_s"],
            verdict["_all"]) == (False, False, False, False)


async def test_an_emergency_descent_stopped_at_fl200_fails_on_the_level():
    verdict = await fly(EXCESS_CAB_ALT, [*emer_descent("FL200"), *waits(200), *LEVEL_OFF, ("wait", 140)])
    assert (verdict["flight.altitude_ft"], verdict["_all"]) == (False, False)


async def test_an_emergency_descent_without_speed_brakes_fails_on_the_time_the_cabin_spent_above_14000_ft():
    verdict = await fly(EXCESS_CAB_ALT, [*emer_descent(speed_brakes=False), *waits(500), *LEVEL_OFF, ("wait", 60)])
    assert verdict["flight.altitude_ft"] is True  # it got there, but too slowly
    assert (verdict["press.cabin_above_14000_ft_s"], verdict["_all"]) == (False, False)


GEN_RESET = [("GEN 1", "OFF"), ("GEN 2", "OFF"), ("GEN 1", "ON"), ("GEN 2", "ON"), ("BUS TIE", "OFF"),
             ("ENG MODE", "IGN START"), ("ATC", "NOTIFY")]
APU_START = [("APU MASTER SW", "ON"), ("wait", 5), ("APU START", "ON"), ("wait", 70), ("BUS TIE", "AUTO")]


async def test_emer_config_with_the_apu_started_after_the_descent_below_fl250_succeeds():
    descent = [("FCU ALT", "FL200"), ("FCU ALT KNOB", "PULL"), ("THR LEVER 1", "IDLE"), ("THR LEVER 2", "IDLE"),
               ("wait", 300)]
    thrust = [("THR LEVER 1", "CL"), ("THR LEVER 2", "CL"), ("A/THR", "ON"), ("wait", 60)]
    verdict = await fly(EMER_CONFIG, [*GEN_RESET, *descent, *APU_START, *thrust])
    assert verdict["_all"] is True


async def test_emer_config_with_an_apu_start_at_fl350_fails_the_apu_does_not_light():
    verdict = await fly(EMER_CONFIG, [*GEN_RESET, ("wait", 60), *APU_START, ("wait", 60)])
    assert (verdict["elec.apu_gen_online"], verdict["elec.ac_bus_1_powered"], verdict["ecam_clear_of"],
            verdict["_all"]) == (False, False, False, False)


ENG_FAIL = [("ENG MODE", "IGN START"), ("THR LEVER 1", "IDLE"), ("wait", 30), ("ENG MASTER 1", "OFF"),
            ("ENG 1 FIRE", "RELEASED"), ("wait", 10), ("ENG 1 AGENT 1", "PUSH"), ("wait", 120)]


async def test_a_drift_down_at_mct_and_green_dot_succeeds():
    drift_down = [("THR LEVER 2", "FLX/MCT"), ("A/THR", "OFF"), ("FCU SPD", "230 KT"), ("FCU SPD KNOB", "PULL"),
                  ("FCU ALT", "FL230"), ("FCU ALT KNOB", "PULL")]
    verdict = await fly(DRIFT_DOWN, [*drift_down, *ENG_FAIL])
    assert verdict["_all"] is True


async def test_one_engine_left_holding_fl350_fails_the_speed_decays_to_vls():
    verdict = await fly(DRIFT_DOWN, [*ENG_FAIL, ("wait", 200)])
    assert (verdict["flight.ias_kt"], verdict["_all"]) == (False, False)


async def test_an_open_descent_with_the_a_thr_left_on_drops_at_idle_instead_of_drifting_down():
    idle_descent = [("THR LEVER 2", "FLX/MCT"), ("FCU ALT", "FL230"), ("FCU ALT KNOB", "PULL")]
    verdict = await fly(DRIFT_DOWN, [*idle_descent, *ENG_FAIL])
    assert (verdict["flight.vs_fpm"], verdict["_all"]) == (False, False)


GRAVITY_ECAM = [("X FEED", "ON"), ("L TK PUMP 1", "OFF"), ("L TK PUMP 2", "OFF"), ("CTR TK PUMP 1", "OFF"),
                ("ENG MODE", "IGN START")]


async def test_gravity_feeding_with_the_climb_stopped_at_fl150_succeeds():
    verdict = await fly(GRAVITY, [*GRAVITY_ECAM, ("FCU ALT", "FL150"), ("FCU ALT KNOB", "PULL"), ("wait", 120)])
    assert verdict["_all"] is True


async def test_gravity_feeding_while_climbing_on_starves_engine_1():
    # Left climbing, the engine starves above the ceiling, relights with ignition as suction comes back
    # (ENG-10: 10 s to light-off), starves again, and stays out past about FL190.
    verdict = await fly(GRAVITY, [*GRAVITY_ECAM, ("wait", 240)])
    assert (verdict["eng1.running"], verdict["flight.altitude_ft"], verdict["_all"]) == (False, False, False)
