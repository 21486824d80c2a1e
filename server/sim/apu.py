"""APU (ATA 49): master switch, start sequence, availability, bleed, auto shutdown.

MASTER SW ON powers the ECB and opens the air intake flap; START engages the
starter once the flap is open; N climbs to 100 %; AVAIL at N > 95 % for 2 s
(FBW docs). MASTER SW OFF runs the cool-down (longer if the bleed was used)
before the APU stops. A protective (auto) shutdown (EGT over-temperature, low oil
pressure, fire on ground, loss of DC) latches the FAULT light until MASTER SW
is selected OFF. An APU fire on ground shuts the APU down through the fire
system's `apu_ground_auto_shutdown`; the APU FIRE pushbutton shuts it down
and closes its bleed valve.
"""

from __future__ import annotations

from collections.abc import Set
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from .catalog import Control, Failure
from .reads import FlightConditions
from .tick import DT, STEADY_STEP_S, Tick

if TYPE_CHECKING:
    from .aircraft import Aircraft


# ---- what this system reads -----------------------------------------------------------
class DcBatBus(Protocol):
    @property
    def dc_bat(self) -> bool: ...
    @property
    def dc_bat_on_batteries_only(self) -> bool: ...


class ApuFireProtection(Protocol):
    @property
    def apu_fire_pb_released(self) -> bool: ...
    @property
    def apu_ground_auto_shutdown(self) -> bool: ...


class ApuBleedLeak(Protocol):
    @property
    def apu_valve_leak_closure(self) -> bool: ...

CONTROLS = (
    Control("APU MASTER SW", "APU", ("ON", "OFF"), "OFF", description="APU master switch"),
    Control("APU START", "APU", ("ON", "OFF"), "OFF", description="APU start; goes out when the APU is AVAIL"),
)

FAILURES = (
    Failure("apu_egt_overtemp_shutdown", 49, "APU", "APU EGT over-temperature: the ECB shuts the APU down"),
    Failure("apu_low_oil_pressure_shutdown", 49, "APU", "APU oil pressure drops: the ECB shuts the APU down"),
    Failure("apu_no_start", 49, "APU", "APU fails to light; the start aborts"),
)

FLAP_OPEN_S = 4.0
START_RATE_PCT_S = 2.2
AVAIL_N_PCT = 95.0
AVAIL_DELAY_S = 2.0
COOLDOWN_BLEED_S = 60.0
COOLDOWN_S = 10.0
LAST_STEP_S = STEADY_STEP_S + DT  # the facade's steady step plus one tick
# The start ramp is linear: between light-off and one steady step below AVAIL it may take large steps.
START_RAMP_STEADY = (7.0, AVAIL_N_PCT - START_RATE_PCT_S * LAST_STEP_S)
COLD_EGT_C = 15.0
BATTERY_START_MAX_FT = 25000.0  # APU start on the batteries alone: up to FL250 (FCOM limitations)
STARTER_CUTOUT_PCT = 55.0
EGT_TRIP_C = 760.0  # ECB over-temperature limit while running (uncertain; start peak is ~700 degC)


