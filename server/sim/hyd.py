"""Hydraulics (ATA 29): Green, Blue, Yellow; EDPs, electric pumps, PTU, RAT.

STUB: contract only; the hydraulic model is being built. Other systems read
`pressure_psi[circuit]`, `rat_deployed`, `emer_man_on`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .catalog import Control, Failure

if TYPE_CHECKING:
    from .aircraft import Aircraft

CONTROLS = (
    Control("RAT MAN ON", "HYD", ("NORM", "PUSH"), "NORM", guarded=True, momentary=True,
            description="Deploy the ram air turbine (pressurises Blue)"),
)
FAILURES: tuple[Failure, ...] = ()


@dataclass(slots=True)
class Hyd:
    pressure_psi: dict[str, float] = field(default_factory=lambda: {"green": 0.0, "blue": 0.0, "yellow": 0.0})
    rat_deployed: bool = False
    emer_man_on: bool = False
    transient: bool = False

    def update(self, dt: float, ac: Aircraft) -> None:
        fl = ac.flight
        if ac.take_push("EMER ELEC PWR MAN ON"):
            self.emer_man_on = True
            self.rat_deployed = True
        if ac.take_push("RAT MAN ON"):
            self.rat_deployed = True
        if not fl.on_ground and fl.ias_kt > 100 and not ac.elec.ac_bus[0] and not ac.elec.ac_bus[1]:
            self.rat_deployed = True
        eng = ac.eng.engines
        self.pressure_psi["green"] = 3000.0 if eng[0].n2_pct > 50 else 0.0
        self.pressure_psi["yellow"] = 3000.0 if eng[1].n2_pct > 50 else 0.0
        blue = ac.elec.ac_bus[0] and (not fl.on_ground or any(e.running for e in eng))
        rat = self.rat_deployed and fl.ias_kt > 100
        self.pressure_psi["blue"] = 3000.0 if blue else (2500.0 if rat else 0.0)

    def vars(self) -> dict[str, object]:
        return {f"hyd.{k}_press_psi": round(v) for k, v in self.pressure_psi.items()} | {"hyd.rat_deployed": self.rat_deployed}
