"""Fire protection (ATA 26): engine and APU fire zones, detection loops, FIRE pushbuttons, agents.

Each zone (ENG 1, ENG 2, APU) has a temperature that a fire drives up and two
detection loops (A, B) that sense it. The fire detection unit raises the
warning when both loops detect, or when one detects and the other is faulty
(domain reference §1.5; FG `fire.nas`). Releasing a FIRE pushbutton arms the
squibs of that zone's bottles; an AGENT push discharges a bottle only when its
squib is armed. Other systems read `eng_fire_pb_released(n)` (generator, LP
valve, hydraulic fire valve, bleed and pack valves) and
`apu_fire_pb_released` / `apu_ground_auto_shutdown` (the APU).

Extinguishing is deterministic, by failure: a fire goes out once its fuel is
cut (FIRE PB, master OFF or LP valve closed; for the APU, the APU stopped) and
enough agent has been discharged since it started (one bottle, or both for the
`..._needs_agent2` variants); the zone then cools and the loops stop
detecting. An APU fire on ground shuts the APU down at once and discharges its
bottle 3 s later. The FWC reads loops, pushbuttons and the bottle timers here,
never the failure id.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .catalog import Control, Failure
from .reads import ApuRunning, FuelFeed, OnGround
from .tick import Tick

if TYPE_CHECKING:
    from .aircraft import Aircraft

PUSH = ("NORM", "PUSH")

CONTROLS = (
    Control("ENG 1 FIRE", "FIRE", ("IN", "RELEASED"), "IN", guarded=True,
            description="Engine 1 FIRE pushbutton: releasing it isolates engine 1 and arms its agents"),
    Control("ENG 2 FIRE", "FIRE", ("IN", "RELEASED"), "IN", guarded=True,
            description="Engine 2 FIRE pushbutton: releasing it isolates engine 2 and arms its agents"),
    Control("APU FIRE", "FIRE", ("IN", "RELEASED"), "IN", guarded=True,
            description="APU FIRE pushbutton: releasing it shuts the APU down and arms its agent"),
    Control("ENG 1 AGENT 1", "FIRE", PUSH, "NORM", momentary=True,
            description="Discharge engine 1 fire bottle 1 (only once the ENG 1 FIRE pushbutton is released)"),
    Control("ENG 1 AGENT 2", "FIRE", PUSH, "NORM", momentary=True,
            description="Discharge engine 1 fire bottle 2 (only once the ENG 1 FIRE pushbutton is released)"),
    Control("ENG 2 AGENT 1", "FIRE", PUSH, "NORM", momentary=True,
            description="Discharge engine 2 fire bottle 1 (only once the ENG 2 FIRE pushbutton is released)"),
    Control("ENG 2 AGENT 2", "FIRE", PUSH, "NORM", momentary=True,
            description="Discharge engine 2 fire bottle 2 (only once the ENG 2 FIRE pushbutton is released)"),
    Control("APU AGENT", "FIRE", PUSH, "NORM", momentary=True,
            description="Discharge the APU fire bottle (only once the APU FIRE pushbutton is released)"),
    Control("ENG 1 FIRE TEST", "FIRE", PUSH, "NORM", momentary=True, description="Test the engine 1 fire detection loops"),
    Control("ENG 2 FIRE TEST", "FIRE", PUSH, "NORM", momentary=True, description="Test the engine 2 fire detection loops"),
    Control("APU FIRE TEST", "FIRE", PUSH, "NORM", momentary=True, description="Test the APU fire detection loops"),
)

FAILURES = (
    Failure("fire_eng1", 26, "FIRE", "Engine 1 nacelle fire; out once fuel is cut and agent 1 discharged"),
    Failure("fire_eng1_needs_agent2", 26, "FIRE", "Engine 1 nacelle fire; needs fuel cut and both agents"),
    Failure("fire_eng2", 26, "FIRE", "Engine 2 nacelle fire; out once fuel is cut and agent 1 discharged"),
    Failure("fire_eng2_needs_agent2", 26, "FIRE", "Engine 2 nacelle fire; needs fuel cut and both agents"),
    Failure("fire_apu", 26, "FIRE", "APU compartment fire; out once the APU is stopped and its agent discharged"),
    Failure("fire_eng1_loop_a_fault", 26, "FIRE", "Engine 1 fire detection loop A faulty"),
    Failure("fire_eng1_loop_b_fault", 26, "FIRE", "Engine 1 fire detection loop B faulty"),
    Failure("fire_eng1_det_fault", 26, "FIRE",
            "Engine 1 fire detection loops A and B fail at the same instant (the detection unit takes it for a "
            "fire burning through them)"),
    Failure("fire_eng2_loop_a_fault", 26, "FIRE", "Engine 2 fire detection loop A faulty"),
    Failure("fire_eng2_loop_b_fault", 26, "FIRE", "Engine 2 fire detection loop B faulty"),
    Failure("fire_eng2_det_fault", 26, "FIRE",
            "Engine 2 fire detection loops A and B fail at the same instant (the detection unit takes it for a "
            "fire burning through them)"),
    Failure("fire_apu_loop_a_fault", 26, "FIRE", "APU fire detection loop A faulty"),
    Failure("fire_apu_loop_b_fault", 26, "FIRE", "APU fire detection loop B faulty"),
    Failure("fire_apu_det_fault", 26, "FIRE",
            "APU fire detection loops A and B fail at the same instant (the detection unit takes it for a "
            "fire burning through them)"),
)

AMBIENT_C = 20.0
FIRE_TEMP_C = 900.0  # flame temperature the zone heads for while burning
DETECT_TEMP_C = 300.0  # loop alarm temperature (uncertain; engine loops alarm at a few hundred degC)
HEAT_TAU_S = 1.5
COOL_TAU_S = 3.0
AGENT_TIMER_S = 10.0  # AGENT 1 AFTER 10S (FBW PseudoFWC NXLogicClockNode(10))
AGENT2_WAIT_S = 30.0  # IF FIRE AFTER 30S (FBW PseudoFWC NXLogicClockNode(30))
FLAME_THROUGH_S = 5.0  # both loops lost within this: a fire warning (FDU logic)
APU_AUTO_DISCH_S = 3.0  # ground APU fire: automatic discharge ~3 s after the shutdown (FBW docs)


@dataclass(frozen=True, slots=True)
class _Names:
    """The control names and failure ids of one zone, built once (the tick loop is hot)."""

    pb: str
    agents: tuple[str, ...]
    test: str
    fire: str
    fire_needs_agent2: str
    loop_a: str
    loop_b: str
    det: str
    all_ids: frozenset[str]


def _names(zone: str, key: str) -> _Names:
    agents = (f"{zone} AGENT",) if zone == "APU" else (f"{zone} AGENT 1", f"{zone} AGENT 2")
    ids = (f"fire_{key}", f"fire_{key}_needs_agent2", f"fire_{key}_loop_a_fault", f"fire_{key}_loop_b_fault",
           f"fire_{key}_det_fault")
    return _Names(f"{zone} FIRE", agents, f"{zone} FIRE TEST", *ids, frozenset(ids))


NAMES = {"ENG 1": _names("ENG 1", "eng1"), "ENG 2": _names("ENG 2", "eng2"), "APU": _names("APU", "apu")}
ALL_IDS = frozenset().union(*(n.all_ids for n in NAMES.values()))


@dataclass(slots=True)
class Bottle:
    discharged: bool = False
    disch_at_s: float = -1.0


@dataclass(slots=True)
class Zone:
    """One fire zone: what burns, what the loops sense, what the crew has done about it."""

    name: str
    key: str  # "eng1", "eng2", "apu": the failure-id stem of this zone
    temp_c: float = AMBIENT_C
    burning: bool = False
    extinguished: bool = False  # the current fire was put out; cleared with its failure
    lit_at_s: float = -1.0  # when the current fire started (agent spent before it does not count)
    loop_fault: tuple[bool, bool] = (False, False)
    loop_fault_at_s: tuple[float, float] = (-1.0, -1.0)  # when each loop became faulty
    flame_through: bool = False  # both loops failed within 5 s of each other: taken for a fire
    loop_detect: tuple[bool, bool] = (False, False)
    warning: bool = False
    warning_s: float = 0.0  # how long the warning has been on
    pb_released: bool = False
    pb_released_at_s: float = -1.0
    bottles: list[Bottle] = field(default_factory=lambda: [Bottle(), Bottle()])
    unarmed_agent_pushes: int = 0  # AGENT pushed with the squib not armed: no effect
    last_test: str = ""

    @property
    def squib_armed(self) -> bool:
        return self.pb_released

    @property
    def agents_discharged(self) -> int:
        return sum(b.discharged for b in self.bottles)

    def quiet(self) -> bool:
        """No fire, no fault: reset the detection. True if anything changed."""
        changed = self.loop_fault[0] or self.loop_fault[1] or self.warning
        if changed:
            self.loop_fault = self.loop_detect = (False, False)
            self.loop_fault_at_s = (-1.0, -1.0)
            self.warning = self.flame_through = False
        self.extinguished = False
        self.lit_at_s = -1.0
        self.warning_s = 0.0
        return changed

    def _flame_through(self, loop_fault: tuple[bool, bool], now_s: float) -> None:
        """The detection unit reads both loops failing within 5 s of each other as a fire burning
        through them, and gives the fire warning (FCOM fire detection: "fault on loop A and fault on
        loop B within 5 seconds"); two loops lost further apart are a detection fault."""
        at = tuple((was if was >= 0.0 else now_s) if faulty else -1.0
                   for faulty, was in zip(loop_fault, self.loop_fault_at_s))
        self.loop_fault_at_s = at  # type: ignore[assignment]
        if not (loop_fault[0] and loop_fault[1]):
            self.flame_through = False
        elif not self.flame_through and (loop_fault != self.loop_fault):
            self.flame_through = abs(at[0] - at[1]) <= FLAME_THROUGH_S

    def burn_and_detect(self, t: Tick, nm: _Names, fuel_cut: bool) -> tuple[bool, bool]:
        """The fire, the zone temperature and the fire detection unit.
        Returns (a discrete changed, the temperature still moves)."""
        f = t.failures
        # Loops: component faults from the failures; a healthy loop senses the zone temperature.
        det = nm.det in f
        loop_fault = (det or nm.loop_a in f, det or nm.loop_b in f)
        # The fire: burns while its failure is injected and it has not been put out.
        needs2 = nm.fire_needs_agent2 in f
        lit = needs2 or nm.fire in f
        if not lit:
            self.extinguished = False
            self.lit_at_s = -1.0
        else:
            if self.lit_at_s < 0.0:
                self.lit_at_s = t.now_s
            spent = sum(b.discharged and b.disch_at_s >= self.lit_at_s for b in self.bottles)
            if not self.extinguished and spent >= (2 if needs2 else 1) and fuel_cut:
                self.extinguished = True
        burning = lit and not self.extinguished
        target = FIRE_TEMP_C if burning else AMBIENT_C
        self.temp_c += (target - self.temp_c) * min(1.0, t.dt / (HEAT_TAU_S if burning else COOL_TAU_S))
        heating = abs(self.temp_c - target) >= 0.5
        if not heating:
            self.temp_c = target
        self._flame_through(loop_fault, t.now_s)
        hot = self.temp_c >= DETECT_TEMP_C
        a, b = hot and not loop_fault[0], hot and not loop_fault[1]
        warning = (a and b) or (a and loop_fault[1]) or (b and loop_fault[0]) or self.flame_through
        changed = (burning, loop_fault, warning) != (self.burning, self.loop_fault, self.warning)
        self.burning, self.loop_fault, self.loop_detect, self.warning = burning, loop_fault, (a, b), warning
        self.warning_s = self.warning_s + t.dt if warning else 0.0
        return changed, heating


@dataclass(slots=True)
class Fire:
    zones: dict[str, Zone] = field(default_factory=lambda: {
        "ENG 1": Zone("ENG 1", "eng1"),
        "ENG 2": Zone("ENG 2", "eng2"),
        "APU": Zone("APU", "apu", bottles=[Bottle()]),
    })
    apu_ground_auto_shutdown: bool = False
    apu_fire_pb_released: bool = False
    any_loop_fault: bool = False
    transient: bool = False
    _events_seen: int = -1  # crew actions already looked at (a shortcut for the quiet case)
    _quiet: bool = False  # last tick: nothing burning, hot, faulty, released or pending

    # ---- queries other systems use -------------------------------------------------
    def eng_fire_pb_released(self, n: int) -> bool:
        return self.zones["ENG 1" if n == 1 else "ENG 2"].pb_released

    def warning(self, zone: str) -> bool:
        return self.zones[zone].warning

    def agent_timer_left_s(self, zone: str, now_s: float) -> float:
        """Seconds left of the 10 s wait after the FIRE PB release (10 until it is released)."""
        z = self.zones[zone]
        if not z.pb_released:
            return AGENT_TIMER_S
        return max(0.0, AGENT_TIMER_S - (now_s - z.pb_released_at_s))

    def fire_after_agent1_s(self, zone: str, now_s: float) -> float:
        """Seconds the fire warning has persisted since agent 1 was discharged (0 if not yet)."""
        z = self.zones[zone]
        b = z.bottles[0]
        if not b.discharged or not z.warning:
            return 0.0
        return now_s - b.disch_at_s

    # ---- update ----------------------------------------------------------------------
    def update(self, t: Tick, fuel: FuelFeed, apu: ApuRunning, flight: OnGround) -> None:
        f = t.failures
        if self._quiet and t.crew_actions == self._events_seen and f.isdisjoint(ALL_IDS):
            self.transient = False
            # No crew action (controls move only through Aircraft.set_control, which logs an
            # event), no fire-related failure, nothing burning, hot, released or pending.
            return
        self._events_seen = t.crew_actions
        changed = heating = loop_fault_seen = False
        for name, z in self.zones.items():
            nm = NAMES[name]
            changed |= self._crew(t, z, nm)
            if f.isdisjoint(nm.all_ids) and not z.burning and z.temp_c == AMBIENT_C:
                changed |= z.quiet()  # nothing burns, loops healthy and cold (the common case)
                continue
            moved, heated = z.burn_and_detect(t, nm, self._fuel_cut(name, t.controls, fuel, apu))
            changed |= moved
            heating |= heated
            loop_fault_seen = loop_fault_seen or z.loop_fault[0] or z.loop_fault[1]
        self.any_loop_fault = loop_fault_seen
        moved, pending = self._apu_ground_protection(t, flight.on_ground)
        self.transient = changed or moved or heating or pending
        self._quiet = not self.apu_ground_auto_shutdown and all(
            not z.burning and not z.extinguished and not z.warning and not z.pb_released and z.temp_c == AMBIENT_C
            and not z.loop_fault[0] and not z.loop_fault[1] for z in self.zones.values())

    @staticmethod
    def _crew(t: Tick, z: Zone, nm: _Names) -> bool:
        """The FIRE pushbutton, the agent pushes (a squib fires only once armed) and the TEST button."""
        changed = False
        pb = t.controls[nm.pb] == "RELEASED"
        if pb != z.pb_released:
            z.pb_released = pb
            z.pb_released_at_s = t.now_s if pb else -1.0
            changed = True
        for i, ctl in enumerate(nm.agents):
            if t.pushed(ctl):
                changed = True
                if not pb:
                    z.unarmed_agent_pushes += 1
                elif not z.bottles[i].discharged:
                    z.bottles[i] = Bottle(True, t.now_s)
        if t.pushed(nm.test):
            z.last_test = Fire._test_result(z)
        return changed

    def _apu_ground_protection(self, t: Tick, on_ground: bool) -> tuple[bool, bool]:
        """APU fire on ground: the ECB shuts the APU down and the bottle discharges by itself.
        Returns (a bottle discharged, a discharge is pending)."""
        apu = self.zones["APU"]
        changed = pending = False
        if apu.warning and on_ground:
            self.apu_ground_auto_shutdown = True
            if not apu.bottles[0].discharged:
                if apu.warning_s >= APU_AUTO_DISCH_S:
                    apu.bottles[0] = Bottle(True, t.now_s)
                    changed = True
                else:
                    pending = True
        elif self.apu_ground_auto_shutdown and t.controls["APU MASTER SW"] == "OFF" and not apu.warning:
            self.apu_ground_auto_shutdown = False
        self.apu_fire_pb_released = apu.pb_released
        return changed, pending

    @staticmethod
    def _fuel_cut(zone: str, c: Mapping[str, str], fuel: FuelFeed, apu: ApuRunning) -> bool:
        """Is the zone's fuel supply shut off (LP valve / APU fuel valve closed)?"""
        if zone == "APU":
            return c["APU FIRE"] == "RELEASED" or not apu.running
        n = int(zone[-1])
        return c[f"ENG {n} FIRE"] == "RELEASED" or c[f"ENG MASTER {n}"] == "OFF" or not fuel.engine_fed(n)

    @staticmethod
    def _test_result(z: Zone) -> str:
        a, b = z.loop_fault
        if a and b:
            return "LOOP A AND B FAULT"
        if a or b:
            return f"LOOP {'A' if a else 'B'} FAULT"
        return "PASS"

    # ---- read-outs ----------------------------------------------------------------
    def vars(self) -> dict[str, object]:
        v: dict[str, object] = {}
        for z in self.zones.values():
            p = f"fire.{z.key}_"
            v[p + "warning"] = z.warning
            v[p + "burning"] = z.burning
            v[p + "loop_a_detect"] = z.loop_detect[0]
            v[p + "loop_b_detect"] = z.loop_detect[1]
            v[p + "loop_a_fault"] = z.loop_fault[0]
            v[p + "loop_b_fault"] = z.loop_fault[1]
            v[p + "fire_pb_released"] = z.pb_released
            v[p + "squib_armed"] = z.squib_armed
            for i, b in enumerate(z.bottles):
                v[p + ("agent_discharged" if z.key == "apu" else f"agent_{i + 1}_discharged")] = b.discharged
            v[p + "unarmed_agent_pushes"] = z.unarmed_agent_pushes
        v["fire.apu_ground_auto_shutdown"] = self.apu_ground_auto_shutdown
        return v

    def page(self, ac: Aircraft) -> dict[str, object]:
        out: dict[str, object] = {}
        for name, z in self.zones.items():
            def loop(i: int) -> str:
                return "FAULT" if z.loop_fault[i] else ("FIRE" if z.loop_detect[i] else "NORM")
            agents = {}
            labels = ["AGENT"] if name == "APU" else ["AGENT 1", "AGENT 2"]
            for label, b in zip(labels, z.bottles):
                agents[label] = "DISCH" if b.discharged else ("SQUIB" if z.squib_armed else "READY")
            out[name] = {
                "fire_light": z.warning,
                "fire_pb": "RELEASED" if z.pb_released else "IN",
                "loop_a": loop(0),
                "loop_b": loop(1),
                "agents": agents,
                **({"last_test": z.last_test} if z.last_test else {}),
            }
        out["CARGO"] = ac.vent.cargo_page(ac)
        return out

    def inop(self, ac: Aircraft) -> list[str]:
        out = []
        for name, z in self.zones.items():
            if z.loop_fault[0] and z.loop_fault[1]:
                out.append(f"{name} FIRE DET")
            elif z.loop_fault[0] or z.loop_fault[1]:
                out.append(f"{name} LOOP {'A' if z.loop_fault[0] else 'B'}")
        return out
