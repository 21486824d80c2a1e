"""Flight control computers (ATA 27): ELAC 1/2, SEC 1/2/3, FAC 1/2 and the control law.

A computer is engaged when its overhead PB is ON, it has DC power and it has
not failed. Its FAULT light is lit while it has failed and its PB is ON; a
resettable fault clears when the crew switches the PB OFF (then ON). The law
follows the domain reference §1.7, simplified: NORMAL with an ELAC, a FAC, two
air data references and at least two hydraulic circuits; ALTN when both ELACs
(pitch then from SEC 1/2), both FACs, two ADRs (the emergency electrical
configuration) or two hydraulic circuits are lost; DIRECT with neither ELAC nor
FAC; MECH BACKUP with no ELAC and no SEC 1/2 (pitch trim and rudder only).

Power (simplified from the A320 distribution): ELAC 1, SEC 1, FAC 1 on the
DC ESS BUS; ELAC 2, SEC 2, SEC 3, FAC 2 on DC BUS 2.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from .catalog import Control, Failure
from .reads import OnGround
from .tick import Tick

if TYPE_CHECKING:
    from .aircraft import Aircraft


# ---- what this system reads -----------------------------------------------------------
class DcPower(Protocol):
    def dc_bus_powered(self, n: int) -> bool: ...
    def ac_bus_powered(self, n: int) -> bool: ...
    @property
    def dc_ess_powered(self) -> bool: ...
    @property
    def ac_ess_powered(self) -> bool: ...


class HydPressures(Protocol):
    def circuit_psi(self, circuit: str) -> float: ...


COMPUTERS = ("ELAC 1", "ELAC 2", "SEC 1", "SEC 2", "SEC 3", "FAC 1", "FAC 2")
_SIDE = {"ELAC 1": "CAPT", "SEC 1": "CAPT", "FAC 1": "CAPT"}

CONTROLS = tuple(
    Control(name, "F/CTL", ("ON", "OFF"), "ON", description=f"{name} flight control computer")
    for name in COMPUTERS
)


def _fid(name: str) -> str:
    return "fctl_" + name.lower().replace(" ", "")


FAILURES = tuple(
    f
    for name in COMPUTERS
    for f in (
        Failure(f"{_fid(name)}_fault", 27, "F/CTL", f"{name} fails; a reset does not help"),
        Failure(f"{_fid(name)}_fault_resettable", 27, "F/CTL", f"{name} fails; {name} OFF then ON resets it", resettable=True),
    )
)

_IDS = {name: (f"{_fid(name)}_fault", f"{_fid(name)}_fault_resettable") for name in COMPUTERS}
_ALL_IDS = frozenset(i for pair in _IDS.values() for i in pair)

# Surfaces each computer drives (for the F/CTL page).
SPOILERS = {"SEC 1": (3, 4), "SEC 2": (5,), "SEC 3": (1, 2)}
LO_PR_PSI = 1450.0


@dataclass(slots=True)
class Fctl:
    failed: dict[str, bool] = field(default_factory=lambda: dict.fromkeys(COMPUTERS, False))
    powered: dict[str, bool] = field(default_factory=lambda: dict.fromkeys(COMPUTERS, False))
    engaged: dict[str, bool] = field(default_factory=lambda: dict.fromkeys(COMPUTERS, False))
    law: str = "GROUND"
    adrs: int = 0  # air data references powered
    _speed_brakes: int = 3  # speed brake spoilers available
    any_failed: bool = False
    transient: bool = False
    _inputs: tuple = ()  # (crew actions seen, DC ESS, DC 2) at the last computer update

    def update(self, t: Tick, elec: DcPower, hyd: HydPressures, flight: OnGround) -> None:
        c, f = t.controls, t.failures
        was_law = self.law
        dc_ess = elec.dc_ess_powered
        dc_2 = elec.dc_bus_powered(2)
        # Air data: ADR 1 on AC ESS, ADR 2 on AC BUS 2, ADR 3 on AC BUS 1 (simplified ADIRU supply).
        self.adrs = elec.ac_ess_powered + elec.ac_bus_powered(2) + elec.ac_bus_powered(1)
        quiet = f.isdisjoint(_ALL_IDS)
        inputs = (t.crew_actions, dc_ess, dc_2)
        self._speed_brakes = self._spoilers(hyd)
        if quiet and not self.any_failed and inputs == self._inputs:
            # No crew action, power change or failure: the computers are as they were.
            self.law = self._law(hyd, flight.on_ground)
            self.transient = self.law != was_law
            return
        self._inputs = inputs
        was = (tuple(self.engaged.values()), was_law)
        for name in COMPUTERS:
            fault, resettable = _IDS[name]
            if quiet:
                failed = False
            else:
                if resettable in f and c[name] == "OFF":
                    t.resolve(resettable)
                failed = fault in f or resettable in f
            powered = dc_ess if name in _SIDE else dc_2
            self.failed[name] = failed
            self.powered[name] = powered
            self.engaged[name] = powered and not failed and c[name] == "ON"
        self.any_failed = not quiet and any(self.failed.values())
        self.law = self._law(hyd, flight.on_ground)
        self.transient = (tuple(self.engaged.values()), self.law) != was

    def _spoilers(self, hyd: HydPressures) -> int:
        g = self.engaged
        y = hyd.circuit_psi("yellow") >= LO_PR_PSI
        b = hyd.circuit_psi("blue") >= LO_PR_PSI
        return (g["SEC 3"] and y) + (g["SEC 1"] and b) + (g["SEC 1"] and y)

    def _law(self, hyd: HydPressures, on_ground: bool) -> str:
        if on_ground:
            return "GROUND"
        g = self.engaged
        elac = g["ELAC 1"] or g["ELAC 2"]
        fac = g["FAC 1"] or g["FAC 2"]
        sec_pitch = g["SEC 1"] or g["SEC 2"]
        if not elac and not sec_pitch:
            return "MECH BACKUP"
        if not elac and not fac:
            return "DIRECT"
        if not elac or not fac:
            return "ALTN"
        if self.adrs < 2:
            # With one air data reference left the computers cannot vote: ALTN law, protections
            # lost (the emergency electrical configuration, QRH EMER ELEC summary).
            return "ALTN"
        lost = 0
        for circ in ("green", "blue", "yellow"):
            if hyd.circuit_psi(circ) < LO_PR_PSI:
                lost += 1
        if lost >= 2:
            return "ALTN"
        return "NORMAL"

    # ---- queries -------------------------------------------------------------------
    @property
    def speed_brake_share(self) -> float:
        """Share of the speed brake surfaces (spoilers 2, 3, 4) that deploy: each needs its SEC and
        its hydraulic circuit (spoiler 2: SEC 3, Yellow; 3: SEC 1, Blue; 4: SEC 1, Yellow)."""
        return self._speed_brakes / 3.0

    def fault_light(self, name: str, ac: Aircraft) -> bool:
        return self.any_failed and self.failed[name] and ac.controls[name] == "ON"

    # ---- read-outs -----------------------------------------------------------------
    def vars(self) -> dict[str, object]:
        v: dict[str, object] = {f"fctl.{n.lower().replace(' ', '')}_engaged": self.engaged[n] for n in COMPUTERS}
        v["fctl.law"] = self.law
        return v

    def page(self, ac: Aircraft) -> dict[str, object]:
        c = ac.controls
        g = self.engaged

        def status(n: str) -> str:
            if g[n]:
                return "ENGAGED"
            if c[n] == "OFF":
                return "OFF"
            return "FAULT" if self.failed[n] else "UNPOWERED"

        first = lambda *names: next((n for n in names if g[n]), "NONE")  # noqa: E731
        spoilers = {f"SPLR {i}": ("AVAIL" if g[sec] else "LOST") for sec, idx in SPOILERS.items() for i in idx}
        return {
            "law": self.law,
            "computers": {n: {"pb": c[n], "status": status(n), "fault_light": self.fault_light(n, ac)} for n in COMPUTERS},
            "ailerons": first("ELAC 1", "ELAC 2"),
            "elevators": first("ELAC 2", "ELAC 1", "SEC 2", "SEC 1"),
            "yaw_damper": first("FAC 1", "FAC 2"),
            "spoilers": dict(sorted(spoilers.items())),
            "hydraulics_psi": {k.upper(): round(v) for k, v in ac.hyd.pressure_psi.items()},
            "SPD BRK": c["SPD BRK"],
        }

    def inop(self, ac: Aircraft) -> list[str]:
        out = [n for n in COMPUTERS if self.failed[n] or (ac.controls[n] == "OFF" and self.powered[n])]
        if self.law in ("ALTN", "DIRECT", "MECH BACKUP"):
            out.append("F/CTL PROT")
        return out
