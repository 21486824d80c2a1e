"""Catalogue entry types: cockpit controls and injectable failures.

Each system module declares its own `CONTROLS` and `FAILURES`; `controls.py`
and `failures.py` gather them into the one catalogue that the scenario loader,
the MCP input schemas and the facade all read.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Control:
    """A cockpit control as the crew sees it.

    `default` is its position in a cold and dark cockpit. A momentary control
    (agent squibs, IDG disconnect, RAT MAN ON) acts when set to its action
    position and springs back to its rest position; the effect stays visible
    on the system pages.
    """

    name: str
    panel: str
    positions: tuple[str, ...]
    default: str
    guarded: bool = False
    momentary: bool = False
    description: str = ""

    def __post_init__(self) -> None:
        if self.default not in self.positions:
            raise ValueError(f"control {self.name}: default {self.default!r} not in {self.positions}")


@dataclass(frozen=True, slots=True)
class Failure:
    """A component failure the harness can inject.

    A failure breaks a component; the ECAM shows the consequences through the
    modelled systems, never from the id. `resettable` failures clear when the
    crew cycles the component (e.g. a GCU trip that a GEN OFF/ON resets).
    """

    id: str
    ata: int
    system: str
    description: str
    resettable: bool = False
