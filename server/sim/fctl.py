"""Flight control computers (ATA 27): ELAC 1/2, SEC 1/2/3, FAC 1/2 and the control law.

STUB: contract only; being built.
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
class Fctl:
    transient: bool = False

    def update(self, dt: float, ac: Aircraft) -> None:
        pass

    def vars(self) -> dict[str, object]:
        return {}
