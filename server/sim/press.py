"""Cabin pressurisation (ATA 21): controllers, outflow valve, cabin altitude and rate.

STUB: contract only; the pressurisation model is being built.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .catalog import Control, Failure

if TYPE_CHECKING:
    from .aircraft import Aircraft

CONTROLS: tuple[Control, ...] = ()
FAILURES: tuple[Failure, ...] = ()


@dataclass(slots=True)
class Press:
    cabin_alt_ft: float = 0.0
    transient: bool = False

    def update(self, dt: float, ac: Aircraft) -> None:
        pass

    def vars(self) -> dict[str, object]:
        return {"press.cabin_alt_ft": round(self.cabin_alt_ft)}
