"""The `Aircraft` facade: one simulated A320, its tick loop and its read-outs.

Systems update in one fixed order each tick, written out once in `_tick`
(fire, fuel, flight guidance, engines, APU, ELEC, HYD, bleed/air,
pressurisation, ventilation, flight controls, the flight model, then the FWC). Each system's `update` receives the
step's `Tick` (time, controls, failures, world) and, as named arguments, the
sibling systems it reads - each module declares them as small protocols - so
the call below is the whole dependency graph. A system reads other systems'
state as of their last update, so a dependency that runs "backwards" in this
order lags by one tick (0.2 s) - the same compromise FlyByWire's
`Simulation::tick` makes.

Time is an integer tick count at a fixed 0.2 s step: no wall clock, and a
seeded `random.Random` for anything stochastic, so the same inputs give the
same snapshot. When every system reports no transient the loop takes larger
steps (integrators such as fuel burn are linear there), which is what makes
cruise fast; a system that still moves smoothly (the flight path in a steady
climb or descent) caps that step with its `max_step_s`.
"""

from __future__ import annotations

import copy
import hashlib
import json
import pickle
import random

from . import pages
from .apu import Apu
from .bleed import Bleed
from .controls import CONTROLS
from .crew import Crew
from .ecam import Fwc
from .elec import Elec
from .fctl import Fctl
from .eng import Engines
from .errors import InvalidPositionError, UnknownControlError, UnknownFailureError, UnknownVariableError
from .failures import FAILURES
from .fire import Fire
from .flight import Flight, Guidance
from .fuel import Fuel
from .hyd import Hyd
from .press import Press
from .vent import Vent
from .tick import DT, STEADY_STEP_S, Tick
from .world import World



