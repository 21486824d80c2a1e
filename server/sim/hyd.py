"""Hydraulics (ATA 29): Green, Blue, Yellow; EDPs, electric pumps, PTU, RAT.

Three independent 3000 psi circuits (domain reference §1.2). Each circuit's
pressure follows the best of its pumps through a first-order lag (fast rise,
slower decay as the accumulators and users drain it). A pump's output is its
rated pressure scaled by what its reservoir can give it: a low fluid level
makes it cavitate, low reservoir air pressure makes it fluctuate. Fluid never
moves between circuits; the PTU moves *power* between Green and Yellow
(XP `hydraulics.lua`: starts above 500 psi difference, stops below 150).

What carries state from one tick to the next: circuit pressures, reservoir
fluid, temperature and air pressure, the PTU and low-pressure latches, and
the RAT (never restowed in flight).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Set
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from .catalog import Control, Failure
from .reads import FirePushbuttons, FlightConditions
from .tick import Tick

if TYPE_CHECKING:
    from .aircraft import Aircraft


# ---- what this system reads -----------------------------------------------------------
class ElecForHyd(Protocol):
    def ac_bus_powered(self, n: int) -> bool: ...
    def dc_bus_powered(self, n: int) -> bool: ...


class EnginesForHyd(Protocol):
    def n2_pct(self, n: int) -> float: ...
    def running(self, n: int) -> bool: ...
    @property
    def any_running(self) -> bool: ...


AUTO_OFF = ("AUTO", "OFF")

CONTROLS = (
    Control("ENG 1 PUMP", "HYD", AUTO_OFF, "AUTO", description="Green engine-driven pump (engine 1)"),
    Control("ENG 2 PUMP", "HYD", AUTO_OFF, "AUTO", description="Yellow engine-driven pump (engine 2)"),
    Control("BLUE ELEC PUMP", "HYD", AUTO_OFF, "AUTO",
            description="Blue electric pump: in AUTO it runs in flight, or on ground once an engine runs"),
    Control("PTU", "HYD", AUTO_OFF, "AUTO", description="Power transfer unit between Green and Yellow"),
    Control("YELLOW ELEC PUMP", "HYD", ("ON", "OFF"), "OFF", description="Yellow electric pump"),
    Control("RAT MAN ON", "HYD", ("NORM", "PUSH"), "NORM", guarded=True, momentary=True,
            description="Deploy the ram air turbine (pressurises Blue)"),
)

FAILURES = (
    Failure("hyd_green_edp_fail", 29, "HYD", "Green engine-driven pump (engine 1) delivers no pressure"),
    Failure("hyd_yellow_edp_fail", 29, "HYD", "Yellow engine-driven pump (engine 2) delivers no pressure"),
    Failure("hyd_blue_elec_pump_fail", 29, "HYD", "Blue electric pump delivers no pressure"),
    Failure("hyd_yellow_elec_pump_fail", 29, "HYD", "Yellow electric pump delivers no pressure"),
    Failure("hyd_green_reservoir_leak", 29, "HYD", "Green circuit external leak: fluid is lost while the circuit is pressurised"),
    Failure("hyd_blue_reservoir_leak", 29, "HYD", "Blue circuit external leak: fluid is lost while the circuit is pressurised"),
    Failure("hyd_yellow_reservoir_leak", 29, "HYD", "Yellow circuit external leak: fluid is lost while the circuit is pressurised"),
    Failure("hyd_green_edp_overheat", 29, "HYD", "Green engine-driven pump overheats the Green return fluid while it runs"),
    Failure("hyd_yellow_edp_overheat", 29, "HYD", "Yellow engine-driven pump overheats the Yellow return fluid while it runs"),
    Failure("hyd_blue_elec_pump_overheat", 29, "HYD", "Blue electric pump overheats the Blue return fluid while it runs"),
    Failure("hyd_green_edp_overheat_transient", 29, "HYD",
            "Green engine-driven pump overheats the Green return fluid; once its PB is OFF and the overheat is out, "
            "it runs normally again", resettable=True),
    Failure("hyd_yellow_edp_overheat_transient", 29, "HYD",
            "Yellow engine-driven pump overheats the Yellow return fluid; once its PB is OFF and the overheat is out, "
            "it runs normally again", resettable=True),
    Failure("hyd_blue_elec_pump_overheat_transient", 29, "HYD",
            "Blue electric pump overheats the Blue return fluid; once its PB is OFF and the overheat is out, "
            "it runs normally again", resettable=True),
    Failure("hyd_green_reservoir_air_loss", 29, "HYD", "Green reservoir loses its air pressurisation"),
    Failure("hyd_blue_reservoir_air_loss", 29, "HYD", "Blue reservoir loses its air pressurisation"),
    Failure("hyd_yellow_reservoir_air_loss", 29, "HYD", "Yellow reservoir loses its air pressurisation"),
    Failure("hyd_ptu_fail", 29, "HYD", "Power transfer unit does not run"),
    Failure("hyd_rat_fail", 29, "HYD", "Ram air turbine extends but its pump delivers no pressure"),
)

FAILURE_IDS = frozenset(fl.id for fl in FAILURES)
_NO_FAILURES: frozenset[str] = frozenset()

CIRCUITS = ("green", "blue", "yellow")
LETTER = {"green": "G", "blue": "B", "yellow": "Y"}

NOMINAL_PSI = 3000.0
LO_PR_SET_PSI = 1450.0  # SYS LO PR hysteresis (XP code, training source)
LO_PR_RESET_PSI = 1750.0
PUMP_LO_PR_PSI = 1450.0  # pump pressure switch
RISE_TAU_S = 0.8
DECAY_TAU_S = 2.5  # accumulators and users bleed the circuit down over a few seconds
PTU_START_DIFF_PSI = 500.0
PTU_STOP_DIFF_PSI = 150.0
PTU_DROP_PSI = 200.0  # the driven side settles this far below the driving side
RAT_SPIN_UP_S = 4.0
RAT_PSI = 2500.0
RAT_FULL_KT = 140.0  # MIN RAT SPD; below it the output falls off
RAT_LOSS_PSI_PER_KT = 30.0  # Blue stays above 2000 psi (the EMER GEN) down to ~125 kt (QRH EMER ELEC)
EDP_ZERO_N2 = 10.0  # EDP output rises linearly from here...
EDP_FULL_N2 = 40.0  # ...to full pressure (a windmilling engine gives partial pressure)
LEAK_LPS = 0.15  # external leak at full circuit pressure; it scales with pressure
FLUID_NORMAL_C = 45.0
OVHT_SET_C = 95.0
OVHT_RESET_C = 85.0
PUMP_OVHT_C = 130.0  # return-fluid temperature a failing pump drives toward
PTU_DRY_C = 125.0  # a PTU running against an empty circuit heats the driving side
HEAT_TAU_S = 60.0
COOL_TAU_S = 90.0
AIR_NORMAL_PSI = 50.0
AIR_LOST_PSI = 15.0
AIR_LO_PSI = 22.0
AIR_TAU_S = 10.0

# Reservoir fluid (litres): normal level and the low-level switch (uncertain, typical ceo values).
RSVR_NORMAL_L = {"green": 14.0, "blue": 6.5, "yellow": 12.5}
RSVR_LOW_L = {"green": 3.5, "blue": 2.4, "yellow": 3.0}
CAVITATE_FULL_L = 2.0  # pumps start losing output below this...
CAVITATE_ZERO_L = 0.5  # ...and deliver nothing below this

_AIR_LOSS = {c: f"hyd_{c}_reservoir_air_loss" for c in CIRCUITS}
_LEAK = {c: f"hyd_{c}_reservoir_leak" for c in CIRCUITS}
_OVHT = {"green": "hyd_green_edp_overheat", "blue": "hyd_blue_elec_pump_overheat", "yellow": "hyd_yellow_edp_overheat"}
_OVHT_PUMP = {"green": "eng1", "blue": "blue_elec", "yellow": "eng2"}
# A transient overheat (FCOM: `IF OVHT OUT: pump ON`) heats like the persistent one while the pump runs,
# and is gone once the crew has switched the pump OFF and the overheat is out.
_OVHT_TRANSIENT = {circ: f + "_transient" for circ, f in _OVHT.items()}
_OVHT_PB = {"green": "ENG 1 PUMP", "blue": "BLUE ELEC PUMP", "yellow": "ENG 2 PUMP"}
_EDP_PB = ("ENG 1 PUMP", "ENG 2 PUMP")
_EDP_FAIL = ("hyd_green_edp_fail", "hyd_yellow_edp_fail")
_FULL_AVAIL = {"green": 1.0, "blue": 1.0, "yellow": 1.0}


def _lag(x: float, target: float, tau: float, dt: float, snap: float) -> float:
    x += (target - x) * min(1.0, dt / tau)
    return target if abs(target - x) < snap else x


@dataclass(slots=True)
class Reservoir:
    qty_l: float
    temp_c: float = FLUID_NORMAL_C
    air_psi: float = AIR_NORMAL_PSI
    ovht: bool = False  # latched with hysteresis

    def lo_lvl(self, circuit: str) -> bool:
        return self.qty_l < RSVR_LOW_L[circuit]

    @property
    def lo_air(self) -> bool:
        return self.air_psi < AIR_LO_PSI


@dataclass(slots=True)
class Hyd:
    pressure_psi: dict[str, float] = field(default_factory=lambda: {"green": 0.0, "blue": 0.0, "yellow": 0.0})
    rsvr: dict[str, Reservoir] = field(default_factory=lambda: {c: Reservoir(RSVR_NORMAL_L[c]) for c in CIRCUITS})
    # Each pump's own outlet pressure (what its pressure switch sees), psi.
    pump_psi: dict[str, float] = field(default_factory=lambda: {"eng1": 0.0, "eng2": 0.0, "blue_elec": 0.0,
                                                                 "yellow_elec": 0.0, "rat": 0.0})
    # A pump that should be delivering (selected, driven, powered) but is below its pressure switch.
    pump_lo_pr: dict[str, bool] = field(default_factory=lambda: {"eng1": False, "eng2": False,
                                                                  "blue_elec": False, "yellow_elec": False})
    lo_pr: dict[str, bool] = field(default_factory=lambda: {"green": True, "blue": True, "yellow": True})
    fire_valve_open: list[bool] = field(default_factory=lambda: [True, True])
    ptu_running: bool = False
    ptu_to: str = ""  # the circuit the PTU is pressurising ("green" / "yellow")
    ptu_dry: bool = False
    ptu_inop: bool = False  # selected OFF, or needed (difference above 500 psi) and not running
    rat_deployed: bool = False
    rat_spin_s: float = 0.0
    emer_man_on: bool = False
    abnormal: bool = False  # any circuit low, pump low or reservoir off nominal
    transient: bool = False
    _nominal: bool = True  # every reservoir at its normal level, air pressure and temperature

    # ---- queries other systems and the FWC use ---------------------------------------
    def circuit_psi(self, circuit: str) -> float:
        return self.pressure_psi[circuit]

    def rsvr_fault(self, circuit: str) -> bool:
        r = self.rsvr[circuit]
        return r.lo_lvl(circuit) or r.ovht or r.lo_air

    def fluid_lost(self, circuit: str) -> bool:
        return self.rsvr[circuit].lo_lvl(circuit)

    def update(self, t: Tick, elec: ElecForHyd, engines: EnginesForHyd, fire: FirePushbuttons,
               flight: FlightConditions) -> None:
        hf = t.failures & FAILURE_IDS if t.failures else _NO_FAILURES
        changed = self._rat(t, elec, flight)
        # With no hydraulic failure and healthy reservoirs (the usual case) everything is nominal.
        nominal = self._nominal and not hf
        avail, moving, fluctuating = (_FULL_AVAIL, False, False) if nominal else self._reservoir_output(t, hf)
        # Fire shut-off valves upstream of the EDPs close with the ENG FIRE PB.
        self.fire_valve_open[0] = not fire.eng_fire_pb_released(1)
        self.fire_valve_open[1] = not fire.eng_fire_pb_released(2)
        blue_cmd, yellow_cmd = self._pumps(t, hf, avail, elec, engines, flight)
        p = self.pump_psi
        target = {
            "green": p["eng1"],
            "blue": max(p["blue_elec"], p["rat"]),
            "yellow": max(p["eng2"], p["yellow_elec"]),
        }
        changed |= self._ptu(t, hf, avail, target, elec.dc_bus_powered(2), flight.on_ground)
        circuit_moved, latch_changed = self._circuits(t.dt, target)
        moving |= circuit_moved
        changed |= latch_changed
        if not nominal:
            fluid_moved, fluid_changed = self._fluid(t, hf)
            moving |= fluid_moved
            changed |= fluid_changed
        new_lo = self._pressure_switches(t.controls, engines, blue_cmd, yellow_cmd)
        changed |= new_lo
        lo = self.lo_pr
        self.transient = changed or moving or fluctuating or (self.rat_deployed and self.rat_spin_s < RAT_SPIN_UP_S)
        # What the FWC needs to look further (the HYD alerts test this first).
        self.abnormal = (lo["green"] or lo["blue"] or lo["yellow"] or any(self.pump_lo_pr.values())
                         or not self._nominal)

    def _rat(self, t: Tick, elec: ElecForHyd, flight: FlightConditions) -> bool:
        """RAT: automatic with AC BUS 1+2 lost in flight; manual from the HYD or EMER ELEC PWR panel.
        Never restowed in flight. True when it has just deployed."""
        rat_was = self.rat_deployed
        if t.pushed("EMER ELEC PWR MAN ON"):
            self.emer_man_on = True
            self.rat_deployed = True
        if t.pushed("RAT MAN ON"):
            self.rat_deployed = True
        if (not flight.on_ground and flight.ias_kt > 100.0 and not elec.ac_bus_powered(1)
                and not elec.ac_bus_powered(2)):
            self.rat_deployed = True
        if self.rat_deployed:
            self.rat_spin_s = min(RAT_SPIN_UP_S, self.rat_spin_s + t.dt)
        return self.rat_deployed and not rat_was

    def _reservoir_output(self, t: Tick, hf: Set[str]) -> tuple[dict[str, float], bool, bool]:
        """Reservoir air pressure, and the share of its rated output each reservoir lets its pumps
        deliver: a low level cavitates, low air pressure fluctuates. Returns (shares, air still
        moving, fluctuating)."""
        avail: dict[str, float] = {}
        moving = fluctuating = False
        for circ in CIRCUITS:
            r = self.rsvr[circ]
            air_target = AIR_LOST_PSI if _AIR_LOSS[circ] in hf else AIR_NORMAL_PSI
            if r.air_psi != air_target:
                r.air_psi = _lag(r.air_psi, air_target, AIR_TAU_S, t.dt, 0.05)
                moving = True
            q = r.qty_l
            a = 1.0 if q >= CAVITATE_FULL_L else max(0.0, (q - CAVITATE_ZERO_L) / (CAVITATE_FULL_L - CAVITATE_ZERO_L))
            if r.air_psi < AIR_LO_PSI:
                # Pumps cavitate: the delivery pressure fluctuates (deterministic in sim time).
                a *= 0.75 + 0.2 * math.sin(2.0 * math.pi * t.now_s / 6.0)
                fluctuating = True
            avail[circ] = a
        return avail, moving, fluctuating

    def _pumps(self, t: Tick, hf: Set[str], avail: dict[str, float], elec: ElecForHyd, engines: EnginesForHyd,
               flight: FlightConditions) -> tuple[bool, bool]:
        """Each pump's outlet pressure. Returns whether the Blue and Yellow electric pumps are commanded."""
        c = t.controls
        p = self.pump_psi
        fv = self.fire_valve_open
        for i, circ, key in ((0, "green", "eng1"), (1, "yellow", "eng2")):
            if c[_EDP_PB[i]] == "AUTO" and fv[i] and _EDP_FAIL[i] not in hf:
                n2 = engines.n2_pct(i + 1)
                drive = 1.0 if n2 >= EDP_FULL_N2 else max(0.0, (n2 - EDP_ZERO_N2) / (EDP_FULL_N2 - EDP_ZERO_N2))
                p[key] = NOMINAL_PSI * drive * avail[circ]
            else:
                p[key] = 0.0
        blue_cmd = (c["BLUE ELEC PUMP"] == "AUTO" and elec.ac_bus_powered(1)
                    and (not flight.on_ground or engines.any_running))
        p["blue_elec"] = NOMINAL_PSI * avail["blue"] if blue_cmd and "hyd_blue_elec_pump_fail" not in hf else 0.0
        yellow_cmd = c["YELLOW ELEC PUMP"] == "ON" and elec.ac_bus_powered(2)
        p["yellow_elec"] = NOMINAL_PSI * avail["yellow"] if yellow_cmd and "hyd_yellow_elec_pump_fail" not in hf else 0.0
        rat_psi = 0.0
        if self.rat_deployed and self.rat_spin_s >= RAT_SPIN_UP_S and "hyd_rat_fail" not in hf:
            rat_psi = max(0.0, min(RAT_PSI, RAT_PSI - (RAT_FULL_KT - flight.ias_kt) * RAT_LOSS_PSI_PER_KT))
        p["rat"] = rat_psi * avail["blue"]
        return blue_cmd, yellow_cmd

    def _ptu(self, t: Tick, hf: Set[str], avail: dict[str, float], target: dict[str, float], dc_2: bool,
             on_ground: bool) -> bool:
        """PTU: automatic, on the actual pressure difference; inhibited during the first engine start
        (on ground, exactly one ENG MASTER ON, parking brake ON); its control valve needs DC BUS 2.
        Raises the driven side's target. True if it started or stopped."""
        c = t.controls
        press = self.pressure_psi
        inhibited = (on_ground and (c["ENG MASTER 1"] == "ON") != (c["ENG MASTER 2"] == "ON")
                     and c["PARKING BRK"] == "ON")
        ptu_auto = c["PTU"] == "AUTO"
        diff = press["green"] - press["yellow"]
        ptu_was = self.ptu_running
        if not (ptu_auto and dc_2 and not inhibited and "hyd_ptu_fail" not in hf):
            self.ptu_running = False
        elif diff > PTU_START_DIFF_PSI or diff < -PTU_START_DIFF_PSI:
            self.ptu_running = True
            self.ptu_to = "green" if diff < 0 else "yellow"
        elif self.ptu_running and abs(diff) < PTU_STOP_DIFF_PSI:
            self.ptu_running = False
        self.ptu_dry = False
        if self.ptu_running:
            weak = self.ptu_to
            strong = "yellow" if weak == "green" else "green"
            target[weak] = max(target[weak], (target[strong] - PTU_DROP_PSI) * avail[weak])
            # Running against a circuit with no fluid: the PTU runs dry and fast.
            self.ptu_dry = target[strong] > PTU_START_DIFF_PSI and avail[weak] < 0.3
        else:
            self.ptu_to = ""
        self.ptu_inop = not ptu_auto or (
            dc_2 and not inhibited and abs(diff) > PTU_START_DIFF_PSI and not self.ptu_running)
        return self.ptu_running != ptu_was

    def _circuits(self, dt: float, target: dict[str, float]) -> tuple[bool, bool]:
        """Circuit pressures and their low-pressure latches. Returns (a pressure still moves, a latch changed)."""
        press = self.pressure_psi
        lo = self.lo_pr
        moving = changed = False
        for circ in CIRCUITS:
            old = press[circ]
            tgt = target[circ]
            if old != tgt:
                press[circ] = pr = _lag(old, tgt, RISE_TAU_S if tgt > old else DECAY_TAU_S, dt, 1.0)
                moving = True
                was_lo = lo[circ]
                if pr <= LO_PR_SET_PSI:
                    lo[circ] = True
                elif pr >= LO_PR_RESET_PSI:
                    lo[circ] = False
                changed = changed or lo[circ] != was_lo
        return moving, changed

    def _fluid(self, t: Tick, hf: Set[str]) -> tuple[bool, bool]:
        """External leaks and return-fluid temperature: a failing pump heats its circuit while it
        runs; a dry PTU heats the side driving it. Returns (still moving, an overheat latch changed)."""
        moving = changed = False
        press = self.pressure_psi
        p = self.pump_psi
        for circ in CIRCUITS:
            r = self.rsvr[circ]
            if _LEAK[circ] in hf and r.qty_l > 0.0 and press[circ] > 0.0:
                flow = LEAK_LPS * press[circ] / NOMINAL_PSI
                r.qty_l = max(0.0, r.qty_l - flow * t.dt)
                moving = moving or flow > 0.001
            hot = _OVHT[circ] in hf or _OVHT_TRANSIENT[circ] in hf
            t_target = PUMP_OVHT_C if hot and p[_OVHT_PUMP[circ]] > 0.0 else FLUID_NORMAL_C
            if self.ptu_dry and circ != self.ptu_to and circ != "blue":
                t_target = PTU_DRY_C if PTU_DRY_C > t_target else t_target
            if r.temp_c != t_target:
                r.temp_c = _lag(r.temp_c, t_target, HEAT_TAU_S if t_target > r.temp_c else COOL_TAU_S, t.dt, 0.1)
                moving = True
            was_ovht = r.ovht
            if r.temp_c > OVHT_SET_C:
                r.ovht = True
            elif r.temp_c < OVHT_RESET_C:
                r.ovht = False
            changed = changed or r.ovht != was_ovht
            if (_OVHT_TRANSIENT[circ] in hf and t.controls[_OVHT_PB[circ]] == "OFF" and not r.ovht
                    and r.temp_c < OVHT_RESET_C):
                t.resolve(_OVHT_TRANSIENT[circ])
                changed = True
        self._nominal = all(r.qty_l >= RSVR_NORMAL_L[k] and r.air_psi == AIR_NORMAL_PSI
                            and r.temp_c == FLUID_NORMAL_C and not r.ovht for k, r in self.rsvr.items())
        return moving, changed

    def _pressure_switches(self, c: Mapping[str, str], engines: EnginesForHyd, blue_cmd: bool,
                           yellow_cmd: bool) -> bool:
        """Pump pressure switches: low while the pump should be delivering. True if any changed."""
        p = self.pump_psi
        fv = self.fire_valve_open
        plo = self.pump_lo_pr
        new_lo = (
            c["ENG 1 PUMP"] == "AUTO" and engines.running(1) and fv[0] and p["eng1"] < PUMP_LO_PR_PSI,
            c["ENG 2 PUMP"] == "AUTO" and engines.running(2) and fv[1] and p["eng2"] < PUMP_LO_PR_PSI,
            blue_cmd and p["blue_elec"] < PUMP_LO_PR_PSI,
            yellow_cmd and p["yellow_elec"] < PUMP_LO_PR_PSI,
        )
        if new_lo == (plo["eng1"], plo["eng2"], plo["blue_elec"], plo["yellow_elec"]):
            return False
        plo["eng1"], plo["eng2"], plo["blue_elec"], plo["yellow_elec"] = new_lo
        return True

    # ---- read-outs ----------------------------------------------------------------
    def vars(self) -> dict[str, object]:
        v: dict[str, object] = {}
        for circ in CIRCUITS:
            r = self.rsvr[circ]
            v[f"hyd.{circ}_press_psi"] = round(self.pressure_psi[circ])
            v[f"hyd.{circ}_lo_pr"] = self.lo_pr[circ]
            v[f"hyd.{circ}_rsvr_qty_l"] = round(r.qty_l, 2)
            v[f"hyd.{circ}_rsvr_temp_c"] = round(r.temp_c, 1)
            v[f"hyd.{circ}_rsvr_air_press_psi"] = round(r.air_psi, 1)
        for key in ("eng1", "eng2", "blue_elec", "yellow_elec", "rat"):
            v[f"hyd.{key}_pump_press_psi"] = round(self.pump_psi[key])
        v["hyd.green_fire_valve_open"] = self.fire_valve_open[0]
        v["hyd.yellow_fire_valve_open"] = self.fire_valve_open[1]
        v["hyd.ptu_running"] = self.ptu_running
        v["hyd.rat_deployed"] = self.rat_deployed
        v["hyd.emer_man_on"] = self.emer_man_on
        return v

    def _fault_light(self, circ: str, pb_off: bool, pump_lo: bool) -> bool:
        # FAULT: pump low pressure or reservoir fault; PB OFF puts it out, except an overheat.
        r = self.rsvr[circ]
        if r.ovht:
            return True
        return not pb_off and (pump_lo or r.lo_lvl(circ) or r.lo_air)

    def page(self, ac: Aircraft) -> dict[str, object]:
        c = ac.controls

        def pump(key: str, pb: str, circ: str, off_pos: str = "OFF") -> dict[str, object]:
            psi = self.pump_psi[key]
            state = "OFF" if c[pb] == off_pos else ("ON" if psi >= PUMP_LO_PR_PSI else "LO PR")
            return {"pb": c[pb], "state": state, "fault_light": self._fault_light(circ, c[pb] == off_pos,
                                                                                      self.pump_lo_pr[key])}

        def circuit(circ: str) -> dict[str, object]:
            r = self.rsvr[circ]
            return {
                "press_psi": int(round(self.pressure_psi[circ], -1)),
                "lo_pr": self.lo_pr[circ],
                "reservoir": {
                    "qty_l": round(r.qty_l, 1),
                    "normal_qty_l": RSVR_NORMAL_L[circ],
                    "lo_lvl_mark_l": RSVR_LOW_L[circ],
                    "lo_lvl": r.lo_lvl(circ),
                    "temp_c": round(r.temp_c),
                    "ovht": r.ovht,
                    "air_press_psi": round(r.air_psi),
                    "lo_air_press": r.lo_air,
                },
            }

        green = circuit("green")
        green["ENG 1 PUMP"] = pump("eng1", "ENG 1 PUMP", "green")
        green["fire_valve"] = "OPEN" if self.fire_valve_open[0] else "CLOSED"
        blue = circuit("blue")
        blue["ELEC PUMP"] = pump("blue_elec", "BLUE ELEC PUMP", "blue")
        blue["RAT"] = {"state": "DEPLOYED" if self.rat_deployed else "STOWED",
                       "output": ("PRESSURISING" if self.pump_psi["rat"] >= PUMP_LO_PR_PSI else "LO PR")
                       if self.rat_deployed else "-"}
        yellow = circuit("yellow")
        yellow["ENG 2 PUMP"] = pump("eng2", "ENG 2 PUMP", "yellow")
        yellow["ELEC PUMP"] = pump("yellow_elec", "YELLOW ELEC PUMP", "yellow")
        yellow["fire_valve"] = "OPEN" if self.fire_valve_open[1] else "CLOSED"
        g, y = self.rsvr["green"], self.rsvr["yellow"]
        ptu_pb_off = c["PTU"] == "OFF"
        ptu_fault = g.ovht or y.ovht or (not ptu_pb_off and (self.rsvr_fault("green") or self.rsvr_fault("yellow")))
        ptu_state = "OFF"
        if self.ptu_running:
            ptu_state = "RUNNING Y>G" if self.ptu_to == "green" else "RUNNING G>Y"
        return {
            "GREEN": green,
            "BLUE": blue,
            "YELLOW": yellow,
            "PTU": {"pb": c["PTU"], "state": ptu_state, "fault_light": ptu_fault},
        }

    def inop(self, ac: Aircraft) -> list[str]:
        fl = ac.flight
        eng = ac.eng.engines
        monitored = not fl.on_ground or (eng[0].running and eng[1].running)
        if not monitored:
            return []
        out = [f"{LETTER[circ]} HYD" for circ in CIRCUITS if self.lo_pr[circ]]
        for n, circ, key in ((1, "G", "eng1"), (2, "Y", "eng2")):
            if eng[n - 1].running and self.pump_psi[key] < PUMP_LO_PR_PSI:
                out.append(f"{circ} ENG {n} PUMP")
        if ac.elec.ac_bus[0] and self.pump_psi["blue_elec"] < PUMP_LO_PR_PSI:
            out.append("B ELEC PUMP")
        if self.ptu_inop:
            out.append("PTU")
        if self.rat_deployed and self.rat_spin_s >= RAT_SPIN_UP_S and fl.ias_kt >= RAT_FULL_KT \
                and self.pump_psi["rat"] < PUMP_LO_PR_PSI and self.rsvr["blue"].qty_l > CAVITATE_FULL_L:
            out.append("RAT")
        return out

    def memos(self, ac: Aircraft) -> list[str]:
        out = []
        if self.ptu_running:
            out.append("HYD PTU")
        if self.rat_deployed:
            out.append("RAT OUT")
        return out
