"""Fire protection (ATA 26): engine and APU detection loops, FIRE pushbuttons, agents.

STUB: contract only; the fire model is being built. Other systems read
`eng_fire_pb_released(n)`, `apu_fire_pb_released`, `apu_ground_auto_shutdown`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .catalog import Control, Failure

if TYPE_CHECKING:
    from .aircraft import Aircraft

CONTROLS = (
    Control("ENG 1 FIRE", "FIRE", ("IN", "RELEASED"), "IN", guarded=True,
            description="Engine 1 FIRE pushbutton: releasing it isolates engine 1 and arms its agents"),
    Control("ENG 2 FIRE", "FIRE", ("IN", "RELEASED"), "IN", guarded=True,
            description="Engine 2 FIRE pushbutton: releasing it isolates engine 2 and arms its agents"),
    Control("APU FIRE", "FIRE", ("IN", "RELEASED"), "IN", guarded=True,
            description="APU FIRE pushbutton: releasing it shuts the APU down and arms its agent"),
)
FAILURES: tuple[Failure, ...] = ()


@dataclass(slots=True)
class Fire:
    transient: bool = False
    apu_ground_auto_shutdown: bool = False
    _released: tuple[bool, bool] = (False, False)
    apu_fire_pb_released: bool = False

    def eng_fire_pb_released(self, n: int) -> bool:
        return self._released[n - 1]

    def update(self, dt: float, ac: Aircraft) -> None:
        c = ac.controls
        self._released = (c["ENG 1 FIRE"] == "RELEASED", c["ENG 2 FIRE"] == "RELEASED")
        self.apu_fire_pb_released = c["APU FIRE"] == "RELEASED"

    def vars(self) -> dict[str, object]:
        return {}
