"""Start states: the aircraft is brought to each one by running the model.

The APU and engines go through their start sequences and contactors close
by themselves; only flight conditions (altitude, speed, phase) are written
directly. A state is built once per process and copied after that, because
a copy is far cheaper than re-running the starts.
"""

from __future__ import annotations

from collections.abc import Callable

from .aircraft import Aircraft, FrozenAircraft
from .errors import UnknownStartStateError
from .flight.atmosphere import cas_from_mach


def _until(ac: Aircraft, cond: Callable[[], bool], limit_s: float, what: str) -> None:
    waited = 0.0
    while not cond():
        if waited >= limit_s:
            raise RuntimeError(f"start state: {what} not reached within {limit_s:.0f} s of simulated time")
        ac.advance(1.0)
        waited += 1.0



def _power_up(ac: Aircraft) -> None:
    ac.set_control("BAT 1", "AUTO")
    ac.set_control("BAT 2", "AUTO")
    for pump in ("L TK PUMP 1", "L TK PUMP 2", "R TK PUMP 1", "R TK PUMP 2", "CTR TK PUMP 1", "CTR TK PUMP 2"):
        if pump in ac.controls:
            ac.set_control(pump, "ON")
    ac.advance(1.0)


def _start_apu(ac: Aircraft) -> None:
    ac.set_control("APU MASTER SW", "ON")
    ac.advance(5.0)
    ac.set_control("APU START", "ON")
    _until(ac, lambda: ac.apu.avail, 120.0, "APU AVAIL")
    ac.set_control("APU BLEED", "ON")
    ac.advance(2.0)


def _start_engines(ac: Aircraft) -> None:
    ac.set_control("ENG MODE", "IGN START")
    ac.advance(2.0)
    for n in (2, 1):  # engine 2 first: it drives the Yellow system (parking brake accumulator)
        ac.set_control(f"ENG MASTER {n}", "ON")
        _until(ac, lambda n=n: ac.eng.engines[n - 1].running, 120.0, f"engine {n} running")
        ac.advance(5.0)
    ac.set_control("ENG MODE", "NORM")
    ac.set_control("APU BLEED", "OFF")
    ac.advance(5.0)


def _apu_off(ac: Aircraft) -> None:
    ac.set_control("APU MASTER SW", "OFF")
    _until(ac, lambda: not ac.apu.running, 180.0, "APU shut down")


def _airborne(ac: Aircraft, altitude_ft: float, ias_kt: float, fcu_alt: str, *, vertical: str = "ALT",
              fcu_spd: str | None = None, minutes_above_fl300: float = 0.0, config: str = "CLEAN",
              gear_down: bool = False) -> None:
    """Flight conditions are written, the rest is flown: AP 1 and A/THR on, thrust levers in CL,
    `vertical` ALT (level), CLB or DES (the ALT knob pushed). `fcu_spd` flies a selected speed.
    `minutes_above_fl300` is the flight's history (a cruise long enough to deaerate the fuel, for the
    gravity feed ceiling)."""
    for name, pos in (("PARKING BRK", "OFF"), ("THR LEVER 1", "CL"), ("THR LEVER 2", "CL"),
                      ("FCU ALT", fcu_alt), ("FCU SPD", fcu_spd or "250 KT"), ("SIGNS", "ON"),
                      ("TCAS MODE SEL", "TA/RA"), ("AP 1", "ON"), ("A/THR", "ON")):
        ac.set_control(name, pos)
    ac.set_flight_conditions(altitude_ft=altitude_ft, ias_kt=ias_kt, on_ground=False, config=config,
                             gear_down=gear_down, fuel_minutes_above_fl300=minutes_above_fl300)
    if fcu_spd:
        ac.set_control("FCU SPD KNOB", "PULL")
    if vertical in ("CLB", "DES"):
        ac.set_control("FCU ALT KNOB", "PUSH")
    ac.advance(40.0)  # engines and A/THR settle on the new condition


def _new(world: dict[str, object]) -> Aircraft:
    ac = Aircraft()
    for k, v in world.items():
        ac.world.set(k, v)
    ac.advance(0.2)
    return ac


def cold_dark(world: dict[str, object]) -> Aircraft:
    return _new(world)


def apu_running(world: dict[str, object]) -> Aircraft:
    ac = _new(world)
    _power_up(ac)
    _start_apu(ac)
    return ac


def engines_running(world: dict[str, object]) -> Aircraft:
    ac = apu_running(world)
    _start_engines(ac)
    return ac


def takeoff_roll(world: dict[str, object]) -> Aircraft:
    ac = engines_running(world)
    _apu_off(ac)
    for name, pos in (("PARKING BRK", "OFF"), ("SIGNS", "ON"), ("TCAS MODE SEL", "TA/RA"), ("A/THR", "ON"),
                      ("AP 1", "ON"), ("THR LEVER 1", "FLX/MCT"), ("THR LEVER 2", "FLX/MCT"), ("FCU ALT", "FL100")):
        ac.set_control(name, pos)
    ac.set_flight_conditions(config="CONF 1+F")
    ac.flight.phase = "takeoff_roll"
    ac.flight.ias_kt = 40.0
    ac.advance(5.0)
    return ac


def climb(world: dict[str, object]) -> Aircraft:
    ac = engines_running(world)
    _apu_off(ac)
    _airborne(ac, 12000.0, 290.0, "FL350", vertical="CLB")
    return ac


def cruise(world: dict[str, object]) -> Aircraft:
    ac = engines_running(world)
    _apu_off(ac)
    _airborne(ac, 35000.0, cas_from_mach(0.78, 35000.0), "FL350", minutes_above_fl300=60.0)
    return ac


def descent(world: dict[str, object]) -> Aircraft:
    ac = engines_running(world)
    _apu_off(ac)
    _airborne(ac, 24000.0, 290.0, "FL100", vertical="DES", minutes_above_fl300=60.0)
    return ac


def approach(world: dict[str, object]) -> Aircraft:
    ac = engines_running(world)
    _apu_off(ac)
    _airborne(ac, 3000.0, 160.0, "3000 FT", fcu_spd="160 KT", minutes_above_fl300=60.0, config="CONF 3",
              gear_down=True)
    return ac


START_STATES: dict[str, Callable[[dict[str, object]], Aircraft]] = {
    "cold_dark": cold_dark,
    "apu_running": apu_running,
    "engines_running": engines_running,
    "takeoff_roll": takeoff_roll,
    "climb": climb,
    "cruise": cruise,
    "descent": descent,
    "approach": approach,
}

_built: dict[tuple, FrozenAircraft] = {}


def build(name: str, world: dict[str, object] | None = None, *, cached: bool = True) -> Aircraft:
    """A fresh aircraft in start state `name` (a copy of a once-built state).

    `world` controls (e.g. gpu_available) are set before the state is built.
    """
    if name not in START_STATES:
        raise UnknownStartStateError(name, START_STATES)
    world = dict(world or {})
    key = (name, tuple(sorted((k, repr(v)) for k, v in world.items())))
    if cached and key in _built:
        return _built[key].thaw()
    ac = _finish(START_STATES[name](world))
    if cached:
        _built[key] = FrozenAircraft(ac)
        return _built[key].thaw()
    return ac


def _finish(ac: Aircraft) -> Aircraft:
    ac.start_crew_record()  # setup actions are the harness's, not the crew's
    ac.advance(0.2)
    return ac
