"""Pneumatic, air conditioning and anti-ice (ATA 36 / 21 / 30).

Two bleed ducts, left (side 1) and right (side 2), joined by the crossbleed
valve. Each engine feeds its own side through its bleed valve (IP/HP
ports, regulated to ~45 psi, precooler ~190 °C); the APU bleed duct joins
the left side. Packs, wing anti-ice valves and the engine start valves draw
from their side. Bleed monitoring computers (BMC) close an engine bleed
valve on overpressure or overheat, and leak loops along the pylons, wings
and the APU duct close the valves that feed a leak (domain reference §1.4).

Valves are solved from the panel and the latches every tick. Nominal
pressures and temperatures settle within a tick; a failed regulator,
precooler or pack and the leak loops drift toward their targets, so an
overheat or a leak takes seconds to be detected, as on the aircraft. When
nothing the model reads has changed and nothing drifts, the update is
skipped: the state is a fixed point (this keeps start states fast).

Simplifications: one pressure per duct side (no flow network), no ground HP
air cart, no zone temperature model or selectors (zones show 22 °C), no
bleed valve stuck-open failures, no HOT AIR / trim air faults.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import itemgetter
from typing import TYPE_CHECKING

from .catalog import Control, Failure

if TYPE_CHECKING:
    from .aircraft import Aircraft

ON_OFF = ("ON", "OFF")
CONTROLS = (
    Control("ENG 1 BLEED", "AIR COND", ON_OFF, "ON", description="Engine 1 bleed valve"),
    Control("ENG 2 BLEED", "AIR COND", ON_OFF, "ON", description="Engine 2 bleed valve"),
    Control("APU BLEED", "AIR COND", ON_OFF, "OFF", description="APU bleed valve (opens when the APU is available)"),
    Control("X BLEED", "AIR COND", ("SHUT", "AUTO", "OPEN"), "AUTO",
            description="Crossbleed valve selector; AUTO opens it with APU bleed and shuts it on a leak"),
    Control("PACK 1", "AIR COND", ON_OFF, "ON", description="Pack 1 flow control valve"),
    Control("PACK 2", "AIR COND", ON_OFF, "ON", description="Pack 2 flow control valve"),
    Control("PACK FLOW", "AIR COND", ("LO", "NORM", "HI"), "NORM", description="Pack flow: about 80, 100 or 120 %"),
    Control("RAM AIR", "AIR COND", ("OFF", "ON"), "OFF", guarded=True,
            description="Emergency ram air inlet; air flows in only when cabin differential pressure is below 1 psi"),
    Control("HOT AIR", "AIR COND", ON_OFF, "ON", description="Trim air pressure regulating valve"),
    Control("WING ANTI ICE", "ANTI ICE", ON_OFF, "OFF",
            description="Wing anti-ice valves (engine bleed air only; a 30 s test on the ground)"),
    Control("ENG 1 ANTI ICE", "ANTI ICE", ON_OFF, "OFF", description="Engine 1 nacelle anti-ice valve"),
    Control("ENG 2 ANTI ICE", "ANTI ICE", ON_OFF, "OFF", description="Engine 2 nacelle anti-ice valve"),
)

FAILURES = tuple(
    f
    for n in (1, 2)
    for f in (
        Failure(f"air_eng{n}_bleed_overpressure", 36, "AIR",
                f"Engine {n} bleed pressure regulation fails high; the BMC closes the bleed valve on overpressure"),
        Failure(f"air_eng{n}_bleed_overheat", 36, "AIR",
                f"Engine {n} precooler loses cooling; the BMC closes the bleed valve on overheat"),
        Failure(f"air_eng{n}_pylon_leak", 36, "AIR", f"Hot air leak in the engine {n} pylon duct"),
    )
) + (
    Failure("air_l_wing_leak", 36, "AIR", "Hot air leak in the left wing / pack bay duct"),
    Failure("air_r_wing_leak", 36, "AIR", "Hot air leak in the right wing / pack bay duct"),
    Failure("air_apu_bleed_leak", 36, "AIR", "Hot air leak in the APU bleed duct"),
) + tuple(
    f
    for n in (1, 2)
    for f in (
        Failure(f"air_pack{n}_overheat", 21, "AIR",
                f"Pack {n} compressor outlet overheats; after cooling down with PACK {n} OFF the pack works again",
                resettable=True),
        Failure(f"air_pack{n}_overheat_persistent", 21, "AIR", f"Pack {n} compressor outlet overheats whenever it runs"),
        Failure(f"air_pack{n}_fault", 21, "AIR", f"Pack {n} flow control valve fails closed"),
    )
) + (
    Failure("anti_ice_eng1_valve_stuck_closed", 30, "ANTI ICE", "Engine 1 nacelle anti-ice valve stuck closed"),
    Failure("anti_ice_eng2_valve_stuck_closed", 30, "ANTI ICE", "Engine 2 nacelle anti-ice valve stuck closed"),
    Failure("anti_ice_l_wing_valve_stuck_closed", 30, "ANTI ICE", "Left wing anti-ice valve stuck closed"),
)

REG_PSI = 45.0  # regulated duct pressure (uncertain: 40-45 psi)
APU_PSI = 38.0
FAILED_REG_PSI = 75.0  # regulation lost: the duct sees near-HP pressure
BMC_OVERPRESS_PSI = 60.0
PRECOOLER_C = 190.0
FAILED_PRECOOLER_C = 290.0
BMC_OVHT_C = 257.0
SUPPLY_TAU_S = 1.0
TEMP_TAU_S = 8.0
START_AIR_PSI = 20.0  # start valve needs this much in the duct
PACK_MIN_PSI = 12.0  # the pneumatic flow control valve stays shut below this
WAI_MIN_PSI = 15.0
WAI_GROUND_TEST_S = 30.0
PACK_COMP_C = 170.0
FAILED_PACK_COMP_C = 300.0
PACK_OVHT_C = 260.0
PACK_OVHT_OUT_C = 200.0
PACK_HEAT_TAU_S = 15.0
PACK_COOL_TAU_S = 40.0
LOOP_AMBIENT_C = 30.0
LOOP_LEAK_C = 250.0
LOOP_TAU_S = 6.0
CABIN_TEMP_C = 22.0
FLOW_PCT = {"LO": 80.0, "NORM": 100.0, "HI": 120.0}

# Leak detection zones: (name on the page, failure, duct side or None for the APU duct, loop threshold).
# Thresholds are A330-derived figures (domain reference §1.4, uncertain for the A320).
ZONES = (
    ("ENG 1 PYLON", "air_eng1_pylon_leak", 0, 204.0),
    ("ENG 2 PYLON", "air_eng2_pylon_leak", 1, 204.0),
    ("L WING", "air_l_wing_leak", 0, 124.0),
    ("R WING", "air_r_wing_leak", 1, 124.0),
    ("APU", "air_apu_bleed_leak", None, 124.0),
)
PYLON = (0, 1)
WING = (2, 3)
APU_ZONE = 4

ENG_BLEED = ("ENG 1 BLEED", "ENG 2 BLEED")
PACK = ("PACK 1", "PACK 2")
ENG_AI = ("ENG 1 ANTI ICE", "ENG 2 ANTI ICE")
OVERPRESS = ("air_eng1_bleed_overpressure", "air_eng2_bleed_overpressure")
OVERHEAT = ("air_eng1_bleed_overheat", "air_eng2_bleed_overheat")
PACK_OVHT_FAIL = ("air_pack1_overheat", "air_pack2_overheat")
PACK_OVHT_PERSIST = ("air_pack1_overheat_persistent", "air_pack2_overheat_persistent")
PACK_FAIL = ("air_pack1_fault", "air_pack2_fault")
EAI_FAIL = ("anti_ice_eng1_valve_stuck_closed", "anti_ice_eng2_valve_stuck_closed")
WAI_FAIL_L = "anti_ice_l_wing_valve_stuck_closed"
OWN_FAILURES = frozenset(x.id for x in FAILURES)
LEAK_FAILURES = frozenset(z[1] for z in ZONES)
CLOSED_DUCT_C = 60.0
_panel = itemgetter(*(ctl.name for ctl in CONTROLS), "DITCHING")


def _pair(v: object) -> list:
    return field(default_factory=lambda: [v, v])


@dataclass(slots=True)
class Bleed:
    # Engine bleed
    eng_valve_open: list[bool] = _pair(False)
    hp_valve_open: list[bool] = _pair(False)
    supply_psi: list[float] = _pair(0.0)  # downstream of each engine bleed valve, what the BMC monitors
    precooler_c: list[float] = _pair(40.0)
    bmc_fault: list[bool] = _pair(False)  # overpressure/overheat: valve held closed until ENG BLEED OFF
    fault_seen: list[bool] = _pair(False)  # a BMC fault happened and the bleed has not come back since
    # APU bleed, crossbleed, ducts
    apu_valve_open: bool = False
    apu_supply_psi: float = 0.0
    apu_leak_isolated: bool = False
    xbleed_open: bool = False
    duct_psi: list[float] = _pair(0.0)
    engine_air: list[bool] = _pair(False)  # side supplied by an engine bleed (wing anti-ice needs it)
    # Leak detection
    loop_c: list[float] = field(default_factory=lambda: [LOOP_AMBIENT_C] * len(ZONES))
    leak: list[bool] = field(default_factory=lambda: [False] * len(ZONES))
    # Packs
    pack_open: list[bool] = _pair(False)
    pack_flow_pct: list[float] = _pair(0.0)
    pack_comp_c: list[float] = _pair(40.0)
    pack_outlet_c: list[float] = _pair(25.0)
    pack_ovht: list[bool] = _pair(False)
    pack_ovht_latch: list[bool] = _pair(False)  # valve held shut after an overheat until PB OFF with the overheat out
    pack_ovht_seen: list[bool] = _pair(False)  # overheat happened; cleared when the pack flows again
    pack_fault_light: list[bool] = _pair(False)
    # Ram air, trim air, anti-ice
    ram_air_open: bool = False
    hot_air_open: bool = False
    wai_open: list[bool] = _pair(False)
    wai_test_s: float = 0.0
    eai_open: list[bool] = _pair(False)
    wai_fault_seen: bool = False  # wing anti-ice failed to open: STATUS INOP until both valves open again
    eai_fault_seen: list[bool] = _pair(False)  # engine anti-ice valve failed to open: likewise
    loops_warm: bool = False
    transient: bool = True
    _inputs_seen: tuple = ()

    # ---- queries other systems use -------------------------------------------------
    def start_air_ok(self, n: int) -> bool:
        """Enough pressure on engine n's side of the duct to open its start valve."""
        return self.duct_psi[n - 1] >= START_AIR_PSI

    @property
    def apu_valve_leak_closure(self) -> bool:
        """Leak protection holds the APU bleed valve shut: a leak in the APU duct, or on the left
        side (ENG 1 pylon, L wing) that the APU duct feeds. `apu_leak_isolated` is the APU duct only."""
        return self.leak[APU_ZONE] or self.leak[PYLON[0]] or self.leak[WING[0]]

    @property
    def pack_inflow(self) -> float:
        """Air delivered to the cabin, in packs at NORM flow (2.0 = both packs NORM)."""
        return (self.pack_flow_pct[0] + self.pack_flow_pct[1]) / 100.0

    def eng_fault_light(self, n: int, ac: Aircraft) -> bool:
        """ENG n BLEED FAULT: BMC overpressure/overheat or a leak on that side, PB not OFF."""
        i = n - 1
        side_leak = self.leak[PYLON[i]] or self.leak[WING[i]]
        return (self.bmc_fault[i] or side_leak) and ac.controls[ENG_BLEED[i]] == "ON"

    def _inputs(self, ac: Aircraft) -> tuple:
        """Everything the update reads; when it is unchanged and nothing moves, the state is a fixed point."""
        engs = ac.eng.engines
        fire = ac.fire
        return (
            _panel(ac.controls), ac.failures & OWN_FAILURES, ac.flight.on_ground,
            ac.apu.bleed_valve_open, ac.apu.avail, self._port(0, engs[0].n2_pct), self._port(1, engs[1].n2_pct),
            engs[0].start_valve_open, engs[1].start_valve_open, engs[0].starting, engs[1].starting,
            engs[0].running, engs[1].running, fire.eng_fire_pb_released(1), fire.eng_fire_pb_released(2),
        )

    def _port(self, i: int, n2_pct: float) -> object:
        """What engine N2 means to the bleed: with the valve closed only whether it could open;
        with it open the port pressure below regulation and the HP valve."""
        port_psi = (n2_pct - 20.0) * 1.2
        if not self.eng_valve_open[i]:
            return port_psi > 8.0
        return min(REG_PSI, round(port_psi, 1)), n2_pct < 75.0

    def update(self, dt: float, ac: Aircraft) -> None:
        inputs = self._inputs(ac)
        if not self.transient and inputs == self._inputs_seen:
            return
        self._inputs_seen = inputs
        c = ac.controls
        f = ac.failures
        fl = ac.flight
        engs = ac.eng.engines
        fire = ac.fire
        airborne = not fl.on_ground
        changed = False
        moving = False

        # Leak loops (temperatures from the last tick): detection latches and isolates the
        # leak; it releases only once the leak is gone and the loop has cooled.
        leak = self.leak
        loop_c = self.loop_c
        for z, (_, fid, _, limit) in enumerate(ZONES):
            if loop_c[z] > limit:
                if not leak[z]:
                    leak[z] = changed = True
            elif leak[z] and fid not in f and loop_c[z] < limit - 20.0:
                leak[z] = False
                changed = True
        side_leak = (leak[0] or leak[2], leak[1] or leak[3])
        self.apu_leak_isolated = leak[APU_ZONE]

        # APU bleed: the APU opens its valve (N > 95 %, APU BLEED ON); a leak on the left side,
        # which the APU duct feeds, also keeps APU air out (FCOM: APU valve closes on L wing/pylon leak).
        apu_air = ac.apu.bleed_valve_open and not side_leak[0]
        # Crossbleed: AUTO opens with APU bleed and shuts on any wing, pylon or APU leak.
        sel = c["X BLEED"]
        if sel == "OPEN":
            x_open = True
        elif sel == "SHUT":
            x_open = False
        else:
            x_open = apu_air and not (side_leak[0] or side_leak[1] or leak[APU_ZONE])
        if apu_air != self.apu_valve_open or x_open != self.xbleed_open:
            changed = True
        self.apu_valve_open = apu_air
        self.xbleed_open = x_open

        # Engine bleed valves.
        k_supply = min(1.0, dt / SUPPLY_TAU_S)
        k_temp = min(1.0, dt / TEMP_TAU_S)
        for i in (0, 1):
            e = engs[i]
            pb_on = c[ENG_BLEED[i]] == "ON"
            if not pb_on:
                self.bmc_fault[i] = False  # selecting OFF resets the BMC latch
            elif self.supply_psi[i] > BMC_OVERPRESS_PSI or self.precooler_c[i] > BMC_OVHT_C:
                self.bmc_fault[i] = True
                self.fault_seen[i] = True
            port_psi = (e.n2_pct - 20.0) * 1.2  # IP/HP port pressure available
            is_open = (
                pb_on
                and port_psi > 8.0
                and not self.bmc_fault[i]
                and not side_leak[i]
                and not fire.eng_fire_pb_released(i + 1)
                and not e.start_valve_open
                and not (apu_air and (i == 0 or x_open))  # APU bleed in use closes the engine bleeds
            )
            if is_open != self.eng_valve_open[i]:
                changed = True
            self.eng_valve_open[i] = is_open
            self.hp_valve_open[i] = is_open and e.n2_pct < 75.0  # HP port used at low power
            if is_open:
                target = FAILED_REG_PSI if OVERPRESS[i] in f else min(port_psi, REG_PSI)
                t_target = FAILED_PRECOOLER_C if OVERHEAT[i] in f else PRECOOLER_C
                if not self.bmc_fault[i]:
                    self.fault_seen[i] = False
            else:
                target, t_target = 0.0, CLOSED_DUCT_C
            # Nominal air settles within a tick; a failed regulator or precooler drifts there,
            # so the BMC trips a few seconds after the failure, as on the aircraft.
            if OVERPRESS[i] in f or OVERHEAT[i] in f or self.precooler_c[i] > PRECOOLER_C + 1.0:
                p = self.supply_psi[i] = self.supply_psi[i] + (target - self.supply_psi[i]) * k_supply
                t = self.precooler_c[i] = self.precooler_c[i] + (t_target - self.precooler_c[i]) * k_temp
                if abs(p - target) > 0.05 or abs(t - t_target) > 0.5:
                    moving = True
            else:
                self.supply_psi[i], self.precooler_c[i] = target, t_target
        self.apu_supply_psi = APU_PSI if apu_air else 0.0

        # Duct pressure per side; an open crossbleed joins the two sides.
        s0 = self.supply_psi[0] if self.eng_valve_open[0] else 0.0
        s1 = self.supply_psi[1] if self.eng_valve_open[1] else 0.0
        e0, e1 = s0 > 0.0, s1 > 0.0
        s0 = max(s0, self.apu_supply_psi)
        if x_open:
            s0 = s1 = max(s0, s1)
            e0 = e1 = e0 or e1
        leaks_failed = not f.isdisjoint(LEAK_FAILURES)
        if leaks_failed:  # an unisolated leak bleeds a few psi off its side
            if s0 > 5.0 and ("air_eng1_pylon_leak" in f or "air_l_wing_leak" in f):
                s0 -= 3.0
            if s1 > 5.0 and ("air_eng2_pylon_leak" in f or "air_r_wing_leak" in f):
                s1 -= 3.0
        self.duct_psi[0], self.duct_psi[1] = s0, s1
        self.engine_air[0], self.engine_air[1] = e0, e1

        # Leak loops heat up while hot air escapes next to them.
        if leaks_failed or self.loops_warm:
            k_loop = min(1.0, dt / LOOP_TAU_S)
            warm = False
            for z, (_, fid, side, _) in enumerate(ZONES):
                pressurised = ac.apu.bleed_valve_open if side is None else self.duct_psi[side] > 5.0
                target = LOOP_LEAK_C if (fid in f and pressurised) else LOOP_AMBIENT_C
                t = loop_c[z] = loop_c[z] + (target - loop_c[z]) * k_loop
                if abs(t - target) > 0.5:
                    moving = True
                if t > LOOP_AMBIENT_C + 0.5:
                    warm = True
            self.loops_warm = warm

        # Packs: the flow control valve closes on PB OFF, low upstream pressure, engine start,
        # ENG FIRE PB, DITCHING, and on a compressor outlet overheat.
        ditching = c["DITCHING"] == "ON"
        starting_on_ground = fl.on_ground and (engs[0].starting or engs[1].starting)
        for i in (0, 1):
            pb_on = c[PACK[i]] == "ON"
            t = self.pack_comp_c[i]
            if t > PACK_OVHT_C:
                if not self.pack_ovht[i]:
                    changed = True
                self.pack_ovht[i] = self.pack_ovht_latch[i] = self.pack_ovht_seen[i] = True
            elif t < PACK_OVHT_OUT_C and self.pack_ovht[i]:
                self.pack_ovht[i] = False
                changed = True
            if not pb_on and not self.pack_ovht[i]:
                # Overheat out with the PB OFF: the controller lets the valve open again at PB ON,
                # and a transient overheat is over.
                self.pack_ovht_latch[i] = False
                if PACK_OVHT_FAIL[i] in f:
                    ac.clear_failure(PACK_OVHT_FAIL[i])
            auto_closed = (
                starting_on_ground
                or (airborne and engs[i].start_valve_open)
                or fire.eng_fire_pb_released(i + 1)
                or ditching
                or self.duct_psi[i] < PACK_MIN_PSI
                or self.pack_ovht_latch[i]
            )
            jammed = PACK_FAIL[i] in f
            is_open = pb_on and not auto_closed and not jammed
            if is_open != self.pack_open[i]:
                changed = True
            self.pack_open[i] = is_open
            # FAULT: valve disagrees with its command, or overheat (stays lit until reset).
            self.pack_fault_light[i] = (pb_on and not auto_closed and jammed) or self.pack_ovht[i] or (
                pb_on and self.pack_ovht_latch[i])
            if is_open:
                self.pack_ovht_seen[i] = False
        sel_pct = FLOW_PCT[c["PACK FLOW"]]
        if self.pack_open[0] != self.pack_open[1] or apu_air:
            sel_pct = FLOW_PCT["HI"]  # single pack or APU bleed: HI flow
        hot_pack = (PACK_OVHT_FAIL[0] in f or PACK_OVHT_PERSIST[0] in f,
                    PACK_OVHT_FAIL[1] in f or PACK_OVHT_PERSIST[1] in f)
        for i in (0, 1):
            if self.pack_open[i]:
                flow = sel_pct * min(1.0, self.duct_psi[i] / 25.0)
                comp_target = FAILED_PACK_COMP_C if hot_pack[i] else PACK_COMP_C + (sel_pct - 100.0) * 0.5
                out_target = 10.0 + max(0.0, self.pack_comp_c[i] - PACK_OVHT_OUT_C) * 0.3
                k = min(1.0, dt / PACK_HEAT_TAU_S)
            else:
                flow, comp_target, out_target = 0.0, 40.0, 25.0
                k = min(1.0, dt / PACK_COOL_TAU_S)
            self.pack_flow_pct[i] = flow
            if hot_pack[i] or self.pack_comp_c[i] > PACK_OVHT_OUT_C - 10.0:  # overheating or cooling down
                t = self.pack_comp_c[i] = self.pack_comp_c[i] + (comp_target - self.pack_comp_c[i]) * k
                o = self.pack_outlet_c[i] = self.pack_outlet_c[i] + (out_target - self.pack_outlet_c[i]) * k
                if abs(t - comp_target) > 0.5 or abs(o - out_target) > 0.5:
                    moving = True
            else:
                self.pack_comp_c[i], self.pack_outlet_c[i] = comp_target, out_target

        # Ram air inlet (whether air comes in depends on cabin differential pressure: see press).
        self.ram_air_open = c["RAM AIR"] == "ON" and not ditching
        self.hot_air_open = c["HOT AIR"] == "ON" and (self.pack_open[0] or self.pack_open[1])

        # Wing anti-ice: engine bleed air only; on the ground a 30 s test.
        wai_pb = c["WING ANTI ICE"] == "ON"
        if wai_pb and fl.on_ground:
            self.wai_test_s = min(WAI_GROUND_TEST_S, self.wai_test_s + dt)
            if self.wai_test_s < WAI_GROUND_TEST_S:
                moving = True
        elif not wai_pb:
            self.wai_test_s = 0.0
        wai_cmd = wai_pb and (airborne or self.wai_test_s < WAI_GROUND_TEST_S)
        for i in (0, 1):
            self.wai_open[i] = (
                wai_cmd
                and self.engine_air[i]
                and self.duct_psi[i] >= WAI_MIN_PSI
                and not leak[WING[i]]
                and not (i == 0 and WAI_FAIL_L in f)
            )
            # Engine anti-ice: the engine's own HP air, independent of the bleed valve.
            self.eai_open[i] = c[ENG_AI[i]] == "ON" and engs[i].running and EAI_FAIL[i] not in f
            if self.eai_open[i]:
                self.eai_fault_seen[i] = False
            elif self.eai_fault_light(i + 1, ac):
                self.eai_fault_seen[i] = True
        if self.wai_open[0] and self.wai_open[1]:
            self.wai_fault_seen = False
        elif self.wai_fault_light(ac):
            self.wai_fault_seen = True
        self.transient = moving or changed

    # ---- read-outs ----------------------------------------------------------------
    def vars(self) -> dict[str, object]:
        v: dict[str, object] = {}
        for i in (0, 1):
            n = i + 1
            v[f"bleed.eng_{n}_valve_open"] = self.eng_valve_open[i]
            v[f"bleed.eng_{n}_hp_valve_open"] = self.hp_valve_open[i]
            v[f"bleed.eng_{n}_supply_press_psi"] = round(self.supply_psi[i], 1)
            v[f"bleed.eng_{n}_precooler_temp_c"] = round(self.precooler_c[i])
            v[f"bleed.eng_{n}_bmc_fault"] = self.bmc_fault[i]
            v[f"bleed.duct_{n}_press_psi"] = round(self.duct_psi[i], 1)
        v["bleed.apu_valve_open"] = self.apu_valve_open
        v["bleed.apu_leak_isolated"] = self.apu_leak_isolated
        v["bleed.xbleed_valve_open"] = self.xbleed_open
        for z, (name, _, _, _) in enumerate(ZONES):
            v[f"bleed.leak_{name.lower().replace(' ', '_')}_detected"] = self.leak[z]
            v[f"bleed.leak_{name.lower().replace(' ', '_')}_loop_temp_c"] = round(self.loop_c[z])
        for i in (0, 1):
            n = i + 1
            v[f"bleed.pack_{n}_valve_open"] = self.pack_open[i]
            v[f"bleed.pack_{n}_flow_pct"] = round(self.pack_flow_pct[i])
            v[f"bleed.pack_{n}_comp_outlet_temp_c"] = round(self.pack_comp_c[i])
            v[f"bleed.pack_{n}_outlet_temp_c"] = round(self.pack_outlet_c[i])
            v[f"bleed.pack_{n}_overheat"] = self.pack_ovht[i]
            v[f"bleed.pack_{n}_fault_light"] = self.pack_fault_light[i]
        v["bleed.ram_air_inlet_open"] = self.ram_air_open
        v["bleed.hot_air_valve_open"] = self.hot_air_open
        v["bleed.wing_anti_ice_l_valve_open"] = self.wai_open[0]
        v["bleed.wing_anti_ice_r_valve_open"] = self.wai_open[1]
        v["bleed.eng_1_anti_ice_valve_open"] = self.eai_open[0]
        v["bleed.eng_2_anti_ice_valve_open"] = self.eai_open[1]
        return v

    def page(self, ac: Aircraft) -> dict[str, object]:
        """The BLEED page (with the AIR COND / ANTI ICE panel lights)."""
        c = ac.controls
        opened = lambda b: "OPEN" if b else "CLOSED"  # noqa: E731
        out: dict[str, object] = {}
        for i in (0, 1):
            n = i + 1
            out[f"ENG {n}"] = {
                "pb": c[ENG_BLEED[i]],
                "fault_light": self.eng_fault_light(n, ac),
                "hp_valve": opened(self.hp_valve_open[i]),
                "bleed_valve": opened(self.eng_valve_open[i]),
                "press_psi": round(self.supply_psi[i]),
                "precooler_outlet_temp_c": round(self.precooler_c[i]),
            }
        out["APU"] = {"pb": c["APU BLEED"], "fault_light": self.apu_leak_isolated and c["APU BLEED"] == "ON",
                      "bleed_valve": opened(self.apu_valve_open)}
        out["X BLEED"] = {"selector": c["X BLEED"], "valve": opened(self.xbleed_open)}
        out["duct_press_psi"] = {"left": round(self.duct_psi[0]), "right": round(self.duct_psi[1])}
        out["leak_detection"] = {name: ("LEAK" if self.leak[z] else "NORMAL") for z, (name, _, _, _) in enumerate(ZONES)}
        for i in (0, 1):
            out[f"PACK {i + 1}"] = self._pack_panel(i, ac)
        out["PACK FLOW"] = c["PACK FLOW"]
        out["RAM AIR"] = {"pb": c["RAM AIR"], "inlet": opened(self.ram_air_open), "air_flowing": ac.press.ram_air_flowing}
        out["ANTI ICE"] = {
            "WING": {"pb": c["WING ANTI ICE"], "fault_light": self.wai_fault_light(ac),
                     "left_valve": opened(self.wai_open[0]), "right_valve": opened(self.wai_open[1])},
            "ENG 1": {"pb": c["ENG 1 ANTI ICE"], "fault_light": self.eai_fault_light(1, ac), "valve": opened(self.eai_open[0])},
            "ENG 2": {"pb": c["ENG 2 ANTI ICE"], "fault_light": self.eai_fault_light(2, ac), "valve": opened(self.eai_open[1])},
        }
        return out

    def _pack_panel(self, i: int, ac: Aircraft) -> dict[str, object]:
        return {
            "pb": ac.controls[PACK[i]],
            "fault_light": self.pack_fault_light[i],
            "flow_control_valve": "OPEN" if self.pack_open[i] else "CLOSED",
            "flow_pct": round(self.pack_flow_pct[i]),
            "comp_outlet_temp_c": round(self.pack_comp_c[i]),
            "outlet_temp_c": round(self.pack_outlet_c[i]),
        }

    def cond_page(self, ac: Aircraft) -> dict[str, object]:
        """The COND page: packs, trim air and cabin zone temperatures."""
        c = ac.controls
        zone = CABIN_TEMP_C  # no zone temperature model: the zones hold their selection
        return {
            "PACK 1": self._pack_panel(0, ac),
            "PACK 2": self._pack_panel(1, ac),
            "HOT AIR": {"pb": c["HOT AIR"], "valve": "OPEN" if self.hot_air_open else "CLOSED"},
            "zones_temp_c": {"CKPT": zone, "FWD CABIN": zone, "AFT CABIN": zone},
            "RAM AIR": {"pb": c["RAM AIR"], "air_flowing": ac.press.ram_air_flowing},
        }

    def wai_fault_light(self, ac: Aircraft) -> bool:
        return ac.controls["WING ANTI ICE"] == "ON" and not ac.flight.on_ground and not (self.wai_open[0] and self.wai_open[1])

    def eai_fault_light(self, n: int, ac: Aircraft) -> bool:
        i = n - 1
        return ac.controls[ENG_AI[i]] == "ON" and ac.eng.engines[i].running and not self.eai_open[i]

    def inop(self, ac: Aircraft) -> list[str]:
        out: list[str] = []
        airborne = not ac.flight.on_ground
        for i in (0, 1):
            lost = self.bmc_fault[i] or self.fault_seen[i] or self.leak[PYLON[i]] or self.leak[WING[i]]
            if lost or (airborne and ac.eng.engines[i].running and ac.controls[ENG_BLEED[i]] == "OFF"):
                out.append(f"ENG {i + 1} BLEED")
        if self.leak[APU_ZONE]:
            out.append("APU BLEED")
        if airborne:
            for i in (0, 1):
                if not self.pack_open[i]:
                    out.append(f"PACK {i + 1}")
        if self.leak[WING[0]] or self.leak[WING[1]] or self.wai_fault_seen:
            out.append("WING A.ICE")
        for i in (0, 1):
            if self.eai_fault_seen[i]:
                out.append(f"ENG {i + 1} A.ICE")
        return out

    def memos(self, ac: Aircraft) -> list[str]:
        c = ac.controls
        out = []
        if c["RAM AIR"] == "ON":
            out.append("RAM AIR ON")
        if c["WING ANTI ICE"] == "ON":
            out.append("WING A. ICE")
        if c["ENG 1 ANTI ICE"] == "ON" or c["ENG 2 ANTI ICE"] == "ON":
            out.append("ENG A. ICE")
        return out
