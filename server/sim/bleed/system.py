"""The `Bleed` system object: its state, the order in which its components solve each tick,
and the queries other systems and the FWC use.

Valves are solved from the panel and the latches every tick. Nominal
pressures and temperatures settle within a tick; a failed regulator,
precooler or pack and the leak loops drift toward their targets, so an
overheat or a leak takes seconds to be detected, as on the aircraft. When
nothing the model reads has changed and nothing drifts, the update is
skipped: the state is a fixed point (this keeps start states fast).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import TYPE_CHECKING, Protocol

from . import anti_ice, ducts, leaks, packs, pages
from .catalog import CONTROLS, OWN_FAILURES
from .ducts import START_AIR_PSI, port_key
from .leaks import APU_ZONE, LEAK_FAILURES, LOOP_AMBIENT_C, PYLON, WING, ZONES

from ..reads import FirePushbuttons, FlightConditions

if TYPE_CHECKING:
    from ..aircraft import Aircraft
    from ..tick import Tick

_panel = itemgetter(*(ctl.name for ctl in CONTROLS), "DITCHING")


# ---- what this system reads -----------------------------------------------------------
class EngineAir(Protocol):
    """One engine as the bleed system sees it: its spool (port pressure), start valve and state."""

    @property
    def n2_pct(self) -> float: ...
    @property
    def start_valve_open(self) -> bool: ...
    @property
    def starting(self) -> bool: ...
    @property
    def running(self) -> bool: ...


class ApuBleed(Protocol):
    @property
    def bleed_valve_open(self) -> bool: ...
    @property
    def avail(self) -> bool: ...


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
        return ducts.eng_fault_light(self, n, ac.controls)

    def wai_fault_light(self, ac: Aircraft) -> bool:
        """WING ANTI ICE FAULT: selected ON in flight and a wing valve is not open."""
        return anti_ice.wai_fault_light(self, ac.controls, ac.flight.on_ground)

    def eai_fault_light(self, n: int, ac: Aircraft) -> bool:
        """ENG n ANTI ICE FAULT: selected ON with the engine running and the valve not open."""
        return anti_ice.eai_fault_light(self, n, ac.controls, ac.eng.engines[n - 1].running)

    # ---- tick --------------------------------------------------------------------------
    def _inputs(self, t: Tick, apu: ApuBleed, engs: Sequence[EngineAir], fire: FirePushbuttons,
                flight: FlightConditions) -> tuple:
        """Everything the update reads; when it is unchanged and nothing moves, the state is a fixed point."""
        e0, e1 = engs
        return (
            _panel(t.controls), t.failures & OWN_FAILURES, flight.on_ground,
            flight.altitude_ft if apu.bleed_valve_open else None,
            apu.bleed_valve_open, apu.avail, port_key(self, 0, e0.n2_pct), port_key(self, 1, e1.n2_pct),
            e0.start_valve_open, e1.start_valve_open, e0.starting, e1.starting,
            e0.running, e1.running, fire.eng_fire_pb_released(1), fire.eng_fire_pb_released(2),
        )

    def update(self, t: Tick, apu: ApuBleed, engines: Sequence[EngineAir], fire: FirePushbuttons,
               flight: FlightConditions) -> None:
        on_ground = flight.on_ground
        inputs = self._inputs(t, apu, engines, fire, flight)
        if not self.transient and inputs == self._inputs_seen:
            return
        self._inputs_seen = inputs
        f = t.failures
        leaking = not f.isdisjoint(LEAK_FAILURES)  # a leak failure is active, detected or not
        # Each step returns True when it changed a valve or a latch, or when a value still drifts;
        # the system is transient (no fixed point yet) while any step does.
        # Leak latches first, from the loop temperatures of the last tick: they close valves.
        transient = leaks.detect(self, f)
        side_leak = leaks.side_leaks(self)
        # Valves that admit air, then the pressure on each side of the duct.
        transient |= ducts.apu_and_crossbleed(self, t, apu, side_leak, flight.altitude_ft)
        transient |= ducts.engine_valves(self, t, engines, fire, side_leak)
        ducts.duct_pressure(self, f, leaking)
        # What the duct feeds: the leak loops next to a leak, packs, anti-ice.
        transient |= leaks.heat_loops(self, t, apu, leaking)
        transient |= packs.valves(self, t, engines, fire, on_ground)
        transient |= packs.flow(self, t)
        packs.ram_and_trim_air(self, t.controls)
        transient |= anti_ice.update(self, t, engines, on_ground)
        self.transient = transient

    # ---- read-outs ----------------------------------------------------------------
    def vars(self) -> dict[str, object]:
        return pages.state_vars(self)

    def page(self, ac: Aircraft) -> dict[str, object]:
        """The BLEED page (with the AIR COND / ANTI ICE panel lights)."""
        return pages.page(self, ac)

    def cond_page(self, ac: Aircraft) -> dict[str, object]:
        """The COND page: packs, trim air and cabin zone temperatures."""
        return pages.cond_page(self, ac)

    def inop(self, ac: Aircraft) -> list[str]:
        return pages.inop(self, ac)

    def memos(self, ac: Aircraft) -> list[str]:
        return pages.memos(ac)
