"""The one catalogue of cockpit controls, gathered from the system modules."""

from __future__ import annotations

from . import apu, bleed, fctl, crew, elec, eng, fire, flight, fuel, hyd, press, vent
from .catalog import Control

_ALL: tuple[Control, ...] = (
    *elec.CONTROLS, *hyd.CONTROLS, *fuel.CONTROLS, *bleed.CONTROLS, *press.CONTROLS,
    *eng.CONTROLS, *apu.CONTROLS, *fire.CONTROLS, *vent.CONTROLS, *fctl.CONTROLS, *flight.CONTROLS, *crew.CONTROLS,
)

CONTROLS: dict[str, Control] = {c.name: c for c in _ALL}

if len(CONTROLS) != len(_ALL):  # pragma: no cover - a catalogue bug
    raise RuntimeError("duplicate control names in the catalogue")
