"""Test bed for the simulator tests: aircraft in the situations the tests start from, and ECAM readers."""

from __future__ import annotations

from a320bench.server.sim import Aircraft, build


def lines(ac: Aircraft, title: str) -> list[str]:
    """The procedure lines the ECAM shows now under `title` (fails if it is not displayed)."""
    for a in ac.read_ecam()["alerts"]:
        if a["title"] == title:
            return a["lines"]
    raise AssertionError(f"{title} not displayed; shown: {ac.ecam_titles()}")


def emer_config(start: str = "cruise", settle_s: float = 10.0) -> Aircraft:
    """Both engine generators tripped in flight: AC BUS 1 and 2 lost, the RAT out, the EMER GEN on line."""
    ac = build(start)
    ac.inject_failure("elec_gen1_gcu_trip")
    ac.inject_failure("elec_gen2_gcu_trip")
    ac.advance(settle_s)
    return ac


def ess_buses_on_bat(start: str = "cruise") -> Aircraft:
    """AC BUS 1 and 2 lost and the emergency generator does not couple: the essential buses on batteries."""
    ac = build(start)
    for f in ("elec_gen1_gcu_trip", "elec_gen2_gcu_trip", "elec_emer_gen_fail"):
        ac.inject_failure(f)
    ac.advance(10.0)
    return ac


def start_apu(ac: Aircraft, wait_s: float = 90.0) -> None:
    """MASTER SW ON, START after the flap has opened, then wait."""
    ac.set_control("APU MASTER SW", "ON")
    ac.advance(5.0)
    ac.set_control("APU START", "ON")
    ac.advance(wait_s)


def off_then_on(ac: Aircraft, pb: str, off_s: float = 2.0) -> None:
    """An ECAM `OFF THEN ON` reset: the pushbutton OFF for `off_s`, ON again, 2 s to settle."""
    ac.set_control(pb, "OFF")
    ac.advance(off_s)
    ac.set_control(pb, "ON")
    ac.advance(2.0)


def emergency_descent(ac: Aircraft, fcu_alt: str = "FL100", speed: str | None = "340 KT",
                      speed_brakes: bool = True) -> None:
    """The EMER DESCENT flying actions: FCU ALT set and pulled (OP DES), thrust levers IDLE, speed brakes
    full, maximum speed selected (pulled). Each action as a set_control, without the 2 s a tool call takes."""
    ac.set_control("FCU ALT", fcu_alt)
    ac.set_control("FCU ALT KNOB", "PULL")
    ac.set_control("THR LEVER 1", "IDLE")
    ac.set_control("THR LEVER 2", "IDLE")
    if speed_brakes:
        ac.set_control("SPD BRK", "FULL")
    if speed:
        ac.set_control("FCU SPD", speed)
        ac.set_control("FCU SPD KNOB", "PULL")


def open_descent(ac: Aircraft, fcu_alt: str) -> None:
    """FCU ALT set and the ALT knob pulled: an open descent at idle with the A/THR."""
    ac.set_control("FCU ALT", fcu_alt)
    ac.set_control("FCU ALT KNOB", "PULL")


def level_off_thrust(ac: Aircraft) -> None:
    """At the end of an emergency descent: thrust levers back to CL with the A/THR, speed brakes in."""
    for control, position in (("THR LEVER 1", "CL"), ("THR LEVER 2", "CL"), ("A/THR", "ON"), ("SPD BRK", "RET")):
        ac.set_control(control, position)


def until_level(ac: Aircraft, limit_s: float = 900.0) -> None:
    """Let the aircraft fly until it captures its FCU altitude (ALT* or ALT), in 1 s steps."""
    ac.advance(1.0)  # a knob just pulled acts on the next tick
    waited = 1.0
    while ac.get("fg.vertical_mode") not in ("ALT*", "ALT"):
        assert waited < limit_s, f"no level capture within {limit_s:.0f} s"
        ac.advance(1.0)
        waited += 1.0
