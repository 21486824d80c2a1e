"""Anti-ice (ATA 30): wing anti-ice valves on engine bleed air (a 30 s test on the ground),
engine nacelle anti-ice on the engine's own HP air, and their FAULT lights."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from .catalog import EAI_FAIL, ENG_AI, WAI_FAIL_L
from .leaks import WING

if TYPE_CHECKING:
    from ..tick import Tick
    from .system import Bleed, EngineAir

WAI_MIN_PSI = 15.0
WAI_GROUND_TEST_S = 30.0


def update(b: Bleed, t: Tick, engs: Sequence[EngineAir], on_ground: bool) -> bool:
    """Solve the wing and engine anti-ice valves. Runs after the duct pressure.
    True while the ground test is timing."""
    c, f, dt = t.controls, t.failures, t.dt
    moving = False
    # Wing anti-ice: engine bleed air only; on the ground a 30 s test.
    wai_pb = c["WING ANTI ICE"] == "ON"
    if wai_pb and on_ground:
        b.wai_test_s = min(WAI_GROUND_TEST_S, b.wai_test_s + dt)
        if b.wai_test_s < WAI_GROUND_TEST_S:
            moving = True
    elif not wai_pb:
        b.wai_test_s = 0.0
    wai_cmd = wai_pb and (not on_ground or b.wai_test_s < WAI_GROUND_TEST_S)
    for i in (0, 1):
        b.wai_open[i] = (
            wai_cmd
            and b.engine_air[i]
            and b.duct_psi[i] >= WAI_MIN_PSI
            and not b.leak[WING[i]]
            and not (i == 0 and WAI_FAIL_L in f)
        )
        # Engine anti-ice: the engine's own HP air, independent of the bleed valve.
        b.eai_open[i] = c[ENG_AI[i]] == "ON" and engs[i].running and EAI_FAIL[i] not in f
        if b.eai_open[i]:
            b.eai_fault_seen[i] = False
        elif eai_fault_light(b, i + 1, c, engs[i].running):
            b.eai_fault_seen[i] = True
    if b.wai_open[0] and b.wai_open[1]:
        b.wai_fault_seen = False
    elif wai_fault_light(b, c, on_ground):
        b.wai_fault_seen = True
    return moving


def wai_fault_light(b: Bleed, c: Mapping[str, str], on_ground: bool) -> bool:
    """WING ANTI ICE FAULT: selected ON in flight and a wing valve is not open."""
    return c["WING ANTI ICE"] == "ON" and not on_ground and not (b.wai_open[0] and b.wai_open[1])


def eai_fault_light(b: Bleed, n: int, c: Mapping[str, str], running: bool) -> bool:
    """ENG n ANTI ICE FAULT: selected ON with the engine running and the valve not open."""
    return c[ENG_AI[n - 1]] == "ON" and running and not b.eai_open[n - 1]