@dataclass(slots=True)
class Apu:
    n_pct: float = 0.0
    egt_c: float = COLD_EGT_C
    flap_open_s: float = 0.0
    starting: bool = False
    running: bool = False
    avail: bool = False
    above_95_s: float = 0.0
    fault: bool = False  # auto-shutdown latch (MASTER SW FAULT light)
    shutdown_seen: bool = False  # a protective shutdown happened: STATUS INOP APU until it is AVAIL again
    cooldown_s: float = -1.0  # <0: no shutdown in progress
    bleed_used: bool = False
    bleed_valve_open: bool = False
    cranking: bool = False  # the starter turns an APU that does not light
    transient: bool = False

    def update(self, t: Tick, elec: DcBatBus, fire: ApuFireProtection, bleed: ApuBleedLeak, flight: FlightConditions) -> None:
        c = t.controls
        master = c["APU MASTER SW"] == "ON"
        if (not master and not self.running and self.n_pct == 0.0 and self.egt_c == COLD_EGT_C
                and self.flap_open_s == 0.0):
            self.fault = self.starting = self.avail = self.bleed_valve_open = self.transient = self.cranking = False
            return  # shut down and cold: nothing to do
        dt, f = t.dt, t.failures
        powered = elec.dc_bat
        was = (self.running, self.avail, self.starting, self.fault, self.bleed_valve_open)
        if not master:
            self.fault = False
        ecb = master and powered and not self.fault
        self.flap_open_s = min(FLAP_OPEN_S, self.flap_open_s + dt) if ecb else 0.0
        fire_pb = fire.apu_fire_pb_released
        self._protect(f, master, powered, fire_pb, fire.apu_ground_auto_shutdown)
        # Above FL250 a start on the batteries alone does not light (FCOM APU start envelope).
        lights = "apu_no_start" not in f and not (elec.dc_bat_on_batteries_only
                                                 and flight.altitude_ft > BATTERY_START_MAX_FT)
        cranking = self.cranking = self._start(t, ecb, fire_pb, lights)
        self._cooldown(dt, master, cranking)
        self.above_95_s = self.above_95_s + dt if (self.running and self.n_pct > AVAIL_N_PCT) else 0.0
        self.avail = self.running and (self.n_pct >= 99.5 or self.above_95_s >= AVAIL_DELAY_S)
        if self.avail:
            self.shutdown_seen = False
        if self.avail and c["APU START"] == "ON":
            t.release("APU START", "OFF")  # the ON light goes out, AVAIL comes on
        egt_target = self._egt(dt, f)
        self.bleed_valve_open = (
            self.avail and c["APU BLEED"] == "ON" and not fire_pb and not bleed.apu_valve_leak_closure
        )
        if self.bleed_valve_open:
            self.bleed_used = True
        now = (self.running, self.avail, self.starting, self.fault, self.bleed_valve_open)
        # Linear timers (cool-down, spool-down) may take the aircraft's large steady steps,
        # except in the last step before they expire, so the APU stops on time.
        self.transient = (
            now != was or (0 < self.flap_open_s < FLAP_OPEN_S)
            or (self.starting and not (START_RAMP_STEADY[0] <= self.n_pct < START_RAMP_STEADY[1])) or cranking
            or (0.0 <= self.cooldown_s <= LAST_STEP_S)
            or (self.running and not self.starting and (not self.avail or self.egt_c != egt_target))
        )

    def _protect(self, f: Set[str], master: bool, powered: bool, fire_pb: bool, ground_fire: bool) -> None:
        """Protective shutdowns (ECB): EGT over-temperature, low oil pressure, fire on ground,
        APU FIRE PB, loss of DC. The ECB trips on the EGT it measures."""
        protect = self.running and (
            self.egt_c > EGT_TRIP_C or "apu_low_oil_pressure_shutdown" in f or fire_pb or ground_fire
        )
        if protect or (self.running and not powered):
            self.fault = not fire_pb and master
            self.shutdown_seen = True
            self.running = self.starting = self.avail = False
            self.cooldown_s = -1.0

    def _start(self, t: Tick, ecb: bool, fire_pb: bool, lights: bool) -> bool:
        """START: the starter turns the APU once the flap is open; it lights and runs up to 100 %.
        Returns whether a start that does not light is cranking."""
        c, dt = t.controls, t.dt
        start_cmd = ecb and c["APU START"] == "ON" and self.flap_open_s >= FLAP_OPEN_S and not fire_pb
        if start_cmd and not self.running and not self.starting:
            if not lights:
                if self.n_pct > 20.0:
                    self.fault = self.shutdown_seen = True
                    t.release("APU START", "OFF")
            else:
                self.starting = True
        if self.starting:
            self.n_pct = min(100.0, self.n_pct + START_RATE_PCT_S * dt)
            if self.n_pct >= 7.0:
                self.running = True
            if self.n_pct >= 100.0:
                self.starting = False
        cranking = not self.starting and not lights and start_cmd and c["APU START"] == "ON"
        if cranking:
            # The starter turns it, but it never lights: the ECB aborts the start above 20 %.
            self.n_pct = min(25.0, self.n_pct + START_RATE_PCT_S * dt)
        return cranking

    def _cooldown(self, dt: float, master: bool, cranking: bool) -> None:
        """MASTER SW OFF: cool-down, then stop; a stopped APU spools down."""
        if self.running and not master:
            if self.cooldown_s < 0:
                self.cooldown_s = COOLDOWN_BLEED_S if self.bleed_used else COOLDOWN_S
            self.cooldown_s -= dt
            if self.cooldown_s <= 0:
                self.running = self.avail = self.starting = self.bleed_used = False
                self.cooldown_s = -1.0
        elif master:
            self.cooldown_s = -1.0
        if not self.running and not self.starting and not cranking and self.n_pct > 0.0:
            self.n_pct = max(0.0, self.n_pct - 6.0 * dt)

    def _egt(self, dt: float, f: Set[str]) -> float:
        """EGT toward its target; returns the target."""
        egt_target = (430.0 if self.avail else 700.0 if self.running else COLD_EGT_C)
        if self.running and "apu_egt_overtemp_shutdown" in f:
            egt_target = 900.0
        self.egt_c += (egt_target - self.egt_c) * min(1.0, dt / 4.0)
        if abs(self.egt_c - egt_target) < 1.0:
            self.egt_c = egt_target
        return egt_target

    @property
    def starter_engaged(self) -> bool:
        """The starter turns the APU (until about 55 %, FBW docs), drawing on DC BAT."""
        return (self.starting or self.cranking) and self.n_pct < STARTER_CUTOUT_PCT

    def vars(self) -> dict[str, object]:
        return {
            "apu.n_pct": round(self.n_pct, 1),
            "apu.egt_c": round(self.egt_c),
            "apu.running": self.running,
            "apu.avail": self.avail,
            "apu.starting": self.starting,
            "apu.fault": self.fault,
            "apu.flap_open": self.flap_open_s >= FLAP_OPEN_S,
            "apu.bleed_valve_open": self.bleed_valve_open,
        }

    def page(self, ac: Aircraft) -> dict[str, object]:
        c = ac.controls
        return {
            "MASTER SW": c["APU MASTER SW"],
            "master_fault_light": self.fault,
            "START": c["APU START"],
            "AVAIL": self.avail,
            "n_pct": round(self.n_pct),
            "egt_c": round(self.egt_c),
            "air_intake_flap": "OPEN" if self.flap_open_s >= FLAP_OPEN_S else ("OPENING" if self.flap_open_s > 0 else "CLOSED"),
            "bleed_valve": "OPEN" if self.bleed_valve_open else "CLOSED",
            "APU GEN": {"online": ac.elec.apu_gen_online, "load_pct": ac.elec.apu_gen_load_pct,
                        "volts_v": 115 if ac.elec.apu_gen_avail else 0},
        }

    def inop(self, ac: Aircraft) -> list[str]:
        # The FAULT light goes out at MASTER SW OFF, but the APU stays lost after a protective shutdown.
        return ["APU"] if self.fault or self.shutdown_seen or ac.fire.apu_fire_pb_released else []

    def memos(self, ac: Aircraft) -> list[str]:
        out = []
        if self.avail:
            out.append("APU AVAIL")
        if self.bleed_valve_open:
            out.append("APU BLEED")
        return out
