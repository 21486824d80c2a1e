"""Avionics ventilation, cabin fans and forward cargo smoke (ATA 21/26).

Avionics ventilation: a blower and an extract fan, each with an AUTO/OVRD
pushbutton and a FAULT light (lit while the fan has failed and its PB is in
AUTO). Both in OVRD is the smoke-removal configuration. CAB FANS switches the
cabin recirculation fans.

Forward cargo: smoke builds up in the compartment while a fire burns there;
two detectors sense it. On detection the cargo ventilation isolation valves
close and the extraction fan stops by themselves (FWD ISOL VALVE in AUTO);
the crew confirms with FWD ISOL VALVE OFF. The cargo bottle (CARGO AGENT,
guarded, no arming needed) suppresses the fire; the smoke then clears.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from .catalog import Control, Failure
from .tick import Tick

if TYPE_CHECKING:
    from .aircraft import Aircraft


# ---- what this system reads -----------------------------------------------------------
class AcPower(Protocol):
    @property
    def any_ac(self) -> bool: ...

CONTROLS = (
    Control("BLOWER", "VENT", ("AUTO", "OVRD"), "AUTO", description="Avionics ventilation blower"),
    Control("EXTRACT", "VENT", ("AUTO", "OVRD"), "AUTO", description="Avionics ventilation extract"),
    Control("CAB FANS", "VENT", ("ON", "OFF"), "ON", description="Cabin recirculation fans"),
    Control("FWD ISOL VALVE", "CARGO VENT", ("AUTO", "OFF"), "AUTO",
            description="Forward cargo ventilation isolation valves and extraction fan (OFF closes them)"),
    Control("CARGO AGENT", "CARGO SMOKE", ("NORM", "PUSH"), "NORM", guarded=True, momentary=True,
            description="Discharge the cargo fire bottle into the forward cargo compartment"),
)

FAILURES = (
    Failure("smoke_fwd_cargo_fire", 26, "SMOKE", "Fire in the forward cargo compartment; the cargo agent suppresses it"),
    Failure("vent_blower_fault", 21, "VENT", "Avionics ventilation blower fan fails"),
    Failure("vent_extract_fault", 21, "VENT", "Avionics ventilation extract fan fails"),
)

FAILURE_IDS = frozenset(f.id for f in FAILURES)
SMOKE_DETECT = 0.3  # smoke density (0-1) at which the detectors alarm
SMOKE_RISE_TAU_S = 4.0
SMOKE_CLEAR_TAU_S = 10.0


@dataclass(slots=True)
class Vent:
    blower_running: bool = False
    extract_running: bool = False
    blower_failed: bool = False
    extract_failed: bool = False
    cab_fans_running: bool = False
    fwd_cargo_smoke_density: float = 0.0  # 0 (clear) to 1 (dense) in the forward cargo compartment
    fwd_cargo_smoke_detected: bool = False
    fwd_cargo_fire: bool = False
    fwd_cargo_suppressed: bool = False  # the current fire has been put out by the agent
    fwd_isol_valves_open: bool = False
    cargo_agent_discharged: bool = False
    cargo_agent_disch_at_s: float = -1.0
    transient: bool = False
    _inputs: tuple = ()  # (crew actions seen, AC powered) at the last full update

    def update(self, t: Tick, elec: AcPower) -> None:
        f = t.failures
        powered = elec.any_ac
        inputs = (t.crew_actions, powered)
        if (inputs == self._inputs and f.isdisjoint(FAILURE_IDS) and not self.transient
                and self.fwd_cargo_smoke_density == 0.0
                and not (self.blower_failed or self.extract_failed or self.fwd_cargo_suppressed)):
            return  # no crew action, no power change, no failure (now or last tick), no smoke
        self._inputs = inputs
        c, dt = t.controls, t.dt
        was = (self.fwd_cargo_smoke_detected, self.fwd_isol_valves_open, self.cargo_agent_discharged,
               self.blower_running, self.extract_running, self.cab_fans_running, self.fwd_cargo_fire)

        self.blower_failed = "vent_blower_fault" in f
        self.extract_failed = "vent_extract_fault" in f
        self.blower_running = powered and c["BLOWER"] == "AUTO" and not self.blower_failed
        self.extract_running = powered and not self.extract_failed
        self.cab_fans_running = powered and c["CAB FANS"] == "ON"

        if t.pushed("CARGO AGENT") and not self.cargo_agent_discharged:
            self.cargo_agent_discharged = True
            self.cargo_agent_disch_at_s = t.now_s
        burning_source = "smoke_fwd_cargo_fire" in f
        if not burning_source:
            self.fwd_cargo_suppressed = False
        elif self.cargo_agent_discharged:
            self.fwd_cargo_suppressed = True
        self.fwd_cargo_fire = burning_source and not self.fwd_cargo_suppressed
        target = 1.0 if self.fwd_cargo_fire else 0.0
        tau = SMOKE_RISE_TAU_S if self.fwd_cargo_fire else SMOKE_CLEAR_TAU_S
        self.fwd_cargo_smoke_density += (target - self.fwd_cargo_smoke_density) * min(1.0, dt / tau)
        if target == 0.0 and self.fwd_cargo_smoke_density < 0.005:
            self.fwd_cargo_smoke_density = 0.0
        self.fwd_cargo_smoke_detected = self.fwd_cargo_smoke_density >= SMOKE_DETECT
        # Isolation valves close automatically on smoke detection, or with the PB OFF.
        self.fwd_isol_valves_open = powered and c["FWD ISOL VALVE"] == "AUTO" and not self.fwd_cargo_smoke_detected

        now = (self.fwd_cargo_smoke_detected, self.fwd_isol_valves_open, self.cargo_agent_discharged,
               self.blower_running, self.extract_running, self.cab_fans_running, self.fwd_cargo_fire)
        self.transient = now != was or abs(self.fwd_cargo_smoke_density - target) > 0.001

    # ---- lights ------------------------------------------------------------------
    def blower_fault_light(self, ac: Aircraft) -> bool:
        return self.blower_failed and ac.controls["BLOWER"] == "AUTO"

    def extract_fault_light(self, ac: Aircraft) -> bool:
        return self.extract_failed and ac.controls["EXTRACT"] == "AUTO"

    # ---- read-outs ----------------------------------------------------------------
    def vars(self) -> dict[str, object]:
        return {
            "vent.blower_running": self.blower_running,
            "vent.extract_running": self.extract_running,
            "vent.cab_fans_running": self.cab_fans_running,
            "vent.fwd_cargo_smoke_detected": self.fwd_cargo_smoke_detected,
            "vent.fwd_cargo_fire": self.fwd_cargo_fire,
            "vent.fwd_isol_valves_open": self.fwd_isol_valves_open,
            "vent.cargo_agent_discharged": self.cargo_agent_discharged,
        }

    def page(self, ac: Aircraft) -> dict[str, object]:
        c = ac.controls
        both_ovrd = c["BLOWER"] == "OVRD" and c["EXTRACT"] == "OVRD"
        return {
            "avionics_ventilation": {
                "BLOWER": {"pb": c["BLOWER"], "fan": "ON" if self.blower_running else "OFF",
                           "fault_light": self.blower_fault_light(ac)},
                "EXTRACT": {"pb": c["EXTRACT"], "fan": "ON" if self.extract_running else "OFF",
                            "fault_light": self.extract_fault_light(ac)},
                "config": "SMOKE" if both_ovrd else "NORMAL",
            },
            "CAB FANS": {"pb": c["CAB FANS"], "fans": "ON" if self.cab_fans_running else "OFF"},
        }

    def cargo_page(self, ac: Aircraft) -> dict[str, object]:
        return {
            "FWD smoke_light": self.fwd_cargo_smoke_detected,
            "FWD ISOL VALVE": {"pb": ac.controls["FWD ISOL VALVE"],
                               "valves": "OPEN" if self.fwd_isol_valves_open else "CLOSED",
                               "extract_fan": "ON" if self.fwd_isol_valves_open else "OFF"},
            "AGENT": "DISCH" if self.cargo_agent_discharged else "READY",
        }

    def inop(self, ac: Aircraft) -> list[str]:
        out = []
        if self.blower_failed:
            out.append("BLOWER")
        if self.extract_failed:
            out.append("EXTRACT")
        if ac.elec.any_ac and not self.fwd_isol_valves_open:
            out.append("FWD CRG VENT")
        return out
