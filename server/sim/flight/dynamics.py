"""The flight model: a point mass along its flight path, the ground roll, and the FWC flight phase.

Airborne, thrust (the engines') minus drag (clean, flaps, gear, speed brakes,
a windmilling engine) minus the weight's component along the path gives the
acceleration; the flight guidance chooses the path angle: to hold a speed in
the speed modes (OP DES at idle thrust gives the idle descent rate the drag
allows), or a vertical speed in ALT and V/S. Two protections on top, as the
flight envelope protections and the crew would: below VLS the aircraft trades
altitude for speed, above VMAX it trades speed for altitude. So an engine out
at FL350 cannot hold the level and drifts down, and an emergency descent is
as fast as idle thrust, the speed and the speed brakes make it.

On the ground: the take-off roll on take-off thrust to rotation at 150 kt, or a
rejected take-off braking to a stop. Start states and tests may put the aircraft
somewhere directly (`hold` keeps it there), which no crew action can do.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from ..tick import STEADY_STEP_S, Tick
from . import performance as perf
from .atmosphere import FT, G, KT, cas_from_tas, mach_from_cas, sound_speed_ms

if TYPE_CHECKING:
    from ..aircraft import Aircraft

ROTATE_KT = 150.0
RTO_DECEL_KT_S = 5.0  # autobrake MAX on a rejected take-off
ROLLING_FRICTION = 0.02
FLAPS_UP_KT = 200.0
CAPTURE_SNAP_FT = 1.0
MAX_CLIMB_FPM = 6000.0
MAX_DESCENT_FPM = 9000.0
MAX_PATH_SIN = 0.156  # flight path angle within +-9 degrees
SPEED_PITCH_TAU_S = 10.0  # speed on elevator: the time constant of the speed's approach to its target
MAX_SPEED_CHANGE_KT_S = 1.0
TURN_RATE_DEG_S = 3.0
PROTECTION_MARGIN_KT = 5.0
SLOW_SPEED_CHANGE_KT_S = 0.05  # below this the speed only creeps: the steady step is accurate
FAST_SPEED_CHANGE_KT_S = 0.5  # above this the speed changes fast: 0.2 s ticks
SETTLE_BAND_FT = 250.0  # within it ALT brings the aircraft back on its level (0.2 s ticks); farther off,
# ALT cannot get there (one engine at VLS, sinking or holding below the level): a slow steady state


# ---- what this system reads -----------------------------------------------------------
class GuidanceLaw(Protocol):
    @property
    def holds_speed_with_pitch(self) -> bool: ...
    @property
    def climb_only(self) -> bool: ...
    @property
    def descent_only(self) -> bool: ...
    @property
    def speed_target_kt(self) -> float: ...
    @property
    def hdg_target_deg(self) -> float | None: ...
    @property
    def vertical_mode(self) -> str: ...
    @property
    def alt_target_ft(self) -> float: ...
    def vs_command_fpm(self, altitude_ft: float, dt: float) -> float: ...


class EngineThrust(Protocol):
    def thrust_n(self, n: int) -> float: ...
    def running(self, n: int) -> bool: ...


class FuelOnBoard(Protocol):
    @property
    def fob_kg(self) -> float: ...


class SpeedBrakes(Protocol):
    @property
    def speed_brake_share(self) -> float: ...


@dataclass(slots=True)
class Flight:
    altitude_ft: float = 0.0
    ias_kt: float = 0.0  # calibrated airspeed
    vs_fpm: float = 0.0
    heading_deg: float = 0.0
    on_ground: bool = True
    phase: str = "parked"  # parked, takeoff_roll, rejected_takeoff, stopped, climb, cruise, descent, approach
    landed: bool = False
    held: bool = False  # (harness) altitude and speed stay where they were put
    config: str = "CLEAN"  # CLEAN, CONF 1+F, CONF 3 (set by the take-off and by the start states)
    gear_down: bool = False
    takeoff_climb: bool = False  # lift-off to 1,500 ft: FWC phase 5
    mass_kg: float = perf.weight_kg(0.0)
    mach: float = 0.0
    drag_n: float = 0.0
    sin_gamma: float = 0.0
    transient: bool = False  # fast dynamics (ground roll, captures, speed changes): 0.2 s steps
    max_step_s: float = STEADY_STEP_S  # otherwise the step it tolerates: 1 s on a steady climb or descent

    def update(self, t: Tick, guidance: GuidanceLaw, engines: EngineThrust, fuel: FuelOnBoard,
               fctl: SpeedBrakes) -> None:
        self.mass_kg = perf.weight_kg(fuel.fob_kg)
        self.mach = mach_from_cas(self.ias_kt, self.altitude_ft)
        if self.held:
            self.vs_fpm = self.sin_gamma = 0.0
            self.transient = False
            return
        was = (self.on_ground, self.phase, self.config)
        thrust = engines.thrust_n(1) + engines.thrust_n(2)
        self.max_step_s = STEADY_STEP_S
        if self.on_ground:
            fast = self._ground_roll(t, thrust, engines)
        else:
            sb_cd = perf.SPD_BRK_CD[t.controls["SPD BRK"]] * fctl.speed_brake_share
            engines_out = (not engines.running(1)) + (not engines.running(2))
            fast = self._fly(t.dt, thrust, sb_cd, engines_out, guidance)
            fast |= self._turn(t.dt, guidance.hdg_target_deg)
            self._phases()
        self.transient = fast or (self.on_ground, self.phase, self.config) != was

    # ---- airborne ------------------------------------------------------------------
    def _fly(self, dt: float, thrust_n: float, sb_cd: float, engines_out: int, guidance: GuidanceLaw) -> bool:
        """One step along the flight path. True while anything moves."""
        alt, cas, m = self.altitude_ft, self.ias_kt, self.mass_kg
        a_ms = sound_speed_ms(alt)
        tas = self.mach * a_ms
        self.drag_n = perf.drag_n(m, self.mach, alt, self.config, self.gear_down, sb_cd, engines_out)
        accel_level = (thrust_n - self.drag_n) / m  # along the path at zero path angle, m/s^2
        # How CAS changes with TAS and with altitude here (kt per m/s, kt per m).
        dcas_dtas = cas_from_tas(tas + 1.0, alt) - cas
        dcas_dh = (cas_from_tas(tas, alt + 100.0) - cas) / (100.0 * FT)

        share = (1.0 - math.exp(-dt / SPEED_PITCH_TAU_S)) / dt  # exponential approach, exact for any step

        def sin_for_speed(target_kt: float) -> float:
            """The path angle that brings the CAS toward `target_kt` (speed on elevator)."""
            a_cmd = max(-MAX_SPEED_CHANGE_KT_S, min(MAX_SPEED_CHANGE_KT_S, share * (target_kt - cas)))
            return (dcas_dtas * accel_level - a_cmd) / (dcas_dtas * G - dcas_dh * tas)

        if guidance.holds_speed_with_pitch:
            s = sin_for_speed(guidance.speed_target_kt)
            if guidance.climb_only:
                s = max(0.0, s)
            if guidance.descent_only:
                s = min(0.0, s)
        else:
            s = guidance.vs_command_fpm(alt, dt) * FT / 60.0 / max(tas, 1.0)
        # Envelope: below VLS give up altitude for speed; above VMAX give up speed for altitude.
        vls = perf.vls_kt(m, alt, self.config)
        if cas < vls + PROTECTION_MARGIN_KT:
            s = min(s, sin_for_speed(vls + PROTECTION_MARGIN_KT))
        vmax = perf.vmax_kt(alt, self.config)
        if cas > vmax:
            s = max(s, sin_for_speed(vmax))
        s = max(-MAX_PATH_SIN, min(MAX_PATH_SIN, s))  # the AP's pitch authority
        s = max(-MAX_DESCENT_FPM, min(MAX_CLIMB_FPM, s * tas / FT * 60.0)) * FT / 60.0 / max(tas, 1.0)
        self.sin_gamma = s
        tas_new = max(1.0, tas + (accel_level - G * s) * dt)
        climb_ft = tas * s * dt / FT
        new_alt = max(0.0, alt + climb_ft)
        if guidance.vertical_mode == "ALT" and abs(new_alt - guidance.alt_target_ft) < CAPTURE_SNAP_FT:
            new_alt, climb_ft = guidance.alt_target_ft, new_alt - alt
        self.altitude_ft = new_alt
        self.vs_fpm = climb_ft / dt * 60.0 if dt > 0 else 0.0
        new_cas = cas_from_tas(tas_new, new_alt)
        target = guidance.speed_target_kt
        if abs(new_cas - target) < 0.05 and abs(cas - target) < 0.05:
            new_cas = target
        self.ias_kt = new_cas
        self.mach = mach_from_cas(new_cas, new_alt)
        if self.config != "CLEAN" and not self.gear_down and new_cas > FLAPS_UP_KT and new_alt > 1500.0:
            self.config = "CLEAN"  # flaps retracted on schedule (crew action not modelled)
        return self._pace(dt, new_cas - cas, guidance)

    def _pace(self, dt: float, dcas_kt: float, guidance: GuidanceLaw) -> bool:
        """Whether the path needs 0.2 s steps (speed changing fast, a level capture or a level change
        near) or tolerates larger ones: 1 s on a steady climb or descent, the steady step when the speed
        only creeps (thrust locked while the fuel burns off)."""
        rate = abs(dcas_kt) / dt if dt > 0 else 0.0
        if rate > FAST_SPEED_CHANGE_KT_S or guidance.vertical_mode == "ALT*":
            return True
        if (abs(self.vs_fpm) > 0.5 and guidance.vertical_mode == "ALT"
                and abs(guidance.alt_target_ft - self.altitude_ft) < SETTLE_BAND_FT):  # settling back on the level
            return True
        if abs(self.vs_fpm) > 0.5 or rate > SLOW_SPEED_CHANGE_KT_S:
            self.max_step_s = 1.0  # the capture band (>= 250 ft) is many 1 s steps wide
        return False

    def _turn(self, dt: float, target: float | None) -> bool:
        """HDG mode: a rate-one turn toward the FCU heading. True while turning."""
        if target is None:
            return False
        diff = (target - self.heading_deg + 180.0) % 360.0 - 180.0
        step = max(-TURN_RATE_DEG_S * dt, min(TURN_RATE_DEG_S * dt, diff))
        self.heading_deg = (self.heading_deg + step) % 360.0
        return step != 0.0

    def _phases(self) -> None:
        if self.takeoff_climb and self.altitude_ft >= 1500.0:
            self.takeoff_climb = False
        if self.vs_fpm > 100.0:
            self.phase = "climb"
        elif self.vs_fpm < -100.0:
            self.phase = "descent"
        else:
            self.phase = "approach" if self.altitude_ft <= 5000.0 and self.config != "CLEAN" else "cruise"

    # ---- on the ground -----------------------------------------------------------------
    def _ground_roll(self, t: Tick, thrust_n: float, engines: EngineThrust) -> bool:
        """Take-off roll to rotation, or braking to a stop (a rejected take-off is, for the FWC, a
        landing roll: phases 8, then 9). True while the aircraft moves."""
        c = t.controls
        takeoff_thrust = any(c[f"THR LEVER {n}"] in ("FLX/MCT", "TOGA") for n in (1, 2))
        self.vs_fpm = self.sin_gamma = 0.0
        if (self.phase == "takeoff_roll" and takeoff_thrust and c["PARKING BRK"] == "OFF"
                and engines.running(1) and engines.running(2)):
            self.mach = mach_from_cas(self.ias_kt, 0.0)
            # On the wheels the wings carry no weight: no induced drag (load factor 0).
            self.drag_n = perf.drag_n(self.mass_kg, self.mach, 0.0, self.config, True, 0.0, 0, load_factor=0.0)
            accel = (thrust_n - self.drag_n - ROLLING_FRICTION * self.mass_kg * G) / self.mass_kg
            self.ias_kt = min(ROTATE_KT, self.ias_kt + accel / KT * t.dt)
            if self.ias_kt >= ROTATE_KT:
                self.on_ground = False
                self.takeoff_climb = True
                self.phase = "climb"
            return True
        if self.ias_kt > 0.0:
            if self.phase == "takeoff_roll":
                self.phase = "rejected_takeoff"
                self.landed = True
            self.ias_kt = max(0.0, self.ias_kt - RTO_DECEL_KT_S * t.dt)
            if self.ias_kt == 0.0:
                self.phase = "stopped"
            return True
        return False

    # ---- the FWC's view ------------------------------------------------------------
    def fwc_phase(self, ac: Aircraft) -> int:
        """FWC flight phase 1-10 (domain reference §3.3); phase 5 from lift-off to 1,500 ft without a gap."""
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
        if self.takeoff_climb:
            return 5
        if self.vs_fpm < 0 and self.altitude_ft < 800.0:
            return 7
        return 6

    # ---- read-outs -----------------------------------------------------------------
    def vars(self) -> dict[str, object]:
        return {
            "flight.altitude_ft": round(self.altitude_ft, 1),
            "flight.ias_kt": round(self.ias_kt, 1),
            "flight.vs_fpm": round(self.vs_fpm),
            "flight.on_ground": self.on_ground,
            "flight.phase": self.phase,
            "flight.mach": round(self.mach, 3),
            "flight.heading_deg": round(self.heading_deg),
            "flight.gross_weight_kg": round(self.mass_kg),
            "flight.config": self.config,
        }

    def header(self, speeds: Mapping[str, float]) -> dict[str, object]:
        """What every system page shows of the flight (the PFD's numbers)."""
        return {"altitude_ft": round(self.altitude_ft), "ias_kt": round(self.ias_kt), "mach": round(self.mach, 2),
                "vs_fpm": int(round(self.vs_fpm, -2)), "heading_deg": round(self.heading_deg) % 360,
                "phase": self.phase, "on_ground": self.on_ground, **{k: round(v) for k, v in speeds.items()}}


def characteristic_speeds(fl: Flight) -> dict[str, float]:
    return {"vls_kt": perf.vls_kt(fl.mass_kg, fl.altitude_ft, fl.config),
            "green_dot_kt": perf.green_dot_kt(fl.mass_kg, fl.altitude_ft),
            "vmax_kt": perf.vmax_kt(fl.altitude_ft, fl.config)}
