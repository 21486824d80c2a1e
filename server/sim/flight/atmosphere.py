"""The ISA atmosphere and airspeed conversions (troposphere and lower stratosphere).

Speeds in knots, altitudes in feet at the interface; SI inside. CAS and Mach
use the compressible (subsonic) pitot formulas, so FL350 at 270 kt is about
M.80 as on the aircraft's displays. The functions of altitude alone are
cached: within a step every system asks about the same altitude.
"""

from __future__ import annotations

import math
from functools import lru_cache

KT = 0.514444  # m/s per knot
FT = 0.3048  # m per foot
G = 9.80665
R_AIR = 287.053
GAMMA = 1.4
P0_PA = 101325.0
T0_K = 288.15
RHO0 = 1.225
A0_MS = math.sqrt(GAMMA * R_AIR * T0_K)
LAPSE_K_PER_M = 0.0065
TROPOPAUSE_M = 11000.0
T_TROP_K = T0_K - LAPSE_K_PER_M * TROPOPAUSE_M
P_TROP_PA = P0_PA * (T_TROP_K / T0_K) ** (G / (R_AIR * LAPSE_K_PER_M))


@lru_cache(maxsize=256)
def temperature_k(alt_ft: float) -> float:
    h = max(0.0, alt_ft) * FT
    return T0_K - LAPSE_K_PER_M * min(h, TROPOPAUSE_M)


@lru_cache(maxsize=256)
def pressure_pa(alt_ft: float) -> float:
    h = max(0.0, alt_ft) * FT
    if h <= TROPOPAUSE_M:
        return P0_PA * (1.0 - LAPSE_K_PER_M * h / T0_K) ** (G / (R_AIR * LAPSE_K_PER_M))
    return P_TROP_PA * math.exp(-G * (h - TROPOPAUSE_M) / (R_AIR * T_TROP_K))


@lru_cache(maxsize=256)
def density_kg_m3(alt_ft: float) -> float:
    return pressure_pa(alt_ft) / (R_AIR * temperature_k(alt_ft))


@lru_cache(maxsize=256)
def sound_speed_ms(alt_ft: float) -> float:
    return math.sqrt(GAMMA * R_AIR * temperature_k(alt_ft))


def mach_from_cas(cas_kt: float, alt_ft: float) -> float:
    """Mach number for a calibrated airspeed at this pressure altitude."""
    if cas_kt <= 0.0:
        return 0.0
    qc = P0_PA * ((1.0 + 0.2 * (cas_kt * KT / A0_MS) ** 2) ** 3.5 - 1.0)
    return math.sqrt(5.0 * ((qc / pressure_pa(alt_ft) + 1.0) ** (2.0 / 7.0) - 1.0))


def cas_from_mach(mach: float, alt_ft: float) -> float:
    if mach <= 0.0:
        return 0.0
    qc = pressure_pa(alt_ft) * ((1.0 + 0.2 * mach * mach) ** 3.5 - 1.0)
    return A0_MS * math.sqrt(5.0 * ((qc / P0_PA + 1.0) ** (2.0 / 7.0) - 1.0)) / KT


def tas_ms(cas_kt: float, alt_ft: float) -> float:
    return mach_from_cas(cas_kt, alt_ft) * sound_speed_ms(alt_ft)


def cas_from_tas(tas: float, alt_ft: float) -> float:
    """Calibrated airspeed (kt) for a true airspeed (m/s) at this altitude."""
    return cas_from_mach(tas / sound_speed_ms(alt_ft), alt_ft)


def dynamic_pressure_pa(mach: float, alt_ft: float) -> float:
    """q = 0.7 p M^2 (exact for the incompressible-form drag coefficients used here)."""
    return 0.7 * pressure_pa(alt_ft) * mach * mach
