"""A320 point-mass performance: weight, drag polar, engine thrust and fuel flow, characteristic speeds.

Typical A320ceo / CFM56-5B figures, tuned so that the model flies the way
the aircraft does rather than sourced line by line: about 500-900 ft/min at
the top of a two-engine climb to FL350, an idle descent of 2,000-3,000 ft/min,
6,000-7,000 ft/min in an emergency descent at high speed with the speed
brakes out, a single-engine ceiling in the low to mid FL200s at typical
weights (drift-down), and about 1,100 kg/h per engine in cruise.

Thrust is modelled per engine between its idle thrust and its TOGA thrust at
the flight condition; a thrust *fraction* 0 (idle) .. 1 (TOGA) is what the
levers and the A/THR command and what the FADEC turns into an N1 target.
"""

from __future__ import annotations

import math
from functools import lru_cache

from .atmosphere import G, density_kg_m3, dynamic_pressure_pa, pressure_pa, P0_PA, RHO0

WING_AREA_M2 = 122.6
OEW_KG = 42600.0
PAYLOAD_KG = 14000.0  # about 140 passengers and their bags
K_INDUCED = 0.0375  # 1 / (pi * AR 9.5 * e 0.89)

# Configuration: (zero-lift drag coefficient, maximum lift coefficient).
CONFIGS = {"CLEAN": (0.023, 1.45), "CONF 1+F": (0.037, 2.0), "CONF 3": (0.055, 2.5)}
GEAR_CD = 0.015
SPD_BRK_CD = {"RET": 0.0, "HALF": 0.020, "FULL": 0.040}  # with all speed-brake spoilers available
ENGINE_OUT_CD = 0.004  # a windmilling fan, and the rudder/aileron trim of an asymmetric aircraft
MACH_CRIT = 0.72
WAVE_DRAG_K = 30.0

# Engine (per engine).
TOGA_SL_N = 120000.0  # CFM56-5B4: 27,000 lbf
N1_MAX_PCT = 98.0
THRUST_EXPONENT = 1.7  # thrust rises about as N1 to this power between idle and TOGA
CL_RATIO = 0.86  # climb detent / A/THR limit, share of TOGA thrust at the condition
MCT_RATIO = 0.93  # FLX/MCT detent
IDLE_THRUST_SL_N = 3500.0

VMO_KT = 350.0
MMO = 0.82


def weight_kg(fuel_kg: float) -> float:
    return OEW_KG + PAYLOAD_KG + fuel_kg


@lru_cache(maxsize=256)
def toga_thrust_n(alt_ft: float, mach: float) -> float:
    """Maximum thrust of one engine: flat rated at sea level, lapsing with density and Mach."""
    sigma = density_kg_m3(alt_ft) / RHO0
    return TOGA_SL_N * sigma * (1.0 - 0.30 * mach + 0.10 * mach * mach)


def idle_thrust_n(alt_ft: float) -> float:
    return IDLE_THRUST_SL_N * density_kg_m3(alt_ft) / RHO0


def rating_fraction(ratio: float, alt_ft: float, mach: float) -> float:
    """The thrust fraction (0 idle .. 1 TOGA) of a rating given as a share of TOGA thrust."""
    toga, idle = toga_thrust_n(alt_ft, mach), idle_thrust_n(alt_ft)
    return max(0.0, min(1.0, (ratio * toga - idle) / (toga - idle)))


def thrust_for_fraction(frac: float, alt_ft: float, mach: float) -> float:
    idle = idle_thrust_n(alt_ft)
    return idle + (toga_thrust_n(alt_ft, mach) - idle) * frac


def fraction_for_thrust(thrust_n: float, alt_ft: float, mach: float) -> float:
    idle = idle_thrust_n(alt_ft)
    return (thrust_n - idle) / (toga_thrust_n(alt_ft, mach) - idle)


def idle_n1_pct(ias_kt: float, on_ground: bool) -> float:
    """Ground idle ~20 % N1; flight (approach) idle rises with ram air."""
    return 20.0 if on_ground else max(20.0, 22.0 + 0.04 * ias_kt)


def n1_for_fraction(frac: float, idle_n1: float) -> float:
    return idle_n1 + (N1_MAX_PCT - idle_n1) * max(0.0, frac) ** (1.0 / THRUST_EXPONENT)


def fraction_for_n1(n1_pct: float, idle_n1: float) -> float:
    x = (n1_pct - idle_n1) / (N1_MAX_PCT - idle_n1)
    return max(0.0, x) ** THRUST_EXPONENT


def tsfc_kg_per_n_h(mach: float) -> float:
    """Thrust-specific fuel consumption: ~0.036 kg/N/h static, ~0.057 at M.78."""
    return 0.036 + 0.027 * mach


def idle_ff_kgh(alt_ft: float) -> float:
    """Ground idle ~300 kg/h; less at altitude."""
    return 180.0 + 120.0 * pressure_pa(alt_ft) / P0_PA


def fuel_flow_kgh(thrust_n: float, alt_ft: float, mach: float) -> float:
    return max(idle_ff_kgh(alt_ft), tsfc_kg_per_n_h(mach) * thrust_n)


def drag_n(mass_kg: float, mach: float, alt_ft: float, config: str, gear_down: bool, spd_brk_cd: float,
           engines_out: int, load_factor: float = 1.0) -> float:
    """Drag of the aircraft in level-ish flight at this Mach number and altitude."""
    q = dynamic_pressure_pa(mach, alt_ft)
    if q <= 1.0:
        return 0.0
    cd0, _ = CONFIGS[config]
    cl = load_factor * mass_kg * G / (q * WING_AREA_M2)
    cd = cd0 + K_INDUCED * cl * cl + spd_brk_cd + engines_out * ENGINE_OUT_CD
    if gear_down:
        cd += GEAR_CD
    if mach > MACH_CRIT:
        cd += WAVE_DRAG_K * (mach - MACH_CRIT) ** 4
    return q * WING_AREA_M2 * cd


def green_dot_kt(mass_kg: float, alt_ft: float) -> float:
    """Best lift-to-drag speed, the single-engine drift-down speed: 2 kt per tonne + 85 kt, +1 kt per
    1,000 ft above FL200 (FCOM rule of thumb)."""
    return 2.0 * mass_kg / 1000.0 + 85.0 + max(0.0, alt_ft - 20000.0) / 1000.0


def vls_kt(mass_kg: float, alt_ft: float, config: str) -> float:
    """Lowest selectable speed: 1.23 times the stall speed of the configuration."""
    _, cl_max = CONFIGS[config]
    vs_ms = math.sqrt(2.0 * mass_kg * G / (RHO0 * WING_AREA_M2 * cl_max))
    return 1.23 * vs_ms / 0.514444


@lru_cache(maxsize=256)
def vmax_kt(alt_ft: float, config: str) -> float:
    """VMO/MMO in clean configuration; the placard speed of the flaps otherwise."""
    from .atmosphere import cas_from_mach

    if config == "CONF 1+F":
        return 215.0
    if config == "CONF 3":
        return 185.0
    return min(VMO_KT, cas_from_mach(MMO, alt_ft))
