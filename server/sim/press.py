"""Cabin pressurisation (ATA 21): controllers, outflow valve, cabin altitude and rate.

The cabin is a volume of air: the packs (and ram air, when the differential
pressure is below 1 psi) blow air in; the outflow valve, the fuselage leakage
and the safety valves let it out, each as an orifice (flow ~ area * sqrt(dP)).
Cabin pressure integrates the difference, so losing both packs or an outflow
valve stuck open makes the cabin climb by itself, and an emergency descent
brings it back down.

Two cabin pressure controllers (CPC 1/2, one active, automatic changeover on
failure). In AUTO the active CPC drives the outflow valve to follow a cabin
altitude schedule (about 8000 ft at FL390, -300/+500 fpm) by inverting the
orifice model; with both CPCs failed the valve stays where it was. In MAN
(CAB PRESS MODE SEL) the MAN V/S CTL toggle drives the valve: UP opens it
(cabin climbs), DN closes it. The real toggle is spring-loaded to neutral;
here UP and DN stay selected until the crew sets NEUTRAL, so "hold the
toggle for 3 s" is "UP, wait 3, NEUTRAL".

Start states write the flight altitude directly; a jump of more than 1000 ft
in one tick re-initialises the cabin on its schedule (an aircraft cannot do
that, so it is always a harness write).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, field
from operator import itemgetter
from typing import TYPE_CHECKING, Protocol

from .catalog import Control, Failure
from .reads import FlightConditions
from .tick import STEADY_STEP_S, Tick

if TYPE_CHECKING:
    from .aircraft import Aircraft


# ---- what this system reads -----------------------------------------------------------
class CabinInflow(Protocol):
    @property
    def pack_flow_pct(self) -> Sequence[float]: ...
    @property
    def pack_inflow(self) -> float: ...
    @property
    def ram_air_open(self) -> bool: ...


LDG_ELEVS = ("AUTO", "-2000 FT", "0 FT", "2000 FT", "4000 FT", "6000 FT", "8000 FT", "10000 FT", "12000 FT",
             "14000 FT")

CONTROLS = (
    Control("CAB PRESS MODE SEL", "CABIN PRESS", ("AUTO", "MAN"), "AUTO",
            description="Pressurisation mode: AUTO (controllers) or MAN (MAN V/S CTL drives the outflow valve)"),
    Control("MAN V/S CTL", "CABIN PRESS", ("UP", "NEUTRAL", "DN"), "NEUTRAL",
            description="In MAN mode: UP opens the outflow valve (cabin climbs), DN closes it (cabin descends). "
                        "Spring-loaded on the aircraft; here it stays in UP or DN until set back to NEUTRAL"),
    Control("LDG ELEV", "CABIN PRESS", LDG_ELEVS, "AUTO",
            description="Landing field elevation for the cabin schedule; AUTO takes it from the FMS (0 ft)"),
    Control("DITCHING", "CABIN PRESS", ("OFF", "ON"), "OFF", guarded=True,
            description="Closes the outflow valve, ram air inlet and pack valves"),
)

FAILURES = (
    Failure("press_cpc1_fault", 21, "PRESS", "Cabin pressure controller 1 fails"),
    Failure("press_cpc2_fault", 21, "PRESS", "Cabin pressure controller 2 fails"),
    Failure("press_outflow_valve_stuck_open", 21, "PRESS",
            "Outflow valve actuator runs away open and jams well beyond its cruise opening"),
)

OWN_FAILURES = frozenset(x.id for x in FAILURES)
_panel = itemgetter(*(ctl.name for ctl in CONTROLS))

P0_PSI = 14.696
K_PSI_PER_FLOW_S = 0.0185  # cabin pressure rise per second for one pack's NORM flow with no outflow
LEAK_AREA = 0.16  # fuselage leakage, in the same flow units per sqrt(psi)
OFV_AREA = 30.0  # outflow valve fully open; the area grows with the square of the opening
OFV_JAM_PCT = 20.0
AUTO_OFV_RATE_PCT_S = 5.0
MAN_OFV_RATE_PCT_S = 0.15
RUNAWAY_OFV_RATE_PCT_S = 2.0
SAFETY_VALVE_PSI = 8.6
NEG_RELIEF_PSI = -0.25
RELIEF_GAIN = 10.0
RAM_AIR_FLOW = 0.35
EPS_PSI = 0.005  # flow is linear in dP below ~this (keeps the orifice law smooth at zero)
MAX_CAB_ALT_FT = 8000.0
MAX_CAB_AT_FT = 39000.0
CAB_CLIMB_FPM = 500.0
CAB_DESCENT_FPM = -300.0
CAB_GAIN_PER_MIN = 3.0  # fpm commanded per ft off schedule
EXCESS_CAB_ALT_FT = 9550.0
EXCESS_CAB_ALT_RESET_FT = 9250.0
PAX_OXYGEN_CAB_ALT_FT = 14000.0  # passenger masks drop automatically above this
TELEPORT_FT = 1000.0
SMOOTH_STEP_S = 1.0


def isa_psi(alt_ft: float) -> float:
    return P0_PSI * max(0.0, 1.0 - 6.8756e-6 * alt_ft) ** 5.2559


def isa_alt_ft(p_psi: float) -> float:
    return (1.0 - (max(p_psi, 0.01) / P0_PSI) ** (1.0 / 5.2559)) / 6.8756e-6


def _g(dp: float) -> float:
    """Orifice flow per unit area: ~sqrt(dP), linear near zero, odd (reverse flow when dP < 0)."""
    return dp / math.sqrt(abs(dp) + EPS_PSI)


def _dg(dp: float) -> float:
    x = abs(dp)
    return (x + 2 * EPS_PSI) / (2.0 * (x + EPS_PSI) ** 1.5)


def _relief(dp: float) -> float:
    if dp > SAFETY_VALVE_PSI:
        return RELIEF_GAIN * (dp - SAFETY_VALVE_PSI)
    if dp < NEG_RELIEF_PSI:
        return RELIEF_GAIN * (dp - NEG_RELIEF_PSI)
    return 0.0


def ldg_elev_ft(sel: str) -> float:
    return 0.0 if sel == "AUTO" else float(sel.split()[0])


def schedule_ft(alt_ft: float, ldg_ft: float) -> float:
    """Cabin altitude target: landing elevation on the ground, 8000 ft at FL390, linear between."""
    frac = min(1.0, max(0.0, alt_ft) / MAX_CAB_AT_FT)
    return min(alt_ft, ldg_ft + (MAX_CAB_ALT_FT - ldg_ft) * frac)


@dataclass(slots=True)
class Press:
    cabin_psi: float = P0_PSI
    cabin_alt_ft: float = 0.0
    cabin_vs_fpm: float = 0.0
    cabin_alt_peak_ft: float = 0.0  # highest cabin altitude since the crew's record began (the harness resets it)
    cabin_above_14000_ft_s: float = 0.0  # time the cabin spent above 14,000 ft (passengers on oxygen) since then
    diff_psi: float = 0.0
    ofv_pct: float = 100.0
    safety_valve_open: bool = False
    active_cpc: int = 1
    cpc_ok: list[bool] = field(default_factory=lambda: [True, True])
    auto_control: bool = True  # an active CPC drives the outflow valve
    excess_cab_alt: bool = False
    ram_air_flowing: bool = False
    inflow_packs: float = 0.0  # air in, in packs at NORM flow
    last_alt_ft: float = 0.0
    transient: bool = True  # a discrete change (valve, controller, alert threshold): 0.2 s steps
    max_step_s: float = STEADY_STEP_S  # a cabin still moving smoothly tolerates 1 s steps
    _settled: bool = False  # nothing moves: with unchanged inputs the update can be skipped
    _inputs_seen: tuple = ()

    # ---- the orifice model --------------------------------------------------------
    def _outflow(self, dp: float, ofv_pct: float) -> float:
        area = LEAK_AREA + OFV_AREA * (ofv_pct / 100.0) ** 2
        return area * _g(dp) + _relief(dp)

    def _ofv_for(self, q_out: float, dp: float) -> float:
        """Outflow valve opening that lets `q_out` through at `dp` (clamped 0-100 %)."""
        g = _g(dp)
        if abs(g) < 1e-9:
            return 100.0 if q_out > 0 else 0.0
        area = (q_out - _relief(dp)) / g - LEAK_AREA
        if area <= 0.0:
            return 0.0
        return min(100.0, 100.0 * math.sqrt(area / OFV_AREA))

    def update(self, t: Tick, bleed: CabinInflow, flight: FlightConditions) -> None:
        c, f = t.controls, t.failures
        if self.cabin_alt_ft > PAX_OXYGEN_CAB_ALT_FT:  # exposure counts while the cabin stands still too
            self.cabin_above_14000_ft_s += t.dt
        # Steady and nothing new to react to: the cabin is at a fixed point.
        inputs = (flight.altitude_ft, flight.on_ground, bleed.pack_flow_pct[0], bleed.pack_flow_pct[1],
                  bleed.ram_air_open, bleed.ram_air_open and flight.ias_kt, _panel(c), f & OWN_FAILURES)
        if self._settled and inputs == self._inputs_seen:
            return
        self._inputs_seen = inputs
        alt = flight.altitude_ft
        p_amb = isa_psi(alt)
        ldg = ldg_elev_ft(c["LDG ELEV"])
        was = (self.excess_cab_alt, self.safety_valve_open, self.active_cpc, self.auto_control, self.ram_air_flowing)
        self._controllers(c, f)
        if abs(alt - self.last_alt_ft) > TELEPORT_FT:
            self._settle(alt, p_amb, ldg, bleed.pack_inflow, flight.on_ground)
        self.last_alt_ft = alt
        # Air in: packs, and ram air once the cabin is (nearly) unpressurised.
        dp = self.cabin_psi - p_amb
        ram = 0.0
        if bleed.ram_air_open and not flight.on_ground and dp < 1.0:
            ram = RAM_AIR_FLOW * min(1.0, 1.0 - dp) * min(1.0, flight.ias_kt / 250.0)
        self.ram_air_flowing = ram > 0.0
        q_in = bleed.pack_inflow + ram
        self.inflow_packs = q_in
        ofv_was = self.ofv_pct
        target, rate = self._ofv_command(c, f, q_in, dp, alt, ldg, bleed.ram_air_open, flight.on_ground)
        step = rate * t.dt
        self.ofv_pct = min(100.0, max(0.0, self.ofv_pct + max(-step, min(step, target - self.ofv_pct))))
        self._integrate(t.dt, q_in, p_amb)
        # FWC excess cabin altitude (with hysteresis).
        if self.cabin_alt_ft > EXCESS_CAB_ALT_FT:
            self.excess_cab_alt = True
        elif self.cabin_alt_ft < EXCESS_CAB_ALT_RESET_FT:
            self.excess_cab_alt = False
        now = (self.excess_cab_alt, self.safety_valve_open, self.active_cpc, self.auto_control, self.ram_air_flowing)
        moving = abs(self.cabin_vs_fpm) > 1.0 or abs(self.ofv_pct - ofv_was) > 1e-3
        self.transient = now != was
        self._settled = not moving and not self.transient
        # The cabin integrates in sub-steps and the valve is rate limited: a smooth climb or descent of the
        # cabin is accurate in 1 s steps; the 0.2 s ticks are for the discrete changes.
        self.max_step_s = SMOOTH_STEP_S if moving else STEADY_STEP_S

    def _controllers(self, c: Mapping[str, str], f: Set[str]) -> None:
        """The active CPC hands over to the other one when it fails; AUTO needs one of them."""
        self.cpc_ok[0] = "press_cpc1_fault" not in f
        self.cpc_ok[1] = "press_cpc2_fault" not in f
        if not self.cpc_ok[self.active_cpc - 1] and self.cpc_ok[2 - self.active_cpc]:
            self.active_cpc = 3 - self.active_cpc
        self.auto_control = c["CAB PRESS MODE SEL"] == "AUTO" and (self.cpc_ok[0] or self.cpc_ok[1])

    def _ofv_command(self, c: Mapping[str, str], f: Set[str], q_in: float, dp: float, alt: float, ldg: float,
                     ram_air_open: bool, on_ground: bool) -> tuple[float, float]:
        """Where the outflow valve is driven (%) and how fast (%/s)."""
        auto = c["CAB PRESS MODE SEL"] == "AUTO"
        if "press_outflow_valve_stuck_open" in f:
            return max(OFV_JAM_PCT, self.ofv_pct), RUNAWAY_OFV_RATE_PCT_S
        if c["DITCHING"] == "ON" and auto:
            return 0.0, AUTO_OFV_RATE_PCT_S
        if not auto:
            sw = c["MAN V/S CTL"]
            return (100.0 if sw == "UP" else (0.0 if sw == "DN" else self.ofv_pct)), MAN_OFV_RATE_PCT_S
        if not self.auto_control:
            return self.ofv_pct, 0.0  # both controllers lost: the valve stays where it is
        if on_ground:
            return 100.0, AUTO_OFV_RATE_PCT_S
        if ram_air_open and dp < 1.0:
            return 50.0, AUTO_OFV_RATE_PCT_S  # ram air: the valve opens to about half
        # Follow the schedule: command a cabin rate, then open the valve just enough.
        r_fpm = (schedule_ft(alt, ldg) - self.cabin_alt_ft) * CAB_GAIN_PER_MIN
        r_fpm = min(CAB_CLIMB_FPM, max(CAB_DESCENT_FPM, r_fpm))
        dpdh = -5.2559 * 6.8756e-6 * self.cabin_psi / max(0.05, 1.0 - 6.8756e-6 * self.cabin_alt_ft)
        want = r_fpm / 60.0 * dpdh  # psi/s
        return self._ofv_for(q_in - want / K_PSI_PER_FLOW_S, dp), AUTO_OFV_RATE_PCT_S

    def _integrate(self, dt: float, q_in: float, p_amb: float) -> None:
        """Cabin pressure from the air-mass balance; sub-steps keep the explicit step stable when dP is near zero."""
        dp = self.cabin_psi - p_amb
        area = LEAK_AREA + OFV_AREA * (self.ofv_pct / 100.0) ** 2
        tau = 1.0 / (K_PSI_PER_FLOW_S * (area * _dg(dp) + RELIEF_GAIN * (abs(_relief(dp)) > 0)))
        n = max(1, math.ceil(dt / (0.5 * tau)))
        h = dt / n
        p = self.cabin_psi
        for _ in range(n):
            d = p - p_amb
            p += K_PSI_PER_FLOW_S * (q_in - area * _g(d) - _relief(d)) * h
        old_alt = self.cabin_alt_ft
        self.cabin_psi = p
        self.diff_psi = p - p_amb
        self.cabin_alt_ft = isa_alt_ft(p)
        self.cabin_vs_fpm = (self.cabin_alt_ft - old_alt) / dt * 60.0
        self.cabin_alt_peak_ft = max(self.cabin_alt_peak_ft, self.cabin_alt_ft)
        self.safety_valve_open = _relief(self.diff_psi) != 0.0

    def reset_peak(self) -> None:
        """(harness) The recorded peak and exposure start again from now."""
        self.cabin_alt_peak_ft = self.cabin_alt_ft
        self.cabin_above_14000_ft_s = 0.0

    def _settle(self, alt: float, p_amb: float, ldg: float, q_in: float, on_ground: bool) -> None:
        """Put the cabin on its schedule with the outflow valve at its equilibrium opening."""
        cab = ldg if on_ground else schedule_ft(alt, ldg)
        self.cabin_psi = isa_psi(cab) if not on_ground else p_amb
        self.cabin_alt_ft = isa_alt_ft(self.cabin_psi)
        self.ofv_pct = 100.0 if on_ground else self._ofv_for(q_in, self.cabin_psi - p_amb)

    # ---- read-outs ----------------------------------------------------------------
    def vars(self) -> dict[str, object]:
        return {
            "press.cabin_alt_ft": round(self.cabin_alt_ft),
            "press.cabin_vs_fpm": round(self.cabin_vs_fpm),
            "press.cabin_alt_peak_ft": round(self.cabin_alt_peak_ft),
            "press.cabin_above_14000_ft_s": round(self.cabin_above_14000_ft_s, 1),
            # + 0.0: never -0.0. On the ground the cabin and outside pressures are equal, and another maths
            # library (an ulp apart) can leave a hair below zero, which rounds to -0.0 and changes the record.
            "press.diff_psi": round(self.diff_psi, 2) + 0.0,
            "press.cabin_press_psi": round(self.cabin_psi, 3),
            "press.outflow_valve_pct": round(self.ofv_pct, 1),
            "press.safety_valve_open": self.safety_valve_open,
            "press.active_cpc": self.active_cpc,
            "press.cpc_1_fault": not self.cpc_ok[0],
            "press.cpc_2_fault": not self.cpc_ok[1],
            "press.auto_control": self.auto_control,
            "press.excess_cab_alt": self.excess_cab_alt,
            "press.ram_air_flowing": self.ram_air_flowing,
        }

    def page(self, ac: Aircraft) -> dict[str, object]:
        """The PRESS page, with the CABIN PRESS panel."""
        c = ac.controls
        both_failed = not self.cpc_ok[0] and not self.cpc_ok[1]
        return {
            "CAB PRESS MODE SEL": c["CAB PRESS MODE SEL"],
            "mode_sel_fault_light": both_failed,
            "active_system": "MAN" if c["CAB PRESS MODE SEL"] == "MAN" else (
                "NONE" if both_failed else f"SYS {self.active_cpc}"),
            "SYS 1": "FAULT" if not self.cpc_ok[0] else "OK",
            "SYS 2": "FAULT" if not self.cpc_ok[1] else "OK",
            "MAN V/S CTL": c["MAN V/S CTL"],
            "LDG ELEV": c["LDG ELEV"],
            "landing_elevation_ft": round(ldg_elev_ft(c["LDG ELEV"])),
            "DITCHING": c["DITCHING"],
            "cabin_alt_ft": round(self.cabin_alt_ft / 10.0) * 10,
            "cabin_vs_fpm": round(self.cabin_vs_fpm / 10.0) * 10,
            "diff_press_psi": round(self.diff_psi, 1) + 0.0,  # never -0.0 (see vars)
            "outflow_valve_pct": round(self.ofv_pct),
            "safety_valve": "OPEN" if self.safety_valve_open else "CLOSED",
            "inlet_flow": {"PACK 1": "ON" if ac.bleed.pack_open[0] else "OFF",
                           "PACK 2": "ON" if ac.bleed.pack_open[1] else "OFF",
                           "RAM AIR": "ON" if self.ram_air_flowing else "OFF"},
        }

    def inop(self, ac: Aircraft) -> list[str]:
        return [f"CAB PR {i + 1}" for i in (0, 1) if not self.cpc_ok[i]]

    def memos(self, ac: Aircraft) -> list[str]:
        return ["MAN LDG ELEV"] if ac.controls["LDG ELEV"] != "AUTO" else []
