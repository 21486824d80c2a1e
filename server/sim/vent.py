"""Avionics ventilation, cabin fans and cargo smoke (ATA 21/26).

STUB: contract only; being built.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .catalog import Control, Failure

if TYPE_CHECKING:
    from .aircraft import Aircraft

CONTROLS = (
    Control("BLOWER", "VENT", ("AUTO", "OVRD"), "AUTO", description="Avionics ventilation blower"),
    Control("EXTRACT", "VENT", ("AUTO", "OVRD"), "AUTO", description="Avionics ventilation extract"),
    Control("CAB FANS", "VENT", ("ON", "OFF"), "ON", description="Cabin recirculation fans"),
)
FAILURES: tuple[Failure, ...] = ()


@dataclass(slots=True)
class Vent:
    transient: bool = False

    def update(self, dt: float, ac: Aircraft) -> None:
        pass

    def vars(self) -> dict[str, object]:
        return {}
