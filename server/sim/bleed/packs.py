"""Packs: flow control valves with their overheat protection and reset, pack flow and
temperatures, and the ram air inlet and trim air (HOT AIR) valves."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from .catalog import PACK, PACK_FAIL, PACK_OVHT_FAIL, PACK_OVHT_PERSIST

if TYPE_CHECKING:
    from ..tick import Tick
    from ..reads import FirePushbuttons
    from .system import Bleed, EngineAir

PACK_MIN_PSI = 12.0  # the pneumatic flow control valve stays shut below this
PACK_COMP_C = 170.0
FAILED_PACK_COMP_C = 300.0
PACK_OVHT_C = 260.0
PACK_OVHT_OUT_C = 200.0
PACK_HEAT_TAU_S = 15.0
PACK_COOL_TAU_S = 40.0
FLOW_PCT = {"LO": 80.0, "NORM": 100.0, "HI": 120.0}


def valves(b: Bleed, t: Tick, engs: Sequence[EngineAir], fire: FirePushbuttons, on_ground: bool) -> bool:
    """Solve both flow control valves, the overheat latches and the FAULT lights.
    Runs after the duct pressure. True if a valve or an overheat changed."""
    # The flow control valve closes on PB OFF, low upstream pressure, engine start,
    # ENG FIRE PB, DITCHING, and on a compressor outlet overheat.
    c, f = t.controls, t.failures
    airborne = not on_ground
    changed = False
    ditching = c["DITCHING"] == "ON"
    starting_on_ground = on_ground and (engs[0].starting or engs[1].starting)
    for i in (0, 1):
        pb_on = c[PACK[i]] == "ON"
        comp_c = b.pack_comp_c[i]
        if comp_c > PACK_OVHT_C:
            if not b.pack_ovht[i]:
                changed = True
            b.pack_ovht[i] = b.pack_ovht_latch[i] = b.pack_ovht_seen[i] = True
        elif comp_c < PACK_OVHT_OUT_C and b.pack_ovht[i]:
            b.pack_ovht[i] = False
            changed = True
        if not pb_on and not b.pack_ovht[i]:
            # Overheat out with the PB OFF: the controller lets the valve open again at PB ON,
            # and a transient overheat is over.
            b.pack_ovht_latch[i] = False
            if PACK_OVHT_FAIL[i] in f:
                t.resolve(PACK_OVHT_FAIL[i])
        auto_closed = (
            starting_on_ground
            or (airborne and engs[i].start_valve_open)
            or fire.eng_fire_pb_released(i + 1)
            or ditching
            or b.duct_psi[i] < PACK_MIN_PSI
            or b.pack_ovht_latch[i]
        )
        jammed = PACK_FAIL[i] in f
        is_open = pb_on and not auto_closed and not jammed
        if is_open != b.pack_open[i]:
            changed = True
        b.pack_open[i] = is_open
        # FAULT: valve disagrees with its command, or overheat (stays lit until reset).
        b.pack_fault_light[i] = (pb_on and not auto_closed and jammed) or b.pack_ovht[i] or (
            pb_on and b.pack_ovht_latch[i])
        if is_open:
            b.pack_ovht_seen[i] = False
    return changed


def flow(b: Bleed, t: Tick) -> bool:
    """Pack flow and the compressor and pack outlet temperatures. Runs after `valves`.
    True while a temperature is still moving (an overheating or cooling pack)."""
    f, dt = t.failures, t.dt
    moving = False
    sel_pct = FLOW_PCT[t.controls["PACK FLOW"]]
    if b.pack_open[0] != b.pack_open[1] or b.apu_valve_open:
        sel_pct = FLOW_PCT["HI"]  # single pack or APU bleed: HI flow
    hot_pack = (PACK_OVHT_FAIL[0] in f or PACK_OVHT_PERSIST[0] in f,
                PACK_OVHT_FAIL[1] in f or PACK_OVHT_PERSIST[1] in f)
    for i in (0, 1):
        if b.pack_open[i]:
            flow_pct = sel_pct * min(1.0, b.duct_psi[i] / 25.0)
            comp_target = FAILED_PACK_COMP_C if hot_pack[i] else PACK_COMP_C + (sel_pct - 100.0) * 0.5
            out_target = 10.0 + max(0.0, b.pack_comp_c[i] - PACK_OVHT_OUT_C) * 0.3
            k = min(1.0, dt / PACK_HEAT_TAU_S)
        else:
            flow_pct, comp_target, out_target = 0.0, 40.0, 25.0
            k = min(1.0, dt / PACK_COOL_TAU_S)
        b.pack_flow_pct[i] = flow_pct
        if hot_pack[i] or b.pack_comp_c[i] > PACK_OVHT_OUT_C - 10.0:  # overheating or cooling down
            t = b.pack_comp_c[i] = b.pack_comp_c[i] + (comp_target - b.pack_comp_c[i]) * k
            o = b.pack_outlet_c[i] = b.pack_outlet_c[i] + (out_target - b.pack_outlet_c[i]) * k
            if abs(t - comp_target) > 0.5 or abs(o - out_target) > 0.5:
                moving = True
        else:
            b.pack_comp_c[i], b.pack_outlet_c[i] = comp_target, out_target
    return moving


def ram_and_trim_air(b: Bleed, c: Mapping[str, str]) -> None:
    """Ram air inlet and the trim air valve. Runs after `valves`."""
    ditching = c["DITCHING"] == "ON"
    # Ram air inlet (whether air comes in depends on cabin differential pressure: see press).
    b.ram_air_open = c["RAM AIR"] == "ON" and not ditching
    b.hot_air_open = c["HOT AIR"] == "ON" and (b.pack_open[0] or b.pack_open[1])
