"""Engines (ATA 70-80): spools, start and relight, fuel flow, oil, vibration, flame-out.

A CFM56-like engine reduced to first-order spool dynamics. The start
sequence runs as on the aircraft: ENG MODE IGN START and ENG MASTER ON open
the start valve (needs bleed air in the duct), the starter cranks N2, fuel
and ignition come on near 22 % N2, light-off, and the start valve closes at
50 % N2 on the way to idle. In flight a flamed-out engine windmills; with
ignition (IGN START) and its master ON it relights inside the relight envelope:
below the relight ceiling (FL250), with N2 at or above the relight N2 - from the
windmill alone at 240 kt and more, or from the starter when bleed air reaches the
start valve (APU bleed or crossbleed from the other engine). Light-off takes
`RELIGHT_LIGHT_OFF_S` of ignition and fuel inside the envelope; outside it the
engine hangs at its windmill N2, unlit.

Failures break components: a flame-out stops combustion (a relightable one
clears when the crew cycles the master lever), mechanical damage seizes the
core (N2 to zero, high N1 vibration), an oil pump failure drops the pressure,
an oil cooler problem raises the temperature. The ENG FIRE pushbutton cuts the
FADEC supply and, through the fuel system, the LP valve.

The FADEC/EIU "engine fail" monitor lives here too (armed once the engine has
run at idle, it latches when the core falls below idle with the master ON and
the FIRE PB in - after FBW `EngineFailMonitor` - and stays latched until the
engine runs again, so that the `.IF DAMAGE :` branch of ENG FAIL survives the
master OFF), because the FWC needs its timer.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from .catalog import Control, Failure
from .flight import performance as perf
from .reads import FirePushbuttons, FlightConditions, FuelFeed
from .tick import STEADY_STEP_S, Tick

if TYPE_CHECKING:
    from .aircraft import Aircraft


# ---- what this system reads -----------------------------------------------------------
class DcPower(Protocol):
    @property
    def dc_bat_or_ess_powered(self) -> bool: ...


class StartAir(Protocol):
    def start_air_ok(self, n: int) -> bool: ...


class ThrustDemand(Protocol):
    """What the levers and the A/THR ask of each engine (flight guidance)."""

    @property
    def thrust_frac(self) -> Sequence[float]: ...
    @property
    def reverse(self) -> Sequence[bool]: ...

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
        Failure(f"eng{n}_flameout", 72, "ENG",
                f"Engine {n} flames out; it relights after ENG MASTER OFF then ON with ignition", resettable=True),
        Failure(f"eng{n}_flameout_damage", 72, "ENG",
                f"Engine {n} flames out with mechanical damage (core seized); no relight"),
        Failure(f"eng{n}_oil_pressure_loss", 79, "ENG", f"Engine {n} oil pump loses pressure"),
        Failure(f"eng{n}_oil_overheat", 79, "ENG", f"Engine {n} oil overheats above idle; cools at idle"),
        Failure(f"eng{n}_oil_overheat_persistent", 79, "ENG", f"Engine {n} oil overheats even at idle"),
    )
) + (
    Failure("eng_dual_flameout", 72, "ENG",
            "Both engines flame out (e.g. volcanic ash); each relights after its master OFF then ON with ignition",
            resettable=True),
)

GROUND_IDLE_N2 = 60.0  # ground idle ~20 % N1, ~60 % N2 (CFM56-5B)
GROUND_IDLE_N1 = 20.0
N2_PER_N1 = 0.47  # above ground idle, N2 rises about half as fast as N1
REVERSE_N1 = 70.0
STARTER_N2 = 26.0
CRANK_RATE_PCT_S = 1.3  # the air starter: ~17 s to light-off
LIGHT_OFF_N2 = 22.0
START_ACCEL_PCT_S = 1.5  # light-off to starter cut-out (~19 s); start to idle ~45 s in all
# In-flight relight envelope (ENG-10): the windmill alone turns N2 fast enough from about 240 kt
# (the relight N2); below that the starter must help, which needs bleed air at the start valve.
# Above the relight ceiling no relight. Light-off takes a while of ignition and fuel.
WINDMILL_RELIGHT_IAS_KT = 240.0
RELIGHT_CEILING_FT = 25_000.0
RELIGHT_LIGHT_OFF_S = 10.0
START_VALVE_CUTOUT_N2 = 50.0
RUNNING_N2 = 50.0
BELOW_IDLE_N2 = GROUND_IDLE_N2 - 3.0  # FBW: core below idle = 3 % under the idle N2
WINDMILL_N2_PER_KT = 0.08
WINDMILL_N1_PER_KT = 0.09
RELIGHT_N2_FLIGHT = WINDMILL_N2_PER_KT * WINDMILL_RELIGHT_IAS_KT  # 19.2 %
SPOOL_UP_TAU_S = 2.0
SPOOL_DOWN_TAU_S = 3.0
SMOOTH_STEP_S = 1.0
REVERSE_SHARE = 0.3  # reverse thrust, share of TOGA
START_EGT_C = 650.0  # start peak (below the 725 degC start limit)
START_FF_KGH = 120.0


def n1_for_n2(n2: float) -> float:
    return GROUND_IDLE_N1 + (n2 - GROUND_IDLE_N2) / N2_PER_N1 if n2 >= GROUND_IDLE_N2 else n2 / 3.0


def n2_for_n1(n1: float) -> float:
    return GROUND_IDLE_N2 + (n1 - GROUND_IDLE_N1) * N2_PER_N1 if n1 >= GROUND_IDLE_N1 else n1 * 3.0
# CFM56-5B indications (domain reference §1.5; FG message thresholds).
OIL_LO_PR_PSI = 13.0
OIL_HI_TEMP_C = 155.0
EGT_MAX_C = 950.0
VIB_N1_ADVISORY = 6.0
VIB_N2_ADVISORY = 4.3


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
    vib_n1: float = 0.0
    vib_n2: float = 0.0
    combustion: bool = False
    running: bool = False
    start_valve_open: bool = False
    ignition: bool = False
    starting: bool = False
    seized: bool = False
    fuel_used_kg: float = 0.0
    # Engine fail monitor (EIU): armed once the engine has run at idle; latches when the
    # core falls below idle with the master ON and the FIRE PB in, until the engine runs again.
    fail_armed: bool = False
    fail_latched: bool = False
    fail_s: float = 0.0
    reverse: bool = False
    dual_reset: bool = False  # this engine's master was cycled since a dual flame-out
    relight_s: float = 0.0  # in flight: time with ignition and fuel inside the relight envelope

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
            p + "vib_n1": round(self.vib_n1, 1),
            p + "vib_n2": round(self.vib_n2, 1),
            p + "running": self.running,
            p + "starting": self.starting,
            p + "start_valve_open": self.start_valve_open,
            p + "ignition": self.ignition,
            p + "fuel_used_kg": round(self.fuel_used_kg, 1),
        }

    def discrete_state(self) -> tuple:
        return (self.running, self.combustion, self.start_valve_open, self.starting, self.ignition,
                self.fail_latched, self.reverse)

    @property
    def vib_advisory(self) -> bool:
        return self.vib_n1 > VIB_N1_ADVISORY or self.vib_n2 > VIB_N2_ADVISORY

    def start_and_ignition(self, c: Mapping[str, str], master: bool, fadec: bool, start_air: bool,
                           flight: FlightConditions) -> None:
        """Start valve (automatic start in IGN START with the master ON and bleed air in the duct,
        or a dry crank) and ignition (during the start, or continuous with IGN START in flight).
        In flight the FADEC opens the start valve only where the windmill alone is too slow for a
        relight (below 240 kt): faster, the relight is a windmill one (ENG-10)."""
        mode = c["ENG MODE"]
        on_ground = flight.on_ground
        want_start = mode == "IGN START" and master and not self.running and fadec
        starter_needed = on_ground or flight.ias_kt < WINDMILL_RELIGHT_IAS_KT
        crank = mode == "CRANK" and not master and not self.running and fadec
        self.start_valve_open = (want_start and starter_needed or crank) and not self.seized \
            and self.n2_pct < START_VALVE_CUTOUT_N2 and start_air
        self.starting = want_start and (self.start_valve_open or self.n2_pct > 5.0)
        self.ignition = master and fadec and (self.starting or (mode == "IGN START" and not on_ground))

    def combustion_step(self, dt: float, master: bool, fuel_ok: bool, fadec: bool, flameout: bool,
                        flight: FlightConditions) -> None:
        """Light-off with ignition above the light-off N2 on the ground; in flight a relight inside the
        envelope (below the ceiling, N2 at the relight N2 from windmill or starter) after
        `RELIGHT_LIGHT_OFF_S` of ignition and fuel. A flame-out, fuel starvation, master OFF or FADEC
        loss puts the flame out."""
        if self.combustion:
            self.combustion = master and fuel_ok and fadec and not flameout
            self.relight_s = 0.0
            return
        lightable = master and fuel_ok and not flameout and self.ignition
        if flight.on_ground:
            self.relight_s = 0.0
            self.combustion = lightable and self.n2_pct >= LIGHT_OFF_N2
        elif lightable and self.n2_pct >= RELIGHT_N2_FLIGHT and flight.altitude_ft < RELIGHT_CEILING_FT:
            self.relight_s += dt
            # A tolerance for the sum of 0.2 s ticks.
            self.combustion = self.relight_s >= RELIGHT_LIGHT_OFF_S - 1e-6
            if self.combustion:
                self.relight_s = 0.0
        else:
            self.relight_s = 0.0

    def spool(self, dt: float, thrust_frac: float, reverse: bool, flight: FlightConditions) -> bool:
        """N2 toward its target - the starter, the windmill, the start acceleration, or the FADEC's
        N1 for the thrust asked - then N1 and `running`. True while N2 still moves."""
        n2 = self.n2_pct
        on_ground, ias = flight.on_ground, flight.ias_kt
        windmill = 0.0 if on_ground else WINDMILL_N2_PER_KT * ias
        if self.seized:
            target = 0.0
            n2 = _settle(n2, target, 2.0, dt, 0.02)
        elif self.combustion and n2 < RUNNING_N2:
            target = RUNNING_N2  # light-off to starter cut-out
            n2 = min(target, max(n2, windmill) + START_ACCEL_PCT_S * dt)
        elif self.combustion:
            idle_n1 = perf.idle_n1_pct(ias, on_ground)
            n1_target = REVERSE_N1 if reverse else perf.n1_for_fraction(thrust_frac, idle_n1)
            target = n2_for_n1(n1_target)
            n2 = _settle(n2, target, SPOOL_UP_TAU_S if target > n2 else SPOOL_DOWN_TAU_S, dt, 0.02)
        elif self.start_valve_open and windmill < STARTER_N2:
            target = STARTER_N2
            n2 = min(target, n2 + CRANK_RATE_PCT_S * dt) if n2 < target else n2
        else:
            target = windmill
            n2 = _settle(n2, target, 8.0, dt, 0.02)
        # A target that drifts slowly (the A/THR following a weight that burns off) is followed
        # within a step: only a spool still on its way counts as moving.
        moving = n2 != target
        self.n2_pct = n2
        self.running = self.combustion and n2 >= RUNNING_N2
        if self.combustion and n2 >= RUNNING_N2:
            self.n1_pct = n1_for_n2(n2)
        else:
            # The fan windmills freely even with a seized core.
            self.n1_pct = max(n2 / 3.0, 0.0 if on_ground else WINDMILL_N1_PER_KT * ias)
        self.reverse = reverse and self.running
        return moving

    def thrust_n(self, flight: FlightConditions) -> float:
        """Net thrust from N1 at the flight condition (negative in reverse); nothing before it runs."""
        if not self.running:
            return 0.0
        mach = flight.mach
        if self.reverse:
            return -REVERSE_SHARE * perf.toga_thrust_n(flight.altitude_ft, mach)
        idle_n1 = perf.idle_n1_pct(flight.ias_kt, flight.on_ground)
        return perf.thrust_for_fraction(perf.fraction_for_n1(self.n1_pct, idle_n1), flight.altitude_ft, mach)

    def indications(self, t: Tick, nm: _Names, f: Set[str], quiet: bool, flight: FlightConditions) -> None:
        """Fuel flow, EGT, vibration and oil, from the spools, the thrust and the failures."""
        dt, n1, n2 = t.dt, self.n1_pct, self.n2_pct
        if self.combustion and not self.running:
            egt_target = START_EGT_C
            self.ff_kgh = START_FF_KGH + max(0.0, n2 - LIGHT_OFF_N2) * 6.0
        elif self.combustion:
            egt_target = 400.0 + (n1 - GROUND_IDLE_N1) * 5.2
            self.ff_kgh = perf.fuel_flow_kgh(abs(self.thrust_n(flight)), flight.altitude_ft, flight.mach)
        else:
            egt_target = 15.0 if flight.on_ground else -15.0
            self.ff_kgh = 0.0
        if self.combustion:
            self.fuel_used_kg += self.ff_kgh * dt / 3600.0
        self.egt_c = _settle(self.egt_c, egt_target, 5.0, dt, 1.0)
        # Vibration: proportional to spool speed; a damaged fan/core shakes hard.
        if self.seized:
            self.vib_n1, self.vib_n2 = (9.0 if n1 > 5.0 else 0.0), 0.0
        else:
            self.vib_n1, self.vib_n2 = 0.2 + 0.008 * n1, 0.2 + 0.006 * n2
        # Oil: pressure follows N2; a pump failure or an empty tank drops it below the red line.
        if not quiet and nm.oil_press in f:
            p_target = 0.12 * n2
        elif self.oil_qty_qt < 3.0:
            p_target = 0.0
        else:
            p_target = 0.75 * n2
        self.oil_press_psi = _settle(self.oil_press_psi, p_target, 2.0, dt, 0.1)
        if not quiet and nm.oil_temp_persistent in f and self.combustion:
            t_target = 165.0
        elif not quiet and nm.oil_temp in f and self.combustion and t.controls[nm.lever] not in ("IDLE", "REV"):
            t_target = 160.0
        else:
            t_target = 20.0 + n2 * 1.1 if n2 > 5 else 15.0
        self.oil_temp_c = _settle(self.oil_temp_c, t_target, 15.0, dt, 0.5)

    def fail_monitor(self, dt: float, master: bool, fire_pb: bool) -> bool:
        """The EIU engine-fail monitor. True if its latch changed."""
        below_idle = self.n2_pct < BELOW_IDLE_N2
        if not master:
            self.fail_armed = False
        elif self.running and not below_idle:
            self.fail_armed = True
        was_failed = self.fail_latched
        if self.fail_armed and master and not fire_pb and below_idle:
            self.fail_latched = True
        elif self.running:
            self.fail_latched = False
        self.fail_s = self.fail_s + dt if (self.fail_latched and was_failed) else 0.0
        return self.fail_latched != was_failed


def _settle(x: float, target: float, tau: float, dt: float, eps: float) -> float:
    """Exact first-order lag (any step size), landing on its target once within `eps`.

    Exact for any `dt`, so the slow display values (EGT, oil) need not hold the
    aircraft to 0.2 s ticks; only the spool dynamics do.
    """
    if x == target:
        return x
    x = target + (x - target) * math.exp(-dt / tau)
    return target if abs(x - target) < eps else x


@dataclass(frozen=True, slots=True)
class _Names:
    master: str
    lever: str
    flameout: str
    damage: str
    oil_press: str
    oil_temp: str
    oil_temp_persistent: str
    ids: frozenset[str]


def _names(n: int) -> _Names:
    ids = (f"eng{n}_flameout", f"eng{n}_flameout_damage", f"eng{n}_oil_pressure_loss", f"eng{n}_oil_overheat",
           f"eng{n}_oil_overheat_persistent")
    return _Names(f"ENG MASTER {n}", f"THR LEVER {n}", *ids, frozenset(ids))


_NAMES = {1: _names(1), 2: _names(2)}


@dataclass(slots=True)
class Engines:
    engines: list[Engine] = field(default_factory=lambda: [Engine(1), Engine(2)])
    transient: bool = False
    max_step_s: float = STEADY_STEP_S
    _thrust_n: list[float] = field(default_factory=lambda: [0.0, 0.0])

    def update(self, t: Tick, elec: DcPower, fire: FirePushbuttons, fuel: FuelFeed, bleed: StartAir,
               flight: FlightConditions, thrust: ThrustDemand) -> None:
        f = t.failures
        dual = "eng_dual_flameout" in f
        dc = elec.dc_bat_or_ess_powered
        was = [e.discrete_state() for e in self.engines]
        spooling = False
        for e in self.engines:
            nm = _NAMES[e.n]
            quiet = f.isdisjoint(nm.ids)
            master = t.controls[nm.master] == "ON"
            # A relightable flame-out clears when the crew cycles the master lever.
            if not quiet and nm.flameout in f and not master:
                t.resolve(nm.flameout)
            e.dual_reset = dual and (e.dual_reset or not master)
            e.seized = not quiet and nm.damage in f
            flameout = (not quiet and nm.flameout in f) or e.seized or (dual and not e.dual_reset)
            fire_pb = fire.eng_fire_pb_released(e.n)
            # FADEC: aircraft DC until the engine drives its own alternator; the FIRE PB cuts it.
            fadec = (dc or e.running) and not fire_pb
            e.start_and_ignition(t.controls, master, fadec, bleed.start_air_ok(e.n), flight)
            e.combustion_step(t.dt, master, not fire_pb and fuel.engine_fed(e.n), fadec, flameout, flight)
            spooling |= e.spool(t.dt, thrust.thrust_frac[e.n - 1], thrust.reverse[e.n - 1], flight)
            e.indications(t, nm, f, quiet, flight)
            e.fail_monitor(t.dt, master, fire_pb)
            self._thrust_n[e.n - 1] = e.thrust_n(flight)
        if dual and self.engines[0].dual_reset and self.engines[1].dual_reset:
            t.resolve("eng_dual_flameout")
        # Spools follow exact exponentials and linear ramps: a spool on its way tolerates 1 s steps; the
        # 0.2 s ticks are for the discrete changes (light-off, running, start valve, fail monitor).
        # A light-off on its way is timed in 0.2 s ticks.
        self.transient = [e.discrete_state() for e in self.engines] != was or any(
            e.relight_s > 0.0 for e in self.engines)
        self.max_step_s = SMOOTH_STEP_S if spooling else STEADY_STEP_S

    # ---- queries -------------------------------------------------------------------
    def n2_pct(self, n: int) -> float:
        return self.engines[n - 1].n2_pct

    def running(self, n: int) -> bool:
        return self.engines[n - 1].running

    def thrust_n(self, n: int) -> float:
        return self._thrust_n[n - 1]

    def ff_kgh(self, n: int) -> float:
        """Fuel flow engine n asks of its feed line."""
        return self.engines[n - 1].ff_kgh

    @property
    def any_running(self) -> bool:
        return self.engines[0].running or self.engines[1].running

    def all_failed_in_flight(self, ac: Aircraft) -> bool:
        """Every engine's core below idle in flight (ENG ALL ENGINES FAILURE)."""
        e1, e2 = self.engines
        return (not e1.running and not e2.running and e1.n2_pct < BELOW_IDLE_N2 and e2.n2_pct < BELOW_IDLE_N2
                and not ac.flight.on_ground)

    # ---- read-outs -----------------------------------------------------------------
    def vars(self) -> dict[str, object]:
        v: dict[str, object] = {}
        for e in self.engines:
            v.update(e.vars())
        return v

    def page(self, ac: Aircraft) -> dict[str, object]:
        c = ac.controls
        out: dict[str, object] = {"ENG MODE": c["ENG MODE"]}
        for e in self.engines:
            if e.running:
                state = "RUNNING"
            elif e.starting:
                state = "STARTING"
            elif e.n1_pct > 5 or e.n2_pct > 5:
                state = "WINDMILLING" if not ac.flight.on_ground else "SPOOLING DOWN"
            else:
                state = "STOPPED"
            out[f"ENG {e.n}"] = {
                "master": c[f"ENG MASTER {e.n}"],
                "thrust_lever": c[f"THR LEVER {e.n}"],
                "state": state,
                "n1_pct": round(e.n1_pct, 1),
                "n2_pct": round(e.n2_pct, 1),
                "egt_c": round(e.egt_c),
                # As the flow meter reads it: a leak downstream of the meter shows as high FF for the N1.
                "ff_kgh": round(ac.fuel.metered_ff_kgh(e.n)),
                "oil_press_psi": round(e.oil_press_psi),
                "oil_temp_c": round(e.oil_temp_c),
                "oil_qty_qt": round(e.oil_qty_qt, 1),
                "vib_n1": round(e.vib_n1, 1),
                "vib_n2": round(e.vib_n2, 1),
                "vib_advisory": e.vib_advisory,
                "start_valve": "OPEN" if e.start_valve_open else "CLOSED",
                "ignition": "ON" if e.ignition else "OFF",
                "fuel_used_kg": round(ac.fuel.used_kg[e.n - 1]),
            }
        out["limits"] = {"oil_press_min_psi": OIL_LO_PR_PSI, "oil_temp_max_c": OIL_HI_TEMP_C, "egt_max_c": EGT_MAX_C,
                         "vib_n1_advisory": VIB_N1_ADVISORY, "vib_n2_advisory": VIB_N2_ADVISORY}
        return out

    def inop(self, ac: Aircraft) -> list[str]:
        if ac.flight.on_ground:
            return []
        out = [f"ENG {e.n}" for e in self.engines if not e.running]
        if out:
            out.append("CAT 3 DUAL")
        return out

    def memos(self, ac: Aircraft) -> list[str]:
        return ["IGNITION"] if any(e.ignition and not e.starting for e in self.engines) else []
