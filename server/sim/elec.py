"""Electrical system (ATA 24): sources, contactors, buses, TRs, batteries.

The network is solved combinationally every tick from the sources available
(engine generators through their IDGs, APU GEN, EXT PWR, EMER GEN on the
RAT, batteries/static inverter) and the ELEC panel, following the priorities
of the domain reference §1.1 (FlyByWire `alternating_current.rs` /
`direct_current.rs`). Only the batteries, timers and the irreversible IDG
disconnects carry state from one tick to the next.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from .catalog import Control, Failure
from .reads import FirePushbuttons, FlightConditions
from .tick import Tick

if TYPE_CHECKING:
    from .aircraft import Aircraft


# ---- what this system reads -----------------------------------------------------------
class EngineSpeeds(Protocol):
    def n2_pct(self, n: int) -> float: ...


class ApuForElec(Protocol):
    @property
    def avail(self) -> bool: ...
    @property
    def starter_engaged(self) -> bool: ...


class HydForElec(Protocol):
    @property
    def rat_deployed(self) -> bool: ...
    @property
    def emer_man_on(self) -> bool: ...
    def circuit_psi(self, circuit: str) -> float: ...


class FireForElec(FirePushbuttons, Protocol):
    @property
    def apu_fire_pb_released(self) -> bool: ...

ON_OFF = ("ON", "OFF")
AUTO_OFF = ("AUTO", "OFF")

CONTROLS = (
    Control("BAT 1", "ELEC", AUTO_OFF, "OFF", description="Battery 1 contactor logic"),
    Control("BAT 2", "ELEC", AUTO_OFF, "OFF", description="Battery 2 contactor logic"),
    Control("EXT PWR", "ELEC", ON_OFF, "OFF", description="Connect ground power when AVAIL"),
    Control("GEN 1", "ELEC", ON_OFF, "ON", description="Engine 1 generator"),
    Control("GEN 2", "ELEC", ON_OFF, "ON", description="Engine 2 generator"),
    Control("APU GEN", "ELEC", ON_OFF, "ON", description="APU generator"),
    Control("IDG 1", "ELEC", ("NORM", "DISC"), "NORM", guarded=True, momentary=True,
            description="Disconnect IDG 1 from engine 1 (irreversible in flight)"),
    Control("IDG 2", "ELEC", ("NORM", "DISC"), "NORM", guarded=True, momentary=True,
            description="Disconnect IDG 2 from engine 2 (irreversible in flight)"),
    Control("BUS TIE", "ELEC", AUTO_OFF, "AUTO", description="Bus tie contactors automatic logic"),
    Control("AC ESS FEED", "ELEC", ("NORM", "ALTN"), "NORM", description="AC ESS BUS feed from AC BUS 1 (NORM) or 2 (ALTN)"),
    Control("GALY & CAB", "ELEC", AUTO_OFF, "AUTO", description="Galley and cabin supply"),
    Control("COMMERCIAL", "ELEC", ON_OFF, "ON", description="Commercial (cabin) loads"),
    Control("EMER ELEC PWR MAN ON", "EMER ELEC PWR", ("AUTO", "PUSH"), "AUTO", guarded=True, momentary=True,
            description="Deploy the RAT and couple the emergency generator"),
    Control("GEN 1 LINE", "EMER ELEC PWR", ON_OFF, "ON", description="GEN 1 line contactor"),
)

FAILURES = (
    Failure("elec_gen1_gcu_trip", 24, "ELEC", "GCU 1 trips generator 1 off line; a reset does not help"),
    Failure("elec_gen2_gcu_trip", 24, "ELEC", "GCU 2 trips generator 2 off line; a reset does not help"),
    Failure("elec_gen1_gcu_trip_resettable", 24, "ELEC", "GCU 1 trips generator 1 off line; GEN 1 OFF then ON resets it", resettable=True),
    Failure("elec_gen2_gcu_trip_resettable", 24, "ELEC", "GCU 2 trips generator 2 off line; GEN 2 OFF then ON resets it", resettable=True),
    Failure("elec_apu_gen_gcu_trip", 24, "ELEC", "APU GCU trips the APU generator off line; a reset does not help"),
    Failure("elec_apu_gen_gcu_trip_resettable", 24, "ELEC", "APU GCU trips the APU generator; APU GEN OFF then ON resets it", resettable=True),
    Failure("elec_idg1_oil_pressure_loss", 24, "ELEC", "IDG 1 loses oil pressure"),
    Failure("elec_idg2_oil_pressure_loss", 24, "ELEC", "IDG 2 loses oil pressure"),
    Failure("elec_idg1_oil_overheat", 24, "ELEC", "IDG 1 oil outlet overheats"),
    Failure("elec_idg2_oil_overheat", 24, "ELEC", "IDG 2 oil outlet overheats"),
    Failure("elec_ac_bus_1_short", 24, "ELEC", "AC BUS 1 short: the bus cannot be supplied"),
    Failure("elec_ac_bus_2_short", 24, "ELEC", "AC BUS 2 short: the bus cannot be supplied"),
    Failure("elec_ac_ess_norm_contactor", 24, "ELEC", "AC ESS normal feed contactor fails open"),
    Failure("elec_tr1_fail", 24, "ELEC", "Transformer-rectifier 1 output lost"),
    Failure("elec_tr2_fail", 24, "ELEC", "Transformer-rectifier 2 output lost"),
    Failure("elec_ess_tr_fail", 24, "ELEC", "Essential transformer-rectifier output lost"),
    Failure("elec_static_inverter_fail", 24, "ELEC", "Static inverter output lost"),
    Failure("elec_emer_gen_fail", 24, "ELEC", "Emergency generator does not couple"),
)

GEN_RATING_KVA = 90.0
AC_ESS_AUTO_TRANSFER_S = 3.0  # FBW 2021 code; older aircraft need AC ESS FEED ALTN instead
EMER_GEN_COUPLE_S = 3.0
IDG_MIN_N2_PCT = 50.0


BAT_CAPACITY_AH = 23.0
BAT_CHARGE_A = BAT_CAPACITY_AH * 6.0  # back to full in about 10 min
BAT_ESS_LOAD_A = BAT_CAPACITY_AH * 2.0  # the essential network on one battery: about 30 min
BAT_APU_START_A = 300.0  # each battery's share of the APU starter current (uncertain)
BAT_EMER_MAX_KT = 100.0  # FBW BCL: batteries on DC BAT with AC BUS 1+2 lost below this speed
BAT_EMER_APU_START_DELAY_S = 45.0  # FBW BCL APU_START_INHIBIT_DELAY_SECONDS
BAT_EMER_APU_MAX_CLOSED_S = 180.0  # FBW BCL EMER_ELEC_APU_MASTER_MAXIMUM_CLOSED_SECONDS
STATIC_INV_MIN_KT = 50.0  # FBW 7XB relay: the 2XB contactors close above ~50 kt


@dataclass(slots=True)
class Battery:
    charge_ah: float = BAT_CAPACITY_AH
    contactor: bool = False

    @property
    def voltage_v(self) -> float:
        return round(24.0 + 4.0 * self.charge_ah / BAT_CAPACITY_AH, 1) if self.charge_ah > 0 else 0.0


@dataclass(slots=True)
class Elec:
    # Sources
    gen_avail: list[bool] = field(default_factory=lambda: [False, False])
    glc_closed: list[bool] = field(default_factory=lambda: [False, False])
    idg_connected: list[bool] = field(default_factory=lambda: [True, True])
    idg_oil_temp_c: list[float] = field(default_factory=lambda: [40.0, 40.0])
    idg_oil_press_low: list[bool] = field(default_factory=lambda: [False, False])
    apu_gen_avail: bool = False
    apu_gen_online: bool = False
    ext_pwr_avail: bool = False
    ext_pwr_online: bool = False
    emer_gen_online: bool = False
    bus_tie_closed: list[bool] = field(default_factory=lambda: [False, False])
    # Bus sources ("" = unpowered)
    ac_bus: list[str] = field(default_factory=lambda: ["", ""])
    ac_ess: str = ""
    ac_ess_shed: bool = False
    dc_bus: list[bool] = field(default_factory=lambda: [False, False])
    dc_bat: bool = False
    dc_ess: str = ""
    dc_ess_shed: bool = False
    hot_bus: list[bool] = field(default_factory=lambda: [True, True])
    tr_online: list[bool] = field(default_factory=lambda: [False, False])
    ess_tr_online: bool = False
    ess_tr_ok: bool = True  # component health, as the monitoring sees it
    static_inv_ok: bool = True
    static_inv_online: bool = False
    main_galley_shed: bool = True
    secondary_galley_shed: bool = True
    gen_load_pct: list[float] = field(default_factory=lambda: [0.0, 0.0])
    apu_gen_load_pct: float = 0.0
    bat: list[Battery] = field(default_factory=lambda: [Battery(), Battery()])
    # Timers (seconds)
    ac1_lost_s: float = 0.0
    emer_gen_s: float = 0.0
    emer_elec_s: float = 0.0  # in flight with AC BUS 1 and 2 lost (the emergency electrical configuration)
    apu_start_bat_s: float = 0.0  # APU MASTER SW ON during that configuration
    transient: bool = False

    # ---- queries other systems use -------------------------------------------------
    def ac_bus_powered(self, n: int) -> bool:
        return bool(self.ac_bus[n - 1])

    def dc_bus_powered(self, n: int) -> bool:
        return self.dc_bus[n - 1]

    def gen_available(self, n: int) -> bool:
        """Engine generator n is producing power (whether or not its line contactor is closed)."""
        return self.gen_avail[n - 1]

    @property
    def dc_bat_on_batteries_only(self) -> bool:
        """DC BAT BUS powered, by the batteries alone (no TR on line): an APU start on batteries."""
        return self.dc_bat and not (self.tr_online[0] or self.tr_online[1])

    @property
    def ac_ess_powered(self) -> bool:
        return bool(self.ac_ess)

    @property
    def dc_ess_powered(self) -> bool:
        return bool(self.dc_ess)

    @property
    def dc_bat_or_ess_powered(self) -> bool:
        return self.dc_bat or bool(self.dc_ess)

    @property
    def any_ac(self) -> bool:
        return bool(self.ac_bus[0] or self.ac_bus[1] or self.ac_ess)

    def update(self, t: Tick, engines: EngineSpeeds, apu: ApuForElec, hyd: HydForElec, fire: FireForElec,
               flight: FlightConditions) -> None:
        was = (tuple(self.ac_bus), self.ac_ess, self.dc_ess, self.emer_gen_online, tuple(self.glc_closed))
        idg_moving = self._generators(t, engines, apu, fire)
        self.ext_pwr_avail = t.world.gpu_available and flight.on_ground
        ext_on = self.ext_pwr_avail and t.controls["EXT PWR"] == "ON"
        self._ac_buses(t, ext_on)
        self._emer_gen(t, hyd, flight.ias_kt)
        self._ac_ess(t, flight.ias_kt)
        any_tr = self._dc_network(t, apu, flight)
        self._battery_charge(t.dt, any_tr, apu)
        self._galleys_and_loads(t.controls, ext_on, flight.on_ground)
        now = (tuple(self.ac_bus), self.ac_ess, self.dc_ess, self.emer_gen_online, tuple(self.glc_closed))
        self.transient = (
            now != was
            or idg_moving
            or (0.0 < self.emer_gen_s < EMER_GEN_COUPLE_S)
            or (0.0 < self.ac1_lost_s < AC_ESS_AUTO_TRANSFER_S + 0.5)
        )

    def _generators(self, t: Tick, engines: EngineSpeeds, apu: ApuForElec, fire: FireForElec) -> bool:
        """IDGs (disconnection is irreversible: only reset on ground by maintenance), their oil,
        and which generators produce power. True while an IDG oil temperature still climbs."""
        c, f, dt = t.controls, t.failures, t.dt
        idg_moving = False
        for i in (0, 1):
            n = i + 1
            n2 = engines.n2_pct(n)
            if t.pushed(f"IDG {n}") and n2 > 10.0:
                self.idg_connected[i] = False
            turning = self.idg_connected[i] and n2 > IDG_MIN_N2_PCT
            self.idg_oil_press_low[i] = turning and f"elec_idg{n}_oil_pressure_loss" in f
            hot = turning and f"elec_idg{n}_oil_overheat" in f
            target = 190.0 if hot else (85.0 if turning else 40.0)
            # Exact first-order response, right for any step; only the climb toward the
            # 185 degC overheat threshold needs fine ticks.
            self.idg_oil_temp_c[i] = target + (self.idg_oil_temp_c[i] - target) * math.exp(-dt / 20.0)
            idg_moving = idg_moving or (hot and self.idg_oil_temp_c[i] < 186.0)
            # A GCU reset (GEN OFF) clears a resettable trip.
            if c[f"GEN {n}"] == "OFF" and f"elec_gen{n}_gcu_trip_resettable" in f:
                t.resolve(f"elec_gen{n}_gcu_trip_resettable")
            tripped = f"elec_gen{n}_gcu_trip" in f or f"elec_gen{n}_gcu_trip_resettable" in f
            # A sick IDG keeps driving its generator until the crew disconnects it.
            self.gen_avail[i] = turning and c[f"GEN {n}"] == "ON" and not tripped and not fire.eng_fire_pb_released(n)
        if c["APU GEN"] == "OFF" and "elec_apu_gen_gcu_trip_resettable" in f:
            t.resolve("elec_apu_gen_gcu_trip_resettable")
        self.apu_gen_avail = (
            apu.avail
            and c["APU GEN"] == "ON"
            and "elec_apu_gen_gcu_trip" not in f
            and "elec_apu_gen_gcu_trip_resettable" not in f
            and not fire.apu_fire_pb_released
        )
        return idg_moving

    def _ac_buses(self, t: Tick, ext_on: bool) -> None:
        """Line contactors, bus ties and the source of each AC BUS (two sources are never paralleled)."""
        c, f = t.controls, t.failures
        # Line contactors: an engine generator always feeds its own bus first.
        self.glc_closed[0] = self.gen_avail[0] and c["GEN 1 LINE"] == "ON"
        self.glc_closed[1] = self.gen_avail[1]
        shorted = ("elec_ac_bus_1_short" in f, "elec_ac_bus_2_short" in f)
        # Tie source for a bus without its own generator: EXT PWR > APU GEN > other engine generator.
        tie_auto = c["BUS TIE"] == "AUTO"
        tie_src = "EXT PWR" if ext_on else ("APU GEN" if self.apu_gen_avail else "")
        for i in (0, 1):
            other = 1 - i
            if shorted[i]:
                src = ""
            elif self.glc_closed[i]:
                src = f"GEN {i + 1}"
            elif tie_auto and tie_src:
                src = tie_src
            elif tie_auto and self.glc_closed[other] and not shorted[other]:
                src = f"GEN {other + 1}"
            else:
                src = ""
            self.ac_bus[i] = src
        # A tie contactor is closed when its bus is fed across the tie bus, or when its own
        # generator feeds the other side (GEN 2 reaches AC BUS 1 through BTC 2 and BTC 1).
        for i in (0, 1):
            own = f"GEN {i + 1}"
            fed_across = bool(self.ac_bus[i]) and self.ac_bus[i] != own
            self.bus_tie_closed[i] = fed_across or self.ac_bus[1 - i] == own
        self.ext_pwr_online = ext_on and "EXT PWR" in self.ac_bus
        self.apu_gen_online = "APU GEN" in self.ac_bus

    def _emer_gen(self, t: Tick, hyd: HydForElec, ias_kt: float) -> None:
        """Emergency generator: hydraulically driven by Blue (RAT) once AC BUS 1+2 are lost."""
        both_lost = not self.ac_bus[0] and not self.ac_bus[1]
        rat_drives = hyd.rat_deployed and hyd.circuit_psi("blue") > 2000.0 and ias_kt > 100.0
        if rat_drives and (both_lost or hyd.emer_man_on) and "elec_emer_gen_fail" not in t.failures:
            self.emer_gen_s += t.dt
        else:
            self.emer_gen_s = 0.0
        self.emer_gen_online = self.emer_gen_s >= EMER_GEN_COUPLE_S and both_lost

    def _ac_ess(self, t: Tick, ias_kt: float) -> None:
        """AC ESS BUS: AC BUS 1 (NORM) or 2 (ALTN, or the automatic transfer), else EMER GEN, else
        the static inverter from HOT BUS 1 above 50 kt, whatever the BAT pushbuttons (FBW 2XB)."""
        c, f = t.controls, t.failures
        self.ac1_lost_s = self.ac1_lost_s + t.dt if not self.ac_bus[0] else 0.0
        ess = ""
        if c["AC ESS FEED"] == "NORM":
            if self.ac_bus[0] and "elec_ac_ess_norm_contactor" not in f:
                ess = "AC BUS 1"
            elif self.ac_bus[1] and t.world.ac_ess_auto_transfer and self.ac1_lost_s >= AC_ESS_AUTO_TRANSFER_S:
                ess = "AC BUS 2"
        elif self.ac_bus[1]:
            ess = "AC BUS 2"
        if not ess and not self.ac_bus[0] and not self.ac_bus[1]:
            if self.emer_gen_online:
                ess = "EMER GEN"
            elif self.bat[0].charge_ah > 0.0 and ias_kt > STATIC_INV_MIN_KT and "elec_static_inverter_fail" not in f:
                ess = "STAT INV"
        self.static_inv_online = ess == "STAT INV"
        self.ac_ess = ess
        self.ac_ess_shed = ess in ("AC BUS 1", "AC BUS 2", "EMER GEN")

    def _dc_network(self, t: Tick, apu: ApuForElec, flight: FlightConditions) -> bool:
        """TRs, DC buses, battery contactors and the DC ESS BUS. Returns whether any TR is on line."""
        f = t.failures
        ess = self.ac_ess
        self.ess_tr_ok = "elec_ess_tr_fail" not in f
        self.static_inv_ok = "elec_static_inverter_fail" not in f
        self.tr_online = [bool(self.ac_bus[0]) and "elec_tr1_fail" not in f,
                          bool(self.ac_bus[1]) and "elec_tr2_fail" not in f]
        both_tr = self.tr_online[0] and self.tr_online[1]
        any_tr = self.tr_online[0] or self.tr_online[1]
        # The ESS TR takes DC ESS whenever TR 1 and TR 2 are not both available (FBW 3PE).
        self.ess_tr_online = bool(ess) and ess != "STAT INV" and not both_tr and "elec_ess_tr_fail" not in f
        # One TR feeds DC 1, DC 2 and DC BAT through the DC ties.
        self.dc_bus = [any_tr, any_tr]
        self._battery_contactors(t, apu, flight, any_tr)
        self.dc_bat = any_tr or self.bat[0].contactor or self.bat[1].contactor
        # DC ESS: from DC BAT only while both TRs are available (FBW 4PC), else from the ESS TR; with
        # no AC and no EMER GEN, from HOT BUS 2 above 50 kt or with both batteries on DC BAT (FBW 2XB),
        # whatever the BAT pushbuttons. Old standard: losing a TR with AC ESS unpowered leaves DC ESS
        # unpowered until AC ESS FEED ALTN gives the ESS TR its input.
        no_main_ac = not self.ac_bus[0] and not self.ac_bus[1] and not self.emer_gen_online
        batteries_on_bat_bus = self.bat[0].contactor and self.bat[1].contactor
        if both_tr:
            self.dc_ess = "DC BAT"
        elif self.ess_tr_online:
            self.dc_ess = "ESS TR"
        elif no_main_ac and self.bat[1].charge_ah > 0.0 and (flight.ias_kt > STATIC_INV_MIN_KT or batteries_on_bat_bus):
            self.dc_ess = "BAT 2"
        else:
            self.dc_ess = ""
        self.dc_ess_shed = bool(self.dc_ess) and self.dc_ess != "BAT 2"
        self.hot_bus = [self.bat[0].charge_ah > 0.0, self.bat[1].charge_ah > 0.0]
        return any_tr

    def _battery_contactors(self, t: Tick, apu: ApuForElec, flight: FlightConditions, any_tr: bool) -> None:
        """The battery charge limiters (BAT pushbutton AUTO; FBW `battery_charge_limiter.rs`).

        A contactor closes to charge its battery from a TR, to start the APU, or with AC BUS 1 and 2
        lost below 100 kt. In the emergency electrical configuration above 100 kt the batteries stay
        off DC BAT (the EMER GEN carries the essential network and the batteries keep their charge),
        except for an APU start: with the MASTER SW ON, 45 s after the emergency began or once the
        EMER GEN is on line, for at most 180 s.
        """
        c, dt = t.controls, t.dt
        emer = not self.ac_bus[0] and not self.ac_bus[1] and not flight.on_ground
        self.emer_elec_s = self.emer_elec_s + dt if emer else 0.0
        apu_master = c["APU MASTER SW"] == "ON"
        self.apu_start_bat_s = self.apu_start_bat_s + dt if (emer and apu_master) else 0.0
        awaiting_apu = apu_master and not apu.avail
        no_ac_slow = not self.ac_bus[0] and not self.ac_bus[1] and flight.ias_kt < BAT_EMER_MAX_KT
        emer_above_100_kt = emer and not no_ac_slow
        apu_start_allowed = ((self.emer_gen_online or self.emer_elec_s >= BAT_EMER_APU_START_DELAY_S)
                             and self.apu_start_bat_s <= BAT_EMER_APU_MAX_CLOSED_S)
        for i, b in enumerate(self.bat):
            if emer_above_100_kt:
                want = apu_master and apu_start_allowed
            else:
                want = awaiting_apu or no_ac_slow or (any_tr and b.charge_ah < 0.999 * BAT_CAPACITY_AH)
            b.contactor = want and c[f"BAT {i + 1}"] == "AUTO" and b.charge_ah > 0.0

    def _battery_charge(self, dt: float, any_tr: bool, apu: ApuForElec) -> None:
        """Recharge from a TR; discharge while a battery alone feeds DC BAT, the static inverter
        (BAT 1) or DC ESS (BAT 2): ~30 min on the essential network, and the APU starter's draw."""
        starter = apu.starter_engaged and not any_tr
        for i, b in enumerate(self.bat):
            if b.contactor and any_tr:
                b.charge_ah = min(BAT_CAPACITY_AH, b.charge_ah + BAT_CHARGE_A * dt / 3600.0)
                continue
            load_a = 0.0
            if b.contactor or (i == 1 and self.dc_ess == "BAT 2") or (i == 0 and self.ac_ess == "STAT INV"):
                load_a = BAT_ESS_LOAD_A
            if starter and b.contactor:
                load_a += BAT_APU_START_A
            if load_a:
                b.charge_ah = max(0.0, b.charge_ah - load_a * dt / 3600.0)

    def _galleys_and_loads(self, c: Mapping[str, str], ext_on: bool, on_ground: bool) -> None:
        """Galley shedding (FBW galley.rs) and generator loads: a fixed share per bus, galleys on top."""
        engine_gens = sum(self.glc_closed)
        only_apu_in_flight = not on_ground and engine_gens == 0 and self.apu_gen_online
        galy_off = c["GALY & CAB"] == "OFF" or c["COMMERCIAL"] == "OFF"
        self.main_galley_shed = (galy_off or not self.any_ac
                                 or (engine_gens == 1 and not self.apu_gen_online and not ext_on) or only_apu_in_flight)
        self.secondary_galley_shed = galy_off or not (self.ac_bus[0] or self.ac_bus[1])
        per_bus = {0: 22.0, 1: 24.0}
        galley = 0.0 if self.main_galley_shed else 18.0
        loads: dict[str, float] = {}
        for i in (0, 1):
            if self.ac_bus[i]:
                loads[self.ac_bus[i]] = loads.get(self.ac_bus[i], 0.0) + per_bus[i] + galley / 2
        ess = self.ac_ess
        if ess in ("AC BUS 1", "AC BUS 2"):
            feeder = self.ac_bus[int(ess[-1]) - 1]
            loads[feeder] = loads.get(feeder, 0.0) + 6.0
        self.gen_load_pct = [round(100.0 * loads.get(f"GEN {i + 1}", 0.0) / GEN_RATING_KVA) for i in (0, 1)]
        self.apu_gen_load_pct = round(100.0 * loads.get("APU GEN", 0.0) / GEN_RATING_KVA)

    # ---- read-outs ----------------------------------------------------------------
    def vars(self) -> dict[str, object]:
        v: dict[str, object] = {}
        for i in (0, 1):
            n = i + 1
            v[f"elec.gen_{n}_online"] = self.glc_closed[i]
            v[f"elec.gen_{n}_load_pct"] = self.gen_load_pct[i]
            v[f"elec.idg_{n}_connected"] = self.idg_connected[i]
            v[f"elec.idg_{n}_oil_temp_c"] = round(self.idg_oil_temp_c[i], 1)
            v[f"elec.ac_bus_{n}_powered"] = bool(self.ac_bus[i])
            v[f"elec.ac_bus_{n}_source"] = self.ac_bus[i]
            v[f"elec.bus_tie_{n}_closed"] = self.bus_tie_closed[i]
            v[f"elec.dc_bus_{n}_powered"] = self.dc_bus[i]
            v[f"elec.tr_{n}_online"] = self.tr_online[i]
            v[f"elec.bat_{n}_voltage_v"] = self.bat[i].voltage_v
            v[f"elec.bat_{n}_contactor_closed"] = self.bat[i].contactor
            v[f"elec.hot_bus_{n}_powered"] = self.hot_bus[i]
        v["elec.apu_gen_online"] = self.apu_gen_online
        v["elec.apu_gen_load_pct"] = self.apu_gen_load_pct
        v["elec.ext_pwr_avail"] = self.ext_pwr_avail
        v["elec.ext_pwr_online"] = self.ext_pwr_online
        v["elec.emer_gen_online"] = self.emer_gen_online
        v["elec.ac_ess_powered"] = bool(self.ac_ess)
        v["elec.ac_ess_source"] = self.ac_ess
        v["elec.ac_ess_shed_powered"] = self.ac_ess_shed
        v["elec.dc_bat_powered"] = self.dc_bat
        v["elec.dc_ess_powered"] = bool(self.dc_ess)
        v["elec.dc_ess_source"] = self.dc_ess
        v["elec.dc_ess_shed_powered"] = self.dc_ess_shed
        v["elec.ess_tr_online"] = self.ess_tr_online
        v["elec.static_inv_online"] = self.static_inv_online
        v["elec.main_galley_shed"] = self.main_galley_shed
        v["elec.secondary_galley_shed"] = self.secondary_galley_shed
        return v

    def gen_fault_light(self, n: int, ac: Aircraft) -> bool:
        """GEN FAULT: PB ON, IDG connected, but line contactor open (FG a320-fwc.xml)."""
        i = n - 1
        c = ac.controls
        line_off = n == 1 and c["GEN 1 LINE"] == "OFF"
        return c[f"GEN {n}"] == "ON" and self.idg_connected[i] and not self.gen_avail[i] and not line_off

    def page(self, ac: Aircraft) -> dict[str, object]:
        c = ac.controls
        volts = lambda on: 115 if on else 0  # noqa: E731
        freq = lambda on: 400 if on else 0  # noqa: E731
        gens = {}
        for i in (0, 1):
            n = i + 1
            on = self.glc_closed[i]
            gens[f"GEN {n}"] = {
                "pb": c[f"GEN {n}"],
                "fault_light": self.gen_fault_light(n, ac) and ac.eng.engines[i].running,
                "line_contactor": "CLOSED" if on else "OPEN",
                "volts_v": volts(self.gen_avail[i]),
                "freq_hz": freq(self.gen_avail[i]),
                "load_pct": self.gen_load_pct[i],
                "idg": "CONNECTED" if self.idg_connected[i] else "DISC",
                "idg_oil_temp_c": round(self.idg_oil_temp_c[i]),
                "idg_fault_light": self.idg_connected[i] and (self.idg_oil_press_low[i] or self.idg_oil_temp_c[i] > 185.0),
            }
        return {
            "generators": gens,
            "APU GEN": {
                "pb": c["APU GEN"],
                "online": self.apu_gen_online,
                "fault_light": c["APU GEN"] == "ON" and ac.apu.avail and not self.apu_gen_avail,
                "volts_v": volts(self.apu_gen_avail),
                "freq_hz": freq(self.apu_gen_avail),
                "load_pct": self.apu_gen_load_pct,
            },
            "EXT PWR": {"avail": self.ext_pwr_avail, "online": self.ext_pwr_online},
            "EMER GEN": {"online": self.emer_gen_online, "volts_v": volts(self.emer_gen_online)},
            "bus_tie": {"pb": c["BUS TIE"], "tie_1": "CLOSED" if self.bus_tie_closed[0] else "OPEN",
                        "tie_2": "CLOSED" if self.bus_tie_closed[1] else "OPEN"},
            "buses": {
                "AC BUS 1": self.ac_bus[0] or "UNPOWERED",
                "AC BUS 2": self.ac_bus[1] or "UNPOWERED",
                "AC ESS": self.ac_ess or "UNPOWERED",
                "AC ESS SHED": "POWERED" if self.ac_ess_shed else "SHED",
                "DC BUS 1": "POWERED" if self.dc_bus[0] else "UNPOWERED",
                "DC BUS 2": "POWERED" if self.dc_bus[1] else "UNPOWERED",
                "DC BAT": "POWERED" if self.dc_bat else "UNPOWERED",
                "DC ESS": self.dc_ess or "UNPOWERED",
                "DC ESS SHED": "POWERED" if self.dc_ess_shed else "SHED",
                "HOT BUS 1": "POWERED" if self.hot_bus[0] else "UNPOWERED",
                "HOT BUS 2": "POWERED" if self.hot_bus[1] else "UNPOWERED",
            },
            "AC ESS FEED": {"pb": c["AC ESS FEED"], "fault_light": not self.ac_ess and (bool(self.ac_bus[0]) or bool(self.ac_bus[1]))},
            "TR": {"TR 1": "ONLINE" if self.tr_online[0] else "OFF", "TR 2": "ONLINE" if self.tr_online[1] else "OFF",
                   "ESS TR": "ONLINE" if self.ess_tr_online else "OFF",
                   "STAT INV": "ONLINE" if self.static_inv_online else "OFF"},
            "batteries": {f"BAT {i + 1}": {"pb": c[f"BAT {i + 1}"], "volts_v": b.voltage_v,
                                           "contactor": "CLOSED" if b.contactor else "OPEN"} for i, b in enumerate(self.bat)},
            "galley": {"GALY & CAB": c["GALY & CAB"], "main_galley": "SHED" if self.main_galley_shed else "ON",
                       "secondary_galley": "SHED" if self.secondary_galley_shed else "ON"},
        }

    def inop(self, ac: Aircraft) -> list[str]:
        out = []
        for i in (0, 1):
            if ac.eng.engines[i].running and not self.glc_closed[i]:
                out.append(f"GEN {i + 1}")
        if ac.apu.avail and not self.apu_gen_avail:
            out.append("APU GEN")
        for i in (0, 1):
            if (self.ac_bus[0] or self.ac_bus[1]) and not self.ac_bus[i]:
                out.append(f"AC BUS {i + 1}")
        if self.any_ac and not self.ac_ess:
            out.append("AC ESS BUS")
        for i, name in ((0, "TR 1"), (1, "TR 2")):
            if self.ac_bus[i] and not self.tr_online[i]:
                out.append(name)
        if not self.ess_tr_ok:
            out.append("ESS TR")
        if not self.static_inv_ok:
            out.append("STAT INV")
        if not self.ac_bus[0] and not self.ac_bus[1] and not ac.flight.on_ground:
            out.append("MAIN GALLEY")
        return out
