"""Bleed air supply: the engine bleed valves with their BMC overpressure/overheat trips, the APU
bleed valve, the crossbleed, and the resulting pressure on each side of the duct."""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from typing import TYPE_CHECKING

from .catalog import ENG_BLEED, OVERHEAT, OVERPRESS
from .leaks import APU_ZONE, PYLON, WING

if TYPE_CHECKING:
    from ..tick import Tick
    from ..reads import FirePushbuttons
    from .system import ApuBleed, Bleed, EngineAir

REG_PSI = 45.0  # regulated duct pressure (uncertain: 40-45 psi)
APU_PSI = 38.0
APU_FULL_FLOW_PSI = 25.0  # a pack gets its full flow from this duct pressure up (packs.flow)
APU_TWO_PACKS_FT = 15000.0
APU_ONE_PACK_FT = 22500.0
FAILED_REG_PSI = 75.0  # regulation lost: the duct sees near-HP pressure
BMC_OVERPRESS_PSI = 60.0
PRECOOLER_C = 190.0
FAILED_PRECOOLER_C = 290.0
BMC_OVHT_C = 257.0
SUPPLY_TAU_S = 1.0
TEMP_TAU_S = 8.0
START_AIR_PSI = 20.0  # start valve needs this much in the duct
CLOSED_DUCT_C = 60.0


def port_key(b: Bleed, i: int, n2_pct: float) -> object:
    """What engine N2 means to the bleed: with the valve closed only whether it could open;
    with it open the port pressure below regulation and the HP valve."""
    port_psi = (n2_pct - 20.0) * 1.2
    if not b.eng_valve_open[i]:
        return port_psi > 8.0
    return min(REG_PSI, round(port_psi, 1)), n2_pct < 75.0


def apu_and_crossbleed(b: Bleed, t: Tick, apu: ApuBleed, side_leak: tuple[bool, bool], altitude_ft: float) -> bool:
    """Solve the APU bleed and crossbleed valves. True if either changed."""
    leak = b.leak
    # APU bleed: the APU opens its valve (N > 95 %, APU BLEED ON); a leak on the left side,
    # which the APU duct feeds, also keeps APU air out (FCOM: APU valve closes on L wing/pylon leak).
    apu_air = apu.bleed_valve_open and not side_leak[0]
    # Crossbleed: AUTO opens with APU bleed and shuts on any wing, pylon or APU leak.
    sel = t.controls["X BLEED"]
    if sel == "OPEN":
        x_open = True
    elif sel == "SHUT":
        x_open = False
    else:
        x_open = apu_air and not (side_leak[0] or side_leak[1] or leak[APU_ZONE])
    changed = apu_air != b.apu_valve_open or x_open != b.xbleed_open
    b.apu_valve_open = apu_air
    b.xbleed_open = x_open
    packs_on = (t.controls["PACK 1"] == "ON") + (t.controls["PACK 2"] == "ON")
    b.apu_supply_psi = apu_bleed_psi(altitude_ft, packs_on) if apu_air else 0.0
    return changed


def apu_bleed_psi(altitude_ft: float, packs: int) -> float:
    """APU bleed pressure for `packs` packs at this altitude. The APU's air falls off with altitude:
    enough for both packs up to about 15,000 ft and for one up to about 22,500 ft (FCOM APU bleed
    limits); above, the packs get less than their flow and close below their minimum pressure."""
    if altitude_ft <= APU_TWO_PACKS_FT:
        capacity = 2.0 + (APU_TWO_PACKS_FT - max(0.0, altitude_ft)) / APU_TWO_PACKS_FT  # 3 at sea level
    elif altitude_ft <= APU_ONE_PACK_FT:
        capacity = 2.0 - (altitude_ft - APU_TWO_PACKS_FT) / (APU_ONE_PACK_FT - APU_TWO_PACKS_FT)
    else:
        capacity = max(0.0, 1.0 - (altitude_ft - APU_ONE_PACK_FT) / (APU_ONE_PACK_FT - APU_TWO_PACKS_FT))
    share = capacity / max(1, packs)  # pack flows the APU can give each pack
    return min(APU_PSI, APU_FULL_FLOW_PSI * share)


