"""Flight guidance (FMGC, simplified): FCU modes, AP and A/THR engagement, and what they ask of the
engines (a thrust fraction per engine) and of the flight model (a speed or a vertical-speed law).

Vertical modes (the FMA's names): SRS after lift-off; CLB / DES (managed, ALT knob pushed) and
OP CLB / OP DES (open, ALT knob pulled) hold the speed target with the elevator while the A/THR
gives climb thrust (THR CLB) or idle (THR IDLE); V/S holds the FCU V/S; ALT* captures and ALT
holds the FCU altitude while the A/THR holds the speed (SPEED). Turning the FCU ALT alone starts
nothing; turning it across the aircraft's altitude during an open climb or descent reverts to
V/S at the current vertical speed, as on the aircraft. Lateral: NAV holds the track (no route
is modelled), HDG turns toward the FCU heading.

The autopilot flies these modes; with the AP off the pilot flying follows the same flight
director, so the trajectory is the same (hand flying is not modelled). AP and A/THR are lost
with AC BUS 1 and 2 (the emergency electrical configuration); a lost A/THR locks the thrust
where it was (THR LK) until a thrust lever moves. The A/THR is active with the levers in CL
(MCT with one engine out); IDLE disconnects it; FLX/MCT or TOGA with both engines is manual
thrust with the A/THR armed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ..reads import FlightConditions
from ..tick import Tick
from . import performance as perf
from .atmosphere import cas_from_mach
from .fcu import fcu_alt_ft, fcu_hdg_deg, fcu_spd_kt, fcu_vs_fpm

SPEED_MODES = frozenset({"SRS", "CLB", "OP CLB", "DES", "OP DES"})
CLIMB_MODES = frozenset({"SRS", "CLB", "OP CLB"})
DESCENT_MODES = frozenset({"DES", "OP DES"})
ACCEL_ALT_FT = 1500.0  # SRS until here after take-off
V2_PLUS_10_KT = 160.0
LEVERS = ("THR LEVER 1", "THR LEVER 2")
ATHR_SPEED_TAU_S = 4.0
ALT_CAPTURE_TAU_S = 10.0
ALT_HOLD_TAU_S = 6.0
MAX_ACCEL_MS2 = 0.6


def _share(dt: float, tau: float) -> float:
    """Per second, the share of an error an exponential approach removes over a step of `dt`: the rate
    that lands exactly where the continuous law would, whatever the step."""
    return (1.0 - math.exp(-dt / tau)) / dt if dt > 0.0 else 1.0 / tau


# ---- what this system reads -----------------------------------------------------------
class FlightState(FlightConditions, Protocol):
    @property
    def vs_fpm(self) -> float: ...
    @property
    def mass_kg(self) -> float: ...
    @property
    def drag_n(self) -> float: ...
    @property
    def sin_gamma(self) -> float: ...
    @property
    def config(self) -> str: ...


class EnginesRunning(Protocol):
    def running(self, n: int) -> bool: ...


class AcPower(Protocol):
    def ac_bus_powered(self, n: int) -> bool: ...


@dataclass(slots=True)
class Guidance:
    vertical_mode: str = ""  # "", SRS, CLB, OP CLB, DES, OP DES, V/S, ALT*, ALT
    lateral_mode: str = ""  # "", NAV, HDG
    speed_managed: bool = True
    speed_target_kt: float = 0.0
    vs_target_fpm: float = 0.0  # the V/S of the V/S mode
    alt_target_ft: float = 0.0  # what ALT* captures and ALT holds
    hdg_target_deg: float | None = None  # HDG mode
    ap_engaged: bool = False
    ap_label: str = ""  # AP1, AP2, AP1+2
    athr_engaged: bool = False  # pushbutton ON and the A/THR available
    athr_active: bool = False
    athr_mode: str = ""  # SPEED, THR CLB, THR IDLE, THR LK, or "" (manual thrust)
    thrust_frac: list[float] = field(default_factory=lambda: [0.0, 0.0])  # per engine, 0 idle .. 1 TOGA
    reverse: list[bool] = field(default_factory=lambda: [False, False])
    transient: bool = False
    _locked_frac: list[float] | None = None
    _locked_levers: tuple[str, str] = ("", "")
    _last_fcu_alt: str = ""
    _was_on_ground: bool = True

    # ---- what the flight model asks --------------------------------------------------
    @property
    def holds_speed_with_pitch(self) -> bool:
        return self.vertical_mode in SPEED_MODES

    @property
    def climb_only(self) -> bool:
        return self.vertical_mode in CLIMB_MODES

    @property
    def descent_only(self) -> bool:
        return self.vertical_mode in DESCENT_MODES

    def vs_command_fpm(self, altitude_ft: float, dt: float) -> float:
        """The vertical speed of the path modes (ALT, ALT*, V/S) over a step of `dt` seconds. The captures
        are exponential (ALT* ~10 s, ALT ~6 s time constant), exact for any step size."""
        if self.vertical_mode == "V/S":
            return self.vs_target_fpm
        err = self.alt_target_ft - altitude_ft
        if self.vertical_mode == "ALT*":
            limit = abs(self.vs_target_fpm)
            return max(-limit, min(limit, err * _share(dt, ALT_CAPTURE_TAU_S) * 60.0))
        return max(-1000.0, min(1000.0, err * _share(dt, ALT_HOLD_TAU_S) * 60.0))

    # ---- update ------------------------------------------------------------------------
    def start_in_flight(self, altitude_ft: float, on_ground: bool) -> None:
        """(harness) The aircraft was put at these conditions: hold them (ALT, NAV) or wait on the ground."""
        self._was_on_ground = on_ground
        if on_ground:
            self.vertical_mode = self.lateral_mode = ""
        else:
            self.vertical_mode, self.alt_target_ft, self.lateral_mode = "ALT", altitude_ft, "NAV"

    def update(self, t: Tick, flight: FlightState, engines: EnginesRunning, elec: AcPower) -> None:
        was = (self.vertical_mode, self.lateral_mode, self.ap_engaged, self.athr_engaged, self.athr_mode)
        c = t.controls
        powered = elec.ac_bus_powered(1) or elec.ac_bus_powered(2)
        running = [engines.running(1), engines.running(2)]
        self._modes(t, flight)
        self._speed_target(c, flight, running)
        self._engagement(t, flight, powered, running)
        self._thrust(c, flight, running, t.dt)
        self._last_fcu_alt = c["FCU ALT"]
        self._was_on_ground = flight.on_ground
        now = (self.vertical_mode, self.lateral_mode, self.ap_engaged, self.athr_engaged, self.athr_mode)
        self.transient = now != was

    def _modes(self, t: Tick, flight: FlightState) -> None:
        """Knob pushes and pulls, take-off, mode reversion, altitude capture."""
        c = t.controls
        alt, fcu_alt = flight.altitude_ft, fcu_alt_ft(c["FCU ALT"])
        alt_knob = "PULL" if t.pushed_to("FCU ALT KNOB", "PULL") else ("PUSH" if t.pushed_to("FCU ALT KNOB", "PUSH") else "")
        vs_knob = "PULL" if t.pushed_to("FCU V/S KNOB", "PULL") else ("PUSH" if t.pushed_to("FCU V/S KNOB", "PUSH") else "")
        if t.pushed_to("FCU SPD KNOB", "PULL"):
            self.speed_managed = False
        if t.pushed_to("FCU SPD KNOB", "PUSH"):
            self.speed_managed = True
        if t.pushed_to("FCU HDG KNOB", "PULL"):
            self.lateral_mode = "HDG"
        if t.pushed_to("FCU HDG KNOB", "PUSH"):
            self.lateral_mode = "NAV"
        self.hdg_target_deg = fcu_hdg_deg(c["FCU HDG"]) if self.lateral_mode == "HDG" else None
        if flight.on_ground:
            self.vertical_mode = ""
            self.lateral_mode = ""
            return
        if self._was_on_ground:  # lift-off
            self.vertical_mode, self.lateral_mode = "SRS", self.lateral_mode or "NAV"
        if not self.lateral_mode:
            self.lateral_mode = "NAV"
        if alt_knob:
            managed = alt_knob == "PUSH"
            if fcu_alt > alt + 50.0:
                self.vertical_mode = "CLB" if managed else "OP CLB"
            elif fcu_alt < alt - 50.0:
                self.vertical_mode = "DES" if managed else "OP DES"
            else:
                self.vertical_mode, self.alt_target_ft = "ALT", fcu_alt
        if vs_knob:
            self.vertical_mode = "V/S"
            self.vs_target_fpm = fcu_vs_fpm(c["FCU V/S"]) if vs_knob == "PULL" else 0.0
        self._reversion(c["FCU ALT"], fcu_alt, alt, flight.vs_fpm)
        self._capture(fcu_alt, alt, flight.vs_fpm)

    def _reversion(self, fcu_sel: str, fcu_alt: float, alt: float, vs_fpm: float) -> None:
        """SRS ends at the acceleration altitude; an FCU ALT turned across the aircraft's altitude in an
        open or managed climb/descent reverts to V/S at the current vertical speed."""
        mode = self.vertical_mode
        if mode == "SRS" and alt >= ACCEL_ALT_FT:
            self.vertical_mode = "CLB" if fcu_alt > alt + 50.0 else "ALT*"
            self.alt_target_ft = fcu_alt
            self.vs_target_fpm = max(abs(vs_fpm), 500.0)
        elif fcu_sel != self._last_fcu_alt and mode in ("CLB", "OP CLB", "DES", "OP DES", "ALT*"):
            wrong_side = fcu_alt < alt - 50.0 if mode in CLIMB_MODES or vs_fpm > 0 else fcu_alt > alt + 50.0
            if wrong_side or mode == "ALT*":
                self.vertical_mode = "V/S"
                self.vs_target_fpm = round(vs_fpm / 100.0) * 100.0

    def _capture(self, fcu_alt: float, alt: float, vs_fpm: float) -> None:
        mode = self.vertical_mode
        toward = (fcu_alt - alt) * vs_fpm > 0.0
        if mode in ("CLB", "OP CLB", "DES", "OP DES", "V/S") and toward:
            band = max(250.0, abs(vs_fpm) * 0.15)
            if abs(fcu_alt - alt) < band:
                self.vertical_mode, self.alt_target_ft = "ALT*", fcu_alt
                self.vs_target_fpm = max(abs(vs_fpm), 500.0)
        if self.vertical_mode == "ALT*" and abs(self.alt_target_ft - alt) < 20.0:
            self.vertical_mode = "ALT"

    def _speed_target(self, c: Mapping[str, str], flight: FlightState, running: Sequence[bool]) -> None:
        """Managed (FMS) or selected, kept between VLS + 5 kt and VMAX (the FMGC's own limits)."""
        alt, mass = flight.altitude_ft, flight.mass_kg
        if self.vertical_mode == "SRS":
            target = V2_PLUS_10_KT
        elif not self.speed_managed:
            target = fcu_spd_kt(c["FCU SPD"])
        elif not flight.on_ground and running.count(True) == 1:
            target = perf.green_dot_kt(mass, alt)  # engine out: the managed speed is green dot
        elif flight.config == "CONF 3":  # approach: VLS + 10 kt (VAPP)
            target = perf.vls_kt(mass, alt, flight.config) + 10.0
        elif alt < 10000.0:
            target = 250.0
        else:
            target = min(290.0, cas_from_mach(0.78, alt))
        low = perf.vls_kt(mass, alt, flight.config) + 5.0
        self.speed_target_kt = max(low, min(perf.vmax_kt(alt, flight.config), target))

    def _engagement(self, t: Tick, flight: FlightState, powered: bool, running: Sequence[bool]) -> None:
        """AP and A/THR: engaged when selected and available; the aircraft releases a pushbutton it
        disconnects. Levers at IDLE disconnect the A/THR; a lost A/THR locks the thrust (THR LK)."""
        c = t.controls
        ap_avail = powered and not flight.on_ground
        for ap in ("AP 1", "AP 2"):
            if c[ap] == "ON" and not powered:
                t.release(ap, "OFF")
        on = [n for n in (1, 2) if c[f"AP {n}"] == "ON"] if ap_avail else []
        self.ap_engaged = bool(on)
        self.ap_label = "AP" + "+".join(str(n) for n in on) if on else ""
        levers = tuple(c[lv] for lv in LEVERS)
        live = [levers[i] for i in (0, 1) if running[i]]
        athr_avail = powered and bool(live)
        was_active = self.athr_active
        if c["A/THR"] == "ON" and (not athr_avail or (not flight.on_ground and live and all(lv == "IDLE" for lv in live))):
            t.release("A/THR", "OFF")
            if was_active and not athr_avail:  # an involuntary loss: thrust frozen where it was
                self._locked_frac, self._locked_levers = list(self.thrust_frac), levers
        self.athr_engaged = c["A/THR"] == "ON"
        limit_detent = "CL" if len(live) == 2 else "FLX/MCT"
        self.athr_active = self.athr_engaged and bool(live) and all(
            lv == "CL" or (lv == limit_detent) for lv in live) and not flight.on_ground
        if self._locked_frac is not None and (levers != self._locked_levers or self.athr_active):
            self._locked_frac = None

    def _thrust(self, c: Mapping[str, str], flight: FlightState, running: Sequence[bool], dt: float) -> None:
        """Each engine's thrust fraction: the A/THR's, the locked one, or the lever detent's."""
        alt, mach = flight.altitude_ft, flight.mach
        n_live = max(1, running.count(True))
        ratings = {"IDLE": 0.0, "REV": 0.0, "TOGA": 1.0,
                   "CL": perf.rating_fraction(perf.CL_RATIO, alt, mach),
                   "FLX/MCT": perf.rating_fraction(perf.MCT_RATIO, alt, mach)}
        if self._locked_frac is not None:
            self.athr_mode = "THR LK"
        elif not self.athr_active:
            self.athr_mode = ""
        elif self.vertical_mode in DESCENT_MODES:
            self.athr_mode = "THR IDLE"
        elif self.vertical_mode in CLIMB_MODES:
            self.athr_mode = "THR CLB"
        else:
            self.athr_mode = "SPEED"
        for i in (0, 1):
            lever = c[LEVERS[i]]
            self.reverse[i] = lever == "REV" and flight.on_ground
            limit = ratings[lever]
            if self.athr_mode == "THR LK":
                frac = self._locked_frac[i]  # type: ignore[index]
            elif self.athr_mode == "THR IDLE":
                frac = 0.0
            elif self.athr_mode == "THR CLB":
                frac = limit
            elif self.athr_mode == "SPEED":
                frac = min(limit, self._speed_thrust_frac(flight, n_live, dt))
            else:
                frac = limit
            self.thrust_frac[i] = frac

    def _speed_thrust_frac(self, flight: FlightState, n_live: int, dt: float) -> float:
        """A/THR SPEED: the thrust that holds the path and brings the speed to its target (an exponential
        approach, ~4 s time constant, exact for any step size)."""
        err_ms = (self.speed_target_kt - flight.ias_kt) * 0.514444
        accel = max(-MAX_ACCEL_MS2, min(MAX_ACCEL_MS2, err_ms * _share(dt, ATHR_SPEED_TAU_S)))
        need_n = flight.drag_n + flight.mass_kg * (9.80665 * flight.sin_gamma + accel)
        frac = perf.fraction_for_thrust(need_n / n_live, flight.altitude_ft, flight.mach)
        return max(0.0, frac)

    # ---- read-outs ----------------------------------------------------------------
    def fma(self) -> dict[str, object]:
        """The flight mode annunciator, as the PFD shows it."""
        return {"autopilot": self.ap_label or "OFF", "autothrust": self.athr_mode or ("A/THR" if self.athr_engaged else "OFF"),
                "vertical": self.vertical_mode or "-", "lateral": self.lateral_mode or "-",
                "speed": "MANAGED" if self.speed_managed else "SELECTED",
                "speed_target_kt": round(self.speed_target_kt)}

    def vars(self) -> dict[str, object]:
        return {
            "fg.vertical_mode": self.vertical_mode,
            "fg.lateral_mode": self.lateral_mode,
            "fg.speed_managed": self.speed_managed,
            "fg.speed_target_kt": round(self.speed_target_kt, 1),
            "fg.ap_engaged": self.ap_engaged,
            "fg.athr_engaged": self.athr_engaged,
            "fg.athr_active": self.athr_active,
            "fg.athr_mode": self.athr_mode,
        }
