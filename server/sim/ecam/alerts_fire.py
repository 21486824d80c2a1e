"""FIRE alerts (ATA 26): domain reference §4 N1, N2, N8, A1; FBW PseudoFWC / EWD codes 2600010xx.

The warnings read the fire detection (loops, the FDU warning), the FIRE
pushbuttons and the bottle timers of the fire model; never a failure id.
"""

from __future__ import annotations

import math

from ..fire import AGENT2_WAIT_S
from .model import AlertDef, Ctx, Line, dots

LOOP_FAULT_INHIBIT = frozenset({3, 4, 5, 7, 8})


def _agent_timer_text(zone: str, label: str, compact: str):
    """`-AGENT1 AFTER 10S..DISCH` counting down from the FIRE PB release, then `-AGENT 1....DISCH`."""
    def text(c: Ctx) -> str:
        left = c.ac.fire.agent_timer_left_s(zone, c.ac.sim_time)
        if left <= 1e-6:
            return dots(label, "DISCH")
        return dots(f"{compact} AFTER {math.ceil(left - 1e-6)}S", "DISCH")
    return text


def _eng_fire(n: int) -> AlertDef:
    zone = f"ENG {n}"
    fire = lambda c: c.ac.fire.zones[zone]  # noqa: E731
    in_flight = lambda c: not c.ac.flight.on_ground  # noqa: E731
    on_ground = lambda c: c.ac.flight.on_ground  # noqa: E731
    disch = lambda i: (lambda c: fire(c).bottles[i].discharged)  # noqa: E731

    def fire_after_30s(c: Ctx) -> bool:
        return (in_flight(c) and c.ac.fire.fire_after_agent1_s(zone, c.ac.sim_time) >= AGENT2_WAIT_S - 1e-6
                and not fire(c).bottles[1].discharged)

    def notified(c: Ctx) -> bool:
        return c.set_since("ATC", "NOTIFY") or c.set_since("ATC", "MAYDAY")

    return AlertDef(
        f"ENG {n} FIRE", 3, "FIRE", "ENG", lambda ac: ac.fire.warning(zone),
        lines=(
            # In flight (N1).
            Line(dots(f"THR LEVER {n}", "IDLE"), show=in_flight, done=lambda c: c.pos(f"THR LEVER {n}") == "IDLE"),
            # On ground (N2).
            Line(dots("THR LEVERS", "IDLE"), show=on_ground,
                 done=lambda c: c.pos("THR LEVER 1") == "IDLE" and c.pos("THR LEVER 2") == "IDLE"),
            Line(".WHEN A/C IS STOPPED:", "condition", show=on_ground),
            Line(dots("PARKING BRK", "ON"), show=on_ground, done=lambda c: c.pos("PARKING BRK") == "ON"),
            Line(dots("ATC", "NOTIFY"), show=on_ground, done=notified),
            Line(dots("CABIN CREW", "ALERT"), show=on_ground, done=lambda c: c.set_since("CABIN CREW", "ALERT")),
            # Both.
            Line(dots(f"ENG MASTER {n}", "OFF"), done=lambda c: c.pos(f"ENG MASTER {n}") == "OFF"),
            Line(dots(f"ENG {n} FIRE P/B", "PUSH"), done=lambda c: fire(c).pb_released),
            Line(_agent_timer_text(zone, "AGENT 1", "AGENT1"), show=in_flight, done=disch(0)),
            Line(dots("AGENT 1", "DISCH"), show=on_ground, done=disch(0)),
            Line(dots("AGENT 2", "DISCH"), show=on_ground, done=disch(1)),
            Line(dots("EMER EVAC PROC", "APPLY"), show=on_ground, done=lambda c: c.set_since("EMER EVAC", "ANNOUNCE")),
            Line(dots("ATC", "NOTIFY"), show=in_flight, done=notified),
            Line(".IF FIRE AFTER 30S:", "condition", show=fire_after_30s),
            Line(dots("AGENT 2", "DISCH"), show=fire_after_30s, done=disch(1)),
        ),
        land_asap="red",
    )


def _apu_fire() -> AlertDef:
    apu = lambda c: c.ac.fire.zones["APU"]  # noqa: E731
    return AlertDef(
        "APU FIRE", 3, "FIRE", "APU", lambda ac: ac.fire.warning("APU"),
        lines=(
            Line(dots("APU FIRE P/B", "PUSH"), done=lambda c: apu(c).pb_released),
            Line(_agent_timer_text("APU", "AGENT", "AGENT"), done=lambda c: apu(c).bottles[0].discharged),
            Line(dots("MASTER SW", "OFF"), done=lambda c: c.pos("APU MASTER SW") == "OFF"),
        ),
        land_asap="red",
    )


def _loop_fault(zone: str, loop: str) -> AlertDef:
    i = "AB".index(loop)
    def when(ac) -> bool:
        z = ac.fire.zones[zone]
        return z.loop_fault[i] and not z.loop_fault[1 - i]
    return AlertDef(f"{zone} FIRE LOOP {loop} FAULT", 1, "FIRE", "ENG" if zone != "APU" else "APU", when,
                    inhibit=LOOP_FAULT_INHIBIT)


def _det_fault(zone: str) -> AlertDef:
    def when(ac) -> bool:  # both loops lost, and not within 5 s of each other (that is a fire warning)
        z = ac.fire.zones[zone]
        return z.loop_fault[0] and z.loop_fault[1] and not z.flame_through
    return AlertDef(f"{zone} FIRE DET FAULT", 2, "FIRE", "ENG" if zone != "APU" else "APU", when,
                    inhibit=LOOP_FAULT_INHIBIT)


ALERTS = (
    _eng_fire(1),
    _eng_fire(2),
    _apu_fire(),
    _det_fault("ENG 1"),
    _det_fault("ENG 2"),
    _det_fault("APU"),
    _loop_fault("ENG 1", "A"),
    _loop_fault("ENG 1", "B"),
    _loop_fault("ENG 2", "A"),
    _loop_fault("ENG 2", "B"),
    _loop_fault("APU", "A"),
    _loop_fault("APU", "B"),
)
