"""The one catalogue of injectable failures, gathered from the system modules."""

from __future__ import annotations

from . import apu, bleed, fctl, elec, eng, fire, fuel, hyd, press, vent
from .catalog import Failure

_ALL: tuple[Failure, ...] = (
    *elec.FAILURES, *hyd.FAILURES, *fuel.FAILURES, *bleed.FAILURES, *press.FAILURES,
    *eng.FAILURES, *apu.FAILURES, *fire.FAILURES, *vent.FAILURES, *fctl.FAILURES,
)

FAILURES: dict[str, Failure] = {f.id: f for f in _ALL}

if len(FAILURES) != len(_ALL):  # pragma: no cover - a catalogue bug
    raise RuntimeError("duplicate failure ids in the catalogue")
