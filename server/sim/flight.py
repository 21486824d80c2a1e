"""Flight conditions and the FWC flight phase.

Not an aerodynamic model: altitude, speed and ground roll follow simple rules
so that procedures that touch them (rejected takeoff, emergency descent, RAT
minimum speed, glide after a dual flame-out) have visible consequences.
Start states set flight conditions directly; the aircraft then flies toward
the FCU ALT selection.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from .catalog import Control
from .tick import Tick

if TYPE_CHECKING:
    from .aircraft import Aircraft

FCU_ALTS = ("FL390", "FL370", "FL350", "FL330", "FL310", "FL290", "FL250", "FL200", "FL150",
            "FL120", "FL100", "FL080", "FL050", "3000 FT")

CONTROLS = (
    Control("FCU ALT", "FCU", FCU_ALTS, "FL100",
            description="Selected altitude; the autopilot climbs or descends to it"),
    Control("SPD BRK", "PEDESTAL", ("RET", "HALF", "FULL"), "RET", description="Speed brake lever"),
    Control("PARKING BRK", "PEDESTAL", ("ON", "OFF"), "ON", description="Parking brake"),
)

class EngineRunning(Protocol):
    @property
    def running(self) -> bool: ...


ROTATE_KT = 150.0
NORMAL_VS_FPM = 2000.0
EMER_VS_FPM = 6000.0


def fcu_alt_ft(sel: str) -> float:
    return 3000.0 if sel == "3000 FT" else float(sel[2:]) * 100.0


@dataclass(slots=True)
class Flight:
    altitude_ft: float = 0.0
    ias_kt: float = 0.0
    vs_fpm: float = 0.0
    on_ground: bool = True
    phase: str = "parked"  # parked, taxi, takeoff_roll, rejected_takeoff, stopped, climb, cruise, descent, approach
    landed: bool = False
    held: bool = False  # (harness) altitude and speed stay where they were put
    transient: bool = False

    @property
    def mach(self) -> float:
        # Rough IAS->Mach at altitude; only shown on the ENG/CRUISE readouts.
        return round(self.ias_kt / 661.0 * (1.0 + self.altitude_ft / 56000.0), 2)

    def update(self, t: Tick, engines: Sequence[EngineRunning]) -> None:
        if self.held:
            self.vs_fpm = 0.0
            self.transient = False
            return
        c, dt = t.controls, t.dt
        eng = engines
        was = (self.on_ground, self.phase, round(self.vs_fpm), round(self.ias_kt))
        if self.on_ground:
            takeoff_thrust = any(c[f"THR LEVER {n}"] in ("FLX/MCT", "TOGA") for n in (1, 2))
            if self.phase == "takeoff_roll" and takeoff_thrust and c["PARKING BRK"] == "OFF" and all(e.running for e in eng):
                self.ias_kt = min(ROTATE_KT, self.ias_kt + 3.0 * dt)
                if self.ias_kt >= ROTATE_KT:
                    self.on_ground = False
                    self.phase = "climb"
                    t.release("FCU ALT", "FL100" if fcu_alt_ft(c["FCU ALT"]) < 5000 else c["FCU ALT"])
            elif self.ias_kt > 0.0:
                # Thrust at idle: autobrake/crew braking to a stop (rejected takeoff). For the
                # FWC a rejected takeoff is a landing roll: phases 8, then 9.
                if self.phase == "takeoff_roll":
                    self.phase = "rejected_takeoff"
                    self.landed = True
                self.ias_kt = max(0.0, self.ias_kt - 5.0 * dt)
                if self.ias_kt == 0.0:
                    self.phase = "stopped"
            self.vs_fpm = 0.0
        else:
            target = fcu_alt_ft(c["FCU ALT"])
            running = sum(e.running for e in eng)
            if running == 0:
                # Glide: about 2 NM per 1000 ft at green dot.
                self.vs_fpm = -1800.0
                ias_target = 250.0
            elif self.altitude_ft < target - 50.0:
                self.vs_fpm = NORMAL_VS_FPM if running == 2 else 800.0
                ias_target = 290.0
            elif self.altitude_ft > target + 50.0:
                emergency = c["SPD BRK"] == "FULL" and all(c[f"THR LEVER {n}"] == "IDLE" for n in (1, 2))
                self.vs_fpm = -(EMER_VS_FPM if emergency else NORMAL_VS_FPM)
                ias_target = 320.0 if emergency else 290.0
            else:
                self.vs_fpm = 0.0
                self.altitude_ft = target
                ias_target = 160.0 if target <= 5000 else (250.0 if target <= 10000 else 270.0)
            step = self.vs_fpm / 60.0 * dt
            if self.vs_fpm > 0:
                self.altitude_ft = min(target, self.altitude_ft + step)
            elif self.vs_fpm < 0:
                floor = target if running else 0.0
                self.altitude_ft = max(floor, self.altitude_ft + step)
            self.ias_kt += max(-3.0 * dt, min(3.0 * dt, ias_target - self.ias_kt))
            self.phase = "climb" if self.vs_fpm > 0 else ("descent" if self.vs_fpm < 0 else
                                                           ("approach" if self.altitude_ft <= 5000 else "cruise"))
        now = (self.on_ground, self.phase, round(self.vs_fpm), round(self.ias_kt))
        self.transient = now != was or self.vs_fpm != 0.0 or (self.on_ground and self.ias_kt > 0.0)

    def fwc_phase(self, ac: Aircraft) -> int:
        """FWC flight phase 1-10 (domain reference §3.3)."""
        c = ac.controls
        running = any(e.running for e in ac.eng.engines)
        if self.on_ground:
            if self.ias_kt >= 80.0:
                return 4 if self.phase == "takeoff_roll" else 8
            if self.phase == "takeoff_roll" and any(c[f"THR LEVER {n}"] in ("FLX/MCT", "TOGA") for n in (1, 2)):
                return 3
            if self.landed:
                return 9 if running else 10
            return 2 if running else 1
        if self.vs_fpm > 0 and self.altitude_ft < 1500.0:
            return 5
        if self.vs_fpm < 0 and self.altitude_ft < 800.0:
            return 7
        return 6

    def vars(self) -> dict[str, object]:
        return {
            "flight.altitude_ft": round(self.altitude_ft, 1),
            "flight.ias_kt": round(self.ias_kt, 1),
            "flight.vs_fpm": round(self.vs_fpm),
            "flight.on_ground": self.on_ground,
            "flight.phase": self.phase,
        }
