"""Read-outs of the bleed system: state variables, the BLEED and COND pages, STATUS INOP
items and memos."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .anti_ice import eai_fault_light, wai_fault_light
from .catalog import ENG_BLEED, PACK
from .ducts import eng_fault_light
from .leaks import APU_ZONE, PYLON, WING, ZONES

if TYPE_CHECKING:
    from ..aircraft import Aircraft
    from .system import Bleed

CABIN_TEMP_C = 22.0


def state_vars(b: Bleed) -> dict[str, object]:
    v: dict[str, object] = {}
    for i in (0, 1):
        n = i + 1
        v[f"bleed.eng_{n}_valve_open"] = b.eng_valve_open[i]
        v[f"bleed.eng_{n}_hp_valve_open"] = b.hp_valve_open[i]
        v[f"bleed.eng_{n}_supply_press_psi"] = round(b.supply_psi[i], 1)
        v[f"bleed.eng_{n}_precooler_temp_c"] = round(b.precooler_c[i])
        v[f"bleed.eng_{n}_bmc_fault"] = b.bmc_fault[i]
        v[f"bleed.duct_{n}_press_psi"] = round(b.duct_psi[i], 1)
    v["bleed.apu_valve_open"] = b.apu_valve_open
    v["bleed.apu_leak_isolated"] = b.apu_leak_isolated
    v["bleed.xbleed_valve_open"] = b.xbleed_open
    for z, (name, _, _, _) in enumerate(ZONES):
        v[f"bleed.leak_{name.lower().replace(' ', '_')}_detected"] = b.leak[z]
        v[f"bleed.leak_{name.lower().replace(' ', '_')}_loop_temp_c"] = round(b.loop_c[z])
    for i in (0, 1):
        n = i + 1
        v[f"bleed.pack_{n}_valve_open"] = b.pack_open[i]
        v[f"bleed.pack_{n}_flow_pct"] = round(b.pack_flow_pct[i])
        v[f"bleed.pack_{n}_comp_outlet_temp_c"] = round(b.pack_comp_c[i])
        v[f"bleed.pack_{n}_outlet_temp_c"] = round(b.pack_outlet_c[i])
        v[f"bleed.pack_{n}_overheat"] = b.pack_ovht[i]
        v[f"bleed.pack_{n}_fault_light"] = b.pack_fault_light[i]
    v["bleed.ram_air_inlet_open"] = b.ram_air_open
    v["bleed.hot_air_valve_open"] = b.hot_air_open
    v["bleed.wing_anti_ice_l_valve_open"] = b.wai_open[0]
    v["bleed.wing_anti_ice_r_valve_open"] = b.wai_open[1]
    v["bleed.eng_1_anti_ice_valve_open"] = b.eai_open[0]
    v["bleed.eng_2_anti_ice_valve_open"] = b.eai_open[1]
    return v


def page(b: Bleed, ac: Aircraft) -> dict[str, object]:
    """The BLEED page (with the AIR COND / ANTI ICE panel lights)."""
    c = ac.controls
    opened = lambda x: "OPEN" if x else "CLOSED"  # noqa: E731
    out: dict[str, object] = {}
    for i in (0, 1):
        n = i + 1
        out[f"ENG {n}"] = {
            "pb": c[ENG_BLEED[i]],
            "fault_light": eng_fault_light(b, n, c),
            "hp_valve": opened(b.hp_valve_open[i]),
            "bleed_valve": opened(b.eng_valve_open[i]),
            "press_psi": round(b.supply_psi[i]),
            "precooler_outlet_temp_c": round(b.precooler_c[i]),
        }
    out["APU"] = {"pb": c["APU BLEED"], "fault_light": b.apu_leak_isolated and c["APU BLEED"] == "ON",
                  "bleed_valve": opened(b.apu_valve_open)}
    out["X BLEED"] = {"selector": c["X BLEED"], "valve": opened(b.xbleed_open)}
    out["duct_press_psi"] = {"left": round(b.duct_psi[0]), "right": round(b.duct_psi[1])}
    out["leak_detection"] = {name: ("LEAK" if b.leak[z] else "NORMAL") for z, (name, _, _, _) in enumerate(ZONES)}
    for i in (0, 1):
        out[f"PACK {i + 1}"] = pack_panel(b, i, ac)
    out["PACK FLOW"] = c["PACK FLOW"]
    out["RAM AIR"] = {"pb": c["RAM AIR"], "inlet": opened(b.ram_air_open), "air_flowing": ac.press.ram_air_flowing}
    out["ANTI ICE"] = {
        "WING": {"pb": c["WING ANTI ICE"], "fault_light": wai_fault_light(b, c, ac.flight.on_ground),
                 "left_valve": opened(b.wai_open[0]), "right_valve": opened(b.wai_open[1])},
        "ENG 1": {"pb": c["ENG 1 ANTI ICE"], "fault_light": eai_fault_light(b, 1, c, ac.eng.engines[0].running), "valve": opened(b.eai_open[0])},
        "ENG 2": {"pb": c["ENG 2 ANTI ICE"], "fault_light": eai_fault_light(b, 2, c, ac.eng.engines[1].running), "valve": opened(b.eai_open[1])},
    }
    return out


def pack_panel(b: Bleed, i: int, ac: Aircraft) -> dict[str, object]:
    """One pack as the BLEED and COND pages show it."""
    return {
        "pb": ac.controls[PACK[i]],
        "fault_light": b.pack_fault_light[i],
        "flow_control_valve": "OPEN" if b.pack_open[i] else "CLOSED",
        "flow_pct": round(b.pack_flow_pct[i]),
        "comp_outlet_temp_c": round(b.pack_comp_c[i]),
        "outlet_temp_c": round(b.pack_outlet_c[i]),
    }


def cond_page(b: Bleed, ac: Aircraft) -> dict[str, object]:
    """The COND page: packs, trim air and cabin zone temperatures."""
    c = ac.controls
    zone = CABIN_TEMP_C  # no zone temperature model: the zones hold their selection
    return {
        "PACK 1": pack_panel(b, 0, ac),
        "PACK 2": pack_panel(b, 1, ac),
        "HOT AIR": {"pb": c["HOT AIR"], "valve": "OPEN" if b.hot_air_open else "CLOSED"},
        "zones_temp_c": {"CKPT": zone, "FWD CABIN": zone, "AFT CABIN": zone},
        "RAM AIR": {"pb": c["RAM AIR"], "air_flowing": ac.press.ram_air_flowing},
    }


def inop(b: Bleed, ac: Aircraft) -> list[str]:
    """INOP SYS items for the STATUS page."""
    out: list[str] = []
    airborne = not ac.flight.on_ground
    for i in (0, 1):
        lost = b.bmc_fault[i] or b.fault_seen[i] or b.leak[PYLON[i]] or b.leak[WING[i]]
        if lost or (airborne and ac.eng.engines[i].running and ac.controls[ENG_BLEED[i]] == "OFF"):
            out.append(f"ENG {i + 1} BLEED")
    if b.leak[APU_ZONE]:
        out.append("APU BLEED")
    if airborne:
        for i in (0, 1):
            if not b.pack_open[i]:
                out.append(f"PACK {i + 1}")
    if b.leak[WING[0]] or b.leak[WING[1]] or b.wai_fault_seen:
        out.append("WING A.ICE")
    for i in (0, 1):
        if b.eai_fault_seen[i]:
            out.append(f"ENG {i + 1} A.ICE")
    return out


def memos(ac: Aircraft) -> list[str]:
    """ECAM memos: RAM AIR ON, WING A. ICE, ENG A. ICE."""
    c = ac.controls
    out = []
    if c["RAM AIR"] == "ON":
        out.append("RAM AIR ON")
    if c["WING ANTI ICE"] == "ON":
        out.append("WING A. ICE")
    if c["ENG 1 ANTI ICE"] == "ON" or c["ENG 2 ANTI ICE"] == "ON":
        out.append("ENG A. ICE")
    return out
