"""The ECAM alert catalogue, in FWC priority order within each level.

One list: the FWC evaluates it, the scenario loader checks `expected_ecam`
titles against it, and `a320-bench validate` reports unknown titles from it.
"""

from __future__ import annotations

from . import alerts_air, alerts_apu, alerts_elec, alerts_eng, alerts_fire, alerts_fuel, alerts_hyd, alerts_other
from .model import AlertDef

ALERTS: tuple[AlertDef, ...] = (
    *alerts_fire.ALERTS,
    *alerts_eng.ALERTS,
    *alerts_elec.ALERTS,
    *alerts_hyd.ALERTS,
    *alerts_air.ALERTS,
    *alerts_fuel.ALERTS,
    *alerts_apu.ALERTS,
    *alerts_other.ALERTS,
)

ALERT_TITLES: tuple[str, ...] = tuple(a.title for a in ALERTS)
BY_TITLE: dict[str, AlertDef] = {a.title: a for a in ALERTS}

if len(set(ALERT_TITLES)) != len(ALERT_TITLES):  # pragma: no cover - a catalogue bug
    dup = sorted({t for t in ALERT_TITLES if ALERT_TITLES.count(t) > 1})
    raise RuntimeError(f"duplicate ECAM alert titles: {dup}")