def engine_valves(b: Bleed, t: Tick, engs: Sequence[EngineAir], fire: FirePushbuttons,
                  side_leak: tuple[bool, bool]) -> bool:
    """Solve both engine bleed valves and their supply pressure and precooler temperature.
    Runs after `apu_and_crossbleed`. True if a valve changed or a failed supply is still drifting."""
    c, f, dt = t.controls, t.failures, t.dt
    apu_air = b.apu_valve_open
    x_open = b.xbleed_open
    changed = False
    moving = False
    k_supply = min(1.0, dt / SUPPLY_TAU_S)
    k_temp = min(1.0, dt / TEMP_TAU_S)
    for i in (0, 1):
        e = engs[i]
        pb_on = c[ENG_BLEED[i]] == "ON"
        if not pb_on:
            b.bmc_fault[i] = False  # selecting OFF resets the BMC latch
        elif b.supply_psi[i] > BMC_OVERPRESS_PSI or b.precooler_c[i] > BMC_OVHT_C:
            b.bmc_fault[i] = True
            b.fault_seen[i] = True
        port_psi = (e.n2_pct - 20.0) * 1.2  # IP/HP port pressure available
        is_open = (
            pb_on
            and port_psi > 8.0
            and not b.bmc_fault[i]
            and not side_leak[i]
            and not fire.eng_fire_pb_released(i + 1)
            and not e.start_valve_open
            and not (apu_air and (i == 0 or x_open))  # APU bleed in use closes the engine bleeds
        )
        if is_open != b.eng_valve_open[i]:
            changed = True
        b.eng_valve_open[i] = is_open
        b.hp_valve_open[i] = is_open and e.n2_pct < 75.0  # HP port used at low power
        if is_open:
            target = FAILED_REG_PSI if OVERPRESS[i] in f else min(port_psi, REG_PSI)
            t_target = FAILED_PRECOOLER_C if OVERHEAT[i] in f else PRECOOLER_C
            if not b.bmc_fault[i]:
                b.fault_seen[i] = False
        else:
            target, t_target = 0.0, CLOSED_DUCT_C
        # Nominal air settles within a tick; a failed regulator or precooler drifts there,
        # so the BMC trips a few seconds after the failure, as on the aircraft.
        if OVERPRESS[i] in f or OVERHEAT[i] in f or b.precooler_c[i] > PRECOOLER_C + 1.0:
            p = b.supply_psi[i] = b.supply_psi[i] + (target - b.supply_psi[i]) * k_supply
            t = b.precooler_c[i] = b.precooler_c[i] + (t_target - b.precooler_c[i]) * k_temp
            if abs(p - target) > 0.05 or abs(t - t_target) > 0.5:
                moving = True
        else:
            b.supply_psi[i], b.precooler_c[i] = target, t_target
    return changed or moving


def duct_pressure(b: Bleed, failures: Set[str], leaking: bool) -> None:
    """Duct pressure per side from the open valves; an open crossbleed joins the two sides.
    `leaking`: a leak failure is active (detected or not)."""
    s0 = b.supply_psi[0] if b.eng_valve_open[0] else 0.0
    s1 = b.supply_psi[1] if b.eng_valve_open[1] else 0.0
    e0, e1 = s0 > 0.0, s1 > 0.0
    s0 = max(s0, b.apu_supply_psi)
    if b.xbleed_open:
        s0 = s1 = max(s0, s1)
        e0 = e1 = e0 or e1
    if leaking:  # an unisolated leak bleeds a few psi off its side
        if s0 > 5.0 and ("air_eng1_pylon_leak" in failures or "air_l_wing_leak" in failures):
            s0 -= 3.0
        if s1 > 5.0 and ("air_eng2_pylon_leak" in failures or "air_r_wing_leak" in failures):
            s1 -= 3.0
    b.duct_psi[0], b.duct_psi[1] = s0, s1
    b.engine_air[0], b.engine_air[1] = e0, e1


def eng_fault_light(b: Bleed, n: int, c: Mapping[str, str]) -> bool:
    """ENG n BLEED FAULT: BMC overpressure/overheat or a leak on that side, PB not OFF."""
    i = n - 1
    side_leak = b.leak[PYLON[i]] or b.leak[WING[i]]
    return (b.bmc_fault[i] or side_leak) and c[ENG_BLEED[i]] == "ON"
