"""Pneumatic and air conditioning (ATA 36/21): bleeds, crossbleed, packs, ram air, anti-ice.

STUB: contract only; the pneumatic model is being built. Engines read
`start_air_ok(n)`; the APU reads `apu_leak_isolated` and the APU BLEED control.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .catalog import Control, Failure

if TYPE_CHECKING:
    from .aircraft import Aircraft

ON_OFF = ("ON", "OFF")
CONTROLS = (
    Control("ENG 1 BLEED", "AIR COND", ON_OFF, "ON", description="Engine 1 bleed valve"),
    Control("ENG 2 BLEED", "AIR COND", ON_OFF, "ON", description="Engine 2 bleed valve"),
    Control("APU BLEED", "AIR COND", ON_OFF, "OFF", description="APU bleed valve"),
    Control("X BLEED", "AIR COND", ("SHUT", "AUTO", "OPEN"), "AUTO", description="Crossbleed valve selector"),
)
FAILURES: tuple[Failure, ...] = ()


@dataclass(slots=True)
class Bleed:
    transient: bool = False
    apu_leak_isolated: bool = False
    _air: bool = False

    def start_air_ok(self, n: int) -> bool:
        return self._air

    def update(self, dt: float, ac: Aircraft) -> None:
        self._air = ac.apu.bleed_valve_open or any(e.running for e in ac.eng.engines)

    def vars(self) -> dict[str, object]:
        return {}
