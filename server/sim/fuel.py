"""Fuel (ATA 28): tanks, pumps, mode selector, crossfeed, LP valves, burn.

STUB: contract only; the fuel model is being built. Engines read
`engine_fed(n)`; the fire system and ENG MASTER close the LP valves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .catalog import Control, Failure

if TYPE_CHECKING:
    from .aircraft import Aircraft

CONTROLS: tuple[Control, ...] = ()
FAILURES: tuple[Failure, ...] = ()


@dataclass(slots=True)
class Fuel:
    transient: bool = False
    _fed: list = field(default_factory=lambda: [False, False])

    def lp_valve_open(self, n: int, ac: Aircraft) -> bool:
        return ac.controls[f"ENG MASTER {n}"] == "ON" and not ac.fire.eng_fire_pb_released(n)

    def engine_fed(self, n: int) -> bool:
        return self._fed[n - 1]

    def update(self, dt: float, ac: Aircraft) -> None:
        self._fed = [self.lp_valve_open(1, ac), self.lp_valve_open(2, ac)]

    def vars(self) -> dict[str, object]:
        return {}
