"""Leak detection: the loops along the pylons, the wings and the APU duct heat up next to a
hot air leak; detection latches and closes the valves that feed the leak (domain reference §1.4)."""

from __future__ import annotations

from collections.abc import Set
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..tick import Tick
    from .system import ApuBleed, Bleed

LOOP_AMBIENT_C = 30.0
LOOP_LEAK_C = 250.0
LOOP_TAU_S = 6.0

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
LEAK_FAILURES = frozenset(z[1] for z in ZONES)


def detect(b: Bleed, failures: Set[str]) -> bool:
    """Latch or release each zone from the loop temperatures of the last tick. True if a latch changed."""
    # Detection latches and isolates the leak; it releases only once the leak is gone and the
    # loop has cooled.
    changed = False
    leak = b.leak
    loop_c = b.loop_c
    for z, (_, fid, _, limit) in enumerate(ZONES):
        if loop_c[z] > limit:
            if not leak[z]:
                leak[z] = changed = True
        elif leak[z] and fid not in failures and loop_c[z] < limit - 20.0:
            leak[z] = False
            changed = True
    b.apu_leak_isolated = leak[APU_ZONE]
    return changed


def side_leaks(b: Bleed) -> tuple[bool, bool]:
    """A detected leak on each duct side (its pylon or its wing)."""
    leak = b.leak
    return (leak[PYLON[0]] or leak[WING[0]], leak[PYLON[1]] or leak[WING[1]])


def heat_loops(b: Bleed, t: Tick, apu: ApuBleed, leaking: bool) -> bool:
    """Leak loops heat up while hot air escapes next to them (`leaking`: a leak failure is active),
    and cool down after. True while a loop temperature is still moving."""
    if not (leaking or b.loops_warm):
        return False
    f, dt = t.failures, t.dt
    loop_c = b.loop_c
    moving = False
    k_loop = min(1.0, dt / LOOP_TAU_S)
    warm = False
    for z, (_, fid, side, _) in enumerate(ZONES):
        pressurised = apu.bleed_valve_open if side is None else b.duct_psi[side] > 5.0
        target = LOOP_LEAK_C if (fid in f and pressurised) else LOOP_AMBIENT_C
        t = loop_c[z] = loop_c[z] + (target - loop_c[z]) * k_loop
        if abs(t - target) > 0.5:
            moving = True
        if t > LOOP_AMBIENT_C + 0.5:
            warm = True
    b.loops_warm = warm
    return moving