class Aircraft:
    """One simulated aircraft. All harness and tool access goes through here."""

    def __init__(self, seed: int = 0) -> None:
        self.ticks = 0
        self._time = 0.0
        self.rng = random.Random(seed)
        self.world = World()
        self.controls: dict[str, str] = {c.name: c.default for c in CONTROLS.values()}
        self.failures: set[str] = set()
        # Crew control actuations: (sim_time_s, control, position). The FWC reads them
        # for non-sensed lines and OFF THEN ON latches.
        self.events: list[tuple[float, str, str]] = []
        self._pushes: dict[str, str] = {}  # momentary controls set since the last tick
        self.fire = Fire()
        self.fuel = Fuel()
        self.eng = Engines()
        self.apu = Apu()
        self.elec = Elec()
        self.hyd = Hyd()
        self.bleed = Bleed()
        self.press = Press()
        self.vent = Vent()
        self.fctl = Fctl()
        self.fg = Guidance()
        self.flight = Flight()
        self.crew = Crew()
        self.fwc = Fwc()
        self.systems = (self.fire, self.fuel, self.fg, self.eng, self.apu, self.elec, self.hyd, self.bleed,
                        self.press, self.vent, self.fctl, self.flight, self.crew)
        self._ctx = Tick.bound(self.controls, self.failures, self.world, self._pushes)
        self._steady = False
        self._step_s = STEADY_STEP_S
        self._tick(DT)  # settle the combinational state of the start position

    # ---- time ------------------------------------------------------------------
    @property
    def sim_time(self) -> float:
        return round(self._time, 3)

    def advance(self, seconds: float) -> None:
        """Advance simulated time by `seconds` (rounded to whole ticks)."""
        if seconds < 0:
            raise ValueError(f"cannot advance by a negative time ({seconds} s)")
        remaining = round(seconds / DT)
        while remaining > 0:
            if self._steady and remaining > 1:
                n = min(remaining, round(self._step_s / DT))
                self._tick(DT * n)
                remaining -= n
            else:
                self._tick(DT)
                remaining -= 1

    def _tick(self, dt: float) -> None:
        """One step of every system, in the one fixed order (see the module docstring)."""
        t = self._ctx
        t.dt = dt
        t.now_s = self.sim_time
        t.crew_actions = len(self.events)
        self.fire.update(t, fuel=self.fuel, apu=self.apu, flight=self.flight)
        self.fuel.update(t, elec=self.elec, engines=self.eng, fire=self.fire, apu=self.apu, flight=self.flight)
        self.fg.update(t, flight=self.flight, engines=self.eng, elec=self.elec)
        self.eng.update(t, elec=self.elec, fire=self.fire, fuel=self.fuel, bleed=self.bleed, flight=self.flight,
                        thrust=self.fg)
        self.apu.update(t, elec=self.elec, fire=self.fire, bleed=self.bleed, flight=self.flight)
        self.elec.update(t, engines=self.eng, apu=self.apu, hyd=self.hyd, fire=self.fire, flight=self.flight)
        self.hyd.update(t, elec=self.elec, engines=self.eng, fire=self.fire, flight=self.flight)
        self.bleed.update(t, apu=self.apu, engines=self.eng.engines, fire=self.fire, flight=self.flight)
        self.press.update(t, bleed=self.bleed, flight=self.flight)
        self.vent.update(t, elec=self.elec)
        self.fctl.update(t, elec=self.elec, hyd=self.hyd, flight=self.flight)
        self.flight.update(t, guidance=self.fg, engines=self.eng, fuel=self.fuel, fctl=self.fctl)
        self.fwc.update(self)
        self.ticks += 1
        self._time += dt
        self._pushes.clear()
        self._steady = not any(s.transient for s in self.systems) and not self.fwc.transient
        # A system that moves smoothly (spools, the flight path or the cabin in a descent) caps the step.
        self._step_s = min(STEADY_STEP_S, self.eng.max_step_s, self.flight.max_step_s, self.press.max_step_s)

    # ---- controls -----------------------------------------------------------------
    def set_control(self, name: str, position: str) -> str:
        """Move a cockpit control. Returns the position it now shows.

        A momentary control acts on the next tick and shows its rest position again.
        """
        ctl = CONTROLS.get(name)
        if ctl is None:
            raise UnknownControlError(name, CONTROLS)
        if position not in ctl.positions:
            raise InvalidPositionError(name, position, ctl.positions)
        self.events.append((self.sim_time, name, position))
        self._steady = False
        if ctl.momentary:
            if position != ctl.default:
                self._pushes[name] = position
            return ctl.default
        self.controls[name] = position
        return position

    def list_controls(self) -> list[dict[str, object]]:
        return [
            {"name": c.name, "panel": c.panel, "positions": list(c.positions), "position": self.controls[c.name],
             "guarded": c.guarded, "momentary": c.momentary, "description": c.description}
            for c in CONTROLS.values()
        ]

    def start_crew_record(self) -> None:
        """(harness) What happened so far was the harness's doing: the crew's record starts empty.

        Clears the control actions and lets the FWC treat every alert displayed from now on as a
        fresh occurrence, so no procedure line counts a harness action as the crew's; the flight's
        recorded peaks (cabin altitude) start again from here."""
        self.events.clear()
        self._pushes.clear()
        self.fwc.forget_occurrences()
        self.press.reset_peak()

    def set_flight_conditions(self, *, altitude_ft: float | None = None, ias_kt: float | None = None,
                              on_ground: bool | None = None, hold: bool | None = None,
                              config: str | None = None, gear_down: bool | None = None,
                              fuel_minutes_above_fl300: float | None = None) -> None:
        """(harness, tests) Put the aircraft at these flight conditions; never reachable by the agent.

        `hold=True` keeps altitude and speed where they are put until `hold=False` (the flight model
        stands still), so speed-dependent logic (RAT and EMER GEN minimum speeds, the static
        inverter below 50 kt, the battery contactors at 100 kt) can be tested directly.
        `config` (CLEAN, CONF 1+F, CONF 3) and `gear_down` set the configuration (the crew has no
        flap or gear lever here). `fuel_minutes_above_fl300` is the flight's history for the gravity
        feed ceiling.
        """
        fl = self.flight
        if altitude_ft is not None:
            fl.altitude_ft = float(altitude_ft)
        if ias_kt is not None:
            fl.ias_kt = float(ias_kt)
        if on_ground is not None:
            fl.on_ground = on_ground
        if altitude_ft is not None or on_ground is not None:
            self.fg.start_in_flight(fl.altitude_ft, fl.on_ground)
        if hold is not None:
            fl.held = hold
        if config is not None:
            fl.config = config
        if gear_down is not None:
            fl.gear_down = gear_down
        if fuel_minutes_above_fl300 is not None:
            self.fuel.set_history(fuel_minutes_above_fl300 * 60.0, fl.altitude_ft)
        self._steady = False

    # ---- failures (privileged) -----------------------------------------------------
    def inject_failure(self, failure_id: str) -> None:
        if failure_id not in FAILURES:
            raise UnknownFailureError(failure_id, FAILURES)
        self.failures.add(failure_id)
        self._steady = False

    def clear_failure(self, failure_id: str) -> None:
        if failure_id not in FAILURES:
            raise UnknownFailureError(failure_id, FAILURES)
        self.failures.discard(failure_id)
        self._steady = False

    def active_failures(self) -> list[str]:
        return sorted(self.failures)

    @staticmethod
    def list_failures() -> list[dict[str, object]]:
        return [{"id": f.id, "ata": f.ata, "system": f.system, "description": f.description,
                 "resettable": f.resettable} for f in FAILURES.values()]

    # ---- state ----------------------------------------------------------------------
    def snapshot(self) -> dict[str, object]:
        """Every state variable, flat, in a fixed order: `elec.ac_bus_1_powered`, ..."""
        v: dict[str, object] = {"sim_time_s": self.sim_time}
        for s in self.systems:
            v.update(s.vars())
        for name, pos in self.controls.items():
            v[f"controls.{name}"] = pos
        return v

    def get(self, var: str) -> object:
        snap = self.snapshot()
        if var not in snap:
            raise UnknownVariableError(var, snap)
        return snap[var]

    def state_hash(self, snapshot: dict[str, object] | None = None) -> str:
        """`snapshot`: this aircraft's current `snapshot()`, when the caller has it already."""
        blob = json.dumps(self.snapshot() if snapshot is None else snapshot, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    # ---- ECAM and pages ---------------------------------------------------------------
    def read_ecam(self) -> dict[str, object]:
        return self.fwc.read(self)

    def ecam_titles(self) -> list[str]:
        return self.fwc.titles(self)

    def system_page(self, name: str) -> dict[str, object]:
        return pages.render(self, name)


class FrozenAircraft:
    """An aircraft's whole state, kept to be copied: `thaw()` gives a new, independent aircraft each time.

    The state is pickled once and unpickled per copy, five times cheaper than a deep copy
    (the ECAM alerts an aircraft holds are the catalogue's own, referred to by title). The
    bytes never leave the process. The random generator's state (624 integers, a fifth of
    the unpickling) is kept aside as the tuple it is and set on each copy's new generator."""

    __slots__ = ("_blob", "_rng_state")

    def __init__(self, ac: Aircraft):
        rng, ac.rng = ac.rng, None  # the aircraft is the generator's only holder
        try:
            self._blob = pickle.dumps(ac, protocol=pickle.HIGHEST_PROTOCOL)
        finally:
            ac.rng = rng
        self._rng_state = rng.getstate()

    def digest(self) -> bytes:
        """A hash of the whole state kept: two aircraft with equal digests fly on identically. (Equal states
        can pickle differently, a set's order is its history: they then differ here, never the reverse.)"""
        h = hashlib.sha256(self._blob)
        h.update(pickle.dumps(self._rng_state, protocol=pickle.HIGHEST_PROTOCOL))
        return h.digest()

    def thaw(self) -> Aircraft:
        ac = pickle.loads(self._blob)
        ac.rng = random.Random(0)
        ac.rng.setstate(self._rng_state)
        return ac


class _DeepCopied:
    """An aircraft that cannot be pickled (a test's patch on it), kept as a deep copy made at once."""

    __slots__ = ("_ac",)

    def __init__(self, ac: Aircraft):
        rng = random.Random()
        rng.setstate(ac.rng.getstate())  # a fifth of a deepcopy's time goes to the generator's state
        self._ac = copy.deepcopy(ac, {id(ac.rng): rng})

    def thaw(self) -> Aircraft:
        return copy.deepcopy(self._ac)


KeptAircraft = FrozenAircraft | _DeepCopied


def kept(ac: Aircraft) -> KeptAircraft:
    """`ac`'s state as it is now, to `thaw()` into an independent aircraft later (or never)."""
    try:
        return FrozenAircraft(ac)
    except (pickle.PicklingError, AttributeError, TypeError):
        return _DeepCopied(ac)

