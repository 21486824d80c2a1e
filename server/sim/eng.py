"""Engines (ATA 70-80): spools, start sequence, fuel flow, oil, flame-out.

A CFM56-like engine reduced to first-order spool dynamics. The start
sequence runs as on the aircraft: ENG MODE IGN START and ENG MASTER ON open
the start valve (needs bleed air in the duct), the starter cranks N2, fuel
and ignition come on near 22 % N2, light-off, and the start valve closes at
50 % N2 on the way to idle.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .catalog import Control, Failure

if TYPE_CHECKING:
    from .aircraft import Aircraft

THRUST = ("REV", "IDLE", "CL", "FLX/MCT", "TOGA")

CONTROLS = (
    Control("ENG MASTER 1", "PEDESTAL", ("ON", "OFF"), "OFF", description="Engine 1 fuel and ignition master lever"),
    Control("ENG MASTER 2", "PEDESTAL", ("ON", "OFF"), "OFF", description="Engine 2 fuel and ignition master lever"),
    Control("ENG MODE", "PEDESTAL", ("CRANK", "NORM", "IGN START"), "NORM",
            description="Engine start/ignition mode; IGN START in flight gives continuous ignition"),
    Control("THR LEVER 1", "PEDESTAL", THRUST, "IDLE", description="Engine 1 thrust lever detent"),
    Control("THR LEVER 2", "PEDESTAL", THRUST, "IDLE", description="Engine 2 thrust lever detent"),
)

FAILURES = tuple(
    f
    for n in (1, 2)
    for f in (
        Failure(f"eng{n}_flameout", 72, "ENG", f"Engine {n} flames out; it relights after ENG MASTER OFF then ON with ignition", resettable=True),
        Failure(f"eng{n}_flameout_damage", 72, "ENG", f"Engine {n} flames out with mechanical damage; no relight"),
        Failure(f"eng{n}_oil_pressure_loss", 79, "ENG", f"Engine {n} oil pump loses pressure"),
        Failure(f"eng{n}_oil_overheat", 79, "ENG", f"Engine {n} oil overheats at high power; cools at idle"),
        Failure(f"eng{n}_oil_overheat_persistent", 79, "ENG", f"Engine {n} oil overheats even at idle"),
    )
) + (Failure("eng_dual_flameout", 72, "ENG", "Both engines flame out (e.g. volcanic ash); relight possible", resettable=True),)

IDLE_N2_GROUND = 58.0
IDLE_N2_FLIGHT = 66.0
N2_TARGET = {"REV": 75.0, "CL": 88.0, "FLX/MCT": 92.0, "TOGA": 97.0}
STARTER_N2 = 26.0
LIGHT_OFF_N2 = 22.0
START_VALVE_CUTOUT_N2 = 50.0
RUNNING_N2 = 50.0
OIL_LO_PR_PSI = 13.0


@dataclass(slots=True)
class Engine:
    n: int
    n1_pct: float = 0.0
    n2_pct: float = 0.0
    egt_c: float = 15.0
    ff_kgh: float = 0.0
    oil_press_psi: float = 0.0
    oil_temp_c: float = 15.0
    oil_qty_qt: float = 17.0
    combustion: bool = False
    running: bool = False
    start_valve_open: bool = False
    ignition: bool = False
    starting: bool = False
    fuel_used_kg: float = 0.0

    def vars(self) -> dict[str, object]:
        p = f"eng{self.n}."
        return {
            p + "n1_pct": round(self.n1_pct, 1),
            p + "n2_pct": round(self.n2_pct, 1),
            p + "egt_c": round(self.egt_c),
            p + "ff_kgh": round(self.ff_kgh),
            p + "oil_press_psi": round(self.oil_press_psi, 1),
            p + "oil_temp_c": round(self.oil_temp_c, 1),
            p + "oil_qty_qt": round(self.oil_qty_qt, 1),
            p + "running": self.running,
            p + "starting": self.starting,
            p + "start_valve_open": self.start_valve_open,
            p + "ignition": self.ignition,
            p + "fuel_used_kg": round(self.fuel_used_kg, 1),
        }


def _lag(x: float, target: float, tau: float, dt: float) -> float:
    k = min(1.0, dt / tau)
    return x + (target - x) * k


@dataclass(slots=True)
class Engines:
    engines: list[Engine] = field(default_factory=lambda: [Engine(1), Engine(2)])
    transient: bool = False

    def update(self, dt: float, ac: Aircraft) -> None:
        c = ac.controls
        f = ac.failures
        fl = ac.flight
        moving = False
        mode = c["ENG MODE"]
        for e in self.engines:
            n = e.n
            master = c[f"ENG MASTER {n}"] == "ON"
            # A relightable flame-out clears when the crew cycles the master lever.
            for fid in (f"eng{n}_flameout", "eng_dual_flameout"):
                if fid in f and not master:
                    ac.clear_failure(fid)
            flameout = f"eng{n}_flameout" in f or f"eng{n}_flameout_damage" in f or "eng_dual_flameout" in f
            fuel_ok = ac.fuel.engine_fed(n)
            fadec = ac.elec.dc_bat or ac.elec.dc_ess or e.running  # FADEC is self-powered above ~15 % N2
            # Start valve: automatic start in IGN START with master ON, bleed air in the duct.
            want_start = mode == "IGN START" and master and not e.running and fadec
            crank = mode == "CRANK" and not master and not e.running and fadec
            e.start_valve_open = (want_start or crank) and e.n2_pct < START_VALVE_CUTOUT_N2 and ac.bleed.start_air_ok(n)
            e.starting = want_start and (e.start_valve_open or e.n2_pct > 5.0)
            # Ignition: during the start, or continuously with IGN START selected in flight.
            e.ignition = master and (e.starting or (mode == "IGN START" and not fl.on_ground)) and fadec
            if e.combustion:
                e.combustion = master and fuel_ok and not flameout
            elif master and fuel_ok and not flameout and e.ignition and e.n2_pct >= (LIGHT_OFF_N2 if fl.on_ground else 12.0):
                e.combustion = True
            # Spool targets.
            windmill = 0.08 * fl.ias_kt if not fl.on_ground else 0.0
            if e.combustion:
                idle = IDLE_N2_GROUND if fl.on_ground else IDLE_N2_FLIGHT
                lever = c[f"THR LEVER {n}"]
                n2_target = N2_TARGET.get(lever, idle) if e.n2_pct >= RUNNING_N2 - 2 else idle
                if not fl.on_ground and lever == "CL" and fl.vs_fpm <= 0:
                    n2_target = 85.0  # cruise thrust is below the climb detent's maximum
                tau = 6.0 if e.n2_pct < RUNNING_N2 else 2.5
            else:
                n2_target = max(windmill, STARTER_N2 if e.start_valve_open else 0.0)
                tau = 4.0 if e.start_valve_open else 8.0
            e.n2_pct = _lag(e.n2_pct, n2_target, tau, dt)
            e.running = e.combustion and e.n2_pct >= RUNNING_N2
            e.n1_pct = max(0.0, (e.n2_pct - 50.0) * 1.75 + 19.0) if e.combustion and e.n2_pct > 50 else e.n2_pct * 0.38
            # EGT and fuel flow.
            if e.combustion:
                egt_target = 390.0 + max(0.0, e.n2_pct - IDLE_N2_GROUND) * 13.0
                if e.n2_pct < RUNNING_N2:
                    egt_target = 620.0  # light-off peak
                alt_factor = 1.0 - 0.5 * min(fl.altitude_ft, 39000.0) / 39000.0
                e.ff_kgh = (300.0 + max(0.0, e.n1_pct - 19.0) * 30.0) * alt_factor
            else:
                egt_target = 15.0 + (0.0 if fl.on_ground else -30.0)
                e.ff_kgh = 0.0
            e.egt_c = _lag(e.egt_c, egt_target, 5.0, dt)
            e.fuel_used_kg += e.ff_kgh * dt / 3600.0
            # Oil: pressure follows N2; a pump failure or an empty tank drops it below the red line.
            if f"eng{n}_oil_pressure_loss" in f:
                p_target = 0.12 * e.n2_pct
            elif e.oil_qty_qt < 3.0:
                p_target = 0.0
            else:
                p_target = 0.75 * e.n2_pct
            e.oil_press_psi = _lag(e.oil_press_psi, p_target, 2.0, dt)
            above_idle = c[f"THR LEVER {n}"] not in ("IDLE", "REV")
            if f"eng{n}_oil_overheat_persistent" in f and e.n2_pct > 20:
                t_target = 165.0
            elif f"eng{n}_oil_overheat" in f and e.combustion and above_idle:
                t_target = 160.0
            else:
                t_target = 20.0 + e.n2_pct * 1.45 if e.n2_pct > 5 else 15.0
            e.oil_temp_c = _lag(e.oil_temp_c, t_target, 15.0, dt)
            moving = moving or abs(e.n2_pct - n2_target) > 0.05 or abs(e.egt_c - egt_target) > 0.5 or abs(
                e.oil_temp_c - t_target) > 0.2 or abs(e.oil_press_psi - p_target) > 0.1 or e.start_valve_open
        self.transient = moving

    def vars(self) -> dict[str, object]:
        v: dict[str, object] = {}
        for e in self.engines:
            v.update(e.vars())
        return v

    def page(self, ac: Aircraft) -> dict[str, object]:
        c = ac.controls
        out: dict[str, object] = {"ENG MODE": c["ENG MODE"]}
        for e in self.engines:
            out[f"ENG {e.n}"] = {
                "master": c[f"ENG MASTER {e.n}"],
                "thrust_lever": c[f"THR LEVER {e.n}"],
                "state": "RUNNING" if e.running else ("STARTING" if e.starting else ("WINDMILL" if e.n2_pct > 5 else "SHUTDOWN")),
                "n1_pct": round(e.n1_pct, 1),
                "n2_pct": round(e.n2_pct, 1),
                "egt_c": round(e.egt_c),
                "ff_kgh": round(e.ff_kgh),
                "oil_press_psi": round(e.oil_press_psi),
                "oil_temp_c": round(e.oil_temp_c),
                "oil_qty_qt": round(e.oil_qty_qt, 1),
                "start_valve": "OPEN" if e.start_valve_open else "CLOSED",
                "ignition": "ON" if e.ignition else "OFF",
                "fuel_used_kg": round(e.fuel_used_kg),
            }
        return out

    def inop(self, ac: Aircraft) -> list[str]:
        if ac.flight.on_ground:
            return []
        return [f"ENG {e.n}" for e in self.engines if not e.running]

    def memos(self, ac: Aircraft) -> list[str]:
        return ["IGNITION"] if any(e.ignition and not e.starting for e in self.engines) else []
