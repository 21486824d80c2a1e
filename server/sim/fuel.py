"""Fuel (ATA 28): tanks, pumps, mode selector, crossfeed, LP valves, burn, leaks.

Five tanks (outer/inner cells per wing, centre; domain reference §1.3) and two
engine feed lines. Line 1 (left) is pressurised by L TK PUMP 1/2 and CTR TK
PUMP 1, line 2 (right) by R TK PUMP 1/2 and CTR TK PUMP 2 (ceo layout); the
crossfeed valve joins the two lines. Centre pumps deliver more pressure than
wing pumps, so while one runs on a line (or across an open crossfeed) its
engine burns centre fuel. A line with no pump pressure is gravity fed from its
own inner cell (wing fuel only). When an inner cell falls to 750 kg, that
wing's outer-cell transfer valves latch open and the outer fuel runs in.

Burn is a linear integrator: the tick draws each consumer's fuel from its
sources in priority order and moves any shortfall to the next source, so a
steady fast-forward step stays mass-conserving. There is no leak sensor: a leak
only shows as tank quantities, fuel used and fuel flow (FUEL page).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Set
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from .catalog import Control, Failure
from .reads import ApuRunning, FirePushbuttons, FlightConditions
from .tick import Tick

if TYPE_CHECKING:
    from .aircraft import Aircraft


# ---- what this system reads -----------------------------------------------------------
class ElecForFuel(Protocol):
    def ac_bus_powered(self, n: int) -> bool: ...
    def gen_available(self, n: int) -> bool: ...


class FuelDemand(Protocol):
    def ff_kgh(self, n: int) -> float: ...
    @property
    def any_running(self) -> bool: ...


ON_OFF = ("ON", "OFF")

TANK_PUMPS = ("L TK PUMP 1", "L TK PUMP 2", "R TK PUMP 1", "R TK PUMP 2", "CTR TK PUMP 1", "CTR TK PUMP 2")

CONTROLS = (
    Control("L TK PUMP 1", "FUEL", ON_OFF, "OFF", description="Left wing tank pump 1"),
    Control("L TK PUMP 2", "FUEL", ON_OFF, "OFF", description="Left wing tank pump 2"),
    Control("R TK PUMP 1", "FUEL", ON_OFF, "OFF", description="Right wing tank pump 1"),
    Control("R TK PUMP 2", "FUEL", ON_OFF, "OFF", description="Right wing tank pump 2"),
    Control("CTR TK PUMP 1", "FUEL", ON_OFF, "OFF", description="Centre tank pump 1 (feeds the left engine feed line)"),
    Control("CTR TK PUMP 2", "FUEL", ON_OFF, "OFF", description="Centre tank pump 2 (feeds the right engine feed line)"),
    Control("FUEL MODE SEL", "FUEL", ("AUTO", "MAN"), "AUTO",
            description="Centre tank pumps: automatic sequencing (AUTO) or by their pushbuttons (MAN)"),
    Control("X FEED", "FUEL", ("OFF", "ON"), "OFF", description="Crossfeed valve joining the left and right engine feed lines"),
)

FAILURES = (
    Failure("fuel_l_tk_pump_1_fail", 28, "FUEL", "Left wing tank pump 1 delivers no pressure"),
    Failure("fuel_l_tk_pump_2_fail", 28, "FUEL", "Left wing tank pump 2 delivers no pressure"),
    Failure("fuel_r_tk_pump_1_fail", 28, "FUEL", "Right wing tank pump 1 delivers no pressure"),
    Failure("fuel_r_tk_pump_2_fail", 28, "FUEL", "Right wing tank pump 2 delivers no pressure"),
    Failure("fuel_ctr_tk_pump_1_fail", 28, "FUEL", "Centre tank pump 1 delivers no pressure"),
    Failure("fuel_ctr_tk_pump_2_fail", 28, "FUEL", "Centre tank pump 2 delivers no pressure"),
    Failure("fuel_ctr_tk_auto_ctl_fail", 28, "FUEL", "Centre tank pump automatic control fails: in AUTO the centre pumps stay off"),
    Failure("fuel_xfeed_valve_stuck_closed", 28, "FUEL", "Crossfeed valve motor fails: the valve stays closed"),
    Failure("fuel_left_engine_leak", 28, "FUEL", "Fuel leak on engine 1 / pylon, downstream of the fuel flow meter"),
    Failure("fuel_right_engine_leak", 28, "FUEL", "Fuel leak on engine 2 / pylon, downstream of the fuel flow meter"),
    Failure("fuel_left_wing_tank_leak", 28, "FUEL", "Left inner wing tank structural leak"),
    Failure("fuel_right_wing_tank_leak", 28, "FUEL", "Right inner wing tank structural leak"),
)

FAILURE_IDS = frozenset(fl.id for fl in FAILURES)
_NO_FAILURES: frozenset[str] = frozenset()

TANKS = ("left_outer", "left_inner", "center", "right_inner", "right_outer")
# Capacity and the standard load (kg): wings full, centre part-filled (A320neo per FBW docs, approx.).
CAPACITY_KG = {"left_outer": 690.0, "left_inner": 5500.0, "center": 6600.0, "right_inner": 5500.0, "right_outer": 690.0}
STANDARD_LOAD_KG = {"left_outer": 690.0, "left_inner": 5500.0, "center": 3000.0, "right_inner": 5500.0, "right_outer": 690.0}
SIDES = ("left", "right")

PUMP_TANK = {"L TK PUMP 1": "left_inner", "L TK PUMP 2": "left_inner", "R TK PUMP 1": "right_inner",
             "R TK PUMP 2": "right_inner", "CTR TK PUMP 1": "center", "CTR TK PUMP 2": "center"}
PUMP_FAILURE = {p: "fuel_" + p.lower().replace(" ", "_") + "_fail" for p in TANK_PUMPS}
WING_PUMPS = (("L TK PUMP 1", "L TK PUMP 2"), ("R TK PUMP 1", "R TK PUMP 2"))
CTR_PUMPS = ("CTR TK PUMP 1", "CTR TK PUMP 2")

OUTER_XFR_TRIGGER_KG = 750.0  # inner cell low level opens the outer transfer valves (latched)
OUTER_XFR_KGS = 1.0  # gravity transfer, ~11 min for a full outer cell
WING_LO_LVL_KG = 750.0  # wing tank (inner + outer) low level
AUTO_FEED_WING_KG = 5000.0  # MODE SEL FAULT: a wing tank below this...
AUTO_FEED_CTR_KG = 250.0  # ...while the centre still holds more than this
ENGINE_LEAK_KGH = 1500.0
TANK_LEAK_KGH = 1500.0
APU_BURN_KGH = 120.0
XFEED_TRAVEL_S = 2.0
GRAVITY_CEILING_FT = 15000.0  # FCOM GRAVITY FUEL FEEDING: fuel not deaerated
DEAERATION_ALT_FT = 30000.0
DEAERATED_AFTER_S = 1800.0  # 30 min above FL300: the ceiling is the current level
GRAVITY_FULL_KGH = 6000.0  # suction at or below the ceiling: more than an engine at TOGA asks
GRAVITY_FADE_FT = 5000.0  # "far above" the ceiling suction gives nothing (uncertain)


# (pump, AC bus index, may run from GEN 1 directly, centre pump, failure id, tank)
_PUMP_TABLE = tuple(
    (p, int(p[-1]) - 1, p in ("L TK PUMP 1", "R TK PUMP 1"),
     p in CTR_PUMPS, PUMP_FAILURE[p], PUMP_TANK[p])
    for p in TANK_PUMPS
)
_CTR = ["center"]
_INNER = (["left_inner"], ["right_inner"])
_OUTER = ("left_outer", "right_outer")
_MASTER = ("ENG MASTER 1", "ENG MASTER 2")
_ENG_LEAK = ("fuel_left_engine_leak", "fuel_right_engine_leak")
_TANK_LEAK = ("fuel_left_wing_tank_leak", "fuel_right_wing_tank_leak")


def _feed(xf: bool, ctr1: bool, ctr2: bool, wing_l: bool, wing_r: bool):
    """Per line: the tank groups it draws from, whether pumps pressurise it, and a label."""
    out = []
    for i in (0, 1):
        lines = (0, 1) if xf else (i,)
        g: list[list[str]] = []
        if any((ctr1, ctr2)[j] for j in lines):
            g.append(_CTR)
        wings = [_INNER[j][0] for j in lines if (wing_l, wing_r)[j]]
        if wings:
            g.append(wings)
        label = ""
        if g:
            label = "CTR TK" if g[0] is _CTR else "+".join(t[0].upper() for t in g[0]) + " TK"
        out.append((g + [_INNER[i]], bool(g), label))
    return tuple(x[0] for x in out), tuple(x[1] for x in out), tuple(x[2] for x in out)


_FEED = {k: _feed(*k) for k in itertools.product((False, True), repeat=5)}


def fl_text(alt_ft: float) -> str:
    """A level as the crew says it: FL150."""
    return f"FL{round(alt_ft / 100.0):03d}"


def _draw(q: dict[str, float], amount: float, groups: list[list[str]]) -> float:
    """Take `amount` kg from the tanks, group by group, shared equally inside a group.

    Returns what could not be supplied.
    """
    first = groups[0]
    if len(first) == 1 and q[first[0]] >= amount:  # the usual case: one tank, enough fuel
        q[first[0]] -= amount
        return 0.0
    for group in groups:
        tanks = [t for t in group if q[t] > 0.0]
        while amount > 1e-9 and tanks:
            share = amount / len(tanks)
            for t in tanks:
                take = min(share, q[t])
                q[t] -= take
                amount -= take
            tanks = [t for t in tanks if q[t] > 0.0]
        if amount <= 1e-9:
            return 0.0
    return max(0.0, amount)


@dataclass(slots=True)
class Fuel:
    qty_kg: dict[str, float] = field(default_factory=lambda: dict(STANDARD_LOAD_KG))
    pump_cmd: dict[str, bool] = field(default_factory=lambda: dict.fromkeys(TANK_PUMPS, False))
    pump_press: dict[str, bool] = field(default_factory=lambda: dict.fromkeys(TANK_PUMPS, False))
    faulty_pumps: tuple[str, ...] = ()  # selected ON, powered and wanted, but no pressure
    abnormal: bool = False  # a pump fault or a wing tank below 5000 kg (the FUEL alerts test this first)
    xfeed_open_frac: float = 0.0  # 0 closed .. 1 open
    outer_xfr_open: list[bool] = field(default_factory=lambda: [False, False])
    lp_open: list[bool] = field(default_factory=lambda: [False, False])
    line_press: list[bool] = field(default_factory=lambda: [False, False])
    feed_src: list[str] = field(default_factory=lambda: ["", ""])  # per engine: CTR TK / L TK / R TK / L+R TK / GRAVITY
    used_kg: list[float] = field(default_factory=lambda: [0.0, 0.0])  # metered, since engine start
    ff_kgh: list[float] = field(default_factory=lambda: [0.0, 0.0])  # metered
    fob_at_start_kg: float = sum(STANDARD_LOAD_KG.values())
    time_above_fl300_s: float = 0.0  # flight history: fuel deaerates above FL300
    highest_alt_ft: float = 0.0
    starved: list[bool] = field(default_factory=lambda: [False, False])  # a gravity-fed line that lost suction
    transient: bool = False
    _fed: list[bool] = field(default_factory=lambda: [False, False])

    # ---- queries other systems use -------------------------------------------------
    def engine_fed(self, n: int) -> bool:
        return self._fed[n - 1]

    def metered_ff_kgh(self, n: int) -> float:
        """Engine n fuel flow as the flow meter reads it (includes a leak downstream of it)."""
        return self.ff_kgh[n - 1]

    @property
    def fob_kg(self) -> float:
        return sum(self.qty_kg.values())

    @property
    def xfeed_open(self) -> bool:
        return self.xfeed_open_frac >= 1.0

    def wing_kg(self, side: int) -> float:
        s = SIDES[side]
        return self.qty_kg[f"{s}_inner"] + self.qty_kg[f"{s}_outer"]

    def gravity_feed(self, n: int) -> bool:
        return self.feed_src[n - 1] == "GRAVITY"

    def update(self, t: Tick, elec: ElecForFuel, engines: FuelDemand, fire: FirePushbuttons, apu: ApuRunning,
               flight: FlightConditions) -> None:
        ff = t.failures & FAILURE_IDS if t.failures else _NO_FAILURES
        self._deaeration(t.dt, flight.altitude_ft)
        changed = self._pumps(t.controls, ff, elec, flight.on_ground)
        changed |= self._crossfeed(t, ff)
        # Feed lines: which tanks pressurise each line (centre first, then wing pumps), then
        # gravity / suction from the line's own inner cell.
        press_d = self.pump_press
        groups, pressed, labels = _FEED[(
            self.xfeed_open_frac >= 1.0,
            press_d["CTR TK PUMP 1"], press_d["CTR TK PUMP 2"],
            press_d["L TK PUMP 1"] or press_d["L TK PUMP 2"], press_d["R TK PUMP 1"] or press_d["R TK PUMP 2"],
        )]
        changed |= self._engines(t, ff, engines, fire, groups, pressed, labels, flight.altitude_ft)
        # APU: from the left line (its own fuel pump when the line has no pressure).
        if apu.running:
            _draw(self.qty_kg, APU_BURN_KGH * t.dt / 3600.0, groups[0])
        changed |= self._leaks_and_transfers(t.dt, ff)
        # Fuel used resets at engine start (on ground, no engine running yet).
        if flight.on_ground and not engines.any_running:
            self.used_kg[0] = self.used_kg[1] = 0.0
            self.fob_at_start_kg = self.fob_kg
        self.transient = changed
        self.abnormal = bool(self.faulty_pumps) or min(self.wing_kg(0), self.wing_kg(1)) < AUTO_FEED_WING_KG

    def _pumps(self, c: Mapping[str, str], ff: Set[str], elec: ElecForFuel, on_ground: bool) -> bool:
        """Pump commands and pressure switches. True if any changed.

        Pump 1s on AC BUS 1 (L/R TK PUMP 1 straight from GEN 1 with GEN 1 LINE OFF), pump 2s on AC BUS 2."""
        q = self.qty_kg
        bus = (elec.ac_bus_powered(1), elec.ac_bus_powered(2))
        gen1_direct = c["GEN 1 LINE"] == "OFF" and elec.gen_available(1)
        # AUTO: centre pumps run in flight (slats retracted) while the centre tank has fuel.
        ctr_run = (c["FUEL MODE SEL"] == "MAN"
                   or (not on_ground and q["center"] > 0.0 and "fuel_ctr_tk_auto_ctl_fail" not in ff))
        cmd_d = self.pump_cmd
        press_d = self.pump_press
        changed = False
        for pump, b, direct, is_ctr, fail, tank in _PUMP_TABLE:
            cmd = c[pump] == "ON" and (bus[b] or (direct and gen1_direct)) and (ctr_run or not is_ctr)
            press = cmd and fail not in ff and q[tank] > 0.0
            if cmd != cmd_d[pump] or press != press_d[pump]:
                changed = True
                cmd_d[pump] = cmd
                press_d[pump] = press
        if changed:
            self.faulty_pumps = tuple(p for p in TANK_PUMPS if cmd_d[p] and not press_d[p])
        return changed

    def _crossfeed(self, t: Tick, ff: Set[str]) -> bool:
        """The crossfeed valve: motor driven, ~2 s travel. True while it moves."""
        want = 1.0 if t.controls["X FEED"] == "ON" and "fuel_xfeed_valve_stuck_closed" not in ff else 0.0
        if self.xfeed_open_frac == want:
            return False
        step = t.dt / XFEED_TRAVEL_S
        pos = min(want, self.xfeed_open_frac + step) if want > self.xfeed_open_frac else max(want, self.xfeed_open_frac - step)
        # Snap the last rounding error: ten 0.1 steps sum to 0.999..., which would leave the
        # valve "in transit" one tick past its 2 s travel (and past a 2 s crew action).
        self.xfeed_open_frac = want if abs(want - pos) < 1e-6 else pos
        return True

    def _engines(self, t: Tick, ff: Set[str], engines: FuelDemand, fire: FirePushbuttons, groups, pressed,
                 labels, alt_ft: float) -> bool:
        """Each engine's LP valve, feed source and metered flow; burns the fuel. True if a feed changed."""
        q = self.qty_kg
        changed = False
        for i in (0, 1):
            lp = t.controls[_MASTER[i]] == "ON" and not fire.eng_fire_pb_released(i + 1)
            own = q[_INNER[i][0]] > 0.0
            demand = engines.ff_kgh(i + 1) + (ENGINE_LEAK_KGH if _ENG_LEAK[i] in ff else 0.0)
            gravity = own and not pressed[i] and self._gravity_holds(i, demand, alt_ft)
            fed = lp and (pressed[i] or gravity)
            src = (labels[i] if pressed[i] else "GRAVITY") if fed else ""
            if (lp != self.lp_open[i] or fed != self._fed[i] or src != self.feed_src[i]
                    or pressed[i] != self.line_press[i]):
                changed = True
                self.lp_open[i] = lp
                self._fed[i] = fed
                self.feed_src[i] = src
                self.line_press[i] = pressed[i]
            flow = demand if fed else 0.0
            self.ff_kgh[i] = flow
            if flow > 0.0:
                kg = flow * t.dt / 3600.0
                self.used_kg[i] += kg - _draw(q, kg, groups[i])
        return changed

    def set_history(self, time_above_fl300_s: float, highest_alt_ft: float) -> None:
        """(start states) The flight so far, as far as the fuel's dissolved air is concerned."""
        self.time_above_fl300_s = time_above_fl300_s
        self.highest_alt_ft = highest_alt_ft

    def _deaeration(self, dt: float, alt_ft: float) -> None:
        """Flight history for the gravity feed ceiling: time above FL300, highest altitude."""
        if alt_ft > DEAERATION_ALT_FT:
            self.time_above_fl300_s += dt
        self.highest_alt_ft = max(self.highest_alt_ft, alt_ft)

    @property
    def gravity_ceiling_ft(self) -> float:
        """The gravity feed ceiling (FCOM GRAVITY FUEL FEEDING): FL150 with fuel that has not been above
        FL300; FL300 once it has; the current level once it has spent 30 min above FL300 (deaerated)."""
        if self.time_above_fl300_s >= DEAERATED_AFTER_S:
            return max(DEAERATION_ALT_FT, self.highest_alt_ft)
        if self.time_above_fl300_s > 0.0:
            return DEAERATION_ALT_FT
        return GRAVITY_CEILING_FT

    def gravity_capacity_kgh(self, alt_ft: float) -> float:
        """What suction from a tank can deliver: enough for any thrust at or below the ceiling, falling
        to nothing 5,000 ft above it (the engine pump cavitates on the air coming out of the fuel)."""
        above = alt_ft - self.gravity_ceiling_ft
        if above <= 0.0:
            return GRAVITY_FULL_KGH
        return GRAVITY_FULL_KGH * max(0.0, 1.0 - above / GRAVITY_FADE_FT)

    def _gravity_holds(self, i: int, demand_kgh: float, alt_ft: float) -> bool:
        """A line fed by gravity alone starves when the engine asks more than suction gives; it
        primes again only at or below the gravity feed ceiling (FCOM GRAVITY FUEL FEEDING: a relight
        on gravity needs the aircraft below the ceiling), not merely where suction is back to idle flow."""
        capacity = self.gravity_capacity_kgh(alt_ft)
        if self.starved[i]:
            self.starved[i] = alt_ft > self.gravity_ceiling_ft
        elif demand_kgh > capacity:
            self.starved[i] = True
        return not self.starved[i]

    def _leaks_and_transfers(self, dt: float, ff: Set[str]) -> bool:
        """Tank leaks; outer cell transfer (valves latch open at inner low level). True if a valve latched."""
        q = self.qty_kg
        changed = False
        for i in (0, 1):
            inner, outer = _INNER[i][0], _OUTER[i]
            if _TANK_LEAK[i] in ff:
                q[inner] = max(0.0, q[inner] - TANK_LEAK_KGH * dt / 3600.0)
            if q[inner] < OUTER_XFR_TRIGGER_KG and not self.outer_xfr_open[i]:
                self.outer_xfr_open[i] = True
                changed = True
            if self.outer_xfr_open[i] and q[outer] > 0.0:
                move = min(q[outer], OUTER_XFR_KGS * dt, CAPACITY_KG[inner] - q[inner])
                q[outer] -= move
                q[inner] += move
        return changed

    # ---- read-outs ----------------------------------------------------------------
    def vars(self) -> dict[str, object]:
        q = self.qty_kg
        v: dict[str, object] = {f"fuel.{t}_kg": round(q[t], 1) for t in TANKS}
        v["fuel.fob_kg"] = round(self.fob_kg, 1)
        v["fuel.wing_imbalance_kg"] = round(abs(self.wing_kg(0) - self.wing_kg(1)), 1)
        v["fuel.fob_at_engine_start_kg"] = round(self.fob_at_start_kg, 1)
        for i in (0, 1):
            n = i + 1
            v[f"fuel.eng_{n}_used_kg"] = round(self.used_kg[i], 1)
            v[f"fuel.eng_{n}_ff_kgh"] = round(self.ff_kgh[i])
            v[f"fuel.eng_{n}_fed"] = self._fed[i]
            v[f"fuel.eng_{n}_gravity_feed"] = self.gravity_feed(n)
            v[f"fuel.eng_{n}_feed_source"] = self.feed_src[i]
            v[f"fuel.lp_valve_{n}_open"] = self.lp_open[i]
            v[f"fuel.{SIDES[i]}_line_pressurised"] = self.line_press[i]
            v[f"fuel.{SIDES[i]}_outer_xfr_open"] = self.outer_xfr_open[i]
        for p in TANK_PUMPS:
            v["fuel." + p.lower().replace(" ", "_") + "_press_ok"] = self.pump_press[p]
        v["fuel.xfeed_valve_open"] = self.xfeed_open
        v["fuel.gravity_feed_ceiling_ft"] = round(self.gravity_ceiling_ft)
        return v

    def pump_fault(self, pump: str) -> bool:
        """FAULT light: the pump should deliver (selected ON, powered, not stopped by AUTO) but does not."""
        return pump in self.faulty_pumps

    def auto_feed_fault(self, ac: Aircraft) -> bool:
        """MODE SEL FAULT: a wing tank below 5000 kg while the centre tank holds more than 250 kg."""
        running = any(e.running for e in ac.eng.engines)
        return running and self.qty_kg["center"] > AUTO_FEED_CTR_KG and min(self.wing_kg(0), self.wing_kg(1)) < AUTO_FEED_WING_KG

    def wing_lo_lvl(self, side: int) -> bool:
        return self.wing_kg(side) < WING_LO_LVL_KG

    def page(self, ac: Aircraft) -> dict[str, object]:
        c = ac.controls
        q = self.qty_kg
        pumps = {}
        for p in TANK_PUMPS:
            state = "LO PR" if self.pump_fault(p) else ("ON" if self.pump_press[p] else "OFF")
            pumps[p] = {"pb": c[p], "state": state, "fault_light": self.pump_fault(p)}
        valve = "OPEN" if self.xfeed_open else ("CLOSED" if self.xfeed_open_frac == 0.0 else "IN TRANSIT")
        return {
            "tanks_kg": {"L OUTER": round(q["left_outer"]), "L INNER": round(q["left_inner"]), "CTR": round(q["center"]),
                         "R INNER": round(q["right_inner"]), "R OUTER": round(q["right_outer"])},
            "fob_kg": round(self.fob_kg),
            "fob_at_engine_start_kg": round(self.fob_at_start_kg),
            "fuel_used_kg": {"ENG 1": round(self.used_kg[0]), "ENG 2": round(self.used_kg[1]),
                             "TOTAL": round(self.used_kg[0] + self.used_kg[1])},
            "fuel_flow_kgh": {"ENG 1": round(self.ff_kgh[0]), "ENG 2": round(self.ff_kgh[1])},
            "pumps": pumps,
            "FUEL MODE SEL": {"selector": c["FUEL MODE SEL"], "fault_light": self.auto_feed_fault(ac)},
            "X FEED": {"pb": c["X FEED"], "valve": valve},
            "outer_transfer_valves": {"LEFT": "OPEN" if self.outer_xfr_open[0] else "CLOSED",
                                      "RIGHT": "OPEN" if self.outer_xfr_open[1] else "CLOSED"},
            "engine_feed": {f"ENG {i + 1}": {"lp_valve": "OPEN" if self.lp_open[i] else "CLOSED",
                                             "source": self.feed_src[i] or "NONE"} for i in (0, 1)},
            "gravity_feed_ceiling": fl_text(self.gravity_ceiling_ft),
        }

    def inop(self, ac: Aircraft) -> list[str]:
        return list(self.faulty_pumps)

    def memos(self, ac: Aircraft) -> list[str]:
        return ["FUEL X FEED"] if self.xfeed_open_frac > 0.0 or ac.controls["X FEED"] == "ON" else []
